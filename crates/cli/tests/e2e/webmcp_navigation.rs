//! WebMCP tools belong to the document that registered them, on real Chromium (native WebMCP):
//! Chromium sends no removal when a document goes away, so after a navigation to another origin,
//! to another page of the same origin, or of an iframe, the former document's tools are no longer
//! listed, announced by the snapshot or callable (`webmcp_tool_not_found` says they went away
//! with their page), and never credited to the origin that came after; a same-document
//! navigation (`pushState`, a fragment) keeps them; back (from the back/forward cache or a
//! reload) lists the first page's tools again under its own origin.

use crate::common::*;
use crate::webmcp::{list_until, names};

/// A page registering the tool `name`, and `slow_NAME`, which never answers.
fn tools_page(title: &str, name: &str) -> Page {
    Page::html(format!(
        "<!doctype html><title>{title}</title><h1>{title}</h1><script>\
         document.modelContext.registerTool({{name: '{name}', description: 'from {title}', \
           execute: async () => ({{content: [{{type: 'text', text: '{name} ran'}}]}})}});\
         document.modelContext.registerTool({{name: 'slow_{name}', description: 'never answers', \
           execute: () => new Promise(() => {{}})}});\
         </script>"
    ))
}

fn origin(server: &Server, host: &str) -> String {
    format!("http://{host}:{}", server.port())
}

#[test]
fn a_page_left_for_another_origin_takes_its_tools_along() {
    let a = Server::start();
    a.route("/webmcp.html", tools_page("A", "a_tool"));
    let b = Server::start();
    b.route("/", Page::html("<title>B</title><h1>B page</h1>"));
    let cli = Cli::new("wmn-origin");
    cli.ok(&["open", &a.url("/webmcp.html")]);
    let list = list_until(&cli, |l| names(l) == ["a_tool", "slow_a_tool"]);
    assert_eq!(list["tools"][0]["origin"], origin(&a, "127.0.0.1"));
    // A call still running when its page goes away.
    let pending = cli.ok(&["webmcp", "invoke", "slow_a_tool", "--detach"]);
    let id = pending["invocationId"].as_str().unwrap().to_string();

    let b_url = format!("{}/", origin(&b, "localhost"));
    cli.ok(&["open", &b_url]);
    let list = cli.ok(&["webmcp", "list"]);
    assert_eq!(list["url"], b_url.as_str());
    assert_eq!(
        list["tools"],
        serde_json::json!([]),
        "A's tools listed on B (credited to B's origin before the fix)"
    );
    let snap = cli.ok(&["snapshot"]);
    assert!(
        snap["webmcp"].is_null(),
        "the snapshot announces A's tools: {snap}"
    );
    let text = cli.run(&["snapshot"]).stdout;
    assert!(!text.contains("a_tool"), "{text}");
    let (code, msg, _) = cli.err(&["webmcp", "invoke", "a_tool"]);
    assert_eq!(code, "webmcp_tool_not_found", "{msg}");
    assert!(
        msg.contains("went away with its page") && msg.contains(&origin(&a, "127.0.0.1")),
        "{msg}"
    );
    // The call that was running ended with its page.
    let ended = cli.ok(&["webmcp", "result", &id]);
    assert_eq!(ended["status"], "failed", "{ended}");
    assert!(
        ended["error"].as_str().unwrap_or("").contains("went away"),
        "{ended}"
    );

    // Back: the first page's tools again, under its own origin (restored from the back/forward
    // cache, which replays them, or loaded again).
    cli.ok(&["back"]);
    let list = list_until(&cli, |l| names(l).contains(&"a_tool".to_string()));
    for t in list["tools"].as_array().unwrap() {
        assert_eq!(t["origin"], origin(&a, "127.0.0.1"), "{list}");
    }
    let done = cli.ok(&["webmcp", "invoke", "a_tool"]);
    assert_eq!(done["status"], "completed", "{done}");
    assert_eq!(done["origin"], origin(&a, "127.0.0.1"));
}

