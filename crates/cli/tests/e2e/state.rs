//! Cookies, web storage and state files on real Chromium with pages on 127.0.0.1 (and the
//! same server as `localhost`, a second origin; Chromium treats http://localhost as a secure
//! context, so a Secure cookie is kept there): cookies set by the server and by commands,
//! storage round trips, state save / load across sessions for two origins, the state
//! directory (modes, list, show, rename, clear, clean), encryption with a right, a wrong and no
//! key, and a SIGKILL in the middle of a save leaving the previous file intact.

use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::time::Duration;

use crate::common::*;
use serde_json::Value;

/// Runs the first command of a session (which starts its daemon) with extra environment:
/// the daemon keeps it for the session.
fn start(cli: &Cli, env: &[(&str, &str)], args: &[&str]) -> Value {
    let mut c = cli.command();
    for (k, v) in env {
        c.env(k, v);
    }
    let out = c
        .arg("--json")
        .args(args)
        .output()
        .expect("run agentbrowser");
    let v: Value = serde_json::from_slice(&out.stdout).expect("envelope");
    assert_eq!(v["success"], true, "{args:?} failed: {v}");
    v["data"].clone()
}

fn cookie<'a>(cookies: &'a Value, name: &str) -> &'a Value {
    cookies["cookies"]
        .as_array()
        .expect("cookies")
        .iter()
        .find(|c| c["name"] == name)
        .unwrap_or_else(|| panic!("no cookie {name} in {cookies}"))
}

#[test]
fn server_and_command_cookies_read_back_with_their_flags_and_values_stay_hidden() {
    let server = cookie_server();
    let cli = Cli::new("st-cookies");
    cli.ok(&["open", &server.url("/login")]);
    let all = cli.ok(&["cookies"]);
    let sid = cookie(&all, "sid");
    assert_eq!(sid["value"], "s3cret");
    assert_eq!(sid["httpOnly"], true);
    assert_eq!(sid["sameSite"], "Strict");
    assert_eq!(sid["expires"], -1.0);
    assert_eq!(cookie(&all, "theme")["sameSite"], "Lax");
    // The page's script cannot read the HttpOnly one.
    assert_eq!(cli.eval("document.cookie"), "theme=dark");

    // Human output hides values unless asked.
    let human = cli.run(&["cookies"]);
    assert!(human.ok, "{}", human.stderr);
    assert!(human.stdout.contains("sid (6 chars)"), "{}", human.stdout);
    assert!(!human.stdout.contains("s3cret"), "{}", human.stdout);
    let shown = cli.run(&["cookies", "get", "--show-values"]);
    assert!(shown.stdout.contains("sid=s3cret"), "{}", shown.stdout);

    // A Secure cookie on localhost (a secure context for Chromium), with an expiry.
    let local = format!("http://localhost:{}/", server.port());
    // Chromium caps an expiry at 400 days: a day from now is kept as given.
    let day = (std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs()
        + 86_400)
        .to_string();
    cli.ok(&[
        "cookies",
        "set",
        "tok",
        "abc",
        "--url",
        &local,
        "--secure",
        "--same-site",
        "None",
        "--expires",
        &day,
    ]);
    let on_local = cli.ok(&["cookies", "--url", &local]);
    let tok = cookie(&on_local, "tok");
    assert_eq!(tok["secure"], true);
    assert_eq!(tok["sameSite"], "None");
    assert_eq!(
        tok["expires"].as_f64().unwrap().round() as u64,
        day.parse::<u64>().unwrap()
    );
    assert_eq!(tok["domain"], "localhost");
    // --url filters: 127.0.0.1's cookies are not sent to localhost.
    assert!(
        on_local["cookies"]
            .as_array()
            .unwrap()
            .iter()
            .all(|c| c["name"] != "sid")
    );
    // The server receives the cookie set by a command.
    cli.ok(&["open", &format!("{local}check")]);
    let sent = server.requests_for("/check");
    let header = sent
        .last()
        .and_then(|r| r.header("cookie"))
        .unwrap_or_default()
        .to_string();
    assert!(header.contains("tok=abc"), "{header:?}");

    // Clearing one domain leaves the other.
    let cleared = cli.ok(&["cookies", "clear", "--domain", "localhost"]);
    assert_eq!(cleared["removed"], 1);
    let left = cli.ok(&["cookies"]);
    assert_eq!(left["cookies"].as_array().unwrap().len(), 2, "{left}");
    assert_eq!(cli.ok(&["cookies", "clear"])["removed"], 2);
    assert_eq!(cli.ok(&["cookies"])["cookies"], serde_json::json!([]));
}

