//! The `storage` group (Playwright MCP's `--caps=storage` tools, by its names): storage state
//! files, cookies, localStorage and sessionStorage of the active tab's origin, and a login with
//! an auth vault entry (`browser_auth_login`, ours). Cookie and storage values are shown only
//! when asked (`showValues`, or `_get` of one name).

use agentbrowser_protocol::present::Present;
use agentbrowser_protocol::*;
use schemars::JsonSchema;
use serde::Deserialize;

use super::{Ctx, NoArgs, output_path};
use crate::answer::{Answer, ToolError};

/// Arguments of `browser_storage_state`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct StorageStateArgs {
    /// The file to write, a relative path under the server's working directory (default `storage-state-<unix time>.json`).
    pub filename: Option<String>,
    /// Save IndexedDB too (default true).
    #[serde(rename = "indexedDB")]
    pub indexed_db: Option<bool>,
}

/// Arguments of `browser_set_storage_state`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SetStorageStateArgs {
    /// The file to load (ours or Playwright's storageState), a relative path under the server's working directory.
    pub filename: String,
}

/// Arguments of `browser_cookie_list`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct CookieListArgs {
    /// Only the cookies of this domain (and its subdomains).
    pub domain: Option<String>,
    /// Only the cookies of this path.
    pub path: Option<String>,
    /// Show the values (default: lengths only).
    pub show_values: Option<bool>,
}

/// Arguments of `browser_cookie_get` and `browser_cookie_delete`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CookieNameArgs {
    /// The cookie's name.
    pub name: String,
}

/// Arguments of `browser_cookie_set`: the protocol's cookie (Playwright's cookie shape); with
/// neither `url` nor `domain` the cookie is for the active page's URL.
pub type CookieSetArgs = CookieInput;

/// Arguments of the `_list` storage tools.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct StorageListArgs {
    /// Show the values (default: lengths only).
    pub show_values: Option<bool>,
}

/// Arguments of the `_get` and `_delete` storage tools.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct StorageKeyArgs {
    /// The key.
    pub key: String,
}

/// Arguments of the `_set` storage tools.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct StorageSetArgs {
    /// The key.
    pub key: String,
    /// The value.
    pub value: String,
}

/// Arguments of `browser_auth_login`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AuthLoginArgs {
    /// The auth vault entry (saved with `agentbrowser auth save`).
    pub name: String,
    /// Open the entry's URL first (default true); false: fill the page shown.
    pub navigate: Option<bool>,
}

/// One section answer.
fn answer(title: &'static str, body: String) -> Answer {
    let mut a = Answer::new();
    a.add(title, body);
    a
}

/// `browser_storage_state`: `state_save` to a file under the working directory.
pub(super) async fn storage_state(cx: Ctx, a: StorageStateArgs) -> Result<Answer, ToolError> {
    let name = a.filename.unwrap_or_else(|| {
        let secs = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        format!("storage-state-{secs}.json")
    });
    let path = output_path(&name)?;
    let out: StateSaved = cx
        .get(Command::StateSave(StateSaveParams {
            path: Some(path.display().to_string()),
            key_file: None,
            indexed_db: a.indexed_db,
        }))
        .await?;
    Ok(answer("Result", out.text()))
}

/// `browser_set_storage_state`: `state_load` of a file under the working directory.
pub(super) async fn set_storage_state(
    cx: Ctx,
    a: SetStorageStateArgs,
) -> Result<Answer, ToolError> {
    let path = output_path(&a.filename)?;
    let out: StateLoaded = cx
        .get(Command::StateLoad(StateFileParams {
            path: path.display().to_string(),
            key_file: None,
        }))
        .await?;
    Ok(answer("Result", out.text()))
}

/// The session's cookies.
async fn cookies(cx: &Ctx, show: bool) -> Result<CookiesOutput, ToolError> {
    cx.get(Command::CookiesGet(CookiesGetParams {
        urls: None,
        show_values: Some(show),
    }))
    .await
}

/// `browser_cookie_list`.
pub(super) async fn cookie_list(cx: Ctx, a: CookieListArgs) -> Result<Answer, ToolError> {
    let mut out = cookies(&cx, a.show_values.unwrap_or(false)).await?;
    out.cookies.retain(|c| {
        a.domain.as_ref().is_none_or(|d| {
            let (c, d) = (c.domain.trim_start_matches('.'), d.trim_start_matches('.'));
            c == d || c.ends_with(&format!(".{d}"))
        }) && a.path.as_ref().is_none_or(|p| &c.path == p)
    });
    let mut ans = Answer::new();
    ans.add_cuttable("Cookies", out.text(), "list fewer: pass `domain` or `path`");
    Ok(ans)
}

/// `browser_cookie_get`: the cookies of one name, values shown.
pub(super) async fn cookie_get(cx: Ctx, a: CookieNameArgs) -> Result<Answer, ToolError> {
    let mut out = cookies(&cx, true).await?;
    out.cookies.retain(|c| c.name == a.name);
    if out.cookies.is_empty() {
        return Err(ToolError::new(
            "not_found",
            format!(
                "no cookie named {:?}; browser_cookie_list lists them",
                a.name
            ),
        ));
    }
    Ok(answer("Cookie", out.text()))
}

/// `browser_cookie_set`: a cookie for `url` or `domain`, else for the active page's URL.
pub(super) async fn cookie_set(cx: Ctx, mut a: CookieSetArgs) -> Result<Answer, ToolError> {
    if a.url.is_none() && a.domain.is_none() {
        let u: UrlOutput = cx.get(Command::Url(NoParams {})).await?;
        a.url = Some(u.url);
    }
    let out: CookiesSetOutput = cx
        .get(Command::CookiesSet(CookiesSetParams {
            cookies: Some(vec![a]),
            ..Default::default()
        }))
        .await?;
    Ok(answer("Result", out.text()))
}

