//! Where a site's `llms.txt` (or `llms-full.txt`) may be: in the URL's directory and each
//! directory above it, up to the origin root, nearest first.

use agentbrowser_protocol::LlmsFile;
use url::Url;

/// Most places looked at (the nearest ones and the root).
const MAX_CANDIDATES: usize = 8;

/// The URLs of `file` from the URL's directory up to the origin root, nearest first. A last
/// path segment without a dot counts as a directory (`/docs/guide` looks in `/docs/guide/`).
pub fn candidates(url: &Url, file: LlmsFile) -> Vec<Url> {
    let path = url.path();
    let mut segments: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
    if !path.ends_with('/') && segments.last().is_some_and(|s| s.contains('.')) {
        segments.pop();
    }
    let mut dirs: Vec<String> = (0..=segments.len())
        .rev()
        .map(|n| {
            let mut d = String::from("/");
            for s in &segments[..n] {
                d.push_str(s);
                d.push('/');
            }
            d
        })
        .collect();
    if dirs.len() > MAX_CANDIDATES {
        let root = dirs.pop();
        dirs.truncate(MAX_CANDIDATES - 1);
        dirs.extend(root);
    }
    dirs.into_iter()
        .map(|d| {
            let mut u = url.clone();
            u.set_query(None);
            u.set_fragment(None);
            u.set_path(&format!("{d}{}", file.file_name()));
            u
        })
        .collect()
}

/// Whether an answer looks like Markdown or plain text rather than an HTML page (many servers
/// answer any path with their HTML app).
pub fn markdown_like(mime: &str, text: &str) -> bool {
    let typed = matches!(
        mime,
        "text/markdown" | "text/x-markdown" | "text/plain" | "application/octet-stream" | ""
    );
    let start = text
        .trim_start()
        .get(..15)
        .unwrap_or("")
        .to_ascii_lowercase();
    typed && !start.starts_with("<!doctype") && !start.starts_with("<html")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn paths(u: &str, f: LlmsFile) -> Vec<String> {
        candidates(&Url::parse(u).unwrap(), f)
            .into_iter()
            .map(|u| u.path().to_string())
            .collect()
    }

    #[test]
    fn from_the_path_up_to_the_root() {
        assert_eq!(
            paths("http://h/docs/guide/intro.html?x=1#y", LlmsFile::Index),
            ["/docs/guide/llms.txt", "/docs/llms.txt", "/llms.txt"]
        );
        assert_eq!(
            paths("http://h/docs/guide", LlmsFile::Full),
            [
                "/docs/guide/llms-full.txt",
                "/docs/llms-full.txt",
                "/llms-full.txt"
            ]
        );
        assert_eq!(paths("http://h/", LlmsFile::Index), ["/llms.txt"]);
        let deep = paths("http://h/a/b/c/d/e/f/g/h/i/j/", LlmsFile::Index);
        assert_eq!(deep.len(), MAX_CANDIDATES);
        assert_eq!(deep[0], "/a/b/c/d/e/f/g/h/i/j/llms.txt");
        assert_eq!(deep.last().unwrap(), "/llms.txt");
    }

    #[test]
    fn html_is_not_markdown() {
        assert!(markdown_like("text/plain", "# Site\n> summary"));
        assert!(!markdown_like("text/html", "# Site"));
        assert!(!markdown_like("text/plain", "<!DOCTYPE html><html>"));
    }
}
