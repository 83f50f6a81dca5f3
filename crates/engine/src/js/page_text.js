// agentbrowser page text for waits (embedded by crates/engine: wait.rs PAGE_TEXT_JS).
//
// One function expression, called in the engine's isolated world of a frame with
//   {want: string|null, min: number, standalone: bool}
// It reads the text a user sees where the snapshot shows it: the document's rendered text
// (body.innerText), the text of every shadow root in place (open ones, and closed ones the
// engine handed to the snapshot script: __ab.shadowOf), and the same-origin frames in place, at
// any depth. It stops as soon as `want` is found (or `min` characters are there): the cheap
// body.innerText first, the walk only when that is not enough.
//   -> {found, length, blocked}: found: `want` is in the text (with `want` null: at least `min`
//      characters); length: characters read (all of them unless found stopped early); blocked:
//      shown frames whose document this frame cannot reach (out-of-process or cross-origin), which
//      the engine reads on their own.
// standalone: the frame is read on its own; when its parent reaches it (the parent's walk reads
// it in place) it answers {found: false, length: 0, blocked: 0} so nothing counts twice.
(function pageText(o) {
  'use strict';
  if (o.standalone) {
    let owner = null;
    try { owner = window.frameElement; } catch (_) { owner = null; }
    if (owner) return { found: false, length: 0, blocked: 0 };
  }
  const want = typeof o.want === 'string' ? o.want : null;
  const min = o.min > 0 ? o.min : 1;
  const api = globalThis.__ab;
  const shadowOf = (el) => el.shadowRoot || (api && api.shadowOf ? api.shadowOf(el) : null);
  const shown = (el) => el.checkVisibility() || getComputedStyle(el).display === 'contents';
  const parts = [];
  let length = 0, blocked = 0, hit = false;
  const enough = () => (want !== null ? hit : length >= min);
  const add = (t) => {
    if (!t) return;
    parts.push(t);
    length += t.length;
    if (want !== null && !hit) hit = t.includes(want);
  };

  // The rendered text of a shadow root's own nodes, one piece: shown elements' innerText (which
  // leaves out their own shadow roots: the walk reads those), text nodes, and the children of
  // display:contents elements (a <slot>'s fallback content when nothing is assigned to it).
  function ownText(node, out) {
    for (const c of node.childNodes) {
      if (c.nodeType === 3) {
        const t = c.data.replace(/\s+/g, ' ').trim();
        if (t) out.push(t);
      } else if (c.nodeType !== 1) {
        continue;
      } else if (c.checkVisibility()) {
        const t = c.innerText;
        if (t) out.push(t);
      } else if (getComputedStyle(c).display === 'contents'
        && !(c.localName === 'slot' && c.assignedNodes().length)) {
        ownText(c, out);
      }
    }
    return out;
  }

  // Shadow roots and frames under `root` (a document element or a shadow root) of `doc`.
  function walk(root, doc, depth) {
    const tw = doc.createTreeWalker(root, NodeFilter.SHOW_ELEMENT);
    for (let n = tw.nextNode(); n; n = tw.nextNode()) {
      const sr = shadowOf(n);
      const frame = n.localName === 'iframe' || n.localName === 'frame';
      if (!sr && !frame) continue;
      if (!shown(n)) continue;
      if (sr) {
        add(ownText(sr, []).join(' '));
        if (enough()) return true;
        if (walk(sr, doc, depth)) return true;
      }
      if (frame && depth < 16) {
        let inner = null;
        try { inner = n.contentDocument; } catch (_) { inner = null; }
        if (!inner) { blocked++; continue; }
        if (read(inner, depth + 1)) return true;
      }
    }
    return false;
  }

  // A document: its body's rendered text, then the walk.
  function read(doc, depth) {
    const body = doc.body;
    if (body) add(body.innerText);
    if (enough()) return true;
    return !!doc.documentElement && walk(doc.documentElement, doc, depth);
  }

  // Text that runs across pieces (a shadow root's text after the document's) counts too.
  const found = read(document, 0) || (want !== null && parts.join('\n').includes(want));
  return { found, length, blocked };
})
