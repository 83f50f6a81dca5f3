//! `read`: a page as Markdown for an agent, through one pipeline for both kinds of read.
//!
//! - A URL is fetched over HTTP without a browser (`fetch`): the server's own Markdown when it
//!   has it (`Accept: text/markdown`, then the URL with `.md`), else the main content of its
//!   HTML (`extract`) converted to Markdown (`markdown`). `llms` looks for llms.txt first
//!   (`llms`); `raw` returns the body as it is.
//! - Without a URL the active tab's rendered DOM is serialized in the page (`dom`) and goes
//!   through the same extraction and conversion.
//!
//! - With `render` the URL is loaded in a tab of the session's browser (`render`) and its
//!   rendered DOM read as the active tab's is.
//!
//! Then the outline or the filter (`outline`), and the bound on the content's length. Fetched
//! HTML that is scripts and almost no text is said to be likely rendered by JavaScript
//! (`scripted`), with the ways to read it rendered.

mod dom;
mod extract;
mod fetch;
mod llms;
mod markdown;
mod outline;
mod render;
mod scripted;

use std::time::Duration;

use agentbrowser_protocol::{
    ErrorCode, READ_MAX_CHARS, READ_TIMEOUT_MS, ReadAttempt, ReadHeading, ReadOutput, ReadParams,
    ReadSource,
};
use tokio::time::Instant;
use url::Url;

use crate::cx::Cx;
use crate::error::{EngineError, Result};
use crate::warnings;

/// What negotiation asks for: Markdown first, then HTML, then anything.
const ACCEPT_PAGE: &str = "text/markdown, text/html;q=0.9, text/plain;q=0.8, */*;q=0.5";
/// What a Markdown file lookup (`.md`, llms.txt) asks for.
const ACCEPT_MARKDOWN: &str = "text/markdown, text/plain;q=0.9, */*;q=0.1";

/// The document a read found, before the outline, filter and bound.
struct Found {
    url: String,
    final_url: String,
    status: Option<u16>,
    content_type: Option<String>,
    source: ReadSource,
    title: Option<String>,
    body: Body,
    attempts: Vec<ReadAttempt>,
}

/// A found document's body.
enum Body {
    /// Markdown (used as it is).
    Markdown(String),
    /// HTML (its main content is converted).
    Html(String),
    /// Text returned as it is (plain text, JSON, a raw body).
    Text(String),
}

/// `read`: see the module. The answer's `warnings` are the read's warnings (the envelope's too).
pub(crate) async fn read(p: ReadParams, cx: &mut Cx<'_>) -> Result<ReadOutput> {
    let (out, notes) = warnings::collect(noted(p, cx)).await;
    for n in &notes {
        warnings::note(n.clone());
    }
    let mut out = out?;
    out.warnings = notes;
    Ok(out)
}

/// `read`, its warnings noted.
async fn noted(p: ReadParams, cx: &mut Cx<'_>) -> Result<ReadOutput> {
    let timeout = p.timeout_ms.unwrap_or(READ_TIMEOUT_MS);
    // Inside the command's own deadline, so this read's timeout is what is reported; the
    // fetches stop at `deadline` with their own error (naming the URL), the steps here a
    // little after it.
    let outer = cx
        .limits
        .deadline
        .checked_sub(Duration::from_millis(300))
        .unwrap_or(cx.limits.deadline);
    let deadline = (Instant::now() + Duration::from_millis(timeout)).min(outer);
    let late = deadline + Duration::from_millis(200);
    let timed_out = || {
        EngineError::new(
            ErrorCode::Timeout,
            format!("`read` did not finish within {timeout} ms (`timeoutMs`; the CLI's --timeout)"),
        )
    };
    if let Some(u) = &p.url {
        check_own(&p, "read of", http_url(u)?.as_str())?;
    }
    let found = match (&p.url, p.render == Some(true)) {
        // Bounded by `deadline` itself, and closes its tab whatever happens.
        (Some(u), true) => render::read(&http_url(u)?, p.raw == Some(true), cx, deadline).await?,
        _ => tokio::time::timeout_at(late, find(&p, cx, deadline))
            .await
            .map_err(|_| timed_out())??,
    };
    // A fetch checked each hop; the active tab and a rendered page are checked where they are.
    check_own(&p, "the read's page", &found.final_url)?;
    let work = tokio::task::spawn_blocking(move || finish(p, found));
    let out = tokio::time::timeout_at(late, work)
        .await
        .map_err(|_| timed_out())?
        .map_err(|e| EngineError::internal(format!("the conversion task failed: {e}")))??;
    // (Noted here: the warnings sink belongs to the command's task, not the blocking pool.)
    for w in &out.warnings {
        warnings::note(w.clone());
    }
    if out.truncated {
        warnings::note(format!(
            "the content was cut at {} of {} characters (`maxChars`; 0 for all)",
            out.content.chars().count(),
            out.total_chars
        ));
    }
    Ok(out)
}

