//! The auth vault on real Chromium against a login site on 127.0.0.1 that checks credentials
//! from a posted form and sets a session cookie: `auth save` (password from stdin, encrypted,
//! never answered), `auth login` logging in (the page then shows the user), a page that swaps
//! the password field for a text input while the username is typed (`auth_fields_changed`,
//! nothing posted), a form whose submit does nothing (`auth_not_submitted`), a vault without a
//! key, and the password absent from every answer, the daemon's log, the vault file, the
//! network log and a HAR recorded during the login.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::process::Stdio;
use std::sync::{Arc, Mutex};

use crate::common::*;
use serde_json::Value;

const KEY: &str = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff";
const PASSWORD: &str = "Tr0ub4dor&3 horse";

/// The login form: a username, a password and a submit button (with extra page scripts).
fn form(script: &str) -> String {
    format!(
        "<title>Sign in</title><h1>Sign in</h1><form method=post action=/login>\
         <label>User <input name=user autocomplete=username></label>\
         <label>Password <input id=pw name=pass type=password></label>\
         <button type=submit>Sign in</button></form><script>{script}</script>"
    )
}

/// A login site: GET /login shows the form, POST /login checks `user=alice` and the password
/// and sets `sid`, GET /home says who is logged in (from the cookie); GET /swap replaces the
/// password field with a text input when the username is typed; GET /inert's submit is
/// cancelled. It counts the POSTs and keeps their bodies.
struct LoginSite {
    port: u16,
    posts: Arc<Mutex<Vec<String>>>,
}

impl LoginSite {
    fn start() -> LoginSite {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let posts: Arc<Mutex<Vec<String>>> = Arc::default();
        let p = posts.clone();
        std::thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let p = p.clone();
                std::thread::spawn(move || {
                    let _ = serve(stream, &p);
                });
            }
        });
        LoginSite { port, posts }
    }

    fn url(&self, path: &str) -> String {
        format!("http://127.0.0.1:{}{path}", self.port)
    }

    fn posts(&self) -> Vec<String> {
        self.posts.lock().unwrap().clone()
    }
}

