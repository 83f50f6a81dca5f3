//! URLs that reach local files or the browser's own pages, on real Chromium: without file access
//! every channel is refused or fails — `open`, `tab new`, the commands that open a URL first,
//! history and reload, browser args, and the page's own links, forms, scripts, popups, iframes and
//! redirects (from a web page, and from a local page a session attached to) — and a secret
//! file's content never shows in any answer (the answer itself, the page's text, its snapshot,
//! `read`, every tab's and every frame's text, tab titles). With file access a file URL opens.

use std::path::PathBuf;

use serde_json::Value;

use crate::common::*;

/// A directory with a secret file (its marker in its title and text, never in its path) and
/// an index page that leads to it in every way a page can.
struct Secret {
    dir: TempDir,
    marker: String,
}

impl Secret {
    fn new(tag: &str) -> Secret {
        let dir = TempDir::new(&format!("local-{tag}"));
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_nanos();
        let marker = format!("SECRETMARK{}X{nanos}", std::process::id());
        std::fs::write(
            dir.path().join("secret.html"),
            format!("<title>{marker}</title><p>{marker}</p>"),
        )
        .unwrap();
        std::fs::write(
            dir.path().join("index.html"),
            "<title>index</title><a id=link href='secret.html'>secret</a>",
        )
        .unwrap();
        Secret { dir, marker }
    }

    /// The secret file's path.
    fn path(&self) -> String {
        self.dir.path().join("secret.html").display().to_string()
    }

    /// `file://` + the path of `name` in the directory.
    fn url_of(&self, name: &str) -> String {
        format!(
            "file://{}",
            PathBuf::from(self.dir.path()).join(name).display()
        )
    }

    /// The secret file's URL.
    fn url(&self) -> String {
        self.url_of("secret.html")
    }

    /// Asserts the marker is in none of `answers`, nor in anything the session shows now: each
    /// tab's title, URL, text, snapshot and `read`, and the text of each of its frames.
    fn assert_hidden(&self, cli: &Cli, answers: &[&Value]) {
        let hidden = |what: &str, v: &Value| {
            assert!(
                !v.to_string().contains(&self.marker),
                "the secret showed in {what}: {v}"
            );
        };
        for a in answers {
            hidden("the answer", a);
        }
        let list = cli.json(&["tab", "list"]);
        hidden("tab list", &list);
        let tabs = list["data"]["tabs"].as_array().cloned().unwrap_or_default();
        let active = list["data"]["active"].as_str().map(str::to_string);
        for tab in &tabs {
            let id = tab["id"].as_str().unwrap();
            cli.ok(&["tab", "switch", id]);
            for args in [
                vec!["get", "text", "body"],
                vec!["snapshot"],
                vec!["read"],
                vec!["title"],
            ] {
                hidden(&format!("{id}: {args:?}"), &cli.json(&args));
            }
            let frames = cli.json(&["frames"]);
            hidden(&format!("{id}: frames"), &frames);
            for f in frames["data"]["frames"].as_array().into_iter().flatten() {
                let fid = f["id"].as_str().unwrap();
                if cli.json(&["frame", fid, "--by", "id"])["success"] == true {
                    hidden(
                        &format!("{id}: frame {} text", f["url"]),
                        &cli.json(&["get", "text", "body"]),
                    );
                    cli.ok(&["frame", "main"]);
                }
            }
        }
        if let Some(active) = active {
            cli.ok(&["tab", "switch", &active]);
        }
    }
}

/// Runs `args`, asserts the refusal of a local URL (`invalid_argument` naming `schemes` and how
/// to allow it) and returns the answer.
fn refused(cli: &Cli, args: &[&str], schemes: &str) -> Value {
    let v = cli.json(args);
    assert_eq!(v["success"], false, "{args:?} should be refused: {v}");
    assert_eq!(v["code"], "invalid_argument", "{args:?}: {v}");
    let msg = v["error"].as_str().unwrap_or_default();
    assert!(
        msg.contains(schemes) && msg.contains("--allow-file-access"),
        "{args:?}: the refusal should name {schemes} and --allow-file-access: {msg}"
    );
    v
}

