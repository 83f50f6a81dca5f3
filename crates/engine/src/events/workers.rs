//! The request logs of the session's service and shared workers. They belong to no tab: the
//! browser session auto-attaches them paused (crates/engine/src/hook.rs), and each gets its own
//! bounded log (enabled, with the target hook's interception, before it runs, so its install-time
//! requests are logged), kept after the worker stops so its requests can still be read. A tab's
//! `network requests` lists the requests of the workers of its origin (the origin of the tab's
//! page or of a popup it opened), each with source kind `service_worker` or `shared_worker` and
//! the worker's script URL. The newest [`WORKER_LOGS_KEPT`] workers' logs are kept.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex, MutexGuard};

use agentbrowser_cdp::Session;
use tokio::sync::oneshot;

use super::fetch::origin_of;
use super::network::{NetworkBoard, NetworkLog, Source, SourceKind};
use crate::hook::TargetHooks;

/// Service and shared workers whose logs are kept (the oldest worker's log goes first).
pub const WORKER_LOGS_KEPT: usize = 32;

/// One worker's request log.
#[derive(Debug, Clone)]
struct WorkerLog {
    /// The worker's origin (its script URL's).
    origin: String,
    /// The log (its entries say the worker's kind and script URL).
    log: NetworkLog,
}

#[derive(Debug, Default)]
struct Inner {
    logs: VecDeque<WorkerLog>,
    /// The task feeding each attached worker's log, by CDP session id: dropping the sender
    /// ends it.
    running: HashMap<String, oneshot::Sender<()>>,
    /// The session's HAR recordings, which get the workers' requests too.
    board: NetworkBoard,
}

/// The session's service and shared workers' request logs (cheap to clone).
#[derive(Debug, Clone, Default)]
pub(crate) struct WorkerLogs(Arc<Mutex<Inner>>);

impl WorkerLogs {
    fn lock(&self) -> MutexGuard<'_, Inner> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Feeds the session's HAR recordings (`board`) the workers' requests.
    pub(crate) fn record_to(&self, board: NetworkBoard) {
        self.lock().board = board;
    }

    /// Logs the worker auto-attached on `session` (CDP type `kind`, script `url`, `paused` on
    /// start): enables its `Network` domain, runs the target hook (interception, then the
    /// resume), and records its requests until it detaches. HAR recordings get its requests
    /// too.
    pub(crate) async fn attach(
        &self,
        session: Session,
        kind: &str,
        url: &str,
        hooks: &TargetHooks,
        paused: bool,
    ) {
        let source_kind = if kind == "shared_worker" {
            SourceKind::SharedWorker(url.to_string())
        } else {
            SourceKind::ServiceWorker(url.to_string())
        };
        let sid = session.id().unwrap_or_default().to_string();
        let board = self.lock().board.clone();
        let log = NetworkLog::new(&format!("{kind} {url}"), board);
        let (stop_tx, mut stop_rx) = oneshot::channel();
        {
            let mut w = self.lock();
            if w.logs.len() >= WORKER_LOGS_KEPT {
                w.logs.pop_front();
            }
            w.logs.push_back(WorkerLog {
                origin: origin_of(url).unwrap_or_default(),
                log: log.clone(),
            });
            w.running.insert(sid, stop_tx);
        }
        // Subscribed and enabled before the hook resumes it, so its first request is seen.
        let mut events = session.events();
        if let Err(e) = hooks.enable_request_log(&session).await {
            eprintln!("agentbrowser daemon: the request log of the {kind} {url} is off: {e}");
        }
        let _ = hooks.prepare(&session, kind, paused).await;
        let source = Source {
            session,
            kind: source_kind,
        };
        tokio::spawn(async move {
            loop {
                tokio::select! {
                    ev = events.recv() => match ev {
                        Some(ev) if NetworkLog::wanted(&ev.method) => log.record(&ev, &source),
                        Some(_) => {}
                        None => return,
                    },
                    _ = &mut stop_rx => return,
                }
            }
        });
    }

    /// The worker of session `sid` detached: its log stops growing (and is kept).
    pub(crate) fn detached(&self, sid: &str) {
        self.lock().running.remove(sid);
    }

    /// The logs of the workers of these origins.
    pub(crate) fn of_origins(&self, origins: &[String]) -> Vec<NetworkLog> {
        self.lock()
            .logs
            .iter()
            .filter(|w| !w.origin.is_empty() && origins.contains(&w.origin))
            .map(|w| w.log.clone())
            .collect()
    }

    /// Every worker's log.
    pub(crate) fn all(&self) -> Vec<NetworkLog> {
        self.lock().logs.iter().map(|w| w.log.clone()).collect()
    }
}