/// A form-urlencoded component decoded.
fn decode(s: &str) -> String {
    let b = s.replace('+', " ").into_bytes();
    let mut out = vec![];
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%'
            && i + 2 < b.len()
            && let Ok(v) =
                u8::from_str_radix(std::str::from_utf8(&b[i + 1..i + 3]).unwrap_or(""), 16)
        {
            out.push(v);
            i += 3;
            continue;
        }
        out.push(b[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn serve(stream: std::net::TcpStream, posts: &Mutex<Vec<String>>) -> std::io::Result<()> {
    let mut reader = BufReader::new(stream.try_clone()?);
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line)? == 0 {
            return Ok(());
        }
        let (mut length, mut cookie) = (0usize, String::new());
        loop {
            let mut h = String::new();
            if reader.read_line(&mut h)? == 0 {
                return Ok(());
            }
            let h = h.trim();
            if h.is_empty() {
                break;
            }
            if let Some((k, v)) = h.split_once(':') {
                match k.to_ascii_lowercase().as_str() {
                    "content-length" => length = v.trim().parse().unwrap_or(0),
                    "cookie" => cookie = v.trim().to_string(),
                    _ => {}
                }
            }
        }
        let mut body = vec![0u8; length];
        reader.read_exact(&mut body)?;
        let body = String::from_utf8_lossy(&body).to_string();
        let mut parts = line.split_whitespace();
        let (method, path) = (parts.next().unwrap_or(""), parts.next().unwrap_or("/"));
        let (status, extra, html) = match (method, path) {
            ("POST", "/login") => {
                posts.lock().unwrap().push(body.clone());
                let fields: Vec<(String, String)> = body
                    .split('&')
                    .filter_map(|kv| kv.split_once('='))
                    .map(|(k, v)| (decode(k), decode(v)))
                    .collect();
                let get = |k: &str| fields.iter().find(|(n, _)| n == k).map(|(_, v)| v.as_str());
                if get("user") == Some("alice") && get("pass") == Some(PASSWORD) {
                    (
                        "303 See Other",
                        "Location: /home\r\nSet-Cookie: sid=ok-alice; Path=/; HttpOnly\r\n",
                        String::new(),
                    )
                } else {
                    (
                        "401 Unauthorized",
                        "",
                        "<title>Denied</title><p>wrong credentials</p>".into(),
                    )
                }
            }
            (_, "/home") if cookie.contains("sid=ok-alice") => (
                "200 OK",
                "",
                "<title>Home</title><p id=who>Logged in as alice</p>".into(),
            ),
            (_, "/home") => (
                "200 OK",
                "",
                "<title>Home</title><p>Not logged in</p>".into(),
            ),
            (_, "/login") => ("200 OK", "", form("")),
            (_, "/swap") => (
                "200 OK",
                "",
                form(
                    "document.querySelector('[name=user]').addEventListener('input', () => {\
                       const pw = document.getElementById('pw'); if (!pw) return;\
                       const t = document.createElement('input'); t.name = 'pass'; t.type = 'text';\
                       pw.replaceWith(t); }, {once: true});",
                ),
            ),
            (_, "/twin") => (
                "200 OK",
                "",
                form(
                    "document.querySelector('[name=user]').addEventListener('input', () => {\
                       const pw = document.getElementById('pw'); if (!pw) return;\
                       const t = document.createElement('input'); t.name = 'stolen'; t.type = 'password';\
                       pw.replaceWith(t); }, {once: true});",
                ),
            ),
            (_, "/spa") => (
                "200 OK",
                "",
                form(
                    "const f = document.querySelector('form'); f.addEventListener('submit', e => {\
                       e.preventDefault();\
                       fetch('/login', {method: 'POST', body: new URLSearchParams(new FormData(f))})\
                         .then(r => { document.title = r.ok ? 'Signed in' : 'Refused'; }); });",
                ),
            ),
            (_, "/inert") => (
                "200 OK",
                "",
                form(
                    "document.querySelector('button').addEventListener('click', e => e.preventDefault());",
                ),
            ),
            _ => ("404 Not Found", "", "<title>Not found</title>".into()),
        };
        let head = format!(
            "HTTP/1.1 {status}\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: {}\r\nCache-Control: no-store\r\n{extra}\r\n",
            html.len()
        );
        let mut out = stream.try_clone()?;
        out.write_all(head.as_bytes())?;
        out.write_all(html.as_bytes())?;
        out.flush()?;
    }
}

/// The environment of a session with a vault (and a state directory) in `dir`.
fn vault_env(dir: &std::path::Path, key: bool) -> Vec<(String, String)> {
    let mut env = vec![
        (
            "AGENTBROWSER_AUTH_DIR".to_string(),
            dir.join("auth").display().to_string(),
        ),
        (
            "AGENTBROWSER_STATE_DIR".to_string(),
            dir.join("state").display().to_string(),
        ),
    ];
    if key {
        env.push(("AGENTBROWSER_ENCRYPTION_KEY".into(), KEY.into()));
    }
    env
}

/// A login site and a session (tagged `tag`) with a vault, with or without a key.
fn setup(tag: &str, key: bool) -> (LoginSite, Cli, Vec<(String, String)>) {
    let cli = Cli::new(tag);
    let env = vault_env(cli.dir.path(), key);
    (LoginSite::start(), cli, env)
}

/// Runs one command with `--json`, the environment and `stdin`; its envelope and raw stdout.
fn run(cli: &Cli, env: &[(String, String)], stdin: &str, args: &[&str]) -> (Value, String) {
    let mut c = cli.command();
    for (k, v) in env {
        c.env(k, v);
    }
    let mut child = c
        .arg("--json")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn agentbrowser");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{args:?}: not JSON ({e}): {text}"));
    (v, text)
}

