//! WebMCP end to end on real Chromium: a page on 127.0.0.1 that registers tools with the
//! `@mcp-b/global` polyfill (from npm, pinned in package.json), listed and invoked through
//! Chromium's native WebMCP (the engine launches Chromium 156 with `--enable-features=WebMCP`)
//! and, with the feature disabled, through the page's own API.

use std::time::Duration;

use crate::common::*;
use serde_json::Value;

const TOP: &str = r#"<!doctype html><html lang="en"><head><title>WebMCP fixture</title>
<script src="/global.js"></script></head><body><h1>WebMCP fixture</h1>
<script>
  const mc = document.modelContext;
  window.controllers = {};
  window.calls = [];
  function reg(tool) {
    const ac = new AbortController();
    window.controllers[tool.name] = ac;
    return mc.registerTool(tool, { signal: ac.signal });
  }
  const slow = (description) => ({
    name: 'slow', description,
    inputSchema: { type: 'object', properties: { ms: { type: 'integer', minimum: 0 } } },
    execute: ({ ms }) => new Promise((r) => setTimeout(() => r({ content: [{ type: 'text', text: 'slow done' }] }), ms ?? 60000)),
  });
  reg({
    name: 'add', description: 'Adds two integers',
    inputSchema: { type: 'object', properties: { a: { type: 'integer' }, b: { type: 'integer' } }, required: ['a', 'b'], additionalProperties: false },
    annotations: { readOnlyHint: true },
    execute: async ({ a, b }) => { window.calls.push([a, b]); return { content: [{ type: 'text', text: String(a + b) }] }; },
  });
  reg(slow('Answers after a while'));
  reg({ name: 'big', description: 'A large answer', execute: async () => ({ content: [{ type: 'text', text: 'x'.repeat(50000) }] }) });
  reg({ name: 'fail', description: 'Throws', execute: async () => { throw new Error('tool broke'); } });
  window.addLater = () => reg({ name: 'later', description: 'Registered after load', execute: async () => 'later!' });
  window.removeAdd = () => window.controllers.add.abort();
  window.changeSlow = () => { window.controllers.slow.abort(); return reg(slow('Changed after load')); };
</script>
<iframe id="inner" title="tools frame" src="/frame"></iframe>
</body></html>"#;

const FRAME: &str = r#"<!doctype html><html lang="en"><head><title>Frame</title>
<script src="/global.js"></script></head><body><p>frame</p><script>
  document.modelContext.registerTool({ name: 'frame_tool', description: 'Lives in the iframe',
    execute: async () => ({ content: [{ type: 'text', text: 'from the frame' }] }) });
</script></body></html>"#;

fn polyfill() -> Vec<u8> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../node_modules/@mcp-b/global/dist/index.iife.js");
    std::fs::read(&path).unwrap_or_else(|e| {
        panic!(
            "{}: {e}; run `npm ci` (scripts/setup.sh) to install @mcp-b/global",
            path.display()
        )
    })
}

fn server() -> Server {
    let s = Server::start();
    s.route("/", Page::html(TOP));
    s.route("/frame", Page::html(FRAME));
    s.route("/global.js", Page::typed("text/javascript", polyfill()));
    s
}

/// The tool names of a `webmcp list` answer, in its order.
pub(crate) fn names(list: &Value) -> Vec<String> {
    list["tools"]
        .as_array()
        .expect("tools")
        .iter()
        .map(|t| t["name"].as_str().unwrap_or("").to_string())
        .collect()
}

/// Lists until `cond` holds on the answer (tools are registered asynchronously).
pub(crate) fn list_until(cli: &Cli, mut cond: impl FnMut(&Value) -> bool) -> Value {
    let mut last = Value::Null;
    let ok = eventually(Duration::from_secs(10), || {
        last = cli.ok(&["webmcp", "list"]);
        cond(&last)
    });
    assert!(ok, "the tool list never got there: {last}");
    last
}

fn tool<'a>(list: &'a Value, name: &str) -> &'a Value {
    list["tools"]
        .as_array()
        .expect("tools")
        .iter()
        .find(|t| t["name"] == name)
        .unwrap_or_else(|| panic!("no tool {name} in {list}"))
}

