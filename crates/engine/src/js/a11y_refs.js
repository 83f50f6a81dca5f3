// agentbrowser: the refs of a11y's nodes in same-origin frames (embedded by crates/engine:
// audit/a11y.rs), evaluated in the engine's isolated world of the frame a snapshot walks them
// from (the page, or an out-of-process frame). The engine puts in the items: [[framePath,
// selector]], framePath the axe selectors of the <iframe>s from this document down, selector the
// node's axe selector in its document (a string, or an array across shadow roots). Answers
// {ok: true, value: [ref | null per item]}.
(() => {
  'use strict';
  const items = __AB_ITEMS__;
  const ab = globalThis.__ab;
  if (!ab || typeof ab.refFor !== 'function') return { ok: true, value: items.map(() => null) };
  const pick = (root, sel) => {
    const parts = Array.isArray(sel) ? sel : [sel];
    let el = null;
    for (let i = 0; i < parts.length; i++) {
      el = root.querySelector(parts[i]);
      if (!el) return null;
      if (i < parts.length - 1) {
        root = ab.shadowOf(el);
        if (!root) return null;
      }
    }
    return el;
  };
  const one = ([frames, sel]) => {
    try {
      let doc = document;
      for (const f of frames) {
        const owner = pick(doc, f);
        doc = owner && owner.contentDocument;
        if (!doc) return null;
      }
      return ab.refFor(pick(doc, sel));
    } catch (e) {
      return null;
    }
  };
  return { ok: true, value: items.map(one) };
})()
