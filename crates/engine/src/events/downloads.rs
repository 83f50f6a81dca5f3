//! Downloads, browser-wide: the browser saves each one in the session's download directory
//! under its guid (`Browser.setDownloadBehavior` with `allowAndName`), and this listener follows
//! `Browser.downloadWillBegin` and `Browser.downloadProgress` into a bounded log. `download` and
//! `wait --download` claim an entry once it is complete (never a partial file).

use std::collections::VecDeque;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use agentbrowser_cdp::Event;
use serde_json::Value;
use tokio::sync::watch;

use super::{Listener, str_field};

/// Downloads kept per session (the oldest unclaimed ones fall off first).
const DOWNLOADS_KEPT: usize = 32;

/// Where a download stands.
#[derive(Debug, Clone, PartialEq)]
pub enum DownloadState {
    /// Receiving: bytes so far, and the total when known (0 when not).
    InProgress {
        /// Bytes received so far.
        received: u64,
        /// Total bytes (0 when unknown).
        total: u64,
    },
    /// Complete on disk.
    Completed {
        /// Where the browser wrote it (its guid in the download directory).
        file: PathBuf,
    },
    /// Canceled or failed (the browser says `canceled` for both).
    Canceled,
}

/// One download of the session.
#[derive(Debug, Clone, PartialEq)]
pub struct DownloadEntry {
    /// Its sequence number in the session (0 for the first).
    pub seq: u64,
    /// The browser's id for it (also its file name in the download directory).
    pub guid: String,
    /// The URL it comes from.
    pub url: String,
    /// The filename the server or page suggested.
    pub suggested_filename: String,
    /// Where it stands.
    pub state: DownloadState,
    /// Whether a `download` or `wait --download` already took it.
    pub claimed: bool,
    /// The action policy rule that cancelled it as it began, if one did.
    pub denied_by: Option<String>,
}

#[derive(Debug, Default)]
struct Log {
    entries: VecDeque<DownloadEntry>,
    next: u64,
}

/// The session's downloads and the directory they land in; shared by the browser and its
/// listener. Each change bumps a counter that waiters watch.
#[derive(Debug, Clone)]
pub struct Downloads {
    log: Arc<Mutex<Log>>,
    changed: Arc<watch::Sender<u64>>,
    /// The directory the browser saves downloads in.
    pub dir: PathBuf,
    /// The browser's session and the action policy's prompt gate: a download the policy
    /// denies (category `download`, the file URL's host) is cancelled as it begins.
    pub gate: Option<(agentbrowser_cdp::Session, Arc<dyn super::Gate>)>,
}

impl Downloads {
    /// An empty log for downloads saved in `dir`.
    pub fn new(dir: PathBuf) -> Downloads {
        Downloads {
            log: Arc::default(),
            changed: Arc::new(watch::channel(0).0),
            dir,
            gate: None,
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Log> {
        self.log.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The sequence number the next download will get: downloads from here on are "after now".
    pub fn cursor(&self) -> u64 {
        self.lock().next
    }

    /// A receiver that wakes on every change of the log.
    pub fn watch(&self) -> watch::Receiver<u64> {
        self.changed.subscribe()
    }

    /// The oldest unclaimed download numbered `from` or later, as it stands now.
    pub fn first_unclaimed(&self, from: u64) -> Option<DownloadEntry> {
        self.lock()
            .entries
            .iter()
            .find(|e| e.seq >= from && !e.claimed)
            .cloned()
    }

    /// Marks download `seq` as taken.
    pub fn claim(&self, seq: u64) {
        if let Some(e) = self.lock().entries.iter_mut().find(|e| e.seq == seq) {
            e.claimed = true;
        }
    }

    fn update(&self, f: impl FnOnce(&mut Log)) {
        f(&mut self.lock());
        self.changed.send_modify(|n| *n += 1);
    }
}

/// Follows the browser's download events into `Downloads`.
pub(crate) struct DownloadEvents(pub(crate) Downloads);

impl Listener for DownloadEvents {
    fn wants(&self, method: &str) -> bool {
        method == "Browser.downloadWillBegin" || method == "Browser.downloadProgress"
    }

    fn on_event(&mut self, ev: &Event) {
        let p = &ev.params;
        let guid = str_field(p, "guid");
        let dir = self.0.dir.clone();
        if ev.method == "Browser.downloadWillBegin" {
            let url = str_field(p, "url");
            let denied_by =
                self.0
                    .gate
                    .as_ref()
                    .and_then(|(browser, g)| match g.decide("download", &url) {
                        super::Verdict::Deny(rule) => Some((browser.clone(), rule)),
                        _ => None,
                    });
            if let Some((browser, _)) = &denied_by {
                let (browser, guid) = (browser.clone(), guid.clone());
                tokio::spawn(async move {
                    let _ = browser
                        .call("Browser.cancelDownload", serde_json::json!({"guid": guid}))
                        .await;
                });
            }
            let denied_by = denied_by.map(|(_, rule)| rule);
            let denied = denied_by.is_some();
            self.0.update(|log| {
                let seq = log.next;
                log.next += 1;
                while log.entries.len() >= DOWNLOADS_KEPT {
                    log.entries.pop_front();
                }
                log.entries.push_back(DownloadEntry {
                    seq,
                    guid,
                    url: str_field(p, "url"),
                    suggested_filename: str_field(p, "suggestedFilename"),
                    state: if denied {
                        DownloadState::Canceled
                    } else {
                        DownloadState::InProgress {
                            received: 0,
                            total: 0,
                        }
                    },
                    claimed: false,
                    denied_by,
                });
            });
            return;
        }
        let n = |k: &str| p.get(k).and_then(Value::as_f64).unwrap_or(0.0) as u64;
        let state = match p.get("state").and_then(Value::as_str) {
            Some("completed") => DownloadState::Completed {
                file: p
                    .get("filePath")
                    .and_then(Value::as_str)
                    .filter(|f| !f.is_empty())
                    .map(PathBuf::from)
                    .unwrap_or_else(|| dir.join(&guid)),
            },
            Some("canceled") => DownloadState::Canceled,
            _ => DownloadState::InProgress {
                received: n("receivedBytes"),
                total: n("totalBytes"),
            },
        };
        self.0.update(|log| {
            if let Some(e) = log.entries.iter_mut().find(|e| e.guid == guid)
                && !matches!(
                    e.state,
                    DownloadState::Completed { .. } | DownloadState::Canceled
                )
            {
                e.state = state;
            }
        });
    }
}