/// The scheme chain a refusal of a `file:` URL wrapped in `wrappers` names.
fn chain(wrappers: &[&str]) -> String {
    let mut parts: Vec<String> = wrappers.iter().map(|w| format!("`{w}:`")).collect();
    parts.push("`file:`".into());
    parts.join(" wrapping ")
}

#[test]
fn open_refuses_every_spelling_of_a_local_url() {
    let secret = Secret::new("open");
    let server = two_pages();
    let cli = Cli::new("local-open");
    cli.ok(&["open", &server.url("/")]);
    let (f, path) = (secret.url(), secret.path());
    let cases: Vec<(String, String)> = vec![
        (format!("view-source:{f}"), chain(&["view-source"])),
        (format!("VIEW-SOURCE:{f}"), chain(&["view-source"])),
        (
            format!("view-source:view-source:{f}"),
            chain(&["view-source", "view-source"]),
        ),
        (format!("view-source:  {f}"), chain(&["view-source"])),
        (format!(" FILE://{path}"), chain(&[])),
        (format!("file:{path}"), chain(&[])),
        (format!("fi\tle://{path}"), chain(&[])),
        (format!("\u{1}file://{path}\n"), chain(&[])),
        (format!("vi\new-source:{f}"), chain(&["view-source"])),
        (format!("filesystem:{f}"), chain(&["filesystem"])),
        (format!("blob:{f}"), chain(&["blob"])),
        ("chrome://version".into(), "`chrome:`".into()),
        (
            "view-source:chrome://version".into(),
            "`view-source:` wrapping `chrome:`".into(),
        ),
        (
            "devtools://devtools/bundled/inspector.html".into(),
            "`devtools:`".into(),
        ),
        (
            "chrome-untrusted://terminal/".into(),
            "`chrome-untrusted:`".into(),
        ),
        (
            "chrome-extension://aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa/x.html".into(),
            "`chrome-extension:`".into(),
        ),
    ];
    for (url, schemes) in &cases {
        let answer = refused(&cli, &["open", url], schemes);
        // Nothing was done: the tab still shows the page it showed.
        assert_eq!(cli.ok(&["url"])["url"], server.url("/"), "after {url:?}");
        secret.assert_hidden(&cli, &[&answer]);
    }
}

#[test]
fn tab_new_refuses_local_urls() {
    let secret = Secret::new("tab");
    let server = two_pages();
    let cli = Cli::new("local-tab");
    cli.ok(&["open", &server.url("/")]);
    let f = secret.url();
    let mut answers = Vec::new();
    for (url, schemes) in [
        (format!("view-source:{f}"), chain(&["view-source"])),
        (format!("Fi\tLE://{}", secret.path()), chain(&[])),
        ("chrome://version".to_string(), "`chrome:`".to_string()),
    ] {
        answers.push(refused(&cli, &["tab", "new", &url], &schemes));
    }
    let tabs = cli.ok(&["tab", "list"])["tabs"].as_array().unwrap().len();
    assert_eq!(tabs, 1, "a refused `tab new` opened no tab");
    secret.assert_hidden(&cli, &answers.iter().collect::<Vec<_>>());
}

#[test]
fn commands_that_open_a_url_first_refuse_local_urls() {
    let secret = Secret::new("cmds");
    let server = two_pages();
    let cli = Cli::new("local-cmds");
    cli.ok(&["open", &server.url("/")]);
    let vs = format!("view-source:{}", secret.url());
    let tabbed = format!("fi\tle://{}", secret.path());
    let answers = [
        refused(&cli, &["a11y", &vs], &chain(&["view-source"])),
        refused(&cli, &["vitals", &vs], &chain(&["view-source"])),
        refused(&cli, &["read", &vs], &chain(&["view-source"])),
        refused(&cli, &["addscript", "--url", &tabbed], &chain(&[])),
    ];
    assert_eq!(cli.ok(&["url"])["url"], server.url("/"));
    secret.assert_hidden(&cli, &answers.iter().collect::<Vec<_>>());
}

