//! Audits of the active tab: `a11y` runs axe-core (in every frame, in the engine's isolated
//! world) and `vitals` reads the page's own Web Vitals (LCP, CLS, INP, FCP, TTFB).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::present::Present;
use crate::validate::{Validate, invalid};

/// Nodes an issue lists by default (`nodeCount` is the total).
pub const A11Y_MAX_NODES: u32 = 20;
/// Most nodes an issue may list.
pub const A11Y_MAX_NODES_LIMIT: u32 = 1000;
/// Longest HTML excerpt of a node, in bytes (longer is cut and says so).
pub const A11Y_HTML_MAX_BYTES: usize = 300;
/// Longest failure summary of a node, in bytes.
pub const A11Y_SUMMARY_MAX_BYTES: usize = 1000;
/// Related nodes a check keeps in a node's `raw` (the rest are counted).
pub const A11Y_RELATED_KEPT: usize = 5;

/// Parameters of `a11y`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct A11yParams {
    /// Navigate the active tab to this URL first (as `open` does, waiting for `load`); absent:
    /// audit the page the tab shows.
    #[cfg_attr(feature = "clap", arg(help = "Open this URL first"))]
    pub url: Option<String>,
    /// Only axe rules with one of these tags (`wcag2a`, `wcag2aa`, `wcag21aa`, `best-practice`,
    /// ...; unknown tags are refused with the list of axe's tags); absent: every rule axe runs by
    /// default.
    #[cfg_attr(
        feature = "clap",
        arg(
            long,
            value_delimiter = ',',
            value_name = "TAGS",
            help = "Only rules with these axe tags (comma-separated: wcag2a,wcag2aa,best-practice,...)"
        )
    )]
    pub tags: Option<Vec<String>>,
    /// Only the elements under (and including) the elements this CSS selector matches in the
    /// top document (frames inside them are audited too).
    #[cfg_attr(feature = "clap", arg(short = 's', long, value_name = "CSS"))]
    pub selector: Option<String>,
    /// Nodes listed per issue (default 20, 1 to 1000); `nodeCount` is the total.
    #[cfg_attr(feature = "clap", arg(long, value_name = "N"))]
    pub max_nodes: Option<u32>,
}

impl Validate for A11yParams {
    fn validate(&self) -> Result<(), String> {
        if let Some(tags) = &self.tags {
            for t in tags {
                if t.trim().is_empty() {
                    return invalid(
                        "tags",
                        "an empty tag; give axe tags such as wcag2a, wcag2aa",
                    );
                }
                if t.contains(',') {
                    return invalid(
                        "tags",
                        format!("`{t}` contains a comma; give each tag on its own"),
                    );
                }
            }
        }
        if let Some(s) = &self.selector
            && s.trim().is_empty()
        {
            return invalid("selector", "empty; give a CSS selector such as `main`");
        }
        if let Some(n) = self.max_nodes
            && !(1..=A11Y_MAX_NODES_LIMIT).contains(&n)
        {
            return invalid(
                "maxNodes",
                format!("{n} is out of range; use 1 to {A11Y_MAX_NODES_LIMIT}"),
            );
        }
        Ok(())
    }
}

impl crate::ParamFacts for A11yParams {
    fn url_fields(&self) -> Vec<crate::UrlField<'_>> {
        crate::url_fields_of(&[("url", self.url.as_deref())])
    }
}

/// How many axe rules ended in each outcome.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct AccessibilityCounts {
    /// Rules with at least one failing node.
    pub violations: u64,
    /// Rules axe could not decide for some node (a human should check them).
    pub incomplete: u64,
    /// Rules every checked node passed.
    pub passes: u64,
    /// Rules that applied to no element of the page.
    pub inapplicable: u64,
}

/// One element an issue is about.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct AccessibilityNode {
    /// axe's selector path: one entry per frame from the top document down (a frame's
    /// `<iframe>` selector, then the element's), and an entry that is itself an array of
    /// selectors crosses shadow roots (host, then the element inside).
    pub target: Vec<Value>,
    /// The element's opening tag as axe shows it, cut at 300 bytes.
    pub html: String,
    /// Whether `html` was cut.
    pub html_truncated: bool,
    /// What to fix, as axe words it (null for an incomplete check with nothing to say).
    pub failure_summary: Option<String>,
    /// The element's ref when a snapshot of this document gave it one (act on it directly).
    #[serde(rename = "ref")]
    pub reference: Option<String>,
    /// axe's node result: `impact`, and the `any`, `all`, `none` checks (each check keeps at most
    /// 5 related nodes; `relatedNodesTotal` counts them).
    pub raw: Value,
}

