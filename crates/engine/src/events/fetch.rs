//! Request interception of the whole session through the CDP Fetch domain: one set of rules
//! (routes, extra headers, HTTP and proxy credentials) shared by every target of the session
//! (tabs, out-of-process frames, dedicated, shared and service workers). Each target's session
//! is registered by the target hook (`hook.rs`) and gets one handler task that answers its
//! `Fetch.requestPaused` and `Fetch.authRequired` events by consulting the rules in order:
//! routes (newest first), then extra headers; a request nothing matches continues untouched.
//! Every paused request is answered at once from the rules as they are when it pauses, so a
//! route removed while requests are paused never leaves one hanging. Fetch is enabled on a
//! target only while some rule needs it, and for `file:` requests alone (to fail them) while the
//! session does not allow file access (`crate::domains::schemes`).

use std::collections::{BTreeMap, HashMap, VecDeque};
use std::sync::{Arc, Mutex};

use agentbrowser_cdp::{Event, Session};
use agentbrowser_protocol::{AuthFailure, NetworkRouteParams, RouteAction, RouteInfo};
use base64::Engine as _;
use serde_json::{Value, json};
use tokio::sync::oneshot;

/// Authentication challenges remembered (request ids answered once).
const CHALLENGES_KEPT: usize = 1024;
/// Refused authentication challenges kept for `network_routes` and warnings.
const FAILURES_KEPT: usize = 20;

/// One route: its parameters, parsed URL pattern, body and hits.
struct Route {
    params: NetworkRouteParams,
    pattern: agentbrowser_protocol::UrlPattern,
    body: Vec<u8>,
    hits: u64,
}

impl Route {
    fn matches(&self, url: &str, resource_type: &str) -> bool {
        self.pattern.matches(url)
            && self
                .params
                .resource_types
                .as_ref()
                .is_none_or(|types| types.iter().any(|t| t.is(resource_type)))
    }

    fn info(&self) -> RouteInfo {
        let p = &self.params;
        let action = p.action();
        let header_names = match action {
            RouteAction::Continue => p
                .set_headers
                .iter()
                .flatten()
                .map(|(k, _)| k.clone())
                .collect(),
            _ => p.headers.iter().flatten().map(|(k, _)| k.clone()).collect(),
        };
        let fulfill = action == RouteAction::Fulfill;
        RouteInfo {
            url: p.url.clone(),
            action,
            status: fulfill.then(|| p.status.unwrap_or(200)),
            abort: p.abort,
            content_type: p.content_type.clone(),
            body_bytes: fulfill.then_some(self.body.len() as u64),
            header_names,
            removed_header_names: p.remove_headers.clone().unwrap_or_default(),
            resource_types: p.resource_types.clone().unwrap_or_default(),
            hits: self.hits,
            times: p.times,
            remaining: p.times.map(|t| t.saturating_sub(self.hits)),
        }
    }
}

/// The rules and the registered target sessions.
#[derive(Default)]
struct State {
    /// Oldest first; tried newest first.
    routes: Vec<Route>,
    /// Extra request headers by origin (`None`: every request).
    headers: BTreeMap<Option<String>, BTreeMap<String, String>>,
    credentials: Option<(String, String)>,
    proxy: Option<(String, String)>,
    /// Target sessions by session id, with the stop signal of their handler task.
    sessions: HashMap<String, (Session, oneshot::Sender<()>)>,
    /// Request ids whose authentication challenge was answered (each is answered once).
    challenged: VecDeque<String>,
    failures: VecDeque<AuthFailure>,
    /// Refusals not yet told to a command as a warning.
    unreported: Vec<String>,
    /// The session's allowed domains (`None`: every host): requests elsewhere are failed.
    allowed: Option<Arc<agentbrowser_protocol::DomainList>>,
    /// Requests failed as outside the allowed domains and not yet told, with their last hosts.
    blocked: (u64, VecDeque<String>),
    /// Whether the session allows file access; without it every `file:` request (of any
    /// frame, popup, redirect or history entry) is failed (`crate::domains::schemes`).
    local_files: bool,
}

