//! What capabilities add to the page core, registered once per session (`capabilities.rs`): their
//! share of every page (state, event listeners, setup calls) and what they set up on every
//! browser the session starts. The core runs each share in turn and never names the capability,
//! as chromiumoxide hands each CDP domain's events to its own handler.

use std::sync::Arc;
use std::sync::atomic::AtomicU64;

use agentbrowser_cdp::Session;
use agentbrowser_protocol::LaunchParams;
use futures::future::BoxFuture;

use crate::browser::Browser;
use crate::cx::Cx;
use crate::error::Result;
use crate::events::Listener;
use crate::hook::TargetHooks;
use crate::page::Page;
use crate::parts::Parts;
use crate::session::Engine;

/// A page being attached, as its shares see it before it is built.
pub(crate) struct Attaching<'a> {
    /// The page target's session.
    pub session: &'a Session,
    /// The tab id the page is bound to.
    pub tab_id: &'a str,
    /// The page target's id (its main frame's id).
    pub target_id: &'a str,
    /// Whether the target waits for the debugger (a popup auto-attached at birth): its setup
    /// calls are sent before it is resumed, so its first document sees them.
    pub paused: bool,
    /// The session's per-target setup.
    pub hooks: &'a TargetHooks,
    /// The browser's own user agent.
    pub user_agent: &'a str,
}

/// The kind of a page's child target (auto-attached through the page's session, or through an
/// out-of-process frame's).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Child {
    /// An out-of-process iframe, at any depth.
    Iframe,
    /// A dedicated worker.
    Worker,
}

/// A capability's share of one child target of a page: calls to send before the target is set
/// up (and resumed), and the listener of its events.
#[derive(Default)]
pub(crate) struct ChildShare {
    /// Sent before the target hook sets the target up.
    pub setup: Option<BoxFuture<'static, Result<()>>>,
    /// Sees the target's events (after the core's, in the order shares are registered).
    pub listener: Option<Box<dyn Listener>>,
}

/// One capability's share of every page the session attaches.
pub(crate) trait PageShare: Send + Sync + std::fmt::Debug {
    /// Puts the capability's state for the page in `parts`, and its event listeners in
    /// `listeners` (they see each event after the core's, in the order shares are registered).
    fn attach(
        &self,
        page: &Attaching<'_>,
        parts: &mut Parts,
        listeners: &mut Vec<Box<dyn Listener>>,
    ) {
        let _ = (page, parts, listeners);
    }

    /// The capability's calls in the page's setup batch (all sent at once, before a paused
    /// page is resumed); `parts` holds every share's state.
    fn setup<'a>(
        &'a self,
        page: &'a Attaching<'a>,
        parts: &'a Parts,
    ) -> Option<BoxFuture<'a, Result<()>>> {
        let _ = (page, parts);
        None
    }

    /// The capability's share of a child target of the page (of `kind`, attached on `session`);
    /// `parts` holds the page's state, `hooks` the per-target setup.
    fn child(
        &self,
        parts: &Parts,
        session: &Session,
        kind: Child,
        hooks: &TargetHooks,
    ) -> ChildShare {
        let _ = (parts, session, kind, hooks);
        ChildShare::default()
    }

    /// What the capability does once the page is built (`paused`: it was set up paused;
    /// `user_agent`: the browser's own).
    fn attached<'a>(
        &'a self,
        page: &'a Page,
        paused: bool,
        user_agent: &'a str,
    ) -> Option<BoxFuture<'a, Result<()>>> {
        let _ = (page, paused, user_agent);
        None
    }
}

/// What every page of the session is made with: the session-wide parts every tab shares
/// (cheap to clone; the browser and its popup hook hold one each).
#[derive(Debug, Clone, Default)]
pub(crate) struct PageKit {
    /// The session's ref counter: ref ids are unique within a session, never reused.
    pub ref_counter: Arc<AtomicU64>,
    /// The browser's own user agent.
    pub user_agent: String,
    /// The per-target setup (interception, request log).
    pub hooks: TargetHooks,
    /// The capabilities' shares of each page, in the order they run.
    pub shares: Arc<[Arc<dyn PageShare>]>,
}

/// What a capability sets up on a browser the session starts, before it becomes the session's
/// (a failure fails the start); `launch` is the `launch` command that starts it, if one does.
pub(crate) type LaunchHook =
    for<'a> fn(&'a mut Browser, &'a Engine, Option<&'a LaunchParams>) -> BoxFuture<'a, Result<()>>;

/// What a capability does once the session's new browser is its own (before the command that
/// started it goes on); what fails is its own to report.
pub(crate) type StartedHook = for<'a, 'b> fn(&'a mut Cx<'b>) -> BoxFuture<'a, ()>;

/// How the session starts its browser when a command first needs one (attached or launched, as
/// its options say): registered by the capability that launches browsers.
pub(crate) type StartHook = for<'a, 'b> fn(&'a mut Cx<'b>) -> BoxFuture<'a, Result<Browser>>;

/// Every capability's share, registered once when the session is made.
#[derive(Debug, Clone, Default)]
pub(crate) struct Shares {
    /// Shares of every page.
    pub pages: Arc<[Arc<dyn PageShare>]>,
    /// Set up on every browser the session starts, in order.
    pub on_launch: Vec<LaunchHook>,
    /// Run once the new browser is the session's, in order.
    pub on_started: Vec<StartedHook>,
}

/// The share of a capability that only keeps a `T` for each page, fresh (its default) for
/// every page.
pub(crate) struct Keep<T>(std::marker::PhantomData<fn() -> T>);

/// The share that keeps a fresh `T` for each page.
pub(crate) fn keep<T: Default + Send + Sync + 'static>() -> Arc<dyn PageShare> {
    Arc::new(Keep::<T>(std::marker::PhantomData))
}

impl<T> std::fmt::Debug for Keep<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Keep<{}>", std::any::type_name::<T>())
    }
}

impl<T: Default + Send + Sync + 'static> PageShare for Keep<T> {
    fn attach(
        &self,
        _page: &Attaching<'_>,
        parts: &mut Parts,
        _listeners: &mut Vec<Box<dyn Listener>>,
    ) {
        parts.insert(T::default());
    }
}
