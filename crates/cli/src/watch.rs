//! `watch`: the session's live view in a terminal. Once: the commands finished since `--after`,
//! the URL and the tabs, as the `watch` command answers them. With `--follow`: one line per
//! command as it finishes (a JSON line each with `--json`), until the session ends or Ctrl-C;
//! no screencast is started for it.

use std::process::ExitCode;

use agentbrowser_protocol::{Command, ErrorCode, Request, Response, WatchOutput, WatchParams};
use clap::Args;

use crate::client::Client;
use crate::failure::{Coded as _, Failure};

/// How long one `watch` of `--follow` waits for a command to finish when none did: well within
/// `WATCH_LINGER_MS`, so the daemon never takes the follower for gone between two watches (and
/// stops logging).
const FOLLOW_WAIT_MS: u64 = 5_000;
const _: () = assert!(FOLLOW_WAIT_MS * 2 <= agentbrowser_protocol::WATCH_LINGER_MS);

/// `watch [--follow]` and the `watch` command's parameters.
#[derive(Args, Debug)]
pub struct WatchArgs {
    /// Keep printing each command as it finishes until the session ends (or Ctrl-C).
    #[arg(long, short = 'f')]
    pub follow: bool,
    /// The `watch` command's parameters (with --follow: only --after is used).
    #[command(flatten)]
    pub params: WatchParams,
}

/// Follows session `session`'s command log from `after`: prints each command as it finishes
/// (`json`: its log entry as a JSON line) until the session ends (success) or an answer is an
/// error (its code). A session not running is `no_browser`, and nothing is started.
pub fn follow(session: &str, after: Option<u64>, json: bool) -> Result<ExitCode, Failure> {
    let mut after = after;
    let mut first = true;
    loop {
        let Some(mut client) = Client::connect_existing(session) else {
            if first {
                return Err(Failure::new(
                    ErrorCode::NoBrowser,
                    anyhow::anyhow!(
                        "session `{session}` is not running, so no browser runs in it; start one with \
                         `agentbrowser --session {session} open URL` (this command never starts one)"
                    ),
                ));
            }
            eprintln!("session `{session}` ended");
            return Ok(ExitCode::SUCCESS);
        };
        first = false;
        let request = Request {
            id: 1u64.into(),
            timeout_ms: None,
            command: Command::Watch(WatchParams {
                after,
                frame_after: None,
                timeout_ms: Some(FOLLOW_WAIT_MS),
                no_frame: true,
            }),
            tab: None,
            frame: None,
        };
        let line = match client.round_trip(&request.to_value().to_string()) {
            Ok(line) => line,
            // The daemon went away between two watches: the session ended.
            Err(_) if Client::connect_existing(session).is_none() => {
                eprintln!("session `{session}` ended");
                return Ok(ExitCode::SUCCESS);
            }
            Err(e) => return Err(e).code(ErrorCode::BrowserClosed),
        };
        let response: Response<Option<WatchOutput>> = serde_json::from_str(&line)
            .map_err(|e| anyhow::anyhow!("the daemon sent an unreadable answer ({e}): {line}"))
            .code(ErrorCode::Internal)?;
        if !response.success {
            let code = response.code.unwrap_or(ErrorCode::Internal);
            let message = response.error.unwrap_or_default();
            return Err(Failure::new(code, anyhow::anyhow!(message)));
        }
        let Some(out) = response.data else {
            return Err(Failure::new(
                ErrorCode::Internal,
                anyhow::anyhow!("the daemon answered `watch` without its result: {line}"),
            ));
        };
        if out.skipped > 0 {
            eprintln!(
                "({} commands left out: more finished than one answer holds)",
                out.skipped
            );
        }
        for entry in &out.log {
            if json {
                println!("{}", serde_json::to_string(entry).unwrap_or_default());
            } else {
                println!("{}", entry.line());
            }
        }
        after = Some(out.next);
    }
}
