//! The gates a command passes before its handler runs: the session is open, the domains and the
//! action policy allow it (`crate::policy`), and no dialog blocks its tab.

use agentbrowser_protocol::{Checked, Command, ErrorCode};

use crate::browser::Browser;
use crate::cx::Scope;
use crate::error::{EngineError, Result};
use crate::session::Engine;

/// Refuses every command once the session is closed.
pub(super) fn open(engine: &Engine) -> Result<()> {
    if engine.closed {
        return Err(EngineError::new(
            ErrorCode::BrowserClosed,
            "the session is closed",
        ));
    }
    Ok(())
}

/// The session's allowed domains and action policy decide whether `command` runs now.
pub(super) fn policy(engine: &mut Engine, command: &Checked, scope: &Scope) -> Result<()> {
    crate::policy::check(engine, command, scope)
}

/// A dialog open in the active tab blocks every command but those that answer or outlast it.
pub(super) fn dialog(engine: &Engine, command: &Command) -> Result<()> {
    if !command.dialog().runs_while_open()
        && let Some(d) = engine
            .browser
            .as_ref()
            .and_then(Browser::active_attached)
            .and_then(|p| p.dialogs().open())
    {
        return Err(crate::dialogs::dialog_open(command.action(), &d, false));
    }
    Ok(())
}
