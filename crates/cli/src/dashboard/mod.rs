//! `agentbrowser dashboard`: a page on 127.0.0.1 that lists this user's sessions and shows one
//! live (its screencast, its commands as they finish, its URL, tabs and last snapshot), from the
//! `watch` command of the session's daemon. Every request needs the random token of the URL it
//! prints; requests for another Host are refused, and so are POSTs from another origin. With
//! `--control` the page can also send the session one command.

use std::process::ExitCode;
use std::sync::Arc;

use agentbrowser_protocol::{ErrorCode, Request as WireRequest};
use clap::{Args, Parser};
use http::{Method, Request, Response, StatusCode, header};
use http_body_util::{BodyExt, Full, Limited};
use hyper::body::{Bytes, Incoming};
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::net::{TcpListener, UnixStream};

use crate::failure::Failure;
use crate::paths::{self, SessionPaths};

const ACTION: &str = "dashboard";
const INDEX_HTML: &str = include_str!("index.html");

/// How long one `watch` of the page waits for news before answering, in milliseconds.
const WATCH_WAIT_MS: u64 = 5_000;

/// Longest command line body the control endpoint reads.
const MAX_BODY: usize = 64 << 10;

/// Options of `agentbrowser dashboard`.
#[derive(Args, Debug, Clone)]
pub struct DashboardArgs {
    /// The port on 127.0.0.1 (default: a free one).
    #[arg(long, default_value_t = 0)]
    pub port: u16,
    /// Let the page send commands to the session (a command box; without it the page is
    /// read-only and the command endpoint answers 403).
    #[arg(long)]
    pub control: bool,
    /// Do not open the page in the desktop's browser (just print its URL).
    #[arg(long)]
    pub no_open: bool,
}

/// Runs the dashboard until SIGINT or SIGTERM; `session` is the one shown first (when named).
pub fn run(args: DashboardArgs, session: Option<&str>, json: bool) -> Result<ExitCode, Failure> {
    let token = crate::local_page::token()
        .map_err(|e| Failure::new(ErrorCode::IoError, e).or_action(ACTION))?;
    let first = session.map(str::to_string);
    let outcome = crate::serve::run_owner(|stop| async move {
        let listener = TcpListener::bind(("127.0.0.1", args.port))
            .await
            .map_err(|e| format!("cannot listen on 127.0.0.1:{}: {e}", args.port))?;
        let port = listener.local_addr().map_err(|e| e.to_string())?.port();
        let mut url = format!("http://127.0.0.1:{port}/?token={token}");
        if let Some(s) = &first {
            url.push_str(&format!("&session={s}"));
        }
        crate::local_page::announce(ACTION, &url, &format!("dashboard: serving {url}"), json);
        if !args.no_open {
            crate::local_page::open_browser(&url);
        }
        let site = Arc::new(Site {
            token,
            port,
            control: args.control,
        });
        let name = "agentbrowser dashboard";
        agentbrowser_mcp::http::serve_connections(listener, stop, name, move |req| {
            let site = site.clone();
            async move { site.answer(req).await }
        })
        .await;
        Ok::<(), String>(())
    })
    .map_err(|e| Failure::from(e).or_action(ACTION))?;
    outcome.map_err(|m| Failure::new(ErrorCode::IoError, anyhow::anyhow!(m)).or_action(ACTION))?;
    Ok(ExitCode::SUCCESS)
}

/// What the server serves.
struct Site {
    token: String,
    port: u16,
    control: bool,
}

use crate::local_page::Answer;

