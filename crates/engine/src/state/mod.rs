//! Cookies, web storage and state files. Cookies are the session's browser context's
//! (`Storage.getCookies` / `setCookies` / `clearCookies`; URL filters through the active tab's
//! `Network.getCookies`). Storage is the active tab's origin (`localStorage` /
//! `sessionStorage`, in the scoped frame). State files (`file`) hold cookies and the
//! localStorage of every origin the session visited (tracked from the browser's target events),
//! read and written through a hidden scratch tab whose requests are answered by the engine with
//! an empty page (`scratch`), so no request reaches a server.

mod cookie_files;
mod files;
mod indexed_db;
mod login;
pub(crate) mod restore;
mod scratch;
pub mod store;
mod vault;

use std::collections::BTreeSet;
use std::sync::{Arc, Mutex};

use agentbrowser_protocol::{
    CookieInfo, CookieInput, CookieName, CookiesClearParams, CookiesCleared, CookiesGetParams,
    CookiesOutput, CookiesSetOutput, CookiesSetParams, ErrorCode, STORAGE_MAX_ITEMS, StorageArea,
    StorageChanged, StorageClearParams, StorageEntry, StorageGetParams, StorageOutput,
    StorageRemoveParams, StorageSetParams,
};
use serde::Deserialize;
use serde_json::{Value, json};

use crate::browser::Browser;
use crate::cx::Cx;
use crate::error::{EngineError, Result};
use crate::world::{self, FrameTarget};

#[allow(unused_imports)]
pub(crate) use files::{load_state, save_state};
pub(crate) use files::{
    state_clean, state_clear, state_list, state_load, state_rename, state_save, state_show,
};
pub(crate) use login::auth_login;
pub(crate) use vault::{auth_delete, auth_list, auth_save, auth_show};

/// Most origins a session remembers.
const MAX_ORIGINS: usize = 1000;

/// The http(s) origins the session's tabs have shown.
pub type Origins = Arc<Mutex<BTreeSet<String>>>;

/// The origin of `url` when it is http(s).
pub(crate) fn origin_of(url: &str) -> Option<String> {
    let u = url::Url::parse(url).ok()?;
    if !matches!(u.scheme(), "http" | "https") {
        return None;
    }
    Some(u.origin().ascii_serialization())
}

/// Records `url`'s origin in `origins`.
pub(crate) fn remember(origins: &Origins, url: &str) {
    if let Some(o) = origin_of(url) {
        let mut set = origins.lock().unwrap_or_else(|e| e.into_inner());
        if set.len() < MAX_ORIGINS {
            set.insert(o);
        }
    }
}

/// The session's origins' part of a browser it starts: the origins its tabs show are
/// followed ([`track_origins`]).
pub(crate) fn on_launch<'a>(
    browser: &'a mut Browser,
    engine: &'a crate::session::Engine,
    _launch: Option<&'a agentbrowser_protocol::LaunchParams>,
) -> futures::future::BoxFuture<'a, Result<()>> {
    Box::pin(track_origins(browser, engine.part::<Origins>().clone()))
}

/// Follows the browser's page targets and records the origins they show.
pub(crate) async fn track_origins(browser: &Browser, origins: Origins) -> Result<()> {
    let mut events = browser.cdp.events();
    browser
        .cdp
        .call("Target.setDiscoverTargets", json!({"discover": true}))
        .await?;
    tokio::spawn(async move {
        while let Some(ev) = events.recv().await {
            if matches!(
                ev.method.as_str(),
                "Target.targetCreated" | "Target.targetInfoChanged"
            ) && ev
                .params
                .pointer("/targetInfo/type")
                .and_then(Value::as_str)
                == Some("page")
                && let Some(url) = ev.params.pointer("/targetInfo/url").and_then(Value::as_str)
            {
                remember(&origins, url);
            }
        }
    });
    Ok(())
}

/// A cookie as CDP reports it.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct CdpCookie {
    name: String,
    value: String,
    domain: String,
    path: String,
    expires: f64,
    http_only: bool,
    secure: bool,
    #[serde(default)]
    session: bool,
    same_site: Option<agentbrowser_protocol::SameSite>,
}

