//! Emulation and scripts. The session's emulation (viewport, device, media, user agent, time
//! zone, locale, geolocation, permissions, offline) and its init scripts are session state held
//! here: a `set_*` applies its setting to every attached tab at once, and `install` gives the
//! whole state to every page the browser attaches later (a new tab, a popup, a tab recreated
//! after a hang) before it is used, so no tab misses it. Permissions belong to the browser and
//! are given again to a browser launched after one went away (`install_browser`).

use std::sync::{Arc, Mutex};

use agentbrowser_cdp::Session;
use agentbrowser_protocol::*;
use serde_json::{Value, json};

use crate::browser::Browser;
use crate::cx::Cx;
use crate::error::{EngineError, Result};
use crate::page::Page;

/// The session's emulation and init scripts, shared by the engine and its browser.
#[derive(Debug, Default)]
pub struct State {
    /// What every tab is given.
    pub emulation: Emulation,
    /// The init scripts and their sources, in the order they were added.
    scripts: Vec<(InitScript, String)>,
    /// The number of the next init script id.
    next_script: u64,
    /// The browser's own `Accept-Language` (its `navigator.languages`), read before the first
    /// locale override: what resetting the locale gives back.
    browser_languages: Option<String>,
}

/// The state as the engine and its browser share it.
pub type Shared = Arc<Mutex<State>>;

fn lock(s: &Shared) -> std::sync::MutexGuard<'_, State> {
    s.lock().unwrap_or_else(|e| e.into_inner())
}

/// The parts of the emulation a `set_*` changes (each one set of CDP calls).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Part {
    Viewport,
    UserAgent,
    Media,
    Timezone,
    Locale,
    Geolocation,
    Offline,
}

const PARTS: &[Part] = &[
    Part::Viewport,
    Part::UserAgent,
    Part::Media,
    Part::Timezone,
    Part::Locale,
    Part::Geolocation,
    Part::Offline,
];

/// Whether `part` of `e` is the browser's own (nothing to send to a fresh page).
fn is_default(e: &Emulation, part: Part) -> bool {
    match part {
        Part::Viewport => e.viewport.is_none() && !e.touch,
        Part::UserAgent => e.user_agent.is_none() && e.locale.is_none(),
        Part::Media => {
            e.color_scheme.is_none()
                && e.reduced_motion.is_none()
                && e.media.is_none()
                && e.features.is_empty()
        }
        Part::Timezone => e.timezone.is_none(),
        Part::Locale => e.locale.is_none(),
        Part::Geolocation => e.geolocation.is_none(),
        Part::Offline => !e.offline && e.throttle.is_none(),
    }
}

/// The CDP calls that give a page `part` of `e` (or reset it when it is the default).
/// `ua` is the browser's own user agent and languages (an override needs a user agent when only
/// the locale is set, and resetting the locale gives the languages back).
fn calls(e: &Emulation, part: Part, ua: &Own) -> Vec<(&'static str, Value)> {
    match part {
        Part::Viewport => {
            let metrics = match &e.viewport {
                Some(v) => (
                    "Emulation.setDeviceMetricsOverride",
                    json!({"width": v.width, "height": v.height,
                           "deviceScaleFactor": v.device_scale_factor, "mobile": v.mobile}),
                ),
                None => ("Emulation.clearDeviceMetricsOverride", json!({})),
            };
            let touch = if e.touch {
                json!({"enabled": true, "maxTouchPoints": 5})
            } else {
                json!({"enabled": false})
            };
            vec![metrics, ("Emulation.setTouchEmulationEnabled", touch)]
        }
        Part::UserAgent => vec![user_agent_call(e, ua)],
        Part::Locale => {
            // A second override on the same page is refused: clear it first.
            let mut out = vec![("Emulation.setLocaleOverride", json!({}))];
            if let Some(l) = &e.locale {
                out.push(("Emulation.setLocaleOverride", json!({"locale": l})));
            }
            out.push(user_agent_call(e, ua));
            out
        }
        Part::Media => {
            let mut features = Vec::new();
            if let Some(c) = e.color_scheme {
                features.push(json!({"name": "prefers-color-scheme", "value": c.as_str()}));
            }
            if let Some(r) = e.reduced_motion {
                features.push(json!({"name": "prefers-reduced-motion", "value": r.as_str()}));
            }
            for f in &e.features {
                features.push(json!({"name": f.name, "value": f.value}));
            }
            vec![(
                "Emulation.setEmulatedMedia",
                json!({"media": e.media.map_or("", MediaType::as_str), "features": features}),
            )]
        }
        Part::Timezone => vec![(
            "Emulation.setTimezoneOverride",
            json!({"timezoneId": e.timezone.clone().unwrap_or_default()}),
        )],
        Part::Geolocation => vec![match &e.geolocation {
            Some(g) => (
                "Emulation.setGeolocationOverride",
                json!({"latitude": g.latitude, "longitude": g.longitude, "accuracy": g.accuracy}),
            ),
            None => ("Emulation.clearGeolocationOverride", json!({})),
        }],
        Part::Offline => vec![network_conditions(e)],
    }
}