/// `auth save NAME --url <site PATH> --username alice --password-stdin [EXTRA...]` with the
/// password on stdin; its envelope.
fn save(
    cli: &Cli,
    env: &[(String, String)],
    site: &LoginSite,
    name: &str,
    path: &str,
    extra: &[&str],
) -> Value {
    save_with(cli, env, site, name, path, PASSWORD, extra).0
}

/// [`save`] with `stdin` given: its envelope and raw output.
fn save_with(
    cli: &Cli,
    env: &[(String, String)],
    site: &LoginSite,
    name: &str,
    path: &str,
    stdin: &str,
    extra: &[&str],
) -> (Value, String) {
    let url = site.url(path);
    let mut args = vec![
        "auth",
        "save",
        name,
        "--url",
        &url,
        "--username",
        "alice",
        "--password-stdin",
    ];
    args.extend_from_slice(extra);
    run(cli, env, stdin, &args)
}

/// The network log's detail of the session's one POST, and the raw output.
fn post_detail(cli: &Cli, env: &[(String, String)]) -> (Value, String) {
    let (log, _) = run(cli, env, "", &["network", "requests"]);
    let post = log["data"]["requests"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["method"] == "POST")
        .unwrap_or_else(|| panic!("no POST in {log}"))
        .clone();
    run(
        cli,
        env,
        "",
        &["network", "request", post["id"].as_str().unwrap()],
    )
}

/// Every file under `dir` (recursively) with its bytes.
fn files_under(dir: &std::path::Path) -> Vec<(std::path::PathBuf, Vec<u8>)> {
    let mut out = vec![];
    let Ok(rd) = std::fs::read_dir(dir) else {
        return out;
    };
    for e in rd.flatten() {
        let p = e.path();
        if p.is_dir() {
            out.extend(files_under(&p));
        } else if let Ok(b) = std::fs::read(&p) {
            out.push((p, b));
        }
    }
    out
}

fn contains(hay: &[u8], needle: &str) -> bool {
    hay.windows(needle.len()).any(|w| w == needle.as_bytes())
}

