//! Secrets the engine must never let out: the passwords `auth_login` filled in this process, and
//! those typed into password fields while a trace records (`recorder::Board::typed_secret`).
//! The network log (and so `network request` answers and HAR files) replaces them in request
//! URLs and post data, raw and in their URL-, form- and JSON-encoded spellings. (The trace hook
//! sees each command without the secrets its parameters carry: `Command::traced`.)

use std::sync::Mutex;

/// What a secret is replaced with.
pub const REDACTED: &str = "<redacted>";

/// Most secrets remembered (the oldest are forgotten first).
const MAX_SECRETS: usize = 64;

/// The spellings to replace, longest first.
static SECRETS: Mutex<Vec<String>> = Mutex::new(Vec::new());

/// Remembers `secret` (and its encoded spellings) for redaction.
pub(crate) fn register(secret: &str) {
    if secret.is_empty() {
        return;
    }
    let form: String = url::form_urlencoded::byte_serialize(secret.as_bytes()).collect();
    let percent = form.replace('+', "%20");
    let json = serde_json::to_string(secret).unwrap_or_default();
    let json = json.trim_matches('"').to_string();
    let mut list = SECRETS.lock().unwrap_or_else(|e| e.into_inner());
    for s in [secret.to_string(), form, percent, json] {
        if !s.is_empty() && !list.contains(&s) {
            list.push(s);
        }
    }
    let extra = list.len().saturating_sub(MAX_SECRETS * 4);
    list.drain(..extra);
    list.sort_by_key(|s| std::cmp::Reverse(s.len()));
}

/// Replaces every remembered secret in `text`; whether anything was replaced.
pub(crate) fn redact(text: &mut String) -> bool {
    let list = SECRETS.lock().unwrap_or_else(|e| e.into_inner());
    let mut changed = false;
    for s in list.iter() {
        if text.contains(s.as_str()) {
            *text = text.replace(s.as_str(), REDACTED);
            changed = true;
        }
    }
    changed
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encoded_spellings_are_redacted() {
        register("p@ss w&rd\"x");
        let mut form = "user=a&password=p%40ss+w%26rd%22x".to_string();
        assert!(redact(&mut form));
        assert_eq!(form, "user=a&password=<redacted>");
        let mut json = r#"{"password":"p@ss w&rd\"x"}"#.to_string();
        assert!(redact(&mut json));
        assert_eq!(json, r#"{"password":"<redacted>"}"#);
        let mut other = "nothing here".to_string();
        assert!(!redact(&mut other));
    }
}
