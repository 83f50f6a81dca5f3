//! Audits of the active tab: the axe-core accessibility audit (`a11y`, in every frame) and the
//! page's Web Vitals (`vitals`).

mod a11y;
pub mod axe;
mod vitals;

pub(crate) use a11y::a11y;
pub(crate) use vitals::vitals;

use crate::cx::Cx;
use crate::error::Result;

/// Navigates the active tab to `url` (as `open` does, to `load`) when one is given.
async fn navigate_first(url: Option<&str>, cx: &mut Cx<'_>) -> Result<()> {
    if let Some(u) = url {
        let url = crate::nav::normalize_url(u)?;
        let (page, _) = cx.recovered_page().await?;
        page.navigate(&url, Default::default(), cx.limits.deadline)
            .await?;
    }
    Ok(())
}

/// This module's command handlers under their commands' variant names: `handlers::dispatch` runs
/// them (a handler added here is dispatched with no other line).
pub(crate) mod handles {
    pub(crate) use super::{a11y as A11y, vitals as Vitals};
}
