//! `batch`: JSON request lines from stdin to the session's daemon, one envelope a line back;
//! the exit code says whether every command succeeded.

use std::io::{BufRead, Write};
use std::process::ExitCode;

use agentbrowser_protocol::{ErrorCode, Response};
use anyhow::Context;
use serde_json::Value;

use crate::client::Client;
use crate::failure::{Coded, Failure};
use crate::launch::LaunchArgs;
use crate::{launch, output};

/// Runs every line of stdin in `session`, starting its daemon when needed.
pub fn run(session: &str, launch: &LaunchArgs) -> Result<ExitCode, Failure> {
    let mut client = Client::connect_or_start(session, &launch::daemon_args(launch)?)
        .code(ErrorCode::BrowserClosed)?;
    crate::domains::check_running(&mut client, session, launch)?;
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let mut failed = false;
    let mut input = stdin.lock();
    let mut buf = Vec::new();
    loop {
        buf.clear();
        if input
            .read_until(b'\n', &mut buf)
            .context("cannot read stdin")?
            == 0
        {
            break;
        }
        let answer = match std::str::from_utf8(&buf) {
            Ok(line) if line.trim().is_empty() => continue,
            Ok(line) => client
                .round_trip(line.trim_end_matches(['\n', '\r']))
                .code(ErrorCode::BrowserClosed)?,
            // One bad line is answered and the batch goes on with the next.
            Err(e) => {
                let mut line = Response::failure(
                    Value::Null,
                    "",
                    ErrorCode::InvalidJson,
                    format!("the line is not valid UTF-8 ({e})"),
                )
                .to_line();
                line.push('\n');
                line
            }
        };
        if !output::succeeded(&answer) {
            failed = true;
        }
        out.write_all(answer.as_bytes())
            .and_then(|()| out.flush())
            .context("cannot write stdout")?;
    }
    Ok(if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}