impl State {
    /// The `Fetch.enable` parameters the rules need (`None`: no interception).
    fn enable_params(&self) -> Option<Value> {
        let auth = self.credentials.is_some() || self.proxy.is_some();
        if self.routes.is_empty() && self.headers.is_empty() && !auth && self.allowed.is_none() {
            // Only the requests for local files, to fail them.
            return (!self.local_files).then(
                || json!({"patterns": [{"urlPattern": "file:*", "requestStage": "Request"}]}),
            );
        }
        Some(json!({
            "patterns": [{"urlPattern": "*", "requestStage": "Request"}],
            "handleAuthRequests": auth,
        }))
    }

    /// The extra headers for a request to `url` (session-wide, then its origin's).
    fn extra_headers(&self, url: &str) -> Vec<(String, String)> {
        let mut out: Vec<(String, String)> = Vec::new();
        if let Some(all) = self.headers.get(&None) {
            out.extend(all.iter().map(|(k, v)| (k.clone(), v.clone())));
        }
        if let Some(origin) = origin_of(url)
            && let Some(h) = self.headers.get(&Some(origin))
        {
            out.extend(h.iter().map(|(k, v)| (k.clone(), v.clone())));
        }
        out
    }
}

/// The serialized origin of a URL (`http://host:port`), if it has one.
pub(crate) fn origin_of(url: &str) -> Option<String> {
    let o = url::Url::parse(url).ok()?.origin();
    o.is_tuple().then(|| o.ascii_serialization())
}

/// The session's interception rules, shared by every target (cheap to clone).
#[derive(Clone, Default)]
pub(crate) struct Interception(Arc<Mutex<State>>);

impl std::fmt::Debug for Interception {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Interception")
    }
}

impl Interception {
    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Credentials answered to proxy authentication challenges (set at launch).
    pub(crate) fn set_proxy_credentials(&self, creds: Option<(String, String)>) {
        self.lock().proxy = creds;
    }

    /// Registers a target's session: starts its handler task and enables Fetch on it when the
    /// rules need it (before the target runs, when it is paused on start).
    pub(crate) async fn attach(&self, session: &Session) -> Result<(), String> {
        let Some(sid) = session.id().map(str::to_string) else {
            return Err("the browser session has no requests to intercept".into());
        };
        let (stop_tx, stop_rx) = oneshot::channel();
        let events = session.events();
        let params = {
            let mut s = self.lock();
            s.sessions.insert(sid, (session.clone(), stop_tx));
            s.enable_params()
        };
        tokio::spawn(self.clone().serve(session.clone(), events, stop_rx));
        match params {
            Some(p) => session
                .call("Fetch.enable", p)
                .await
                .map(drop)
                .map_err(|e| format!("Fetch.enable: {e}")),
            None => Ok(()),
        }
    }

    /// Forgets a target's session (it detached): its handler task ends.
    pub(crate) fn forget(&self, sid: &str) {
        self.lock().sessions.remove(sid);
    }

    /// Sends the rules' Fetch setting to every registered target (after a rule changed).
    async fn apply(&self) {
        let (sessions, params) = {
            let s = self.lock();
            let sessions: Vec<Session> = s.sessions.values().map(|(s, _)| s.clone()).collect();
            (sessions, s.enable_params())
        };
        let calls = sessions.iter().map(|s| {
            let params = params.clone();
            async move {
                match params {
                    Some(p) => s.call("Fetch.enable", p).await,
                    None => s.call("Fetch.disable", json!({})).await,
                }
            }
        });
        // A target that went away meanwhile cannot be set up, and needs not be.
        let _ = futures::future::join_all(calls).await;
    }