/// The network conditions of `e`: offline and throttling, one state sent in one call
/// (`set_offline` and `set_throttle` each keep the other's part). Rates go from kilobits to
/// bytes per second; -1 is unlimited.
fn network_conditions(e: &Emulation) -> (&'static str, Value) {
    let rate = |kbps: Option<u64>| kbps.map_or(-1.0, |k| k as f64 * 1000.0 / 8.0);
    let t = e.throttle.as_ref();
    (
        "Network.emulateNetworkConditions",
        json!({"offline": e.offline,
               "latency": t.map_or(0, |t| t.latency_ms),
               "downloadThroughput": rate(t.and_then(|t| t.download_kbps)),
               "uploadThroughput": rate(t.and_then(|t| t.upload_kbps))}),
    )
}

/// The user agent override: the user agent (the browser's own when none is set) and the
/// locale's `Accept-Language` and `navigator.language`.
fn user_agent_call(e: &Emulation, own: &Own) -> (&'static str, Value) {
    (
        "Emulation.setUserAgentOverride",
        json!({"userAgent": e.user_agent.as_deref().unwrap_or(&own.user_agent),
               "acceptLanguage": e.locale.clone().or_else(|| own.languages.clone()).unwrap_or_default()}),
    )
}

/// The browser's own user agent and languages: what an override falls back to.
pub(crate) struct Own {
    user_agent: String,
    languages: Option<String>,
}