impl From<CdpCookie> for CookieInfo {
    fn from(c: CdpCookie) -> CookieInfo {
        CookieInfo {
            name: c.name,
            value: c.value,
            domain: c.domain,
            path: c.path,
            expires: if c.session { -1.0 } else { c.expires },
            http_only: c.http_only,
            secure: c.secure,
            same_site: c.same_site,
        }
    }
}

/// Decodes a `{cookies: [...]}` answer.
fn decode_cookies(v: Value) -> Result<Vec<CookieInfo>> {
    #[derive(Deserialize)]
    struct Answer {
        cookies: Vec<CdpCookie>,
    }
    let a: Answer = serde_json::from_value(v)
        .map_err(|e| EngineError::internal(format!("Chromium's cookie list is malformed: {e}")))?;
    Ok(a.cookies.into_iter().map(CookieInfo::from).collect())
}

/// Every cookie of the session's browser context.
pub(crate) async fn all_cookies(browser: &Browser) -> Result<Vec<CookieInfo>> {
    decode_cookies(browser.cdp.call("Storage.getCookies", json!({})).await?)
}

/// `cookies_get`: every cookie, or those sent to `urls`.
pub(crate) async fn cookies_get(p: CookiesGetParams, cx: &mut Cx<'_>) -> Result<CookiesOutput> {
    let cookies = match &p.urls {
        Some(urls) if !urls.is_empty() => {
            let page = cx.active_page().await?;
            decode_cookies(
                page.session
                    .call("Network.getCookies", json!({"urls": urls}))
                    .await?,
            )?
        }
        _ => all_cookies(cx.browser().await?).await?,
    };
    Ok(CookiesOutput {
        cookies,
        values_shown: p.show_values.unwrap_or(false),
    })
}

/// A cookie to set as CDP's `CookieParam`.
pub(crate) fn cookie_param(c: &CookieInput) -> Result<Value> {
    if c.name.is_empty() {
        return Err(EngineError::invalid(
            "invalid cookie: empty name; a cookie needs a name",
        ));
    }
    let mut v = json!({"name": c.name, "value": c.value});
    match (&c.url, &c.domain) {
        (Some(u), _) => {
            if origin_of(u).is_none() {
                return Err(EngineError::invalid(format!(
                    "invalid cookie {:?}: url {u:?} is not an http:// or https:// URL",
                    c.name
                )));
            }
            v["url"] = json!(u);
        }
        (None, Some(d)) if !d.trim().is_empty() => v["domain"] = json!(d),
        _ => {
            return Err(EngineError::invalid(format!(
                "invalid cookie {:?}: it has no `url` or `domain`; say which site it belongs to (--url or --domain)",
                c.name
            )));
        }
    }
    v["path"] = json!(c.path.clone().unwrap_or_else(|| "/".into()));
    if let Some(e) = c.expires
        && e >= 0.0
    {
        v["expires"] = json!(e);
    }
    if let Some(h) = c.http_only {
        v["httpOnly"] = json!(h);
    }
    if let Some(s) = c.secure {
        v["secure"] = json!(s);
    }
    if let Some(s) = c.same_site {
        v["sameSite"] = json!(s.as_str());
    }
    Ok(v)
}

/// The host a cookie to set belongs to (its domain without a leading dot, or its URL's host).
fn host_of(c: &CookieInput) -> String {
    match (&c.url, &c.domain) {
        (Some(u), _) => url::Url::parse(u)
            .ok()
            .and_then(|u| u.host_str().map(str::to_string))
            .unwrap_or_default(),
        (None, Some(d)) => d.trim_start_matches('.').to_string(),
        _ => String::new(),
    }
}

/// Sets `cookies` and reads them back: a cookie the browser refused is an error naming it.
pub(crate) async fn set_cookies(
    browser: &Browser,
    cookies: &[CookieInput],
) -> Result<Vec<CookieName>> {
    let params = cookies
        .iter()
        .map(cookie_param)
        .collect::<Result<Vec<_>>>()?;
    browser
        .cdp
        .call("Storage.setCookies", json!({"cookies": params}))
        .await
        .map_err(|e| EngineError::invalid(format!("the browser refused the cookies: {e}")))?;
    let now = all_cookies(browser).await?;
    let mut set = vec![];
    for c in cookies {
        let host = host_of(c);
        let found = now.iter().find(|k| {
            k.name == c.name && k.value == c.value && k.domain.trim_start_matches('.') == host
        });
        match found {
            Some(k) => set.push(CookieName {
                name: k.name.clone(),
                domain: k.domain.clone(),
                path: k.path.clone(),
            }),
            None => {
                return Err(EngineError::new(
                    ErrorCode::InvalidArgument,
                    format!(
                        "the browser did not keep cookie {:?} for {host}: a Secure cookie needs an https URL (or localhost), SameSite=None needs Secure, and an expiry in the past removes it",
                        c.name
                    ),
                ));
            }
        }
    }
    Ok(set)
}