    /// Answers the Fetch events of one target's session until it is forgotten.
    async fn serve(
        self,
        session: Session,
        mut events: tokio::sync::mpsc::UnboundedReceiver<Event>,
        mut stop: oneshot::Receiver<()>,
    ) {
        loop {
            tokio::select! {
                _ = &mut stop => return,
                ev = events.recv() => match ev {
                    Some(ev) if ev.method == "Fetch.requestPaused" => {
                        let (method, params) = self.decide(&ev.params);
                        let s = session.clone();
                        tokio::spawn(async move {
                            if let Err(e) = s.call(method, params).await {
                                eprintln!("agentbrowser daemon: {method} failed: {e}");
                            }
                        });
                    }
                    Some(ev) if ev.method == "Fetch.authRequired" => {
                        let params = self.challenge(&ev.params);
                        let s = session.clone();
                        tokio::spawn(async move {
                            if let Err(e) = s.call("Fetch.continueWithAuth", params).await {
                                eprintln!("agentbrowser daemon: Fetch.continueWithAuth failed: {e}");
                            }
                        });
                    }
                    Some(_) => {}
                    None => return,
                },
            }
        }
    }

    /// The answer to one paused request.
    fn decide(&self, p: &Value) -> (&'static str, Value) {
        let id = p.get("requestId").cloned().unwrap_or(Value::Null);
        let req = &p["request"];
        let url = req.get("url").and_then(Value::as_str).unwrap_or_default();
        let rtype = p
            .get("resourceType")
            .and_then(Value::as_str)
            .unwrap_or("Other");
        let mut s = self.lock();
        if let Some(answer) = s.block_local(url, &id) {
            return answer;
        }
        if let Some(answer) = s.block(url, &id) {
            return answer;
        }
        let extra = s.extra_headers(url);
        let hit = s.routes.iter().rposition(|r| r.matches(url, rtype));
        let Some(i) = hit else {
            if extra.is_empty() {
                return ("Fetch.continueRequest", json!({"requestId": id}));
            }
            return (
                "Fetch.continueRequest",
                json!({"requestId": id, "headers": merged(&req["headers"], &extra)}),
            );
        };
        let route = &mut s.routes[i];
        route.hits += 1;
        let answer = match route.params.action() {
            RouteAction::Abort => (
                "Fetch.failRequest",
                json!({
                    "requestId": id,
                    "errorReason": route.params.abort.map_or("Failed", |a| a.cdp()),
                }),
            ),
            RouteAction::Continue => {
                let mut all = extra;
                all.extend(
                    route
                        .params
                        .set_headers
                        .iter()
                        .flatten()
                        .map(|(k, v)| (k.clone(), v.clone())),
                );
                let mut headers = merged(&req["headers"], &all);
                if let Some(gone) = &route.params.remove_headers {
                    headers.retain(|h| {
                        let name = h["name"].as_str().unwrap_or_default();
                        !gone.iter().any(|g| g.eq_ignore_ascii_case(name))
                    });
                }
                (
                    "Fetch.continueRequest",
                    json!({"requestId": id, "headers": headers}),
                )
            }
            RouteAction::Fulfill => {
                let mut headers: Vec<Value> = route
                    .params
                    .headers
                    .iter()
                    .flatten()
                    .filter(|(k, _)| {
                        route.params.content_type.is_none()
                            || !k.eq_ignore_ascii_case("content-type")
                    })
                    .map(|(k, v)| json!({"name": k, "value": v}))
                    .collect();
                if let Some(t) = &route.params.content_type {
                    headers.push(json!({"name": "Content-Type", "value": t}));
                }
                (
                    "Fetch.fulfillRequest",
                    json!({
                        "requestId": id,
                        "responseCode": route.params.status.unwrap_or(200),
                        "responseHeaders": headers,
                        "body": base64::engine::general_purpose::STANDARD.encode(&route.body),
                    }),
                )
            }
        };
        if route.params.times.is_some_and(|t| route.hits >= t) {
            s.routes.remove(i);
        }
        answer
    }