/// Finds the document: over HTTP for a URL (or `llms`), else the active tab's DOM.
async fn find(p: &ReadParams, cx: &mut Cx<'_>, deadline: Instant) -> Result<Found> {
    if p.url.is_none() && p.llms.is_none() {
        return active_tab(p.raw == Some(true), cx, Vec::new()).await;
    }
    let url = match &p.url {
        Some(u) => http_url(u)?,
        None => {
            let page = cx.page().await?;
            let (u, _) = page.location().await?;
            http_url(&u).map_err(|_| {
                EngineError::invalid(format!(
                    "invalid parameter `llms`: without a `url` llms.txt is looked up from the active tab's URL, \
                     which is {u}, not http or https; give a `url`"
                ))
            })?
        }
    };
    let extra = extra(p, cx);
    if p.raw == Some(true) {
        return raw(&url, &extra, deadline).await;
    }
    let mut attempts = Vec::new();
    if let Some(file) = p.llms {
        let mut looked = Vec::new();
        for candidate in llms::candidates(&url, file) {
            looked.push(candidate.to_string());
            if let Some((f, md)) =
                markdown_file("llms", &candidate, &extra, deadline, &mut attempts).await?
            {
                let source = match file {
                    agentbrowser_protocol::LlmsFile::Index => ReadSource::LlmsIndex,
                    agentbrowser_protocol::LlmsFile::Full => ReadSource::LlmsFull,
                };
                return Ok(Found {
                    url: url.to_string(),
                    final_url: f.final_url.clone(),
                    status: Some(f.status),
                    content_type: f.content_type.clone(),
                    source,
                    title: first_h1(&md),
                    body: Body::Markdown(md),
                    attempts,
                });
            }
        }
        if p.require_markdown == Some(true) && p.url.is_none() {
            return Err(unavailable(format!(
                "no {} on the path of {url} (looked at {}); without a `url` the fallback is the tab's HTML, \
                 which `requireMarkdown` refuses",
                file.file_name(),
                looked.join(", ")
            )));
        }
        warnings::note(format!(
            "no {} on the path of {url} (looked at {}); read the page instead",
            file.file_name(),
            looked.join(", ")
        ));
        if p.url.is_none() {
            return active_tab(false, cx, attempts).await;
        }
    }
    negotiate(
        &url,
        p.require_markdown == Some(true),
        &extra,
        deadline,
        attempts,
    )
    .await
}

/// The read's request extras: the caller's headers, and the browser's cookies when asked and
/// a browser runs (a read never starts one for them).
fn extra(p: &ReadParams, cx: &mut Cx<'_>) -> fetch::Extra {
    let headers = p
        .headers
        .as_ref()
        .map(|h| h.iter().map(|(k, v)| (k.clone(), v.clone())).collect())
        .unwrap_or_default();
    let cookies = if p.cookies == Some(true) {
        let page = cx
            .engine
            .browser
            .as_ref()
            .filter(|b| !b.is_closed())
            .and_then(crate::browser::Browser::active_attached);
        if page.is_none() {
            warnings::note(
                "no browser runs in this session, so no cookies were sent (a read does not start one)",
            );
        }
        page.map(|page| fetch::CookieSource {
            session: page.session.clone(),
        })
    } else {
        None
    };
    fetch::Extra {
        headers,
        cookies,
        allowed: cx
            .engine
            .part::<crate::domains::Guard>()
            .list
            .clone()
            .into_iter()
            .chain(own_list(p))
            .collect(),
    }
}

