//! `agentbrowser trace show PATH.zip`: checks a trace file (docs/trace.md) and serves it with the
//! viewer (index.html, viewer.js, viewer.css, embedded) on 127.0.0.1 until Ctrl-C or SIGTERM.
//! Everything is served under a random token (`/TOKEN/`), so other local users and pages cannot
//! read the trace; requests whose `Host` is not this server's own are refused (DNS rebinding).

use std::fs::File;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::{Arc, Mutex};

use agentbrowser_protocol::ErrorCode;
use clap::Args;
use http::{Method, Request, Response, StatusCode, header};
use http_body_util::Full;
use hyper::body::{Bytes, Incoming};
use tokio::net::TcpListener;
use zip::ZipArchive;

use crate::failure::Failure;

/// The trace format this viewer reads.
pub const FORMAT: &str = "agentbrowser-trace";
/// The newest version of the format this viewer reads.
pub const VERSION: u64 = 1;

const ACTION: &str = "trace_show";
const INDEX_HTML: &str = include_str!("index.html");
const VIEWER_JS: &str = include_str!("viewer.js");
const VIEWER_CSS: &str = include_str!("viewer.css");
const FAVICON_SVG: &str = include_str!("favicon.svg");
/// The page may load its own scripts, styles, images and data, nothing else.
const CSP: &str = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; \
                   connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/// `trace show`: the trace file and how to serve it.
#[derive(Args, Debug, Clone)]
pub struct ShowArgs {
    /// The trace file (`trace stop PATH.zip` wrote it).
    #[arg(value_name = "PATH.zip")]
    pub path: PathBuf,
    /// Port on 127.0.0.1 to serve the viewer on (0: any free port).
    #[arg(long, value_name = "PORT", default_value_t = 0)]
    pub port: u16,
    /// Print the viewer's URL without opening it in the desktop's browser.
    #[arg(long)]
    pub no_open: bool,
}

/// Checks the trace, serves it until a signal, and prints the viewer's URL (with `--json` as
/// an envelope whose data is `{"url": ...}`).
pub fn run(args: ShowArgs, json: bool) -> Result<ExitCode, Failure> {
    let archive = open_trace(&args.path).map_err(|m| Failure::invalid(ACTION, m))?;
    let zip = Arc::new(Mutex::new(archive));
    let token = crate::local_page::token()
        .map_err(|e| Failure::new(ErrorCode::IoError, e).or_action(ACTION))?;
    let outcome = crate::serve::run_owner(|stop| async move {
        let listener = TcpListener::bind(("127.0.0.1", args.port))
            .await
            .map_err(|e| format!("cannot listen on 127.0.0.1:{}: {e}", args.port))?;
        let port = listener.local_addr().map_err(|e| e.to_string())?.port();
        let url = format!("http://127.0.0.1:{port}/{token}/");
        crate::local_page::announce(
            ACTION,
            &url,
            &format!("trace show: serving {} at {url}", args.path.display()),
            json,
        );
        if !args.no_open {
            crate::local_page::open_browser(&url);
        }
        let site = Arc::new(Site { token, port, zip });
        let name = "agentbrowser trace show";
        agentbrowser_mcp::http::serve_connections(listener, stop, name, move |req| {
            let site = site.clone();
            async move { site.answer(&req).await }
        })
        .await;
        Ok::<(), String>(())
    })
    .map_err(|e| Failure::from(e).or_action(ACTION))?;
    outcome.map_err(|m| Failure::new(ErrorCode::IoError, anyhow::anyhow!(m)).or_action(ACTION))?;
    Ok(ExitCode::SUCCESS)
}

/// Opens `path` as a trace: a ZIP file whose `trace.json` names a format and version this
/// viewer reads. The error says what was wrong.
pub fn open_trace(path: &Path) -> Result<ZipArchive<File>, String> {
    let shown = path.display();
    let file = File::open(path).map_err(|e| match e.kind() {
        std::io::ErrorKind::NotFound => format!("no trace file at {shown}"),
        _ => format!("cannot open the trace file {shown}: {e}"),
    })?;
    if file.metadata().is_ok_and(|m| m.is_dir()) {
        return Err(format!(
            "{shown} is a directory, not a trace file (a .zip that `trace stop PATH.zip` wrote)"
        ));
    }
    let mut archive = ZipArchive::new(file).map_err(|e| {
        format!(
            "{shown} is not a ZIP file ({e}); a trace is the .zip that `trace stop PATH.zip` wrote"
        )
    })?;
    let text = {
        let mut entry = archive.by_name("trace.json").map_err(|_| {
            format!("{shown} is a ZIP file without trace.json: not an agentbrowser trace")
        })?;
        let mut text = String::new();
        entry
            .read_to_string(&mut text)
            .map_err(|e| format!("cannot read trace.json of {shown}: {e}"))?;
        text
    };
    let manifest: serde_json::Value = serde_json::from_str(&text)
        .map_err(|e| format!("trace.json of {shown} is not JSON: {e}"))?;
    check_manifest(&manifest).map_err(|m| format!("{shown}: {m}"))?;
    Ok(archive)
}

