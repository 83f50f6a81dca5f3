//! `read`: a page as text for an agent. A URL is fetched over HTTP (no browser): Markdown when
//! the server has it (content negotiation, the `.md` URL, llms.txt), else the main content of
//! its HTML converted to Markdown. Without a URL the active tab's rendered DOM is read.

use indexmap::IndexMap;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::present::Present;
use crate::validate::{Validate, invalid};

/// Default bound of a read's content, in characters.
pub const READ_MAX_CHARS: u64 = 100_000;
/// Default timeout of a read, in milliseconds.
pub const READ_TIMEOUT_MS: u64 = 10_000;
/// Longest timeout a read accepts, in milliseconds.
pub const READ_MAX_TIMEOUT_MS: u64 = 600_000;
/// Most extra headers a read sends.
pub const READ_MAX_HEADERS: usize = 64;

/// Which llms.txt file `read` looks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
#[serde(rename_all = "lowercase")]
pub enum LlmsFile {
    /// `llms.txt`: the site's index of pages for language models.
    Index,
    /// `llms-full.txt`: the site's whole documentation in one file.
    Full,
}

impl LlmsFile {
    /// The file name.
    pub fn file_name(self) -> &'static str {
        match self {
            LlmsFile::Index => "llms.txt",
            LlmsFile::Full => "llms-full.txt",
        }
    }
}

/// Parameters of `read`. The default mode is Markdown; `raw`, `outline`, `llms` and `filter`
/// choose others (`raw` goes with none of them, `outline` not with `filter`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ReadParams {
    /// The page to read over HTTP, without a browser (a bare host gets `https://`). Absent: the
    /// active tab's rendered DOM (what the user sees after scripts ran).
    #[cfg_attr(
        feature = "clap",
        arg(help = "The page (a bare host gets https://); absent: the active tab")
    )]
    pub url: Option<String>,
    /// The body as it is: the HTTP response's body, or the active tab's serialized DOM.
    #[cfg_attr(
        feature = "clap",
        arg(
            visible_alias = "html",
            long,
            num_args = 0,
            default_missing_value = "true"
        )
    )]
    pub raw: Option<bool>,
    /// Fail (`content_unavailable`) unless the server gives Markdown (content negotiation, the
    /// `.md` URL or an llms.txt file) instead of falling back to converting HTML.
    #[cfg_attr(
        feature = "clap",
        arg(
            long = "require-md",
            num_args = 0,
            default_missing_value = "true",
            help = "Fail unless the server has Markdown (no HTML fallback)"
        )
    )]
    pub require_markdown: Option<bool>,
    /// Read the site's `llms.txt` (`index`) or `llms-full.txt` (`full`), looked up from the
    /// URL's path up to the origin root; when there is none, the page is read as usual (and a
    /// warning says so).
    #[cfg_attr(feature = "clap", arg(long, value_enum, value_name = "FILE"))]
    pub llms: Option<LlmsFile>,
    /// Only the headings, one a line with their level and anchor (`## Title {#anchor}`).
    #[cfg_attr(
        feature = "clap",
        arg(long, num_args = 0, default_missing_value = "true")
    )]
    pub outline: Option<bool>,
    /// Only the heading sections whose heading contains this text (case-insensitive), each
    /// with its subsections.
    #[cfg_attr(
        feature = "clap",
        arg(long, value_name = "TEXT", allow_hyphen_values = true)
    )]
    pub filter: Option<String>,
    /// Largest content in characters (default 100000; 0 = no limit); longer is cut at a line
    /// and says so (`truncated`, `totalChars`).
    #[cfg_attr(feature = "clap", arg(long, value_name = "N", allow_negative_numbers = true, value_parser = crate::cli::fit::<u64>()))]
    pub max_chars: Option<u64>,
    /// Time for the whole read in milliseconds (default 10000; 1 to 600000).
    #[cfg_attr(feature = "clap", arg(skip))]
    pub timeout_ms: Option<u64>,
    /// Extra HTTP request headers (name to value); never sent to another origin after a
    /// redirect.
    #[cfg_attr(feature = "clap", arg(skip))]
    pub headers: Option<IndexMap<String, String>>,
    /// Send the session browser's cookies for each URL fetched (when a browser runs; a read
    /// never starts one for this).
    #[cfg_attr(
        feature = "clap",
        arg(long, num_args = 0, default_missing_value = "true")
    )]
    pub cookies: Option<bool>,
    /// Read the page as the session's browser shows it once its scripts ran (a page JavaScript
    /// renders): loaded in a tab of its own (the active tab stays as it is), read once its
    /// network settled (at most 5 s after its load event, within `timeoutMs`), then closed.
    /// Starts the browser if none runs; a navigation for the action policy. Needs `url`; not
    /// with `llms`, `requireMarkdown` or `headers`.
    #[cfg_attr(
        feature = "clap",
        arg(
            long,
            num_args = 0,
            default_missing_value = "true",
            help = "Read the page as the session's browser renders it (scripts run), in a tab of its own closed afterwards (a navigation for the action policy)"
        )
    )]
    pub render: Option<bool>,
    /// Hosts this read may reach, besides the session's allowed domains (patterns as for
    /// those: `example.com`, `*.example.com`): the URL and every redirect of a fetch, the page
    /// a `render` ends on, the active tab's URL; a read leaving them fails
    /// (`domain_not_allowed`).
    #[cfg_attr(
        feature = "clap",
        arg(long, value_name = "DOMAINS", value_delimiter = ',')
    )]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub allowed_domains: Option<Vec<String>>,
}