/// The read's own allowed domains (`allowedDomains`; checked by `validate`).
fn own_list(p: &ReadParams) -> Option<std::sync::Arc<agentbrowser_protocol::DomainList>> {
    let d = p.allowed_domains.as_ref()?;
    agentbrowser_protocol::DomainList::parse(d)
        .ok()
        .map(std::sync::Arc::new)
}

/// Fails with `domain_not_allowed` when `url` (`what` names it) is not in the read's own
/// allowed domains.
fn check_own(p: &ReadParams, what: &str, url: &str) -> Result<()> {
    match own_list(p) {
        Some(list) => list.check_url(url).map_err(|refusal| {
            EngineError::new(
                ErrorCode::DomainNotAllowed,
                list.refusal_message(&format!("{what} {url}"), &refusal)
                    .replace("the session may reach", "this read may reach"),
            )
        }),
        None => Ok(()),
    }
}

/// `url` as an http(s) URL (a bare host gets `https://`, as for `open`).
fn http_url(u: &str) -> Result<Url> {
    let normalized = crate::nav::normalize_url(u)?;
    let parsed = Url::parse(&normalized)
        .map_err(|e| EngineError::invalid(format!("invalid parameter `url`: {u}: {e}")))?;
    if !matches!(parsed.scheme(), "http" | "https") {
        return Err(EngineError::invalid(format!(
            "invalid parameter `url`: `read` fetches http and https URLs, not {}: (without a `url` it reads the active tab)",
            parsed.scheme()
        )));
    }
    Ok(parsed)
}

/// The body as it is (`raw`).
async fn raw(url: &Url, extra: &fetch::Extra, deadline: Instant) -> Result<Found> {
    let f = fetch::get(url.as_str(), "*/*", extra, deadline).await?;
    note_status(&f);
    note_cut(&f);
    let text = f.text().ok_or_else(|| {
        unavailable(format!(
            "{} answered {} that is not text; `read` returns text",
            f.final_url,
            f.content_type.as_deref().unwrap_or("a body")
        ))
    })?;
    Ok(Found {
        url: url.to_string(),
        final_url: f.final_url.clone(),
        status: Some(f.status),
        content_type: f.content_type.clone(),
        source: ReadSource::Raw,
        title: None,
        attempts: vec![attempt("raw", url.as_str(), Some(&f), true, None)],
        body: Body::Text(text),
    })
}

