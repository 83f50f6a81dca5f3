//! The policy layer: every command passes here after it was parsed and before it runs, with its
//! kind (read, mutate, navigate, session, dangerous). Nothing is refused yet; the safety work
//! (allowed domains, an action policy, confirmations) decides here, in one place.

use agentbrowser_protocol::{Command, Kind};

use crate::error::Result;

/// Decides whether `command` may run: the URLs it names must be in the session's allowed
/// domains (`domains`); otherwise every command may.
pub fn check(command: &Command, domains: &crate::domains::Guard) -> Result<()> {
    let _kind: Kind = command.kind();
    crate::domains::commands::check(command, domains)?;
    Ok(())
}
