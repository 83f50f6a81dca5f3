//! URL patterns: the one rule of every command that takes a URL pattern — `network route` /
//! `unroute`, `network requests --filter`, `wait --url` (and `--wait-url`, `Wait.url`) and
//! `--restore-check-url`. The Python SDK's CDP layer (`agentbrowser.cdp`, target and frame
//! lookup by URL) follows the same rule; both are checked against `url_patterns.json` beside
//! this file.
//!
//! A pattern is read in one of three ways:
//! - **A glob** when it holds `*` or `{`: Playwright's glob rules over the whole URL. `*` matches
//!   any characters except `/`; `**` any characters including `/` (`/**/` also matches a single
//!   `/`, and `**/api/*` matches `http://host/api/x`); `{a,b}` either alternative; `\` makes the
//!   next character literal; every other character (also `?`, `[`, `]`) is literal. `*` and `**`
//!   alone match every URL.
//! - **A whole URL** when it has no wildcard and begins with a scheme (`http://host/path`,
//!   `about:blank`, `data:...`): the URL must equal it.
//! - **A URL part** otherwise (`api`, `/dashboard`, `example.com/login`): the URL must contain
//!   it, as agent-browser's `--filter` and `wait --url` do.
//!
//! A glob that can match no URL with a host (no `**`, no `//`, no scheme: `*/next`, `*.png`,
//! `api/*`) is refused with the glob that would: `*` stops at `/`, so `*/next` never matches
//! `http://host/next` — `**/next` does.
//!
//! A pattern that can never match a URL the browser reports is refused too, naming what is wrong:
//! a whole URL that is not a valid URL (`http://[`), or not written as browsers write URLs
//! (`HTTP://Host`, `http://host` without its `/`, `http://h:80/`: the error gives the form that
//! matches), and a glob whose scheme and host part (when it has no wildcard) is such a URL's.

use std::fmt;

/// The shapes a pattern may take, for the error of a pattern that can never match.
const SHAPES: &str = "a URL pattern is a glob with `*`, `**` or `{a,b}` over the whole URL (\"**/api/*\"), \
     a whole URL as the browser writes it (\"https://example.com/path\"), or a part of a URL \
     without a scheme (\"/path\", \"example.com/login\")";

/// The rule in one line, for help texts and messages.
pub const URL_PATTERN_RULE: &str = "a glob when it has `*` or `{` (Playwright's: the whole URL; `*` stops at `/`, `**` crosses it, `{a,b}`), the whole URL when it begins with a scheme, otherwise a part of the URL";

/// A parsed URL pattern (see the module's header).
#[derive(Clone)]
pub struct UrlPattern {
    source: String,
    how: How,
}

#[derive(Clone)]
enum How {
    Every,
    Glob(regex::Regex),
    Whole,
    Part,
}

impl fmt::Debug for UrlPattern {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "UrlPattern({:?}, {})", self.source, self.reading())
    }
}

impl PartialEq for UrlPattern {
    fn eq(&self, other: &Self) -> bool {
        self.source == other.source
    }
}

impl UrlPattern {
    /// Parses `pattern`; `Err` says what is wrong with it and, for a glob that can match no URL
    /// with a host, which glob would.
    pub fn parse(pattern: &str) -> Result<UrlPattern, String> {
        if pattern.is_empty() {
            return Err("an empty pattern matches nothing (`**` matches every URL)".into());
        }
        let how = if pattern == "*" || pattern == "**" {
            How::Every
        } else if has_wildcard(pattern) {
            // A malformed glob says what is malformed before anything else.
            let re = glob_regex(pattern)?;
            if !pattern.contains("**") && !pattern.contains("//") && !has_scheme(pattern) {
                let better = match pattern.strip_prefix('*') {
                    Some(rest) if rest.starts_with('/') => format!("*{pattern}"),
                    _ => format!("**/{pattern}"),
                };
                return Err(format!(
                    "the glob {pattern:?} can match no URL with a host: a glob matches the whole \
                     URL and `*` stops at `/`; write {better:?} (`**` crosses `/`)"
                ));
            }
            check_glob_origin(pattern)?;
            How::Glob(re)
        } else if has_scheme(pattern) {
            check_whole_url(pattern)?;
            How::Whole
        } else {
            How::Part
        };
        Ok(UrlPattern {
            source: pattern.to_string(),
            how,
        })
    }

    /// Whether `url` matches.
    pub fn matches(&self, url: &str) -> bool {
        match &self.how {
            How::Every => true,
            How::Glob(re) => re.is_match(url),
            How::Whole => url == self.source,
            How::Part => url.contains(self.source.as_str()),
        }
    }

    /// Whether the pattern is read as a part of the URL (no wildcard, no scheme).
    pub fn is_part(&self) -> bool {
        matches!(self.how, How::Part)
    }

    /// The pattern as given.
    pub fn as_str(&self) -> &str {
        &self.source
    }

    /// How this pattern is read, in words (for messages such as a `wait --url` timeout).
    pub fn reading(&self) -> &'static str {
        match self.how {
            How::Every => "every URL",
            How::Glob(_) => "a glob over the whole URL: `*` stops at `/`, `**` crosses it",
            How::Whole => {
                "the whole URL, exactly (no wildcard; a pattern without a scheme matches a part of the URL)"
            }
            How::Part => "a part of the URL (no wildcard and no scheme)",
        }
    }
}

