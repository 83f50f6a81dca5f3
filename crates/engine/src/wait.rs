//! Wait conditions: text appears, URL matches, load state reached, or all of several in order.

use std::time::Duration;

use agentbrowser_protocol::{ErrorCode, WaitCondition};
use tokio::time::Instant;

use crate::error::{EngineError, Result};
use crate::page::Page;

const POLL: Duration = Duration::from_millis(25);

fn own_deadline(timeout_ms: Option<u64>, deadline: Instant) -> Instant {
    match timeout_ms {
        Some(ms) => deadline.min(Instant::now() + Duration::from_millis(ms)),
        None => deadline,
    }
}

/// Waits for a condition until its own timeout or `deadline`, whichever is first.
pub async fn wait(page: &Page, cond: &WaitCondition, deadline: Instant) -> Result<()> {
    let started = Instant::now();
    match cond {
        WaitCondition::Text { text, timeout_ms } => {
            let until = own_deadline(*timeout_ms, deadline);
            let script = format!(
                "(() => {{ const b = document.body; return !!b && b.innerText.includes({}); }})()",
                serde_json::to_string(text).unwrap_or_default()
            );
            poll(until, || async {
                Ok(page
                    .read_js(&script)
                    .await
                    .ok()
                    .and_then(|v| v.as_bool())
                    .unwrap_or(false))
            })
            .await
            .map_err(|_| timeout(started, format!("text {text:?} to appear on the page")))
        }
        WaitCondition::Url { url, timeout_ms } => {
            let until = own_deadline(*timeout_ms, deadline);
            let last = std::sync::Mutex::new(String::new());
            let r = poll(until, || async {
                let now = page.current_url().await.unwrap_or_default();
                let ok = url_matches(url, &now);
                *last.lock().unwrap_or_else(|e| e.into_inner()) = now;
                Ok(ok)
            })
            .await;
            let last = last.into_inner().unwrap_or_else(|e| e.into_inner());
            r.map_err(|_| {
                timeout(
                    started,
                    format!("the URL to match {url:?} (it is {last:?})"),
                )
            })
        }
        WaitCondition::Load { state, timeout_ms } => {
            let until = own_deadline(*timeout_ms, deadline);
            page.wait_for(until, &format!("load state `{}`", state.as_str()), |s| {
                !s.loading && s.reached(&s.loader_id, *state)
            })
            .await
            .map(|_| ())
        }
        WaitCondition::All {
            conditions,
            timeout_ms,
        } => {
            let until = own_deadline(*timeout_ms, deadline);
            for c in conditions {
                Box::pin(wait(page, c, until)).await?;
            }
            Ok(())
        }
    }
}

fn timeout(started: Instant, what: String) -> EngineError {
    EngineError::new(
        ErrorCode::Timeout,
        format!("waited {} ms for {what}", started.elapsed().as_millis()),
    )
}

async fn poll<F, Fut>(until: Instant, mut check: F) -> Result<()>
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = Result<bool>>,
{
    loop {
        if check().await? {
            return Ok(());
        }
        if Instant::now() + POLL > until {
            return Err(EngineError::new(ErrorCode::Timeout, "timed out"));
        }
        tokio::time::sleep(POLL).await;
    }
}

/// Whether `url` equals `pattern`, or matches it as a glob (`*` any run, `?` one character).
pub fn url_matches(pattern: &str, url: &str) -> bool {
    if pattern == url {
        return true;
    }
    if !pattern.contains(['*', '?']) {
        return false;
    }
    glob(pattern.as_bytes(), url.as_bytes())
}

fn glob(p: &[u8], s: &[u8]) -> bool {
    let (mut pi, mut si) = (0, 0);
    let (mut star, mut mark) = (None, 0);
    while si < s.len() {
        if pi < p.len() && (p[pi] == b'?' || p[pi] == s[si]) {
            pi += 1;
            si += 1;
        } else if pi < p.len() && p[pi] == b'*' {
            star = Some(pi);
            mark = si;
            pi += 1;
        } else if let Some(st) = star {
            pi = st + 1;
            mark += 1;
            si = mark;
        } else {
            return false;
        }
    }
    while pi < p.len() && p[pi] == b'*' {
        pi += 1;
    }
    pi == p.len()
}

/// `wait`: a condition (text, URL, load state, all of them in order), or a number of ms; a wait
/// cut short by the command's timeout is `timeout`.
pub(crate) async fn handle(
    p: agentbrowser_protocol::WaitParams,
    cx: &mut crate::cx::Cx<'_>,
) -> Result<agentbrowser_protocol::WaitOutput> {
    let deadline = cx.limits.deadline;
    let started = Instant::now();
    match (p.condition, p.ms) {
        (Some(c), None) => {
            let page = cx.page().await?;
            wait(&page, &c, deadline).await?;
        }
        (None, Some(ms)) => {
            let left = deadline.saturating_duration_since(started);
            if Duration::from_millis(ms) > left {
                // Cut short by the command's timeout: that is a timeout, not a wait.
                tokio::time::sleep_until(deadline).await;
                return Err(EngineError::new(
                    ErrorCode::Timeout,
                    format!(
                        "`wait {ms}` is longer than the command's timeout ({} ms left); raise `timeout` or wait less",
                        left.as_millis()
                    ),
                ));
            }
            tokio::time::sleep(Duration::from_millis(ms)).await;
        }
        _ => {
            return Err(EngineError::invalid(
                "`wait` needs exactly one of `condition` (text, url, load or all) and `ms`",
            ));
        }
    }
    Ok(agentbrowser_protocol::WaitOutput {
        matched: true,
        elapsed_ms: started.elapsed().as_millis() as u64,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn globs() {
        assert!(url_matches("http://a/b", "http://a/b"));
        assert!(!url_matches("http://a/b", "http://a/bc"));
        assert!(url_matches("http://a/*", "http://a/b/c?d=1"));
        assert!(url_matches("*/done?x=?", "http://h/done?x=1"));
        assert!(!url_matches("*/done", "http://h/done/more"));
        assert!(url_matches(
            "**/welcome*",
            "http://127.0.0.1:9/x/welcome.html"
        ));
    }
}