#[test]
fn auth_login_logs_in_and_the_password_appears_nowhere() {
    let (site, cli, env) = setup("auth-login", true);
    let mut seen = String::new();
    let (saved, out) = save_with(
        &cli,
        &env,
        &site,
        "site",
        "/login",
        &format!("{PASSWORD}\n"),
        &[],
    );
    seen.push_str(&out);
    assert_eq!(saved["success"], true, "{saved}");
    assert_eq!(saved["data"]["entry"]["username"], "alice");
    assert_eq!(saved["data"]["replaced"], false);
    let file = std::path::PathBuf::from(saved["data"]["entry"]["path"].as_str().unwrap());
    let bytes = std::fs::read(&file).unwrap();
    assert!(
        bytes.starts_with(b"AGBSTATE"),
        "the vault file is not encrypted"
    );
    assert!(!contains(&bytes, PASSWORD) && !contains(&bytes, "alice"));
    use std::os::unix::fs::PermissionsExt;
    assert_eq!(
        std::fs::metadata(&file).unwrap().permissions().mode() & 0o777,
        0o600
    );
    assert_eq!(
        std::fs::metadata(file.parent().unwrap())
            .unwrap()
            .permissions()
            .mode()
            & 0o777,
        0o700
    );

    // A HAR runs during the login: the posted form is in it, the password is not.
    let (har, out) = run(&cli, &env, "", &["network", "har", "start"]);
    seen.push_str(&out);
    assert_eq!(har["success"], true, "{har}");
    let (login, out) = run(&cli, &env, "", &["auth", "login", "site"]);
    seen.push_str(&out);
    assert_eq!(login["success"], true, "{login}");
    let d = &login["data"];
    assert_eq!(d["submit"], "click");
    assert_eq!(d["navigated"], true);
    assert_eq!(d["url"], site.url("/home"));
    assert_eq!(d["title"], "Home");
    assert_eq!(site.posts().len(), 1, "one form post");
    assert!(
        site.posts()[0].starts_with("user=alice&pass="),
        "{:?}",
        site.posts()
    );
    let who =
        cli.eval("document.getElementById('who') && document.getElementById('who').textContent");
    assert_eq!(who, "Logged in as alice");
    // The session cookie the server set is the browser's now.
    let cookies = cli.ok(&["cookies"]);
    assert!(cookies.to_string().contains("ok-alice"), "{cookies}");

    let har_path = cli.dir.path().join("login.har");
    let (stopped, out) = run(
        &cli,
        &env,
        "",
        &["network", "har", "stop", har_path.to_str().unwrap()],
    );
    seen.push_str(&out);
    assert_eq!(stopped["success"], true, "{stopped}");
    let har_text = std::fs::read_to_string(&har_path).unwrap();
    assert!(
        har_text.contains("user=alice&pass=<redacted>")
            || har_text.contains("user=alice&pass=%3Credacted%3E"),
        "the HAR has the post, redacted: {}",
        &har_text[..har_text.len().min(3000)]
    );

    // The request log's detail of the post has it redacted too.
    let (detail, out) = post_detail(&cli, &env);
    seen.push_str(&out);
    assert_eq!(detail["success"], true, "{detail}");
    assert!(detail.to_string().contains("pass=<redacted>"), "{detail}");

    // list and show give the username and URL, never the password (human output too).
    let (list, out) = run(&cli, &env, "", &["auth", "list"]);
    seen.push_str(&out);
    assert_eq!(list["data"]["entries"][0]["name"], "site");
    let (show, out) = run(&cli, &env, "", &["auth", "show", "site"]);
    seen.push_str(&out);
    assert_eq!(show["data"]["entry"]["url"], site.url("/login"));
    let mut human = cli.command();
    for (k, v) in &env {
        human.env(k, v);
    }
    let human = to_run(human.args(["auth", "show", "site"]).output().unwrap());
    assert!(
        human.ok && human.stdout.contains("alice @ "),
        "{}",
        human.stdout
    );
    seen.push_str(&human.stdout);

    assert!(
        !seen.contains(PASSWORD),
        "an answer holds the password:\n{seen}"
    );
    for (path, bytes) in files_under(cli.dir.path()) {
        for spelling in [PASSWORD, "Tr0ub4dor%263+horse", "Tr0ub4dor%263%20horse"] {
            assert!(
                !contains(&bytes, spelling),
                "{} holds the password",
                path.display()
            );
        }
    }
    let log_file = cli.dir.path().join(format!("{}.log", cli.session));
    assert!(log_file.exists(), "no daemon log at {}", log_file.display());

    let (deleted, _) = run(&cli, &env, "", &["auth", "delete", "site"]);
    assert_eq!(deleted["success"], true, "{deleted}");
    assert!(!file.exists());
    let (gone, _) = run(&cli, &env, "", &["auth", "login", "site"]);
    assert_eq!(gone["code"], "auth_not_found", "{gone}");
}

#[test]
fn a_swapped_password_field_is_refused_and_nothing_is_posted() {
    let (site, cli, env) = setup("auth-swap", true);
    let saved = save(&cli, &env, &site, "swap", "/swap", &[]);
    assert_eq!(saved["success"], true, "{saved}");
    let (login, out) = run(&cli, &env, "", &["auth", "login", "swap"]);
    assert_eq!(login["success"], false, "{login}");
    assert_eq!(login["code"], "auth_fields_changed", "{login}");
    assert!(
        login["error"]
            .as_str()
            .unwrap()
            .contains("nothing was submitted"),
        "{login}"
    );
    assert!(
        login["error"]
            .as_str()
            .unwrap()
            .contains("input[type=password]"),
        "{login}"
    );
    assert!(!out.contains(PASSWORD));
    assert!(site.posts().is_empty(), "posted: {:?}", site.posts());
    // The text input that replaced the password field did not get the password.
    let typed = cli.eval("document.querySelector('[name=pass]').value");
    assert_eq!(typed, "", "the password went into the swapped-in field");
    assert_eq!(
        cli.eval("document.querySelector('[name=pass]').type"),
        "text"
    );

    // A password input replaced by another password input (same selector, another element).
    let saved = save(&cli, &env, &site, "twin", "/twin", &[]);
    assert_eq!(saved["success"], true, "{saved}");
    let (login, _) = run(&cli, &env, "", &["auth", "login", "twin"]);
    assert_eq!(login["code"], "auth_fields_changed", "{login}");
    assert!(
        login["error"].as_str().unwrap().contains("another element"),
        "{login}"
    );
    assert_eq!(
        cli.eval("document.querySelector('[name=stolen]').value"),
        ""
    );
    assert!(site.posts().is_empty(), "posted: {:?}", site.posts());

    // A submit that is cancelled is not reported as a login.
    let saved = save(&cli, &env, &site, "inert", "/inert", &[]);
    assert_eq!(saved["success"], true, "{saved}");
    let (login, _) = run(&cli, &env, "", &["auth", "login", "inert"]);
    assert_eq!(login["code"], "auth_not_submitted", "{login}");
    assert!(site.posts().is_empty(), "posted: {:?}", site.posts());
}

