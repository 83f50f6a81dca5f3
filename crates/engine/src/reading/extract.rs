//! The main content of an HTML document, for Markdown: boilerplate (scripts, navigation,
//! banners, controls, hidden elements, heading permalinks) left out, links and images made
//! absolute, code blocks normalized to `<pre><code class="language-x">` so the converter fences
//! them with their language, and headings given their anchors.
//!
//! The content is the page's own main landmark (`<main>`, `role=main`) when it has one with
//! text; otherwise Mozilla's Readability algorithm picks it (`dom_smoothie`); when that finds
//! nothing, the body without its navigation.

use dom_query::{Document, NodeRef, Selection};
use url::Url;

use agentbrowser_protocol::ReadHeading;

/// A main landmark with fewer characters than this, and less than half of the body's text,
/// is passed over for Readability.
const MIN_MAIN_CHARS: usize = 140;
/// The attribute that keeps an `<h1>` known as one through Readability (which renames them).
const H1_MARK: &str = "data-agentbrowser-h1";

/// What extraction found.
#[derive(Debug, Clone)]
pub struct Extracted {
    /// The main content as an HTML fragment.
    pub html: String,
    /// The document's title.
    pub title: Option<String>,
    /// The headings of the main content, in order (when asked for).
    pub headings: Option<Vec<ReadHeading>>,
    /// A heading to put first: the page's first `<h1>`, when Readability removed it (as a
    /// repeat of the title).
    pub title_heading: Option<ReadHeading>,
}

/// Elements that are never content.
const NEVER: &str = "script, style, noscript, template, link, meta, iframe, frame, frameset, \
     object, embed, canvas, svg, button, input, select, textarea, dialog:not([open]), \
     [hidden], [aria-hidden=true], [style*='display:none'], [style*='display: none']";

/// Navigation and page chrome inside the main content.
const CHROME: &str = "nav, [role=navigation], [role=search], footer, [role=contentinfo]";

/// Parses `html` and cleans it (see the module): the document, its title, its base URL and
/// the code-language classes it uses.
fn prepare(html: &str, base: &Url) -> (Document, Option<String>, Url, Vec<String>) {
    let doc = Document::from(html);
    let base = doc
        .select_single("base[href]")
        .attr("href")
        .and_then(|h| base.join(h.trim()).ok())
        .unwrap_or_else(|| base.clone());
    let title = title_of(&doc);
    doc.select(NEVER).remove();
    remove_banners(&doc);
    anchor_headings(&doc);
    remove_permalinks(&doc);
    absolute_links(&doc, &base);
    let languages = normalize_code(&doc);
    (doc, title, base, languages)
}

/// Extracts the main content of `html`, whose URL is `base`; with `headings`, its headings too.
pub fn main_content(html: &str, base: &Url, headings: bool) -> Extracted {
    let (doc, title, base, languages) = prepare(html, base);
    if let Some(main) = main_landmark(&doc) {
        let main = Selection::from(main);
        main.select(CHROME).remove();
        remove_link_lists(&main, "aside");
        return Extracted {
            html: main.html().to_string(),
            title,
            headings: headings.then(|| headings_of(&main)),
            title_heading: None,
        };
    }
    let h1 = doc.select("h1");
    h1.set_attr(H1_MARK, "");
    let first_h1 = h1.nodes().first().map(|h| ReadHeading {
        level: 1,
        text: squash(&h.text()),
        anchor: h
            .attr("id")
            .map(|s| s.to_string())
            .filter(|s| !s.is_empty()),
    });
    let cfg = dom_smoothie::Config {
        classes_to_preserve: languages,
        ..Default::default()
    };
    let article = dom_smoothie::Readability::with_document(doc, Some(base.as_str()), Some(cfg))
        .ok()
        .and_then(|mut r| r.parse().ok())
        .filter(|a| !a.text_content.trim().is_empty());
    let (html, how, title) = match article {
        Some(a) => {
            let t = (!a.title.trim().is_empty()).then(|| a.title.trim().to_string());
            // Readability turns every h1 into an h2: give them their level back.
            let content = Document::fragment(a.content.as_ref());
            let marked = content.select(&format!("[{H1_MARK}]"));
            let html = if marked.exists() {
                marked.rename("h1");
                marked.remove_attr(H1_MARK);
                content.html_root().inner_html().to_string()
            } else {
                a.content.to_string()
            };
            (html, "readability", t.or(title))
        }
        None => {
            // Readability changed the document it gave up on: clean the original again.
            let (doc, _, _, _) = prepare(html, &base);
            let body = doc.select("body");
            body.select(
                "nav, header, footer, aside, [role=navigation], [role=banner], \
                 [role=contentinfo], [role=complementary], [role=search]",
            )
            .remove();
            (body.inner_html().to_string(), "body", title)
        }
    };
    let fragment = Document::fragment(html.as_str());
    let title_heading = first_h1
        .filter(|h| how == "readability" && !h.text.is_empty() && !fragment.select("h1").exists());
    let list = headings.then(|| {
        let mut l = headings_of(&Selection::from(fragment.root()));
        if let Some(h) = &title_heading {
            l.insert(0, h.clone());
        }
        l
    });
    Extracted {
        html,
        title,
        headings: list,
        title_heading,
    }
}