impl Site {
    async fn answer(&self, req: Request<Incoming>) -> Answer {
        if !self.host_allowed(&req) {
            return plain(
                StatusCode::FORBIDDEN,
                "this dashboard answers only to Host 127.0.0.1 or localhost at its own port\n",
            );
        }
        let query = query_pairs(req.uri().query().unwrap_or_default());
        let given = query
            .iter()
            .find(|(k, _)| k == "token")
            .map(|(_, v)| v.as_str());
        if given != Some(self.token.as_str()) {
            return plain(
                StatusCode::FORBIDDEN,
                "a token is needed: open the URL `agentbrowser dashboard` printed\n",
            );
        }
        let arg = |name: &str| {
            query
                .iter()
                .find(|(k, _)| k == name)
                .map(|(_, v)| v.clone())
        };
        match (req.method().clone(), req.uri().path()) {
            (Method::GET, "/") => with_headers(
                Response::new(Full::new(Bytes::from_static(INDEX_HTML.as_bytes()))),
                "text/html; charset=utf-8",
            ),
            (Method::GET, "/api/sessions") => json_answer(&sessions(self.control)),
            (Method::GET, "/api/watch") => {
                let Some(session) = arg("session") else {
                    return plain(StatusCode::BAD_REQUEST, "`session` is needed\n");
                };
                let num = |name: &str| arg(name).and_then(|v| v.parse::<u64>().ok());
                let mut params = json!({ "timeoutMs": WATCH_WAIT_MS });
                if let Some(a) = num("after") {
                    params["after"] = a.into();
                }
                if let Some(f) = num("frameAfter") {
                    params["frameAfter"] = f.into();
                }
                let request = json!({"id": 1, "action": "watch"});
                let mut request = request;
                if let (Some(r), Some(p)) = (request.as_object_mut(), params.as_object()) {
                    r.extend(p.clone());
                }
                match ask_session(&session, &request.to_string()).await {
                    Ok(line) => raw_json(line),
                    Err(e) => {
                        json_answer(&json!({"success": false, "code": "no_session", "error": e}))
                    }
                }
            }
            (Method::POST, "/api/command") => {
                if !self.control {
                    return plain(
                        StatusCode::FORBIDDEN,
                        "read-only dashboard: start it with `agentbrowser dashboard --control` to send commands\n",
                    );
                }
                if !self.origin_allowed(&req) {
                    return plain(
                        StatusCode::FORBIDDEN,
                        "a command must come from the dashboard's own page\n",
                    );
                }
                let Some(session) = arg("session") else {
                    return plain(StatusCode::BAD_REQUEST, "`session` is needed\n");
                };
                let body = match Limited::new(req.into_body(), MAX_BODY).collect().await {
                    Ok(b) => b.to_bytes(),
                    Err(e) => {
                        return plain(
                            StatusCode::BAD_REQUEST,
                            &format!("cannot read the body: {e}\n"),
                        );
                    }
                };
                let line = String::from_utf8_lossy(&body).trim().to_string();
                match command_line(&line) {
                    Ok(request) => match ask_session(&session, &request).await {
                        Ok(answer) => raw_json(answer),
                        Err(e) => json_answer(
                            &json!({"success": false, "code": "no_session", "error": e}),
                        ),
                    },
                    Err(e) => json_answer(
                        &json!({"success": false, "code": "invalid_argument", "error": e}),
                    ),
                }
            }
            (_, "/" | "/api/sessions" | "/api/watch" | "/api/command") => {
                plain(StatusCode::METHOD_NOT_ALLOWED, "method not allowed\n")
            }
            _ => plain(StatusCode::NOT_FOUND, "not found\n"),
        }
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

    /// Whether a POST comes from this dashboard's own page (its `Origin` is this server).
    fn origin_allowed(&self, req: &Request<Incoming>) -> bool {
        let origin = req
            .headers()
            .get(header::ORIGIN)
            .and_then(|h| h.to_str().ok())
            .unwrap_or_default();
        let port = self.port;
        origin == format!("http://127.0.0.1:{port}") || origin == format!("http://localhost:{port}")
    }
}

/// The `key=value` pairs of a query string, percent-decoded.
fn query_pairs(query: &str) -> Vec<(String, String)> {
    query
        .split('&')
        .filter(|p| !p.is_empty())
        .map(|p| {
            let (k, v) = p.split_once('=').unwrap_or((p, ""));
            (decode(k), decode(v))
        })
        .collect()
}

/// Percent-decoding (`+` is a space).
fn decode(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'+' => out.push(b' '),
            b'%' if i + 2 < b.len() => {
                let hex = std::str::from_utf8(&b[i + 1..i + 3]).unwrap_or("");
                match u8::from_str_radix(hex, 16) {
                    Ok(v) => {
                        out.push(v);
                        i += 2;
                    }
                    Err(_) => out.push(b'%'),
                }
            }
            c => out.push(c),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// This user's sessions for the page: name, daemon pid, whether it runs.
fn sessions(control: bool) -> Value {
    let list = crate::client::list_sessions().unwrap_or_default();
    let sessions: Vec<Value> = list
        .into_iter()
        .map(|(session, pid, version, alive)| {
            json!({"session": session, "pid": pid, "version": version, "alive": alive})
        })
        .collect();
    json!({ "sessions": sessions, "control": control })
}

/// The request line a control box's line stands for: a JSON request as `batch` takes it, or a
/// command line as the CLI takes it (`click e3`, `open https://example.com`, `eval "1 + 1"`).
fn command_line(line: &str) -> Result<String, String> {
    if line.is_empty() {
        return Err("empty command: type one, e.g. `snapshot` or `click e3`".into());
    }
    if line.starts_with('{') {
        WireRequest::parse_line(line).map_err(|e| e.into_response().error.unwrap_or_default())?;
        return Ok(line.to_string());
    }
    let words = split_words(line)?;
    let cli =
        crate::args::Cli::try_parse_from(std::iter::once("agentbrowser".to_string()).chain(words))
            .map_err(|e| e.render().to_string())?;
    match crate::command::plan(cli.command, cli.timeout).map_err(|f| f.message())? {
        crate::command::Plan::Send(r) | crate::command::Plan::Existing(r) => {
            Ok(serde_json::to_string(&r.to_value()).map_err(|e| e.to_string())?)
        }
        crate::command::Plan::Refuse(answer) => Err(answer.error.unwrap_or_default()),
        _ => Err(format!(
            "`{line}` is not a command the session runs (session and setup commands are the CLI's)"
        )),
    }
}

/// A command line split into words the way a shell would: whitespace separates, single and
/// double quotes group, a backslash escapes the next character (not within single quotes).
fn split_words(line: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match c {
            '\'' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(c) => word.push(c),
                        None => return Err("unclosed single quote".into()),
                    }
                }
            }
            '"' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(c) => word.push(c),
                            None => return Err("unclosed double quote".into()),
                        },
                        Some(c) => word.push(c),
                        None => return Err("unclosed double quote".into()),
                    }
                }
            }
            '\\' => {
                in_word = true;
                if let Some(c) = chars.next() {
                    word.push(c);
                }
            }
            c if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            c => {
                in_word = true;
                word.push(c);
            }
        }
    }
    if in_word {
        words.push(word);
    }
    Ok(words)
}

