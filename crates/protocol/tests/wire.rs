//! The wire contract: parsing, error codes and the generated reference page.

use agentbrowser_protocol::{Command, ErrorCode, Request, Response};

#[test]
fn parses_a_command_with_id_and_timeout() {
    let r = Request::parse_line(r#"{"id": "a", "action": "open", "url": "http://x/", "waitUntil": "networkidle", "timeout": 500}"#).unwrap();
    assert_eq!(r.id, "a");
    assert_eq!(r.timeout_ms, Some(500));
    match &*r.command {
        Command::Open(p) => assert_eq!(p.url, "http://x/"),
        other => panic!("{other:?}"),
    }
    // Round trip through the wire form.
    let again = Request::from_value(r.to_value()).unwrap();
    assert_eq!(again.command, r.command);
}

#[test]
fn bad_requests_get_the_right_codes() {
    let code = |line: &str| Request::parse_line(line).unwrap_err().code;
    assert_eq!(code("{"), ErrorCode::InvalidJson);
    assert_eq!(code("3"), ErrorCode::InvalidJson);
    assert_eq!(code(r#"{"action": "jump"}"#), ErrorCode::UnknownAction);
    assert_eq!(code(r#"{"url": "x"}"#), ErrorCode::InvalidArgument);
    assert_eq!(code(r#"{"action": 3}"#), ErrorCode::InvalidArgument);
    assert_eq!(code(r#"{"action": "open"}"#), ErrorCode::InvalidArgument);
    assert_eq!(
        code(r#"{"action": "title", "timeout": -1}"#),
        ErrorCode::InvalidArgument
    );
    let e = Request::parse_line(r#"{"id": 9, "action": "tab_switch", "tab": ["t1"]}"#).unwrap_err();
    assert_eq!(e.id, 9);
    assert!(e.message.contains("`tab`"), "{}", e.message);
    let e = Request::parse_line(r#"{"action": "title", "bogus": true}"#).unwrap_err();
    assert!(e.message.contains("bogus"), "{}", e.message);
}

#[test]
fn envelope_has_every_field() {
    let r = Request::parse_line(r#"{"action": "nope"}"#)
        .unwrap_err()
        .into_response();
    let v: serde_json::Value = serde_json::from_str(&r.to_line()).unwrap();
    for key in [
        "id", "action", "success", "data", "error", "code", "warning",
    ] {
        assert!(v.get(key).is_some(), "missing {key} in {v}");
    }
    assert_eq!(v["code"], "unknown_action");
    let back: Response = serde_json::from_value(v).unwrap();
    assert_eq!(back, r);
}

#[test]
fn every_code_is_snake_case_and_documented() {
    for code in ErrorCode::ALL {
        let s = code.as_str();
        assert!(s.chars().all(|c| c.is_ascii_lowercase() || c == '_'), "{s}");
        assert_eq!(serde_json::to_value(code).unwrap(), s);
        assert!(!code.describe().is_empty());
    }
}

#[test]
fn schema_file_is_up_to_date() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../docs/protocol.schema.json"
    );
    let current = std::fs::read_to_string(path).unwrap_or_default();
    let generated = agentbrowser_protocol::reference::schema_text() + "\n";
    assert!(
        current == generated,
        "docs/protocol.schema.json is stale: regenerate with `cargo run -q -p agentbrowser -- protocol-schema > docs/protocol.schema.json`"
    );
    let schema: serde_json::Value = serde_json::from_str(&generated).unwrap();
    for action in Command::ACTIONS {
        let cmd = &schema["commands"][action];
        assert!(cmd["params"].is_object(), "{action}: no params schema");
        let reference = cmd["result"]["$ref"].as_str().unwrap_or_default();
        let name = reference.strip_prefix("#/$defs/").unwrap_or_default();
        assert!(
            schema["$defs"][name]["properties"].is_object(),
            "{action}: result {reference:?} is not a defined object"
        );
    }
}

#[test]
fn reference_page_is_up_to_date() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/protocol.md");
    let current = std::fs::read_to_string(path).unwrap_or_default();
    let generated = agentbrowser_protocol::reference::markdown();
    assert!(
        current == generated,
        "docs/protocol.md is stale: regenerate with `cargo run -q -p agentbrowser -- protocol-docs > docs/protocol.md`"
    );
    for action in Command::ACTIONS {
        assert!(
            generated.contains(&format!("### `{action}`")),
            "{action} undocumented"
        );
    }
}

#[test]
fn every_command_has_a_kind() {
    use agentbrowser_protocol::{Command, Kind};
    for action in Command::ACTIONS {
        assert!(Command::kind_of(action).is_some(), "{action}");
    }
    assert_eq!(Command::kind_of("eval"), Some(Kind::Dangerous));
    assert_eq!(Command::kind_of("click"), Some(Kind::Mutate));
    assert_eq!(Command::kind_of("open"), Some(Kind::Navigate));
    assert_eq!(Command::kind_of("snapshot"), Some(Kind::Read));
    assert_eq!(Command::kind_of("nope"), None);
    let c = Command::from_parts("title", serde_json::json!({}))
        .unwrap()
        .unwrap();
    assert_eq!(c.kind(), Kind::Read);
}

#[test]
fn every_pinned_answer_decodes_as_its_output_and_has_a_presenter() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../cli/tests/golden/wire.json");
    let golden: Vec<serde_json::Value> =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let mut seen = std::collections::BTreeSet::new();
    for entry in &golden {
        let r = &entry["response"];
        if r["success"] != true {
            continue;
        }
        let action = r["action"].as_str().unwrap();
        let text = Command::present(action, &r["data"]);
        assert!(
            text.is_some(),
            "{action}: the pinned answer does not decode as its output: {}",
            r["data"]
        );
        seen.insert(action.to_string());
    }
    assert!(seen.len() >= 30, "only {} actions pinned", seen.len());
    let click = golden
        .iter()
        .find(|e| e["args"][0] == "click" && e["response"]["success"] == true)
        .unwrap();
    let text = Command::present("click", &click["response"]["data"]).unwrap();
    assert!(
        text.starts_with("click e6 (button \"Send\")\n--- before"),
        "{text}"
    );
}

#[test]
fn a_commands_wait_budget_adds_to_the_default_timeout() {
    let parse = |v: serde_json::Value| agentbrowser_protocol::Request::from_value(v).unwrap();
    let r = parse(serde_json::json!({"action": "wait", "ms": 40000}));
    assert_eq!(r.command.wait_budget_ms(), 40000);
    let r = parse(
        serde_json::json!({"action": "click", "ref": "e1", "wait": {"type": "all",
        "conditions": [{"type": "text", "text": "a", "timeoutMs": 5000}, {"type": "url", "url": "*", "timeoutMs": 7000}]}}),
    );
    assert_eq!(r.command.wait_budget_ms(), 12000);
    let r = parse(
        serde_json::json!({"action": "click", "ref": "e1", "wait": {"type": "all", "timeoutMs": 1000,
        "conditions": [{"type": "text", "text": "a", "timeoutMs": 5000}]}}),
    );
    assert_eq!(r.command.wait_budget_ms(), 1000);
    let r = parse(serde_json::json!({"action": "title"}));
    assert_eq!(r.command.wait_budget_ms(), 0);
}