/// Markdown negotiation, then the `.md` URL, then the HTML's main content.
async fn negotiate(
    url: &Url,
    require_markdown: bool,
    extra: &fetch::Extra,
    deadline: Instant,
    mut attempts: Vec<ReadAttempt>,
) -> Result<Found> {
    let page = fetch::get(url.as_str(), ACCEPT_PAGE, extra, deadline).await?;
    let mime = page.mime();
    let text = page.text();
    let found = |source, body, f: &fetch::Fetched, attempts, title| Found {
        url: url.to_string(),
        final_url: f.final_url.clone(),
        status: Some(f.status),
        content_type: f.content_type.clone(),
        source,
        title,
        body,
        attempts,
    };
    let Some(text) = text else {
        attempts.push(attempt("page", url.as_str(), Some(&page), false, None));
        return Err(unavailable(format!(
            "{} answered {} that is not text; `read` handles HTML, Markdown and text",
            page.final_url,
            page.content_type.as_deref().unwrap_or("a body")
        )));
    };
    let kind = kind_of(&mime, &text);
    if kind == Kind::Markdown {
        note_status(&page);
        note_cut(&page);
        attempts.push(attempt("page", url.as_str(), Some(&page), true, None));
        let title = first_h1(&text);
        return Ok(found(
            ReadSource::AcceptMarkdown,
            Body::Markdown(text),
            &page,
            attempts,
            title,
        ));
    }
    attempts.push(attempt("page", url.as_str(), Some(&page), false, None));
    let mut md_why = String::from("the URL already ends in .md");
    if kind == Kind::Html && page.ok() {
        if let Some(md) = md_url(url) {
            if let Some((f, t)) =
                markdown_file("md-url", &md, extra, deadline, &mut attempts).await?
            {
                let title = first_h1(&t);
                return Ok(found(
                    ReadSource::MdUrl,
                    Body::Markdown(t),
                    &f,
                    attempts,
                    title,
                ));
            }
            let why = attempts
                .last()
                .and_then(|a| a.error.clone())
                .unwrap_or_default();
            md_why = format!("{md} {why}");
        }
    } else if kind == Kind::Html {
        md_why = format!("the page answered HTTP {}", page.status);
    }
    if require_markdown {
        return Err(unavailable(format!(
            "no Markdown for {url}: it answered {} to Accept: text/markdown, and {md_why}; \
             drop `requireMarkdown` to read the HTML's main content",
            page.content_type.as_deref().unwrap_or("no content type")
        )));
    }
    note_status(&page);
    note_cut(&page);
    if let Some(last) = attempts.iter_mut().rev().find(|a| a.purpose == "page") {
        last.used = true;
    }
    Ok(match kind {
        Kind::Html => found(
            ReadSource::HtmlFallback,
            Body::Html(text),
            &page,
            attempts,
            None,
        ),
        _ => found(ReadSource::Text, Body::Text(text), &page, attempts, None),
    })
}

/// GETs a Markdown file (an llms file, the `.md` URL) and notes the attempt: its answer and
/// text when it is Markdown or plain text (not an HTML page), else `None`. A timeout ends the
/// read; another failure only this attempt.
async fn markdown_file(
    purpose: &str,
    url: &Url,
    extra: &fetch::Extra,
    deadline: Instant,
    attempts: &mut Vec<ReadAttempt>,
) -> Result<Option<(fetch::Fetched, String)>> {
    match fetch::get(url.as_str(), ACCEPT_MARKDOWN, extra, deadline).await {
        Ok(f) => {
            let text = f
                .text()
                .filter(|t| f.ok() && llms::markdown_like(&f.mime(), t));
            let why = text.is_none().then(|| refusal(&f, "Markdown"));
            attempts.push(attempt(
                purpose,
                url.as_str(),
                Some(&f),
                text.is_some(),
                why,
            ));
            if text.is_some() {
                note_cut(&f);
            }
            Ok(text.map(|t| (f, t)))
        }
        Err(e) if e.code == ErrorCode::Timeout => Err(e),
        Err(e) => {
            attempts.push(ReadAttempt {
                purpose: purpose.into(),
                url: url.to_string(),
                status: None,
                content_type: None,
                used: false,
                error: Some(e.message),
            });
            Ok(None)
        }
    }
}

/// What kind of text an answer is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Markdown,
    Html,
    Text,
}

fn kind_of(mime: &str, text: &str) -> Kind {
    match mime {
        "text/markdown" | "text/x-markdown" => Kind::Markdown,
        "text/html" | "application/xhtml+xml" => Kind::Html,
        "" => {
            let start = text
                .trim_start()
                .get(..15)
                .unwrap_or("")
                .to_ascii_lowercase();
            if start.starts_with("<!doctype") || start.starts_with("<html") {
                Kind::Html
            } else {
                Kind::Text
            }
        }
        _ => Kind::Text,
    }
}

/// The `.md` URL of a page (llms.txt convention): the URL with `.md`, `index.html.md` for a
/// directory; none when it already ends in `.md`.
fn md_url(url: &Url) -> Option<Url> {
    let path = url.path();
    if path.ends_with(".md") {
        return None;
    }
    let mut u = url.clone();
    u.set_fragment(None);
    if path.ends_with('/') {
        u.set_path(&format!("{path}index.html.md"));
    } else {
        u.set_path(&format!("{path}.md"));
    }
    Some(u)
}

