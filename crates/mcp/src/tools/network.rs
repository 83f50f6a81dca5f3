//! The request log as Playwright MCP reads it: `browser_network_requests` numbers each request
//! by its place in the tab's log (1-based) and filters URLs by a regular expression (or by our
//! URL pattern), and `browser_network_request` takes that number (`index`) or our request id,
//! and answers the whole request or one `part` of it, or writes it to `filename`.

use agentbrowser_protocol::present::Present;
use agentbrowser_protocol::*;
use schemars::JsonSchema;
use serde::Deserialize;

use super::Ctx;
use super::hand::save;
use crate::answer::{Answer, ToolError};

/// Arguments of `browser_network_requests`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct NetworkRequestsArgs {
    /// Also list successful static resources: images, fonts, stylesheets, scripts, media (default false; `includeStatic` is our older name).
    #[serde(rename = "static", alias = "includeStatic")]
    pub include_static: Option<bool>,
    /// Only requests whose URL matches this regular expression (searched anywhere in the URL, as JavaScript's `RegExp.test`: `/api/.*user`), or our URL pattern (a glob over the whole URL when it has `*` or `{`, the whole URL when it has a scheme, otherwise a part of the URL): a URL matching either is listed.
    pub filter: Option<String>,
    /// Empty the log after reading (default false; the numbers start again at 1).
    pub clear: Option<bool>,
    /// Write the list to this file instead of answering it: a relative path, under the server's working directory.
    pub filename: Option<String>,
}

/// Resource types `browser_network_requests` leaves out unless `static` (when they succeeded).
const STATIC_TYPES: &[&str] = &["image", "font", "stylesheet", "script", "media"];

/// The tab's request log, each request with its number (1-based, in the order it started).
async fn numbered(
    cx: &Ctx,
    clear: Option<bool>,
) -> Result<Vec<(usize, NetworkRequestEntry)>, ToolError> {
    let out: NetworkRequestsOutput = cx
        .get(Command::NetworkRequests(NetworkRequestsParams {
            clear,
            limit: Some(MAX_REQUESTS_LIMIT),
            ..Default::default()
        }))
        .await?;
    // Past the limit only the newest are answered: their numbers count the older ones too.
    let first = out.matched.saturating_sub(out.requests.len() as u64) as usize + 1;
    Ok((first..).zip(out.requests).collect())
}

/// Whether a URL passes `filter`: its regular expression or its URL pattern.
struct UrlFilter(Option<regex::Regex>, Option<UrlPattern>);

impl UrlFilter {
    fn new(filter: &str) -> Result<UrlFilter, ToolError> {
        let regex = regex::Regex::new(filter).ok();
        let pattern = UrlPattern::parse(filter).ok();
        if regex.is_none() && pattern.is_none() {
            return Err(ToolError::invalid(format!(
                "invalid argument `filter`: `{filter}` is neither a regular expression nor a URL pattern"
            )));
        }
        Ok(UrlFilter(regex, pattern))
    }

    fn matches(&self, url: &str) -> bool {
        self.0.as_ref().is_some_and(|r| r.is_match(url))
            || self.1.as_ref().is_some_and(|p| p.matches(url))
    }
}

pub(super) async fn network_requests(cx: Ctx, a: NetworkRequestsArgs) -> Result<Answer, ToolError> {
    let filter = a.filter.as_deref().map(UrlFilter::new).transpose()?;
    let requests = numbered(&cx, a.clear).await?;
    let total = requests.len();
    let mut hidden = 0;
    let mut lines = Vec::new();
    for (n, r) in requests {
        let quiet =
            STATIC_TYPES.contains(&r.resource_type.as_str()) && r.status.is_some_and(|s| s < 400);
        if quiet && !a.include_static.unwrap_or(false) {
            hidden += 1;
        } else if filter.as_ref().is_none_or(|f| f.matches(&r.url)) {
            lines.push(format!("{n}. {}", r.line()));
        }
    }
    if lines.is_empty() {
        lines.push(format!("no request of the {total} logged is listed"));
    }
    if hidden > 0 {
        lines.push(format!(
            "({hidden} successful static resources not listed; pass `static: true`)"
        ));
    }
    if a.clear == Some(true) {
        lines.push("(log cleared)".into());
    }
    let text = lines.join("\n");
    let mut answer = Answer::new();
    match a.filename.as_deref() {
        Some(name) => {
            answer.add("Network requests", save(name, &text, "the requests")?);
        }
        None => {
            answer.add_cuttable(
                "Network requests",
                text,
                "read fewer: pass `filter` (a regular expression), or `clear` after reading",
            );
        }
    }
    Ok(answer)
}

