//! URLs that reach local files or the browser's own pages, refused unless the session allows
//! file access (`--allow-file-access`, `allowFileAccess`): `file:`; `view-source:`,
//! `filesystem:` and `blob:` wrapping such a URL (at any depth); and the browser's internal
//! schemes (`chrome:`, `devtools:`, `chrome-extension:`, `chrome-untrusted:`, ...), which show
//! the profile, the downloads' paths and the command line. A URL is read the way Chromium reads
//! it before deciding: leading and trailing C0 controls and spaces stripped, tabs and newlines
//! removed anywhere, the scheme's case ignored (` FILE:///x`, `fi\tle:///x`, `file:x` are all
//! `file:`). The same test decides commands' URLs ([`super::commands`]) and the page's own
//! requests (`crate::events::fetch`, which fails a `file:` request of any frame, popup or
//! redirect).

use agentbrowser_protocol::bounded;

use crate::error::EngineError;

/// Schemes whose pages are the browser's own (its settings, downloads, extensions, DevTools).
const INTERNAL: &[&str] = &[
    "chrome",
    "chrome-devtools",
    "chrome-error",
    "chrome-extension",
    "chrome-native",
    "chrome-search",
    "chrome-untrusted",
    "devtools",
    "isolated-app",
];

/// Schemes that show or hold another URL's content (the URL after the scheme).
const WRAPPERS: &[&str] = &["view-source", "filesystem", "blob"];

/// What every refusal ends with: the URLs refused and how a session allows them.
pub(crate) const ALLOW_HINT: &str = "URLs that reach local files or the browser's own pages (file:, view-source:/filesystem:/blob: of a local URL, chrome:, devtools:, chrome-extension:, chrome-untrusted:) are refused unless the session is launched with file access (`--allow-file-access`, `allowFileAccess`)";

/// Why a URL reaches local files: the schemes from the outermost to the one that reaches.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct LocalReach {
    /// The schemes, outermost first (`["view-source", "file"]`).
    pub schemes: Vec<String>,
}

impl LocalReach {
    /// `scheme \`view-source:\` wrapping \`file:\`` or `scheme \`chrome:\``.
    pub(crate) fn describe(&self) -> String {
        let names: Vec<String> = self.schemes.iter().map(|s| format!("`{s}:`")).collect();
        let last = self.schemes.last().map(String::as_str).unwrap_or("file");
        let what = if last == "file" {
            "reaches local files"
        } else {
            "opens a page of the browser itself"
        };
        format!("{what} (scheme {})", names.join(" wrapping "))
    }
}

/// The URL as Chromium reads it: leading/trailing C0 controls and spaces stripped, ASCII tabs
/// and newlines removed.
pub(crate) fn canonical(url: &str) -> String {
    url.trim_matches(|c: char| c <= ' ')
        .chars()
        .filter(|c| !matches!(c, '\t' | '\n' | '\r'))
        .collect()
}

/// The lowercased scheme of a canonical URL and what follows its `:` (`None`: no scheme).
fn split_scheme(url: &str) -> Option<(String, &str)> {
    let (scheme, rest) = url.split_once(':')?;
    let mut chars = scheme.chars();
    let valid = chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'));
    valid.then(|| (scheme.to_ascii_lowercase(), rest))
}

/// Whether `url` reaches local files or the browser's own pages, and how.
pub(crate) fn local_reach(url: &str) -> Option<LocalReach> {
    let url = canonical(url);
    let (scheme, rest) = split_scheme(&url)?;
    if scheme == "file" || INTERNAL.contains(&scheme.as_str()) {
        return Some(LocalReach {
            schemes: vec![scheme],
        });
    }
    if WRAPPERS.contains(&scheme.as_str()) {
        let mut inner = local_reach(rest)?;
        inner.schemes.insert(0, scheme);
        return Some(inner);
    }
    None
}

/// The `invalid_argument` refusal of `url` when it reaches local files and `allowed` is false;
/// `what` opens the message (`invalid parameter \`url\` of open`, `cannot go back`).
pub(crate) fn refuse(allowed: bool, what: &str, url: &str) -> Option<EngineError> {
    if allowed {
        return None;
    }
    let reach = local_reach(url)?;
    Some(EngineError::invalid(format!(
        "{what}: `{}` {}; {ALLOW_HINT}",
        bounded(canonical(url), 200),
        reach.describe()
    )))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn schemes(url: &str) -> Option<Vec<String>> {
        local_reach(url).map(|r| r.schemes)
    }

    #[test]
    fn local_urls_are_found_whatever_their_spelling() {
        for url in [
            "file:///etc/passwd",
            " FILE:///etc/passwd",
            "\u{0}\u{1f}file:///etc/passwd\u{7} ",
            "file:/etc/passwd",
            "file:etc",
            "fi\tle:///etc/passwd",
            "f\ni\rle:///etc/passwd",
            "File://localhost/etc/passwd",
        ] {
            assert_eq!(schemes(url), Some(vec!["file".into()]), "{url:?}");
        }
    }

    #[test]
    fn wrappers_of_local_urls_are_found_at_any_depth() {
        let want = |s: &[&str]| Some(s.iter().map(|s| s.to_string()).collect::<Vec<_>>());
        assert_eq!(
            schemes("view-source:file:///etc/passwd"),
            want(&["view-source", "file"])
        );
        assert_eq!(
            schemes("VIEW-SOURCE: file:///etc/passwd"),
            want(&["view-source", "file"])
        );
        assert_eq!(
            schemes("view-source:view-source:FILE:///x"),
            want(&["view-source", "view-source", "file"])
        );
        assert_eq!(
            schemes("view-sou\trce:fi\nle:///x"),
            want(&["view-source", "file"])
        );
        assert_eq!(
            schemes("filesystem:file:///temporary/x"),
            want(&["filesystem", "file"])
        );
        assert_eq!(schemes("blob:file:///0b8c-uuid"), want(&["blob", "file"]));
        assert_eq!(
            schemes("view-source:chrome://version"),
            want(&["view-source", "chrome"])
        );
        for s in [
            "chrome://version",
            "DevTools://devtools/x",
            "chrome-untrusted://x/",
            "chrome-extension://abc/x.html",
        ] {
            assert!(local_reach(s).is_some(), "{s}");
        }
    }

    #[test]
    fn web_urls_and_their_wrappers_are_not_local() {
        for url in [
            "http://127.0.0.1/file:///etc/passwd",
            "https://example.com/",
            "view-source:http://127.0.0.1:8000/",
            "blob:http://127.0.0.1:8000/uuid",
            "blob:null/uuid",
            "filesystem:http://127.0.0.1/temporary/x",
            "about:blank",
            "data:text/html,file:///etc/passwd",
            "example.com/file:",
            "127.0.0.1:8000",
            "",
        ] {
            assert_eq!(local_reach(url), None, "{url:?}");
        }
    }

    #[test]
    fn the_refusal_names_the_url_the_schemes_and_the_fix() {
        let e = refuse(
            false,
            "invalid parameter `url` of open",
            " view-source:FILE:///etc/x",
        )
        .unwrap();
        assert!(
            e.message.contains("`view-source:FILE:///etc/x`"),
            "{}",
            e.message
        );
        assert!(
            e.message.contains("`view-source:` wrapping `file:`"),
            "{}",
            e.message
        );
        assert!(e.message.contains("--allow-file-access"), "{}", e.message);
        assert!(refuse(true, "open", "file:///etc/x").is_none());
        assert!(refuse(false, "open", "http://x.test/").is_none());
    }
}
