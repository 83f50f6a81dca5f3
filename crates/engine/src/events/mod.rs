//! Page events by capability. The pump of a page hands each CDP event to the listeners that want
//! it; each listener keeps its own state (the load state waiters observe, a bounded log). The
//! core's listeners (load state, crashes, frames) come first, then those of the capabilities'
//! shares (`crate::share::PageShare::attach`): adding an event-driven capability (console,
//! network, dialogs) is one listener in its share.

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

/// What the session's action policy says of a prompt a page opens (a dialog, a download).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// It goes through.
    Allow,
    /// It is refused (a dialog dismissed, a download cancelled) by this rule.
    Deny(String),
    /// It waits for a person (a dialog stays open, even with `autoDialogs`).
    Confirm,
}

/// The action policy as the listeners of the page's prompts see it: they ask it and never
/// name the policy (the session's is the action policy's prompt gate, `safety/prompts.rs`).
pub trait Gate: Send + Sync + std::fmt::Debug {
    /// The verdict on a prompt of `category` (`dialog`, `download`) opened at `url` (the
    /// page's for a dialog, the file's for a download).
    fn decide(&self, category: &str, url: &str) -> Verdict;
}

/// No policy: every prompt goes through.
#[derive(Debug)]
pub struct Open;

impl Gate for Open {
    fn decide(&self, _category: &str, _url: &str) -> Verdict {
        Verdict::Allow
    }
}

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
    /// Every listener a page has: the core's (navigation and load state, crashes,
    /// out-of-process frames and dedicated workers, which the capabilities' shares of the page
    /// in `kit` follow too, with its state in `parts`), then the capabilities' (`shares`).
    pub(crate) fn for_page(
        session: &Session,
        state: &Arc<watch::Sender<PageState>>,
        kit: &crate::share::PageKit,
        parts: &Arc<crate::parts::Parts>,
        shares: Vec<Box<dyn Listener>>,
    ) -> Listeners {
        let children = frames::Children {
            hooks: kit.hooks.clone(),
            shares: kit.shares.clone(),
            parts: parts.clone(),
        };
        let mut all: Vec<Box<dyn Listener>> = vec![
            Box::new(lifecycle::Lifecycle::new(state.clone())),
            Box::new(crash::Crash::new(state.clone())),
            Box::new(frames::Frames::new(
                session.clone(),
                state.clone(),
                children,
            )),
            Box::new(frames::Contexts::new(state.clone())),
        ];
        all.extend(shares);
        Listeners(all)
    }

    /// The listeners of a browser-wide event stream.
    pub(crate) fn of(listeners: Vec<Box<dyn Listener>>) -> Listeners {
        Listeners(listeners)
    }

    /// Feeds every event of `events` to the listeners that want it, until the stream ends.
    pub(crate) async fn pump(mut self, mut events: tokio::sync::mpsc::UnboundedReceiver<Event>) {
        while let Some(ev) = events.recv().await {
            self.dispatch(&ev);
        }
        for l in &mut self.0 {
            l.on_end();
        }
    }

    /// Hands `ev` to the listeners that want it, in order.
    pub(crate) fn dispatch(&mut self, ev: &Event) {
        for l in self.0.iter_mut().filter(|l| l.wants(&ev.method)) {
            l.on_event(ev);
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
