//! HTML to Markdown with `htmd` (a port of turndown): ATX headings, `-` bullets, fenced code
//! with its language, pipe tables, inline links and image alt text. And the headings of
//! Markdown text, found as CommonMark does (ATX and setext, not inside fenced code).

use agentbrowser_protocol::ReadHeading;

thread_local! {
    static CONVERTER: htmd::HtmlToMarkdown = htmd::HtmlToMarkdown::builder()
        .options(htmd::options::Options {
            heading_style: htmd::options::HeadingStyle::Atx,
            hr_style: htmd::options::HrStyle::Dashes,
            bullet_list_marker: htmd::options::BulletListMarker::Dash,
            ul_bullet_spacing: 1,
            ol_number_spacing: 1,
            code_block_style: htmd::options::CodeBlockStyle::Fenced,
            code_block_fence: htmd::options::CodeBlockFence::Backticks,
            link_style: htmd::options::LinkStyle::Inlined,
            ..Default::default()
        })
        .skip_tags(vec!["script", "style", "head", "template", "noscript"])
        .build();
}

/// Converts an HTML fragment to Markdown; blank-line runs become one blank line (outside code).
pub fn from_html(html: &str) -> String {
    let md = CONVERTER.with(|c| c.convert(html)).unwrap_or_default();
    tidy(&md)
}

/// Drops trailing spaces that are not a hard break, and collapses runs of blank lines, outside
/// fenced code.
pub fn tidy(md: &str) -> String {
    let mut out = String::with_capacity(md.len());
    let mut fence: Option<(char, usize)> = None;
    let mut blank = 0;
    for line in md.lines() {
        if fence.is_none() && line.trim().is_empty() {
            blank += 1;
            if blank > 1 {
                continue;
            }
            out.push('\n');
            continue;
        }
        blank = 0;
        let inside = fence.is_some();
        update_fence(&mut fence, line);
        if inside {
            out.push_str(line);
        } else {
            // Two trailing spaces are a hard line break; other trailing blanks say nothing.
            let trimmed = line.trim_end();
            out.push_str(trimmed);
            if line.ends_with("  ") {
                out.push_str("  ");
            }
        }
        out.push('\n');
    }
    out.trim_matches('\n').to_string()
}

/// Opens or closes a fenced code block at `line` (``` or ~~~, three or more, up to three
/// spaces of indent; a closing fence is at least as long as its opener).
fn update_fence(fence: &mut Option<(char, usize)>, line: &str) {
    let indent = line.len() - line.trim_start_matches(' ').len();
    if indent > 3 {
        return;
    }
    let t = &line[indent..];
    let Some(c) = t.chars().next().filter(|c| *c == '`' || *c == '~') else {
        return;
    };
    let run = t.chars().take_while(|x| *x == c).count();
    if run < 3 {
        return;
    }
    match *fence {
        None => *fence = Some((c, run)),
        Some((open, len)) if open == c && run >= len && t[run..].trim().is_empty() => {
            *fence = None;
        }
        Some(_) => {}
    }
}

/// A heading of Markdown text: where it starts and ends (line indexes) and what it is.
#[derive(Debug, Clone, PartialEq)]
pub struct MdHeading {
    /// Its first line.
    pub line: usize,
    /// Its heading as the outline shows it.
    pub heading: ReadHeading,
}

/// The headings of Markdown text (ATX `## x` and setext underlines, not in fenced code or a
/// front matter block), with GitHub-style slugs as anchors (or an explicit `{#id}`).
pub fn headings(lines: &[&str]) -> Vec<MdHeading> {
    let mut out = Vec::new();
    let mut fence: Option<(char, usize)> = None;
    let mut slugs = Slugs::default();
    let mut start = 0;
    if lines.first().is_some_and(|l| l.trim_end() == "---")
        && let Some(end) = lines
            .iter()
            .skip(1)
            .position(|l| matches!(l.trim_end(), "---" | "..."))
    {
        start = end + 2;
    }
    let mut prev_text: Option<usize> = None;
    for (i, line) in lines.iter().enumerate().skip(start) {
        let was_fenced = fence.is_some();
        update_fence(&mut fence, line);
        if was_fenced || fence.is_some() {
            prev_text = None;
            continue;
        }
        if let Some((level, text)) = atx(line) {
            out.push(make(i, level, text, &mut slugs));
            prev_text = None;
            continue;
        }
        let t = line.trim();
        let indent = line.len() - line.trim_start_matches(' ').len();
        if let Some(p) = prev_text
            && indent <= 3
            && !t.is_empty()
            && (t.chars().all(|c| c == '=') || t.chars().all(|c| c == '-'))
        {
            let level = if t.starts_with('=') { 1 } else { 2 };
            out.push(make(p, level, lines[p].trim(), &mut slugs));
            prev_text = None;
            continue;
        }
        prev_text = paragraph_line(line).then_some(i);
    }
    out
}

/// Whether a line can be the text of a setext heading (a plain paragraph line).
fn paragraph_line(line: &str) -> bool {
    let t = line.trim_start();
    let indent = line.len() - t.len();
    !(t.is_empty()
        || indent > 3
        || t.starts_with(['>', '|', '<'])
        || t.starts_with("- ")
        || t.starts_with("* ")
        || t.starts_with("+ ")
        || t.split_once(". ")
            .is_some_and(|(n, _)| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit())))
}