/// One axe rule that failed (a violation) or could not be decided (incomplete).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct AccessibilityIssue {
    /// axe's rule id (`image-alt`, `color-contrast`, `label`, ...).
    pub id: String,
    /// The worst impact among its nodes: `minor`, `moderate`, `serious`, `critical` (null when
    /// axe gives none).
    pub impact: Option<String>,
    /// One line on what the rule asks.
    pub help: String,
    /// Deque's page on the rule.
    pub help_url: String,
    /// The rule's tags (`wcag2a`, `wcag111`, `cat.text-alternatives`, ...).
    pub tags: Vec<String>,
    /// Elements the rule found, in every frame.
    pub node_count: u64,
    /// The first of them (at most `maxNodes`, default 20).
    pub nodes: Vec<AccessibilityNode>,
    /// axe's rule result without its nodes (`description`, ...).
    pub raw: Value,
}

/// Result of `a11y`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct AccessibilityAudit {
    /// The audited page's URL.
    pub url: String,
    /// The axe-core version that ran.
    pub axe_version: String,
    /// Documents audited: the page and each of its frames (same- and cross-origin).
    pub frames: u64,
    /// Rule outcomes.
    pub counts: AccessibilityCounts,
    /// The rules that failed, worst impact first.
    pub violations: Vec<AccessibilityIssue>,
    /// The rules axe could not decide.
    pub incomplete: Vec<AccessibilityIssue>,
    /// Whether some issue lists fewer nodes than it found.
    pub truncated: bool,
    /// axe's report without node lists: `testEngine`, `testEnvironment` (window size and
    /// orientation; the user agent left out), `toolOptions`, `timestamp`, and `passes` /
    /// `inapplicable` as `{id, impact, tags, nodeCount}`.
    pub raw: Value,
}

fn issue_lines(out: &mut String, kind: &str, issues: &[AccessibilityIssue]) {
    for i in issues {
        out.push_str(&format!(
            "\n{kind} {} [{}] {} node{}: {}\n  {}",
            i.id,
            i.impact.as_deref().unwrap_or("-"),
            i.node_count,
            if i.node_count == 1 { "" } else { "s" },
            i.help,
            i.help_url
        ));
        for n in &i.nodes {
            let target = serde_json::to_string(&n.target).unwrap_or_default();
            match &n.reference {
                Some(r) => out.push_str(&format!("\n  - {target} [ref={r}] {}", n.html)),
                None => out.push_str(&format!("\n  - {target} {}", n.html)),
            }
        }
        let left = i.node_count.saturating_sub(i.nodes.len() as u64);
        if left > 0 {
            out.push_str(&format!("\n  ({left} more not listed: raise --max-nodes)"));
        }
    }
}

impl Present for AccessibilityAudit {
    fn text(&self) -> String {
        let c = &self.counts;
        let mut out = format!(
            "axe-core {} on {} ({} document{}): {} violation{}, {} incomplete, {} passed, {} inapplicable",
            self.axe_version,
            self.url,
            self.frames,
            if self.frames == 1 { "" } else { "s" },
            c.violations,
            if c.violations == 1 { "" } else { "s" },
            c.incomplete,
            c.passes,
            c.inapplicable
        );
        issue_lines(&mut out, "violation", &self.violations);
        issue_lines(&mut out, "incomplete", &self.incomplete);
        out
    }
}

/// How long `vitals` waits by default for the page to be quiet, in milliseconds: CLS's own
/// gap between session windows (a shift a second after the last one starts a new window).
pub const VITALS_QUIET_MS: u64 = 1000;
/// How long `vitals` waits at most by default for that quiet after load, in milliseconds.
pub const VITALS_CAP_MS: u64 = 10_000;
/// The most `quietMs` and `capMs` may be, in milliseconds.
pub const VITALS_MAX_WAIT_MS: u64 = 60_000;

/// Parameters of `vitals`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct VitalsParams {
    /// Navigate the active tab to this URL first (as `open` does, waiting for `load`); absent:
    /// the page the tab shows.
    #[cfg_attr(feature = "clap", arg(help = "Open this URL first"))]
    pub url: Option<String>,
    /// The page is read once it was quiet this long after load, in milliseconds: no layout
    /// shift, long task or new largest-contentful-paint candidate (default 1000, 0 to 60000).
    #[schemars(range(max = VITALS_MAX_WAIT_MS))]
    #[cfg_attr(feature = "clap", arg(long, value_name = "MS", allow_negative_numbers = true, value_parser = crate::cli::fit::<u64>()))]
    pub quiet_ms: Option<u64>,
    /// The longest wait for that quiet, in milliseconds from the start of the read (default
    /// 10000, 0 to 60000; the command's timeout cuts it shorter); a page still busy then is read
    /// as it is, and the answer says so.
    #[schemars(range(max = VITALS_MAX_WAIT_MS))]
    #[cfg_attr(feature = "clap", arg(long, value_name = "MS", allow_negative_numbers = true, value_parser = crate::cli::fit::<u64>()))]
    pub cap_ms: Option<u64>,
}

