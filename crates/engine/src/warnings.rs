//! The warnings sink of a command: anything that did not fail the command but cut or left out
//! part of its answer (a snapshot cut at its budget, a frame that could not be captured) is noted
//! here and reaches the envelope's `warning`.

use std::cell::RefCell;

tokio::task_local! {
    static SINK: RefCell<Vec<String>>;
}

/// Runs `fut` collecting its warnings; returns its output and the warnings, in order.
pub async fn collect<F: std::future::Future>(fut: F) -> (F::Output, Vec<String>) {
    SINK.scope(RefCell::new(Vec::new()), async {
        let out = fut.await;
        let notes = SINK.with(|s| std::mem::take(&mut *s.borrow_mut()));
        (out, notes)
    })
    .await
}

/// Notes a warning for the running command (ignored outside one). At most 8 are kept, each cut
/// at 300 bytes, and a repeated warning is kept once.
pub fn note(message: impl Into<String>) {
    let message = agentbrowser_protocol::bounded(message.into(), 300);
    let _ = SINK.try_with(|s| {
        let mut s = s.borrow_mut();
        if s.len() < 8 && !s.contains(&message) {
            s.push(message);
        }
    });
}
