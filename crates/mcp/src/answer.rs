//! A tool's answer: titled Markdown sections (what happened, then what the page looks like now),
//! bounded to a size the clients take (Claude Code refuses tool results over 25,000 tokens), and
//! tool errors carrying the protocol's code and message.

/// Largest answer text in bytes (about 10,000 tokens: well under the 25,000-token cap of clients).
pub const ANSWER_BUDGET: usize = 40_000;

/// Size budget of the snapshots the tools take, in bytes (the engine cuts at a whole line and
/// says what it left out); leaves room in the answer for the result and the hints.
pub const SNAPSHOT_BUDGET: u64 = 32_000;

/// One titled part of an answer.
#[derive(Debug, Clone)]
struct Section {
    title: &'static str,
    body: String,
    /// What to do instead when this section has to be cut (None: never cut first).
    hint: Option<String>,
    /// Whether it shows the page (wrapped in the content boundary when the session has them).
    page: bool,
}

/// A tool's answer: text sections and images, in order.
#[derive(Debug, Clone, Default)]
pub struct Answer {
    sections: Vec<Section>,
    /// Images as (base64 data, MIME type).
    pub images: Vec<(String, String)>,
    /// The content boundary the page sections are wrapped in (content boundaries on).
    pub boundary: Option<agentbrowser_protocol::boundary::Boundary>,
}

/// How to see a big page in parts (the hint of a cut snapshot or diff).
pub const NARROW_HINT: &str = "see a part with `browser_snapshot` and `target` (a ref or CSS selector) \
     or `depth`, or write the whole snapshot to a file with `filename`";

impl Answer {
    /// An empty answer.
    pub fn new() -> Answer {
        Answer::default()
    }

    /// Adds a section that is kept whole when possible.
    pub fn add(&mut self, title: &'static str, body: impl Into<String>) -> &mut Answer {
        self.sections.push(Section {
            title,
            body: body.into(),
            hint: None,
            page: true,
        });
        self
    }

    /// Adds a section of the server's own (warnings): never inside the content boundary.
    pub fn add_note(&mut self, title: &'static str, body: impl Into<String>) -> &mut Answer {
        self.sections.push(Section {
            title,
            body: body.into(),
            hint: None,
            page: false,
        });
        self
    }

    /// Adds a section that may be cut to fit, with what to do to see the rest.
    pub fn add_cuttable(
        &mut self,
        title: &'static str,
        body: impl Into<String>,
        hint: impl Into<String>,
    ) -> &mut Answer {
        self.sections.push(Section {
            title,
            body: body.into(),
            hint: Some(hint.into()),
            page: true,
        });
        self
    }

    /// The text of the answer, at most `budget` bytes: cuttable sections are cut at a whole
    /// line (largest first) and say how much was shown and what to do for the rest.
    pub fn render(&self, budget: usize) -> String {
        let mut sections = self.sections.clone();
        // The boundary lines of the page sections come out of the budget first.
        let marks = self.boundary.as_ref().map_or(0, |b| {
            let pages = sections.iter().filter(|s| s.page).count();
            pages * (b.start().len() + b.end().len() + 2)
        });
        let budget = budget.saturating_sub(marks);
        let size = |s: &[Section]| s.iter().map(|s| s.title.len() + s.body.len() + 6).sum();
        let mut total: usize = size(&sections);
        while total > budget {
            let Some(i) = (0..sections.len())
                .filter(|&i| sections[i].hint.is_some())
                .max_by_key(|&i| sections[i].body.len())
            else {
                break;
            };
            let s = &mut sections[i];
            let hint = s.hint.take().unwrap_or_default();
            let whole = s.body.len();
            let room = budget
                .saturating_sub(total - whole)
                .saturating_sub(hint.len() + 80);
            let kept = cut_at_line(&s.body, room);
            s.body = format!(
                "{kept}\n... cut: showed {} of {whole} bytes to keep the answer under {budget} bytes; {hint}",
                kept.len()
            );
            total = size(&sections);
        }
        let mut out = String::new();
        for s in &sections {
            if !out.is_empty() {
                out.push('\n');
            }
            out.push_str("### ");
            out.push_str(s.title);
            out.push('\n');
            match &self.boundary {
                Some(b) if s.page => {
                    let body = agentbrowser_protocol::boundary::neutralise(&s.body)
                        .unwrap_or_else(|| s.body.clone());
                    out.push_str(&b.wrap(&body));
                }
                _ => out.push_str(s.body.trim_end()),
            }
            out.push('\n');
        }
        if out.len() > budget + marks {
            let kept = cut_at_line(&out, budget.saturating_sub(200)).to_string();
            out = format!(
                "{kept}\n... cut: the answer was {} bytes, over the {budget}-byte limit",
                out.len()
            );
        }
        out
    }
}

/// The longest prefix of `text` of at most `max` bytes that ends at a line end (or at a
/// character boundary when its first line alone is longer).
pub fn cut_at_line(text: &str, max: usize) -> &str {
    if text.len() <= max {
        return text;
    }
    let mut end = max;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    match text[..end].rfind('\n') {
        Some(nl) if nl > 0 => &text[..nl],
        _ => &text[..end],
    }
}

/// A tool that failed: the protocol's error code and message, and what was done before.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolError {
    /// The protocol's error code (`stale_ref`, `invalid_argument`, ...).
    pub code: String,
    /// What went wrong and what is allowed.
    pub message: String,
    /// What the tool did before it failed (several steps), if anything.
    pub done: Option<String>,
}

impl ToolError {
    /// A failure with a code and a message.
    pub fn new(code: impl Into<String>, message: impl Into<String>) -> ToolError {
        ToolError {
            code: code.into(),
            message: message.into(),
            done: None,
        }
    }

    /// An `invalid_argument` failure.
    pub fn invalid(message: impl Into<String>) -> ToolError {
        ToolError::new("invalid_argument", message)
    }

    /// The error's text for the model.
    pub fn render(&self) -> String {
        let mut a = Answer::new();
        if let Some(done) = &self.done {
            a.add("Result", done.clone());
        }
        a.add("Error", format!("{}: {}", self.code, self.message));
        a.render(ANSWER_BUDGET)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_big_section_is_cut_at_a_line_with_its_hint() {
        let mut a = Answer::new();
        a.add("Result", "clicked");
        let body: String = (0..5000).map(|i| format!("- line {i}\n")).collect();
        a.add_cuttable("Snapshot", body.clone(), "narrow it");
        let text = a.render(2000);
        assert!(text.len() <= 2000, "{}", text.len());
        assert!(text.starts_with("### Result\nclicked\n"));
        assert!(text.contains(&format!("of {} bytes", body.len())));
        assert!(text.contains("narrow it"));
        let last_kept = text
            .lines()
            .rfind(|l| l.starts_with("- line"))
            .expect("some lines kept");
        assert!(body.contains(&format!("{last_kept}\n")), "cut mid-line");
    }

    #[test]
    fn small_answers_are_whole_and_errors_carry_the_code() {
        let mut a = Answer::new();
        a.add("Result", "ok").add_cuttable("Changes", "+ x", "h");
        assert_eq!(a.render(1000), "### Result\nok\n\n### Changes\n+ x\n");
        let e = ToolError::new("stale_ref", "gone");
        assert_eq!(e.render(), "### Error\nstale_ref: gone\n");
        let mut partial = ToolError::invalid("bad");
        partial.done = Some("fill e1".into());
        assert!(partial.render().starts_with("### Result\nfill e1\n"));
        assert_eq!(cut_at_line("abc\ndef", 5), "abc");
        assert_eq!(cut_at_line("é", 1), "");
    }
}