#[test]
fn browser_args_that_open_local_files_are_refused() {
    let secret = Secret::new("args");
    let server = two_pages();
    for (arg, tag) in [
        (format!("view-source:{}", secret.url()), "local-args-vs"),
        (secret.path(), "local-args-path"),
        (format!("--app={}", secret.url()), "local-args-app"),
    ] {
        let cli = Cli::new(tag);
        let v = cli.json(&[&format!("--browser-arg={arg}"), "open", &server.url("/")]);
        assert_eq!(v["success"], false, "{arg}: {v}");
        assert_eq!(v["code"], "invalid_argument", "{arg}: {v}");
        let msg = v["error"].as_str().unwrap_or_default();
        assert!(
            msg.contains(&arg) && msg.contains("--allow-file-access"),
            "{arg}: {msg}"
        );
        assert!(!v.to_string().contains(&secret.marker), "{v}");
    }
}

/// A web page that leads to the secret file in every way a page can: links (also to a new tab),
/// a form, script navigations, popups, iframes, redirects and a meta refresh.
fn web_site(secret: &Secret) -> Server {
    let f = secret.url();
    let vs = format!("view-source:{f}");
    let s = Server::start();
    s.route(
        "/links",
        Page::html(format!(
            "<title>links</title><a id=file href='{f}'>file</a> <a id=vs href='{vs}'>vs</a> \
             <a id=blank href='{vs}' target=_blank>blank</a>"
        )),
    );
    s.route(
        "/forms",
        Page::html(format!(
            "<title>forms</title><form action='{f}'><button id=file>file</button></form>\
             <form action='{vs}' target=_blank><button id=vs>vs</button></form>"
        )),
    );
    s.route(
        "/scripts",
        Page::html(format!(
            "<title>scripts</title>\
             <button id=href onclick=\"location.href = '{f}'\">href</button>\
             <button id=replace onclick=\"location.replace('{vs}')\">replace</button>\
             <button id=open onclick=\"window.open('{vs}')\">open</button>\
             <button id=openfile onclick=\"window.open('{f}')\">openfile</button>"
        )),
    );
    s.route(
        "/frames",
        Page::html(format!(
            "<title>frames</title><iframe src='{f}'></iframe><iframe src='{vs}'></iframe>\
             <iframe srcdoc=\"<a id=in href='{f}'>in</a>\"></iframe>"
        )),
    );
    s.route("/redirect-file", Page::redirect(302, &f));
    s.route("/redirect-vs", Page::redirect(302, &vs));
    s.route(
        "/refresh",
        Page::html(format!(
            "<title>refresh</title><meta http-equiv=refresh content='0;url={f}'>"
        )),
    );
    s
}

/// Opens `path` of `site` and clicks each of `ids` there, checking after each click that the
/// secret shows nowhere and the tab did not go to the file.
fn click_each(cli: &Cli, secret: &Secret, site: &Server, path: &str, ids: &[&str]) {
    for id in ids {
        cli.ok(&["open", &site.url(path)]);
        let answer = cli.json(&["click", &format!("#{id}")]);
        secret.assert_hidden(cli, &[&answer]);
        let url = cli.ok(&["url"])["url"]
            .as_str()
            .unwrap_or_default()
            .to_string();
        assert!(
            url.starts_with("http://127.0.0.1"),
            "#{id} led the tab to {url}"
        );
    }
}

#[test]
fn links_to_local_urls_do_not_load() {
    let secret = Secret::new("links");
    let site = web_site(&secret);
    let cli = Cli::new("local-links");
    click_each(&cli, &secret, &site, "/links", &["file", "vs", "blank"]);
}

#[test]
fn form_submissions_to_local_urls_do_not_load() {
    let secret = Secret::new("forms");
    let site = web_site(&secret);
    let cli = Cli::new("local-forms");
    click_each(&cli, &secret, &site, "/forms", &["file", "vs"]);
}