/// The document's title: `<title>`, else `og:title`, else the first `<h1>`.
fn title_of(doc: &Document) -> Option<String> {
    let clean = |s: &str| {
        let t = squash(s);
        (!t.is_empty()).then_some(t)
    };
    clean(&doc.select_single("title").text())
        .or_else(|| {
            doc.select_single("meta[property='og:title']")
                .attr("content")
                .and_then(|c| clean(&c))
        })
        .or_else(|| clean(&doc.select_single("h1").text()))
}

/// Collapses runs of whitespace to one space and trims.
pub fn squash(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The page's main landmark with the most text, when it has enough (see `MIN_MAIN_CHARS`).
fn main_landmark(doc: &Document) -> Option<NodeRef<'_>> {
    let (chars, main) = doc
        .select("main, [role=main]")
        .nodes()
        .iter()
        .map(|n| (n.normalized_char_count(), *n))
        .max_by_key(|(chars, _)| *chars)?;
    let body = doc
        .select_single("body")
        .nodes()
        .first()
        .map_or(chars, NodeRef::normalized_char_count);
    (chars > 0 && (chars >= MIN_MAIN_CHARS || chars * 2 >= body)).then_some(main)
}

/// Removes cookie and consent banners: elements whose id, class or label names them.
fn remove_banners(doc: &Document) {
    const STRONG: &[&str] = &["consent", "gdpr", "onetrust", "cookiebot", "cookie-law"];
    const BANNERISH: &[&str] = &[
        "banner",
        "notice",
        "bar",
        "popup",
        "modal",
        "dialog",
        "overlay",
        "notification",
        "alert",
        "prompt",
        "wall",
        "message",
    ];
    for node in doc.select("[id], [class], [aria-label]").nodes() {
        if node.has_name("html") || node.has_name("body") || node.has_name("main") {
            continue;
        }
        let mut hay = String::new();
        for a in ["id", "class", "aria-label"] {
            if let Some(v) = node.attr(a) {
                hay.push_str(&v.to_ascii_lowercase());
                hay.push(' ');
            }
        }
        let strong = STRONG.iter().any(|k| hay.contains(k));
        let cookie = hay.contains("cookie");
        if !strong && !cookie {
            continue;
        }
        let role = node.attr("role").map(|r| r.to_ascii_lowercase());
        let dialog = matches!(role.as_deref(), Some("dialog" | "alertdialog" | "alert"))
            || node.attr("aria-modal").is_some();
        if (strong || (cookie && (dialog || BANNERISH.iter().any(|k| hay.contains(k)))))
            && node.normalized_char_count() < 3000
        {
            node.remove_from_parent();
        }
    }
}

/// Whether a link's text is only a permalink sign (¶, #, §, 🔗) or nothing.
fn permalink_text(text: &str) -> bool {
    !text.chars().any(char::is_alphanumeric)
}