/// Header names `read` does not let a caller set (the HTTP client owns them).
const RESERVED_HEADERS: &[&str] = &[
    "host",
    "content-length",
    "transfer-encoding",
    "connection",
    "accept-encoding",
];

impl Validate for ReadParams {
    fn validate(&self) -> Result<(), String> {
        if self.raw == Some(true) {
            for (set, name) in [
                (self.require_markdown == Some(true), "requireMarkdown"),
                (self.llms.is_some(), "llms"),
                (self.outline == Some(true), "outline"),
                (self.filter.is_some(), "filter"),
            ] {
                if set {
                    return invalid(
                        name,
                        "cannot go with `raw` (the body as it is); drop one of them",
                    );
                }
            }
        }
        if let Some(d) = &self.allowed_domains {
            crate::DomainList::parse(d)
                .map_err(|e| format!("invalid parameter `allowedDomains`: {e}"))?;
        }
        if self.outline == Some(true) && self.filter.is_some() {
            return invalid(
                "filter",
                "cannot go with `outline`; give one of them (the outline lists every heading)",
            );
        }
        if let Some(f) = &self.filter
            && f.trim().is_empty()
        {
            return invalid("filter", "empty; give text that a heading contains");
        }
        if let Some(t) = self.timeout_ms
            && !(1..=READ_MAX_TIMEOUT_MS).contains(&t)
        {
            return invalid(
                "timeoutMs",
                format!("{t} is out of range; use 1 to {READ_MAX_TIMEOUT_MS}"),
            );
        }
        if self.render == Some(true) {
            if self.url.is_none() {
                return invalid(
                    "render",
                    "needs a `url`: without one the active tab is read, which the browser already rendered",
                );
            }
            for (set, name) in [
                (self.llms.is_some(), "llms"),
                (self.require_markdown == Some(true), "requireMarkdown"),
                (self.headers.is_some(), "headers"),
            ] {
                if set {
                    return invalid(
                        name,
                        "cannot go with `render` (the browser loads the page itself, as HTML); drop one of them",
                    );
                }
            }
        }
        let fetches = self.url.is_some() || self.llms.is_some();
        if !fetches {
            if self.require_markdown == Some(true) {
                return invalid(
                    "requireMarkdown",
                    "needs a `url` (or `llms`): without one the active tab's DOM is read, which is HTML",
                );
            }
            if self.headers.is_some() || self.cookies == Some(true) {
                let name = if self.headers.is_some() {
                    "headers"
                } else {
                    "cookies"
                };
                return invalid(
                    name,
                    "goes with a `url` (or `llms`): without one the active tab's DOM is read and nothing is fetched",
                );
            }
        }
        if let Some(h) = &self.headers {
            if h.len() > READ_MAX_HEADERS {
                return invalid(
                    "headers",
                    format!("{} headers; at most {READ_MAX_HEADERS}", h.len()),
                );
            }
            for (name, value) in h {
                let token = !name.is_empty()
                    && name
                        .bytes()
                        .all(|b| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b));
                if !token {
                    return invalid(
                        "headers",
                        format!(
                            "{name:?} is not a header name (letters, digits and !#$%&'*+-.^_`|~)"
                        ),
                    );
                }
                if RESERVED_HEADERS.contains(&name.to_ascii_lowercase().as_str()) {
                    return invalid(
                        "headers",
                        format!("{name} is set by the HTTP client; it cannot be given"),
                    );
                }
                if value.bytes().any(|b| b == b'\r' || b == b'\n' || b == 0) {
                    return invalid(
                        "headers",
                        format!("the value of {name} has a line break or NUL"),
                    );
                }
            }
        }
        Ok(())
    }
}