#[test]
fn bad_cookie_input_is_a_clear_invalid_argument() {
    let server = cookie_server();
    let cli = Cli::new("st-badcookie");
    cli.ok(&["open", &server.url("/")]);
    let (code, msg, _) = cli.err(&["cookies", "set", "a", "b"]);
    assert_eq!(code, "invalid_argument");
    assert!(msg.contains("`url` or `domain`"), "{msg}");
    let (code, msg, _) = cli.err(&[
        "cookies",
        "set",
        "a",
        "b",
        "--domain",
        "x.test",
        "--same-site",
        "Sometimes",
    ]);
    assert_eq!(code, "invalid_argument");
    assert!(msg.contains("Strict, Lax, None"), "{msg}");
    // A cookie Chromium does not keep (expired already) is said, not claimed set.
    let (code, msg, _) = cli.err(&[
        "cookies",
        "set",
        "s",
        "1",
        "--url",
        &server.url("/"),
        "--expires",
        "1",
    ]);
    assert_eq!(code, "invalid_argument", "{msg}");
    assert!(msg.contains("did not keep cookie \"s\""), "{msg}");
    let dir = TempDir::new("st-badcookie-files");
    let txt = dir.path().join("cookies.txt");
    std::fs::write(&txt, "# Netscape HTTP Cookie File\n127.0.0.1\tFALSE\t/\tFALSE\t0\tok\t1\nbroken line\twith two\n").unwrap();
    let (code, msg, _) = cli.err(&["cookies", "set", "--file", txt.to_str().unwrap()]);
    assert_eq!(code, "invalid_argument");
    assert!(msg.contains("line 3"), "{msg}");
    let header = dir.path().join("header.txt");
    std::fs::write(&header, "Cookie: a=1; b=2\n").unwrap();
    let (code, msg, _) = cli.err(&["cookies", "set", "--file", header.to_str().unwrap()]);
    assert_eq!(code, "invalid_argument");
    assert!(msg.contains("--url or --domain"), "{msg}");
    // The same files, well formed, set their cookies.
    cli.ok(&[
        "cookies",
        "set",
        "--file",
        header.to_str().unwrap(),
        "--url",
        &server.url("/"),
    ]);
    std::fs::write(&txt, "#HttpOnly_127.0.0.1\tFALSE\t/\tFALSE\t0\tns\tv1\n").unwrap();
    cli.ok(&["cookies", "set", "--file", txt.to_str().unwrap()]);
    let all = cli.ok(&["cookies"]);
    assert_eq!(cookie(&all, "b")["value"], "2");
    assert_eq!(cookie(&all, "ns")["httpOnly"], true);
}

#[test]
fn storage_round_trips_and_an_opaque_origin_is_refused() {
    let server = cookie_server();
    let cli = Cli::new("st-storage");
    let (code, msg, _) = cli.err(&["storage", "local"]);
    assert_eq!(code, "invalid_argument");
    assert!(msg.contains("opaque origin"), "{msg}");
    cli.ok(&["open", &server.url("/")]);
    cli.ok(&["storage", "local", "set", "k1", "v1"]);
    let changed = cli.ok(&["storage", "local", "set", "k2", "v2"]);
    assert_eq!(changed["length"], 2);
    assert_eq!(cli.eval("localStorage.getItem('k2')"), "v2");
    assert_eq!(cli.ok(&["storage", "local", "get", "k1"])["value"], "v1");
    assert_eq!(
        cli.ok(&["storage", "local", "get", "nope"])["value"],
        Value::Null
    );
    let all = cli.ok(&["storage", "local"]);
    assert_eq!(all["length"], 2);
    assert_eq!(all["origin"], format!("http://127.0.0.1:{}", server.port()));
    let cut = cli.json(&["storage", "local", "get", "--max-items", "1"]);
    assert_eq!(cut["data"]["truncated"], true);
    assert!(
        cut["warning"].as_str().unwrap_or("").contains("maxItems"),
        "{cut}"
    );
    assert_eq!(cli.ok(&["storage", "local", "remove", "k1"])["length"], 1);
    cli.ok(&["storage", "session", "set", "s", "x"]);
    assert_eq!(cli.eval("sessionStorage.getItem('s')"), "x");
    assert_eq!(cli.ok(&["storage", "session", "clear"])["length"], 0);
    assert_eq!(cli.ok(&["storage", "local", "clear"])["length"], 0);
    let human = cli.run(&["storage", "local", "get"]);
    assert!(human.stdout.contains("0 entries"), "{}", human.stdout);
}

