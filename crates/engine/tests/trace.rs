//! The trace hook sees every command with its answer, in order, including refused ones.

use std::sync::{Arc, Mutex};

use agentbrowser_engine::{Engine, LaunchOptions, SessionInfo};
use agentbrowser_protocol::{Command, ErrorCode, KeyboardTextParams, Request};
use serde_json::{Value, json};

#[tokio::test]
async fn every_command_reaches_the_trace_hook() {
    let mut engine = Engine::new(SessionInfo::default(), LaunchOptions::default());
    let seen = Arc::new(Mutex::new(Vec::new()));
    let log = seen.clone();
    engine.on_command(move |t| {
        log.lock().unwrap().push((
            t.command.action(),
            t.response.success,
            t.response.code.map(|c| c.as_str()),
            t.elapsed.as_millis() < 60_000,
        ));
    });
    for line in [
        json!({"action": "wait", "ms": 5}),
        json!({"action": "open", "url": "http://["}),
    ] {
        engine.execute(Request::from_value(line).unwrap()).await;
    }
    // Neither needed a browser: the wait sleeps, the bad URL is refused before anything runs.
    assert!(engine.browser_pid().is_none());
    assert_eq!(
        *seen.lock().unwrap(),
        vec![
            ("wait", true, None, true),
            ("open", false, Some("invalid_argument"), true)
        ]
    );
}

/// A command built in Rust skips the parser, not the checks: one with bad parameters is
/// refused with `invalid_argument` (as the parser words it) before anything runs.
#[tokio::test]
async fn a_command_built_in_rust_is_checked() {
    let mut engine = Engine::new(SessionInfo::default(), LaunchOptions::default());
    let seen = Arc::new(Mutex::new(Vec::new()));
    let log = seen.clone();
    engine.on_command(move |t| log.lock().unwrap().push(t.command.action()));
    let response = engine
        .execute(Request {
            id: json!(7),
            timeout_ms: None,
            command: Command::KeyboardType(KeyboardTextParams {
                text: String::new(),
                wait: None,
                evidence: None,
            }),
            tab: None,
            frame: None,
        })
        .await;
    assert!(!response.success);
    assert_eq!(response.code, Some(ErrorCode::InvalidArgument));
    assert_eq!(response.id, json!(7));
    assert_eq!(response.action, "keyboard_type");
    assert!(response.error.unwrap().contains("`text`"));
    assert_eq!(response.data, Value::Null);
    assert!(engine.browser_pid().is_none());
    assert_eq!(*seen.lock().unwrap(), vec!["keyboard_type"]);
}
