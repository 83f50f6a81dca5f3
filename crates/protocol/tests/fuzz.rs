//! Request parsing under fuzz: any line, however malformed, parses into a request or into a coded
//! error whose envelope is one valid JSON line with a bounded message, and never panics. A fixed
//! case budget (`FUZZ_CASES`, default 10,000 per property) keeps it in the normal test run.

use agentbrowser_protocol::{Command, ErrorCode, Request, Response};
use proptest::prelude::*;
use serde_json::{Value, json};

fn cases() -> u32 {
    std::env::var("FUZZ_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(10_000)
}

/// Any JSON value, a few levels deep, with keys that are often the protocol's own.
fn json_value() -> impl Strategy<Value = Value> {
    let key = prop_oneof![
        Just("action".to_string()),
        Just("ref".to_string()),
        Just("url".to_string()),
        Just("timeout".to_string()),
        Just("maxDepth".to_string()),
        Just("maxBytes".to_string()),
        Just("wait".to_string()),
        Just("id".to_string()),
        "[a-zA-Z]{1,8}",
    ];
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(|n| json!(n)),
        any::<u64>().prop_map(|n| json!(n)),
        any::<f64>()
            .prop_map(|f| serde_json::Number::from_f64(f).map_or(Value::Null, Value::Number)),
        ".{0,40}".prop_map(Value::String),
        proptest::sample::select(Command::ACTIONS.to_vec()).prop_map(|a| json!(a)),
    ];
    leaf.prop_recursive(4, 48, 8, move |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            proptest::collection::vec((key.clone(), inner), 0..6)
                .prop_map(|kv| Value::Object(kv.into_iter().collect())),
        ]
    })
}

/// A request object: a real action with random parameters.
fn request() -> impl Strategy<Value = Value> {
    (
        proptest::sample::select(Command::ACTIONS.to_vec()),
        proptest::collection::vec(("[a-zA-Z]{1,10}", json_value()), 0..5),
    )
        .prop_map(|(action, params)| {
            let mut m: serde_json::Map<String, Value> = params.into_iter().collect();
            m.insert("action".into(), json!(action));
            Value::Object(m)
        })
}

fn check(line: &str) {
    let response = match Request::parse_line(line) {
        Ok(_) => return,
        Err(e) => e.into_response(),
    };
    assert!(matches!(
        response.code,
        Some(ErrorCode::InvalidJson | ErrorCode::InvalidArgument | ErrorCode::UnknownAction)
    ));
    let out = response.to_line();
    assert!(!out.contains('\n'));
    let back = Response::parse_line(&out).expect("the envelope is JSON");
    assert!(
        back.error.unwrap_or_default().len() <= agentbrowser_protocol::envelope::MAX_MESSAGE + 64
    );
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(), failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_text_never_panics(line in ".{0,200}") {
        check(&line);
    }

    #[test]
    fn arbitrary_json_never_panics(v in json_value()) {
        check(&v.to_string());
    }

    #[test]
    fn requests_with_random_parameters_never_panic(v in request()) {
        check(&v.to_string());
    }

    #[test]
    fn mangled_requests_never_panic(v in request(), cut in 0usize..200, junk in ".{0,8}") {
        let text = v.to_string();
        let mut cut = cut.min(text.len());
        while !text.is_char_boundary(cut) {
            cut -= 1;
        }
        check(&format!("{}{junk}{}", &text[..cut], &text[cut..]));
    }
}
