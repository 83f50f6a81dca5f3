//! Cookie files for `cookies_set --file`: JSON (a list of cookies, or a Playwright storageState's
//! `cookies`), a Netscape cookies.txt (curl, wget, browser exports), or a `Cookie:` header line.
//! A malformed file is `invalid_argument` naming the line.

use agentbrowser_protocol::{CookieInput, SameSite};
use serde_json::Value;

use crate::error::{EngineError, Result};

/// Reads and parses a cookie file; `url` or `domain` say whose a header's cookies are.
pub(crate) fn parse_file(
    path: &str,
    url: Option<&str>,
    domain: Option<&str>,
) -> Result<Vec<CookieInput>> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| super::store::io_error(&format!("cannot read the cookie file {path}"), e))?;
    let cookies =
        parse(&text, url, domain).map_err(|m| EngineError::invalid(format!("{path}: {m}")))?;
    if cookies.is_empty() {
        return Err(EngineError::invalid(format!("{path}: holds no cookies")));
    }
    Ok(cookies)
}

/// Parses a cookie file's text (the format is detected from its content).
pub(crate) fn parse(
    text: &str,
    url: Option<&str>,
    domain: Option<&str>,
) -> std::result::Result<Vec<CookieInput>, String> {
    let t = text.trim_start();
    if t.starts_with('[') || t.starts_with('{') {
        return json_cookies(text);
    }
    let first = text
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty())
        .unwrap_or_default();
    if first.to_ascii_lowercase().starts_with("cookie:")
        || (!first.contains('\t') && !first.starts_with('#'))
    {
        return header(first, url, domain);
    }
    netscape(text)
}

/// A JSON list of cookies, or an object with `cookies`.
fn json_cookies(text: &str) -> std::result::Result<Vec<CookieInput>, String> {
    let v: Value = serde_json::from_str(text).map_err(|e| {
        format!(
            "malformed JSON at line {}, column {}: {e}",
            e.line(),
            e.column()
        )
    })?;
    let list = match &v {
        Value::Array(_) => v.clone(),
        Value::Object(o) => o.get("cookies").cloned().ok_or(
            "a JSON object must have a `cookies` list (a Playwright storageState); or give a list of cookies",
        )?,
        _ => return Err("JSON must be a list of cookies or an object with `cookies`".into()),
    };
    let Value::Array(items) = list else {
        return Err("`cookies` must be a list".into());
    };
    items
        .iter()
        .enumerate()
        .map(|(i, c)| json_cookie(c).map_err(|m| format!("cookie {} (index {i}): {m}", i + 1)))
        .collect()
}

/// One cookie of a JSON file: Playwright's fields (name, value, url or domain, path, expires,
/// httpOnly, secure, sameSite); other fields (size, session, priority...) are ignored.
pub(crate) fn json_cookie(c: &Value) -> std::result::Result<CookieInput, String> {
    let s = |k: &str| c.get(k).and_then(Value::as_str).map(str::to_string);
    let b = |k: &str| c.get(k).and_then(Value::as_bool);
    let name = s("name").ok_or("it has no string `name`")?;
    let value = s("value").ok_or("it has no string `value`")?;
    let same_site = match c.get("sameSite") {
        None | Some(Value::Null) => None,
        Some(v) => Some(same_site(v.as_str().unwrap_or_default())?),
    };
    let expires = match c.get("expires") {
        None | Some(Value::Null) => None,
        Some(v) => Some(v.as_f64().ok_or("`expires` is not a number")?),
    };
    Ok(CookieInput {
        name,
        value,
        url: s("url"),
        domain: s("domain"),
        path: s("path"),
        expires,
        http_only: b("httpOnly"),
        secure: b("secure"),
        same_site,
    })
}

/// A SameSite spelling (any case).
fn same_site(s: &str) -> std::result::Result<SameSite, String> {
    match s.to_ascii_lowercase().as_str() {
        "strict" => Ok(SameSite::Strict),
        "lax" => Ok(SameSite::Lax),
        "none" | "no_restriction" => Ok(SameSite::None),
        _ => Err(format!("sameSite {s:?} is not one of Strict, Lax, None")),
    }
}

