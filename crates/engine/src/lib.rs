//! The agentbrowser engine: launches or attaches to Chromium and runs protocol commands
//! (navigation, tabs, evaluation, snapshots, ref actions) with coded errors.

pub mod browser;
pub mod error;
pub mod launch;
pub mod page;
pub mod session;

pub use error::{EngineError, Result};
pub use launch::LaunchOptions;
pub use session::{Engine, SessionInfo};
