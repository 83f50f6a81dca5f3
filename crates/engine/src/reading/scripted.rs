//! Whether fetched HTML is a page that JavaScript renders (a single-page app): a URL read runs
//! no script, so such a page reads as nearly nothing, and the read must say so.
//!
//! The rule: the HTML runs a script (a `<script>` without a `type`, or of a JavaScript type or
//! `module`), and the text a reader sees without scripts is far below a page's: the body's text
//! outside `script`, `style`, `noscript` and `template` has fewer than [`MIN_TEXT_CHARS`]
//! characters, or the page has an empty mount point (`#root`, `#app`, `#__next`, ...: no child
//! element, no text) and the content the read found has fewer than [`MIN_TEXT_CHARS`].

use dom_query::Document;

/// Below this many characters of text, a page with scripts reads as unrendered.
pub const MIN_TEXT_CHARS: usize = 200;

/// The ids single-page app frameworks mount into (React, Vue, Next, Nuxt, Gatsby, Svelte,
/// Quasar, Angular's usual host).
const MOUNT_IDS: &[&str] = &[
    "root",
    "app",
    "__next",
    "__nuxt",
    "___gatsby",
    "svelte",
    "q-app",
    "app-root",
    "main-app",
];

/// The script types a browser runs.
const SCRIPT_TYPES: &[&str] = &[
    "",
    "module",
    "text/javascript",
    "application/javascript",
    "text/ecmascript",
    "application/ecmascript",
    "text/jsx",
    "text/babel",
];

/// What the HTML shows of being rendered by JavaScript.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Scripted {
    /// Scripts the page runs.
    pub scripts: usize,
    /// Characters of body text outside scripts, styles, noscript and templates.
    pub text_chars: usize,
    /// The empty mount point, as `#id`, when there is one.
    pub mount: Option<String>,
}

impl Scripted {
    /// The warning of a read whose HTML this is: what was found, and the two ways to read
    /// the page as a browser shows it.
    pub fn warning(&self) -> String {
        let mount = self
            .mount
            .as_ref()
            .map(|m| format!(", an empty {m}"))
            .unwrap_or_default();
        format!(
            "the HTML has {} characters of text and {} script(s){mount}: the page is likely rendered by \
             JavaScript, which a URL read does not run; read it rendered with `read URL --render` \
             (SDK/MCP: render), or `open` it and `read` the tab",
            self.text_chars, self.scripts
        )
    }
}

/// Whether `html` (whose main content came out as `content_chars` characters) looks rendered
/// by JavaScript, by the rule of the module.
pub fn detect(html: &str, content_chars: usize) -> Option<Scripted> {
    let doc = Document::from(html);
    let scripts = doc
        .select("script")
        .nodes()
        .iter()
        .filter(|s| {
            let t = s
                .attr("type")
                .map(|t| t.trim().to_ascii_lowercase())
                .unwrap_or_default();
            SCRIPT_TYPES.contains(&t.split(';').next().unwrap_or("").trim())
        })
        .count();
    if scripts == 0 {
        return None;
    }
    let mount = MOUNT_IDS.iter().find_map(|id| {
        let el = doc.select_single(&format!("[id='{id}']"));
        let node = el.nodes().first()?;
        let empty = node.element_children().is_empty() && node.text().trim().is_empty();
        empty.then(|| format!("#{id}"))
    });
    doc.select("script, style, noscript, template").remove();
    let body = doc.select_single("body");
    let text_chars = body
        .nodes()
        .first()
        .map_or(0, |b| super::extract::squash(&b.text()).chars().count());
    let scripted =
        text_chars < MIN_TEXT_CHARS || (mount.is_some() && content_chars < MIN_TEXT_CHARS);
    scripted.then_some(Scripted {
        scripts,
        text_chars,
        mount,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_empty_root_and_a_script_is_scripted() {
        let spa = r#"<html><head><script type="module" src="/a.js"></script></head>
            <body><div id="root"></div><noscript>You need to enable JavaScript to run this app.</noscript></body></html>"#;
        let s = detect(spa, 0).expect("scripted");
        assert_eq!(
            s,
            Scripted {
                scripts: 1,
                text_chars: 0,
                mount: Some("#root".into())
            }
        );
        assert!(s.warning().contains("--render"), "{}", s.warning());
        assert!(s.warning().len() <= 300, "{}", s.warning());
    }

    #[test]
    fn text_or_no_script_is_not() {
        let long = "word ".repeat(60);
        let page = format!(
            "<html><head><script src=/analytics.js></script></head><body><p>{long}</p></body></html>"
        );
        assert_eq!(detect(&page, 300), None);
        assert_eq!(detect("<body><p>Short static page.</p></body>", 18), None);
        // Data blocks are not scripts that run.
        let data =
            r#"<body><script type="application/ld+json">{}</script><div id="app"></div></body>"#;
        assert_eq!(detect(data, 0), None);
        // A footer with text and an empty mount point: the content decides.
        let footer = format!(
            "<body><div id='app'></div><footer>{long}</footer><script>render()</script></body>"
        );
        assert!(detect(&footer, 0).is_some());
        assert_eq!(detect(&footer, 300), None);
    }
}
