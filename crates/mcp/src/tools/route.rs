//! Playwright MCP's network tools in its shapes: `browser_route` (headers as `Name: Value` lines;
//! with neither `status` nor `body` the request goes on to the network with `headers` set and
//! `removeHeaders` taken out, as Playwright's does; with one of them it is answered), and
//! `browser_network_state_set` (every tab online or offline).

use std::collections::BTreeMap;

use agentbrowser_protocol::present::Present;
use agentbrowser_protocol::*;
use schemars::JsonSchema;
use serde::Deserialize;

use super::Ctx;
use crate::answer::{Answer, ToolError};

/// Headers as Playwright MCP gives them (`["Name: Value", ...]`) or as our older schema did (an
/// object of name to value).
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum HeaderList {
    /// `Name: Value` lines.
    Lines(Vec<String>),
    /// Name to value.
    Map(BTreeMap<String, String>),
}

impl HeaderList {
    /// The headers by name; a line without `Name:` is the tool's `invalid_argument`.
    fn into_map(self) -> Result<BTreeMap<String, String>, ToolError> {
        match self {
            HeaderList::Map(m) => Ok(m),
            HeaderList::Lines(lines) => lines
                .into_iter()
                .map(|line| match line.split_once(':') {
                    Some((name, value)) if !name.trim().is_empty() => {
                        Ok((name.trim().to_string(), value.trim().to_string()))
                    }
                    _ => Err(ToolError::invalid(format!(
                        "invalid argument `headers`: {line:?} is not \"Name: Value\""
                    ))),
                })
                .collect(),
        }
    }
}

/// Arguments of `browser_route`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct RouteArgs {
    /// URL pattern to match: a glob over the whole URL when it has `*` or `{` (`**/api/users`, `**/*.{png,jpg}`: `*` within a path segment, `**` across them), the whole URL when it has a scheme, otherwise a part of the URL.
    pub pattern: String,
    /// HTTP status code of the answer (default 200). With `status` or `body` the request is answered without the network.
    pub status: Option<u16>,
    /// Response body (text or JSON string).
    pub body: Option<String>,
    /// Content-Type of the answer (needs `status` or `body`).
    pub content_type: Option<String>,
    /// Headers in "Name: Value" format: added to the request when it goes on to the network (neither `status` nor `body`), else headers of the answer.
    pub headers: Option<HeaderList>,
    /// Comma-separated names of request headers to remove from requests that go on to the network.
    pub remove_headers: Option<String>,
    /// Fail the matching requests with this network error instead (`failed`, `aborted`, `timedout`, `accessdenied`, `connectionrefused`, ...).
    pub abort: Option<AbortReason>,
    /// Remove the route after this many matched requests (default: never).
    pub times: Option<u64>,
}

pub(super) async fn route(cx: Ctx, a: RouteArgs) -> Result<Answer, ToolError> {
    let headers = a.headers.map(HeaderList::into_map).transpose()?;
    let remove_headers = a.remove_headers.map(|list| {
        list.split(',')
            .map(str::trim)
            .filter(|n| !n.is_empty())
            .map(String::from)
            .collect::<Vec<_>>()
    });
    // Playwright's route answers the request when given a status or a body, and otherwise sends
    // it on with its headers changed; an abort fails it.
    let answered = a.status.is_some() || a.body.is_some() || a.abort.is_some();
    let mut p = NetworkRouteParams {
        url: a.pattern,
        abort: a.abort,
        status: a.status,
        body: a.body,
        content_type: a.content_type,
        times: a.times,
        ..Default::default()
    };
    if answered {
        p.headers = headers;
        p.remove_headers = remove_headers;
    } else {
        p.continue_request = Some(true);
        p.set_headers = headers;
        p.remove_headers = remove_headers;
    }
    let out: RouteAdded = cx.get(Command::NetworkRoute(p)).await?;
    let mut answer = Answer::new();
    answer.add("Route", out.text());
    Ok(answer)
}

/// The network state `browser_network_state_set` sets.
#[derive(Debug, Clone, Copy, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum NetworkState {
    /// Every request fails, as without a network.
    Offline,
    /// The network is back.
    Online,
}

/// Arguments of `browser_network_state_set`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct NetworkStateArgs {
    /// "offline" to simulate offline mode, "online" to restore network connectivity.
    pub state: NetworkState,
}

pub(super) async fn network_state_set(cx: Ctx, a: NetworkStateArgs) -> Result<Answer, ToolError> {
    let offline = matches!(a.state, NetworkState::Offline);
    let out: SettingsOutput = cx
        .get(Command::SetOffline(SetOfflineParams { offline }))
        .await?;
    let state = if offline { "offline" } else { "online" };
    let tabs = out.applied_tabs.unwrap_or(0);
    let mut answer = Answer::new();
    answer.add(
        "Result",
        format!(
            "Network is now {state} (applied to {tabs} open tab(s) and every tab opened later)"
        ),
    );
    Ok(answer)
}
