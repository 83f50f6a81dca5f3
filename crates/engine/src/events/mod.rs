//! Page events by capability. The pump of a page hands each CDP event to the listeners that want
//! it; each listener keeps its own state (the load state waiters observe, a bounded log). Adding
//! an event-driven capability (console, network, downloads, WebMCP) is one listener here and one
//! line in `Listeners::for_page`.

pub mod console;
mod crash;
pub mod dialogs;
pub mod downloads;
pub(crate) mod fetch;
pub mod files;
pub(crate) mod frames;
mod lifecycle;
pub mod network;
mod render;
pub mod ring;
pub(crate) mod workers;

use std::sync::Arc;

use agentbrowser_cdp::{Event, Session};
use serde_json::Value;
use tokio::sync::watch;

use crate::page::PageState;

pub use console::{DiagCursor, DiagnosticsLog};
pub use dialogs::{DialogBoard, DialogLog};
pub use downloads::Downloads;
pub use files::FileChoosers;
pub use network::{NetworkBoard, NetworkLog};
pub use ring::Ring;

/// One capability's share of a page's events.
pub(crate) trait Listener: Send {
    /// Whether this listener handles events named `method`.
    fn wants(&self, method: &str) -> bool;
    /// Handles one event it wants.
    fn on_event(&mut self, ev: &Event);
    /// The page's event stream ended (target gone, connection closed).
    fn on_end(&mut self) {}
}

/// The listeners of one page, in the order they see each event.
pub(crate) struct Listeners(Vec<Box<dyn Listener>>);

impl Listeners {
    /// Every listener a page has: navigation and load state, crashes, out-of-process frames,
    /// dialogs (logged in `dialogs`), file choosers (in `choosers`), console messages and page errors (in `diagnostics`, also
    /// those of the out-of-process frames), requests (in `network`, also those of the frames).
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn for_page(
        session: &Session,
        state: &Arc<watch::Sender<PageState>>,
        dialogs: &DialogLog,
        diagnostics: &DiagnosticsLog,
        choosers: &FileChoosers,
        network: &NetworkLog,
        main_frame: &str,
        hooks: &crate::hook::TargetHooks,
    ) -> Listeners {
        Listeners(vec![
            Box::new(lifecycle::Lifecycle::new(state.clone())),
            Box::new(crash::Crash::new(state.clone())),
            Box::new(frames::Frames::new(
                session.clone(),
                state.clone(),
                diagnostics.clone(),
                network.clone(),
                hooks.clone(),
            )),
            Box::new(frames::Contexts::new(state.clone())),
            Box::new(dialogs::Dialogs::new(session.clone(), dialogs.clone())),
            Box::new(files::Choosers(choosers.clone())),
            Box::new(console::Console(console::Recorder::new(
                session.clone(),
                diagnostics.clone(),
            ))),
            Box::new(network::NetworkEvents {
                log: network.clone(),
                source: network::Source {
                    session: session.clone(),
                    kind: network::SourceKind::Page {
                        main_frame: main_frame.to_string(),
                    },
                },
            }),
        ])
    }

    /// The browser-wide listeners: downloads (logged in `downloads`).
    pub(crate) fn for_browser(downloads: &Downloads) -> Listeners {
        Listeners(vec![Box::new(downloads::DownloadEvents(downloads.clone()))])
    }

    /// Feeds every event of `events` to the listeners that want it, until the stream ends.
    pub(crate) async fn pump(mut self, mut events: tokio::sync::mpsc::UnboundedReceiver<Event>) {
        while let Some(ev) = events.recv().await {
            for l in self.0.iter_mut().filter(|l| l.wants(&ev.method)) {
                l.on_event(&ev);
            }
        }
        for l in &mut self.0 {
            l.on_end();
        }
    }
}

/// A string field of an event's parameters ("" when absent: CDP omits empty optional fields).
pub(crate) fn str_field(v: &Value, key: &str) -> String {
    v.get(key)
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_string()
}