async fn send(page: &Page, calls: Vec<(&'static str, Value)>) -> Result<()> {
    for (method, params) in calls {
        page.session.call(method, params).await?;
    }
    Ok(())
}

/// The session's whole emulation and its init scripts as the CDP calls that give them to a
/// page — also one that does not run yet (a popup paused at birth gets them before it is
/// resumed, so its first document sees them).
#[derive(Debug, Default)]
pub(crate) struct Setup {
    /// Emulation calls, in order.
    calls: Vec<(&'static str, Value)>,
    /// Init scripts: `(id, source)`, in the order they were added.
    scripts: Vec<(String, String)>,
}

impl Setup {
    /// The setup of a page of the session whose emulation and scripts are `shared`;
    /// `browser_ua` is the browser's own user agent.
    pub(crate) fn of(shared: &Shared, browser_ua: &str) -> Setup {
        let s = lock(shared);
        let own = Own {
            user_agent: browser_ua.to_string(),
            languages: s.browser_languages.clone(),
        };
        let calls = PARTS
            .iter()
            .filter(|&&part| !is_default(&s.emulation, part))
            .flat_map(|&part| calls(&s.emulation, part, &own))
            .collect();
        let scripts = s
            .scripts
            .iter()
            .map(|(script, source)| (script.id.clone(), source.clone()))
            .collect();
        Setup { calls, scripts }
    }

    /// Sends every call on `session` at once, in order (CDP applies a session's commands in
    /// order, so all of them apply before any command sent after them, such as a resume);
    /// returns each init script's `(id, CDP identifier)` for [`Setup::record`].
    pub(crate) async fn send(&self, session: &Session) -> Result<Vec<(String, String)>> {
        let emulation = futures::future::join_all(
            self.calls
                .iter()
                .map(|(method, params)| session.call(method, params.clone())),
        );
        let scripts = futures::future::join_all(self.scripts.iter().map(|(_, source)| {
            session.call(
                "Page.addScriptToEvaluateOnNewDocument",
                json!({"source": source}),
            )
        }));
        let (emulation, scripts) = tokio::join!(emulation, scripts);
        for r in emulation {
            r?;
        }
        let mut ids = Vec::new();
        for ((id, _), r) in self.scripts.iter().zip(scripts) {
            ids.push((id.clone(), identifier_of(&r?)?));
        }
        Ok(ids)
    }

    /// Remembers on `page` the CDP identifiers of its init scripts (from [`Setup::send`]).
    pub(crate) fn record(page: &Page, ids: Vec<(String, String)>) {
        record_in(page.init_scripts(), ids);
    }
}

/// Remembers CDP identifiers of init scripts in a page's `scripts`.
fn record_in(scripts: &InitScripts, ids: Vec<(String, String)>) {
    scripts
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .extend(ids);
}

/// The session's init scripts added to a page: CDP identifier by init script id.
#[derive(Debug, Default)]
pub(crate) struct InitScripts(Mutex<std::collections::HashMap<String, String>>);

impl std::ops::Deref for InitScripts {
    type Target = Mutex<std::collections::HashMap<String, String>>;

    fn deref(&self) -> &Self::Target {
        &self.0
    }
}

impl Page {
    /// The session's init scripts added to this page: CDP identifier by init script id.
    pub(crate) fn init_scripts(&self) -> &InitScripts {
        self.part()
    }
}

/// Emulation's share of every page: the session's whole emulation and its init scripts, sent
/// in the setup batch of a page attached paused (a popup: before it resumes, so its first
/// document sees them) and right after the attach of any other.
#[derive(Debug)]
pub(crate) struct EmulationShare(pub(crate) Shared);

impl crate::share::PageShare for EmulationShare {
    fn attach(
        &self,
        _page: &crate::share::Attaching<'_>,
        parts: &mut crate::parts::Parts,
        _listeners: &mut Vec<Box<dyn crate::events::Listener>>,
    ) {
        parts.insert(InitScripts::default());
    }

    fn setup<'a>(
        &'a self,
        page: &'a crate::share::Attaching<'a>,
        parts: &'a crate::parts::Parts,
    ) -> Option<futures::future::BoxFuture<'a, Result<()>>> {
        page.paused.then(|| {
            Box::pin(async move {
                let ids = Setup::of(&self.0, page.user_agent)
                    .send(page.session)
                    .await?;
                record_in(parts.get::<InitScripts>(), ids);
                Ok(())
            }) as futures::future::BoxFuture<'a, Result<()>>
        })
    }

    fn attached<'a>(
        &'a self,
        page: &'a Page,
        paused: bool,
        user_agent: &'a str,
    ) -> Option<futures::future::BoxFuture<'a, Result<()>>> {
        (!paused).then(|| {
            Box::pin(install(page, &self.0, user_agent))
                as futures::future::BoxFuture<'a, Result<()>>
        })
    }
}

/// Emulation's part of a browser the session starts: the emulation a `launch` asks for becomes
/// the session's, and the browser gets the session's permissions.
pub(crate) fn on_launch<'a>(
    browser: &'a mut Browser,
    engine: &'a crate::session::Engine,
    launch: Option<&'a LaunchParams>,
) -> futures::future::BoxFuture<'a, Result<()>> {
    Box::pin(async move {
        let shared = engine.part::<Shared>();
        if let Some(p) = launch {
            take_launch(shared, p);
        }
        install_browser(browser, shared).await
    })
}

/// The identifier `Page.addScriptToEvaluateOnNewDocument` answered.
fn identifier_of(r: &Value) -> Result<String> {
    r.get("identifier")
        .and_then(Value::as_str)
        .map(str::to_string)
        .ok_or_else(|| EngineError::internal("addScriptToEvaluateOnNewDocument gave no identifier"))
}

/// Gives a newly attached page the session's whole emulation and its init scripts.
pub(crate) async fn install(page: &Page, shared: &Shared, browser_ua: &str) -> Result<()> {
    let ids = Setup::of(shared, browser_ua).send(&page.session).await?;
    Setup::record(page, ids);
    Ok(())
}

/// Gives a browser the session's permissions (they belong to the browser, not to a page).
pub(crate) async fn install_browser(browser: &Browser, shared: &Shared) -> Result<()> {
    let emulation = lock(shared).emulation.clone();
    if emulation.permissions.is_some() || emulation.geolocation.is_some() {
        grant(browser, &emulation).await?;
    }
    Ok(())
}