#[test]
fn state_moves_cookies_and_two_origins_storage_to_a_new_session() {
    let server = cookie_server();
    let dir = TempDir::new("st-dir");
    let state_dir = dir.path().join("state");
    let sd = state_dir.to_str().unwrap();
    let a = Cli::new("st-save");
    let local = format!("http://localhost:{}", server.port());
    start(
        &a,
        &[("AGENTBROWSER_STATE_DIR", sd)],
        &["open", &server.url("/login")],
    );
    a.ok(&["storage", "local", "set", "who", "ip"]);
    a.ok(&["open", &format!("{local}/")]);
    a.ok(&["storage", "local", "set", "who", "localhost"]);
    // Away from both: the save reads them without a request reaching the server.
    a.ok(&["open", "about:blank"]);
    let before = server.requests().len();
    let saved = a.ok(&["state", "save", "login"]);
    assert_eq!(
        server.requests().len(),
        before,
        "the save reached the server"
    );
    let file = state_dir.join("login.json");
    assert_eq!(saved["path"], file.to_str().unwrap());
    assert_eq!(saved["encrypted"], false);
    assert_eq!(saved["origins"].as_array().unwrap().len(), 2, "{saved}");
    let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode(&file), 0o600);
    assert_eq!(mode(&state_dir), 0o700);
    // Playwright's shape.
    let doc: Value = serde_json::from_slice(&std::fs::read(&file).unwrap()).unwrap();
    let sid = doc["cookies"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == "sid")
        .unwrap();
    assert_eq!(sid["httpOnly"], true);
    assert_eq!(sid["sameSite"], "Strict");
    assert_eq!(sid["expires"], -1.0);
    let origins = doc["origins"].as_array().unwrap();
    let ls = |o: &str| {
        origins
            .iter()
            .find(|x| x["origin"] == o)
            .unwrap_or_else(|| panic!("no {o} in {doc}"))["localStorage"]
            .clone()
    };
    assert_eq!(
        ls(&format!("http://127.0.0.1:{}", server.port())),
        serde_json::json!([{"name": "who", "value": "ip"}])
    );
    assert_eq!(
        ls(&local),
        serde_json::json!([{"name": "who", "value": "localhost"}])
    );

    // list and show see it.
    let list = a.ok(&["state", "list"]);
    assert_eq!(list["files"][0]["filename"], "login.json");
    assert_eq!(list["files"][0]["encrypted"], false);
    let show = a.run(&["state", "show", "login"]);
    assert!(
        show.stdout.contains("not encrypted") && show.stdout.contains("cookie sid"),
        "{}",
        show.stdout
    );
    assert!(!show.stdout.contains("s3cret"), "{}", show.stdout);

    // A new session, loaded before any navigation.
    let b = Cli::new("st-load");
    start(
        &b,
        &[("AGENTBROWSER_STATE_DIR", sd)],
        &["state", "load", "login"],
    );
    b.ok(&["open", &server.url("/check")]);
    let header = server
        .requests_for("/check")
        .last()
        .and_then(|r| r.header("cookie"))
        .unwrap_or_default()
        .to_string();
    assert!(
        header.contains("sid=s3cret") && header.contains("theme=dark"),
        "{header:?}"
    );
    assert_eq!(b.eval("localStorage.getItem('who')"), "ip");
    b.ok(&["open", &format!("{local}/")]);
    assert_eq!(b.eval("localStorage.getItem('who')"), "localhost");

    // rename, clear, clean.
    let renamed = a.ok(&["state", "rename", "login", "old"]);
    assert!(renamed["to"].as_str().unwrap().ends_with("/old.json"));
    assert!(!file.exists());
    assert_eq!(
        a.ok(&["state", "clean", "--older-than", "1"])["removed"],
        serde_json::json!([])
    );
    assert_eq!(
        a.ok(&["state", "clear", "old"])["removed"]
            .as_array()
            .unwrap()
            .len(),
        1
    );
    let (code, _, _) = a.err(&["state", "show", "old"]);
    assert_eq!(code, "invalid_argument");
}