/// `cookies_set`: one cookie, a list, or a file's.
pub(crate) async fn cookies_set(p: CookiesSetParams, cx: &mut Cx<'_>) -> Result<CookiesSetOutput> {
    let cookies = if let Some(list) = p.cookies {
        list
    } else if let Some(file) = &p.file {
        let parsed = cookie_files::parse_file(file, p.url.as_deref(), p.domain.as_deref())?;
        for c in &parsed {
            crate::domains::commands::check_cookie(cx.engine.part::<crate::domains::Guard>(), c)?;
        }
        parsed
    } else {
        vec![CookieInput {
            name: p.name.unwrap_or_default(),
            value: p.value.unwrap_or_default(),
            url: p.url,
            domain: p.domain,
            path: p.path,
            expires: p.expires.map(|e| e as f64),
            http_only: p.http_only,
            secure: p.secure,
            same_site: p.same_site,
        }]
    };
    let browser = cx.browser().await?;
    let set = set_cookies(browser, &cookies).await?;
    Ok(CookiesSetOutput { set })
}

/// Whether a cookie's domain is `domain` or one of its subdomains.
fn in_domain(cookie_domain: &str, domain: &str) -> bool {
    let c = cookie_domain.trim_start_matches('.');
    let d = domain.trim_start_matches('.');
    c == d || c.ends_with(&format!(".{d}"))
}

/// `cookies_clear`: every cookie, or those of a URL or a domain.
pub(crate) async fn cookies_clear(
    p: CookiesClearParams,
    cx: &mut Cx<'_>,
) -> Result<CookiesCleared> {
    let before = all_cookies(cx.browser().await?).await?;
    if p.url.is_none() && p.domain.is_none() && p.name.is_none() {
        cx.browser()
            .await?
            .cdp
            .call("Storage.clearCookies", json!({}))
            .await?;
        let after = all_cookies(cx.browser().await?).await?;
        return Ok(CookiesCleared {
            removed: (before.len() - after.len().min(before.len())) as u64,
        });
    }
    let page = cx.active_page().await?;
    let doomed = match (&p.url, &p.domain) {
        (Some(u), _) => decode_cookies(
            page.session
                .call("Network.getCookies", json!({"urls": [u]}))
                .await?,
        )?,
        (None, Some(d)) => before
            .iter()
            .filter(|c| in_domain(&c.domain, d))
            .cloned()
            .collect(),
        _ => before.clone(),
    };
    let doomed = doomed
        .into_iter()
        .filter(|c| p.name.as_ref().is_none_or(|n| &c.name == n));
    for c in doomed {
        page.session
            .call(
                "Network.deleteCookies",
                json!({"name": c.name, "domain": c.domain, "path": c.path}),
            )
            .await?;
    }
    let after = all_cookies(cx.browser().await?).await?;
    Ok(CookiesCleared {
        removed: (before.len() - after.len().min(before.len())) as u64,
    })
}

/// What the storage script answers.
#[derive(Deserialize)]
struct StorageAnswer {
    opaque: bool,
    origin: String,
    url: String,
    length: u64,
    entries: Vec<(String, String)>,
    value: Option<String>,
}