/// The active tab's rendered DOM (`raw`: as serialized HTML).
async fn active_tab(raw: bool, cx: &mut Cx<'_>, attempts: Vec<ReadAttempt>) -> Result<Found> {
    let page = cx.page().await?;
    let r = dom::rendered(&page).await?;
    let (body, title) = from_dom(r.clone(), raw);
    Ok(Found {
        url: r.url.clone(),
        final_url: r.url,
        status: None,
        content_type: Some(r.content_type),
        source: if raw {
            ReadSource::ActiveTabHtml
        } else {
            ReadSource::ActiveTab
        },
        title,
        body,
        attempts,
    })
}

/// The body (`raw`: the serialized HTML) and title of a rendered DOM, noting the frames it
/// could not read and a cut.
fn from_dom(r: dom::Rendered, raw: bool) -> (Body, Option<String>) {
    if r.frames_skipped > 0 {
        warnings::note(format!(
            "{} frame(s) of another origin were not read (their documents are not reachable from the page)",
            r.frames_skipped
        ));
    }
    if r.cut {
        warnings::note(format!(
            "the page's DOM was cut at {} characters before extraction",
            dom::MAX_DOM_CHARS
        ));
    }
    let body = match (r.html, r.text) {
        (Some(h), _) if raw => Body::Text(h),
        (Some(h), _) => Body::Html(h),
        (None, Some(t)) if fetch::mime_of(Some(&r.content_type)).contains("markdown") => {
            Body::Markdown(t)
        }
        (None, t) => Body::Text(t.unwrap_or_default()),
    };
    (body, Some(r.title).filter(|t| !t.trim().is_empty()))
}

/// Converts, outlines or filters, and bounds the content (CPU work, off the runtime).
fn finish(p: ReadParams, found: Found) -> Result<ReadOutput> {
    let want_outline = p.outline == Some(true);
    let mut title = found.title;
    let mut headings: Option<Vec<ReadHeading>> = None;
    let mut scripted = None;
    let markdown = match found.body {
        Body::Html(html) => {
            let base = Url::parse(&found.final_url)
                .unwrap_or_else(|_| Url::parse("about:blank").expect("a valid URL"));
            let e = extract::main_content(&html, &base, want_outline);
            let mut md = markdown::from_html(&e.html);
            if let Some(h) = &e.title_heading {
                md = format!("# {}\n\n{md}", h.text);
            }
            title = title.or(e.title);
            headings = e.headings;
            // Only HTML fetched over HTTP: a browser's DOM has had its scripts run.
            if found.source == ReadSource::HtmlFallback {
                scripted = scripted::detect(&html, md.chars().count());
            }
            md
        }
        Body::Markdown(md) | Body::Text(md) => md,
    };
    let mut sections = None;
    let content = if want_outline {
        let list = headings.unwrap_or_else(|| outline::of_markdown(&markdown));
        let text = outline::render(&list);
        headings = Some(list);
        text
    } else if let Some(f) = &p.filter {
        match outline::filter(&markdown, f) {
            Ok((text, n)) => {
                sections = Some(n);
                text
            }
            Err(there) => {
                let count = there.len();
                let shown: Vec<String> = there.into_iter().take(20).collect();
                let hint = scripted
                    .as_ref()
                    .map(|s| format!(" ({})", s.warning()))
                    .unwrap_or_default();
                return Err(unavailable(format!(
                    "{}{hint}",
                    if count == 0 {
                        format!("no heading contains {f:?}: the content has no headings")
                    } else {
                        format!(
                            "no heading contains {f:?}; the headings are: {}{}",
                            shown.join(" | "),
                            if count > 20 {
                                format!(" (and {} more; `outline` lists them)", count - 20)
                            } else {
                                String::new()
                            }
                        )
                    }
                )));
            }
        }
    } else {
        headings = None;
        markdown
    };
    let max = p.max_chars.unwrap_or(READ_MAX_CHARS);
    let (content, truncated, total) = bound(content, max);
    Ok(ReadOutput {
        url: found.url,
        final_url: found.final_url,
        status: found.status,
        content_type: found.content_type,
        source: found.source,
        title,
        truncated,
        total_chars: total,
        content,
        outline: if want_outline { headings } else { None },
        sections,
        attempts: found.attempts,
        warnings: scripted.iter().map(scripted::Scripted::warning).collect(),
    })
}