/// Whether `p` holds an unescaped `*` or `{`.
fn has_wildcard(p: &str) -> bool {
    let mut escaped = false;
    for c in p.chars() {
        match c {
            _ if escaped => escaped = false,
            '\\' => escaped = true,
            '*' | '{' => return true,
            _ => {}
        }
    }
    false
}

/// Whether `p` begins with a URL scheme: `name://`, or one of the schemes without an authority
/// (`about:`, `data:`, `blob:`, `javascript:`, `mailto:`).
fn has_scheme(p: &str) -> bool {
    let name: String = p
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '.' | '-'))
        .collect();
    if name.is_empty() || !name.starts_with(|c: char| c.is_ascii_alphabetic()) {
        return false;
    }
    let rest = &p[name.len()..];
    rest.starts_with("://")
        || (rest.starts_with(':')
            && matches!(
                name.to_ascii_lowercase().as_str(),
                "about" | "data" | "blob" | "javascript" | "mailto"
            ))
}

/// Refuses a whole URL that no URL the browser reports can equal: one that does not parse, or
/// one the browser would write otherwise (the error names that form).
fn check_whole_url(p: &str) -> Result<(), String> {
    match url::Url::parse(p) {
        Err(e) => Err(format!(
            "{p:?} is not a valid URL ({e}), so it can match nothing; {SHAPES}"
        )),
        Ok(u) if u.as_str() != p => Err(format!(
            "the URL {p:?} is not written as the browser writes URLs, so no URL equals it: write {:?}; {SHAPES}",
            u.as_str()
        )),
        Ok(_) => Ok(()),
    }
}

/// Refuses a glob beginning with `scheme://host` (no wildcard up to the path) that is not a
/// valid URL's beginning, or not as the browser writes it (the error names the glob that would
/// match).
fn check_glob_origin(p: &str) -> Result<(), String> {
    let Some((scheme, rest)) = p.split_once("://") else {
        return Ok(());
    };
    if !has_scheme(p) {
        return Ok(());
    }
    let end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let authority = &rest[..end];
    if authority.contains(['*', '{', '}', '\\']) || scheme.contains(['*', '{', '\\']) {
        return Ok(());
    }
    let origin = format!("{scheme}://{authority}");
    let url = url::Url::parse(&format!("{origin}/")).map_err(|e| {
        format!("the glob {p:?} begins with {origin:?}, which is not a valid URL's beginning ({e}), so it can match nothing; {SHAPES}")
    })?;
    let written = url.as_str().strip_suffix('/').unwrap_or(url.as_str());
    if written != origin && url.scheme() != "file" {
        let better = format!("{written}{}", &rest[end..]);
        return Err(format!(
            "the glob {p:?} begins with {origin:?}, which the browser writes {written:?}, so it can match nothing: write {better:?}; {SHAPES}"
        ));
    }
    Ok(())
}

/// Compiles a glob to a regular expression over whole URLs.
fn glob_regex(glob: &str) -> Result<regex::Regex, String> {
    let chars: Vec<char> = glob.chars().collect();
    let mut re = String::from("^");
    let mut in_group = false;
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c == '\\' && i + 1 < chars.len() {
            i += 1;
            re.push_str(&regex::escape(&chars[i].to_string()));
            i += 1;
            continue;
        }
        if c == '*' {
            let before = i.checked_sub(1).map(|b| chars[b]);
            let mut stars = 1;
            while chars.get(i + 1) == Some(&'*') {
                stars += 1;
                i += 1;
            }
            if stars > 1 {
                if chars.get(i + 1) == Some(&'/') {
                    re.push_str(if before == Some('/') {
                        "((.+/)|)"
                    } else {
                        "(.*/)"
                    });
                    i += 1;
                } else {
                    re.push_str("(.*)");
                }
            } else {
                re.push_str("([^/]*)");
            }
            i += 1;
            continue;
        }
        match c {
            '{' if in_group => return Err("`{` inside `{...}`: groups do not nest".into()),
            '{' => {
                in_group = true;
                re.push('(');
            }
            '}' if !in_group => return Err("`}` without its `{`".into()),
            '}' => {
                in_group = false;
                re.push(')');
            }
            ',' if in_group => re.push('|'),
            other => re.push_str(&regex::escape(&other.to_string())),
        }
        i += 1;
    }
    if in_group {
        return Err("`{` without its `}`".into());
    }
    re.push('$');
    regex::Regex::new(&re).map_err(|e| format!("cannot compile the glob: {e}"))
}

#[cfg(test)]
mod tests {
    use super::UrlPattern;

    /// Every case of the shared table (also run by the Python SDK's tests).
    #[test]
    fn the_shared_table_holds() {
        let table: serde_json::Value =
            serde_json::from_str(include_str!("url_patterns.json")).unwrap();
        for case in table["matches"].as_array().unwrap() {
            let (p, url, want) = (
                case[0].as_str().unwrap(),
                case[1].as_str().unwrap(),
                case[2].as_bool().unwrap(),
            );
            let got = UrlPattern::parse(p).unwrap().matches(url);
            assert_eq!(got, want, "{p:?} against {url:?}");
        }
        for case in table["refused"].as_array().unwrap() {
            let (p, hint) = (case[0].as_str().unwrap(), case[1].as_str().unwrap());
            let e = UrlPattern::parse(p).unwrap_err();
            assert!(e.contains(hint), "{p:?}: {e}");
        }
    }
}