/// Checks a manifest's `format` and `version` (docs/trace.md: a reader refuses a format it does
/// not know and a version newer than it reads).
fn check_manifest(manifest: &serde_json::Value) -> Result<(), String> {
    let format = manifest.get("format");
    if format.and_then(|f| f.as_str()) != Some(FORMAT) {
        let found = format.map_or_else(|| "none".to_owned(), |f| f.to_string());
        return Err(format!(
            "trace.json's format is {found}, not \"{FORMAT}\": not an agentbrowser trace"
        ));
    }
    match manifest.get("version").and_then(|v| v.as_u64()) {
        None => Err(format!(
            "trace.json has no version (a whole number; this agentbrowser reads 1 to {VERSION})"
        )),
        Some(v) if v > VERSION => Err(format!(
            "the trace is format version {v}; this agentbrowser reads versions up to {VERSION}: \
             open it with a newer agentbrowser"
        )),
        Some(_) => Ok(()),
    }
}

/// What the server serves: the viewer and the trace's entries, under `/TOKEN/`.
struct Site {
    token: String,
    port: u16,
    zip: Arc<Mutex<ZipArchive<File>>>,
}

use crate::local_page::Answer;

impl Site {
    async fn answer(&self, req: &Request<Incoming>) -> Answer {
        if !self.host_allowed(req) {
            return plain(
                StatusCode::FORBIDDEN,
                "this server answers only to Host 127.0.0.1 or localhost at its own port\n",
            );
        }
        if req.method() != Method::GET && req.method() != Method::HEAD {
            let mut r = plain(StatusCode::METHOD_NOT_ALLOWED, "only GET and HEAD\n");
            r.headers_mut()
                .insert(header::ALLOW, header::HeaderValue::from_static("GET, HEAD"));
            return r;
        }
        let path = req.uri().path();
        let Some(rest) = path
            .strip_prefix('/')
            .and_then(|p| p.strip_prefix(self.token.as_str()))
        else {
            return plain(StatusCode::NOT_FOUND, "not found\n");
        };
        let mut answer = match rest {
            "" => {
                let mut r = plain(StatusCode::PERMANENT_REDIRECT, "");
                let to = format!("/{}/", self.token);
                if let Ok(v) = header::HeaderValue::from_str(&to) {
                    r.headers_mut().insert(header::LOCATION, v);
                }
                r
            }
            "/" | "/index.html" => asset(INDEX_HTML.as_bytes(), "text/html; charset=utf-8"),
            "/viewer.js" => asset(VIEWER_JS.as_bytes(), "text/javascript; charset=utf-8"),
            "/viewer.css" => asset(VIEWER_CSS.as_bytes(), "text/css; charset=utf-8"),
            "/favicon.svg" => asset(FAVICON_SVG.as_bytes(), "image/svg+xml"),
            _ => match rest.strip_prefix("/trace/") {
                Some(entry) if !entry.is_empty() => self.entry(entry).await,
                _ => plain(StatusCode::NOT_FOUND, "not found\n"),
            },
        };
        if req.method() == Method::HEAD {
            *answer.body_mut() = Full::new(Bytes::new());
        }
        answer
    }

    /// Whether the request's `Host` is this server's own (127.0.0.1 or localhost, its port).
    fn host_allowed(&self, req: &Request<Incoming>) -> bool {
        let host = req
            .headers()
            .get(header::HOST)
            .and_then(|h| h.to_str().ok())
            .unwrap_or_default();
        let port = self.port.to_string();
        host.strip_prefix("127.0.0.1:")
            .or_else(|| host.strip_prefix("localhost:"))
            .is_some_and(|p| p == port)
    }

