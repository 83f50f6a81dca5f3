// agentbrowser: axe-core's run in one frame (embedded by crates/engine: audit/a11y.rs), evaluated
// in the engine's isolated world after axe.min.js. the context and options are put in by the engine
// (JSON). Answers {ok: true, value: {partial, frames: [{selector, context}], refs: [[key, ref]]}}:
// axe.runPartial's result for this frame, the frames axe wants audited in it (in axe's order, the
// order axe.finishRun takes their results in), and the refs of the nodes that did not pass (key:
// the JSON of the node's selector in this frame).
(async () => {
  'use strict';
  const context = __AB_CONTEXT__;
  const options = __AB_OPTIONS__;
  const sel = context && context.include && context.include.length && typeof context.include[0] === 'string' ? context.include[0] : null;
  if (sel !== null) {
    let n;
    try { n = document.querySelectorAll(sel).length; } catch (e) {
      return { ok: false, code: 'invalid_selector', message: 'invalid selector ' + JSON.stringify(sel) + ': ' + e.message, detail: null };
    }
    if (!n) return { ok: false, code: 'not_found', message: 'no element matches selector ' + JSON.stringify(sel), detail: null };
  }
  let partial;
  try {
    partial = await axe.runPartial(context, options);
  } catch (e) {
    return { ok: false, code: 'axe_failed', message: String((e && e.message) || e), detail: null };
  }
  const frames = axe.utils.getFrameContexts(context, options).map((f) => ({ selector: f.frameSelector, context: f.frameContext }));
  // The nodes that did not pass (the only ones an issue lists), each once.
  const passed = (n) => (!n.any.length || n.any.some((c) => c.result === true)) && n.all.every((c) => c.result === true) && n.none.every((c) => c.result === false);
  const failing = [];
  const seen = new Set();
  for (const r of partial.results) {
    for (const n of r.nodes || []) {
      if (!n.node || !n.node.selector || passed(n)) continue;
      const key = JSON.stringify(n.node.selector);
      if (seen.has(key)) continue;
      seen.add(key);
      failing.push(key);
    }
  }
  // Their refs, when this world's snapshot API gave them some (a same-origin frame's elements
  // get theirs from the API of the frame the snapshot walked it from: the engine asks there).
  const refs = [];
  const ab = globalThis.__ab;
  if (ab && typeof ab.refFor === 'function') {
    for (const key of failing) {
      let el = null;
      try { el = axe.utils.shadowSelect(JSON.parse(key)[0]); } catch (e) { el = null; }
      const ref = ab.refFor(el);
      if (ref) refs.push([key, ref]);
    }
  }
  return { ok: true, value: { partial, frames, failing, refs } };
})()
