//! The run layer: a command passes the gates, its handler runs, then what follows a command:
//! the restore's check after the session's first navigation (`crate::state::restore`) and the
//! notes of the request interception (authentication challenges it refused meanwhile).

use agentbrowser_protocol::Checked;

use super::gates;
use crate::cx::{Cx, Limits, Output, Scope};
use crate::error::Result;
use crate::session::Engine;

impl Engine {
    /// Runs one command: the gates, then the command's handler, then the hooks after it.
    pub(super) async fn run(
        &mut self,
        command: Checked,
        limits: Limits,
        scope: Scope,
    ) -> Result<Output> {
        gates::open(self)?;
        gates::policy(self, &command, &scope)?;
        gates::dialog(self, &command)?;
        let checks_restore = command.facts().checks_restore;
        let mut cx = Cx {
            engine: self,
            limits,
            scope,
        };
        let out = crate::handlers::dispatch(command, &mut cx).await;
        if checks_restore && out.is_ok() {
            crate::state::restore::after_navigation(&mut cx).await;
        }
        // Authentication challenges refused while the command ran.
        for w in self.hooks.intercept.take_warnings() {
            crate::warnings::note(w);
        }
        out
    }
}