impl crate::ParamFacts for ReadParams {
    fn wait_budget_ms(&self) -> u64 {
        self.timeout_ms.unwrap_or(READ_TIMEOUT_MS)
    }

    fn url_fields(&self) -> Vec<crate::UrlField<'_>> {
        crate::url_fields_of(&[("url", self.url.as_deref())])
    }

    fn dialog(&self, declared: crate::Dialog) -> crate::Dialog {
        // A URL is read over HTTP: the page is not needed.
        match self.url {
            Some(_) => crate::Dialog::Ignores,
            None => declared,
        }
    }
}

/// Where a read's content came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum ReadSource {
    /// The server answered Markdown to `Accept: text/markdown`; used as it is.
    AcceptMarkdown,
    /// The URL with `.md` appended (`index.html.md` for a directory) answered Markdown.
    MdUrl,
    /// An `llms.txt` on the URL's path.
    LlmsIndex,
    /// An `llms-full.txt` on the URL's path.
    LlmsFull,
    /// The main content of the HTML answer, converted to Markdown.
    HtmlFallback,
    /// A text answer that is neither HTML nor Markdown (plain text, JSON, XML), as it is.
    Text,
    /// The response body as it is (`raw`).
    Raw,
    /// The main content of the active tab's rendered DOM, converted to Markdown.
    ActiveTab,
    /// The active tab's rendered DOM serialized as HTML (`raw` without a URL).
    ActiveTabHtml,
    /// The main content of the URL's page as the browser rendered it (`render`), converted to
    /// Markdown.
    Rendered,
    /// The URL's page as the browser rendered it, its DOM serialized as HTML (`render` with `raw`).
    RenderedHtml,
}

impl ReadSource {
    /// The wire spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            ReadSource::AcceptMarkdown => "accept-markdown",
            ReadSource::MdUrl => "md-url",
            ReadSource::LlmsIndex => "llms-index",
            ReadSource::LlmsFull => "llms-full",
            ReadSource::HtmlFallback => "html-fallback",
            ReadSource::Text => "text",
            ReadSource::Raw => "raw",
            ReadSource::ActiveTab => "active-tab",
            ReadSource::ActiveTabHtml => "active-tab-html",
            ReadSource::Rendered => "rendered",
            ReadSource::RenderedHtml => "rendered-html",
        }
    }
}

/// One heading of a read's outline.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct ReadHeading {
    /// Its level, 1 to 6.
    pub level: u8,
    /// Its text.
    pub text: String,
    /// Its anchor: the element's id in HTML (null when it has none), the GitHub-style slug
    /// (or an explicit `{#id}`) in Markdown.
    pub anchor: Option<String>,
}

/// One HTTP request a read made.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ReadAttempt {
    /// What it looked for: `page`, `md-url`, `llms` or `raw`.
    pub purpose: String,
    /// The URL asked for.
    pub url: String,
    /// The HTTP status after redirects (null when no answer came).
    pub status: Option<u16>,
    /// The answer's content type.
    pub content_type: Option<String>,
    /// Whether the content came from it.
    pub used: bool,
    /// Why it gave nothing (a connection error, not Markdown, a 404), when it did not.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// Result of `read`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ReadOutput {
    /// The URL asked for (normalized), or the active tab's URL.
    pub url: String,
    /// Where the content came from after redirects (the `.md` or llms.txt URL when one was used).
    pub final_url: String,
    /// Its HTTP status (null for the active tab).
    pub status: Option<u16>,
    /// Its content type (the document's for the active tab).
    pub content_type: Option<String>,
    /// Where the content came from.
    pub source: ReadSource,
    /// The document's title, when it has one.
    pub title: Option<String>,
    /// Whether `content` was cut at `maxChars`.
    pub truncated: bool,
    /// The whole content's length in characters, before any cut.
    pub total_chars: u64,
    /// The content: Markdown (or the raw body, or the outline).
    pub content: String,
    /// The headings (with `outline`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub outline: Option<Vec<ReadHeading>>,
    /// How many heading sections matched (with `filter`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sections: Option<u64>,
    /// Every HTTP request made, in order (empty for the active tab's DOM and a rendered page).
    pub attempts: Vec<ReadAttempt>,
    /// What the read could not do as asked or found doubtful, as the envelope's warning says it
    /// (absent when nothing): a page whose HTML is scripts and almost no text (likely rendered by
    /// JavaScript, which a URL read does not run: read it with `render`), a cut body, a status
    /// that is not 2xx.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<String>,
}

