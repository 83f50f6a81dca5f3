//! The session browser's DevTools endpoint (`cdp_url`): the WebSocket URL a client such as the
//! Python SDK's `browser.cdp` speaks the Chrome DevTools Protocol on, beside the engine.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::present::Present;
use crate::validate::Validate;

/// Parameters of `cdp_url`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CdpUrlParams {
    /// Launch the session's browser (with the session's launch options) when none runs; default false: then the answer is a `no_browser` error and nothing starts.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "clap", arg(skip))]
    pub launch: Option<bool>,
}

impl Validate for CdpUrlParams {}

impl crate::ParamFacts for CdpUrlParams {}

/// Result of `cdp_url`: where the session's browser speaks the DevTools protocol.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct CdpUrlOutput {
    /// The browser's DevTools WebSocket URL (`ws://127.0.0.1:PORT/devtools/browser/ID`, or the attached browser's).
    pub ws_url: String,
    /// Whether the session attached to a browser it did not launch.
    pub attached: bool,
    /// Whether this command launched the browser (only with `launch`).
    pub launched: bool,
    /// The browser's product and version (`Chrome/...`).
    pub browser_version: String,
}

impl Present for CdpUrlOutput {
    fn text(&self) -> String {
        self.ws_url.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn params_refuse_unknown_fields_and_default_to_no_launch() {
        let p: CdpUrlParams = serde_json::from_value(serde_json::json!({})).unwrap();
        assert_eq!(p.launch, None);
        assert!(
            serde_json::from_value::<CdpUrlParams>(serde_json::json!({"lanch": true})).is_err()
        );
    }
}