/// An ATX heading line: its level and text (closing `#`s removed).
fn atx(line: &str) -> Option<(u8, &str)> {
    let indent = line.len() - line.trim_start_matches(' ').len();
    if indent > 3 {
        return None;
    }
    let t = &line[indent..];
    let level = t.chars().take_while(|c| *c == '#').count();
    if !(1..=6).contains(&level) {
        return None;
    }
    let rest = &t[level..];
    if !(rest.is_empty() || rest.starts_with([' ', '\t'])) {
        return None;
    }
    let mut text = rest.trim();
    let closing = text.trim_end_matches('#');
    if closing.is_empty() || closing.ends_with([' ', '\t']) {
        text = closing.trim_end();
    }
    Some((level as u8, text))
}

fn make(line: usize, level: u8, text: &str, slugs: &mut Slugs) -> MdHeading {
    let (text, explicit) = match text.strip_suffix('}').and_then(|t| t.rsplit_once("{#")) {
        Some((t, id)) if !id.is_empty() && !id.contains(char::is_whitespace) => {
            (t.trim_end(), Some(id.to_string()))
        }
        _ => (text, None),
    };
    let shown = inline_text(text);
    let anchor = match explicit {
        Some(id) => {
            slugs.seen(&id);
            id
        }
        None => slugs.next(&shown),
    };
    MdHeading {
        line,
        heading: ReadHeading {
            level,
            text: shown,
            anchor: Some(anchor).filter(|a| !a.is_empty()),
        },
    }
}

/// The text of inline Markdown, roughly as rendered: links and images to their text, code
/// spans, emphasis marks and escapes removed.
pub fn inline_text(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let chars: Vec<char> = s.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        match c {
            '\\' if i + 1 < chars.len() && chars[i + 1].is_ascii_punctuation() => {
                out.push(chars[i + 1]);
                i += 2;
                continue;
            }
            '!' if chars.get(i + 1) == Some(&'[') => {
                i += 1;
                continue;
            }
            '[' => {
                // `[text](url)` or `[text][ref]`: keep the text.
                if let Some(close) = chars[i + 1..].iter().position(|x| *x == ']') {
                    let end = i + 1 + close;
                    let inner: String = chars[i + 1..end].iter().collect();
                    let mut j = end + 1;
                    if chars.get(j) == Some(&'(') {
                        if let Some(p) = chars[j..].iter().position(|x| *x == ')') {
                            j += p + 1;
                        }
                    } else if chars.get(j) == Some(&'[')
                        && let Some(p) = chars[j..].iter().position(|x| *x == ']')
                    {
                        j += p + 1;
                    }
                    out.push_str(&inline_text(&inner));
                    i = j;
                    continue;
                }
            }
            '*' | '`' => {
                i += 1;
                continue;
            }
            '_' if i == 0
                || i + 1 == chars.len()
                || !chars[i - 1].is_alphanumeric()
                || !chars[i + 1].is_alphanumeric() =>
            {
                i += 1;
                continue;
            }
            _ => {}
        }
        out.push(c);
        i += 1;
    }
    crate::reading::extract::squash(&out)
}

/// GitHub's heading slugs: lowercase, punctuation other than `-` and `_` dropped, spaces to
/// `-`, and `-1`, `-2`, ... for repeats.
#[derive(Default)]
struct Slugs(std::collections::HashMap<String, usize>);

impl Slugs {
    fn seen(&mut self, slug: &str) {
        self.0.entry(slug.to_string()).or_insert(0);
    }

    fn next(&mut self, text: &str) -> String {
        let base: String = text
            .to_lowercase()
            .chars()
            .filter_map(|c| match c {
                ' ' => Some('-'),
                c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
                _ => None,
            })
            .collect();
        match self.0.get_mut(&base) {
            None => {
                self.0.insert(base.clone(), 0);
                base
            }
            Some(n) => {
                *n += 1;
                let slug = format!("{base}-{n}");
                self.0.insert(slug.clone(), 0);
                slug
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn heads(md: &str) -> Vec<(u8, String, Option<String>)> {
        let lines: Vec<&str> = md.lines().collect();
        headings(&lines)
            .into_iter()
            .map(|h| (h.heading.level, h.heading.text, h.heading.anchor))
            .collect()
    }

    #[test]
    fn atx_setext_fences_and_slugs() {
        let md = "---\ntitle: x\n---\n# Intro\ntext\n\nSetext two\n---\n```sh\n# not a heading\n```\n\
                  ## The `read` [command](http://x) ##\n### Custom {#my-id}\n# Intro\n####### seven\n#nospace";
        assert_eq!(
            heads(md),
            vec![
                (1, "Intro".into(), Some("intro".into())),
                (2, "Setext two".into(), Some("setext-two".into())),
                (
                    2,
                    "The read command".into(),
                    Some("the-read-command".into())
                ),
                (3, "Custom".into(), Some("my-id".into())),
                (1, "Intro".into(), Some("intro-1".into())),
            ]
        );
    }

    #[test]
    fn conversion_keeps_structure() {
        let md = from_html(
            "<h2>Usage</h2><p>See <a href=\"http://x/y\">the guide</a>.</p><ul><li>one</li><li>two</li></ul>\
             <pre><code class=\"language-rust\">fn main() {}\n</code></pre>\
             <table><thead><tr><th>A</th><th>B</th></tr></thead><tbody><tr><td>1</td><td>2</td></tr></tbody></table>\
             <p><img src=\"http://x/i.png\" alt=\"A chart\"></p>",
        );
        let want = "## Usage\n\nSee [the guide](http://x/y).\n\n- one\n- two\n\n```rust\nfn main() {}\n```\n\n\
                    | A | B |\n| - | - |\n| 1 | 2 |\n\n![A chart](http://x/i.png)";
        assert_eq!(md, want);
    }
}