impl Validate for VitalsParams {
    fn validate(&self) -> Result<(), String> {
        for (field, v) in [("quietMs", self.quiet_ms), ("capMs", self.cap_ms)] {
            if let Some(v) = v
                && v > VITALS_MAX_WAIT_MS
            {
                return invalid(
                    field,
                    format!("{v} ms is out of range; use 0 to {VITALS_MAX_WAIT_MS} ms"),
                );
            }
        }
        Ok(())
    }
}

impl crate::ParamFacts for VitalsParams {
    fn url_fields(&self) -> Vec<crate::UrlField<'_>> {
        crate::url_fields_of(&[("url", self.url.as_deref())])
    }
}

/// Whether `vitals` read a settled page, and how long it waited.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct VitalsSettle {
    /// Whether the page was quiet for `quietMs` before `capMs` passed (false: it was read while
    /// still busy, and the figures may still grow).
    pub settled: bool,
    /// The quiet window asked for, in milliseconds.
    pub quiet_ms: u64,
    /// The cap that applied, in milliseconds.
    pub cap_ms: u64,
    /// Whether the command's timeout made the cap shorter than asked.
    pub cap_cut_by_timeout: bool,
    /// How long the read waited for the quiet, in milliseconds.
    pub waited_ms: u64,
    /// When the page settled, in milliseconds after its load event (null: not settled).
    pub settled_after_load_ms: Option<f64>,
    /// The last activity seen: `layout-shift`, `longtask` or `largest-contentful-paint`
    /// (null: none after load).
    pub last_activity: Option<String>,
    /// When it was, in milliseconds after the load event.
    pub last_activity_after_load_ms: Option<f64>,
}

impl VitalsSettle {
    /// The settle line of the text answer.
    fn line(&self) -> String {
        let secs = |ms: f64| format!("{:.1} s", ms / 1000.0);
        let cut = if self.cap_cut_by_timeout {
            " (the command's timeout)"
        } else {
            ""
        };
        match (self.settled, self.settled_after_load_ms) {
            (true, Some(at)) => format!(
                "settled {} after load (quiet {} ms{})",
                secs(at),
                self.quiet_ms,
                match (&self.last_activity, self.last_activity_after_load_ms) {
                    (Some(what), Some(t)) => format!("; last {what} {} after load", secs(t)),
                    _ => String::new(),
                }
            ),
            _ => format!(
                "cut at {}{cut}: still busy{} (quiet {} ms not reached); the figures may still grow",
                secs(self.cap_ms as f64),
                match (&self.last_activity, self.last_activity_after_load_ms) {
                    (Some(what), Some(t)) => format!(", last {what} {} after load", secs(t)),
                    _ => String::new(),
                },
                self.quiet_ms
            ),
        }
    }
}

/// How a figure compares with web.dev's thresholds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum VitalRating {
    /// At or under the "good" threshold.
    Good,
    /// Between the two thresholds.
    NeedsImprovement,
    /// Over the "poor" threshold.
    Poor,
}

impl VitalRating {
    /// The kebab-case name.
    pub fn as_str(self) -> &'static str {
        match self {
            VitalRating::Good => "good",
            VitalRating::NeedsImprovement => "needs-improvement",
            VitalRating::Poor => "poor",
        }
    }
}

/// One Web Vital.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Vital {
    /// The figure (null when it could not be measured; `reason` says why).
    pub value: Option<f64>,
    /// `ms`, or `score` for CLS (unitless).
    pub unit: String,
    /// web.dev's rating of `value` (null without a value).
    pub rating: Option<VitalRating>,
    /// The "good" threshold (at or under it is good).
    pub good: f64,
    /// The "poor" threshold (over it is poor).
    pub poor: f64,
    /// Why there is no value (null when there is one).
    pub reason: Option<String>,
}

impl Vital {
    /// A measured figure, rated against `good` and `poor`.
    pub fn measured(value: f64, unit: &str, good: f64, poor: f64) -> Vital {
        let rating = if value <= good {
            VitalRating::Good
        } else if value <= poor {
            VitalRating::NeedsImprovement
        } else {
            VitalRating::Poor
        };
        Vital {
            value: Some(value),
            unit: unit.to_string(),
            rating: Some(rating),
            good,
            poor,
            reason: None,
        }
    }