/// Resets the browser's permissions, then grants what `e` asks for: its grant, and geolocation
/// for every origin while a position is emulated.
async fn grant(browser: &Browser, e: &Emulation) -> Result<()> {
    browser
        .cdp
        .call("Browser.resetPermissions", json!({}))
        .await?;
    let types = |names: &[String]| -> Vec<&'static str> {
        let mut t: Vec<&'static str> = names.iter().filter_map(|n| permission_type(n)).collect();
        t.sort_unstable();
        t.dedup();
        t
    };
    let mut geo_done = false;
    if let Some(g) = &e.permissions {
        let mut names = g.permissions.clone();
        if e.geolocation.is_some() && g.origin.is_none() {
            names.push("geolocation".into());
            geo_done = true;
        }
        let mut params = json!({"permissions": types(&names)});
        if let Some(o) = &g.origin {
            params["origin"] = json!(o);
        }
        browser.cdp.call("Browser.grantPermissions", params).await?;
    }
    if e.geolocation.is_some() && !geo_done {
        browser
            .cdp
            .call(
                "Browser.grantPermissions",
                json!({"permissions": ["geolocation"]}),
            )
            .await?;
    }
    Ok(())
}

/// Adds one init script to a page and remembers its CDP identifier under `id`.
async fn add_to_page(page: &Page, id: &str, source: &str) -> Result<()> {
    let r = page
        .session
        .call(
            "Page.addScriptToEvaluateOnNewDocument",
            json!({"source": source}),
        )
        .await?;
    Setup::record(page, vec![(id.to_string(), identifier_of(&r)?)]);
    Ok(())
}

/// The pages a change applies to now: every attached tab that is alive.
async fn live_pages(cx: &mut Cx<'_>) -> Result<Vec<Page>> {
    let browser = cx.browser().await?;
    // The active tab is attached first, so a bad value is refused by a real page.
    let _ = browser.active_page().await;
    Ok(browser
        .attached_pages()
        .into_iter()
        .filter(|p| p.ensure_alive().is_ok())
        .collect())
}

/// Applies `part` of `next` to every live page (the first one checks the value: a refusal there
/// changes nothing), then keeps `next` as the session's emulation.
async fn change(cx: &mut Cx<'_>, part: Part, next: Emulation) -> Result<SettingsOutput> {
    let pages = live_pages(cx).await?;
    let unread = {
        let s = lock(cx.engine.part::<Shared>());
        s.browser_languages.is_none() && s.emulation.locale.is_none()
    };
    if part == Part::Locale
        && unread
        && let Some(page) = pages.first()
    {
        let langs = page.read_js("navigator.languages.join(',')").await?;
        lock(cx.engine.part::<Shared>()).browser_languages = langs.as_str().map(str::to_string);
    }
    if part == Part::Timezone
        && let (Some(page), Some(tz)) = (pages.first(), &next.timezone)
    {
        let check = format!(
            "(() => {{ try {{ new Intl.DateTimeFormat('en', {{timeZone: {}}}); return true; }} catch (e) {{ return false; }} }})()",
            json!(tz)
        );
        if page.read_js(&check).await? != json!(true) {
            return Err(EngineError::invalid(format!(
                "invalid parameter `timezone`: the browser does not know the time zone {tz:?}; give an IANA id such as `Europe/Berlin`, `America/New_York` or `UTC`"
            )));
        }
    }
    let ua = Own {
        user_agent: cx.browser().await?.user_agent.clone(),
        languages: lock(cx.engine.part::<Shared>()).browser_languages.clone(),
    };
    // Clearing a viewport override hands the page back its window's size through a resize the
    // browser delivers later; the answer waits for it (bounded), so the next read sees it.
    let cleared = match (
        &lock(cx.engine.part::<Shared>()).emulation.viewport,
        &next.viewport,
    ) {
        (Some(old), None) if part == Part::Viewport => Some((old.width, old.height)),
        _ => None,
    };
    let mut applied = 0;
    for (i, page) in pages.iter().enumerate() {
        match send(page, calls(&next, part, &ua)).await {
            Ok(()) => applied += 1,
            Err(e) if i == 0 => return Err(refusal(part, &next, e)),
            Err(e) if page.ensure_alive().is_err() => drop(e),
            Err(e) => return Err(e),
        }
    }
    if let Some((w, h)) = cleared {
        // Every tab at once, the whole wait bounded: a page that is gone, hidden or paused by a
        // dialog leaves the answer as it is (the override is cleared either way).
        let script = resized_js(w, h);
        let waits = futures::future::join_all(pages.iter().map(|p| p.await_js(&script)));
        let _ = tokio::time::timeout(RESIZE_WAIT, waits).await;
    }
    lock(cx.engine.part::<Shared>()).emulation = next;
    Ok(settings_of(cx.engine.part::<Shared>(), Some(applied)))
}