#[test]
fn encrypted_state_needs_the_right_key() {
    let server = cookie_server();
    let dir = TempDir::new("st-enc");
    let key = "ab".repeat(32);
    let other = dir.path().join("other.key");
    std::fs::write(&other, "cd".repeat(32)).unwrap();
    let bad = dir.path().join("bad.key");
    std::fs::write(&bad, "not hex").unwrap();
    let file = dir.path().join("enc.json");
    let f = file.to_str().unwrap();
    let a = Cli::new("st-enc-a");
    start(
        &a,
        &[("AGENTBROWSER_ENCRYPTION_KEY", &key)],
        &["open", &server.url("/login")],
    );
    let saved = a.ok(&["state", "save", f]);
    assert_eq!(saved["encrypted"], true);
    let bytes = std::fs::read(&file).unwrap();
    assert!(bytes.starts_with(b"AGBSTATE\x01"));
    assert!(!bytes.windows(6).any(|w| w == b"s3cret"));
    // Two saves use two nonces.
    a.ok(&["state", "save", f]);
    assert_ne!(std::fs::read(&file).unwrap()[9..21], bytes[9..21]);
    let show = a.ok(&["state", "show", f]);
    assert_eq!(show["encrypted"], true);

    let b = Cli::new("st-enc-b");
    let (code, msg, _) = b.err(&["state", "load", f]);
    assert_eq!(code, "state_decrypt_failed");
    assert!(msg.contains("no key"), "{msg}");
    let (code, msg, _) = b.err(&["state", "load", f, "--key-file", other.to_str().unwrap()]);
    assert_eq!(code, "state_decrypt_failed");
    assert!(msg.contains("key is wrong"), "{msg}");
    let (code, msg, _) = b.err(&["state", "load", f, "--key-file", bad.to_str().unwrap()]);
    assert_eq!(code, "invalid_argument");
    assert!(msg.contains("64 hex characters"), "{msg}");
    let right = dir.path().join("right.key");
    std::fs::write(&right, format!("{key}\n")).unwrap();
    let loaded = b.ok(&["state", "load", f, "--key-file", right.to_str().unwrap()]);
    assert_eq!(loaded["encrypted"], true);
    assert_eq!(loaded["cookies"], 2);
    let all = b.ok(&["cookies"]);
    assert_eq!(cookie(&all, "sid")["value"], "s3cret");
}

#[test]
fn a_save_killed_in_the_middle_leaves_the_previous_file_intact() {
    let server = cookie_server();
    let dir = TempDir::new("st-kill");
    let file = dir.path().join("big.json");
    let f = file.to_str().unwrap();
    // A first, good save.
    let a = Cli::new("st-kill-a");
    start(&a, &[], &["open", &server.url("/login")]);
    a.ok(&["state", "save", f]);
    let good = std::fs::read(&file).unwrap();
    drop(a);
    // A second session with much more state, whose writer stops after half and waits on a FIFO
    // nobody opens (test hook): the kill lands in the middle of the write.
    let hold = dir.path().join("hold.fifo");
    let c = std::ffi::CString::new(hold.to_str().unwrap()).unwrap();
    // SAFETY: mkfifo(3) on a NUL-terminated path we own.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0, "mkfifo");
    let b = Cli::new("st-kill-b");
    start(
        &b,
        &[("AGENTBROWSER_TEST_STATE_WRITE_HOLD", hold.to_str().unwrap())],
        &["open", &server.url("/")],
    );
    b.ok(&[
        "eval",
        "for (let i = 0; i < 2000; i++) localStorage.setItem('k' + i, 'v'.repeat(100)); 1",
    ]);
    let pid = b.daemon_pid();
    let mut saver = b.command().args(["state", "save", f]).spawn().unwrap();
    // The writer's temporary file: hidden, beside the target, named after it.
    let partial = || {
        std::fs::read_dir(dir.path())
            .ok()?
            .flatten()
            .map(|e| e.path())
            .find(|p| {
                let n = p.file_name().unwrap_or_default().to_string_lossy();
                n.starts_with(".big.json.") && n.ends_with(".partial")
            })
    };
    let mut tmp = std::path::PathBuf::new();
    assert!(
        eventually(Duration::from_secs(20), || match partial() {
            Some(p) if std::fs::metadata(&p).is_ok_and(|m| m.len() > 0) => {
                tmp = p;
                true
            }
            _ => false,
        }),
        "the save never started writing"
    );
    // SAFETY: kill(2) on a pid we read from the daemon's status.
    unsafe { libc::kill(pid as i32, libc::SIGKILL) };
    let _ = saver.wait();
    assert!(eventually(Duration::from_secs(10), || !alive(pid)));
    assert_eq!(
        std::fs::read(&file).unwrap(),
        good,
        "the previous file changed"
    );
    let doc: Value = serde_json::from_slice(&good).unwrap();
    assert!(
        doc["cookies"]
            .as_array()
            .unwrap()
            .iter()
            .any(|c| c["name"] == "sid")
    );
    // The temporary file holds the half written before the kill: not a whole document.
    let half = std::fs::read(&tmp).unwrap();
    assert!(
        serde_json::from_slice::<Value>(&half).is_err(),
        "the temporary file was complete"
    );
}