/// Gives every heading that has no id the anchor the page uses for it: a permalink inside
/// it, an id or name of an element inside it, or the id of the section it opens.
fn anchor_headings(doc: &Document) {
    for h in doc.select("h1, h2, h3, h4, h5, h6").nodes() {
        if h.attr("id").is_some_and(|i| !i.is_empty()) {
            continue;
        }
        let inner = Selection::from(*h);
        let permalink = inner
            .select("a[href^='#']")
            .nodes()
            .iter()
            .find(|a| permalink_text(&a.text()))
            .and_then(|a| a.attr("href"))
            .map(|href| href[1..].to_string());
        let named = || {
            inner
                .select("[id], a[name]")
                .nodes()
                .first()
                .and_then(|n| n.attr("id").or_else(|| n.attr("name")))
                .map(|s| s.to_string())
        };
        let section = || {
            let parent = h.parent()?;
            let first = parent.first_element_child()?;
            if first.id != h.id && !first_after_empty_anchors(&parent, h) {
                return None;
            }
            parent
                .attr("id")
                .filter(|_| {
                    parent.has_name("section")
                        || parent.has_name("div")
                        || parent.has_name("article")
                })
                .map(|s| s.to_string())
        };
        if let Some(id) = permalink
            .or_else(named)
            .or_else(section)
            .filter(|i| !i.is_empty())
        {
            h.set_attr("id", &id);
        }
    }
}

/// Whether `h` is the first element of `parent` after empty anchor elements (Sphinx puts
/// `<span id="..."></span>` before a section's heading).
fn first_after_empty_anchors(parent: &NodeRef<'_>, h: &NodeRef<'_>) -> bool {
    for child in parent.element_children() {
        if child.id == h.id {
            return true;
        }
        if !child.text().trim().is_empty() {
            return false;
        }
    }
    false
}

/// Removes heading permalinks (`¶` links to the heading's own fragment, Sphinx `headerlink`).
fn remove_permalinks(doc: &Document) {
    doc.select("a.headerlink, a.anchor-link, a.heading-anchor")
        .remove();
    for a in doc.select("a[href^='#']").nodes() {
        let in_heading = a.ancestors_it(Some(4)).any(|p| {
            matches!(
                p.node_name().as_deref(),
                Some("h1" | "h2" | "h3" | "h4" | "h5" | "h6" | "dt")
            )
        });
        if in_heading && permalink_text(&a.text()) {
            a.remove_from_parent();
        }
    }
}

/// Makes link and image URLs absolute (a fragment of this document stays `#fragment`) and
/// unwraps `javascript:` links to their text.
fn absolute_links(doc: &Document, base: &Url) {
    let mut here = base.clone();
    here.set_fragment(None);
    let resolve = |raw: &str| -> Option<String> {
        let raw = raw.trim();
        let mut u = base.join(raw).ok()?;
        let fragment = u.fragment().map(str::to_string);
        u.set_fragment(None);
        match fragment {
            Some(f) if u == here => Some(format!("#{f}")),
            Some(f) => {
                u.set_fragment(Some(&f));
                Some(u.to_string())
            }
            None => Some(u.to_string()),
        }
    };
    for a in doc.select("a[href]").nodes() {
        let href = a.attr("href").unwrap_or_default();
        if href
            .trim_start()
            .to_ascii_lowercase()
            .starts_with("javascript:")
        {
            match a.first_child() {
                Some(c) => c.unwrap_node(),
                None => a.remove_from_parent(),
            }
            continue;
        }
        if let Some(abs) = resolve(&href) {
            a.set_attr("href", &abs);
        }
    }
    for img in doc.select("img").nodes() {
        let src = img.attr("src").unwrap_or_default();
        let lazy = img.attr("data-src").filter(|s| !s.trim().is_empty());
        let src = match lazy {
            Some(l) if src.trim().is_empty() || src.starts_with("data:") => l,
            _ => src,
        };
        img.remove_attrs(&["srcset", "sizes", "data-src", "loading"]);
        if src.starts_with("data:") {
            img.set_attr("src", "");
        } else if let Some(abs) = resolve(&src) {
            img.set_attr("src", &abs);
        }
        let alt = img.attr("alt").unwrap_or_default();
        if alt.trim().is_empty() && img.attr("src").unwrap_or_default().is_empty() {
            img.remove_from_parent();
        }
    }
}

