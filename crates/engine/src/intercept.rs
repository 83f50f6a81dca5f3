//! `network_route`, `network_unroute`, `network_routes`, `set_headers` and `set_credentials`:
//! they change the session's interception rules (`crate::events::fetch`), which every target
//! of the session consults — also tabs, frames and workers that start later.

use agentbrowser_protocol::*;

use crate::cx::Cx;
use crate::error::{EngineError, Result};

/// `network_route`: add (or replace) a route.
pub(crate) async fn route(p: NetworkRouteParams, cx: &mut Cx<'_>) -> Result<RouteAdded> {
    let pattern = UrlPattern::parse(&p.url)
        .map_err(|e| EngineError::invalid(format!("invalid parameter `url`: {e}")))?;
    let body = match (&p.body, &p.body_file) {
        (Some(b), _) => b.clone().into_bytes(),
        (None, Some(f)) => std::fs::read(f).map_err(|e| {
            EngineError::invalid(format!(
                "invalid parameter `bodyFile`: cannot read {f:?}: {e}"
            ))
        })?,
        (None, None) => Vec::new(),
    };
    let (route, replaced, routes) = cx.engine.hooks.intercept.add_route(p, pattern, body).await;
    Ok(RouteAdded {
        route,
        replaced,
        routes,
    })
}

/// `network_unroute`: remove the routes of a glob, or every route.
pub(crate) async fn unroute(p: NetworkUnrouteParams, cx: &mut Cx<'_>) -> Result<RoutesRemoved> {
    let (removed, remaining) = cx
        .engine
        .hooks
        .intercept
        .remove_routes(p.url.as_deref())
        .await;
    Ok(RoutesRemoved { removed, remaining })
}

/// `network_routes`: the rules in force.
pub(crate) async fn routes(_p: NoParams, cx: &mut Cx<'_>) -> Result<RouteList> {
    let (routes, headers, credentials, auth_failures) = cx.engine.hooks.intercept.list();
    Ok(RouteList {
        routes,
        headers,
        credentials,
        auth_failures,
    })
}

/// `set_headers`: extra request headers for every request, or for one origin's.
pub(crate) async fn set_headers(p: SetHeadersParams, cx: &mut Cx<'_>) -> Result<HeadersSet> {
    let origin = match &p.origin {
        Some(o) => Some(crate::events::fetch::origin_of(o).ok_or_else(|| {
            EngineError::invalid(format!(
                "invalid parameter `origin`: {o:?} is not an origin (http:// or https://, a host and an optional port)"
            ))
        })?),
        None => None,
    };
    let names = cx
        .engine
        .hooks
        .intercept
        .set_headers(origin.clone(), p.headers)
        .await;
    Ok(HeadersSet { origin, names })
}

/// `set_credentials`: HTTP credentials answered to authentication challenges, or none.
pub(crate) async fn set_credentials(
    p: SetCredentialsParams,
    cx: &mut Cx<'_>,
) -> Result<CredentialsSet> {
    let creds = match (p.clear, p.username, p.password) {
        (Some(true), _, _) => None,
        (_, Some(u), Some(pw)) => Some((u, pw)),
        _ => {
            return Err(EngineError::invalid(
                "invalid parameter `username`: give a username and a password, or `clear`",
            ));
        }
    };
    let username = creds.as_ref().map(|(u, _)| u.clone());
    cx.engine.hooks.intercept.set_credentials(creds).await;
    Ok(CredentialsSet {
        set: username.is_some(),
        username,
    })
}

/// This module's command handlers under their commands' variant names: `handlers::dispatch` runs
/// them (a handler added here is dispatched with no other line).
pub(crate) mod handles {
    pub(crate) use super::{
        route as NetworkRoute, routes as NetworkRoutes, set_credentials as SetCredentials,
        set_headers as SetHeaders, unroute as NetworkUnroute,
    };
}
