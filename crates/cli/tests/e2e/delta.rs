//! `snapshot --delta` end to end: only what changed since the last snapshot of the same spec,
//! enough to rebuild the full text, with refs that act.

use crate::common::*;
use serde_json::Value;

fn page() -> String {
    let links: String = (0..300)
        .map(|i| format!("<li><a href='#l{i}'>Link number {i}</a></li>"))
        .collect();
    format!(
        r#"<!doctype html><title>Delta</title>
<h1>Catalogue</h1>
<label>Search <input id="q" type="search"></label>
<button id="apply" onclick="apply()">Apply filter</button>
<p id="out" role="status"></p>
<div id="extra"></div>
<ul>{links}</ul>
<script>
  function apply() {{
    document.getElementById('out').textContent = 'Showing results for ' + document.getElementById('q').value;
    document.getElementById('extra').innerHTML = '<button id="clear" onclick="clearIt()">Clear filter</button>';
  }}
  function clearIt() {{
    document.getElementById('q').value = '';
    document.getElementById('out').textContent = 'Cleared';
    document.getElementById('extra').innerHTML = '';
  }}
</script>"#
    )
}

/// Rebuilds a delta answer's text from the base text it names.
fn rebuild(base: &str, delta: &Value) -> String {
    let c = &delta["change"];
    let mut lines: Vec<String> = base.split('\n').map(str::to_string).collect();
    let start = c["startLine"].as_u64().unwrap() as usize;
    let count = c["deleteCount"].as_u64().unwrap() as usize;
    let new: Vec<String> = c["lines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l.as_str().unwrap().to_string())
        .collect();
    lines.splice(start..start + count, new);
    lines.join("\n")
}

fn bytes(v: &Value) -> usize {
    serde_json::to_string(v).unwrap().len()
}

#[test]
fn delta_snapshots_rebuild_the_text_and_their_refs_act() {
    let server = Server::start();
    server.route("/", Page::html(page()));
    let cli = Cli::new("delta");
    cli.ok(&["open", &server.url("/")]);

    // No base yet: the whole text, as without --delta.
    let first = cli.ok(&["snapshot", "--delta"]);
    assert_eq!(first["delta"]["kind"], "full", "{first}");
    assert_eq!(first["delta"]["baseGeneration"], Value::Null);
    let base_text = first["text"].as_str().unwrap().to_string();
    assert!(base_text.contains("Link number 299"), "{base_text}");
    assert_eq!(
        first["delta"]["lineCount"].as_u64().unwrap() as usize,
        base_text.split('\n').count()
    );
    let plain = cli.ok(&["snapshot"]);
    assert_eq!(plain["text"], first["text"]);
    assert!(
        plain.get("delta").is_none(),
        "no delta unless asked: {plain}"
    );

    // Nothing changed.
    let same = cli.ok(&["snapshot", "--delta"]);
    assert_eq!(same["delta"]["kind"], "unchanged", "{same}");
    assert_eq!(same["delta"]["baseGeneration"], plain["generation"]);
    assert_eq!(same["text"], "");
    assert_eq!(same["refs"].as_object().unwrap().len(), 0);
    assert_eq!(same["delta"]["change"], Value::Null);
    assert_eq!(same["delta"]["removedRefs"].as_array().unwrap().len(), 0);
    assert!(same["generation"].as_u64() > plain["generation"].as_u64());
    let human = cli.run(&["snapshot", "--delta"]);
    assert!(human.ok, "{}", human.stderr);
    assert!(
        human.stdout.contains("unchanged since snapshot"),
        "{}",
        human.stdout
    );

    // A fill changes one line; the delta rebuilds the full text and is far smaller.
    let search = cli.find_ref(&first, "searchbox", "Search");
    cli.ok(&["fill", &search, "widget", "--no-evidence"]);
    let d = cli.ok(&["snapshot", "--delta"]);
    assert_eq!(d["delta"]["kind"], "delta", "{d}");
    assert_eq!(d["text"], "");
    let change = &d["delta"]["change"];
    assert_eq!(change["deleteCount"], 1, "{d}");
    let lines = change["lines"].as_array().unwrap();
    assert_eq!(lines.len(), 1, "{d}");
    assert!(lines[0].as_str().unwrap().contains("widget"), "{d}");
    let refs = d["refs"].as_object().unwrap();
    assert_eq!(
        refs.keys().collect::<Vec<_>>(),
        vec![&search],
        "only the changed line's ref: {d}"
    );
    let rebuilt = rebuild(&base_text, &d["delta"]);
    let full = cli.ok(&["snapshot"]);
    assert!(
        rebuilt == full["text"].as_str().unwrap(),
        "rebuilt text differs from a full snapshot's"
    );
    assert_eq!(
        d["delta"]["lineCount"].as_u64().unwrap() as usize,
        rebuilt.split('\n').count()
    );
    assert!(
        bytes(&d) * 10 < bytes(&full),
        "delta {} bytes, full {} bytes",
        bytes(&d),
        bytes(&full)
    );

    // An action with evidence keeps its after-snapshot: it is the next delta's base.
    let apply = cli.find_ref(&first, "button", "Apply filter");
    let clicked = cli.ok(&["click", &apply]);
    let after_gen = clicked["after"]["generation"].clone();
    let after_text = clicked["after"]["text"].as_str().unwrap().to_string();
    assert!(after_text.contains("Clear filter"), "{after_text}");
    let same = cli.ok(&["snapshot", "--delta"]);
    assert_eq!(same["delta"]["kind"], "unchanged", "{same}");
    assert_eq!(same["delta"]["baseGeneration"], after_gen);

    // A ref that only a delta showed acts; the delta after says it was removed.
    cli.ok(&["eval", "document.getElementById('extra').innerHTML = ''"]);
    let gone = cli.ok(&["snapshot", "--delta"]);
    assert_eq!(gone["delta"]["kind"], "delta", "{gone}");
    let removed: Vec<&str> = gone["delta"]["removedRefs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    assert_eq!(removed.len(), 1, "{gone}");
    let after_removal = rebuild(&after_text, &gone["delta"]);
    assert!(!after_removal.contains("Clear filter"), "{after_removal}");
    cli.ok(&["click", &apply, "--no-evidence"]);
    let back = cli.ok(&["snapshot", "--delta"]);
    assert_eq!(back["delta"]["kind"], "delta", "{back}");
    let clear = cli.find_ref(&back, "button", "Clear filter");
    assert!(
        back["delta"]["change"]["lines"]
            .as_array()
            .unwrap()
            .iter()
            .any(|l| l.as_str().unwrap().contains(&format!("ref={clear}]"))),
        "{back}"
    );
    let rebuilt_back = rebuild(&after_removal, &back["delta"]);
    let full_back = cli.ok(&["snapshot"]);
    assert!(
        rebuilt_back == full_back["text"].as_str().unwrap(),
        "rebuilt text differs from a full snapshot's"
    );
    cli.ok(&["click", &clear, "--no-evidence"]);
    assert_eq!(
        cli.eval("document.getElementById('out').textContent"),
        "Cleared"
    );
    let cleared = cli.ok(&["snapshot", "--delta"]);
    let removed = cleared["delta"]["removedRefs"].as_array().unwrap();
    assert!(removed.iter().any(|r| r == &clear), "{cleared}");
    let diff = cli.ok(&["diff"]);
    assert_eq!(
        diff["changed"], false,
        "diff against the delta snapshot: {diff}"
    );
    assert_eq!(diff["beforeGeneration"], cleared["generation"]);

    // Another spec has no base yet: full; then its own base.
    let whole = cli.ok(&["snapshot", "--delta", "--full"]);
    assert_eq!(whole["delta"]["kind"], "full", "{whole}");
    assert!(whole["text"].as_str().unwrap().contains(": Cleared"));
    let compact = cli.ok(&["snapshot", "--delta", "--full", "-c"]);
    assert_eq!(compact["delta"]["kind"], "full", "{compact}");
    let again = cli.ok(&["snapshot", "--delta", "--full"]);
    assert_eq!(again["delta"]["kind"], "unchanged", "{again}");
    assert_eq!(again["delta"]["baseGeneration"], whole["generation"]);
    cli.ok(&["fill", &search, "gadget", "--no-evidence"]);
    let human = cli.run(&["snapshot", "--delta", "--full"]);
    assert!(human.ok, "{}", human.stderr);
    assert!(
        human.stdout.contains("replaced by 1 line (") && human.stdout.contains("gadget"),
        "{}",
        human.stdout
    );
}

#[test]
fn action_evidence_as_deltas_rebuilds_the_after_snapshot() {
    let server = Server::start();
    server.route("/", Page::html(page()));
    let cli = Cli::new("delta-evidence");
    cli.ok(&["open", &server.url("/")]);

    // No kept snapshot yet: the action takes its before snapshot, so `before` is whole.
    let pressed = cli.ok(&["press", "Tab", "--delta"]);
    assert_eq!(pressed["before"]["delta"]["kind"], "full", "{pressed}");
    assert!(
        pressed["before"]["text"]
            .as_str()
            .unwrap()
            .contains("Link number 299")
    );

    let seen = cli.ok(&["snapshot"]);
    let seen_text = seen["text"].as_str().unwrap().to_string();
    let search = cli.find_ref(&seen, "searchbox", "Search");
    let filled = cli.ok(&["fill", &search, "widget", "--delta"]);
    assert_eq!(
        cli.eval("document.getElementById('q').value"),
        "widget",
        "the fill happened"
    );
    // `before` is the snapshot the agent has: unchanged, named by its generation.
    let before = &filled["before"];
    assert_eq!(before["delta"]["kind"], "unchanged", "{before}");
    assert_eq!(before["delta"]["baseGeneration"], seen["generation"]);
    assert_eq!(before["generation"], seen["generation"]);
    assert_eq!(before["text"], "");
    assert_eq!(before["refs"].as_object().unwrap().len(), 0);
    // `after` is the changed line against `before`, with its ref; it rebuilds the whole text.
    let after = &filled["after"];
    assert_eq!(after["delta"]["kind"], "delta", "{after}");
    assert_eq!(after["delta"]["baseGeneration"], seen["generation"]);
    assert_eq!(after["text"], "");
    let lines = after["delta"]["change"]["lines"].as_array().unwrap();
    assert!(
        lines.iter().any(|l| l.as_str().unwrap().contains("widget")),
        "{after}"
    );
    assert_eq!(
        after["refs"]
            .as_object()
            .unwrap()
            .keys()
            .collect::<Vec<_>>(),
        vec![&search]
    );
    let rebuilt = rebuild(&seen_text, &after["delta"]);
    let full = cli.ok(&["snapshot"]);
    assert!(
        rebuilt == full["text"].as_str().unwrap(),
        "the rebuilt after text differs from a full snapshot's"
    );
    // The diff is the same as with whole evidence.
    assert_eq!(filled["diff"]["changed"], true);
    assert!(
        filled["diff"]["diff"].as_str().unwrap().contains("widget"),
        "{filled}"
    );

    // The same action with whole evidence carries both snapshots: many times the bytes.
    let whole = cli.ok(&["fill", &search, "gadget"]);
    assert!(
        bytes(&filled) * 10 < bytes(&whole),
        "delta evidence {} bytes, whole evidence {} bytes",
        bytes(&filled),
        bytes(&whole)
    );

    // A new ref shown only by the delta acts.
    let apply = cli.find_ref(&full, "button", "Apply filter");
    let clicked = cli.ok(&["click", &apply, "--delta"]);
    let clear = cli.find_ref(&clicked["after"], "button", "Clear filter");
    cli.ok(&["click", &clear, "--delta"]);
    assert_eq!(
        cli.eval("document.getElementById('out').textContent"),
        "Cleared"
    );

    // `diff --delta` answers the page now as a delta against the snapshot it compares with.
    let base = cli.ok(&["snapshot"]);
    cli.eval("document.getElementById('out').textContent = 'Changed by hand'; 1");
    let d = cli.ok(&["diff", "--delta"]);
    assert_eq!(d["changed"], true, "{d}");
    assert_eq!(d["beforeGeneration"], base["generation"]);
    assert_eq!(d["after"]["delta"]["kind"], "delta", "{d}");
    assert_eq!(d["after"]["text"], "");
    let now = cli.ok(&["snapshot"]);
    assert!(
        rebuild(base["text"].as_str().unwrap(), &d["after"]["delta"])
            == now["text"].as_str().unwrap(),
        "the rebuilt text differs from a full snapshot's"
    );
    assert!(
        cli.ok(&["diff"])["after"]["text"]
            .as_str()
            .unwrap()
            .contains("Changed by hand"),
        "without --delta the whole text"
    );

    // `--delta` and `--no-evidence` exclude each other; a bad evidence value names what is allowed.
    let both = cli.run(&["click", &apply, "--delta", "--no-evidence"]);
    assert!(
        !both.ok && both.stderr.contains("--no-evidence"),
        "{}",
        both.stderr
    );
    let bad = cli.batch(&[r#"{"id":1,"action":"click","ref":"e1","evidence":"sometimes"}"#]);
    assert_eq!(bad[0]["code"], "invalid_argument", "{:?}", bad);
    assert!(
        bad[0]["error"]
            .as_str()
            .unwrap()
            .contains(r#"true, false or "delta""#),
        "{:?}",
        bad
    );
}
