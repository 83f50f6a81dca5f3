//! The `storage` group's tools written by hand (Playwright MCP's `--caps=storage` tools, by its
//! names): storage state files under the working directory, and the cookies of a domain, a
//! path or a name (filtered here) or for the active page's URL. Cookie values are shown only
//! when asked (`showValues`, or `_get` of one name). The group's other tools are projections.

use agentbrowser_protocol::present::Present;
use agentbrowser_protocol::*;
use schemars::JsonSchema;
use serde::Deserialize;

use super::Ctx;
use super::hand::output_path;
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
pub(super) async fn cookie_set(cx: Ctx, mut a: CookieInput) -> Result<Answer, ToolError> {
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