/// One part of a request.
#[derive(Debug, Clone, Copy, PartialEq, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum RequestPart {
    /// The request headers as sent.
    RequestHeaders,
    /// The request body (post data).
    RequestBody,
    /// The response headers.
    ResponseHeaders,
    /// The response body (binary as base64).
    ResponseBody,
}

/// Arguments of `browser_network_request`: the request by its number (`index`) or its id.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct NetworkRequestArgs {
    /// 1-based index of the request, as printed by browser_network_requests.
    #[schemars(range(min = 1))]
    pub index: Option<u64>,
    /// Or the request's id (`r12`, as our CLI and SDK list it; `requestId` is our older name).
    #[serde(alias = "requestId")]
    pub id: Option<String>,
    /// Return only this part of the request. Omit to return full details.
    pub part: Option<RequestPart>,
    /// Most body bytes answered (default 65536, at most 262144).
    #[schemars(range(min = 1, max = 262144))]
    pub max_bytes: Option<u64>,
    /// Write the result to this file instead of answering it: a relative path, under the server's working directory.
    pub filename: Option<String>,
}

/// Default and largest `maxBytes` of `browser_network_request`.
const BODY_BYTES: (u64, u64) = (64 * 1024, 256 * 1024);

pub(super) async fn network_request(cx: Ctx, a: NetworkRequestArgs) -> Result<Answer, ToolError> {
    let max_bytes = a.max_bytes.unwrap_or(BODY_BYTES.0);
    if !(1..=BODY_BYTES.1).contains(&max_bytes) {
        return Err(ToolError::invalid(format!(
            "invalid argument `maxBytes`: {max_bytes}; use 1 to {}",
            BODY_BYTES.1
        )));
    }
    let request_id = match (a.index, a.id) {
        (Some(_), Some(_)) => {
            return Err(ToolError::invalid(
                "`index` and `id` exclude each other: give one",
            ));
        }
        (None, None) => {
            return Err(ToolError::invalid(
                "give `index` (the number browser_network_requests prints) or `id`",
            ));
        }
        (None, Some(id)) => id,
        (Some(index), None) => {
            let requests = numbered(&cx, None).await?;
            let found = requests.into_iter().find(|(n, _)| *n as u64 == index);
            match found {
                Some((_, r)) => r.id,
                None => {
                    return Err(ToolError::new(
                        "not_found",
                        format!(
                            "Request #{index} not found. Use browser_network_requests to see available indexes."
                        ),
                    ));
                }
            }
        }
    };
    let out: RequestDetailOutput = cx
        .get(Command::NetworkRequest(NetworkRequestParams {
            request_id,
            max_bytes: Some(max_bytes),
        }))
        .await?;
    let (title, text) = match a.part {
        None => ("Request", out.text()),
        Some(part) => part_of(&out, part),
    };
    let mut answer = Answer::new();
    match a.filename.as_deref() {
        Some(name) => {
            answer.add(title, save(name, &text, "it")?);
        }
        None => {
            answer.add_cuttable(title, text, "pass a smaller `maxBytes`, or `filename`");
        }
    }
    Ok(answer)
}

/// The section title and text of one part of a request.
fn part_of(out: &RequestDetailOutput, part: RequestPart) -> (&'static str, String) {
    let headers = |h: &std::collections::BTreeMap<String, String>| {
        let lines: Vec<String> = h.iter().map(|(k, v)| format!("{k}: {v}")).collect();
        lines.join("\n")
    };
    match part {
        RequestPart::RequestHeaders => ("Request headers", headers(&out.request_headers)),
        RequestPart::ResponseHeaders => ("Response headers", headers(&out.response_headers)),
        RequestPart::RequestBody => {
            let body = out
                .post_data
                .clone()
                .unwrap_or_else(|| "(no request body)".into());
            ("Request body", body)
        }
        RequestPart::ResponseBody => {
            let text = match &out.body {
                Some(b) => {
                    let mut text = b.text.clone();
                    if b.encoding == "base64" {
                        text = format!("(binary, base64)\n{text}");
                    }
                    if b.truncated {
                        text.push_str(&format!(
                            "\n(cut: {} of {} bytes; raise `maxBytes`)",
                            b.text.len(),
                            b.size
                        ));
                    }
                    text
                }
                None => format!(
                    "(no response body: {})",
                    out.body_unavailable.as_deref().unwrap_or("none was sent")
                ),
            };
            ("Response body", text)
        }
    }
}
