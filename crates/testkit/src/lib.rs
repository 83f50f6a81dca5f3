//! Test support shared by the end-to-end suites: a tiny HTTP/1.1 server on 127.0.0.1 that serves
//! fixture pages (with optional delays), and helpers to inspect processes.

#![warn(missing_docs)]

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// One route's answer.
#[derive(Clone, Debug)]
pub struct Page {
    /// HTTP status.
    pub status: u16,
    /// Content type.
    pub content_type: String,
    /// Body bytes.
    pub body: Vec<u8>,
    /// Delay before answering.
    pub delay: Duration,
    /// Extra response headers (`Location`, `Set-Cookie`, ...).
    pub headers: Vec<(String, String)>,
    /// The Markdown answered instead when the request's `Accept` names `text/markdown`.
    pub markdown: Option<Vec<u8>>,
}

impl Page {
    /// An HTML page with status 200.
    pub fn html(body: impl Into<String>) -> Page {
        Page {
            status: 200,
            content_type: "text/html; charset=utf-8".into(),
            body: body.into().into_bytes(),
            delay: Duration::ZERO,
            headers: Vec::new(),
            markdown: None,
        }
    }

    /// A body with its content type, status 200.
    pub fn typed(content_type: &str, body: impl Into<Vec<u8>>) -> Page {
        Page {
            content_type: content_type.into(),
            body: body.into(),
            ..Page::html("")
        }
    }

    /// A redirect (`status` 301, 302, 303, 307 or 308) to `location`.
    pub fn redirect(status: u16, location: &str) -> Page {
        Page::html("")
            .with_status(status)
            .with_header("Location", location)
    }

    /// The same page that answers `markdown` (as `text/markdown`) to a request whose `Accept`
    /// names `text/markdown`.
    pub fn negotiated(mut self, markdown: impl Into<String>) -> Page {
        self.markdown = Some(markdown.into().into_bytes());
        self
    }

    /// The same page with one more response header.
    pub fn with_header(mut self, name: &str, value: &str) -> Page {
        self.headers.push((name.into(), value.into()));
        self
    }

    /// The same page answered after `delay`.
    pub fn delayed(mut self, delay: Duration) -> Page {
        self.delay = delay;
        self
    }

    /// The same page with another status.
    pub fn with_status(mut self, status: u16) -> Page {
        self.status = status;
        self
    }
}

/// A local HTTP server on 127.0.0.1 with an ephemeral port; stops when dropped.
pub struct Server {
    port: u16,
    routes: Arc<Mutex<HashMap<String, Page>>>,
    log: Arc<Mutex<Vec<Received>>>,
}

/// A request the server received.
#[derive(Clone, Debug)]
pub struct Received {
    /// The path with its query.
    pub path: String,
    /// The request headers, names lowercase, in order.
    pub headers: Vec<(String, String)>,
}

impl Received {
    /// The value of header `name` (lowercase), if sent.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }
}

impl Server {
    /// Starts a server with no routes.
    pub fn start() -> Server {
        Server::start_with_dir(None)
    }

    /// Starts a server that also serves files from `dir` for paths without a route.
    pub fn serve_dir(dir: &Path) -> Server {
        Server::start_with_dir(Some(dir.to_path_buf()))
    }

    fn start_with_dir(dir: Option<PathBuf>) -> Server {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind 127.0.0.1:0");
        let port = listener.local_addr().expect("local addr").port();
        let routes: Arc<Mutex<HashMap<String, Page>>> = Arc::default();
        let log: Arc<Mutex<Vec<Received>>> = Arc::default();
        let r = routes.clone();
        let l = log.clone();
        let d = dir;
        std::thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let r = r.clone();
                let l = l.clone();
                let d = d.clone();
                std::thread::spawn(move || {
                    let _ = handle(stream, &r, &l, d.as_deref());
                });
            }
        });
        Server { port, routes, log }
    }

    /// Adds or replaces a route.
    pub fn route(&self, path: &str, page: Page) -> &Server {
        self.routes
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(path.to_string(), page);
        self
    }

    /// The absolute URL of a path on this server.
    pub fn url(&self, path: &str) -> String {
        format!("http://127.0.0.1:{}{path}", self.port)
    }

    /// The port.
    pub fn port(&self) -> u16 {
        self.port
    }

    /// Every request received so far, in order.
    pub fn requests(&self) -> Vec<Received> {
        self.log.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }

    /// The requests received so far for `path` (without its query).
    pub fn requests_for(&self, path: &str) -> Vec<Received> {
        self.requests()
            .into_iter()
            .filter(|r| r.path.split('?').next() == Some(path))
            .collect()
    }
}