#[test]
fn another_page_of_the_same_origin_lists_only_its_own_tools() {
    let s = Server::start();
    s.route("/one", tools_page("One", "one"));
    s.route("/two", tools_page("Two", "two"));
    let cli = Cli::new("wmn-same");
    cli.ok(&["open", &s.url("/one")]);
    list_until(&cli, |l| names(l) == ["one", "slow_one"]);
    cli.ok(&["open", &s.url("/two")]);
    let mut seen = Vec::new();
    let list = list_until(&cli, |l| {
        seen.push(names(l));
        names(l) == ["slow_two", "two"]
    });
    assert!(
        seen.iter().all(|n| !n.contains(&"one".to_string())),
        "page one's tools were listed on page two: {seen:?}"
    );
    assert_eq!(list["tools"][0]["origin"], origin(&s, "127.0.0.1"));
    let snap = cli.ok(&["snapshot"]);
    let line = snap["webmcp"].as_str().expect("a webmcp line");
    assert!(line.contains("two") && !line.contains("one"), "{line}");
    let (code, msg, _) = cli.err(&["webmcp", "invoke", "one"]);
    assert_eq!(code, "webmcp_tool_not_found");
    assert!(
        msg.contains("went away with its page") && msg.contains("two"),
        "{msg}"
    );
    // A reload is a new document too: its tools are the ones it registers again.
    cli.ok(&["reload"]);
    let list = list_until(&cli, |l| names(l) == ["slow_two", "two"]);
    assert_eq!(list["total"], 2, "{list}");
}

#[test]
fn an_iframe_that_navigates_drops_its_tools_and_push_state_keeps_them() {
    let s = Server::start();
    s.route(
        "/",
        Page::html(
            "<!doctype html><title>Top</title><h1>Top</h1><script>\
             document.modelContext.registerTool({name: 'top_tool', description: 'top', \
               execute: async () => ({content: [{type: 'text', text: 'top ran'}]})});\
             </script><iframe id=f title=tools src='/frame'></iframe>",
        ),
    );
    s.route("/frame", tools_page("Frame", "frame_tool"));
    s.route(
        "/plain",
        Page::html("<title>Plain</title><p>plain frame</p>"),
    );
    let cli = Cli::new("wmn-frame");
    cli.ok(&["open", &s.url("/")]);
    list_until(&cli, |l| {
        names(l) == ["frame_tool", "slow_frame_tool", "top_tool"]
    });

    // Same-document navigations keep every tool.
    cli.eval("history.pushState({}, '', '/pushed'); location.hash = 'x'; 1");
    assert!(
        cli.ok(&["url"])["url"]
            .as_str()
            .unwrap()
            .ends_with("/pushed#x")
    );
    let list = cli.ok(&["webmcp", "list"]);
    assert_eq!(
        names(&list),
        ["frame_tool", "slow_frame_tool", "top_tool"],
        "{list}"
    );
    let done = cli.ok(&["webmcp", "invoke", "top_tool"]);
    assert_eq!(done["status"], "completed", "{done}");

    // The iframe navigates: its tools go, the top page's stay.
    cli.eval("document.getElementById('f').src = '/plain'; 1");
    cli.ok(&[
        "wait",
        "--fn",
        "document.getElementById('f').contentDocument?.body?.innerText.includes('plain frame')",
    ]);
    let list = cli.ok(&["webmcp", "list"]);
    assert_eq!(names(&list), ["top_tool"], "{list}");
    let line = cli.ok(&["snapshot"])["webmcp"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(!line.contains("frame_tool"), "{line}");
    let (code, msg, _) = cli.err(&["webmcp", "invoke", "frame_tool"]);
    assert_eq!(code, "webmcp_tool_not_found");
    assert!(msg.contains("went away with its page"), "{msg}");

    // The iframe removed: nothing of it is left either.
    cli.eval("document.getElementById('f').src = '/frame'; 1");
    list_until(&cli, |l| names(l).contains(&"frame_tool".to_string()));
    cli.eval("document.getElementById('f').remove(); 1");
    cli.ok(&["wait", "--fn", "!document.getElementById('f')"]);
    let list = list_until(&cli, |l| names(l) == ["top_tool"]);
    assert_eq!(list["total"], 1);
}
