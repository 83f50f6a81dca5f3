//! Crashes and detaches: what makes a running command stop waiting at once.

use std::sync::Arc;

use agentbrowser_cdp::Event;
use tokio::sync::watch;

use super::Listener;
use crate::page::PageState;

/// Marks the page crashed (renderer gone) or detached (target or connection gone).
pub(crate) struct Crash {
    state: Arc<watch::Sender<PageState>>,
}

impl Crash {
    pub(crate) fn new(state: Arc<watch::Sender<PageState>>) -> Crash {
        Crash { state }
    }
}

impl Listener for Crash {
    fn wants(&self, method: &str) -> bool {
        matches!(method, "Inspector.targetCrashed" | "Inspector.detached")
    }

    fn on_event(&mut self, ev: &Event) {
        let crashed = ev.method == "Inspector.targetCrashed";
        self.state.send_modify(|s| {
            if crashed {
                s.crashed = true;
            } else {
                s.detached = true;
            }
        });
    }

    fn on_end(&mut self) {
        self.state.send_modify(|s| s.detached = true);
    }
}
