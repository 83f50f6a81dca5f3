//! The session's capabilities, registered with the core: the state each keeps in the session
//! (found by its type: [`crate::parts::Parts`]) and the dispatch of their commands
//! (`crate::handlers`). The core (`session`, `cx`, `browser`, `page`) never names a
//! capability; this module does, once, when a session is made.

use std::sync::{Arc, Mutex};

use crate::cx::{Cx, Output};
use crate::error::Result;
use crate::launch::LaunchOptions;
use crate::session::{Engine, SessionInfo};

impl Engine {
    /// A session that launches with `defaults` when a command first needs a browser.
    pub fn new(info: SessionInfo, defaults: LaunchOptions) -> Engine {
        let safety = crate::safety::Safety::new(&defaults.policy);
        let mut dialog_board = crate::events::DialogBoard::default();
        dialog_board.set_auto(defaults.auto_dialogs);
        dialog_board.gate = safety.gate.clone();
        let output =
            crate::bounds::OutputRules::new(defaults.content_boundaries, defaults.max_output);
        let emulation: crate::emulation::Shared =
            Arc::new(Mutex::new(crate::emulation::State::from_launch(&defaults)));
        let domains = crate::domains::Guard::from_launch(&defaults);
        let restore = crate::state::restore::Restore::new(defaults.restore.clone(), &info.name);
        let mut parts = crate::parts::Parts::default();
        parts.insert(safety);
        parts.insert(dialog_board);
        parts.insert(crate::events::NetworkBoard::default());
        parts.insert(emulation);
        parts.insert(crate::state::Origins::default());
        parts.insert(domains);
        parts.insert(output);
        parts.insert(restore);
        parts.insert(Mutex::new(crate::trace::Tracer::default()));
        Engine {
            hooks: crate::hook::TargetHooks::for_launch(&defaults),
            info,
            defaults,
            browser: None,
            frames: Default::default(),
            parts,
            dispatch,
            closed: false,
            lost_attach: None,
        }
    }
}

/// Runs a command's handler (the session's [`crate::cx::Dispatch`]).
fn dispatch<'a>(
    command: agentbrowser_protocol::Command,
    cx: &'a mut Cx<'_>,
) -> futures::future::BoxFuture<'a, Result<Output>> {
    Box::pin(crate::handlers::dispatch(command, cx))
}