impl Present for ReadOutput {
    fn text(&self) -> String {
        if self.truncated {
            format!(
                "{}\n... (cut: {} characters in all; --max-chars N or 0 for all)",
                self.content, self.total_chars
            )
        } else {
            self.content.clone()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(p: ReadParams) -> Result<(), String> {
        p.validate()
    }

    #[test]
    fn incompatible_modes_are_refused_by_name() {
        let raw = ReadParams {
            url: Some("http://x/".into()),
            raw: Some(true),
            ..Default::default()
        };
        assert!(check(raw.clone()).is_ok());
        let e = check(ReadParams {
            outline: Some(true),
            ..raw.clone()
        })
        .unwrap_err();
        assert!(e.contains("`outline`") && e.contains("raw"), "{e}");
        let e = check(ReadParams {
            llms: Some(LlmsFile::Full),
            ..raw.clone()
        })
        .unwrap_err();
        assert!(e.contains("`llms`"), "{e}");
        let e = check(ReadParams {
            url: Some("http://x/".into()),
            outline: Some(true),
            filter: Some("a".into()),
            ..Default::default()
        })
        .unwrap_err();
        assert!(e.contains("`filter`"), "{e}");
        let e = check(ReadParams {
            require_markdown: Some(true),
            ..Default::default()
        })
        .unwrap_err();
        assert!(e.contains("`requireMarkdown`"), "{e}");
        assert!(
            check(ReadParams {
                require_markdown: Some(true),
                llms: Some(LlmsFile::Index),
                ..Default::default()
            })
            .is_ok()
        );
    }

    #[test]
    fn render_needs_a_url_and_no_fetch_options() {
        let render = ReadParams {
            url: Some("http://x/".into()),
            render: Some(true),
            ..Default::default()
        };
        assert!(check(render.clone()).is_ok());
        assert!(
            check(ReadParams {
                raw: Some(true),
                outline: None,
                ..render.clone()
            })
            .is_ok()
        );
        let e = check(ReadParams {
            url: None,
            ..render.clone()
        })
        .unwrap_err();
        assert!(e.contains("`render`") && e.contains("`url`"), "{e}");
        let e = check(ReadParams {
            llms: Some(LlmsFile::Index),
            ..render.clone()
        })
        .unwrap_err();
        assert!(e.contains("`llms`"), "{e}");
        let e = check(ReadParams {
            require_markdown: Some(true),
            ..render.clone()
        })
        .unwrap_err();
        assert!(e.contains("`requireMarkdown`"), "{e}");
        let e = check(ReadParams {
            headers: Some(IndexMap::from([("X-A".to_string(), "b".to_string())])),
            ..render
        })
        .unwrap_err();
        assert!(e.contains("`headers`"), "{e}");
    }

    #[test]
    fn numbers_and_headers_are_checked() {
        let url = || Some("http://x/".to_string());
        for t in [0, READ_MAX_TIMEOUT_MS + 1] {
            let e = check(ReadParams {
                url: url(),
                timeout_ms: Some(t),
                ..Default::default()
            })
            .unwrap_err();
            assert!(e.contains("`timeoutMs`"), "{e}");
        }
        let headers = |k: &str, v: &str| {
            check(ReadParams {
                url: url(),
                headers: Some(IndexMap::from([(k.to_string(), v.to_string())])),
                ..Default::default()
            })
        };
        assert!(headers("X-Token", "abc").is_ok());
        assert!(headers("Bad Name", "x").is_err());
        assert!(headers("Host", "x").is_err());
        assert!(headers("X-A", "a\r\nB: c").is_err());
        let e = check(ReadParams {
            cookies: Some(true),
            ..Default::default()
        })
        .unwrap_err();
        assert!(e.contains("`cookies`"), "{e}");
        let e = check(ReadParams {
            url: url(),
            filter: Some("  ".into()),
            ..Default::default()
        })
        .unwrap_err();
        assert!(e.contains("`filter`"), "{e}");
    }
}