/// The longest a viewport reset waits for the tabs to show their window's size again.
const RESIZE_WAIT: std::time::Duration = std::time::Duration::from_millis(1500);

/// A promise that settles once the page's viewport is no longer `w`x`h` (the override just
/// cleared), or after 1 s (the window may be that size; a hidden tab's timers run once a second).
fn resized_js(w: u32, h: u32) -> String {
    format!(
        "new Promise(done => {{ const end = performance.now() + 1000; \
         const tick = () => (innerWidth !== {w} || innerHeight !== {h} || performance.now() > end) \
         ? done(true) : setTimeout(tick, 10); tick(); }})"
    )
}

/// The error for a value the browser refused.
fn refusal(part: Part, next: &Emulation, e: EngineError) -> EngineError {
    if e.code != ErrorCode::Internal {
        return e;
    }
    match part {
        Part::Timezone => EngineError::invalid(format!(
            "invalid parameter `timezone`: the browser does not know the time zone {:?}; give an IANA id such as `Europe/Berlin`, `America/New_York` or `UTC` ({})",
            next.timezone.as_deref().unwrap_or(""),
            e.message
        )),
        Part::Locale => EngineError::invalid(format!(
            "invalid parameter `locale`: the browser refused the locale {:?} ({})",
            next.locale.as_deref().unwrap_or(""),
            e.message
        )),
        _ => e,
    }
}

fn settings_of(shared: &Shared, applied_tabs: Option<usize>) -> SettingsOutput {
    let s = lock(shared);
    SettingsOutput {
        emulation: s.emulation.clone(),
        init_scripts: s.scripts.iter().map(|(i, _)| i.clone()).collect(),
        applied_tabs,
    }
}

fn current(cx: &Cx<'_>) -> Emulation {
    lock(cx.engine.part::<Shared>()).emulation.clone()
}

/// `set_viewport`: emulate a viewport in every tab, or reset it.
pub(crate) async fn set_viewport(p: SetViewportParams, cx: &mut Cx<'_>) -> Result<SettingsOutput> {
    let mut next = current(cx);
    next.viewport = match (p.width, p.height) {
        (Some(width), Some(height)) => Some(Viewport {
            width,
            height,
            device_scale_factor: p.device_scale_factor.unwrap_or(1.0),
            mobile: p.mobile,
        }),
        _ => None,
    };
    next.device = None;
    change(cx, Part::Viewport, next).await
}

/// `set_device`: emulate a device of the table in every tab, or reset what a device set.
pub(crate) async fn set_device(p: SetDeviceParams, cx: &mut Cx<'_>) -> Result<SettingsOutput> {
    let mut next = current(cx);
    match &p.name {
        Some(name) => {
            let d = device(name).map_err(EngineError::invalid)?;
            next.viewport = Some(Viewport {
                width: d.width,
                height: d.height,
                device_scale_factor: d.device_scale_factor,
                mobile: d.mobile,
            });
            next.touch = d.touch;
            next.user_agent = d.user_agent.clone();
            next.device = Some(d.name);
        }
        None => {
            next.viewport = None;
            next.touch = false;
            if next.device.take().is_some() {
                next.user_agent = None;
            }
        }
    }
    let out = change(cx, Part::Viewport, next.clone()).await?;
    change(cx, Part::UserAgent, next).await.map(|mut o| {
        o.applied_tabs = out.applied_tabs;
        o
    })
}

/// `devices`: the device table.
pub(crate) async fn devices_list(_p: NoParams, _cx: &mut Cx<'_>) -> Result<DevicesOutput> {
    Ok(DevicesOutput { devices: devices() })
}

