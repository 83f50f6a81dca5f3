//! The trace hook: the last layer around every command. Each hook sees the command as it ran,
//! its answer and its timing, after the answer is final (bounded, warnings set). HAR recording
//! and code-mode notebooks plug in here; a library user can too (`Engine::on_command`).

use std::time::Duration;

use agentbrowser_protocol::{Command, Response};
use tokio::time::Instant;

/// One command as it ran.
pub struct TraceEntry<'a> {
    /// The command (parameters as given).
    pub command: &'a Command,
    /// Its answer, as the client receives it.
    pub response: &'a Response,
    /// When the request was received.
    pub received: Instant,
    /// How long it took from receipt to answer.
    pub elapsed: Duration,
}

/// A hook called after every command.
pub type TraceHook = Box<dyn FnMut(&TraceEntry<'_>) + Send>;

/// The hooks of one engine, called in the order they were added.
#[derive(Default)]
pub(crate) struct Tracer(Vec<TraceHook>);

impl Tracer {
    /// Adds a hook.
    pub(crate) fn add(&mut self, hook: TraceHook) {
        self.0.push(hook);
    }

    /// Whether any hook listens (the command is only kept for them when one does).
    pub(crate) fn active(&self) -> bool {
        !self.0.is_empty()
    }

    /// Hands one finished command to every hook.
    pub(crate) fn record(&mut self, command: &Command, response: &Response, received: Instant) {
        let entry = TraceEntry {
            command,
            response,
            received,
            elapsed: received.elapsed(),
        };
        for hook in &mut self.0 {
            hook(&entry);
        }
    }
}
