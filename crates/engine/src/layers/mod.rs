//! How the session answers a request: a chain of layers around the command's handler, each
//! with one concern, in the order a request passes them:
//!
//! 1. trace (`crate::trace`): every command, its answer and its timing go to the hooks;
//! 2. bounds (`crate::bounds`): the content boundaries and the output limit of the answer;
//! 3. [`deadline`]: the request's timeout, and the limits its handler works within;
//! 4. [`watch`]: stop waiting when the page crashes, the browser goes away or a dialog opens;
//! 5. [`gates`]: the session is open, the domains and the action policy allow the command
//!    (`crate::policy`), no dialog blocks its tab;
//! 6. [`run`]: the command's handler (`crate::handlers`), then what follows a command (the
//!    restore's check after the first navigation, the notes of the request interception).
//!
//! After the deadline layer, a command that aimed while the video annotates actions gets its
//! title drawn (`crate::record::overlay`).

mod deadline;
mod gates;
mod run;
mod watch;

pub use deadline::Incoming;

use agentbrowser_protocol::{Command, IntoChecked, Response};
use serde_json::Value;
use tokio::time::Instant;

use crate::bounds::OutputRules;
use crate::cx::{Output, Scope};
use crate::error::EngineError;
use crate::recorder::{Begun, Board as Recorder};
use crate::session::Engine;
use crate::trace::Tracer;

impl Engine {
    /// Calls `hook` after every command with the command, its answer and its timing (the
    /// layer chain's trace hook: what HAR recording and notebooks use).
    pub fn on_command(&mut self, hook: impl FnMut(&crate::trace::TraceEntry<'_>) + Send + 'static) {
        self.tracer().add(Box::new(hook));
    }

    /// The trace layer's hooks.
    fn tracer(&mut self) -> &mut Tracer {
        self.part_mut::<std::sync::Mutex<Tracer>>()
            .get_mut()
            .unwrap_or_else(|e| e.into_inner())
    }

    /// The session's content boundaries and output limit (what a daemon applies to the
    /// answers it makes without the engine).
    pub fn output_rules(&self) -> OutputRules {
        self.part::<OutputRules>().clone()
    }

    /// Applies the session's content boundaries and output limit to `response`.
    pub fn bound(&self, response: &mut Response) {
        self.part::<OutputRules>()
            .apply(response, self.active_url().as_deref());
    }

    /// Runs one request and answers with its envelope; never panics on bad input. A request
    /// built in Rust is checked here (a parsed one was when it was parsed): one whose parameters
    /// are wrong is answered `invalid_argument`, as the parser answers it.
    pub async fn execute(&mut self, request: impl IntoChecked) -> Response {
        self.part::<Recorder>().clone().settle().await;
        let received = Instant::now();
        let traced = self.tracer().active().then(|| request.command().traced());
        let step = self.part::<Recorder>().begin(request.command(), received);
        match request.into_checked() {
            Ok(request) => {
                self.execute_traced(Incoming::at(request, received), traced, step)
                    .await
            }
            Err(refused) => {
                let mut response = refused.into_response();
                self.bound(&mut response);
                if let Some(command) = traced {
                    self.tracer().record(&command, &response, received);
                }
                self.end_step(step, &response);
                response
            }
        }
    }

    /// Runs a request that came in: its timeout counts from when it was received, so time
    /// spent waiting for the session (another client's command) is part of it, not added to it.
    pub async fn execute_received(&mut self, incoming: Incoming) -> Response {
        self.part::<Recorder>().clone().settle().await;
        let traced = self
            .tracer()
            .active()
            .then(|| incoming.request().command.traced());
        let step = self
            .part::<Recorder>()
            .begin(&incoming.request().command, incoming.received());
        self.execute_traced(incoming, traced, step).await
    }

    /// Runs a request that came in, then hands `traced` (the command as a trace keeps it, when
    /// a trace hook is on) to the trace hooks with the answer, and ends `step` of the session's
    /// trace (when one records).
    async fn execute_traced(
        &mut self,
        incoming: Incoming,
        traced: Option<Command>,
        step: Option<Begun>,
    ) -> Response {
        let received = incoming.received();
        let mut response = encoded(self.answer(incoming).await);
        self.bound(&mut response);
        if let Some(command) = traced {
            self.tracer().record(&command, &response, received);
        }
        self.end_step(step, &response);
        response
    }

    /// Ends a step of the session's trace with the answer, in the active tab as it is now.
    fn end_step(&self, step: Option<Begun>, response: &Response) {
        let Some(step) = step else { return };
        let recorder = self.part::<Recorder>().clone();
        let page = self.browser.as_ref().and_then(|b| b.active_attached());
        let tab = page.as_ref().map(|p| (p.tab_id.clone(), p.state().url));
        if let Some(owed) = recorder.finish(step, response, tab) {
            // The step's still and snapshot are taken while its answer goes out; the next
            // command waits for them.
            recorder.capture_after(owed, page);
        }
    }

    /// Runs a request that came in (as [`Engine::execute_received`]) and answers with its
    /// envelope as one JSON line, without the newline: the daemon's path. A typed result is
    /// written as JSON text once, with no JSON value built in between, unless the session's
    /// bounds must rewrite it (a marker word to neutralise, an answer over the output limit).
    pub async fn execute_line(&mut self, incoming: Incoming) -> String {
        if self.tracer().active() || self.part::<Recorder>().on() {
            return self.execute_received(incoming).await.to_line();
        }
        let response = self.answer(incoming).await;
        let json = match response.data.to_json() {
            Ok(json) => json,
            Err(e) => return failed(response.id, response.action, e).to_line(),
        };
        if !self
            .part::<OutputRules>()
            .keeps_json(&response.action, json.get())
        {
            let mut response = encoded(response);
            self.bound(&mut response);
            return response.to_line();
        }
        let mut response = response.map_data(|_| json);
        self.part::<OutputRules>()
            .apply_json(&mut response, self.active_url().as_deref());
        response.to_line()
    }

    /// The answer's future behind a box, made here: the dispatch of every command (its state
    /// machine is most of the engine) is compiled once, in this crate. A plain `async fn` here
    /// was compiled again in every crate that awaits `execute` (the CLI, the MCP server, each
    /// test binary): ~100 s of release codegen each on 2 cores.
    #[inline(never)]
    fn answer(
        &mut self,
        incoming: Incoming,
    ) -> std::pin::Pin<Box<dyn std::future::Future<Output = Response<Output>> + Send + '_>> {
        Box::pin(self.answer_now(incoming))
    }

