//! The wire contract of agentbrowser: every command, the response envelope and the error codes.
//! Every front end (CLI, daemon, Python SDK, MCP) speaks exactly this.

#![warn(missing_docs)]

pub mod boundary;
pub mod caps;
#[cfg(feature = "clap")]
pub mod cli;
pub mod codes;
pub mod commands;
pub mod domains;
pub mod envelope;
pub mod present;
pub mod reference;
pub mod strict;
pub mod url_pattern;
pub mod validate;

pub use caps::audit::*;
pub use caps::auth::*;
pub use caps::devtools::*;
pub use caps::highlight::*;
pub use caps::intercept::*;
pub use caps::live::*;
pub use caps::network::*;
pub use caps::profiler::*;
pub use caps::record::*;
pub use caps::remote::*;
pub use caps::restore::*;
pub use caps::safety::*;
pub use caps::state::*;
pub use caps::trace::*;
pub use caps::webmcp::*;
pub use caps::{
    actions::*, capture::*, common::*, control::*, diagnostics::*, dialogs::*, diff::*,
    emulation::*, files::*, frames::*, input::*, nav::*, read::*, reading::*, snapshot::*, tabs::*,
    targets::*, wait::*,
};
pub use caps::{clipboard::*, drag::*, layout::*};
pub use caps::{session_id::*, throttle::*};
pub use codes::ErrorCode;
pub use commands::*;
pub use domains::DomainList;
pub use envelope::{CheckedRequest, IntoChecked, Request, RequestError, Response, bounded, object};
pub use url_pattern::{URL_PATTERN_RULE, UrlPattern};
pub use validate::{Checked, Validate};

/// Version of the protocol and of every binary that speaks it.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