#[test]
fn script_navigations_and_window_open_to_local_urls_do_not_load() {
    let secret = Secret::new("scripts");
    let site = web_site(&secret);
    let cli = Cli::new("local-scripts");
    click_each(
        &cli,
        &secret,
        &site,
        "/scripts",
        &["href", "replace", "open", "openfile"],
    );
    let answer = cli.json(&[
        "eval",
        &format!("location.assign('view-source:{}'); 1", secret.url()),
    ]);
    secret.assert_hidden(&cli, &[&answer]);
}

#[test]
fn iframes_of_local_urls_do_not_load() {
    let secret = Secret::new("iframes");
    let site = web_site(&secret);
    let cli = Cli::new("local-iframes");
    let answer = cli.json(&["open", &site.url("/frames")]);
    secret.assert_hidden(&cli, &[&answer]);
    let frames = cli.ok(&["frames"]);
    assert!(
        frames["total"].as_u64().unwrap_or(0) >= 4,
        "the page and its three frames: {frames}"
    );
}

#[test]
fn redirects_to_local_urls_are_not_followed() {
    let secret = Secret::new("redirects");
    let site = web_site(&secret);
    let cli = Cli::new("local-redirects");
    for path in ["/redirect-file", "/redirect-vs", "/refresh"] {
        let answer = cli.json(&["open", &site.url(path)]);
        secret.assert_hidden(&cli, &[&answer]);
        let answer = cli.json(&["read", &site.url(path)]);
        secret.assert_hidden(&cli, &[&answer]);
    }
}

/// A Chromium started by hand on the secret directory's index page (as a user's browser a
/// session attaches to may show a local page), killed with its process group on drop.
struct LocalBrowser {
    child: std::process::Child,
    ws: String,
    _profile: TempDir,
}

impl LocalBrowser {
    fn start(secret: &Secret) -> LocalBrowser {
        use std::io::BufRead;
        use std::os::unix::process::CommandExt;
        let profile = TempDir::new("local-browser-profile");
        let mut child = std::process::Command::new("/usr/bin/chromium")
            .args([
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--no-first-run",
            ])
            .arg("--remote-debugging-port=0")
            .arg(format!("--user-data-dir={}", profile.path().display()))
            .arg(secret.url_of("index.html"))
            .process_group(0)
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("start chromium");
        let mut lines = std::io::BufReader::new(child.stderr.take().unwrap()).lines();
        let ws = lines
            .by_ref()
            .map_while(Result::ok)
            .find_map(|l| {
                l.strip_prefix("DevTools listening on ")
                    .map(|u| u.trim().to_string())
            })
            .expect("chromium printed no DevTools URL");
        std::thread::spawn(move || lines.for_each(drop));
        let browser = LocalBrowser {
            child,
            ws,
            _profile: profile,
        };
        assert!(
            eventually(std::time::Duration::from_secs(10), || browser
                .page_titles()
                .contains("\"index\"")),
            "the index page never loaded: {}",
            browser.page_titles()
        );
        browser
    }

    /// The browser's `/json/list` (its targets with their titles), read over plain HTTP.
    fn page_titles(&self) -> String {
        use std::io::{Read, Write};
        let host = self
            .ws
            .trim_start_matches("ws://")
            .split('/')
            .next()
            .unwrap_or_default();
        let Ok(mut conn) = std::net::TcpStream::connect(host) else {
            return String::new();
        };
        // Chromium answers HTTP/1.1 only, and keeps the connection open: read Content-Length.
        let _ = write!(conn, "GET /json/list HTTP/1.1\r\nHost: {host}\r\n\r\n");
        let _ = conn.set_read_timeout(Some(std::time::Duration::from_secs(2)));
        let mut out = Vec::new();
        let mut buf = [0u8; 16384];
        while let Ok(n @ 1..) = conn.read(&mut buf) {
            out.extend_from_slice(&buf[..n]);
            let text = String::from_utf8_lossy(&out);
            if let Some((head, body)) = text.split_once("\r\n\r\n") {
                let len = head
                    .lines()
                    .find_map(|l| {
                        l.to_ascii_lowercase()
                            .strip_prefix("content-length:")
                            .map(|v| v.trim().parse::<usize>().unwrap_or(0))
                    })
                    .unwrap_or(0);
                if body.len() >= len {
                    return body.to_string();
                }
            }
        }
        String::new()
    }
}

