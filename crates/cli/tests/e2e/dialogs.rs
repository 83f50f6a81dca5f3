//! JavaScript dialogs on real Chromium: alerts and beforeunload are accepted at once; confirm
//! and prompt wait for `dialog accept [text]` / `dialog dismiss`, and every other command on
//! their tab answers `dialog_open` meanwhile; `--auto-dialogs` answers every dialog at once.

use crate::common::*;

/// A page whose buttons open each kind of dialog and write the page's answer into `#out`.
fn dialog_page() -> Server {
    let server = Server::start();
    server.route(
        "/",
        Page::html(
            "<title>Dialogs</title><p id=out>none</p>\
             <button onclick=\"alert('saved'); out.textContent = 'after alert'\">Alert</button>\
             <button onclick=\"out.textContent = 'confirm: ' + confirm('Delete it?')\">Confirm</button>\
             <button onclick=\"out.textContent = 'prompt: ' + prompt('Your name?', 'anon')\">Prompt</button>\
             <button onclick=\"out.textContent = 'first: ' + confirm('One?') + ', second: ' + confirm('Two?')\">Twice</button>",
        ),
    );
    server.route(
        "/leave",
        Page::html(
            "<title>Leave</title>\
             <script>onbeforeunload = e => { e.preventDefault(); return 'unsaved'; }</script>\
             <a href='/'>away</a>",
        ),
    );
    server
}

fn out(cli: &Cli) -> serde_json::Value {
    cli.eval("document.getElementById('out').textContent")
}

#[test]
fn confirm_waits_for_accept_and_the_page_sees_true() {
    let server = dialog_page();
    let cli = Cli::new("dlg-confirm");
    cli.ok(&["open", &server.url("/")]);
    let snap = cli.ok(&["snapshot"]);
    let confirm = cli.find_ref(&snap, "button", "Confirm");
    // The click answers at once, saying a dialog waits (no snapshots: the page is paused).
    let r = cli.ok(&["click", &confirm]);
    assert_eq!(r["openDialog"]["type"], "confirm", "{r}");
    assert_eq!(r["openDialog"]["message"], "Delete it?");
    assert_eq!(r["openDialog"]["tab"], "t1");
    assert!(r["after"].is_null() && r["diff"].is_null(), "{r}");
    // The status names it.
    let s = cli.ok(&["dialog", "status"]);
    assert_eq!(s["dialog"]["type"], "confirm", "{s}");
    assert_eq!(s["dialog"]["message"], "Delete it?");
    assert_eq!(s["autoDialogs"], false);
    // Other commands on the tab answer dialog_open (not a timeout), naming the dialog and the way out.
    let (code, message, data) = cli.err(&["snapshot"]);
    assert_eq!(code, "dialog_open", "{message}");
    assert!(
        message.contains("confirm") && message.contains("Delete it?"),
        "{message}"
    );
    assert!(
        message.contains("dialog accept") && message.contains("dialog dismiss"),
        "{message}"
    );
    assert_eq!(data["dialog"]["type"], "confirm");
    assert_eq!(data["openedByThisCommand"], false);
    let (code, _, _) = cli.err(&["click", &confirm]);
    assert_eq!(code, "dialog_open");
    let (code, _, _) = cli.err(&["eval", "1 + 1"]);
    assert_eq!(code, "dialog_open");
    // The session's own commands and the tab's buffers still answer.
    cli.ok(&["status"]);
    cli.ok(&["tab", "list"]);
    cli.ok(&["console"]);
    // A prompt's text is refused for a confirm, and nothing is answered.
    let (code, message, _) = cli.err(&["dialog", "accept", "nope"]);
    assert_eq!(code, "invalid_argument", "{message}");
    assert_eq!(cli.ok(&["dialog", "status"])["dialog"]["type"], "confirm");
    // Accept: the answer names the dialog, and the page's confirm() returned true.
    let a = cli.ok(&["dialog", "accept"]);
    assert_eq!(a["accepted"], true, "{a}");
    assert_eq!(a["dialog"]["message"], "Delete it?");
    assert_eq!(out(&cli), "confirm: true");
    assert!(cli.ok(&["dialog", "status"])["dialog"].is_null());
    // With nothing open, answering is `no_dialog`.
    let (code, message, _) = cli.err(&["dialog", "dismiss"]);
    assert_eq!(code, "no_dialog", "{message}");
}