    /// The layers from the deadline in: the command runs within its limits, watched.
    async fn answer_now(&mut self, incoming: Incoming) -> Response<Output> {
        let budget = deadline::Budget::of(self, &incoming);
        let request = incoming.request;
        let action = request.command.action();
        let scope = Scope {
            tab: request.tab.clone(),
            frame: request.frame.clone(),
            shows: request.command.shows_its_tab(),
        };
        let watch = watch::Watch::start(self, &request.command);
        let run = crate::warnings::collect(budget.bound(Box::pin(self.run(
            request.command,
            budget.limits,
            scope,
        ))));
        let mut notes = Vec::new();
        let result = tokio::select! {
            biased;
            (r, n) = run => {
                notes = n;
                r.unwrap_or_else(|_| Err(budget.timed_out(action)))
            }
            stop = watch.stopped() => Err(stop.error(self, action)),
        };
        // A command that ran in another tab than the active one showed that tab: no more.
        if let Some(b) = self.browser.as_mut() {
            b.end_lend().await;
        }
        deadline::after(self, &result);
        crate::record::overlay::command_ended(self, action, &result);
        match result {
            Ok(out) => {
                let mut r = Response::success(request.id, action, out);
                if !notes.is_empty() {
                    r.warning = Some(notes.join("; "));
                }
                r
            }
            Err(e) => {
                if e.code == agentbrowser_protocol::ErrorCode::BrowserClosed {
                    self.drop_dead_browser().await;
                }
                failed(request.id, action.to_string(), e).map_data(|v| Box::new(v) as Output)
            }
        }
    }
}

/// `response` with its data encoded as a JSON value; a result that cannot be encoded is an
/// `internal` failure.
fn encoded(response: Response<Output>) -> Response {
    match response.data.to_value() {
        Ok(v) => response.map_data(|_| v),
        Err(e) => failed(response.id, response.action, e),
    }
}

/// The failure envelope answering `id` and `action` with `e` (its details as the data).
fn failed(id: Value, action: String, e: EngineError) -> Response {
    let mut r = Response::failure(id, action, e.code, e.message);
    r.data = e.data.unwrap_or(Value::Null);
    r
}
