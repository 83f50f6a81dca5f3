//! Allowed domains of a session, enforced in three places: Chromium's own proxy settings (every
//! request of the browser to a host outside the list goes to a dead proxy: WebSocket, workers'
//! first requests, preconnect and WebRTC included; [`browser`]), request interception on every
//! attached target (`crate::events::fetch`, which fails such requests as blocked by the client
//! and counts them), and the commands, whose URLs are checked before they run ([`commands`]).
//! URLs that reach local files or the browser's own pages ([`schemes`]) are refused the same
//! two ways (commands, and the page's `file:` requests) unless the session allows file access.

pub(crate) mod browser;
pub(crate) mod commands;
pub(crate) mod schemes;

use std::sync::Arc;

use agentbrowser_protocol::{DomainList, ErrorCode};

use crate::error::EngineError;

/// The session's allowed domains and file access (cheap to clone).
#[derive(Debug, Clone, Default)]
pub struct Guard {
    /// The allowed hosts (`None`: every host).
    pub list: Option<Arc<DomainList>>,
    /// Whether URLs that reach local files or the browser's own pages may be opened
    /// (`file:`, `view-source:file:`, `chrome:`, ...: [`schemes`]).
    pub allow_file_access: bool,
}

/// The guard a `launch` with `p` gives the session launched with `defaults`: the launch's
/// allowed domains, else the session's; a launch cannot change a list the session started with,
/// nor attach (`attached`) while a list is set.
pub(crate) fn launch_guard(
    p: &agentbrowser_protocol::LaunchParams,
    defaults: &crate::launch::LaunchOptions,
    attached: bool,
) -> crate::error::Result<Guard> {
    let asked = p
        .allowed_domains
        .as_ref()
        .map(|d| DomainList::parse(d))
        .transpose()
        .map_err(|e| EngineError::invalid(format!("invalid parameter `allowedDomains`: {e}")))?;
    let list = match (defaults.allowed_domains.clone(), asked) {
        (Some(d), Some(a)) if d != a => {
            return Err(EngineError::invalid(format!(
                "invalid parameter `allowedDomains`: the session was started with allowed domains ({d}); a launch cannot change them"
            )));
        }
        (d, a) => a.or(d),
    };
    if attached && let Some(list) = &list {
        return Err(EngineError::invalid(format!(
            "the session has allowed domains ({list}), which cannot be combined with an attach to a browser started elsewhere (`cdpUrl`/`cdpPort`)"
        )));
    }
    Ok(Guard {
        list: list.map(Arc::new),
        allow_file_access: p.allow_file_access.unwrap_or(defaults.allow_file_access),
    })
}

impl Guard {
    /// The guard of a session launched with `options`.
    pub(crate) fn from_launch(options: &crate::launch::LaunchOptions) -> Guard {
        Guard {
            list: options.allowed_domains.clone().map(Arc::new),
            allow_file_access: options.allow_file_access,
        }
    }

    /// Refuses an attach to a browser started elsewhere while allowed domains are set.
    pub(crate) fn refuse_attach(&self) -> crate::error::Result<()> {
        match &self.list {
            Some(list) => Err(EngineError::invalid(format!(
                "the session has allowed domains ({list}), which cannot be combined with an attach to a browser started elsewhere"
            ))),
            None => Ok(()),
        }
    }

    /// The `domain_not_allowed` error of `what` (a command's field) naming `url`, if the list
    /// refuses it.
    pub(crate) fn refuse(&self, what: &str, url: &str) -> Option<EngineError> {
        let list = self.list.as_ref()?;
        let refusal = list.check_url(url).err()?;
        Some(EngineError::new(
            ErrorCode::DomainNotAllowed,
            list.refusal_message(what, &refusal),
        ))
    }
}