    /// The answer to one authentication challenge: the credentials once per request, then a
    /// refusal (which the page sees as the server's 401 or the proxy's 407).
    fn challenge(&self, p: &Value) -> Value {
        let id = p
            .get("requestId")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string();
        let url = p["request"]["url"].as_str().unwrap_or_default().to_string();
        let proxy = p["authChallenge"]["source"].as_str() == Some("Proxy");
        let mut s = self.lock();
        let creds = if proxy {
            s.proxy.clone()
        } else {
            s.credentials.clone()
        };
        let answered = s.challenged.contains(&id);
        let refuse = |s: &mut State, reason: &str| {
            let source = if proxy { "proxy" } else { "server" };
            s.unreported.push(format!(
                "the {source} refused authentication for {url}: {reason}"
            ));
            s.failures.push_back(AuthFailure {
                url: url.clone(),
                source: source.into(),
                reason: reason.into(),
            });
            if s.failures.len() > FAILURES_KEPT {
                s.failures.pop_front();
            }
            json!({"requestId": id, "authChallengeResponse": {"response": "CancelAuth"}})
        };
        match creds {
            Some(_) if answered => refuse(
                &mut s,
                "the credentials given were not accepted (answered once, not retried)",
            ),
            Some((user, pass)) => {
                s.challenged.push_back(id.clone());
                if s.challenged.len() > CHALLENGES_KEPT {
                    s.challenged.pop_front();
                }
                json!({"requestId": id, "authChallengeResponse": {
                    "response": "ProvideCredentials", "username": user, "password": pass}})
            }
            None if proxy => refuse(&mut s, "no proxy credentials were given at launch"),
            None => refuse(
                &mut s,
                "no credentials are set (`set credentials USER PASS`)",
            ),
        }
    }

    /// Refusals since the last call, as warnings for the command that saw them.
    pub(crate) fn take_warnings(&self) -> Vec<String> {
        let mut s = self.lock();
        let mut out = std::mem::take(&mut s.unreported);
        let (n, hosts) = std::mem::take(&mut s.blocked);
        if n > 0 {
            let hosts: Vec<String> = hosts.into_iter().collect();
            out.push(format!(
                "{n} request(s) of the page to hosts outside the allowed domains were blocked (last hosts: {})",
                hosts.join(", ")
            ));
        }
        out
    }

    /// Sets whether the session allows file access (at launch): without it, every request for
    /// a local file is paused and failed.
    pub(crate) fn set_local_files(&self, allowed: bool) {
        self.lock().local_files = allowed;
    }

    /// Sets the session's allowed domains (at launch): with a list, every request is paused
    /// and one to another host is failed.
    pub(crate) fn set_allowed_domains(&self, list: Option<Arc<agentbrowser_protocol::DomainList>>) {
        self.lock().allowed = list;
    }

    /// Adds a route (replacing one with the same glob and resource types); returns it and
    /// whether it replaced one, with the number of routes.
    pub(crate) async fn add_route(
        &self,
        params: NetworkRouteParams,
        pattern: agentbrowser_protocol::UrlPattern,
        body: Vec<u8>,
    ) -> (RouteInfo, bool, u64) {
        let out = {
            let mut s = self.lock();
            let before = s.routes.len();
            s.routes.retain(|r| {
                !(r.params.url == params.url && r.params.resource_types == params.resource_types)
            });
            let replaced = s.routes.len() != before;
            let route = Route {
                params,
                pattern,
                body,
                hits: 0,
            };
            let info = route.info();
            s.routes.push(route);
            (info, replaced, s.routes.len() as u64)
        };
        self.apply().await;
        out
    }

    /// Removes the routes with glob `url` (every route when `None`); returns them and the
    /// number left.
    pub(crate) async fn remove_routes(&self, url: Option<&str>) -> (Vec<RouteInfo>, u64) {
        let out = {
            let mut s = self.lock();
            let (gone, kept): (Vec<Route>, Vec<Route>) = std::mem::take(&mut s.routes)
                .into_iter()
                .partition(|r| url.is_none_or(|u| r.params.url == u));
            s.routes = kept;
            (
                gone.iter().map(Route::info).collect(),
                s.routes.len() as u64,
            )
        };
        self.apply().await;
        out
    }

