//! The policy layer: every command passes here after it was parsed and before it runs, with its
//! kind (read, mutate, navigate, session, dangerous: the last whenever it runs caller-supplied
//! JavaScript, as the command list declares). The session's action policy decides here
//! (`crate::safety`): a command runs, is refused (`action_denied`), or is paused for a person
//! (`confirmation_required`, answered by `confirm` or `deny`).

use agentbrowser_protocol::Checked;

use crate::cx::Scope;
use crate::error::Result;
use crate::safety::{Decision, command_labels, confirm::Subject, denied_command};
use crate::session::Engine;

/// Decides whether `command` (scoped like its request) may run now in `engine`'s session: the
/// URLs it names must be in the session's allowed domains (`crate::domains`), then the action
/// policy decides.
pub fn check(engine: &mut Engine, command: &Checked, scope: &Scope) -> Result<()> {
    crate::domains::commands::check(command, engine.part::<crate::domains::Guard>())?;
    if command.facts().exempt || !engine.part::<crate::safety::Safety>().is_active() {
        return Ok(());
    }
    let subject = Subject::of(engine, command, scope);
    // A page tool's own annotations decide whether its call is a read or a mutation.
    let tool_kind = command.param_facts().page_tool().and_then(|tool| {
        let page = engine.browser.as_ref()?.active_attached()?;
        Some(crate::webmcp::tool_kind_on(&page, tool))
    });
    let labels = match tool_kind {
        Some(kind) => crate::safety::policy_file::labels(command.action(), kind),
        None => command_labels(command),
    };
    match engine
        .part::<crate::safety::Safety>()
        .decide(&labels, subject.host.as_deref())?
    {
        Decision::Allow => Ok(()),
        Decision::Deny(rule) => Err(denied_command(command, &rule, subject.host.as_deref())),
        Decision::Confirm(rule) => {
            let timeout = engine.part::<crate::safety::Safety>().timeout();
            Err(engine
                .part_mut::<crate::safety::Safety>()
                .confirmations
                .pause(command, scope, subject, rule, timeout))
        }
    }
}
