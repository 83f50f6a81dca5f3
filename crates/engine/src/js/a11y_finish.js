// agentbrowser: axe.finishRun over the frames' partial results (embedded by crates/engine:
// audit/a11y.rs), in the top frame's isolated world. the partial results and options are put in by the
// engine (JSON). Answers {ok: true, value: report} with passes and inapplicable reduced to
// {id, impact, tags, nodeCount}.
(async () => {
  'use strict';
  let r;
  try {
    r = await axe.finishRun(__AB_PARTIALS__, __AB_OPTIONS__);
  } catch (e) {
    return { ok: false, code: 'axe_failed', message: String((e && e.message) || e), detail: null };
  }
  const brief = (x) => ({ id: x.id, impact: x.impact || null, tags: x.tags, nodeCount: (x.nodes || []).length });
  return {
    ok: true,
    value: {
      testEngine: r.testEngine, testRunner: r.testRunner, testEnvironment: r.testEnvironment,
      timestamp: r.timestamp, url: r.url, toolOptions: r.toolOptions,
      violations: r.violations, incomplete: r.incomplete,
      passes: r.passes.map(brief), inapplicable: r.inapplicable.map(brief),
    },
  };
})()