/// Rewrites every `<pre>` to `<pre><code class="language-x">text</code></pre>` with the
/// language its markup names (Prism/highlight.js `language-x`/`lang-x`, Sphinx `highlight-x`,
/// GitHub `highlight-source-x`, SyntaxHighlighter `brush: x`, `data-lang`); returns the
/// classes used, which Readability must keep.
fn normalize_code(doc: &Document) -> Vec<String> {
    let mut used: Vec<String> = Vec::new();
    for pre in doc.select("pre").nodes() {
        let lang = language_of(pre);
        let text = pre.text();
        let class = match &lang {
            Some(l) => {
                let c = format!("language-{l}");
                if !used.contains(&c) {
                    used.push(c.clone());
                }
                format!(" class=\"{c}\"")
            }
            None => String::new(),
        };
        pre.remove_all_attrs();
        pre.set_html(format!("<code{class}>{}</code>", escape_text(&text)));
    }
    used
}

/// The language a code block's markup names, looking at the `<pre>`, its `<code>` and up to
/// three ancestors.
fn language_of(pre: &NodeRef<'_>) -> Option<String> {
    let mut nodes: Vec<NodeRef<'_>> = Vec::new();
    if let Some(code) = Selection::from(*pre).select("code").nodes().first() {
        nodes.push(*code);
    }
    nodes.push(*pre);
    nodes.extend(pre.ancestors_it(Some(3)));
    for n in nodes {
        for attr in ["data-lang", "data-language"] {
            if let Some(l) = n.attr(attr).and_then(|v| clean_language(&v)) {
                return Some(l);
            }
        }
        let Some(class) = n.attr("class") else {
            continue;
        };
        let class = class.to_string();
        if let Some(rest) = class.split("brush:").nth(1)
            && let Some(l) = rest
                .split([';', ' '])
                .find(|s| !s.is_empty())
                .and_then(clean_language)
        {
            return Some(l);
        }
        for token in class.split_whitespace() {
            let l = token
                .strip_prefix("language-")
                .or_else(|| token.strip_prefix("lang-"))
                .or_else(|| token.strip_prefix("highlight-source-"))
                .or_else(|| token.strip_prefix("highlight-"));
            if let Some(l) = l.and_then(clean_language) {
                return Some(l);
            }
        }
    }
    None
}

/// A language name fit for a fence (`default` and `none` say nothing).
fn clean_language(l: &str) -> Option<String> {
    let l = l.trim().to_ascii_lowercase();
    let fits = !l.is_empty()
        && l.len() <= 40
        && l.chars()
            .all(|c| c.is_ascii_alphanumeric() || "+-#._".contains(c));
    (fits && !matches!(l.as_str(), "default" | "none" | "nohighlight" | "plain")).then_some(l)
}

/// Escapes text for HTML.
fn escape_text(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 16);
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            c => out.push(c),
        }
    }
    out
}

/// Removes `tag` elements that are mostly links (a table of contents, related pages).
fn remove_link_lists(root: &Selection<'_>, tag: &str) {
    for el in root.select(tag).nodes() {
        let all = el.normalized_char_count().max(1);
        let links: usize = Selection::from(*el)
            .select("a")
            .nodes()
            .iter()
            .map(NodeRef::normalized_char_count)
            .sum();
        if links * 2 > all {
            el.remove_from_parent();
        }
    }
}

