//! `vitals`: the page's Web Vitals from its own performance entries (PerformanceObserver with
//! `buffered: true`, read in the engine's isolated world), rated against web.dev's thresholds,
//! once the page has settled: quiet for a while after load (late layout shifts count in CLS),
//! within a cap the answer states.

use agentbrowser_protocol::{
    VITALS_CAP_MS, VITALS_QUIET_MS, Vital, VitalsOutput, VitalsParams, VitalsSettle,
};
use serde::Deserialize;
use serde_json::Value;

use crate::answer;
use crate::cx::Cx;
use crate::error::{EngineError, Result};
use crate::world::{self, FrameTarget};

const VITALS_JS: &str = include_str!("../js/vitals.js");
/// Longest wait for a visible page's first paint, in milliseconds.
const PAINT_WAIT_MS: u64 = 1000;
/// What the settle wait leaves of the command's time for the read and the answer, in ms.
const READ_MARGIN_MS: u64 = 2000;

/// What the page script said about the settle wait.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Settled {
    settled: bool,
    waited_ms: u64,
    settled_after_load_ms: Option<f64>,
    last_activity: Option<String>,
    last_activity_after_load_ms: Option<f64>,
}

/// What the page script read.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Read {
    url: String,
    ttfb: Option<f64>,
    fcp: Option<f64>,
    lcp: Option<f64>,
    lcp_supported: bool,
    cls: Option<f64>,
    cls_supported: bool,
    inp: Option<f64>,
    event_supported: bool,
    interaction_count: u64,
    hidden: bool,
    settle: Settled,
}

/// `vitals`: LCP, CLS, INP, FCP and TTFB of the active tab.
pub(crate) async fn vitals(p: VitalsParams, cx: &mut Cx<'_>) -> Result<VitalsOutput> {
    super::navigate_first(p.url.as_deref(), cx).await?;
    let page = cx.page().await?;
    let frame = FrameTarget::scoped(&page);
    let left = cx
        .limits
        .deadline
        .saturating_duration_since(tokio::time::Instant::now())
        .as_millis() as u64;
    let wait = PAINT_WAIT_MS.min(left / 2);
    let quiet = p.quiet_ms.unwrap_or(VITALS_QUIET_MS);
    let asked = p.cap_ms.unwrap_or(VITALS_CAP_MS);
    let cap = asked.min(left.saturating_sub(READ_MARGIN_MS).max(left / 2));
    let expr = VITALS_JS
        .replacen("__AB_WAIT_MS__", &wait.to_string(), 1)
        .replace("__AB_QUIET_MS__", &quiet.to_string())
        .replace("__AB_CAP_MS__", &cap.to_string());
    let raw = answer::value(
        world::evaluate_value(&page, &frame, &expr).await?,
        "the page",
    )?;
    let r: Read = serde_json::from_value(raw.clone())
        .map_err(|e| EngineError::internal(format!("the vitals script answered oddly: {e}")))?;
    let hidden = if r.hidden {
        " (the tab is hidden: browsers do not paint hidden pages)"
    } else {
        ""
    };
    let ms = |v: Option<f64>, good: f64, poor: f64, why: String| match v {
        Some(v) => Vital::measured(v, "ms", good, poor),
        None => Vital::missing("ms", good, poor, why),
    };
    let lcp_why = if r.lcp_supported {
        format!(
            "the page reported no largest-contentful-paint entry: nothing was painted as content yet{hidden}"
        )
    } else {
        "this browser does not report largest-contentful-paint entries".into()
    };
    let inp_why = if !r.event_supported {
        "this browser does not report event timing entries".to_string()
    } else if r.interaction_count == 0 {
        "no interaction yet: INP needs a click, tap or key press on the page".to_string()
    } else {
        "the page's interactions reported no duration".to_string()
    };
    Ok(VitalsOutput {
        url: r.url,
        lcp: ms(r.lcp, 2500.0, 4000.0, lcp_why),
        cls: match r.cls {
            Some(v) => Vital::measured(v, "score", 0.1, 0.25),
            None => Vital::missing(
                "score",
                0.1,
                0.25,
                if r.cls_supported {
                    "no layout shift entries were readable"
                } else {
                    "this browser does not report layout-shift entries"
                },
            ),
        },
        inp: ms(r.inp, 200.0, 500.0, inp_why),
        fcp: ms(
            r.fcp,
            1800.0,
            3000.0,
            format!("the page has not painted content yet (waited {wait} ms){hidden}"),
        ),
        ttfb: ms(
            r.ttfb,
            800.0,
            1800.0,
            "the page has no navigation timing (about:blank, or a document written by script)"
                .into(),
        ),
        settle: VitalsSettle {
            settled: r.settle.settled,
            quiet_ms: quiet,
            cap_ms: cap,
            cap_cut_by_timeout: cap < asked,
            waited_ms: r.settle.waited_ms,
            settled_after_load_ms: r.settle.settled_after_load_ms,
            last_activity: r.settle.last_activity,
            last_activity_after_load_ms: r.settle.last_activity_after_load_ms,
        },
        raw: strip(raw),
    })
}

/// The raw read without the fields the figures already carry.
fn strip(mut raw: Value) -> Value {
    if let Some(o) = raw.as_object_mut() {
        o.remove("url");
        o.remove("settle");
    }
    raw
}