#[test]
fn a_form_taken_over_by_its_script_is_submitted_without_a_navigation() {
    let (site, cli, env) = setup("auth-spa", true);
    let saved = save(
        &cli,
        &env,
        &site,
        "spa",
        "/spa",
        &["--submit-selector", "button"],
    );
    assert_eq!(saved["success"], true, "{saved}");
    let (login, out) = run(&cli, &env, "", &["auth", "login", "spa"]);
    assert_eq!(login["success"], true, "{login}");
    assert_eq!(login["data"]["navigated"], false, "{login}");
    assert_eq!(login["data"]["selectors"]["submit"], "button");
    assert!(!out.contains(PASSWORD));
    assert!(
        eventually(std::time::Duration::from_secs(10), || cli
            .eval("document.title")
            == "Signed in"),
        "the script's post was not accepted: {:?}",
        site.posts()
    );
    assert_eq!(site.posts().len(), 1);
    let (detail, out) = post_detail(&cli, &env);
    assert!(detail.to_string().contains("pass=<redacted>"), "{detail}");
    assert!(
        !out.contains(PASSWORD) && !out.contains("Tr0ub4dor%263+horse"),
        "{out}"
    );
}

#[test]
fn a_vault_needs_a_key_and_the_password_comes_from_stdin() {
    let (site, cli, env) = setup("auth-nokey", false);
    let saved = save(&cli, &env, &site, "site", "/login", &[]);
    assert_eq!(saved["code"], "auth_key_missing", "{saved}");
    assert!(
        saved["error"]
            .as_str()
            .unwrap()
            .contains("AGENTBROWSER_ENCRYPTION_KEY"),
        "{saved}"
    );
    assert!(
        files_under(&cli.dir.path().join("auth")).is_empty(),
        "something was written"
    );

    // An empty stdin is refused before anything is sent.
    let (empty, _) = save_with(&cli, &env, &site, "site", "/login", "", &[]);
    assert_eq!(empty["code"], "invalid_argument", "{empty}");
    assert!(
        empty["error"].as_str().unwrap().contains("stdin"),
        "{empty}"
    );

    // A key file works where the environment has none; a bad name is refused with the rule.
    let key_file = cli.dir.path().join("key");
    std::fs::write(&key_file, KEY).unwrap();
    let (saved, _) = save_with(
        &cli,
        &env,
        &site,
        "site",
        "/login",
        PASSWORD,
        &["--key-file", key_file.to_str().unwrap()],
    );
    assert_eq!(saved["success"], true, "{saved}");
    let (listed, _) = run(&cli, &env, "", &["auth", "list"]);
    assert_eq!(listed["code"], "auth_key_missing", "{listed}");
    let (bad, _) = run(&cli, &env, "", &["auth", "show", "../x"]);
    assert_eq!(bad["code"], "invalid_argument", "{bad}");
    assert!(
        bad["error"].as_str().unwrap().contains("not a vault name"),
        "{bad}"
    );
}
