//! `console` and `errors`: reads of the active tab's bounded buffers (no page round trip), and
//! the same reads for a daemon answering while another command runs.

use agentbrowser_protocol::{ConsoleOutput, ConsoleParams, ErrorsOutput, ErrorsParams, LogLevel};

use crate::cx::Cx;
use crate::error::Result;
use crate::events::DiagnosticsLog;

impl crate::session::Engine {
    /// The active tab's id and console and error buffers, if that tab is attached (no CDP call):
    /// what a daemon reads `console` and `errors` from while another command runs.
    pub fn diagnostics(&self) -> Option<(String, DiagnosticsLog)> {
        let page = self.browser.as_ref()?.active_attached()?;
        Some((page.tab_id.clone(), page.diagnostics().clone()))
    }
}

/// `console`: the active tab's console messages.
pub(crate) async fn console(p: ConsoleParams, cx: &mut Cx<'_>) -> Result<ConsoleOutput> {
    let page = cx.active_page().await?;
    Ok(read_console(&page.tab_id, page.diagnostics(), &p))
}

/// `errors`: the active tab's uncaught exceptions and unhandled rejections.
pub(crate) async fn errors(p: ErrorsParams, cx: &mut Cx<'_>) -> Result<ErrorsOutput> {
    let page = cx.active_page().await?;
    Ok(read_errors(&page.tab_id, page.diagnostics(), &p))
}

/// The answer to `console` from the buffer of tab `tab`.
pub fn read_console(tab: &str, log: &DiagnosticsLog, p: &ConsoleParams) -> ConsoleOutput {
    let min = p.level.map_or(LogLevel::Verbose, |l| l.severity());
    let cleared = p.clear.unwrap_or(false);
    let since_navigation = p.since_navigation.unwrap_or(false);
    let c = log.console(min, cleared, since_navigation);
    ConsoleOutput {
        tab: tab.to_string(),
        messages: c.read.items,
        dropped: c.read.dropped,
        cleared,
        since_navigation,
        before_navigation: c.before_navigation,
    }
}

/// The answer to `errors` from the buffer of tab `tab`.
pub fn read_errors(tab: &str, log: &DiagnosticsLog, p: &ErrorsParams) -> ErrorsOutput {
    let cleared = p.clear.unwrap_or(false);
    let read = log.errors(cleared);
    ErrorsOutput {
        tab: tab.to_string(),
        errors: read.items,
        dropped: read.dropped,
        cleared,
    }
}

/// This module's command handlers under their commands' variant names: `handlers::dispatch` runs
/// them (a handler added here is dispatched with no other line).
pub(crate) mod handles {
    pub(crate) use super::{console as Console, errors as Errors};
}
