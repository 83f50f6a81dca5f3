//! Network conditions: throttling (latency, download and upload rates) of every tab, held with
//! `set_offline` in one state and applied together.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::validate::{Validate, invalid};

/// Largest added latency `set_throttle` accepts, in milliseconds (10 minutes).
pub const MAX_THROTTLE_LATENCY_MS: u32 = 600_000;

/// Largest rate `set_throttle` accepts, in kilobits per second (10 Gbit/s).
pub const MAX_THROTTLE_KBPS: u64 = 10_000_000;

/// A named set of network conditions (the numbers of Chrome DevTools' presets).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
pub enum ThrottlePreset {
    /// DevTools' "Slow 3G": 2000 ms latency, 400 kbit/s down and up.
    #[serde(rename = "slow-3g")]
    #[cfg_attr(feature = "clap", value(name = "slow-3g"))]
    Slow3g,
    /// DevTools' "3G" (formerly "Fast 3G"): 563 ms latency (562.5 rounded up), 1440 kbit/s down, 675 kbit/s up.
    #[serde(rename = "fast-3g")]
    #[cfg_attr(feature = "clap", value(name = "fast-3g"))]
    Fast3g,
    /// DevTools' "Fast 4G": 165 ms latency, 8100 kbit/s down, 1350 kbit/s up.
    #[serde(rename = "fast-4g")]
    #[cfg_attr(feature = "clap", value(name = "fast-4g"))]
    Fast4g,
}

impl ThrottlePreset {
    /// The preset's wire spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            ThrottlePreset::Slow3g => "slow-3g",
            ThrottlePreset::Fast3g => "fast-3g",
            ThrottlePreset::Fast4g => "fast-4g",
        }
    }

    /// The preset's conditions.
    pub fn throttle(self) -> Throttle {
        let (latency_ms, down, up) = match self {
            ThrottlePreset::Slow3g => (2000, 400, 400),
            ThrottlePreset::Fast3g => (563, 1440, 675),
            ThrottlePreset::Fast4g => (165, 8100, 1350),
        };
        Throttle {
            preset: Some(self),
            latency_ms,
            download_kbps: Some(down),
            upload_kbps: Some(up),
        }
    }
}

/// Parameters of `set_throttle`: a preset, or any of latency, download and upload; or `off`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SetThrottleParams {
    /// A named set of conditions (excludes `latencyMs`, `downloadKbps` and `uploadKbps`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub preset: Option<ThrottlePreset>,
    /// The latency added to every request, in milliseconds (0 to 600000; default 0).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(max = MAX_THROTTLE_LATENCY_MS))]
    pub latency_ms: Option<u32>,
    /// The largest download rate, in kilobits per second (1 to 10000000; default unlimited).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1, max = MAX_THROTTLE_KBPS))]
    pub download_kbps: Option<u64>,
    /// The largest upload rate, in kilobits per second (1 to 10000000; default unlimited).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1, max = MAX_THROTTLE_KBPS))]
    pub upload_kbps: Option<u64>,
    /// Stop throttling (excludes every other field); `set_offline` stays as it is.
    #[serde(default)]
    pub off: bool,
}

impl Validate for SetThrottleParams {
    fn validate(&self) -> Result<(), String> {
        let values =
            self.latency_ms.is_some() || self.download_kbps.is_some() || self.upload_kbps.is_some();
        if self.off && (values || self.preset.is_some()) {
            return Err("`off` excludes `preset`, `latencyMs`, `downloadKbps` and `uploadKbps`: give `off` alone".into());
        }
        if self.preset.is_some() && values {
            return Err("`preset` excludes `latencyMs`, `downloadKbps` and `uploadKbps`: give a preset or the values".into());
        }
        if !self.off && !values && self.preset.is_none() {
            return Err(
                "give `preset`, any of `latencyMs`, `downloadKbps` and `uploadKbps`, or `off`"
                    .into(),
            );
        }
        if let Some(l) = self.latency_ms
            && l > MAX_THROTTLE_LATENCY_MS
        {
            return invalid(
                "latencyMs",
                format!("{l}; use 0 to {MAX_THROTTLE_LATENCY_MS} milliseconds"),
            );
        }
        for (field, v) in [
            ("downloadKbps", self.download_kbps),
            ("uploadKbps", self.upload_kbps),
        ] {
            if let Some(v) = v
                && !(1..=MAX_THROTTLE_KBPS).contains(&v)
            {
                return invalid(
                    field,
                    format!("{v}; use 1 to {MAX_THROTTLE_KBPS} kilobits per second"),
                );
            }
        }
        Ok(())
    }
}

