//! The agentbrowser engine: launches or attaches to Chromium and runs protocol commands
//! (navigation, tabs, evaluation, snapshots, ref actions) with coded errors.

#![warn(missing_docs)]

pub mod actions;
pub mod answer;
pub mod audit;
pub mod bounds;
pub mod browser;
mod capabilities;
pub mod capture;
mod clipboard;
mod control;
pub mod cx;
pub mod delta;
pub mod devices;
mod devtools;
pub mod diagnostics;
pub mod dialogs;
pub mod diff;
pub mod domains;
mod drag;
mod emulation;
pub mod error;
pub mod events;
mod files;
mod frame_tree;
mod frames;
mod handlers;
mod highlight;
pub mod hook;
pub mod input;
mod interact;
mod intercept;
pub mod launch;
mod layers;
mod layout;
pub mod live;
pub mod nav;
mod network;
mod output_file;
pub mod page;
mod parts;
pub mod policy;
mod popups;
mod profile;
mod profiler;
mod reach;
mod read;
mod reading;
mod record;
mod recorder;
pub mod refs;
pub mod remote;
pub mod safety;
mod screencast;
mod secrets;
pub mod session;
pub mod session_id;
mod share;
pub mod snapshot;
mod state;
mod tabs;
mod targets;
mod tls;
pub mod trace;
pub mod wait;
pub mod warnings;
pub mod webmcp;
pub mod world;

pub use error::{EngineError, Result};
pub use launch::LaunchOptions;
pub use layers::Incoming;
pub use session::{Engine, SessionInfo};
pub use state::restore::RestoreOptions;
pub use state::store::check_key_file;

/// Writes `bytes` to the file at `path` (absolute; its directory must exist) whole or not at
/// all: a temporary file beside it, renamed over it. A fault is `io_error` naming the user's
/// path and the cause; a malformed path (empty, relative, a directory) is `invalid_argument`.
pub fn write_file_whole(path: &std::path::Path, bytes: &[u8]) -> Result<u64> {
    output_file::write(path, bytes, output_file::Output::default())
}
