//! Chrome DevTools Protocol client: WebSocket transport, id correlation, flattened target sessions,
//! per-session events and a timeout on every call. Knows nothing about pages or refs.

#![warn(missing_docs)]

pub mod connection;
pub mod decode;
pub mod error;
pub mod session;
pub mod types;

pub use connection::{Connection, Endpoint, Event, with_deadline};
pub use error::CdpError;
pub use session::Session;
