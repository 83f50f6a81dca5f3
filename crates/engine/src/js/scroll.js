// agentbrowser scroll (embedded by crates/engine: layout.rs SCROLL_JS).
//
// One function expression, called in the engine's isolated world as (target, x, y): it scrolls
// what a user would scroll by (x, y) CSS pixels, at once, and says what moved.
//   target null: the page. The document when it scrolls on the axis asked for (at its end it
//     stays, and says so). When it does not (an app shell: html and body fixed to the viewport,
//     a <main> that scrolls), the scroll container under the viewport's centre (the innermost
//     one that can move that way, walking out through shadow roots), else the largest visible
//     one that can (when none can, the one under the centre at its end, which stays).
//   target an element: the element itself when it is a scroll container whose content overflows
//     on the axis (at its end it stays, and says so); otherwise its nearest ancestor that scrolls
//     that way (through shadow roots), else the document.
//   -> {before: {x, y}, after: {x, y}, scrolled: 'document' | a short description of the element
//      that scrolled (tag#id.class, with its snapshot ref when it has one), scrollable: whether
//      what was tried overflows on the axis, ownScroll: whether the target (or the document)
//      itself was what scrolled}
(function scroll(target, x, y) {
  'use strict';
  // The target's own document and window: an element of a same-process frame is reached from
  // the main frame's world, whose globals are the main window's.
  const doc = target && target.ownerDocument ? target.ownerDocument : document;
  const win = doc.defaultView || window;
  const se = doc.scrollingElement || doc.documentElement;
  const axes = [];
  if (y) axes.push('y');
  if (x) axes.push('x');

  // The body's overflow is the viewport's while the root element's is visible: then the body
  // is no scroll container of its own.
  const rootCs = win.getComputedStyle(doc.documentElement);
  const bodyPropagates = rootCs.overflowX === 'visible' && rootCs.overflowY === 'visible';
  // Whether `el` overflows on an axis asked for and lets a user scroll it there.
  function overflows(el) {
    if (el === se) {
      return axes.some((a) => (a === 'y' ? se.scrollHeight > se.clientHeight : se.scrollWidth > se.clientWidth));
    }
    if (el === doc.body && bodyPropagates) return false;
    const cs = win.getComputedStyle(el);
    return axes.some((a) => {
      const o = a === 'y' ? cs.overflowY : cs.overflowX;
      if (!/^(auto|scroll|overlay)$/.test(o)) return false;
      return a === 'y' ? el.scrollHeight > el.clientHeight : el.scrollWidth > el.clientWidth;
    });
  }
  // Whether `el` (which overflows) has room to move the way asked for.
  function room(el) {
    const top = el === se ? win.scrollY : el.scrollTop, left = el === se ? win.scrollX : el.scrollLeft;
    const maxY = el.scrollHeight - el.clientHeight, maxX = el.scrollWidth - el.clientWidth;
    return (y > 0 && top < maxY - 0.5) || (y < 0 && top > 0.5)
      || (x > 0 && left < maxX - 0.5) || (x < 0 && left > 0.5);
  }
  const scrolls = (el) => overflows(el) && room(el);
  // The parent a scroll would chain to: the parent element, or a shadow root's host.
  function up(el) {
    if (el.parentElement) return el.parentElement;
    const root = el.getRootNode();
    return root && root.host ? root.host : null;
  }
  function describe(el) {
    if (el === se) return 'document';
    let d = el.localName;
    if (el.id) d += '#' + el.id;
    for (const c of Array.from(el.classList).slice(0, 2)) d += '.' + c;
    const api = globalThis.__ab;
    const ref = api && api.refFor ? api.refFor(el) : null;
    return ref ? d + ' (' + ref + ')' : d;
  }
  function move(el) {
    const pos = () => (el === se ? { x: win.scrollX, y: win.scrollY } : { x: el.scrollLeft, y: el.scrollTop });
    const before = pos();
    if (el === se) win.scrollBy({ left: x, top: y, behavior: 'instant' });
    else el.scrollBy({ left: x, top: y, behavior: 'instant' });
    return { before, after: pos() };
  }
  const answer = (el, own) => Object.assign(move(el), { scrolled: describe(el), scrollable: overflows(el), ownScroll: own });

  // The innermost element under the viewport's centre, through open shadow roots.
  function atCentre() {
    const cx = win.innerWidth / 2, cy = win.innerHeight / 2;
    let el = doc.elementFromPoint(cx, cy);
    for (let i = 0; i < 32 && el && el.shadowRoot; i++) {
      const inner = el.shadowRoot.elementFromPoint(cx, cy);
      if (!inner || inner === el) break;
      el = inner;
    }
    return el;
  }
  // The largest visible element (by its area inside the viewport) that can move the way asked.
  function largest() {
    let best = null, area = 0;
    const visit = (root) => {
      for (const el of root.querySelectorAll('*')) {
        if (el.shadowRoot) visit(el.shadowRoot);
        if (!scrolls(el) || !el.checkVisibility()) continue;
        const r = el.getBoundingClientRect();
        const w = Math.min(r.right, win.innerWidth) - Math.max(r.left, 0);
        const h = Math.min(r.bottom, win.innerHeight) - Math.max(r.top, 0);
        if (w > 0 && h > 0 && w * h > area) { best = el; area = w * h; }
      }
    };
    visit(doc);
    return best;
  }

  if (target) {
    if (!target.isConnected) return { gone: true };
    if (overflows(target)) return answer(target, true);
    for (let el = up(target); el && el !== doc.documentElement; el = up(el)) {
      if (scrolls(el)) return answer(el, false);
    }
    return answer(se, false);
  }
  if (overflows(se)) return answer(se, true);
  // A container under the centre that overflows but is at its end: what the answer names when
  // nothing can move that way.
  let atEnd = null;
  for (let el = atCentre(); el && el !== doc.documentElement; el = up(el)) {
    if (scrolls(el)) return answer(el, false);
    if (!atEnd && overflows(el)) atEnd = el;
  }
  const big = largest() || atEnd;
  return big ? answer(big, false) : answer(se, true);
})