/// `set_media`: emulate CSS media features in every tab, or reset them.
pub(crate) async fn set_media(p: SetMediaParams, cx: &mut Cx<'_>) -> Result<SettingsOutput> {
    let mut next = current(cx);
    if p.color_scheme.is_none()
        && p.reduced_motion.is_none()
        && p.media.is_none()
        && p.features.is_none()
    {
        next.color_scheme = None;
        next.reduced_motion = None;
        next.media = None;
        next.features.clear();
    } else {
        next.color_scheme = p.color_scheme.or(next.color_scheme);
        next.reduced_motion = p.reduced_motion.or(next.reduced_motion);
        next.media = p.media.or(next.media);
        // Merged by name: a feature given again takes its new value, an empty value drops it.
        for f in p.features.unwrap_or_default() {
            next.features.retain(|k| k.name != f.name);
            if !f.value.is_empty() {
                next.features.push(f);
            }
        }
    }
    change(cx, Part::Media, next).await
}

/// `set_user_agent`: override the user agent of every tab, or reset it.
pub(crate) async fn set_user_agent(
    p: SetUserAgentParams,
    cx: &mut Cx<'_>,
) -> Result<SettingsOutput> {
    let mut next = current(cx);
    next.user_agent = p.user_agent;
    change(cx, Part::UserAgent, next).await
}

/// `set_timezone`: override the time zone of every tab, or reset it.
pub(crate) async fn set_timezone(p: SetTimezoneParams, cx: &mut Cx<'_>) -> Result<SettingsOutput> {
    let mut next = current(cx);
    next.timezone = p.timezone.map(|t| t.trim().to_string());
    change(cx, Part::Timezone, next).await
}

/// `set_locale`: override the locale of every tab, or reset it.
pub(crate) async fn set_locale(p: SetLocaleParams, cx: &mut Cx<'_>) -> Result<SettingsOutput> {
    let mut next = current(cx);
    next.locale = p.locale;
    change(cx, Part::Locale, next).await
}

/// `set_geolocation`: emulate a position (granting the permission), or reset both.
pub(crate) async fn set_geolocation(
    p: SetGeolocationParams,
    cx: &mut Cx<'_>,
) -> Result<SettingsOutput> {
    let mut next = current(cx);
    next.geolocation = match (p.latitude, p.longitude) {
        (Some(latitude), Some(longitude)) => Some(Geolocation {
            latitude,
            longitude,
            accuracy: p.accuracy.unwrap_or(1.0),
        }),
        _ => None,
    };
    grant(cx.browser().await?, &next).await?;
    change(cx, Part::Geolocation, next).await
}

/// `set_permissions`: grant permissions (for every origin or one), or reset them.
pub(crate) async fn set_permissions(
    p: SetPermissionsParams,
    cx: &mut Cx<'_>,
) -> Result<SettingsOutput> {
    let mut next = current(cx);
    next.permissions = (!p.clear).then_some(PermissionGrant {
        permissions: p.permissions,
        origin: p.origin,
    });
    let browser = cx.browser().await?;
    grant(browser, &next).await?;
    let tabs = browser.attached_pages().len();
    lock(cx.engine.part::<Shared>()).emulation = next;
    Ok(settings_of(cx.engine.part::<Shared>(), Some(tabs)))
}

/// `set_offline`: take every tab offline, or back online.
pub(crate) async fn set_offline(p: SetOfflineParams, cx: &mut Cx<'_>) -> Result<SettingsOutput> {
    // Chromium emulates network conditions only where the `Network` domain is on (the log's).
    cx.engine.hooks.require_request_log("`set offline`")?;
    let mut next = current(cx);
    next.offline = p.offline;
    change(cx, Part::Offline, next).await
}

/// `set_throttle`: throttle every tab's network (latency, rates), keeping `set_offline`'s state;
/// `off` stops it.
pub(crate) async fn set_throttle(p: SetThrottleParams, cx: &mut Cx<'_>) -> Result<SettingsOutput> {
    cx.engine.hooks.require_request_log("`set throttle`")?;
    let mut next = current(cx);
    next.throttle = p.throttle();
    change(cx, Part::Offline, next).await
}

/// `settings`: the session's emulation and init scripts.
pub(crate) async fn settings(_p: NoParams, cx: &mut Cx<'_>) -> Result<SettingsOutput> {
    Ok(settings_of(cx.engine.part::<Shared>(), None))
}

