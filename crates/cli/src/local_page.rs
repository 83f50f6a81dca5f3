//! What the CLI's local web pages (`trace show`, `dashboard`) share: the random token in their
//! URL, printing and opening that URL, and the headers every answer carries.

use std::io::Read;

use http::{Response, StatusCode, header};
use http_body_util::Full;
use hyper::body::Bytes;

/// An answer of a local page's server.
pub type Answer = Response<Full<Bytes>>;

/// A random 128-bit token, as 32 hex digits (the secret part of a local page's URL).
pub fn token() -> anyhow::Result<String> {
    let mut bytes = [0u8; 16];
    std::fs::File::open("/dev/urandom")?.read_exact(&mut bytes)?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

/// Prints `{"url": ...}` (the first line a caller reads; with `json`, the envelope of `action`)
/// and `serving` on stderr.
pub fn announce(action: &str, url: &str, serving: &str, json: bool) {
    use std::io::Write;
    let data = serde_json::json!({ "url": url });
    if json {
        crate::output::print_outcome(action, data, None);
    } else {
        println!("{data}");
    }
    let _ = std::io::stdout().flush();
    eprintln!("agentbrowser {serving} (Ctrl-C stops)");
}

/// Opens `url` in the desktop's browser; a failure is a note (the URL was printed).
pub fn open_browser(url: &str) {
    let opener = if cfg!(target_os = "macos") {
        "open"
    } else {
        "xdg-open"
    };
    let spawned = std::process::Command::new(opener)
        .arg(url)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn();
    if let Err(e) = spawned {
        eprintln!("agentbrowser: cannot start {opener} ({e}); open the URL yourself");
    }
}

/// A plain-text answer with `status`.
pub fn plain(status: StatusCode, text: &str, csp: &'static str) -> Answer {
    let mut r = with_headers(
        Response::new(Full::new(Bytes::from(text.to_owned()))),
        "text/plain; charset=utf-8",
        csp,
    );
    *r.status_mut() = status;
    r
}

/// Content-Type, no caching, no sniffing, no referrer (the URL holds the token), and the
/// page's content security policy `csp`.
pub fn with_headers(mut r: Answer, content_type: &'static str, csp: &'static str) -> Answer {
    let h = r.headers_mut();
    let mut set = |name, value| {
        h.insert(name, header::HeaderValue::from_static(value));
    };
    set(header::CONTENT_TYPE, content_type);
    set(header::CACHE_CONTROL, "no-store");
    set(header::X_CONTENT_TYPE_OPTIONS, "nosniff");
    set(header::REFERRER_POLICY, "no-referrer");
    set(header::CONTENT_SECURITY_POLICY, csp);
    r
}
