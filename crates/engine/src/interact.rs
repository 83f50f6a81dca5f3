//! Ref mutations through the protocol: each resolves its ref in the active tab (a ref of another
//! tab is stale), acts, and returns the evidence (see `actions`).

use agentbrowser_protocol::{
    ActionOutput, ClickParams, Modifier, PressParams, RefActionParams, SelectParams, TypeParams,
    ValueParams,
};

use crate::actions::{self, Mutation};
use crate::cx::Cx;
use crate::error::Result;
use crate::input;
use crate::targets;

/// `click`: a mouse click on a ref (Ctrl+click reports the new tab).
pub(crate) async fn click(p: ClickParams, cx: &mut Cx<'_>) -> Result<ActionOutput> {
    let count = i64::from(p.click_count.unwrap_or(1));
    let modifiers = p.modifiers.iter().flatten().fold(0, |bits, m| {
        bits | match m {
            Modifier::Alt => input::ALT,
            Modifier::Control | Modifier::ControlOrMeta => input::CTRL,
            Modifier::Meta => input::META,
            Modifier::Shift => input::SHIFT,
        }
    });
    let m = Mutation::Click {
        button: p.button.unwrap_or_default(),
        count,
        new_tab: p.new_tab.unwrap_or(false),
        modifiers,
    };
    let new_tab = p.new_tab.unwrap_or(false);
    // Watch for targets before the click, so a tab it opens at once is not missed.
    let watch = if new_tab {
        Some(cx.watch_new_tabs().await?)
    } else {
        None
    };
    let opened = cx.watch_opened().await?;
    let (page, id) = targets::target_page(cx, &p.target).await?;
    let mut data = actions::mutate(
        &page,
        &id,
        m,
        p.wait,
        p.evidence.unwrap_or_default(),
        cx.limits,
    )
    .await?;
    if let Some(watch) = watch {
        data.report.new_tab = Some(cx.wait_new_tab(watch, cx.limits.deadline).await?);
    }
    data.opened_tabs = cx.opened_since(opened).await?;
    Ok(data)
}

/// `fill`: replace a value.
pub(crate) async fn fill(p: ValueParams, cx: &mut Cx<'_>) -> Result<ActionOutput> {
    mutate(cx, &p.target, Mutation::Fill(p.value), p.wait, p.evidence).await
}

/// `type`: type text key by key.
pub(crate) async fn type_text(p: TypeParams, cx: &mut Cx<'_>) -> Result<ActionOutput> {
    mutate(cx, &p.target, Mutation::Type(p.text), p.wait, p.evidence).await
}

/// `select`: select an option.
pub(crate) async fn select(p: SelectParams, cx: &mut Cx<'_>) -> Result<ActionOutput> {
    let m = match (p.value, p.values) {
        (Some(v), _) => Mutation::Select(v),
        (None, values) => Mutation::SelectMany(values.unwrap_or_default()),
    };
    mutate(cx, &p.target, m, p.wait, p.evidence).await
}

/// `check`: check.
pub(crate) async fn check(p: RefActionParams, cx: &mut Cx<'_>) -> Result<ActionOutput> {
    mutate(cx, &p.target, Mutation::Check(true), p.wait, p.evidence).await
}

/// `uncheck`: uncheck.
pub(crate) async fn uncheck(p: RefActionParams, cx: &mut Cx<'_>) -> Result<ActionOutput> {
    mutate(cx, &p.target, Mutation::Check(false), p.wait, p.evidence).await
}

/// `hover`: move the mouse over.
pub(crate) async fn hover(p: RefActionParams, cx: &mut Cx<'_>) -> Result<ActionOutput> {
    mutate(cx, &p.target, Mutation::Hover, p.wait, p.evidence).await
}

/// `tap`: tap.
pub(crate) async fn tap(p: RefActionParams, cx: &mut Cx<'_>) -> Result<ActionOutput> {
    mutate(cx, &p.target, Mutation::Tap, p.wait, p.evidence).await
}

/// `focus`: focus.
pub(crate) async fn focus(p: RefActionParams, cx: &mut Cx<'_>) -> Result<ActionOutput> {
    mutate(cx, &p.target, Mutation::Focus, p.wait, p.evidence).await
}

/// `clear`: empty the value.
pub(crate) async fn clear(p: RefActionParams, cx: &mut Cx<'_>) -> Result<ActionOutput> {
    mutate(cx, &p.target, Mutation::Clear, p.wait, p.evidence).await
}

/// `scroll_into_view`: scroll into view.
pub(crate) async fn scroll_into_view(p: RefActionParams, cx: &mut Cx<'_>) -> Result<ActionOutput> {
    mutate(cx, &p.target, Mutation::ScrollIntoView, p.wait, p.evidence).await
}

/// `press`: a key chord on the focused element.
pub(crate) async fn press(p: PressParams, cx: &mut Cx<'_>) -> Result<ActionOutput> {
    let opened = cx.watch_opened().await?;
    let page = cx.page().await?;
    let mut data = actions::press(
        &page,
        &p.key,
        p.wait,
        p.evidence.unwrap_or_default(),
        cx.limits,
    )
    .await?;
    data.opened_tabs = cx.opened_since(opened).await?;
    Ok(data)
}

async fn mutate(
    cx: &mut Cx<'_>,
    target: &agentbrowser_protocol::Target,
    m: Mutation,
    wait_for: Option<agentbrowser_protocol::WaitCondition>,
    evidence: Option<agentbrowser_protocol::Evidence>,
) -> Result<ActionOutput> {
    let opened = cx.watch_opened().await?;
    let (page, id) = targets::target_page(cx, target).await?;
    let mut data = actions::mutate(
        &page,
        &id,
        m,
        wait_for,
        evidence.unwrap_or_default(),
        cx.limits,
    )
    .await?;
    data.opened_tabs = cx.opened_since(opened).await?;
    Ok(data)
}

/// This module's command handlers under their commands' variant names: `handlers::dispatch` runs
/// them (a handler added here is dispatched with no other line).
pub(crate) mod handles {
    pub(crate) use super::{
        check as Check, clear as Clear, click as Click, fill as Fill, focus as Focus,
        hover as Hover, press as Press, scroll_into_view as ScrollIntoView, select as Select,
        tap as Tap, type_text as Type, uncheck as Uncheck,
    };
}
