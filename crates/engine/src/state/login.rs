//! `auth_login`: logs in with a vault entry. It opens the entry's URL, waits for the username
//! and password fields to be visible, gives each a ref (the element it is now), fills them with
//! real input through those refs (a field replaced meanwhile is `stale_ref`, never another
//! element), checks that each selector still finds the same element, that the password field is
//! still an `input type=password` holding the password and the username field the username, and
//! only then submits (a click on the submit button, or Enter). It answers success only when a
//! submission or a navigation was seen; otherwise `auth_not_submitted`. A changed field is
//! `auth_fields_changed` and nothing is submitted. The password is registered with `secrets`
//! first, so the network log and HAR never hold it.

use agentbrowser_protocol::{
    AuthLoggedIn, AuthLoginParams, AuthSelectors, AuthSubmit, ErrorCode, Evidence, LoadState,
    MouseButton, SelectorState, Target,
};
use serde::Deserialize;
use serde_json::{Value, json};
use tokio::time::Instant;

use super::vault;
use crate::actions::{self, Mutation};
use crate::cx::{ACTIONABLE_DEFAULT, Cx, Limits};
use crate::error::{EngineError, Result};
use crate::page::Page;
use crate::world::{self, FrameTarget};

/// The username field when the entry names none: the first text-like input of the form that
/// holds the password field.
pub const DEFAULT_USERNAME: &str = "form:has(input[type=password]) input:not([type=password]):not([type=hidden]):not([type=submit]):not([type=button]):not([type=checkbox]):not([type=radio]):not([type=reset]):not([type=image]):not([type=file]) >> first";
/// The password field when the entry names none.
pub const DEFAULT_PASSWORD: &str = "input[type=password]";
/// The submit button when the entry names none (none found: Enter in the password field).
pub const DEFAULT_SUBMIT: &str = "form:has(input[type=password]) button:not([type=button]):not([type=reset]), form:has(input[type=password]) input[type=submit], form:has(input[type=password]) input[type=image] >> first";

/// What the page says about a field.
#[derive(Deserialize)]
struct FieldInfo {
    tag: String,
    #[serde(rename = "type")]
    kind: String,
    connected: bool,
    holds: bool,
}

/// Runs on a field: its tag, type, whether it is in its document and holds `arguments[0]`.
const FIELD_INFO: &str = "function(want) { return { tag: this.localName, \
    type: (this.getAttribute('type') || '').toLowerCase(), connected: this.isConnected, \
    holds: want === null ? true : this.value === want }; }";

/// A field found by a selector: its selector and its ref.
struct Field {
    selector: String,
    id: String,
}