/// A `Cookie:` header line (`a=1; b=2`), for `url` or `domain`.
fn header(
    line: &str,
    url: Option<&str>,
    domain: Option<&str>,
) -> std::result::Result<Vec<CookieInput>, String> {
    if url.is_none() && domain.is_none() {
        return Err(
            "a `Cookie:` header does not say whose cookies these are; give --url or --domain"
                .into(),
        );
    }
    let body = match line.split_once(':') {
        Some((h, rest)) if h.trim().eq_ignore_ascii_case("cookie") => rest,
        _ => line,
    };
    let mut out = vec![];
    for (i, pair) in body
        .split(';')
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .enumerate()
    {
        let (name, value) = pair.split_once('=').ok_or_else(|| {
            format!("line 1: pair {} ({pair:?}) has no `=`; a Cookie header is `name=value; name2=value2`", i + 1)
        })?;
        if name.trim().is_empty() {
            return Err(format!("line 1: pair {} has an empty name", i + 1));
        }
        out.push(CookieInput {
            name: name.trim().to_string(),
            value: value.trim().to_string(),
            url: url.map(str::to_string),
            domain: domain.map(str::to_string),
            ..CookieInput::default()
        });
    }
    Ok(out)
}

/// A Netscape cookies.txt: `domain  include-subdomains  path  secure  expires  name  value`,
/// tab-separated; `#HttpOnly_` before the domain marks an HttpOnly cookie.
fn netscape(text: &str) -> std::result::Result<Vec<CookieInput>, String> {
    let mut out = vec![];
    for (n, raw) in text.lines().enumerate() {
        let line_no = n + 1;
        let mut line = raw.trim_end_matches('\r');
        let mut http_only = false;
        if let Some(rest) = line.strip_prefix("#HttpOnly_") {
            line = rest;
            http_only = true;
        } else if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let f: Vec<&str> = line.split('\t').collect();
        if f.len() != 7 {
            return Err(format!(
                "line {line_no}: {} tab-separated fields, a Netscape cookies.txt line has 7 (domain, include-subdomains, path, secure, expires, name, value)",
                f.len()
            ));
        }
        let flag = |s: &str, what: &str| match s.to_ascii_uppercase().as_str() {
            "TRUE" => Ok(true),
            "FALSE" => Ok(false),
            _ => Err(format!(
                "line {line_no}: {what} is {s:?}, not TRUE or FALSE"
            )),
        };
        let subdomains = flag(f[1], "include-subdomains")?;
        let secure = flag(f[3], "secure")?;
        let expires: i64 = f[4]
            .parse()
            .map_err(|_| format!("line {line_no}: expires {:?} is not a whole number", f[4]))?;
        let host = f[0].trim_start_matches('.');
        let domain = if subdomains {
            format!(".{host}")
        } else {
            host.to_string()
        };
        out.push(CookieInput {
            name: f[5].to_string(),
            value: f[6].to_string(),
            url: None,
            domain: Some(domain),
            path: Some(f[2].to_string()),
            expires: (expires > 0).then_some(expires as f64),
            http_only: Some(http_only),
            secure: Some(secure),
            same_site: None,
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_are_detected_and_malformed_lines_named() {
        let ns = "# Netscape HTTP Cookie File\n#HttpOnly_.example.com\tTRUE\t/\tFALSE\t0\tsid\tabc\nexample.com\tFALSE\t/a\tTRUE\t2000000000\tk\tv\n";
        let c = parse(ns, None, None).unwrap();
        assert_eq!(c.len(), 2);
        assert_eq!(c[0].domain.as_deref(), Some(".example.com"));
        assert_eq!(c[0].http_only, Some(true));
        assert_eq!(c[1].expires, Some(2_000_000_000.0));
        let bad = "example.com\tFALSE\t/\n";
        assert!(parse(bad, None, None).unwrap_err().contains("line 1"));
        let h = parse("Cookie: a=1; b=2", None, Some("example.com")).unwrap();
        assert_eq!((h[1].name.as_str(), h[1].value.as_str()), ("b", "2"));
        assert!(
            parse("Cookie: a=1", None, None)
                .unwrap_err()
                .contains("--url")
        );
        let j = parse(r#"{"cookies":[{"name":"n","value":"v","domain":"x.test","path":"/","sameSite":"Lax"}]}"#, None, None).unwrap();
        assert_eq!(j[0].same_site, Some(SameSite::Lax));
        let e = parse(
            r#"[{"name":"n","value":"v","sameSite":"Sometimes"}]"#,
            None,
            None,
        )
        .unwrap_err();
        assert!(e.contains("Strict, Lax, None"), "{e}");
    }
}