/// Sends one request line to the running daemon of `session` (never starting one) and reads its
/// answer line.
async fn ask_session(session: &str, line: &str) -> Result<String, String> {
    paths::validate_session(session).map_err(|e| e.to_string())?;
    let socket = SessionPaths::new(session)
        .map_err(|e| e.to_string())?
        .socket;
    let stream = UnixStream::connect(&socket)
        .await
        .map_err(|e| format!("session `{session}` is not running ({e})"))?;
    use std::os::fd::AsRawFd;
    if paths::peer_uid(stream.as_raw_fd()) != Some(paths::uid()) {
        return Err(format!(
            "the socket of session `{session}` is not served by you"
        ));
    }
    let (r, mut w) = stream.into_split();
    w.write_all(format!("{line}\n").as_bytes())
        .await
        .map_err(|e| format!("cannot write to session `{session}`: {e}"))?;
    let mut answer = String::new();
    BufReader::new(r)
        .read_line(&mut answer)
        .await
        .map_err(|e| format!("cannot read session `{session}`'s answer: {e}"))?;
    if answer.is_empty() {
        return Err(format!(
            "session `{session}` closed the connection without answering"
        ));
    }
    Ok(answer)
}

fn json_answer(v: &Value) -> Answer {
    raw_json(v.to_string())
}

fn raw_json(body: String) -> Answer {
    with_headers(
        Response::new(Full::new(Bytes::from(body))),
        "application/json",
    )
}

/// The page's own scripts and styles only; images from `data:` (the screencast frames).
const CSP: &str = "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

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
    fn words_split_like_a_shell() {
        assert_eq!(
            split_words(r##"click "#a b" 'c d' e\ f"##).unwrap(),
            vec!["click", "#a b", "c d", "e f"]
        );
        assert!(split_words("eval 'x").is_err());
    }

    #[test]
    fn control_lines_become_requests() {
        let r: Value = serde_json::from_str(&command_line("click '#go'").unwrap()).unwrap();
        assert_eq!(r["action"], "click");
        assert!(command_line("session list").is_err());
        assert!(command_line("").is_err());
    }

    #[test]
    fn queries_are_decoded() {
        assert_eq!(
            query_pairs("token=ab&session=my%2Ds&x=a+b"),
            vec![
                ("token".into(), "ab".into()),
                ("session".into(), "my-s".into()),
                ("x".into(), "a b".into())
            ]
        );
    }
}