#[test]
fn dismiss_cancels_a_confirm_and_prompt_returns_the_text() {
    let server = dialog_page();
    let cli = Cli::new("dlg-prompt");
    cli.ok(&["open", &server.url("/")]);
    let snap = cli.ok(&["snapshot"]);
    let confirm = cli.find_ref(&snap, "button", "Confirm");
    let prompt = cli.find_ref(&snap, "button", "Prompt");
    cli.ok(&["click", &confirm, "--no-evidence"]);
    let d = cli.ok(&["dialog", "dismiss"]);
    assert_eq!(d["accepted"], false, "{d}");
    assert_eq!(out(&cli), "confirm: false");
    // A prompt: its default text is reported, and the accepted text is what prompt() returns.
    let r = cli.ok(&["click", &prompt]);
    assert_eq!(r["openDialog"]["type"], "prompt", "{r}");
    assert_eq!(r["openDialog"]["defaultPrompt"], "anon");
    let a = cli.ok(&["dialog", "accept", "Ada"]);
    assert_eq!(a["text"], "Ada", "{a}");
    assert_eq!(out(&cli), "prompt: Ada");
    // Accept without text returns the default; dismiss returns null.
    cli.ok(&["click", &prompt]);
    cli.ok(&["dialog", "accept"]);
    assert_eq!(out(&cli), "prompt: anon");
    cli.ok(&["click", &prompt]);
    cli.ok(&["dialog", "dismiss"]);
    assert_eq!(out(&cli), "prompt: null");
    // Human output says what to do.
    cli.ok(&["click", &prompt]);
    let human = cli.run(&["dialog", "status"]);
    assert!(human.ok, "{}", human.stderr);
    assert!(
        human.stdout.contains("prompt \"Your name?\"")
            && human.stdout.contains("dialog accept [text]"),
        "{}",
        human.stdout
    );
    cli.ok(&["dialog", "dismiss"]);
}

#[test]
fn a_second_dialog_right_after_an_answer_is_reported() {
    let server = dialog_page();
    let cli = Cli::new("dlg-twice");
    cli.ok(&["open", &server.url("/")]);
    let snap = cli.ok(&["snapshot"]);
    let twice = cli.find_ref(&snap, "button", "Twice");
    cli.ok(&["click", &twice, "--no-evidence"]);
    let a = cli.ok(&["dialog", "accept"]);
    assert_eq!(a["dialog"]["message"], "One?", "{a}");
    assert_eq!(a["next"]["message"], "Two?", "{a}");
    let d = cli.ok(&["dialog", "dismiss"]);
    assert_eq!(d["dialog"]["message"], "Two?", "{d}");
    assert_eq!(out(&cli), "first: true, second: false");
}

#[test]
fn alerts_are_accepted_and_a_dialog_opened_by_eval_is_dialog_open() {
    let server = dialog_page();
    let cli = Cli::new("dlg-alert");
    cli.ok(&["open", &server.url("/")]);
    let snap = cli.ok(&["snapshot"]);
    let alert = cli.find_ref(&snap, "button", "Alert");
    let r = cli.ok(&["click", &alert]);
    assert_eq!(
        r["dialogs"],
        serde_json::json!([{"type": "alert", "message": "saved", "url": server.url("/"), "accepted": true}])
    );
    assert!(r.get("openDialog").is_none(), "{r}");
    assert_eq!(out(&cli), "after alert");
    // A command that is not an action and opens a confirm answers dialog_open at once, saying so.
    let (code, message, data) = cli.err(&["eval", "confirm('From eval?')"]);
    assert_eq!(code, "dialog_open", "{message}");
    assert_eq!(data["openedByThisCommand"], true, "{data}");
    assert_eq!(data["dialog"]["message"], "From eval?");
    cli.ok(&["dialog", "accept"]);
    assert_eq!(cli.eval("1 + 1"), 2);
}

#[test]
fn beforeunload_on_a_navigation_is_accepted() {
    let server = dialog_page();
    let cli = Cli::new("dlg-unload");
    cli.ok(&["open", &server.url("/leave")]);
    let snap = cli.ok(&["snapshot"]);
    let away = cli.find_ref(&snap, "link", "away");
    // The click is the user gesture beforeunload needs; the dialog is accepted and the page leaves.
    let r = cli.ok(&["click", &away, "--no-evidence"]);
    assert_eq!(r["dialogs"][0]["type"], "beforeunload", "{r}");
    assert_eq!(r["dialogs"][0]["accepted"], true);
    assert!(
        eventually(
            std::time::Duration::from_secs(5),
            || cli.ok(&["url"])["url"] == server.url("/")
        ),
        "the navigation did not go on"
    );
    assert_eq!(cli.ok(&["title"])["title"], "Dialogs");
}