/// Runs `op` on the scoped frame's storage `area`: `get` (with `key` or every entry up to
/// `max`), `set`, `remove` or `clear`.
async fn storage_op(
    cx: &mut Cx<'_>,
    area: StorageArea,
    op: &str,
    key: Option<&str>,
    value: Option<&str>,
    max: u64,
) -> Result<StorageAnswer> {
    let page = cx.page().await?;
    let frame = FrameTarget::scoped(&page);
    let js = format!(
        r#"(() => {{
  const origin = location.origin, url = location.href;
  if (origin === 'null' || !/^https?:$/.test(location.protocol))
    return {{ opaque: true, origin, url, length: 0, entries: [], value: null }};
  const s = window[{area}], op = {op}, key = {key}, value = {value}, max = {max};
  let got = null;
  if (op === 'set') s.setItem(key, value);
  else if (op === 'remove') s.removeItem(key);
  else if (op === 'clear') s.clear();
  else if (key !== null) got = s.getItem(key);
  const entries = [];
  if (op === 'get' && key === null)
    for (let i = 0; i < s.length && (max === 0 || entries.length < max); i++) {{
      const k = s.key(i); entries.push([k, s.getItem(k)]);
    }}
  return {{ opaque: false, origin, url, length: s.length, entries, value: got }};
}})()"#,
        area = json!(area.js()),
        op = json!(op),
        key = json!(key),
        value = json!(value),
    );
    let v = world::evaluate_value(&page, &frame, &js).await?;
    let a: StorageAnswer = serde_json::from_value(v).map_err(|e| {
        EngineError::internal(format!("the page's storage answer is malformed: {e}"))
    })?;
    if a.opaque {
        return Err(EngineError::new(
            ErrorCode::InvalidArgument,
            format!(
                "the active page {} has an opaque origin (about:blank, data:, file:), which has no web storage; open an http(s) page first",
                agentbrowser_protocol::bounded(a.url.clone(), 200)
            ),
        )
        .with_data(json!({"url": a.url, "origin": a.origin})));
    }
    Ok(a)
}

/// `storage_get`: one key's value, or every entry (bounded).
pub(crate) async fn storage_get(p: StorageGetParams, cx: &mut Cx<'_>) -> Result<StorageOutput> {
    let max = p.max_items.unwrap_or(STORAGE_MAX_ITEMS);
    let a = storage_op(cx, p.area, "get", p.key.as_deref(), None, max).await?;
    let truncated = p.key.is_none() && (a.entries.len() as u64) < a.length;
    if truncated {
        crate::warnings::note(format!(
            "{} holds {} entries; the first {} are returned (maxItems)",
            p.area.js(),
            a.length,
            a.entries.len()
        ));
    }
    Ok(StorageOutput {
        origin: a.origin,
        area: p.area,
        key: p.key,
        value: a.value,
        entries: a
            .entries
            .into_iter()
            .map(|(name, value)| StorageEntry { name, value })
            .collect(),
        length: a.length,
        truncated,
        values_shown: p.show_values.unwrap_or(false),
    })
}

/// `storage_set`.
pub(crate) async fn storage_set(p: StorageSetParams, cx: &mut Cx<'_>) -> Result<StorageChanged> {
    let a = storage_op(cx, p.area, "set", Some(&p.key), Some(&p.value), 0).await?;
    Ok(StorageChanged {
        origin: a.origin,
        area: p.area,
        length: a.length,
    })
}

/// `storage_remove`.
pub(crate) async fn storage_remove(
    p: StorageRemoveParams,
    cx: &mut Cx<'_>,
) -> Result<StorageChanged> {
    let a = storage_op(cx, p.area, "remove", Some(&p.key), None, 0).await?;
    Ok(StorageChanged {
        origin: a.origin,
        area: p.area,
        length: a.length,
    })
}

/// `storage_clear`.
pub(crate) async fn storage_clear(
    p: StorageClearParams,
    cx: &mut Cx<'_>,
) -> Result<StorageChanged> {
    let a = storage_op(cx, p.area, "clear", None, None, 0).await?;
    Ok(StorageChanged {
        origin: a.origin,
        area: p.area,
        length: a.length,
    })
}

/// This module's command handlers under their commands' variant names: `handlers::dispatch` runs
/// them (a handler added here is dispatched with no other line).
pub(crate) mod handles {
    pub(crate) use super::{
        auth_delete as AuthDelete, auth_list as AuthList, auth_login as AuthLogin,
        auth_save as AuthSave, auth_show as AuthShow, cookies_clear as CookiesClear,
        cookies_get as CookiesGet, cookies_set as CookiesSet, state_clean as StateClean,
        state_clear as StateClear, state_list as StateList, state_load as StateLoad,
        state_rename as StateRename, state_save as StateSave, state_show as StateShow,
        storage_clear as StorageClear, storage_get as StorageGet, storage_remove as StorageRemove,
        storage_set as StorageSet,
    };
}