#[test]
fn native_tools_are_listed_and_invoked_with_checked_input() {
    let s = server();
    let cli = Cli::new("webmcp-native");
    cli.ok(&["open", &s.url("/")]);
    let list = list_until(&cli, |l| names(l).len() == 5);
    assert_eq!(list["backend"], "native", "{list}");
    // By name, whichever order the page registered them in (add, slow, big, fail, then the
    // iframe's) and whether Chromium announced them live or replayed them.
    assert_eq!(
        names(&list),
        ["add", "big", "fail", "frame_tool", "slow"],
        "by name"
    );
    let add = tool(&list, "add");
    assert_eq!(add["description"], "Adds two integers");
    assert_eq!(
        add["inputSchema"]["required"],
        serde_json::json!(["a", "b"])
    );
    assert_eq!(add["annotations"]["readOnly"], true);
    assert_eq!(tool(&list, "fail")["annotations"]["readOnly"], false);
    let origin = s.url("/").trim_end_matches('/').to_string();
    assert_eq!(add["origin"], origin.as_str());
    // The iframe's tool carries the iframe's frame id.
    let frames = cli.ok(&["frames"]);
    let inner = frames["frames"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["url"].as_str().unwrap_or("").ends_with("/frame"))
        .expect("the iframe")["id"]
        .as_str()
        .unwrap()
        .to_string();
    let ft = tool(&list, "frame_tool");
    assert_eq!(ft["frameId"], inner.as_str());
    assert_ne!(add["frameId"], inner.as_str());
    let only = cli.ok(&["webmcp", "list", "--frame", &inner]);
    assert_eq!(names(&only), ["frame_tool"]);
    let one = cli.ok(&["webmcp", "list", "add"]);
    assert_eq!(names(&one), ["add"]);

    // A valid call.
    let done = cli.ok(&["webmcp", "invoke", "add", "--params", r#"{"a":2,"b":3}"#]);
    assert_eq!(done["status"], "completed", "{done}");
    assert_eq!(done["output"]["content"][0]["text"], "5");
    assert_eq!(done["toolName"], "add");
    assert_eq!(done["outputTruncated"], false);
    assert_eq!(cli.eval("window.calls.length"), 1);

    // Invalid input is refused before the page sees it.
    let (code, msg, _) = cli.err(&[
        "webmcp",
        "invoke",
        "add",
        "--params",
        r#"{"a":"two","b":3}"#,
    ]);
    assert_eq!(code, "webmcp_invalid_input", "{msg}");
    assert!(msg.contains("at /a"), "{msg}");
    let (code, msg, _) = cli.err(&["webmcp", "invoke", "add", "--params", r#"{"a":1}"#]);
    assert_eq!(code, "webmcp_invalid_input");
    assert!(msg.contains("\"b\" is a required property"), "{msg}");
    assert_eq!(
        cli.eval("window.calls.length"),
        1,
        "the page saw no bad input"
    );

    // The iframe's tool.
    let fr = cli.ok(&["webmcp", "invoke", "frame_tool"]);
    assert_eq!(fr["status"], "completed");
    assert_eq!(fr["frameId"], inner.as_str());
    assert_eq!(fr["output"]["content"][0]["text"], "from the frame");

    // A tool that throws.
    let failed = cli.ok(&["webmcp", "invoke", "fail"]);
    assert_eq!(failed["status"], "failed", "{failed}");
    assert!(failed["error"].as_str().is_some(), "{failed}");

    // Output over the limit is cut and says so.
    let big = cli.ok(&["webmcp", "invoke", "big", "--max-output-bytes", "1000"]);
    assert_eq!(big["status"], "completed");
    assert_eq!(big["outputTruncated"], true);
    assert!(
        big["originalOutputBytes"].as_u64().unwrap() > 50_000,
        "{big}"
    );
    assert!(big["output"].as_str().unwrap().len() <= 1000);

    // A slow tool times out and is canceled.
    let slow = cli.ok(&["webmcp", "invoke", "slow", "--timeout", "300"]);
    assert_eq!(slow["status"], "timed_out", "{slow}");
    assert!(slow["output"].is_null());

    // Detached: pending, then canceled; a second cancel is refused.
    let pending = cli.ok(&["webmcp", "invoke", "slow", "--detach"]);
    assert_eq!(pending["status"], "pending", "{pending}");
    let id = pending["invocationId"].as_str().unwrap().to_string();
    assert_eq!(cli.ok(&["webmcp", "result", &id])["status"], "pending");
    let canceled = cli.ok(&["webmcp", "cancel", &id]);
    assert_eq!(canceled["status"], "canceled", "{canceled}");
    assert_eq!(cli.ok(&["webmcp", "result", &id])["status"], "canceled");
    let (code, _, _) = cli.err(&["webmcp", "cancel", &id]);
    assert_eq!(code, "webmcp_invocation_finished");

    // Detached, then its result once it answers.
    let quick = cli.ok(&[
        "webmcp",
        "invoke",
        "slow",
        "--detach",
        "--params",
        r#"{"ms":200}"#,
    ]);
    let qid = quick["invocationId"].as_str().unwrap().to_string();
    let res = cli.ok(&["webmcp", "result", &qid, "--timeout", "10000"]);
    assert_eq!(res["status"], "completed", "{res}");
    assert_eq!(res["output"]["content"][0]["text"], "slow done");

    let (code, _, _) = cli.err(&["webmcp", "result", "no-such-id"]);
    assert_eq!(code, "webmcp_invocation_not_found");
    let (code, msg, _) = cli.err(&["webmcp", "invoke", "nope"]);
    assert_eq!(code, "webmcp_tool_not_found");
    assert!(msg.contains("add"), "the message lists the tools: {msg}");

    let status = cli.ok(&["status"]);
    assert_eq!(status["webmcp"], "native", "{status}");
}

#[test]
fn tools_registered_changed_and_removed_after_load_are_seen() {
    let s = server();
    let cli = Cli::new("webmcp-changes");
    cli.ok(&["open", &s.url("/")]);
    list_until(&cli, |l| names(l).len() == 5);
    cli.eval("window.addLater()");
    let list = list_until(&cli, |l| names(l).contains(&"later".to_string()));
    assert_eq!(tool(&list, "later")["description"], "Registered after load");
    cli.eval("window.removeAdd()");
    list_until(&cli, |l| !names(l).contains(&"add".to_string()));
    let (code, _, _) = cli.err(&["webmcp", "invoke", "add", "--params", r#"{"a":1,"b":2}"#]);
    assert_eq!(code, "webmcp_tool_not_found");
    cli.eval("window.changeSlow()");
    let list = list_until(&cli, |l| {
        l["tools"]
            .as_array()
            .unwrap()
            .iter()
            .any(|t| t["name"] == "slow" && t["description"] == "Changed after load")
    });
    assert!(!names(&list).contains(&"add".to_string()));
    // The snapshot names the tools in one line.
    let snap = cli.ok(&["snapshot"]);
    let line = snap["webmcp"].as_str().expect("a webmcp line");
    assert!(
        line.contains("later") && line.contains("slow") && !line.contains("add,"),
        "{line}"
    );
    assert!(!line.contains('\n'));
    let text = cli.run(&["snapshot"]).stdout;
    assert!(
        text.starts_with("webmcp tools (page-provided, untrusted"),
        "{text}"
    );
}

#[test]
fn the_page_api_serves_when_native_webmcp_is_off() {
    let s = server();
    let cli = Cli::new("webmcp-page");
    let out = cli
        .command()
        .args([
            "--browser-arg=--disable-features=WebMCP",
            "--json",
            "open",
            &s.url("/"),
        ])
        .output()
        .expect("run");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    let list = list_until(&cli, |l| names(l).len() == 4);
    assert_eq!(list["backend"], "page", "{list}");
    let mut main = names(&list);
    main.sort();
    assert_eq!(
        main,
        ["add", "big", "fail", "slow"],
        "the main frame's tools"
    );
    let done = cli.ok(&["webmcp", "invoke", "add", "--params", r#"{"a":4,"b":5}"#]);
    assert_eq!(done["status"], "completed", "{done}");
    assert_eq!(done["output"]["content"][0]["text"], "9");
    let (code, _, _) = cli.err(&["webmcp", "invoke", "add", "--params", r#"{"a":4}"#]);
    assert_eq!(code, "webmcp_invalid_input");
    assert_eq!(cli.eval("window.calls.length"), 1);
    let slow = cli.ok(&["webmcp", "invoke", "slow", "--timeout", "300"]);
    assert_eq!(slow["status"], "timed_out", "{slow}");
    let pending = cli.ok(&[
        "webmcp",
        "invoke",
        "slow",
        "--detach",
        "--params",
        r#"{"ms":200}"#,
    ]);
    let id = pending["invocationId"].as_str().unwrap().to_string();
    let res = cli.ok(&["webmcp", "result", &id, "--timeout", "10000"]);
    assert_eq!(res["status"], "completed", "{res}");
    let pending = cli.ok(&["webmcp", "invoke", "slow", "--detach"]);
    let id = pending["invocationId"].as_str().unwrap().to_string();
    assert_eq!(cli.ok(&["webmcp", "cancel", &id])["status"], "canceled");
    let big = cli.ok(&["webmcp", "invoke", "big", "--max-output-bytes", "1000"]);
    assert_eq!(big["outputTruncated"], true, "{big}");
    assert!(big["originalOutputBytes"].as_u64().unwrap() > 50_000);
    // The iframe's tool is reached by scoping to its frame.
    let frames = cli.ok(&["frames"]);
    let inner = frames["frames"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["url"].as_str().unwrap_or("").ends_with("/frame"))
        .expect("the iframe")["id"]
        .as_str()
        .unwrap()
        .to_string();
    let fl = cli.ok(&["webmcp", "list", "--frame", &inner]);
    assert_eq!(names(&fl), ["frame_tool"]);
    let fr = cli.ok(&["webmcp", "invoke", "frame_tool", "--frame", &inner]);
    assert_eq!(fr["output"]["content"][0]["text"], "from the frame", "{fr}");
    assert_eq!(cli.ok(&["status"])["webmcp"], "page");
}
