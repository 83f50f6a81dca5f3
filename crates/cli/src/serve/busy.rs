//! The answers the daemon gives while the engine runs another client's command, to the
//! commands whose entry in the protocol's command list says `busy: true`: made from the state
//! the last command left, without waiting for the engine. Each such command has its function
//! here under its variant name; the dispatch is generated from the command list, so a command
//! marked `busy` without a function here does not compile.

use agentbrowser_engine::diagnostics::{read_console, read_errors};
use agentbrowser_engine::events::DiagnosticsLog;
use agentbrowser_protocol::{Busy, Command, ConsoleParams, ErrorsParams, NoParams, WatchParams};
use serde_json::Value;

use super::Shared;

use self::{console as Console, errors as Errors, status as Status, watch as Watch};

/// What one function here answers: `None` when it cannot answer without the engine (the
/// command then waits its turn), else its result (or the error of encoding it).
type Answer = Option<serde_json::Result<Value>>;

/// `status`: the one the last command left, with the action running now.
fn status(_: &NoParams, shared: &Shared) -> Answer {
    let running = shared
        .running
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .clone();
    let mut status = shared
        .last_status
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .clone();
    status.busy = Some(Busy { action: running });
    Some(serde_json::to_value(status))
}

/// `console`: read from the buffers of the tab that was active when the last command ended
/// (the answer names it); `None` before a tab was attached.
fn console(p: &ConsoleParams, shared: &Shared) -> Answer {
    let (tab, log) = last_buffers(shared)?;
    Some(serde_json::to_value(read_console(&tab, &log, p)))
}

/// `errors`: as `console`.
fn errors(p: &ErrorsParams, shared: &Shared) -> Answer {
    let (tab, log) = last_buffers(shared)?;
    Some(serde_json::to_value(read_errors(&tab, &log, p)))
}

/// `watch`: what the live feed holds now (the daemon answers `watch` itself before this, waiting
/// for news without the engine: `super::live`).
fn watch(p: &WatchParams, shared: &Shared) -> Answer {
    Some(serde_json::to_value(super::live::answer(
        shared,
        &shared.live,
        p,
    )))
}

/// The tab that was active when the last command ended, and its console and error buffers
/// (`None` before a tab was attached).
fn last_buffers(shared: &Shared) -> Option<(String, DiagnosticsLog)> {
    shared
        .diagnostics
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .clone()
}

/// The function of a command whose facts (`$($facts)*`) say `busy: true`, or `None`.
macro_rules! busy_arm {
    ($variant:ident, $p:ident, $shared:ident; busy: true $($rest:tt)*) => {
        $variant($p, $shared)
    };
    ($variant:ident, $p:ident, $shared:ident; $skip:tt $($rest:tt)*) => {
        busy_arm!($variant, $p, $shared; $($rest)*)
    };
    ($variant:ident, $p:ident, $shared:ident;) => {
        None
    };
}

/// Defines [`answer`] from the protocol's list of commands.
macro_rules! define_answer {
    ($( $(#[doc = $doc:literal])* $variant:ident($params:ty) -> $output:ty => $name:literal [$kind:ident $(| $script:ident)?] $({ $($facts:tt)* })? ),+ $(,)?) => {
        /// The answer to `command` made without the engine, if it is one the daemon answers
        /// while busy and can answer now.
        pub(super) fn answer(command: &Command, shared: &Shared) -> Answer {
            match command {
                $(Command::$variant(_p) => busy_arm!($variant, _p, shared; $($($facts)*)?),)+
            }
        }
    };
}
agentbrowser_protocol::for_each_command!(define_answer);