    /// A figure that could not be measured, and why.
    pub fn missing(unit: &str, good: f64, poor: f64, reason: impl Into<String>) -> Vital {
        Vital {
            value: None,
            unit: unit.to_string(),
            rating: None,
            good,
            poor,
            reason: Some(reason.into()),
        }
    }

    fn line(&self, name: &str) -> String {
        match (self.value, self.rating) {
            (Some(v), Some(r)) => {
                let v = if self.unit == "ms" {
                    format!("{v:.0} ms")
                } else {
                    format!("{v:.3}")
                };
                format!("{name:<5}{v} ({})", r.as_str())
            }
            _ => format!(
                "{name:<5}- ({})",
                self.reason.as_deref().unwrap_or("not measured")
            ),
        }
    }
}

/// Result of `vitals`: the page's Web Vitals from its own `PerformanceObserver` entries.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct VitalsOutput {
    /// The page's URL.
    pub url: String,
    /// Largest Contentful Paint: when the largest text or image showed (good <= 2500 ms,
    /// poor > 4000 ms).
    pub lcp: Vital,
    /// Cumulative Layout Shift: the largest session window of unexpected layout shifts (good
    /// <= 0.1, poor > 0.25).
    pub cls: Vital,
    /// Interaction to Next Paint: the slowest interaction's latency (good <= 200 ms, poor >
    /// 500 ms); null until the page saw a click, tap or key press.
    pub inp: Vital,
    /// First Contentful Paint (good <= 1800 ms, poor > 3000 ms).
    pub fcp: Vital,
    /// Time to First Byte: from navigation start to the response's first byte (good <= 800
    /// ms, poor > 1800 ms).
    pub ttfb: Vital,
    /// Whether the page had settled when it was read (late layout shifts count in CLS only
    /// when the read waits for them).
    pub settle: VitalsSettle,
    /// What the page reported: `navigation` timing, `paint` entries, the LCP element, layout
    /// shift entries (at most 20, with `shiftCount`), interactions (`eventCount`).
    pub raw: Value,
}

impl Present for VitalsOutput {
    fn text(&self) -> String {
        [
            format!("vitals of {}", self.url),
            self.lcp.line("LCP"),
            self.cls.line("CLS"),
            self.inp.line("INP"),
            self.fcp.line("FCP"),
            self.ttfb.line("TTFB"),
            format!("settle {}", self.settle.line()),
        ]
        .join("\n")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checks() {
        let p = |v: serde_json::Value| crate::Command::from_parts("a11y", v).expect("known");
        assert!(p(serde_json::json!({"tags": ["wcag2a,wcag2aa"]})).is_err());
        assert!(p(serde_json::json!({"tags": [""]})).is_err());
        assert!(p(serde_json::json!({"maxNodes": 0})).is_err());
        assert!(p(serde_json::json!({"selector": " "})).is_err());
        assert!(p(serde_json::json!({"tags": ["wcag2a"], "maxNodes": 3})).is_ok());
    }

    #[test]
    fn vitals_waits_are_ranged() {
        let p = |v: serde_json::Value| crate::Command::from_parts("vitals", v).expect("known");
        for bad in [
            serde_json::json!({"quietMs": -1}),
            serde_json::json!({"capMs": -5}),
            serde_json::json!({"quietMs": VITALS_MAX_WAIT_MS + 1}),
            serde_json::json!({"capMs": 1.5}),
        ] {
            let e = p(bad.clone()).unwrap_err();
            assert!(e.contains("quietMs") || e.contains("capMs"), "{bad}: {e}");
        }
        assert!(p(serde_json::json!({"quietMs": 0, "capMs": VITALS_MAX_WAIT_MS})).is_ok());
        let settle = |settled| VitalsSettle {
            settled,
            quiet_ms: 500,
            cap_ms: 5000,
            cap_cut_by_timeout: false,
            waited_ms: 1200,
            settled_after_load_ms: settled.then_some(1400.0),
            last_activity: Some("layout-shift".into()),
            last_activity_after_load_ms: Some(900.0),
        };
        assert_eq!(
            settle(true).line(),
            "settled 1.4 s after load (quiet 500 ms; last layout-shift 0.9 s after load)"
        );
        assert!(settle(false).line().starts_with("cut at 5.0 s: still busy"));
    }

    #[test]
    fn ratings() {
        let v = Vital::measured(0.3, "score", 0.1, 0.25);
        assert_eq!(v.rating, Some(VitalRating::Poor));
        assert_eq!(
            Vital::measured(2500.0, "ms", 2500.0, 4000.0).rating,
            Some(VitalRating::Good)
        );
        assert_eq!(
            Vital::measured(3000.0, "ms", 2500.0, 4000.0).rating,
            Some(VitalRating::NeedsImprovement)
        );
        assert!(v.line("CLS").contains("0.300 (poor)"));
    }
}