/// `browser_cookie_delete`: every cookie of one name.
pub(super) async fn cookie_delete(cx: Ctx, a: CookieNameArgs) -> Result<Answer, ToolError> {
    let out: CookiesCleared = cx
        .get(Command::CookiesClear(CookiesClearParams {
            url: None,
            domain: None,
            name: Some(a.name),
        }))
        .await?;
    Ok(answer("Result", out.text()))
}

/// `browser_cookie_clear`: every cookie.
pub(super) async fn cookie_clear(cx: Ctx, _: NoArgs) -> Result<Answer, ToolError> {
    let out: CookiesCleared = cx
        .get(Command::CookiesClear(CookiesClearParams::default()))
        .await?;
    Ok(answer("Result", out.text()))
}

/// Every entry of a storage area.
async fn list(cx: Ctx, area: StorageArea, a: StorageListArgs) -> Result<Answer, ToolError> {
    let out: StorageOutput = cx
        .get(Command::StorageGet(StorageGetParams {
            area,
            key: None,
            max_items: None,
            show_values: a.show_values,
        }))
        .await?;
    let mut ans = Answer::new();
    ans.add_cuttable("Storage", out.text(), "get one key with the `_get` tool");
    Ok(ans)
}

/// One key of a storage area, its value shown.
async fn get(cx: Ctx, area: StorageArea, a: StorageKeyArgs) -> Result<Answer, ToolError> {
    let out: StorageOutput = cx
        .get(Command::StorageGet(StorageGetParams {
            area,
            key: Some(a.key),
            max_items: None,
            show_values: Some(true),
        }))
        .await?;
    let mut ans = Answer::new();
    ans.add_cuttable(
        "Storage",
        out.text(),
        "the value is long; read it with browser_evaluate in parts",
    );
    Ok(ans)
}

/// Sets one key of a storage area.
async fn set(cx: Ctx, area: StorageArea, a: StorageSetArgs) -> Result<Answer, ToolError> {
    let out: StorageChanged = cx
        .get(Command::StorageSet(StorageSetParams {
            area,
            key: a.key,
            value: a.value,
        }))
        .await?;
    Ok(answer("Result", out.text()))
}

/// Removes one key of a storage area.
async fn delete(cx: Ctx, area: StorageArea, a: StorageKeyArgs) -> Result<Answer, ToolError> {
    let out: StorageChanged = cx
        .get(Command::StorageRemove(StorageRemoveParams {
            area,
            key: a.key,
        }))
        .await?;
    Ok(answer("Result", out.text()))
}

/// Empties a storage area.
async fn clear(cx: Ctx, area: StorageArea) -> Result<Answer, ToolError> {
    let out: StorageChanged = cx
        .get(Command::StorageClear(StorageClearParams { area }))
        .await?;
    Ok(answer("Result", out.text()))
}

/// `browser_localstorage_list`.
pub(super) async fn local_list(cx: Ctx, a: StorageListArgs) -> Result<Answer, ToolError> {
    list(cx, StorageArea::Local, a).await
}

/// `browser_localstorage_get`.
pub(super) async fn local_get(cx: Ctx, a: StorageKeyArgs) -> Result<Answer, ToolError> {
    get(cx, StorageArea::Local, a).await
}

/// `browser_localstorage_set`.
pub(super) async fn local_set(cx: Ctx, a: StorageSetArgs) -> Result<Answer, ToolError> {
    set(cx, StorageArea::Local, a).await
}

/// `browser_localstorage_delete`.
pub(super) async fn local_delete(cx: Ctx, a: StorageKeyArgs) -> Result<Answer, ToolError> {
    delete(cx, StorageArea::Local, a).await
}

/// `browser_localstorage_clear`.
pub(super) async fn local_clear(cx: Ctx, _: NoArgs) -> Result<Answer, ToolError> {
    clear(cx, StorageArea::Local).await
}

/// `browser_sessionstorage_list`.
pub(super) async fn session_list(cx: Ctx, a: StorageListArgs) -> Result<Answer, ToolError> {
    list(cx, StorageArea::Session, a).await
}

/// `browser_sessionstorage_get`.
pub(super) async fn session_get(cx: Ctx, a: StorageKeyArgs) -> Result<Answer, ToolError> {
    get(cx, StorageArea::Session, a).await
}

/// `browser_sessionstorage_set`.
pub(super) async fn session_set(cx: Ctx, a: StorageSetArgs) -> Result<Answer, ToolError> {
    set(cx, StorageArea::Session, a).await
}

/// `browser_sessionstorage_delete`.
pub(super) async fn session_delete(cx: Ctx, a: StorageKeyArgs) -> Result<Answer, ToolError> {
    delete(cx, StorageArea::Session, a).await
}

/// `browser_sessionstorage_clear`.
pub(super) async fn session_clear(cx: Ctx, _: NoArgs) -> Result<Answer, ToolError> {
    clear(cx, StorageArea::Session).await
}

/// `browser_auth_login`: logs in with a vault entry, then a snapshot of where it landed.
pub(super) async fn auth_login(cx: Ctx, a: AuthLoginArgs) -> Result<Answer, ToolError> {
    let out: AuthLoggedIn = cx
        .get(Command::AuthLogin(AuthLoginParams {
            name: a.name,
            navigate: a.navigate,
            key_file: None,
        }))
        .await?;
    let mut ans = answer("Result", out.text());
    super::add_snapshot(&cx, &mut ans).await?;
    Ok(ans)
}