fn handle(
    stream: TcpStream,
    routes: &Mutex<HashMap<String, Page>>,
    log: &Mutex<Vec<Received>>,
    dir: Option<&Path>,
) -> std::io::Result<()> {
    stream.set_nodelay(true)?;
    let mut reader = BufReader::new(stream.try_clone()?);
    loop {
        let mut request_line = String::new();
        if reader.read_line(&mut request_line)? == 0 {
            return Ok(());
        }
        let mut content_length = 0usize;
        let mut headers = Vec::new();
        loop {
            let mut header = String::new();
            if reader.read_line(&mut header)? == 0 {
                return Ok(());
            }
            let h = header.trim();
            if h.is_empty() {
                break;
            }
            if let Some((k, v)) = h.split_once(':') {
                if k.eq_ignore_ascii_case("content-length") {
                    content_length = v.trim().parse().unwrap_or(0);
                }
                headers.push((k.trim().to_ascii_lowercase(), v.trim().to_string()));
            }
        }
        let mut body = vec![0u8; content_length];
        reader.read_exact(&mut body)?;
        let path = request_line
            .split_whitespace()
            .nth(1)
            .unwrap_or("/")
            .to_string();
        let route_path = path.split('?').next().unwrap_or("/").to_string();
        let wants_markdown = headers
            .iter()
            .any(|(k, v)| k == "accept" && v.contains("text/markdown"));
        log.lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(Received {
                path: path.clone(),
                headers,
            });
        let page = routes
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(&route_path)
            .cloned();
        let page = page.or_else(|| {
            let dir = dir?;
            let rel = route_path.trim_start_matches('/');
            let rel = if rel.is_empty() { "index.html" } else { rel };
            if rel.contains("..") {
                return None;
            }
            let file = dir.join(rel);
            let body = std::fs::read(&file).ok()?;
            let ct = match file.extension().and_then(|e| e.to_str()) {
                Some("html") => "text/html; charset=utf-8",
                Some("js") => "text/javascript",
                Some("css") => "text/css",
                Some("json") => "application/json",
                _ => "application/octet-stream",
            };
            Some(Page::typed(ct, body))
        });
        let page = page.unwrap_or_else(|| {
            Page::html("<title>Not found</title><h1>Not found</h1>").with_status(404)
        });
        if !page.delay.is_zero() {
            std::thread::sleep(page.delay);
        }
        let (content_type, body) = match &page.markdown {
            Some(md) if wants_markdown => ("text/markdown; charset=utf-8", md),
            _ => (page.content_type.as_str(), &page.body),
        };
        let mut out = stream.try_clone()?;
        let mut head = format!(
            "HTTP/1.1 {} X\r\nContent-Type: {}\r\nContent-Length: {}\r\nCache-Control: no-store\r\n",
            page.status,
            content_type,
            body.len()
        );
        if page.markdown.is_some() {
            head.push_str("Vary: Accept\r\n");
        }
        for (k, v) in &page.headers {
            head.push_str(&format!("{k}: {v}\r\n"));
        }
        head.push_str("\r\n");
        // One write: a head and a body written apart wait for the client's delayed ACK (Nagle's
        // algorithm on a kept-alive connection), 40 ms a response.
        let mut response = head.into_bytes();
        response.extend_from_slice(body);
        out.write_all(&response)?;
        out.flush()?;
    }
}

/// Pids of every live process in the process group `pgid` (read from /proc).
pub fn group_members(pgid: u32) -> Vec<u32> {
    let mut out = Vec::new();
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return out;
    };
    for e in entries.flatten() {
        let Ok(pid) = e.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
            continue;
        };
        // Fields after the command name (which is in parentheses and may contain spaces).
        let Some(rest) = stat.rsplit_once(')').map(|(_, r)| r) else {
            continue;
        };
        let fields: Vec<&str> = rest.split_whitespace().collect();
        // fields[0] = state, fields[1] = ppid, fields[2] = pgrp
        if fields.len() > 2 && fields[2] == pgid.to_string() && fields[0] != "Z" {
            out.push(pid);
        }
    }
    out
}

/// Whether a process exists and is not a zombie.
pub fn alive(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Ok(stat) => stat
            .rsplit_once(')')
            .map(|(_, r)| !r.trim_start().starts_with('Z'))
            .unwrap_or(false),
        Err(_) => false,
    }
}

/// Polls `cond` every 20 ms until it holds or `timeout` passes; returns whether it held.
pub fn eventually(timeout: Duration, mut cond: impl FnMut() -> bool) -> bool {
    let deadline = Instant::now() + timeout;
    loop {
        if cond() {
            return true;
        }
        if Instant::now() >= deadline {
            return false;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// A fresh temporary directory removed on drop.
pub struct TempDir(PathBuf);

impl TempDir {
    /// Creates `$TMPDIR/agentbrowser-test-<tag>-<pid>-<n>`.
    pub fn new(tag: &str) -> TempDir {
        static N: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
        let n = N.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let dir = std::env::temp_dir().join(format!("abt-{tag}-{}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("create temp dir");
        TempDir(dir)
    }

    /// The path.
    pub fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A port on 127.0.0.1 that nothing listens on (bound then released).
pub fn closed_port() -> u16 {
    let l = TcpListener::bind("127.0.0.1:0").expect("bind");
    let port = l.local_addr().expect("addr").port();
    drop(l);
    port
}