/// `auth_login`.
pub(crate) async fn auth_login(p: AuthLoginParams, cx: &mut Cx<'_>) -> Result<AuthLoggedIn> {
    let (entry, _) = vault::load(&p.name, p.key_file.as_deref())?;
    crate::secrets::register(&entry.password);
    let deadline = cx.limits.deadline;
    if p.navigate.unwrap_or(true) {
        let (page, _) = cx.recovered_page().await?;
        page.navigate(&entry.url, LoadState::Load, deadline).await?;
    }
    let page = cx.page().await?;
    let login_url = page.location().await?.0;
    let user_sel = entry
        .username_selector
        .clone()
        .unwrap_or_else(|| DEFAULT_USERNAME.into());
    let pass_sel = entry
        .password_selector
        .clone()
        .unwrap_or_else(|| DEFAULT_PASSWORD.into());
    let started = Instant::now();
    for sel in [&user_sel, &pass_sel] {
        crate::wait::wait_selector(
            &page,
            &Target::Text(sel.clone()),
            SelectorState::Visible,
            deadline,
            started,
        )
        .await?;
    }
    let user = field(cx, &user_sel).await?;
    let pass = field(cx, &pass_sel).await?;
    if user.id == pass.id {
        return Err(changed(format!(
            "the username selector {user_sel:?} and the password selector {pass_sel:?} find the same element"
        )));
    }
    check_field(&page, &pass, true, None, "password").await?;
    check_field(&page, &user, false, None, "username").await?;
    fill(&page, &user, &entry.username, "username", fresh(cx.limits)).await?;
    // The username's input may have made the page change the password field: look again.
    same_field(cx, &pass, "password").await?;
    check_field(&page, &pass, true, None, "password").await?;
    fill(&page, &pass, &entry.password, "password", fresh(cx.limits)).await?;
    // Last look before submitting: both fields are the ones the selectors find, still hold
    // what was filled, and the password field is still a password input.
    same_field(cx, &user, "username").await?;
    same_field(cx, &pass, "password").await?;
    check_field(&page, &user, false, Some(&entry.username), "username").await?;
    check_field(&page, &pass, true, Some(&entry.password), "password").await?;
    let submit_sel = match &entry.submit_selector {
        Some(s) => Some(s.clone()),
        None => {
            let n = crate::targets::count(cx, &Target::Text(DEFAULT_SUBMIT.into())).await?;
            (n > 0).then(|| DEFAULT_SUBMIT.to_string())
        }
    };
    let nav_before = page.state().nav_started_seq;
    let doc_before = page.state().document_seq;
    let scoped = FrameTarget::scoped(&page);
    // The submit event is kept (read after it was dispatched, its `defaultPrevented` says
    // whether the page's scripts took it over); the mark tells this document from the next.
    let mark = format!(
        "agb-{}",
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos())
    );
    world::evaluate_value(
        &page,
        &scoped,
        &format!(
            "(() => {{ globalThis.__agbAuth = {{ mark: {m}, event: null }}; \
              document.addEventListener('submit', e => {{ globalThis.__agbAuth.event = e; }}, \
              {{ capture: true, once: true }}); return true; }})()",
            m = json!(mark)
        ),
    )
    .await?;
    let submit = match &submit_sel {
        Some(sel) => {
            let button = field(cx, sel).await?;
            let click = Mutation::Click {
                button: MouseButton::default(),
                count: 1,
                new_tab: false,
                modifiers: 0,
            };
            actions::mutate(
                &page,
                &button.id,
                click,
                None,
                Evidence::Off,
                fresh(cx.limits),
            )
            .await?;
            AuthSubmit::Click
        }
        None => {
            // The password field has the focus since its fill.
            actions::press(&page, "Enter", None, Evidence::Off, fresh(cx.limits)).await?;
            AuthSubmit::Enter
        }
    };
    let seen = world::evaluate_value(
        &page,
        &scoped,
        "(() => { const a = globalThis.__agbAuth; return a ? { mark: a.mark, fired: !!a.event, \
          prevented: !!(a.event && a.event.defaultPrevented) } : null; })()",
    )
    .await
    .unwrap_or(Value::Null);
    let flag = |k: &str| seen.get(k).and_then(Value::as_bool) == Some(true);
    let same_document =
        seen.get("mark") == Some(&json!(mark)) && page.state().document_seq == doc_before;
    let navigating = !same_document
        || (flag("fired") && !flag("prevented"))
        || page.state().nav_started_seq > nav_before;
    if navigating {
        // The form's navigation may start a moment after the click: wait for its document.
        page.wait_for(
            deadline,
            "the submitted login form's response page to load",
            |s| s.document_seq > doc_before && s.reached(&s.loader_id, LoadState::Load),
        )
        .await
        .map_err(|e| {
            EngineError::new(
                e.code,
                format!(
                    "the login form was submitted but its response page did not load: {}",
                    e.message
                ),
            )
        })?;
    } else if flag("fired") {
        // The page's script took the submission over (no navigation of its own yet).
        actions::settle(&page, nav_before, doc_before, deadline, false).await?;
    } else {
        return Err(EngineError::new(
            ErrorCode::AuthNotSubmitted,
            format!(
                "the fields were filled but the form was not submitted: {} started no submission and no navigation",
                match &submit_sel {
                    Some(s) => format!("the click on {s:?}"),
                    None => "Enter in the password field".into(),
                }
            ),
        ));
    }
    let navigated = page.state().document_seq > doc_before;
    let (mut url, title) = page.location().await?;
    // A form sent with GET carries the password in the URL it lands on.
    crate::secrets::redact(&mut url);
    Ok(AuthLoggedIn {
        name: entry.name.clone(),
        username: entry.username.clone(),
        login_url,
        url,
        title,
        submit,
        navigated,
        selectors: AuthSelectors {
            username: user_sel,
            password: pass_sel,
            submit: submit_sel,
        },
    })
}

