//! `browser_get_config`: the configuration this connection runs with, resolved: its tool groups,
//! the session, its engine and browser (`status`), and the session's settings (emulation, init scripts).

use agentbrowser_protocol::*;
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};

use super::Ctx;
use crate::answer::{Answer, ToolError};

/// Arguments of `browser_get_config` (none).
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GetConfigArgs {}

pub(super) async fn get_config(cx: Ctx, _a: GetConfigArgs) -> Result<Answer, ToolError> {
    let status: Value = cx.run(Command::Status(NoParams {})).await?;
    let settings: Value = cx.run(Command::Settings(NoParams {})).await?;
    let caps: Vec<&str> = cx.caps().iter().map(|c| c.name()).collect();
    let config = json!({
        "capabilities": caps,
        "status": status,
        "settings": settings,
    });
    let mut answer = Answer::new();
    answer.add(
        "Config",
        serde_json::to_string_pretty(&config).unwrap_or_default(),
    );
    Ok(answer)
}