/// The IndexedDB test page (shared with the Python tests).
const IDB_PAGE: &str = include_str!("../fixtures/state/indexeddb.html");

/// What `read()` of the IndexedDB page answers after `write()`, parsed.
fn idb_read(cli: &Cli) -> Value {
    serde_json::from_str(cli.eval("read()").as_str().expect("JSON text")).expect("JSON")
}

/// What the page reads back from the database `write()` made.
fn idb_written() -> Value {
    serde_json::json!({
        "version": 3, "stores": ["misc", "orders"], "count": 2,
        "date": "2024-01-02T03:04:05.000Z", "item": {"name": "pen", "qty": 2},
        "bytes": [1, 2, 255], "bySku": "plain", "byTag": ["a1", "b2"],
        "unique": true, "multiEntry": true, "map": [["k", 1]], "epoch": "at epoch",
        "nothing": null, "misc": 3
    })
}

#[test]
fn indexed_db_moves_to_a_new_session_in_playwrights_shape_and_is_bounded() {
    let server = Server::start();
    server.route("/idb", Page::html(IDB_PAGE));
    let origin = format!("http://127.0.0.1:{}", server.port());
    let dir = TempDir::new("st-idb");
    let file = dir.path().join("idb.json");
    let f = file.to_str().unwrap();
    let a = Cli::new("st-idb-a");
    a.ok(&["open", &server.url("/idb")]);
    assert_eq!(a.eval("write()"), "written");
    assert_eq!(idb_read(&a), idb_written());
    a.ok(&["open", "about:blank"]);
    let saved = a.ok(&["state", "save", f]);
    assert_eq!(
        saved["indexedDb"],
        serde_json::json!([{"origin": origin, "name": "shop", "version": 3, "stores": 2, "records": 5}]),
        "{saved}"
    );
    assert_eq!(saved["indexedDbNotes"], serde_json::json!([]));
    assert_eq!(saved["origins"], serde_json::json!([origin]));

    // Playwright's shape: plain values as they are, others encoded as Playwright encodes them.
    let doc: Value = serde_json::from_slice(&std::fs::read(&file).unwrap()).unwrap();
    assert_eq!(doc["origins"][0]["localStorage"], serde_json::json!([]));
    let db = &doc["origins"][0]["indexedDB"][0];
    assert_eq!((&db["name"], &db["version"]), (&"shop".into(), &3.into()));
    let store = |n: &str| {
        db["stores"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["name"] == n)
            .unwrap_or_else(|| panic!("no store {n} in {db}"))
            .clone()
    };
    let orders = store("orders");
    assert_eq!(orders["keyPath"], "id");
    assert_eq!(orders["autoIncrement"], true);
    assert!(orders.get("keyPathArray").is_none(), "{orders}");
    assert_eq!(
        orders["indexes"],
        serde_json::json!([
            {"name": "by_sku", "keyPath": "sku", "multiEntry": false, "unique": true},
            {"name": "by_tag", "keyPath": "tags", "multiEntry": true, "unique": false}
        ])
    );
    let records = orders["records"].as_array().unwrap();
    // In-line keys: no `key`; the first value holds a Date and bytes, so it is encoded.
    assert!(records.iter().all(|r| r.get("key").is_none()), "{orders}");
    let first = records[0]["valueEncoded"].to_string();
    assert!(
        first.contains(r#"{"d":"2024-01-02T03:04:05.000Z"}"#)
            && first.contains(r#"{"ta":{"b":"AQL/","k":"ui8"}}"#),
        "{first}"
    );
    assert_eq!(
        records[1]["value"],
        serde_json::json!({"sku": "b2", "note": "plain", "tags": ["y"], "id": 2})
    );
    let misc = store("misc");
    assert_eq!(misc["autoIncrement"], false);
    assert!(misc.get("keyPath").is_none(), "{misc}");
    let misc = misc["records"].to_string();
    assert!(
        misc.contains(r#""keyEncoded":{"d":"1970-01-01T00:00:00.000Z"}"#)
            && misc.contains(r#""key":"nothing","value":null"#)
            && misc.contains(r#""key":"map","valueEncoded":{"m":[{"k":"k","v":1}],"id":1}"#),
        "{misc}"
    );

    // A new session gets it before any page of the origin runs: the page reads it all back,
    // its indexes work and the key generator goes on after the restored keys.
    let b = Cli::new("st-idb-b");
    let loaded = b.ok(&["state", "load", f]);
    assert_eq!(loaded["indexedDb"][0]["records"], 5, "{loaded}");
    assert_eq!(loaded["origins"], serde_json::json!([origin]));
    b.ok(&["open", &server.url("/idb")]);
    assert_eq!(idb_read(&b), idb_written());
    assert_eq!(b.eval("addOrder()"), 3);

    // Loading again replaces the database (the order added since is gone).
    b.ok(&["open", "about:blank"]);
    b.ok(&["state", "load", f]);
    b.ok(&["open", &server.url("/idb")]);
    assert_eq!(idb_read(&b)["count"], 2);

    // A value no file can carry (a Blob) is left out and said; --no-indexed-db leaves it all out.
    b.eval(
        "openShop().then(db => { const tx = db.transaction(['misc'], 'readwrite'); \
         tx.objectStore('misc').put(new Blob(['x']), 'blob'); return done(tx).then(() => db.close()); }).then(() => 1)",
    );
    let blob = dir.path().join("blob.json");
    let v = b.json(&["state", "save", blob.to_str().unwrap()]);
    let notes = v["data"]["indexedDbNotes"].to_string();
    assert!(
        notes.contains("1 records hold values a state file cannot carry (Blob)"),
        "{v}"
    );
    assert!(
        v["warning"].as_str().unwrap_or_default().contains("Blob"),
        "{v}"
    );
    assert_eq!(v["data"]["indexedDb"][0]["records"], 5);
    let none = dir.path().join("none.json");
    let saved = b.ok(&["state", "save", none.to_str().unwrap(), "--no-indexed-db"]);
    assert_eq!(saved["indexedDb"], serde_json::json!([]));
    assert!(
        !std::fs::read_to_string(&none)
            .unwrap()
            .contains("indexedDB")
    );

    // Bounded: past the limit (small here, by the test hook) records are cut, and said.
    let c = Cli::new("st-idb-c");
    start(
        &c,
        &[("AGENTBROWSER_TEST_INDEXED_DB_MAX_BYTES", "150")],
        &["open", &server.url("/idb")],
    );
    c.eval("write()");
    let cut = dir.path().join("cut.json");
    let v = c.json(&["state", "save", cut.to_str().unwrap()]);
    assert_eq!(v["success"], true, "{v}");
    let notes = v["data"]["indexedDbNotes"].to_string();
    assert!(
        notes.contains("cut at") && notes.contains("limit of 150 bytes"),
        "{v}"
    );
    assert!(v["warning"].as_str().unwrap_or_default().contains("cut at"));
    let kept = v["data"]["indexedDb"][0]["records"].as_u64().unwrap();
    assert!(kept < 5, "{v}");
}
