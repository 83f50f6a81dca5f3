//! Decoding the browser's messages leniently: text with lone UTF-16 surrogates (what cutting an
//! emoji in half gives) and values nested deeper than serde_json's default limit still decode,
//! and a message that cannot be decoded still names the call it answers.

use serde::Deserialize;
use serde_json::Value;

/// Deepest nesting decoded (Chromium's own serializer stops far earlier).
const MAX_DEPTH: usize = 10_000;

/// Decodes one message; lone surrogate escapes become U+FFFD.
pub fn message(text: &str) -> Result<Value, String> {
    match parse(text) {
        Ok(v) => Ok(v),
        Err(e) if has_surrogate_escape(text) => {
            parse(&replace_lone_surrogates(text)).map_err(|_| e.to_string())
        }
        Err(e) => Err(e.to_string()),
    }
}

fn parse(text: &str) -> Result<Value, serde_json::Error> {
    if nesting(text) > MAX_DEPTH {
        return Err(serde::de::Error::custom(format!(
            "the value is nested more than {MAX_DEPTH} levels deep"
        )));
    }
    let mut de = serde_json::Deserializer::from_str(text);
    de.disable_recursion_limit();
    let v = Value::deserialize(&mut de)?;
    de.end()?;
    Ok(v)
}

/// Deepest bracket nesting outside strings (a cheap pre-check that bounds recursion).
fn nesting(text: &str) -> usize {
    let (mut depth, mut max, mut in_str, mut esc) = (0usize, 0usize, false, false);
    for b in text.bytes() {
        if in_str {
            match (esc, b) {
                (true, _) => esc = false,
                (false, b'\\') => esc = true,
                (false, b'"') => in_str = false,
                _ => {}
            }
            continue;
        }
        match b {
            b'"' => in_str = true,
            b'{' | b'[' => {
                depth += 1;
                max = max.max(depth);
            }
            b'}' | b']' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    max
}

fn has_surrogate_escape(text: &str) -> bool {
    text.as_bytes().windows(4).any(|w| {
        w[0] == b'\\'
            && w[1] == b'u'
            && matches!(w[2], b'd' | b'D')
            && matches!(w[3], b'8'..=b'9' | b'a'..=b'f' | b'A'..=b'F')
    })
}

/// The 16-bit value of a `\uXXXX` escape starting at `i`, if there is one.
fn escape_at(b: &[u8], i: usize) -> Option<u16> {
    if i + 6 <= b.len() && b[i] == b'\\' && b[i + 1] == b'u' {
        let hex = std::str::from_utf8(&b[i + 2..i + 6]).ok()?;
        return u16::from_str_radix(hex, 16).ok();
    }
    None
}

/// Replaces every `\uD800`-`\uDFFF` escape that is not half of a valid pair with `\uFFFD`.
pub fn replace_lone_surrogates(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    let mut last = 0;
    while i < b.len() {
        if b[i] == b'\\' {
            if let Some(u) = escape_at(b, i) {
                let high = (0xD800..0xDC00).contains(&u);
                let low = (0xDC00..0xE000).contains(&u);
                if high && escape_at(b, i + 6).is_some_and(|n| (0xDC00..0xE000).contains(&n)) {
                    i += 12;
                    continue;
                }
                if high || low {
                    out.push_str(&text[last..i]);
                    out.push_str("\\uFFFD");
                    i += 6;
                    last = i;
                    continue;
                }
                i += 6;
                continue;
            }
            i += 2; // any other escape, e.g. \\ or \"
            continue;
        }
        i += 1;
    }
    out.push_str(&text[last..]);
    out
}

/// The `id` of a message's top-level object, found without decoding the rest.
pub fn top_level_id(text: &str) -> Option<u64> {
    let b = text.as_bytes();
    let (mut depth, mut i) = (0usize, 0usize);
    while i < b.len() {
        match b[i] {
            b'"' => {
                let start = i + 1;
                i += 1;
                while i < b.len() && b[i] != b'"' {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
                let key = &b[start..i.min(b.len())];
                i += 1;
                if depth == 1 && key == b"id" {
                    while i < b.len() && (b[i] == b':' || b[i].is_ascii_whitespace()) {
                        i += 1;
                    }
                    let end = b[i..]
                        .iter()
                        .position(|c| !c.is_ascii_digit())
                        .map_or(b.len(), |p| i + p);
                    return std::str::from_utf8(&b[i..end]).ok()?.parse().ok();
                }
                continue;
            }
            b'{' | b'[' => depth += 1,
            b'}' | b']' => depth = depth.saturating_sub(1),
            _ => {}
        }
        i += 1;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lone_surrogates_become_replacement_characters() {
        let v =
            message(r#"{"id":3,"result":{"value":"\ud83dBuy \ud83d\ude00 a\udc00b"}}"#).unwrap();
        assert_eq!(v["result"]["value"], "\u{FFFD}Buy \u{1F600} a\u{FFFD}b");
        assert_eq!(message(r#"{"v":"\\ud83d"}"#).unwrap()["v"], "\\ud83d");
    }

    #[test]
    fn deep_values_decode_and_ids_are_found_without_decoding() {
        let deep = format!(
            "{{\"id\":7,\"result\":{}1{}}}",
            "[".repeat(300),
            "]".repeat(300)
        );
        assert!(message(&deep).is_ok());
        let too_deep = format!(
            "{{\"id\":8,\"result\":{}1{}}}",
            "[".repeat(20_000),
            "]".repeat(20_000)
        );
        assert!(message(&too_deep).unwrap_err().contains("nested more than"));
        assert_eq!(top_level_id(&too_deep), Some(8));
        assert_eq!(top_level_id(r#"{"method":"x","params":{"id":5}}"#), None);
        assert_eq!(top_level_id(r#"{"result":{"id":5},"id":12}"#), Some(12));
        assert!(message("{not json").is_err());
    }
}