/// The first line of a script, cut at 80 characters.
fn preview(source: &str) -> String {
    let line = source.trim().lines().next().unwrap_or("");
    let mut out: String = line.chars().take(80).collect();
    if line.chars().count() > 80 || source.trim().lines().nth(1).is_some() {
        out.push('…');
    }
    out
}

/// `add_init_script`: a script every new document of every tab runs before its own scripts.
pub(crate) async fn add_init_script(
    p: AddInitScriptParams,
    cx: &mut Cx<'_>,
) -> Result<InitScriptAdded> {
    let source = match (&p.script, &p.path) {
        (Some(s), _) => s.clone(),
        (None, Some(path)) => read_script(path)?,
        (None, None) => return Err(EngineError::invalid("give `script` or `path`")),
    };
    let pages = live_pages(cx).await?;
    let id = {
        let mut s = lock(cx.engine.part::<Shared>());
        s.next_script += 1;
        format!("init-script-{}", s.next_script)
    };
    let mut applied = 0;
    for page in &pages {
        match add_to_page(page, &id, &source).await {
            Ok(()) => applied += 1,
            Err(e) if page.ensure_alive().is_err() => drop(e),
            Err(e) => {
                remove_from(&pages, &id).await;
                return Err(e);
            }
        }
    }
    let info = InitScript {
        id: id.clone(),
        bytes: source.len(),
        path: p.path,
        preview: preview(&source),
    };
    lock(cx.engine.part::<Shared>())
        .scripts
        .push((info, source.clone()));
    Ok(InitScriptAdded {
        id,
        bytes: source.len(),
        applied_tabs: applied,
    })
}

/// Reads an init script file: UTF-8, at most `MAX_SCRIPT_BYTES`.
fn read_script(path: &str) -> Result<String> {
    let meta = std::fs::metadata(path).map_err(|e| {
        EngineError::invalid(format!("invalid parameter `path`: cannot read {path}: {e}"))
    })?;
    if !meta.is_file() {
        return Err(EngineError::invalid(format!(
            "invalid parameter `path`: {path} is not a file"
        )));
    }
    if meta.len() > MAX_SCRIPT_BYTES as u64 {
        return Err(EngineError::invalid(format!(
            "invalid parameter `path`: {path} is {} bytes, over the limit of {MAX_SCRIPT_BYTES}",
            meta.len()
        )));
    }
    let bytes = std::fs::read(path).map_err(|e| {
        EngineError::invalid(format!("invalid parameter `path`: cannot read {path}: {e}"))
    })?;
    String::from_utf8(bytes).map_err(|_| {
        EngineError::invalid(format!(
            "invalid parameter `path`: {path} is not UTF-8 text"
        ))
    })
}

async fn remove_from(pages: &[Page], id: &str) {
    for page in pages {
        let identifier = page
            .init_scripts()
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(id);
        if let Some(identifier) = identifier {
            let _ = page
                .session
                .call(
                    "Page.removeScriptToEvaluateOnNewDocument",
                    json!({"identifier": identifier}),
                )
                .await;
        }
    }
}

/// `remove_init_script`: remove an init script by id.
pub(crate) async fn remove_init_script(
    p: RemoveInitScriptParams,
    cx: &mut Cx<'_>,
) -> Result<InitScriptRemoved> {
    let known: Vec<String> = lock(cx.engine.part::<Shared>())
        .scripts
        .iter()
        .map(|(i, _)| i.id.clone())
        .collect();
    if !known.contains(&p.identifier) {
        return Err(EngineError::new(
            ErrorCode::NotFound,
            format!(
                "no init script `{}`; known: {}",
                p.identifier,
                if known.is_empty() {
                    "none".to_string()
                } else {
                    known.join(", ")
                }
            ),
        )
        .with_data(json!({"known": known})));
    }
    if let Some(browser) = cx.engine.browser.as_ref().filter(|b| !b.is_closed()) {
        let pages: Vec<Page> = browser
            .attached_pages()
            .into_iter()
            .filter(|p| p.ensure_alive().is_ok())
            .collect();
        for page in &pages {
            let identifier = page
                .init_scripts()
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .remove(&p.identifier);
            if let Some(identifier) = identifier {
                page.session
                    .call(
                        "Page.removeScriptToEvaluateOnNewDocument",
                        json!({"identifier": identifier}),
                    )
                    .await?;
            }
        }
    }
    let mut s = lock(cx.engine.part::<Shared>());
    s.scripts.retain(|(i, _)| i.id != p.identifier);
    Ok(InitScriptRemoved {
        removed: p.identifier,
        remaining: s.scripts.iter().map(|(i, _)| i.id.clone()).collect(),
    })
}

