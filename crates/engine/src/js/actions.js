// agentbrowser element operations. ONE function declaration, called with CDP
// Runtime.callFunctionOn on a ref's element (`this`) in the engine's isolated world:
//   function (op, arg) -> {ok: true, value} | {ok: false, code, message, detail}
// (the one result format of the page scripts, decoded by crates/engine/src/answer.rs); an op
// that finds an element (findOption, fileInput) answers the Element itself, by reference, or its failure
// as a JSON string.
function (op, arg) {
  'use strict';
  const el = this;

  class Failure {
    constructor(code, message, detail) {
      this.code = code;
      this.message = message;
      this.detail = detail === undefined ? null : detail;
    }
  }

  function fail(code, message, detail) {
    return new Failure(code, message, detail);
  }

  // An element's shadow root, open or closed (closed ones the snapshot was handed, see
  // snapshot/00-head.js), or null.
  function shadowOf(e) {
    const api = globalThis.__ab;
    return e.shadowRoot || (api && api.shadowOf ? api.shadowOf(e) : null);
  }

  function deepActive(doc) {
    let a = doc.activeElement;
    while (a && shadowOf(a) && shadowOf(a).activeElement) a = shadowOf(a).activeElement;
    return a;
  }

  // The real target of an event whose composed path, seen from a window listener, stops at the
  // host of a closed shadow root (the path hides what is inside): the element under the event's
  // point inside that root (pointer and mouse events), or the root's focused element (others),
  // following nested roots; `t` itself when it hosts no closed root or nothing inside answers.
  function deepTarget(t, ev) {
    const touch = ev.changedTouches && ev.changedTouches.length ? ev.changedTouches[0] : null;
    const pt = typeof ev.clientX === 'number' ? ev : touch;
    const pointed = pt !== null;
    for (let i = 0; i < 32 && t && t.nodeType === 1 && !t.shadowRoot; i++) {
      const sr = shadowOf(t);
      if (!sr) break;
      let n = pointed ? sr.elementFromPoint(pt.clientX, pt.clientY) : sr.activeElement;
      // inside open roots below, the deepest element (an open root hides nothing from the path,
      // but elementFromPoint answers in the root's own tree)
      while (n && n.shadowRoot && pointed) {
        const m = n.shadowRoot.elementFromPoint(pt.clientX, pt.clientY);
        if (!m || m === n) break;
        n = m;
      }
      if (!n || n === t) break;
      t = n;
    }
    return t;
  }

  function describe(node) {
    if (!node || node.nodeType !== 1) return String(node);
    let s = node.localName;
    if (node.id) s += '#' + node.id;
    const cls = (node.getAttribute('class') || '').trim().split(/\s+/).filter(Boolean).slice(0, 2);
    if (cls.length) s += '.' + cls.join('.');
    const role = node.getAttribute('role');
    if (role) s += '[role=' + role + ']';
    const text = (node.innerText || node.textContent || '').replace(/\s+/g, ' ').trim().slice(0, 40);
    if (text) s += ' "' + text + '"';
    return s;
  }

  function isDisabled(e) {
    try { if (e.matches(':disabled')) return true; } catch (_) { /* not a form element */ }
    const a = e.closest('[aria-disabled]');
    return !!a && a.getAttribute('aria-disabled') === 'true';
  }

  function isVisible(e) {
    if (!e.isConnected) return false;
    if (typeof e.checkVisibility === 'function' &&
        !e.checkVisibility({ visibilityProperty: true, opacityProperty: false, contentVisibilityAuto: true })) return false;
    const rects = e.getClientRects();
    for (const r of rects) if (r.width > 0 && r.height > 0) return true;
    return false;
  }

  // The <iframe> elements from a window up through its same-origin ancestors (innermost first).
  function frameChain(win) {
    const out = [];
    for (let w = win; ; ) {
      let fe = null;
      try { fe = w.frameElement; } catch (_) { fe = null; }
      if (!fe) return out;
      out.push(fe);
      w = fe.ownerDocument.defaultView;
    }
  }

  // Offset of the element's frame within the top frame this world can reach (same-origin frames).
  function frameOffset(e) {
    let x = 0, y = 0;
    for (const fe of frameChain(e.ownerDocument.defaultView)) {
      const r = fe.getBoundingClientRect();
      x += r.left + fe.clientLeft;
      y += r.top + fe.clientTop;
    }
    return { x, y };
  }

  // Whether the topmost window reached from `win` through same-origin frames has a parent this
  // world cannot reach (a cross-origin parent, in this process or another): the engine then
  // carries the point on through the parent's <iframe> itself (see world::cut_owner).
  function cutAbove(win, chain) {
    const top = chain.length ? chain[chain.length - 1].ownerDocument.defaultView : win;
    try { return top.parent !== top; } catch (_) { return true; }
  }

  // Carries a point of e's frame up through its same-origin ancestors: it must stay inside each
  // parent's viewport and (with `hit`) hit the frame element there, not something drawn over it.
  // Returns the point in the topmost of them with how many frames it climbed (`depth`) and
  // whether a cross-origin parent stopped it (`cut`), or a failed probe.
  function climb(e, x, y, hit) {
    const chain = frameChain(e.ownerDocument.defaultView);
    for (const fe of chain) {
      const r = fe.getBoundingClientRect();
      x += r.left + fe.clientLeft;
      y += r.top + fe.clientTop;
      const w = fe.ownerDocument.defaultView;
      if (x < 0 || y < 0 || x >= w.innerWidth || y >= w.innerHeight) return failed(e, 'hidden');
      if (hit) {
        const h = fe.ownerDocument.elementFromPoint(x, y);
        if (h && !hitsTarget(h, fe)) return failed(e, 'covered', { by: describe(h) });
      }
    }
    return { x, y, depth: chain.length, cut: cutAbove(e.ownerDocument.defaultView, chain) };
  }

  function inViewport(r, win) {
    return r.bottom > 0 && r.right > 0 && r.top < win.innerHeight && r.left < win.innerWidth;
  }

  function hitsTarget(hit, target) {
    for (let n = hit; n; ) {
      if (n === target) return true;
      if (n.parentNode) n = n.parentNode;
      else if (n.host) n = n.host; // leave a shadow root
      else break;
    }
    // A label that activates the control counts as the control.
    const lab = hit && hit.closest && hit.closest('label');
    return !!lab && lab.control === target;
  }

  // Whether the point on `host` (a shadow host holding `target` in its shadow tree) lands on
  // light-DOM content the host renders inside `target` through a slot: `elementFromPoint` names
  // the host for its own text, though the press reaches the inner element.
  function slottedAt(host, x, y) {
    for (const n of host.childNodes) {
      let rects = [];
      if (n.nodeType === 1) rects = [n.getBoundingClientRect()];
      else if (n.nodeType === 3) { const r = document.createRange(); r.selectNodeContents(n); rects = Array.from(r.getClientRects()); }
      if (rects.some((b) => x >= b.left && x <= b.right && y >= b.top && y <= b.bottom)) return n.assignedSlot;
    }
    return null;
  }
  function slottedInto(hit, target, x, y) {
    let inside = false;
    for (let n = target; n; n = n.parentNode || n.host) if (n === hit.shadowRoot) { inside = true; break; }
    if (!inside) return false;
    const slot = slottedAt(hit, x, y);
    return !!slot && hitsTarget(slot, target);
  }

  // Counts DOM mutations of a document from the first failed probe on, so the engine can tell a
  // stable obstacle (report it at once) from a page that is still changing (keep waiting).
  function mutations(doc) {
    let m = globalThis.__abMut;
    if (!m || m.doc !== doc) {
      m = { doc, n: 0 };
      try {
        new MutationObserver((records) => { m.n += records.length; })
          .observe(doc, { subtree: true, childList: true, attributes: true, characterData: true });
      } catch (_) { /* no observer: every probe looks stable */ }
      globalThis.__abMut = m;
    }
    return m.n;
  }

  function running(doc) {
    try {
      for (const a of doc.getAnimations()) if (a.playState === 'running') return true;
    } catch (_) { /* getAnimations unsupported */ }
    return false;
  }

  // A failed probe with what the engine needs to tell a stable obstacle from a changing page.
  function failed(e, state, extra) {
    const doc = e.ownerDocument;
    const r = Object.assign({ state, mut: mutations(doc), anim: running(doc) }, extra || {});
    const b = e.isConnected ? e.getBoundingClientRect() : null;
    if (b) r.rect = [Math.round(b.left), Math.round(b.top), Math.round(b.width), Math.round(b.height)].join(',');
    return r;
  }

  function firstRect(e) {
    for (const r of e.getClientRects()) if (r.width > 0 && r.height > 0) return r;
    return null;
  }

  // A probe of the element, or, for a control the user cannot press itself (a hidden or covered
  // checkbox, radio or file input: styled switches, `.btn-check`, sr-only boxes), of the first of
  // its labels the user can press: the browser's label activation then reaches the control. The
  // guard stays on the control (its labels count as it). `via` names the label pressed.
  function probe(e, opts) {
    const r = probeOne(e, opts);
    if (r.state !== 'hidden' && r.state !== 'covered') return r;
    if (!(opts && opts.hit && opts.guard && opts.guard.label) || !isTag(e, 'input') || !e.labels) return r;
    for (const lab of e.labels) {
      const l = probeOne(lab, { hit: true, enabled: false, pressable: e });
      if (l.state !== 'ok') continue;
      if (opts.guard) l.guard = installGuard(e, opts.guard);
      l.via = describe(lab);
      return l;
    }
    return r;
  }

  // Whether a press at `hit` inside label `lab` activates the label's control: not when it lands
  // on interactive content inside the label (a link in "I accept the <a>terms</a>").
  function activatesLabel(hit, lab) {
    for (let n = hit; n && n !== lab; n = n.parentElement) {
      if (n.matches && n.matches('a[href],button,input,select,textarea,[tabindex],[role=link],[role=button]')) return false;
    }
    return true;
  }

  // Properties whose animation moves an element or fades it in or out.
  const MOVES = /^(transform|translate|scale|rotate|top|left|right|bottom|inset|margin|width|height|opacity|visibility)/;

  // The element (or a container) whose running, finite animation moves or fades `e`: a modal
  // sliding in, a menu growing open. Clicking it now lands where it will not be, or on a widget
  // that ignores input until its transition ends (Bootstrap's modal). Endless loops (spinners,
  // pulses) are not movement to wait for.
  function moving(e) {
    for (let n = e, i = 0; n && n.nodeType === 1 && i < 64; i++) {
      let anims = [];
      try { anims = n.getAnimations(); } catch (_) { anims = []; }
      for (const a of anims) {
        if (a.playState !== 'running' || !a.effect || a.effect.target !== n) continue;
        const end = a.effect.getComputedTiming().endTime;
        if (!Number.isFinite(end)) continue;
        let props = [];
        if (typeof a.transitionProperty === 'string') props = [a.transitionProperty];
        else try { props = a.effect.getKeyframes().flatMap((k) => Object.keys(k)); } catch (_) { props = []; }
        if (props.some((p) => MOVES.test(p))) return describe(n);
      }
      n = n.parentElement || (n.parentNode && n.parentNode.host) || null;
    }
    return null;
  }

  function probeOne(e, opts) {
    if (!e.isConnected) return { state: 'gone' };
    if (opts && opts.enabled && isDisabled(e)) return failed(e, 'disabled');
    const win = e.ownerDocument.defaultView;
    let rect = firstRect(e);
    if (!rect || !isVisible(e)) return failed(e, 'hidden');
    if (opts && opts.hit) {
      const mv = moving(e);
      if (mv) return failed(e, 'moving', { by: mv });
    }
    if (!inViewport(rect, win) || !inTopViewport(e, rect)) {
      e.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' });
      rect = firstRect(e);
      if (!rect) return failed(e, 'hidden');
    }
    const left = Math.max(rect.left, 0), right = Math.min(rect.right, win.innerWidth);
    const top = Math.max(rect.top, 0), bottom = Math.min(rect.bottom, win.innerHeight);
    if (right <= left || bottom <= top) return failed(e, 'hidden');
    let x = (left + right) / 2, y = (top + bottom) / 2;
    if (opts && opts.hit) {
      const root = e.getRootNode();
      const hitRoot = root && typeof root.elementFromPoint === 'function' ? root : e.ownerDocument;
      const hit = hitRoot.elementFromPoint(x, y);
      if (hit && !hitsTarget(hit, e) && !slottedInto(hit, e, x, y)) return failed(e, 'covered', { by: describe(hit) });
      if (hit && opts.pressable && hit !== opts.pressable && !activatesLabel(hit, e)) return failed(e, 'covered', { by: describe(hit) });
    }
    const up = climb(e, x, y, opts && opts.hit);
    if (up.state) return up;
    // The element's box in the same coordinates as the point (what a trace shows).
    const box = { x: rect.left + up.x - x, y: rect.top + up.y - y, width: rect.width, height: rect.height };
    x = up.x;
    y = up.y;
    const res = { state: 'ok', x, y, depth: up.depth, cut: up.cut, box };
    if (opts && opts.guard) res.guard = installGuard(e, opts.guard);
    return res;
  }

  // Whether the rect is inside the viewport of every same-origin frame up to the top.
  function inTopViewport(e, rect) {
    return !climb(e, (rect.left + rect.right) / 2, (rect.top + rect.bottom) / 2, false).state;
  }

  // ---------------------------------------------------------------- the hit-target guard
  //
  // Installed just before the trusted input events of one action. In every window from the
  // element's frame up to the top this world can reach, a capture-phase listener (added first,
  // so before the page's own listeners on the element path) lets an event of the action through
  // only when its target is the element or inside it (a label of the element counts); any other
  // target is stopped (preventDefault + stopImmediatePropagation) before a page handler sees it.
  // On the first event that reaches the element, its role and name are checked once more against
  // what the snapshot showed (a node relabelled in place between the check and the input is
  // stopped too). `guardResult` reports what was let through and what was stopped, and removes it.

  function removeGuard() {
    const g = globalThis.__abGuard;
    if (!g) return null;
    globalThis.__abGuard = null;
    clearTimeout(g.timer);
    if (g.mo) g.mo.disconnect();
    if (g.pressed) g.pressed.disconnect();
    for (const w of g.wins) {
      for (const type of g.types) {
        try { w.removeEventListener(type, g.listener, true); } catch (_) { /* window gone */ }
      }
    }
    return g;
  }

  function installGuard(e, spec) {
    removeGuard();
    // The element's window, its same-origin ancestors, and every same-origin frame below the
    // topmost of them (an event the page moves into a sibling frame is stopped there too).
    const chain = frameChain(e.ownerDocument.defaultView);
    const top = chain.length ? chain[chain.length - 1].ownerDocument.defaultView : e.ownerDocument.defaultView;
    const wins = [];
    const addFrames = (w, depth) => {
      wins.push(w);
      if (depth > 8 || wins.length > 64) return;
      let n = 0;
      try { n = w.frames.length; } catch (_) { n = 0; }
      for (let i = 0; i < n; i++) {
        let c = null;
        try { c = w.frames[i]; if (!c.document) c = null; } catch (_) { c = null; } // cross-origin
        if (c) addFrames(c, depth + 1);
      }
    };
    addFrames(top, 0);
    const g = { el: e, types: spec.events, hover: !!spec.hover, wins, received: [], blocked: [], relabelled: null, clicked: null, activated: null,
      pressed: null, presses: [], expanded: null, changed: false, released: null, over: null, dropped: null,
      verified: false, dirty: false, mo: null, timer: 0, expires: 0, listener: null };
    if (typeof spec.role === 'string') {
      try {
        g.mo = new MutationObserver(() => { g.dirty = true; });
        g.mo.observe(e.ownerDocument, { subtree: true, childList: true, characterData: true, attributes: true });
      } catch (_) { g.mo = null; g.dirty = true; }
    }
    g.listener = (ev) => {
      if (!ev.isTrusted) return;
      if (Date.now() > g.expires) { if (globalThis.__abGuard === g) removeGuard(); return; }
      const path = ev.composedPath();
      let t = path.length ? path[0] : ev.target;
      if (t && t.nodeType === 1 && !t.shadowRoot && !hitsTarget(t, e)) t = deepTarget(t, ev);
      // The event's path holds the element: light-DOM content a web component renders inside
      // it through a slot (the text of `<sl-button>` sits in its inner button).
      let ok = t && t.nodeType !== undefined && (hitsTarget(t, e) || path.includes(e));
      // On the first event that reaches the element: if the document changed since the guard
      // was installed (right after the role and name were checked), check them again.
      if (ok && !g.verified && typeof spec.role === 'string') {
        g.verified = true;
        if (g.dirty || (g.mo && g.mo.takeRecords().length > 0)) {
          const api = globalThis.__ab;
          const now = api && api.differs ? api.differs(e, spec.role, spec.name) : null;
          if (now) g.relabelled = now;
        }
        if (g.mo) { g.mo.disconnect(); g.mo = null; }
      }
      if (g.relabelled) ok = false;
      // The browser's own consequence of a click that reached the element: a click on a label
      // activates its control with a click of its own (`<label for>` of a checkbox, a radio, a
      // file input, Bootstrap's `.btn-check`). That click is the action reaching what it meant.
      if (!ok && ev.type === 'click' && g.clicked && t && t === labelControl(g.clicked)) {
        g.activated = describe(t);
        return;
      }
      // The rest of a press the element took and answered by changing the page (a menu or
      // a backdrop opened under the pointer, `pointer-events: none` on the body): the release
      // lands where a user's would, on what the press opened; stopping it would leave the
      // gesture half done. Only when the element itself answered the press (it cancelled the
      // press's default, as Radix and MUI do, or its `aria-expanded` changed): on a page that
      // merely moves things, a release elsewhere is stopped and the click repeated.
      if (!ok && g.pressed && RELEASES.has(ev.type) &&
          (g.changed || (g.pressed.changed() && answeredPress(g)))) {
        g.changed = true;
        if (!g.released) g.released = describe(t);
        return;
      }
      if (ok) {
        if (g.received.length < 40) g.received.push(ev.type);
        if (ev.type === 'click') g.clicked = t;
        // A drop from outside the page: whether the page cancelled the last dragover (a drop
        // zone) is read once it was dispatched; what the drop carried, here.
        if (ev.type === 'dragover') g.over = ev;
        if (ev.type === 'drop') g.dropped = dropped(ev.dataTransfer);
        if (PRESSES.has(ev.type)) {
          if (!g.pressed) {
            g.pressed = watch(e.ownerDocument);
            g.expanded = e.getAttribute('aria-expanded');
          }
          g.presses.push(ev);
        }
        return;
      }
      if (g.blocked.length < 20) g.blocked.push({ type: ev.type, target: g.relabelled ? 'the same element, relabelled' : describe(t) });
      ev.preventDefault();
      ev.stopImmediatePropagation();
      ev.stopPropagation();
    };
    for (const w of wins) for (const type of g.types) w.addEventListener(type, g.listener, true);
    const ttl = Math.max(100, Math.min(spec.ttl || 5000, 3600000));
    g.expires = Date.now() + ttl;
    g.timer = setTimeout(() => { if (globalThis.__abGuard === g) removeGuard(); }, ttl);
    globalThis.__abGuard = g;
    return true;
  }

  // Whether the guarded element answered the press itself: the page cancelled the press's
  // default (a widget that opens on press and keeps focus) or the element's `aria-expanded`
  // changed.
  function answeredPress(g) {
    if (g.presses.some((p) => p.defaultPrevented)) return true;
    return g.el.getAttribute('aria-expanded') !== g.expanded;
  }

  // The events that start a press, and those that end it.
  const PRESSES = new Set(['pointerdown', 'mousedown', 'touchstart']);
  const RELEASES = new Set(['pointerup', 'mouseup', 'click', 'touchend', 'auxclick', 'contextmenu', 'dblclick']);

  // Watches `doc` for any change from now on: `changed()` says whether one happened.
  function watch(doc) {
    let seen = false;
    const mo = new MutationObserver(() => { seen = true; });
    try {
      mo.observe(doc, { subtree: true, childList: true, attributes: true });
    } catch (_) { /* a document that cannot be observed: no change is seen */ }
    return { changed: () => seen || mo.takeRecords().length > 0, disconnect: () => mo.disconnect() };
  }

  // The control a click on `n` activates through the label holding `n` (across shadow roots).
  function labelControl(n) {
    for (let i = 0; n && i < 64; i++) {
      if (isTag(n, 'label')) return n.control;
      n = n.parentNode || n.host;
    }
    return null;
  }

  // What the guard saw, removing it. A pointer move is dispatched with the next animation frame,
  // so a hover that has seen nothing yet is read after one frame (at most 500 ms).
  function guardResult() {
    const g = globalThis.__abGuard;
    if (g && g.hover && !g.received.length && !g.blocked.length) {
      return new Promise((resolve) => {
        let done = false;
        const finish = () => { if (!done) { done = true; resolve(takeGuard()); } };
        requestAnimationFrame(() => setTimeout(finish, 0));
        // Only when no frame comes: under load a frame can take well over 100 ms (a hover in
        // nested frames was once reported as reaching nothing).
        setTimeout(finish, 500);
      });
    }
    return takeGuard();
  }

  // What the guard saw, removing it: the events let through and stopped, and (a drop) whether
  // the last dragover was cancelled and what the drop carried.
  function takeGuard() {
    const g = removeGuard();
    if (!g) return { installed: false };
    let hovered = false;
    if (g.hover) try { hovered = g.el.matches(':hover'); } catch (_) { hovered = false; }
    const out = { installed: true, received: g.received, blocked: g.blocked, connected: g.el.isConnected, hovered };
    if (g.relabelled) out.relabelled = { role: g.relabelled[0], name: g.relabelled[1] };
    if (g.activated) out.activated = g.activated;
    if (g.released) out.released = g.released;
    if (g.over) out.overCancelled = g.over.defaultPrevented;
    if (g.dropped) out.dropped = g.dropped;
    return out;
  }

  // What a drop event's data carried, as its page reads it.
  function dropped(dt) {
    if (!dt) return { types: [], files: [] };
    const files = [];
    for (const f of dt.files) if (files.length < 100) files.push({ name: f.name, size: f.size, type: f.type });
    return { types: Array.from(dt.types).slice(0, 64), files };
  }

  // Cross-realm type checks: an element of another frame is not an instance of this window's
  // classes, so go by namespace and tag.
  const HTML_NS = 'http://www.w3.org/1999/xhtml';
  function isTag(e, tag) { return !!e && e.nodeType === 1 && e.localName === tag && e.namespaceURI === HTML_NS; }
  function isField(e) { return isTag(e, 'input') || isTag(e, 'textarea'); }

  const TEXT_INPUTS = new Set(['', 'text', 'search', 'email', 'url', 'tel', 'password', 'number']);
  const DIRECT_INPUTS = new Set(['date', 'time', 'datetime-local', 'month', 'week', 'color', 'range']);

  // Sets `value` through the element's own prototype setter (frameworks that track the property
  // on the instance still see the change); works for elements of any frame.
  function setNativeValue(e, value) {
    for (let p = Object.getPrototypeOf(e); p; p = Object.getPrototypeOf(p)) {
      const desc = Object.getOwnPropertyDescriptor(p, 'value');
      if (desc) { if (desc.set) { desc.set.call(e, value); return; } break; }
    }
    e.value = value;
  }

  // The formats `fill` accepts for each input type it sets directly (a picker, not typing).
  const DIRECT_FORMATS = {
    date: ['YYYY-MM-DD', /^(\d{4,})-(\d{2})-(\d{2})$/],
    time: ['HH:MM, HH:MM:SS or HH:MM:SS.mmm (24-hour)', /^([01]\d|2[0-3]):[0-5]\d(:[0-5]\d(\.\d{1,3})?)?$/],
    'datetime-local': ['YYYY-MM-DDTHH:MM[:SS[.mmm]]', /^(\d{4,})-(\d{2})-(\d{2})T([01]\d|2[0-3]):[0-5]\d(:[0-5]\d(\.\d{1,3})?)?$/],
    month: ['YYYY-MM', /^(\d{4,})-(0[1-9]|1[0-2])$/],
    week: ['YYYY-Www (week 01 to 53)', /^(\d{4,})-W(0[1-9]|[1-4]\d|5[0-3])$/],
    color: ['#rrggbb (6 hex digits)', /^#[0-9a-fA-F]{6}$/],
  };

  function realDate(y, m, d) {
    const t = new Date(Date.UTC(Number(y), Number(m) - 1, Number(d)));
    return t.getUTCMonth() === Number(m) - 1 && t.getUTCDate() === Number(d);
  }

  // Checks `value` against the input type's format (and a range's min/max/step). Returns the
  // value the element must hold afterwards, or a Failure naming the type and what is allowed.
  function directValue(e, value) {
    const type = (e.getAttribute('type') || '').toLowerCase();
    const v = String(value);
    if (type === 'range') {
      const min = e.min !== '' && isFinite(Number(e.min)) ? Number(e.min) : 0;
      let max = e.max !== '' && isFinite(Number(e.max)) ? Number(e.max) : 100;
      if (max < min) max = min;
      const stepAttr = (e.getAttribute('step') || '').toLowerCase();
      const step = stepAttr === 'any' ? null : (Number(stepAttr) > 0 ? Number(stepAttr) : 1);
      const allowed = 'a number from ' + min + ' to ' + max + (step === null ? '' : ' in steps of ' + step + ' from ' + min);
      const detail = { type, value: v, allowed, min, max, step };
      if (!/^-?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(v.trim())) return fail('invalid_value', 'a range input takes ' + allowed + '; got ' + JSON.stringify(v), detail);
      const n = Number(v);
      if (n < min || n > max) return fail('invalid_value', JSON.stringify(v) + ' is outside the range input\'s ' + min + ' to ' + max, detail);
      if (step !== null) {
        const k = (n - min) / step;
        if (Math.abs(k - Math.round(k)) > 1e-7) return fail('invalid_value', JSON.stringify(v) + ' is not on the range input\'s steps (' + allowed + ')', detail);
      }
      return { number: n };
    }
    const f = DIRECT_FORMATS[type];
    if (v === '' && f && type !== 'color') return { text: '' }; // clear
    if (!f) return fail('invalid_value', 'fill cannot set an input of type ' + type, { type });
    const m = f[1].exec(v);
    const detail = { type, value: v, allowed: f[0] };
    if (!m) return fail('invalid_value', 'a ' + type + ' input takes ' + f[0] + '; got ' + JSON.stringify(v), detail);
    if ((type === 'date' || type === 'datetime-local') && !realDate(m[1], m[2], m[3])) {
      return fail('invalid_value', JSON.stringify(v) + ' is not a real date (a ' + type + ' input takes ' + f[0] + ')', detail);
    }
    return { text: type === 'color' ? v.toLowerCase() : v };
  }

  // Whether what a directly set input holds is the value asked for (a datetime-local or time
  // value may come back normalized: seconds of 0 dropped).
  function sameDirect(want, have) {
    if (want.number !== undefined) return have !== '' && Number(have) === want.number;
    if (have === want.text) return true;
    const norm = (s) => s.replace(/:00(\.0+)?$/, '').replace(/(\.\d*?)0+$/, '$1').replace(/\.$/, '');
    return norm(have) === norm(want.text);
  }

  function fire(e, type) {
    e.dispatchEvent(new Event(type, { bubbles: true, composed: type === 'input' }));
  }

  // Whether e is a password field (what is typed into it is a secret).
  function isSecret(e) { return isTag(e, 'input') && e.type === 'password'; }

  function editKind(e) {
    if (isTag(e, 'textarea')) return e.readOnly ? 'readonly' : 'text';
    if (isTag(e, 'input')) {
      const t = (e.getAttribute('type') || '').toLowerCase();
      if (e.readOnly) return 'readonly';
      if (TEXT_INPUTS.has(t) || !['checkbox', 'radio', 'button', 'submit', 'reset', 'image', 'file', 'hidden'].includes(t) && !DIRECT_INPUTS.has(t)) return 'text';
      if (DIRECT_INPUTS.has(t)) return 'direct';
      return 'none:' + t;
    }
    if (e.isContentEditable) return 'editable';
    return 'none:' + e.localName;
  }

  function checkedState(e) {
    if (isTag(e, 'input') && (e.type === 'checkbox' || e.type === 'radio')) return e.indeterminate ? 'mixed' : e.checked;
    const a = e.getAttribute('aria-checked') ?? e.getAttribute('aria-pressed') ?? e.getAttribute('aria-selected');
    if (a === 'true') return true;
    if (a === 'false') return false;
    if (a === 'mixed') return 'mixed';
    return null;
  }

  function selectAll(e) {
    if (isField(e)) {
      try { e.select(); } catch (_) { /* some types cannot select */ }
      try { e.setSelectionRange(0, e.value.length); } catch (_) { /* number/email */ }
    } else {
      const sel = e.ownerDocument.getSelection();
      const range = e.ownerDocument.createRange();
      range.selectNodeContents(e);
      sel.removeAllRanges();
      sel.addRange(range);
    }
  }

  function optionLabel(o) {
    return (o.getAttribute('aria-label') || o.label || o.textContent || '').replace(/\s+/g, ' ').trim();
  }

  function run() {
  switch (op) {
    case 'probe': return probe(el, arg);
    case 'guard': return installGuard(el, arg);
    case 'ownerProbe': {
      // `el` is the <iframe> of an out-of-process frame; (x, y) a point in this process's local
      // root. The point must hit the iframe here (and through same-process frames above it).
      const off = frameOffset(el);
      const x = arg.x - off.x, y = arg.y - off.y;
      const doc = el.ownerDocument;
      const win = doc.defaultView;
      if (x < 0 || y < 0 || x >= win.innerWidth || y >= win.innerHeight) return failed(el, 'hidden');
      if (arg.hit) {
        const hit = doc.elementFromPoint(x, y);
        if (hit && !hitsTarget(hit, el)) return failed(el, 'covered', { by: describe(hit) });
      }
      const up = climb(el, x, y, arg.hit);
      if (up.state) return up;
      if (arg.guard) installGuard(el, { events: arg.guard.events, ttl: arg.guard.ttl });
      return { state: 'ok' };
    }
    case 'frameOwnerProbe': {
      // `el` is the <iframe> of a cross-origin frame in this process; (x, y) a point in that
      // frame's viewport. The point, carried into this document through the iframe's content
      // box, must be inside this viewport and hit the iframe (and through same-origin frames
      // above); answers it in the topmost of them, as `probe` does.
      if (!el.isConnected) return failed(el, 'hidden'); // the frame's own removal, not the element's
      const r = el.getBoundingClientRect(), st = getComputedStyle(el);
      const x = arg.x + r.left + el.clientLeft + (parseFloat(st.paddingLeft) || 0);
      const y = arg.y + r.top + el.clientTop + (parseFloat(st.paddingTop) || 0);
      const win = el.ownerDocument.defaultView;
      if (x < 0 || y < 0 || x >= win.innerWidth || y >= win.innerHeight) return failed(el, 'hidden');
      if (arg.hit) {
        const hit = el.ownerDocument.elementFromPoint(x, y);
        if (hit && !hitsTarget(hit, el)) return failed(el, 'covered', { by: describe(hit) });
      }
      const up = climb(el, x, y, arg.hit);
      if (up.state) return up;
      if (arg.guard) installGuard(el, { events: arg.guard.events, ttl: arg.guard.ttl });
      return Object.assign({ state: 'ok' }, up);
    }
    case 'guardResult': return guardResult();
    case 'scroll': {
      if (!el.isConnected) return { state: 'gone' };
      el.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' });
      return { state: isVisible(el) ? 'ok' : 'hidden' };
    }
    case 'editKind': return editKind(el);
    case 'secret': return isSecret(el);
    case 'focus': {
      el.focus();
      const a = deepActive(el.ownerDocument);
      const ok = a === el || (!!a && el.contains(a));
      if (ok && arg && arg.guard) installGuard(el, arg.guard);
      return ok;
    }
    case 'setDirect': {
      // A date/time/color/range input: check the value's format for the type, set it through
      // the native setter, fire input and change, and read back what the element holds.
      const want = directValue(el, arg);
      if (want instanceof Failure) return want;
      const before = el.value;
      el.focus();
      setNativeValue(el, String(arg));
      fire(el, 'input');
      fire(el, 'change');
      const have = el.value;
      if (!sameDirect(want, have)) {
        const type = (el.getAttribute('type') || '').toLowerCase();
        return fail('value_rejected', 'the ' + type + ' input holds ' + JSON.stringify(have) + ' after setting ' + JSON.stringify(String(arg)) +
          (el.min || el.max ? ' (its min is ' + JSON.stringify(el.min) + ', max ' + JSON.stringify(el.max) + ')' : ''), { type, wanted: String(arg), value: have, before });
      }
      return have;
    }
    case 'deleteSelection': {
      if (!el.ownerDocument.execCommand('delete')) {
        if (el.isContentEditable && !isField(el)) el.textContent = '';
        else setNativeValue(el, '');
        fire(el, 'input');
      }
      return true;
    }
    case 'fillPrepare': {
      // One round trip for fill/clear: editable? actionable? then focus and select all.
      const kind = editKind(el);
      if (kind !== 'text' && kind !== 'editable' && kind !== 'direct') return { kind };
      const p = probe(el, { enabled: true });
      if (p.state !== 'ok') return Object.assign({ kind }, p);
      if (kind === 'direct') return { kind, state: 'ok', box: p.box };
      const before = isField(el) ? el.value : el.innerText;
      // With `box` (a trace records): the field's box where the text goes (focusing may scroll).
      const r0 = arg && arg.box ? firstRect(el) : null;
      el.focus();
      selectAll(el);
      const r1 = r0 ? firstRect(el) : null;
      if (p.box && r0 && r1) p.box = { ...p.box, x: p.box.x + r1.left - r0.left, y: p.box.y + r1.top - r0.top };
      const a = deepActive(el.ownerDocument);
      const focused = a === el || (!!a && el.contains(a));
      if (focused && arg && arg.guard) installGuard(el, arg.guard);
      // `secret`: a password field (a trace keeps the value typed out of its step).
      const res = { kind, state: 'ok', focused, before, box: r0 ? p.box : undefined, secret: isSecret(el) };
      if (kind !== 'editable') return res;
      // An editor that keeps its own model of the selection (CodeMirror, ProseMirror, Lexical)
      // learns of the new one from `selectionchange`, a task queued after this one: text
      // inserted before it ran would go where the old cursor was. Answer once it has run.
      return new Promise((resolve) => {
        const doc = el.ownerDocument;
        let done = false;
        const finish = () => {
          if (done) return;
          done = true;
          doc.removeEventListener('selectionchange', seen);
          setTimeout(() => resolve(res), 0);
        };
        const seen = () => finish();
        doc.addEventListener('selectionchange', seen);
        setTimeout(finish, 100);
      });
    }
    case 'change': {
      // After fill/clear: the change event, the value, and what the input guard saw.
      const guard = globalThis.__abGuard ? guardResult() : null;
      fire(el, 'change');
      return { value: isField(el) ? el.value : el.innerText, guard };
    }
    case 'value': {
      if (isField(el) || isTag(el, 'select')) return el.value;
      if (el.isContentEditable) return el.innerText;
      const role = el.getAttribute('role');
      if (role && el.hasAttribute('aria-valuenow')) return el.getAttribute('aria-valuenow');
      return fail('not_input', 'it is not an input, textarea, select or contenteditable', { element: describe(el) });
    }
    case 'selectNative': {
      if (!isTag(el, 'select')) return fail('not_select', 'it is not a <select>');
      const opts = Array.from(el.options);
      let o = opts.find((x) => x.value === arg) || opts.find((x) => optionLabel(x) === arg) ||
        opts.find((x) => optionLabel(x).toLowerCase() === String(arg).toLowerCase());
      if (!o) return fail('no_option', 'no option matches', { wanted: String(arg), options: opts.slice(0, 30).map(optionLabel) });
      if (o.disabled) return fail('disabled_option', 'the option is disabled', { wanted: String(arg), label: optionLabel(o) });
      if (!el.multiple) el.value = o.value; else o.selected = true;
      fire(el, 'input');
      fire(el, 'change');
      return { label: optionLabel(o), value: o.value };
    }
    case 'selectNativeMany': {
      if (!isTag(el, 'select')) return fail('not_select', 'it is not a <select>');
      if (!el.multiple) return fail('not_multiple', 'it takes one option');
      const opts = Array.from(el.options);
      const picked = [];
      for (const want of arg) {
        const o = opts.find((x) => x.value === want) || opts.find((x) => optionLabel(x) === want) ||
          opts.find((x) => optionLabel(x).toLowerCase() === String(want).toLowerCase());
        if (!o) return fail('no_option', 'no option matches', { wanted: String(want), options: opts.slice(0, 30).map(optionLabel) });
        if (o.disabled) return fail('disabled_option', 'the option is disabled', { wanted: String(want), label: optionLabel(o) });
        if (!picked.includes(o)) picked.push(o);
      }
      for (const o of opts) o.selected = picked.includes(o);
      fire(el, 'input');
      fire(el, 'change');
      const now = opts.filter((o) => o.selected);
      return { labels: now.map(optionLabel), values: now.map((o) => o.value) };
    }
    case 'findOption': {
      // ARIA listbox/combobox: the options it owns or controls, or its descendants.
      const doc = el.ownerDocument;
      const scopes = [el];
      for (const attr of ['aria-controls', 'aria-owns']) {
        for (const id of (el.getAttribute(attr) || '').split(/\s+/).filter(Boolean)) {
          const t = doc.getElementById(id);
          if (t) scopes.push(t);
        }
      }
      const seen = new Set(), all = [];
      for (const s of scopes) for (const o of s.querySelectorAll('[role=option]')) if (!seen.has(o)) { seen.add(o); all.push(o); }
      const want = String(arg);
      const match = all.find((o) => (o.getAttribute('data-value') || o.getAttribute('value') || o.id) === want) ||
        all.find((o) => optionLabel(o) === want) || all.find((o) => optionLabel(o).toLowerCase() === want.toLowerCase());
      if (match) return match;
      return fail('no_option', 'no option matches', { wanted: want, options: all.slice(0, 30).map(optionLabel) });
    }
    case 'options': {
      // The options of a <select>, an ARIA listbox, or the listbox a combobox owns or controls
      // (ARIA 1.2 and 1.1 shapes): at most `arg` of them, in document order.
      const max = arg;
      const text = (n) => (n ? (n.textContent || '').replace(/\s+/g, ' ').trim() : '');
      const answer = (kind, multiple, all, info, note) => {
        const value = { kind, multiple, options: all.slice(0, max).map(info), total: all.length, truncated: all.length > max };
        if (note) value.note = note;
        return value;
      };
      if (isTag(el, 'select')) {
        return answer('select', !!el.multiple, Array.from(el.options), (o) => ({
          value: o.value, label: optionLabel(o), selected: o.selected, disabled: o.disabled,
          group: o.parentElement && o.parentElement.localName === 'optgroup' ? o.parentElement.label : undefined,
        }));
      }
      const doc = el.ownerDocument;
      // A button that pops up a listbox (Headless UI's Listbox) is read like a combobox.
      const role = el.getAttribute('role') === 'listbox' ? 'listbox'
        : (el.getAttribute('role') === 'combobox' || el.getAttribute('aria-haspopup') === 'listbox' ||
          (isTag(el, 'input') && el.getAttribute('list'))) ? 'combobox' : '';
      const lists = [];
      if (role === 'listbox') lists.push(el);
      else if (role === 'combobox') {
        for (const attr of ['aria-controls', 'aria-owns']) {
          for (const id of (el.getAttribute(attr) || '').split(/\s+/).filter(Boolean)) {
            const t = doc.getElementById(id);
            if (t) lists.push(t);
          }
        }
        const inner = el.querySelector('[role=listbox]');
        if (inner) lists.push(inner);
        const dl = isTag(el, 'input') && el.list;
        if (dl) {
          const all = Array.from(dl.options);
          return answer('listbox', false, all, (o) => ({ value: o.value, label: optionLabel(o) || o.value, selected: false, disabled: o.disabled }));
        }
      } else {
        return fail('not_applicable', 'has no options: it is not a <select>, a listbox, or a combobox that owns or controls one', { element: describe(el) });
      }
      const seen = new Set(), all = [];
      for (const l of lists) for (const o of l.querySelectorAll('[role=option]')) if (!seen.has(o)) { seen.add(o); all.push(o); }
      const list = lists[0];
      const multiple = !!list && list.getAttribute('aria-multiselectable') === 'true';
      const closed = role === 'combobox' && el.getAttribute('aria-expanded') !== 'true';
      const note = all.length === 0 && closed
        ? 'the combobox is closed and its options are not in the page: open it (click it, or type in it), then read them'
        : null;
      return answer('listbox', multiple, all, (o) => {
        const g = o.parentElement && o.parentElement.closest('[role=group]');
        const label = optionLabel(o);
        const group = g && list && list.contains(g)
          ? (g.getAttribute('aria-label') || text(doc.getElementById(g.getAttribute('aria-labelledby') || '')) || undefined)
          : undefined;
        return {
          // Not its id: libraries generate those (`:r2:-option-0`), and `select` takes the label.
          value: o.getAttribute('data-value') || o.getAttribute('value') || label,
          label,
          selected: o.getAttribute('aria-selected') === 'true' || o.getAttribute('aria-checked') === 'true',
          disabled: o.getAttribute('aria-disabled') === 'true',
          group,
        };
      }, note);
    }
    case 'fileInput': {
      // The file input an element stands for: itself; a label's control; else the one file
      // input inside it; else the one file input of its nearest ancestor that has any (up to
      // 3 levels). Several candidates at the first level that has any is ambiguous.
      const isFile = (n) => n && n.nodeType === 1 && n.localName === 'input' && n.type === 'file';
      if (isFile(el)) return el;
      const label = el.localName === 'label' ? el : el.closest('label');
      if (label && isFile(label.control)) return label.control;
      const inside = (root) => {
        const found = Array.from(root.querySelectorAll('input[type=file]'));
        const sr = shadowOf(root);
        if (sr) found.push(...sr.querySelectorAll('input[type=file]'));
        return found;
      };
      let scope = el;
      for (let level = 0; scope && scope.nodeType === 1 && level <= 3; level++) {
        const found = inside(scope);
        if (found.length === 1) return found[0];
        if (found.length > 1) {
          return fail('ambiguous_file_input', 'several file inputs', { candidates: found.slice(0, 5).map(describe) });
        }
        scope = scope.parentElement;
      }
      return fail('no_file_input', 'no file input');
    }
    case 'fileState': return { multiple: !!el.multiple, disabled: !!el.disabled, accept: el.accept || '' };
    case 'files': return Array.from(el.files || []).map((f) => ({ name: f.name, size: f.size, type: f.type || '' }));
    case 'expanded': return el.getAttribute('aria-expanded') === 'true';
    case 'checked': {
      const state = checkedState(el);
      return state === null ? fail('not_checkable', 'it is not a checkbox, radio, switch or toggle') : state;
    }
    case 'text': return el.textContent;
    case 'innerText': return el.innerText !== undefined ? el.innerText : el.textContent;
    case 'attr': return el.getAttribute(arg);
    case 'visible': return isVisible(el);
    case 'enabled': return !isDisabled(el);
    case 'box': {
      // Its border box in the top frame this world reaches (CSS pixels; inside a same-origin
      // frame, what shows in that frame's viewport), and that frame's viewport size.
      const r = el.getBoundingClientRect();
      let x = r.x, y = r.y, w = r.width, h = r.height, win = el.ownerDocument.defaultView;
      for (const fe of frameChain(win)) {
        const x0 = Math.max(x, 0), y0 = Math.max(y, 0);
        const x1 = Math.min(x + w, win.innerWidth), y1 = Math.min(y + h, win.innerHeight);
        if (x1 <= x0 || y1 <= y0) return { x: 0, y: 0, width: 0, height: 0, visible: false, vw: 0, vh: 0 };
        const fr = fe.getBoundingClientRect(), st = getComputedStyle(fe);
        x = x0 + fr.left + fe.clientLeft + (parseFloat(st.paddingLeft) || 0);
        y = y0 + fr.top + fe.clientTop + (parseFloat(st.paddingTop) || 0);
        w = x1 - x0;
        h = y1 - y0;
        win = fe.ownerDocument.defaultView;
      }
      return { x, y, width: w, height: h, visible: isVisible(el), vw: win.innerWidth, vh: win.innerHeight };
    }
    case 'geometry': {
      // Unclipped border box in the top frame this world reaches (CSS pixels), its place in its
      // own document, and its client and scroll sizes.
      const r = el.getBoundingClientRect();
      const win = el.ownerDocument.defaultView;
      const off = frameOffset(el);
      return {
        x: r.x + off.x, y: r.y + off.y, width: r.width, height: r.height,
        pageX: r.x + win.scrollX, pageY: r.y + win.scrollY, visible: isVisible(el),
        clientWidth: el.clientWidth, clientHeight: el.clientHeight,
        scrollWidth: el.scrollWidth, scrollHeight: el.scrollHeight,
      };
    }
    case 'styles': {
      // Computed values of the properties asked for; a name the browser does not know fails.
      const cs = getComputedStyle(el);
      const known = (p) => p.startsWith('--') || CSS.supports(p, 'inherit');
      const unknown = arg.props.filter((p) => !known(p));
      if (unknown.length) return fail('unknown_property', 'unknown CSS propert' + (unknown.length === 1 ? 'y ' : 'ies ') + unknown.join(', '), { unknown });
      const styles = {}, truncated = [];
      for (const p of arg.props) {
        let v = cs.getPropertyValue(p).trim();
        if (v.length > arg.max) { v = v.slice(0, arg.max); truncated.push(p); }
        styles[p] = v;
      }
      return { styles, truncated };
    }
    case 'scrollBy': {
      // Scrolls the element itself by (x, y) at once; where it stood before and after.
      if (!el.isConnected) return fail('gone', 'it was removed from the page');
      const before = { x: el.scrollLeft, y: el.scrollTop };
      el.scrollBy({ left: arg.x, top: arg.y, behavior: 'instant' });
      const after = { x: el.scrollLeft, y: el.scrollTop };
      const cs = getComputedStyle(el);
      const scrolls = (o, over) => over && /(auto|scroll|hidden)/.test(o);
      const scrollable = scrolls(cs.overflowX, el.scrollWidth > el.clientWidth) || scrolls(cs.overflowY, el.scrollHeight > el.clientHeight);
      return { before, after, scrollable };
    }
    case 'highlight': {
      // Draws (or restyles) the element's highlight (snapshot/85-highlight.js) and says where it is.
      if (!el.isConnected) return fail('gone', 'it was removed from the page');
      const done = globalThis.__ab.highlight(el, arg && arg.style);
      if (done.error) return fail(done.error, 'the browser does not take ' + done.refused.map((d) => JSON.stringify(d)).join(', '), { refused: done.refused });
      const r = el.getBoundingClientRect();
      const off = frameOffset(el);
      return { x: r.x + off.x, y: r.y + off.y, width: r.width, height: r.height, visible: isVisible(el), replaced: done.replaced, highlights: done.highlights };
    }
    case 'unhighlight':
      return { removed: globalThis.__ab.unhighlight(el) };
    case 'html': {
      const h = arg && arg.outer ? el.outerHTML : el.innerHTML;
      const max = arg && arg.max > 0 ? arg.max : Infinity;
      return h.length > max ? { html: h.slice(0, max), truncated: true, length: h.length } : { html: h, truncated: false, length: h.length };
    }
    default: return fail('internal', 'unknown op ' + op);
  }
  }

  let v;
  try {
    v = run();
  } catch (e) {
    v = fail('internal', String((e && e.message) || e));
  }
  const byRef = op === 'findOption' || op === 'fileInput';
  const wrap = (v) => {
    if (v instanceof Failure) {
      const f = { ok: false, code: v.code, message: v.message, detail: v.detail };
      return byRef ? JSON.stringify(f) : f;
    }
    return byRef ? v : { ok: true, value: v === undefined ? null : v };
  };
  // An operation that waits for the page (fillPrepare on an editor) answers a promise.
  return v instanceof Promise ? v.then(wrap) : wrap(v);
}