impl Drop for LocalBrowser {
    fn drop(&mut self) {
        // SAFETY: signals the process group this test started.
        unsafe { libc::killpg(self.child.id() as i32, libc::SIGKILL) };
        let _ = self.child.wait();
    }
}

#[test]
fn history_and_reload_never_load_a_local_page() {
    let secret = Secret::new("history");
    let server = two_pages();
    let owner = Cli::new("local-history-owner");
    // One tab goes back to the file, the other forward to it.
    owner.ok(&["--allow-file-access", "open", &secret.url()]);
    owner.ok(&["open", &server.url("/second")]);
    owner.ok(&["tab", "new", &server.url("/")]);
    owner.ok(&["open", &secret.url()]);
    owner.ok(&["back"]);
    let ws = owner.ok(&["get", "cdp-url"])["wsUrl"]
        .as_str()
        .unwrap()
        .to_string();
    let agent = Cli::new("local-history");
    agent.ok(&["--cdp", &ws, "url"]);
    let switch_to = |title: &str| {
        let tabs = agent.ok(&["tab", "list"])["tabs"].clone();
        let tab = tabs
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["title"] == title)
            .unwrap_or_else(|| panic!("no tab titled {title}: {tabs}"));
        agent.ok(&["tab", "switch", tab["id"].as_str().unwrap()]);
    };
    switch_to("Second");
    let answer = refused(&agent, &["back"], "`file:`");
    assert_eq!(agent.ok(&["url"])["url"], server.url("/second"));
    secret.assert_hidden(&agent, &[&answer]);
    switch_to("First");
    let answer = refused(&agent, &["forward"], "`file:`");
    assert_eq!(agent.ok(&["url"])["url"], server.url("/"));
    secret.assert_hidden(&agent, &[&answer]);
    // The owner goes forward to the file in that tab: the attached session's interception fails
    // its request, so the tab shows an error page; reloading it from the agent is refused.
    let _ = owner.json(&["forward"]);
    let answer = refused(&agent, &["reload"], "`file:`");
    secret.assert_hidden(&agent, &[&answer]);
}

#[test]
fn a_local_page_cannot_lead_a_session_without_file_access_to_a_local_file() {
    let secret = Secret::new("from-local");
    let browser = LocalBrowser::start(&secret);
    let agent = Cli::new("local-from-local");
    assert_eq!(
        agent.ok(&["--cdp", &browser.ws, "title"])["title"],
        "index",
        "the attached session shows the browser's local page"
    );
    // An iframe and a popup of the local page, then a link and a script navigation.
    let answer = agent.json(&[
        "eval",
        "const f = document.createElement('iframe'); f.src = 'secret.html'; \
         document.body.append(f); window.open('secret.html'); 1",
    ]);
    secret.assert_hidden(&agent, &[&answer]);
    let clicked = agent.json(&["click", "#link"]);
    let after = agent.json(&["get", "text", "body"]);
    secret.assert_hidden(&agent, &[&clicked, &after]);
    let said = format!("{clicked}{after}");
    assert!(
        said.contains("was refused") && said.contains("secret.html"),
        "the page's refused request is told as a warning: {said}"
    );
}

#[test]
fn with_file_access_a_file_url_opens() {
    let secret = Secret::new("allowed");
    let cli = Cli::new("local-allowed");
    let opened = cli.ok(&["--allow-file-access", "open", &secret.url()]);
    assert_eq!(opened["title"], secret.marker, "{opened}");
    let text = cli.ok(&["get", "text", "body"]);
    assert!(text.to_string().contains(&secret.marker), "{text}");
    cli.ok(&["open", &format!("view-source:{}", secret.url())]);
    let source = cli.ok(&["get", "text", "body"]);
    assert!(
        source
            .to_string()
            .contains(&format!("<title>{}", secret.marker)),
        "{source}"
    );
}