    /// One entry of the ZIP file, read on a blocking thread.
    async fn entry(&self, name: &str) -> Answer {
        let zip = self.zip.clone();
        let owned = name.to_owned();
        let read = tokio::task::spawn_blocking(move || -> Result<Option<Vec<u8>>, String> {
            let mut zip = zip.lock().map_err(|_| "the trace file's reader failed")?;
            let mut file = match zip.by_name(&owned) {
                Ok(f) => f,
                Err(zip::result::ZipError::FileNotFound) => return Ok(None),
                Err(e) => return Err(e.to_string()),
            };
            if file.is_dir() {
                return Ok(None);
            }
            read_entry(&mut file, &owned).map(Some)
        })
        .await;
        match read {
            Ok(Ok(Some(bytes))) => asset_owned(bytes, content_type(name)),
            Ok(Ok(None)) => plain(
                StatusCode::NOT_FOUND,
                &format!("the trace has no entry {name}\n"),
            ),
            Ok(Err(e)) => plain(
                StatusCode::INTERNAL_SERVER_ERROR,
                &format!("cannot read {name} from the trace: {e}\n"),
            ),
            Err(e) => plain(StatusCode::INTERNAL_SERVER_ERROR, &format!("{e}\n")),
        }
    }
}

/// The Content-Type of a trace entry, by its name.
fn content_type(name: &str) -> &'static str {
    let ext = name.rsplit_once('.').map(|(_, e)| e).unwrap_or_default();
    match ext.to_ascii_lowercase().as_str() {
        "json" => "application/json",
        "jsonl" => "application/x-ndjson; charset=utf-8",
        "jpeg" | "jpg" => "image/jpeg",
        "png" => "image/png",
        "webp" => "image/webp",
        "txt" | "md" => "text/plain; charset=utf-8",
        _ => "application/octet-stream",
    }
}

fn asset(body: &'static [u8], content_type: &'static str) -> Answer {
    with_headers(
        Response::new(Full::new(Bytes::from_static(body))),
        content_type,
    )
}

fn asset_owned(body: Vec<u8>, content_type: &'static str) -> Answer {
    with_headers(Response::new(Full::new(Bytes::from(body))), content_type)
}

/// Most bytes one entry of a trace file is read to: twice what a whole trace holds
/// (`TRACE_MAX_BYTES`); a larger entry is no trace of ours.
const MAX_ENTRY_BYTES: u64 = 2 * agentbrowser_protocol::TRACE_MAX_BYTES;

/// Reads the whole entry `name` of a trace file, refusing one larger than `MAX_ENTRY_BYTES`
/// (whatever size its header declares: the file may be crafted).
pub(crate) fn read_entry(
    file: &mut zip::read::ZipFile<'_, std::fs::File>,
    name: &str,
) -> Result<Vec<u8>, String> {
    let declared = file.size().min(MAX_ENTRY_BYTES);
    let mut bytes = Vec::with_capacity(usize::try_from(declared).unwrap_or(0));
    file.take(MAX_ENTRY_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("cannot read {name}: {e}"))?;
    if bytes.len() as u64 > MAX_ENTRY_BYTES {
        return Err(format!(
            "{name} is larger than {MAX_ENTRY_BYTES} bytes, more than any trace holds"
        ));
    }
    Ok(bytes)
}

/// A plain-text answer with this page's headers.
fn plain(status: StatusCode, text: &str) -> Answer {
    crate::local_page::plain(status, text, CSP)
}

/// This page's headers on `r` ([`crate::local_page::with_headers`]).
fn with_headers(r: Answer, content_type: &'static str) -> Answer {
    crate::local_page::with_headers(r, content_type, CSP)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn manifests_of_other_formats_and_newer_versions_are_refused() {
        let ok = serde_json::json!({"format": FORMAT, "version": 1});
        assert_eq!(check_manifest(&ok), Ok(()));
        let other = serde_json::json!({"format": "har", "version": 1});
        assert!(check_manifest(&other).unwrap_err().contains("\"har\""));
        let newer = serde_json::json!({"format": FORMAT, "version": 2});
        assert!(check_manifest(&newer).unwrap_err().contains("version 2"));
        let none = serde_json::json!({"format": FORMAT});
        assert!(check_manifest(&none).unwrap_err().contains("no version"));
    }

    #[test]
    fn entries_get_their_content_types() {
        assert_eq!(content_type("frames/000001.jpeg"), "image/jpeg");
        assert_eq!(content_type("trace.json"), "application/json");
        assert!(content_type("steps.jsonl").starts_with("application/x-ndjson"));
        assert_eq!(content_type("x"), "application/octet-stream");
    }
}