/// The headings under `root`, in document order, with their anchors.
fn headings_of(root: &Selection<'_>) -> Vec<ReadHeading> {
    root.select("h1, h2, h3, h4, h5, h6")
        .nodes()
        .iter()
        .filter_map(|h| {
            let name = h.node_name()?;
            let level = name.as_bytes().get(1).map(|b| b - b'0')?;
            let text = squash(&h.text());
            (!text.is_empty()).then(|| ReadHeading {
                level,
                text,
                anchor: h
                    .attr("id")
                    .map(|s| s.to_string())
                    .filter(|s| !s.is_empty()),
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn base() -> Url {
        Url::parse("http://127.0.0.1:9/docs/page.html").unwrap()
    }

    #[test]
    fn the_main_landmark_without_chrome() {
        let html = format!(
            "<html><head><title>T</title></head><body><nav><a href='/x'>Nav link</a></nav>\
             <main><h1 id=top>Title<a class=headerlink href='#top'>¶</a></h1><p>{}</p>\
             <nav>inner nav</nav><div id=cookie-banner>We use cookies <button>OK</button></div></main>\
             <footer>Footer</footer></body></html>",
            "Body text. ".repeat(20)
        );
        let e = main_content(&html, &base(), true);
        assert!(!e.html.contains("Nav link") && !e.html.contains("inner nav"));
        assert!(!e.html.contains("cookies") && !e.html.contains("Footer"));
        assert!(!e.html.contains('¶'));
        let h = e.headings.unwrap();
        assert_eq!(h.len(), 1);
        assert_eq!((h[0].level, h[0].text.as_str()), (1, "Title"));
        assert_eq!(h[0].anchor.as_deref(), Some("top"));
    }

    fn story(title: &str) -> String {
        let para = "A sentence of the article, long enough to count as content. ".repeat(12);
        format!(
            "<html><head><title>{title}</title></head><body><div class=menu><a href=/a>A</a> <a href=/b>B</a></div>\
             <div class=post><h1>The Story</h1><p>{para}</p><h2 id=more>More</h2><p>{para}</p></div>\
             <div class=comments><p>Comment</p></div></body></html>"
        )
    }

    #[test]
    fn readability_without_a_landmark_keeps_the_h1() {
        // An h1 that is not the title: Readability keeps it (as an h2), it is an h1 again.
        let e = main_content(&story("Weekly Gazette"), &base(), true);
        assert!(e.title_heading.is_none(), "{}", e.html);
        assert!(e.html.contains("<h1>The Story</h1>"), "{}", e.html);
        assert!(
            !e.html.contains("<html") && !e.html.contains(H1_MARK),
            "{}",
            e.html
        );
        let h = e.headings.unwrap();
        let levels: Vec<(u8, &str)> = h.iter().map(|h| (h.level, h.text.as_str())).collect();
        assert_eq!(levels, [(1, "The Story"), (2, "More")]);
        assert_eq!(h[1].anchor.as_deref(), Some("more"));
        // An h1 that repeats the title: Readability drops it, the title heads the content.
        let e = main_content(&story("The Story - Weekly Gazette"), &base(), true);
        assert!(e.title_heading.is_some(), "{}", e.html);
        let h = e.headings.unwrap();
        assert_eq!(h[0].level, 1);
        assert_eq!(h[0].text, "The Story");
    }

    #[test]
    fn a_short_main_that_holds_the_page_is_used() {
        let e = main_content(
            "<nav>x</nav><main><h1>Only HTML</h1></main>",
            &base(),
            false,
        );
        assert_eq!(e.html, "<main><h1>Only HTML</h1></main>");
    }

    #[test]
    fn code_languages_and_links() {
        let html = "<main><p>Text text text text text text text text text text text text text text \
             text text text text text text text text text text text text text text text text text \
             <a href='other.html'>rel</a> <a href='#here'>frag</a> <a href='javascript:go()'>js</a></p>\
             <div class='highlight-python3'><div class=highlight><pre><span>x</span> = <b>1</b></pre></div></div>\
             <pre><code class='lang-rust'>fn main() {}</code></pre></main>";
        let e = main_content(html, &base(), false);
        assert!(
            e.html
                .contains("href=\"http://127.0.0.1:9/docs/other.html\""),
            "{}",
            e.html
        );
        assert!(e.html.contains("href=\"#here\""));
        assert!(!e.html.contains("javascript"));
        assert!(
            e.html
                .contains("<code class=\"language-python3\">x = 1</code>"),
            "{}",
            e.html
        );
        assert!(
            e.html
                .contains("<code class=\"language-rust\">fn main() {}</code>")
        );
    }
}
