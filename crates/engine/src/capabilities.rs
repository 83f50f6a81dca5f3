//! The session's capabilities, registered with the core: the state each keeps in the session
//! (found by its type: [`crate::parts::Parts`]), their share of every page (state, event
//! listeners, setup calls: [`crate::share::PageShare`]), what they set up on every browser the
//! session starts, and the dispatch of their commands (`crate::handlers`). The core (`session`,
//! `cx`, `browser`, `page`) never names a capability; this module does, once, when a session
//! is made.

use std::sync::{Arc, Mutex};

use crate::cx::{Cx, Output};
use crate::error::Result;
use crate::launch::LaunchOptions;
use crate::session::{Engine, SessionInfo};
use crate::share::{Shares, keep};

impl Engine {
    /// A session that launches with `defaults` when a command first needs a browser.
    pub fn new(info: SessionInfo, defaults: LaunchOptions) -> Engine {
        let safety = crate::safety::Safety::new(&defaults.policy);
        let mut dialog_board = crate::events::DialogBoard::default();
        dialog_board.set_auto(defaults.auto_dialogs);
        dialog_board.gate = Arc::new(safety.gate.clone());
        let hooks = crate::hook::TargetHooks::for_launch(&defaults);
        let trace = crate::recorder::Board::default();
        let network_board = crate::events::NetworkBoard::with_trace(trace.clone());
        hooks.workers.record_to(network_board.clone());
        let output =
            crate::bounds::OutputRules::new(defaults.content_boundaries, defaults.max_output);
        let emulation: crate::emulation::Shared =
            Arc::new(Mutex::new(crate::emulation::State::from_launch(&defaults)));
        let domains = crate::domains::Guard::from_launch(&defaults);
        let restore = crate::state::restore::Restore::new(defaults.restore.clone(), &info.name);
        let shares = Shares {
            // In the order they see each page's events and send its setup calls.
            pages: Arc::new([
                Arc::new(crate::events::dialogs::DialogShare(dialog_board.clone())),
                Arc::new(crate::events::files::ChooserShare),
                Arc::new(crate::events::console::ConsoleShare(trace.clone())),
                Arc::new(crate::events::network::NetworkShare(network_board.clone())),
                keep::<Mutex<crate::capture::Baselines>>(),
                keep::<Mutex<crate::input::Pointer>>(),
                keep::<Mutex<crate::reach::Handed>>(),
                keep::<crate::actions::CutGuard>(),
                keep::<crate::actions::Delivered>(),
                Arc::new(crate::webmcp::WebMcpShare),
                Arc::new(crate::recorder::TraceShare(trace.clone())),
                // Last: a paused page gets the emulation and init scripts after every other
                // capability's setup calls.
                Arc::new(crate::emulation::EmulationShare(emulation.clone())),
            ]),
            on_launch: vec![
                crate::files::on_launch,
                crate::emulation::on_launch,
                crate::state::on_launch,
            ],
            on_started: vec![
                crate::state::restore::on_started,
                crate::screencast::on_started,
            ],
        };
        let mut parts = crate::parts::Parts::default();
        parts.insert(safety);
        parts.insert(dialog_board);
        parts.insert(network_board);
        parts.insert(crate::profiler::Board::default());
        parts.insert(trace);
        parts.insert(crate::screencast::Screencast::default());
        parts.insert(crate::record::Board::default());
        parts.insert(crate::record::overlay::Overlays::default());
        parts.insert(crate::live::LiveFeed::default());
        parts.insert(emulation);
        parts.insert(crate::state::Origins::default());
        parts.insert(domains);
        parts.insert(output);
        parts.insert(restore);
        parts.insert(Mutex::new(crate::trace::Tracer::default()));
        Engine {
            hooks,
            info,
            defaults,
            browser: None,
            frames: Default::default(),
            parts,
            dispatch,
            start: crate::control::start,
            shares,
            closed: false,
            lost_attach: None,
        }
    }
}

/// Runs a command's handler (the session's [`crate::cx::Dispatch`]).
fn dispatch<'a>(
    command: agentbrowser_protocol::Checked,
    cx: &'a mut Cx<'_>,
) -> futures::future::BoxFuture<'a, Result<Output>> {
    Box::pin(crate::handlers::dispatch(command, cx))
}