    /// Routes newest first, header names by scope, whether credentials are set, refusals.
    pub(crate) fn list(
        &self,
    ) -> (
        Vec<RouteInfo>,
        BTreeMap<String, Vec<String>>,
        bool,
        Vec<AuthFailure>,
    ) {
        let s = self.lock();
        let routes = s.routes.iter().rev().map(Route::info).collect();
        let headers = s
            .headers
            .iter()
            .map(|(o, h)| {
                (
                    o.clone().unwrap_or_else(|| "*".into()),
                    h.keys().cloned().collect(),
                )
            })
            .collect();
        (
            routes,
            headers,
            s.credentials.is_some(),
            s.failures.iter().cloned().collect(),
        )
    }

    /// Sets (or with an empty map clears) the extra headers of a scope; returns their names.
    pub(crate) async fn set_headers(
        &self,
        origin: Option<String>,
        headers: BTreeMap<String, String>,
    ) -> Vec<String> {
        let names = headers.keys().cloned().collect();
        {
            let mut s = self.lock();
            if headers.is_empty() {
                s.headers.remove(&origin);
            } else {
                s.headers.insert(origin, headers);
            }
        }
        self.apply().await;
        names
    }

    /// Sets (or clears) the HTTP credentials.
    pub(crate) async fn set_credentials(&self, creds: Option<(String, String)>) {
        self.lock().credentials = creds;
        self.apply().await;
    }
}

/// Most hosts of blocked requests named in a warning.
const BLOCKED_HOSTS_KEPT: usize = 5;

impl State {
    /// The failure of a request for a local file when the session does not allow them (told
    /// to the next command as a warning naming the URL).
    fn block_local(&mut self, url: &str, id: &Value) -> Option<(&'static str, Value)> {
        if self.local_files {
            return None;
        }
        let reach = crate::domains::schemes::local_reach(url)?;
        self.unreported.push(format!(
            "the page's request for `{}` was refused: it {}; {}",
            agentbrowser_protocol::bounded(url.to_string(), 200),
            reach.describe(),
            crate::domains::schemes::ALLOW_HINT
        ));
        Some((
            "Fetch.failRequest",
            json!({"requestId": id, "errorReason": "AccessDenied"}),
        ))
    }

    /// The failure of a request to `url` outside the allowed domains (counted), if it is one.
    fn block(&mut self, url: &str, id: &Value) -> Option<(&'static str, Value)> {
        let list = self.allowed.as_ref()?;
        if list.allows_url(url) {
            return None;
        }
        let host = url::Url::parse(url)
            .ok()
            .and_then(|u| u.host_str().map(str::to_string))
            .unwrap_or_else(|| agentbrowser_protocol::bounded(url.to_string(), 80));
        let (n, hosts) = &mut self.blocked;
        *n += 1;
        if !hosts.contains(&host) {
            hosts.push_back(host);
            if hosts.len() > BLOCKED_HOSTS_KEPT {
                hosts.pop_front();
            }
        }
        Some((
            "Fetch.failRequest",
            json!({"requestId": id, "errorReason": "BlockedByClient"}),
        ))
    }
}

/// The request's headers with `extra` set (replacing headers of the same name, in any case),
/// as CDP's `HeaderEntry` list.
fn merged(original: &Value, extra: &[(String, String)]) -> Vec<Value> {
    let mut out: Vec<(String, String)> = original
        .as_object()
        .map(|o| {
            o.iter()
                .map(|(k, v)| (k.clone(), v.as_str().unwrap_or_default().to_string()))
                .collect()
        })
        .unwrap_or_default();
    for (k, v) in extra {
        out.retain(|(n, _)| !n.eq_ignore_ascii_case(k));
        out.push((k.clone(), v.clone()));
    }
    out.into_iter()
        .map(|(name, value)| json!({"name": name, "value": value}))
        .collect()
}