/// Cuts `s` to `max` characters (0 = no limit), at the last line end in the final fifth of
/// the budget when there is one; returns the text, whether it was cut and the whole length.
fn bound(s: String, max: u64) -> (String, bool, u64) {
    let total = s.chars().count() as u64;
    if max == 0 || total <= max {
        return (s, false, total);
    }
    let end = s
        .char_indices()
        .nth(usize::try_from(max).unwrap_or(usize::MAX))
        .map_or(s.len(), |(i, _)| i);
    let head = &s[..end];
    let floor = head
        .char_indices()
        .nth(usize::try_from(max - max / 5).unwrap_or(0))
        .map_or(0, |(i, _)| i);
    let cut = match head.rfind('\n') {
        Some(nl) if nl >= floor => &head[..nl],
        _ => head,
    };
    (cut.to_string(), true, total)
}

/// The text of the first level-1 heading of Markdown, as a title.
fn first_h1(md: &str) -> Option<String> {
    outline::of_markdown(md)
        .into_iter()
        .find(|h| h.level == 1)
        .map(|h| h.text)
}

fn attempt(
    purpose: &str,
    url: &str,
    f: Option<&fetch::Fetched>,
    used: bool,
    error: Option<String>,
) -> ReadAttempt {
    ReadAttempt {
        purpose: purpose.into(),
        url: url.into(),
        status: f.map(|f| f.status),
        content_type: f.and_then(|f| f.content_type.clone()),
        used,
        error,
    }
}

/// Why an answer is not the Markdown (or llms file) looked for.
fn refusal(f: &fetch::Fetched, what: &str) -> String {
    if !f.ok() {
        format!("answered HTTP {}", f.status)
    } else {
        format!(
            "answered {}, not {what}",
            f.content_type.as_deref().unwrap_or("no content type")
        )
    }
}

fn unavailable(message: String) -> EngineError {
    EngineError::new(ErrorCode::ContentUnavailable, message)
}

fn note_status(f: &fetch::Fetched) {
    if !f.ok() {
        warnings::note(format!("{} answered HTTP {}", f.final_url, f.status));
    }
}

fn note_cut(f: &fetch::Fetched) {
    if f.cut {
        warnings::note(format!(
            "the body of {} was cut at {} MiB",
            f.final_url,
            fetch::MAX_BODY_BYTES / (1024 * 1024)
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bound_cuts_at_a_line_and_counts_characters() {
        let s = "héllo\n".repeat(10);
        let (t, cut, total) = bound(s.clone(), 0);
        assert_eq!((t.len(), cut, total), (s.len(), false, 60));
        let (t, cut, total) = bound(s, 27);
        assert!(cut);
        assert_eq!(total, 60);
        assert_eq!(t, "héllo\n".repeat(4).trim_end());
        let (t, cut, _) = bound("x".repeat(50), 10);
        assert_eq!((t.as_str(), cut), ("xxxxxxxxxx", true));
    }

    #[test]
    fn md_urls() {
        let u = |s: &str| md_url(&Url::parse(s).unwrap()).map(|u| u.to_string());
        assert_eq!(
            u("http://h/docs/guide").as_deref(),
            Some("http://h/docs/guide.md")
        );
        assert_eq!(
            u("http://h/docs/").as_deref(),
            Some("http://h/docs/index.html.md")
        );
        assert_eq!(
            u("http://h/a.html?x=1").as_deref(),
            Some("http://h/a.html.md?x=1")
        );
        assert_eq!(u("http://h/readme.md"), None);
    }
}

/// This module's command handlers under their commands' variant names: `handlers::dispatch` runs
/// them (a handler added here is dispatched with no other line).
pub(crate) mod handles {
    pub(crate) use super::read as Read;
}