/// Adds a `<script>` or a style to the document now and waits until it ran, loaded or failed.
const INJECT_JS: &str = include_str!("js/inject.js");

async fn inject(
    cx: &mut Cx<'_>,
    kind: &str,
    source: Option<String>,
    url: Option<String>,
) -> Result<Injected> {
    let page = cx.page().await?;
    let expression = format!(
        "({INJECT_JS})({}, {}, {})",
        json!(kind),
        json!(source),
        json!(url)
    );
    let r: agentbrowser_cdp::types::EvaluateResult = page
        .session
        .call_as(
            "Runtime.evaluate",
            json!({"expression": expression, "returnByValue": true, "awaitPromise": true}),
        )
        .await?;
    if let Some(exc) = r.exception_details {
        return Err(EngineError::new(ErrorCode::JsError, exc.message()));
    }
    let answer = crate::page::remote_value(r.result);
    let value = crate::answer::decode(answer)?.map_err(|f| {
        let code = match f.code.as_str() {
            "load_failed" => ErrorCode::NavigationFailed,
            "js_error" => ErrorCode::JsError,
            _ => ErrorCode::ActionFailed,
        };
        EngineError::new(code, f.message.clone())
            .with_data(json!({"page": {"code": f.code, "detail": f.detail}}))
    })?;
    let loaded = value.get("url").and_then(Value::as_str).map(str::to_string);
    Ok(Injected {
        kind: kind.to_string(),
        tab: page.tab_id.clone(),
        bytes: source.as_ref().map(String::len),
        url: loaded,
    })
}

/// `add_script`: run a script in the active page now (inline, or from a URL).
pub(crate) async fn add_script(p: AddScriptParams, cx: &mut Cx<'_>) -> Result<Injected> {
    inject(cx, "script", p.script, p.url).await
}

/// `add_style`: add CSS to the active page now (inline, or a style sheet from a URL).
pub(crate) async fn add_style(p: AddStyleParams, cx: &mut Cx<'_>) -> Result<Injected> {
    inject(cx, "style", p.content, p.url).await
}

impl State {
    /// The state a session starts with: the launch options' emulation.
    pub(crate) fn from_launch(o: &crate::launch::LaunchOptions) -> State {
        let mut s = State::default();
        s.apply_launch(o.user_agent.clone(), o.color_scheme, o.viewport);
        s
    }

    /// Takes the emulation a launch asks for (user agent, color scheme, viewport).
    pub(crate) fn apply_launch(
        &mut self,
        user_agent: Option<String>,
        color_scheme: Option<ColorScheme>,
        viewport: Option<(u32, u32)>,
    ) {
        if user_agent.is_some() {
            self.emulation.user_agent = user_agent;
        }
        if color_scheme.is_some() {
            self.emulation.color_scheme = color_scheme;
        }
        if let Some((width, height)) = viewport {
            self.emulation.viewport = Some(Viewport {
                width,
                height,
                device_scale_factor: 1.0,
                mobile: false,
            });
        }
    }
}

/// Applies launch parameters' emulation to the session state.
pub(crate) fn take_launch(shared: &Shared, p: &LaunchParams) {
    lock(shared).apply_launch(
        p.user_agent.clone(),
        p.color_scheme,
        p.viewport_width.zip(p.viewport_height),
    );
}

/// This module's command handlers under their commands' variant names: `handlers::dispatch` runs
/// them (a handler added here is dispatched with no other line).
pub(crate) mod handles {
    pub(crate) use super::{
        add_init_script as AddInitScript, add_script as AddScript, add_style as AddStyle,
        devices_list as Devices, remove_init_script as RemoveInitScript, set_device as SetDevice,
        set_geolocation as SetGeolocation, set_locale as SetLocale, set_media as SetMedia,
        set_offline as SetOffline, set_permissions as SetPermissions, set_throttle as SetThrottle,
        set_timezone as SetTimezone, set_user_agent as SetUserAgent, set_viewport as SetViewport,
        settings as Settings,
    };
}
