//! `profiler start` / `profiler stop`: the file is Chrome trace event JSON holding what the page
//! did (its own `performance.mark`), only the categories asked for, as many events as the answer
//! says; a failed write keeps the profile for a retry.

use crate::common::*;
use serde_json::Value;

/// The trace events of a profile file.
fn events(path: &std::path::Path) -> Vec<Value> {
    let text = std::fs::read_to_string(path).expect("the profile file");
    let v: Value = serde_json::from_str(&text).expect("the profile is JSON");
    v["traceEvents"].as_array().expect("traceEvents").clone()
}

#[test]
fn a_profile_holds_the_pages_marks_and_only_its_categories() {
    let s = Server::start();
    s.route(
        "/",
        Page::html(
            "<title>profiled</title><button onclick=\"performance.mark('clicked-' + Date.now() % 1); \
             performance.measure('work', {start: 0, duration: 5}); this.textContent = 'done'\">Go</button>",
        ),
    );
    let cli = Cli::new("profiler");
    let dir = TempDir::new("profiler-out");
    cli.ok(&["open", &s.url("/")]);
    let started = cli.ok(&[
        "profiler",
        "start",
        "--categories",
        "blink.user_timing,blink.console",
    ]);
    assert_eq!(
        started["categories"],
        serde_json::json!(["blink.user_timing", "blink.console"])
    );
    let (code, _, _) = cli.err(&["profiler", "start"]);
    assert_eq!(code, "profiler_already_started");
    cli.ok(&["click", "button"]);
    assert_eq!(
        cli.eval("document.querySelector('button').textContent"),
        "done"
    );
    cli.eval("console.log('from the page'); 1");

    // A directory that does not exist: the write fails, the profile is kept.
    let missing = dir.path().join("no-such-dir").join("p.json");
    let (code, message, _) = cli.err(&["profiler", "stop", missing.to_str().unwrap()]);
    assert_eq!(code, "io_error", "{message}");
    assert!(message.contains("retried"), "{message}");
    let path = dir.path().join("profile.json");
    let stopped = cli.ok(&["profiler", "stop", path.to_str().unwrap()]);
    assert_eq!(stopped["path"], path.to_str().unwrap());
    assert_eq!(stopped["dataLost"], false);
    assert_eq!(
        stopped["bytes"].as_u64(),
        Some(std::fs::metadata(&path).unwrap().len())
    );
    let list = events(&path);
    assert_eq!(stopped["events"].as_u64(), Some(list.len() as u64));
    let names: Vec<&str> = list.iter().filter_map(|e| e["name"].as_str()).collect();
    assert!(
        names.contains(&"clicked-0"),
        "the page's mark is missing: {names:?}"
    );
    assert!(names.contains(&"work"), "the page's measure is missing");
    // Only the categories asked for (and the trace's own metadata).
    for e in &list {
        let cat = e["cat"].as_str().unwrap_or("");
        assert!(
            e["ph"] == "M"
                || cat.is_empty()
                || cat
                    .split(',')
                    .any(|c| c == "blink.user_timing" || c == "blink.console" || c == "__metadata"),
            "an event of a category not asked for: {e}"
        );
    }
    let (code, _, _) = cli.err(&["profiler", "stop"]);
    assert_eq!(code, "profiler_not_started");
}

#[test]
fn the_default_profile_has_the_timeline_and_goes_to_the_downloads_directory() {
    let s = Server::start();
    s.route("/", Page::html("<title>t</title><p>hello</p>"));
    let downloads = TempDir::new("profiler-downloads");
    let cli = Cli::new("profiler-default");
    cli.ok(&[
        "--download-path",
        downloads.path().to_str().unwrap(),
        "open",
        &s.url("/"),
    ]);
    cli.ok(&["profiler", "start"]);
    cli.ok(&["reload"]);
    let stopped = cli.ok(&["profiler", "stop"]);
    let path = std::path::PathBuf::from(stopped["path"].as_str().unwrap());
    assert!(path.starts_with(downloads.path()), "{path:?}");
    let list = events(&path);
    let has = |cat: &str| {
        list.iter().any(|e| {
            e["cat"]
                .as_str()
                .is_some_and(|c| c.split(',').any(|x| x == cat))
        })
    };
    assert!(has("devtools.timeline"), "no timeline events");
    assert!(
        has("disabled-by-default-v8.cpu_profiler"),
        "no JavaScript samples"
    );
}
