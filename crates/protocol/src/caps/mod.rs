//! One module per capability: each declares its commands' parameters (with their checks) and
//! their results. The one list of commands is in `commands.rs`.

pub mod actions;
pub mod audit;
pub mod auth;
pub mod capture;
pub mod clipboard;
pub mod common;
pub mod control;
pub mod devtools;
pub mod diagnostics;
pub mod dialogs;
pub mod diff;
pub mod drag;
pub mod emulation;
pub mod files;
pub mod frames;
pub mod highlight;
pub mod input;
pub mod intercept;
pub mod layout;
pub mod nav;
pub mod network;
pub mod profiler;
pub mod read;
pub mod reading;
pub mod remote;
pub mod restore;
pub mod safety;
pub mod session_id;
pub mod snapshot;
pub mod state;
pub mod tabs;
pub mod targets;
pub mod throttle;
pub mod wait;
pub mod webmcp;
