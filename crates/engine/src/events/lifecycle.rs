//! Navigation and load state of the main frame: lifecycle events per document, the document's
//! HTTP status, whether it is loading, and counters that tell a waiter something began.

use std::sync::Arc;

use agentbrowser_cdp::Event;
use serde_json::Value;
use tokio::sync::watch;

use super::{Listener, str_field};
use crate::page::{LOADERS_KEPT, PageState};

/// Keeps the main frame's navigation and load state in the page's observed state.
pub(crate) struct Lifecycle {
    state: Arc<watch::Sender<PageState>>,
}

impl Lifecycle {
    pub(crate) fn new(state: Arc<watch::Sender<PageState>>) -> Lifecycle {
        Lifecycle { state }
    }
}

impl Listener for Lifecycle {
    fn wants(&self, method: &str) -> bool {
        matches!(
            method,
            "Page.lifecycleEvent"
                | "Page.frameNavigated"
                | "Page.navigatedWithinDocument"
                | "Network.responseReceived"
                | "Page.frameStartedLoading"
                | "Page.frameRequestedNavigation"
                | "Page.frameStoppedLoading"
        )
    }

    fn on_event(&mut self, ev: &Event) {
        let p = &ev.params;
        match ev.method.as_str() {
            "Page.lifecycleEvent" => {
                let frame = str_field(p, "frameId");
                let loader = str_field(p, "loaderId");
                let name = str_field(p, "name");
                self.state.send_modify(|s| {
                    if s.main_frame_id.is_empty() || s.main_frame_id == frame {
                        let events = s.lifecycle_mut(&loader);
                        if name == "init" {
                            events.clear();
                        }
                        events.push(name);
                    }
                });
            }
            "Page.frameNavigated" => {
                let frame = p.get("frame").cloned().unwrap_or(Value::Null);
                if frame.get("parentId").is_some() {
                    return;
                }
                let restored = str_field(p, "type") == "BackForwardCacheRestore";
                self.state.send_modify(|s| {
                    s.main_frame_id = str_field(&frame, "id");
                    s.loader_id = str_field(&frame, "loaderId");
                    s.url = str_field(&frame, "url");
                    s.document_seq += 1;
                    if restored {
                        let loader = s.loader_id.clone();
                        s.lifecycle_mut(&loader).push("__restored".into());
                    }
                });
            }
            "Page.navigatedWithinDocument" => {
                let frame = str_field(p, "frameId");
                let url = str_field(p, "url");
                self.state.send_modify(|s| {
                    if s.main_frame_id == frame {
                        s.url = url;
                    }
                });
            }
            "Network.responseReceived" if str_field(p, "type") == "Document" => {
                let loader = str_field(p, "loaderId");
                let status = p
                    .get("response")
                    .and_then(|r| r.get("status"))
                    .and_then(Value::as_i64);
                if let (true, Some(status)) = (str_field(p, "requestId") == loader, status) {
                    self.state.send_modify(|s| {
                        if s.statuses.len() == LOADERS_KEPT {
                            s.statuses.pop_front();
                        }
                        s.statuses.push_back((loader, status));
                    });
                }
            }
            "Page.frameStartedLoading" | "Page.frameRequestedNavigation" => {
                let frame = str_field(p, "frameId");
                let started = ev.method == "Page.frameStartedLoading";
                self.state.send_modify(|s| {
                    if s.main_frame_id == frame {
                        s.nav_started_seq += 1;
                        if started {
                            s.loading = true;
                        }
                    }
                });
            }
            "Page.frameStoppedLoading" => {
                let frame = str_field(p, "frameId");
                self.state.send_modify(|s| {
                    if s.main_frame_id == frame {
                        s.loading = false;
                    }
                });
            }
            _ => {}
        }
    }
}