/// The command's limits with the actionability wait starting now: each of the login's actions
/// gets its own (the navigation and the waits before it used the command's).
fn fresh(limits: Limits) -> Limits {
    Limits {
        deadline: limits.deadline,
        actionable: limits.deadline.min(Instant::now() + ACTIONABLE_DEFAULT),
    }
}

/// The `auth_fields_changed` error.
fn changed(why: String) -> EngineError {
    EngineError::new(
        ErrorCode::AuthFieldsChanged,
        format!("{why}; nothing was submitted"),
    )
}

/// The one element `selector` finds now, with its ref.
async fn field(cx: &mut Cx<'_>, selector: &str) -> Result<Field> {
    let (_, id) = crate::targets::target_page(cx, &Target::Text(selector.to_string())).await?;
    Ok(Field {
        selector: selector.to_string(),
        id,
    })
}

/// Fails unless `selector` still finds the element `f` was (not one put in its place).
async fn same_field(cx: &mut Cx<'_>, f: &Field, what: &str) -> Result<()> {
    let now = field(cx, &f.selector).await.map_err(|e| {
        changed(format!(
            "the {what} field {:?} is no longer found: {}",
            f.selector, e.message
        ))
    })?;
    if now.id != f.id {
        return Err(changed(format!(
            "the {what} field {:?} now finds another element than the one filled (the page replaced it)",
            f.selector
        )));
    }
    Ok(())
}

/// Checks a field's element: in its document, an `<input>` (a password field: of type
/// `password`), holding `holds` when given.
async fn check_field(
    page: &Page,
    f: &Field,
    password: bool,
    holds: Option<&str>,
    what: &str,
) -> Result<()> {
    let info = field_info(page, f, holds).await.map_err(|e| {
        changed(format!(
            "the {what} field {:?} went away: {}",
            f.selector, e.message
        ))
    })?;
    if !info.connected {
        return Err(changed(format!(
            "the {what} field {:?} was removed from the page",
            f.selector
        )));
    }
    if password && !(info.tag == "input" && info.kind == "password") {
        return Err(changed(format!(
            "the password field {:?} is a <{}{}>, not an <input type=password>: the password is not typed into it",
            f.selector,
            info.tag,
            if info.kind.is_empty() {
                String::new()
            } else {
                format!(" type={}", info.kind)
            }
        )));
    }
    if !password && !matches!(info.tag.as_str(), "input" | "textarea") {
        return Err(changed(format!(
            "the username field {:?} is a <{}>, not an input",
            f.selector, info.tag
        )));
    }
    if !info.holds {
        return Err(changed(format!(
            "the {what} field {:?} does not hold what was filled (the page changed it)",
            f.selector
        )));
    }
    Ok(())
}

/// Reads a field's [`FieldInfo`] through its ref.
async fn field_info(page: &Page, f: &Field, holds: Option<&str>) -> Result<FieldInfo> {
    let (id, entry) = crate::world::lookup(page, &f.id)?;
    let el = world::resolve(page, &id, &entry).await?;
    let r = el
        .frame
        .session
        .call(
            "Runtime.callFunctionOn",
            json!({
                "functionDeclaration": FIELD_INFO,
                "objectId": el.object_id,
                "arguments": [{"value": holds}],
                "returnByValue": true,
            }),
        )
        .await?;
    serde_json::from_value(r.pointer("/result/value").cloned().unwrap_or(Value::Null)).map_err(
        |e| EngineError::internal(format!("the page's answer about a field is malformed: {e}")),
    )
}

/// Fills a field through its ref with real input; a field replaced meanwhile is
/// `auth_fields_changed`. The action's answer (which echoes the value) is dropped.
async fn fill(page: &Page, f: &Field, value: &str, what: &str, limits: Limits) -> Result<()> {
    match actions::mutate(
        page,
        &f.id,
        Mutation::Fill(value.to_string()),
        None,
        Evidence::Off,
        limits,
    )
    .await
    {
        Ok(_) => Ok(()),
        Err(e) if matches!(e.code, ErrorCode::StaleRef | ErrorCode::ActionFailed) => {
            Err(changed(format!(
                "the {what} field {:?} was replaced or lost the focus while it was filled: {}",
                f.selector, e.message
            )))
        }
        Err(e) => Err(EngineError::new(
            e.code,
            format!(
                "cannot fill the {what} field {:?}: {}",
                f.selector, e.message
            ),
        )),
    }
}