impl crate::ParamFacts for SetThrottleParams {}

impl SetThrottleParams {
    /// The conditions these parameters ask for (None: no throttling).
    pub fn throttle(&self) -> Option<Throttle> {
        if self.off {
            return None;
        }
        if let Some(p) = self.preset {
            return Some(p.throttle());
        }
        Some(Throttle {
            preset: None,
            latency_ms: self.latency_ms.unwrap_or(0),
            download_kbps: self.download_kbps,
            upload_kbps: self.upload_kbps,
        })
    }
}

/// The network throttling every tab gets.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Throttle {
    /// The preset these conditions came from (null: given as values).
    pub preset: Option<ThrottlePreset>,
    /// The latency added to every request, in milliseconds.
    pub latency_ms: u32,
    /// The largest download rate in kilobits per second (null: unlimited).
    pub download_kbps: Option<u64>,
    /// The largest upload rate in kilobits per second (null: unlimited).
    pub upload_kbps: Option<u64>,
}

impl Throttle {
    /// One line for human output: `latency 200 ms, down 400 kbit/s, up unlimited (slow-3g)`.
    pub fn describe(&self) -> String {
        let rate = |r: Option<u64>| r.map_or("unlimited".into(), |k| format!("{k} kbit/s"));
        format!(
            "latency {} ms, down {}, up {}{}",
            self.latency_ms,
            rate(self.download_kbps),
            rate(self.upload_kbps),
            self.preset
                .map_or(String::new(), |p| format!(" ({})", p.as_str()))
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(json: serde_json::Value) -> Result<(), String> {
        serde_json::from_value::<SetThrottleParams>(json)
            .map_err(|e| e.to_string())?
            .validate()
    }

    #[test]
    fn exclusive_fields_and_ranges_are_refused() {
        assert!(check(serde_json::json!({"latencyMs": 100})).is_ok());
        assert!(check(serde_json::json!({"preset": "slow-3g"})).is_ok());
        assert!(check(serde_json::json!({"off": true})).is_ok());
        assert!(
            check(serde_json::json!({}))
                .unwrap_err()
                .contains("give `preset`")
        );
        assert!(
            check(serde_json::json!({"off": true, "latencyMs": 1}))
                .unwrap_err()
                .contains("`off` excludes")
        );
        assert!(
            check(serde_json::json!({"preset": "fast-3g", "downloadKbps": 5}))
                .unwrap_err()
                .contains("`preset` excludes")
        );
        assert!(
            check(serde_json::json!({"downloadKbps": 0}))
                .unwrap_err()
                .contains("downloadKbps")
        );
        assert!(
            check(serde_json::json!({"latencyMs": 600001}))
                .unwrap_err()
                .contains("latencyMs")
        );
        assert!(check(serde_json::json!({"latencyMs": -1})).is_err());
        assert!(check(serde_json::json!({"preset": "2g"})).is_err());
    }

    #[test]
    fn presets_carry_the_devtools_numbers() {
        let t = ThrottlePreset::Slow3g.throttle();
        assert_eq!(
            (t.latency_ms, t.download_kbps, t.upload_kbps),
            (2000, Some(400), Some(400))
        );
        let t = ThrottlePreset::Fast3g.throttle();
        assert_eq!(
            (t.latency_ms, t.download_kbps, t.upload_kbps),
            (563, Some(1440), Some(675))
        );
    }
}