#[test]
fn auto_dialogs_answers_everything_at_once() {
    let server = dialog_page();
    let cli = Cli::new("dlg-auto");
    cli.ok(&["--auto-dialogs", "open", &server.url("/")]);
    let snap = cli.ok(&["snapshot"]);
    let confirm = cli.find_ref(&snap, "button", "Confirm");
    let prompt = cli.find_ref(&snap, "button", "Prompt");
    let r = cli.ok(&["click", &confirm]);
    assert_eq!(r["dialogs"][0]["type"], "confirm", "{r}");
    assert_eq!(r["dialogs"][0]["accepted"], false);
    assert!(r.get("openDialog").is_none(), "{r}");
    assert_eq!(out(&cli), "confirm: false");
    cli.ok(&["click", &prompt]);
    assert_eq!(out(&cli), "prompt: null");
    let s = cli.ok(&["dialog", "status"]);
    assert_eq!(s["autoDialogs"], true, "{s}");
    assert!(s["dialog"].is_null());
}

#[test]
fn a_dialog_in_a_background_tab_does_not_block_the_active_tab() {
    let server = dialog_page();
    let other = Server::start();
    other.route("/", Page::html("<title>Other</title><h1>Other tab</h1>"));
    let cli = Cli::new("dlg-tabs");
    cli.ok(&["open", &server.url("/")]);
    // t1 opens a confirm a moment after t2 becomes the active tab.
    cli.eval("setTimeout(() => { document.getElementById('out').textContent = 'late: ' + confirm('Later?'); }, 300); 0");
    let url = format!("http://localhost:{}/", other.port());
    cli.ok(&["tab", "new", &url]);
    assert!(
        eventually(std::time::Duration::from_secs(5), || {
            !cli.ok(&["dialog", "status"])["otherTabs"]
                .as_array()
                .expect("otherTabs")
                .is_empty()
        }),
        "the background confirm never showed up"
    );
    let s = cli.ok(&["dialog", "status"]);
    assert!(s["dialog"].is_null(), "{s}");
    assert_eq!(s["otherTabs"][0]["tab"], "t1");
    // The active tab works as usual.
    let snap = cli.ok(&["snapshot"]);
    assert!(
        snap["text"].as_str().unwrap().contains("Other tab"),
        "{snap}"
    );
    assert_eq!(cli.ok(&["title"])["title"], "Other");
    let (code, _, _) = cli.err(&["dialog", "accept"]);
    assert_eq!(code, "no_dialog");
    // The tab list and the switch say t1 is blocked by a dialog.
    let tabs = cli.ok(&["tab", "list"]);
    assert_eq!(tabs["tabs"][0]["dialogBlocked"], true, "{tabs}");
    assert!(tabs["tabs"][1].get("dialogBlocked").is_none(), "{tabs}");
    let t = cli.ok(&["tab", "switch", "t1"]);
    assert_eq!(t["dialogBlocked"], true, "{t}");
    assert_eq!(cli.err(&["snapshot"]).0, "dialog_open");
    cli.ok(&["dialog", "accept"]);
    assert_eq!(out(&cli), "late: true");
}

#[test]
fn a_new_tab_whose_page_asks_on_load_answers_dialog_open() {
    let server = dialog_page();
    server.route(
        "/ask",
        Page::html(
            "<title>Ask</title><p id=out>none</p>\
             <script>document.getElementById('out').textContent = 'load: ' + confirm('Stay here?')</script>",
        ),
    );
    let cli = Cli::new("dlg-newtab");
    cli.ok(&["open", &server.url("/")]);
    // The new tab's page is paused by its confirm: `tab new` says so instead of waiting for a
    // load that cannot come.
    let (code, message, data) = cli.err(&["tab", "new", &server.url("/ask")]);
    assert_eq!(code, "dialog_open", "{message}");
    assert_eq!(data["openedByThisCommand"], true, "{data}");
    assert_eq!(data["dialog"]["message"], "Stay here?", "{data}");
    let tab = data["dialog"]["tab"]
        .as_str()
        .expect("the dialog's tab")
        .to_string();
    assert_ne!(tab, "t1", "{data}");
    // The first tab was not touched; the new one takes the answer and its page goes on.
    cli.ok(&["tab", "switch", &tab]);
    cli.ok(&["dialog", "accept"]);
    assert_eq!(out(&cli), "load: true");
}
