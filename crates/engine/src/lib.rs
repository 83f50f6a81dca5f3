//! The agentbrowser engine: launches or attaches to Chromium and runs protocol commands
//! (navigation, tabs, evaluation, snapshots, ref actions) with coded errors.

#![warn(missing_docs)]

pub mod actions;
pub mod browser;
pub mod diff;
pub mod error;
pub mod input;
pub mod launch;
pub mod page;
pub mod refs;
pub mod session;
pub mod snapshot;
pub mod wait;
pub mod world;

pub use error::{EngineError, Result};
pub use launch::LaunchOptions;
pub use session::{Engine, SessionInfo};
