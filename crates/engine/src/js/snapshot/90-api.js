  // ---------------------------------------------------------------- API

  // The document a snapshot or a target resolution walks: this world's, or, with `frameOwner`
  // (an <iframe> of a same-origin frame this document walks in place), that frame's, so that
  // its elements get the refs this world gives them in a snapshot of the page.
  function rootDocument(opts) {
    if (!opts.frameOwner) return document;
    try { return opts.frameOwner.contentDocument || null; } catch (e) { return null; }
  }
  const FRAME_GONE = { ok: false, code: 'not_found', message: 'the frame has no document (it was detached or navigated away)', detail: null };

  // Whether element `el` is in document `doc` or in a frame inside it.
  function within(el, doc) {
    let d = el.ownerDocument;
    while (d && d !== doc) {
      let fe = null;
      try { fe = d.defaultView && d.defaultView.frameElement; } catch (e) { fe = null; }
      d = fe ? fe.ownerDocument : null;
    }
    return d === doc;
  }

  function resolveRoot(doc, selector) {
    const m = /^(?:@|ref=)?(e\d+)$/.exec(selector.trim());
    if (m) return element(m[1]);
    return doc.querySelector(selector);
  }

  function snapshot(opts) {
    opts = opts || {};
    const o = {
      selector: opts.selector == null || opts.selector === '' ? null : String(opts.selector),
      interactive: opts.interactive === undefined ? true : !!opts.interactive,
      compact: !!opts.compact,
      maxDepth: opts.maxDepth == null ? null : Math.max(0, opts.maxDepth | 0),
      urls: !!opts.urls,
      boxOrigin: Array.isArray(opts.boxOrigin) ? [+opts.boxOrigin[0] || 0, +opts.boxOrigin[1] || 0] : null,
      baseDepth: opts.baseDepth | 0,
      maxBytes: typeof opts.maxBytes === 'number' && opts.maxBytes > 0 ? opts.maxBytes : 0,
      pierced: !!opts.pierced,
      peek: !!opts.peek,
    };
    const asked = typeof opts.nextRef === 'number' ? Math.floor(opts.nextRef) : 0;
    if (!o.peek && asked > counter) counter = asked;
    const doc = rootDocument(opts);
    if (!doc) return FRAME_GONE;
    const listened = takeReach();
    let root;
    if (o.selector !== null) {
      try { root = resolveRoot(doc, o.selector); } catch (e) {
        return { ok: false, code: 'invalid_selector', message: 'invalid selector ' + JSON.stringify(o.selector) + ': ' + e.message, detail: null };
      }
      // A ref of this world names an element anywhere in its document; a frame's snapshot takes
      // one of that frame (or of a frame inside it).
      if (root && opts.frameOwner && !within(root, doc)) root = null;
      if (!root) return { ok: false, code: 'not_found', message: 'no element matches selector ' + JSON.stringify(o.selector), detail: null };
    } else {
      root = doc.documentElement;
    }
    const w = newWalk(doc, o);
    w.listened = listened;
    // A peek run numbers the refs it would issue from its own counter and keeps none of them.
    if (o.peek) w.peek = new Map();
    w.next = Math.max(counter, asked);
    frameOwners = w.frameOwners; // frameOwner(k) answers from the latest run's markers
    const items = [];
    if (root) {
      const modal = findModal(root.ownerDocument);
      const ctx = { cursor: 'auto', inInteractive: false, inCombo: false, inLabel: false, editable: false, quiet: false, modal,
        inModal: modal ? root === modal || modal.contains(root) : false, text: !o.interactive, parent: root, tt: 'none', row: null,
        visible: true, inShadow: false };
      let hiddenRoot = false;
      if (root !== root.ownerDocument.documentElement) {
        // a root inside hidden content shows nothing
        for (let p = parentEl(w, root); p && !hiddenRoot; p = parentEl(w, p)) {
          hiddenRoot = p.getAttribute('aria-hidden') === 'true' || p.hasAttribute('inert');
        }
        if (!hiddenRoot && !root.checkVisibility() && cs(w, root).display !== 'contents') hiddenRoot = true;
        // inherit context from ancestors
        const p = parentEl(w, root);
        if (p) {
          const ps = cs(w, p);
          ctx.cursor = ps.cursor;
          ctx.visible = ps.visibility === 'visible';
          ctx.tt = ps.textTransform;
          ctx.inShadow = root.getRootNode() !== root.ownerDocument;
          ctx.editable = p.isContentEditable;
          ctx.inInteractive = !!p.closest('a[href],button,[role=button],[role=link]');
        }
      }
      if (!hiddenRoot) visit(w, root, ctx, items);
    }
    // The engine looks for closed shadow roots (a pierce walk of the DOM) only when asked: nothing
    // is emitted (no ref issued) before it did.
    if (w.mayHostClosed && !o.pierced) return { ok: true, value: 'pierce' };
    emit(w, items, 0);
    let text = w.lines.join('\n');
    if (!text) text = o.interactive ? '(no interactive elements)' : '(empty)';
    pruneDead();
    // One string (see the head comment): the engine reads it without a structure to convert.
    const head = JSON.stringify({ refs: w.refs.length, nextRef: o.peek ? w.next : counter, docToken, frames: w.frames, url: doc.URL, omitted: w.omitted });
    return { ok: true, value: head + '\n' + (w.refs.length ? w.refs.join('\n') + '\n' : '') + text };
  }

  // Takes what the engine found through CDP: the closed shadow roots handed over for this run
  // (globalThis.__abReach, then deleted) are recorded; the elements with click-like listeners of
  // their own are the values of globalThis.__abListeners (backend node id -> element, kept up to
  // date by the engine across runs). Answers the Set of those elements (null when none).
  function takeReach() {
    const r = globalThis.__abReach;
    delete globalThis.__abReach;
    try {
      if (r !== undefined) {
        for (const sr of r.roots) if (sr && sr.host && sr.host.nodeType === 1 && !hlHosts.has(sr.host)) closedRoots.set(sr.host, sr);
      }
      const listeners = globalThis.__abListeners;
      if (!(listeners instanceof Map)) return null;
      // Only elements count (not the document), and not html or body (delegated listeners).
      const own = [...listeners.values()].filter((el) => el && el.nodeType === 1
        && el !== el.ownerDocument.documentElement && el !== el.ownerDocument.body);
      return own.length ? new Set(own) : null;
    } catch (e) {
      return null;
    }
  }

  // [role, name] of an element now, as a snapshot line would show them.
  function identity(el) {
    if (!el || el.nodeType !== 1) return ['', ''];
    // its own context: fresh caches, every style sheet feature assumed in use, no options
    const w = walkContext(null, true, true, owners(el.ownerDocument), null, READ_ALL);
    try {
      const tag = el.localName;
      if (tag === 'iframe' || tag === 'frame') {
        return ['Iframe', cap(collapse(el.getAttribute('title') || el.getAttribute('name') || ''), 100)];
      }
      return [roleOf(w, el), cap(nameOf(w, el), 100)];
    } catch (e) {
      return ['', ''];
    }
  }

  // null when the element still has this role and name (ignoring the generic/none distinction a
  // clickable gets), else its [role, name] now.
  function differs(el, role, name) {
    const now = identity(el);
    const plain = (r) => (r === 'none' || r === 'LineBreak' || r === 'generic') ? 'generic' : r;
    return plain(now[0]) === plain(role) && now[1] === name ? null : now;
  }

  // Elements by CSS selector in this document: `count` of the matches, or an actions.js op on
  // the first one. {error: 'invalid_selector' | 'not_found', message} when it cannot.
  function select(selector, op, arg) {
    let list;
    try { list = document.querySelectorAll(selector); } catch (e) {
      return { ok: false, code: 'invalid_selector', message: 'invalid selector ' + JSON.stringify(selector) + ': ' + e.message, detail: null };
    }
    if (hlHosts.size) list = Array.from(list).filter((el) => !isOverlay(el));
    if (op === 'count') return { ok: true, value: { count: list.length } };
    if (!list.length) return { ok: false, code: 'not_found', message: 'no element matches selector ' + JSON.stringify(selector), detail: null };
    return globalThis.__abx.call(list[0], op, arg);
  }

  function element(id) {
    if (typeof id !== 'string') return null;
    const m = /^(?:@|ref=)?(e\d+)$/.exec(id.trim());
    if (!m) return null;
    const w = byId.get(m[1]);
    const el = w && w.deref();
    return el && el.isConnected ? el : null;
  }

  function frameOwner(k) {
    const w = frameOwners[k];
    const el = w && w.deref();
    return el && el.isConnected ? el : null;
  }

  // An element's border box in this world's top frame (CSS pixels): inside a same-origin frame,
  // the part that shows in that frame's viewport, placed by its <iframe>'s content box; null
  // when nothing of it shows there.
  function topBox(el) {
    const r = el.getBoundingClientRect();
    let x = r.x, y = r.y, w = r.width, h = r.height, win = el.ownerDocument.defaultView;
    while (win && win !== window) {
      let fe = null;
      try { fe = win.frameElement; } catch (e) { fe = null; }
      if (!fe) return null;
      const x0 = Math.max(x, 0), y0 = Math.max(y, 0);
      const x1 = Math.min(x + w, win.innerWidth), y1 = Math.min(y + h, win.innerHeight);
      if (x1 <= x0 || y1 <= y0) return null;
      const fr = fe.getBoundingClientRect(), st = getComputedStyle(fe);
      x = x0 + fr.left + fe.clientLeft + (parseFloat(st.paddingLeft) || 0);
      y = y0 + fr.top + fe.clientTop + (parseFloat(st.paddingTop) || 0);
      w = x1 - x0;
      h = y1 - y0;
      win = fe.ownerDocument.defaultView;
    }
    return [x, y, w, h];
  }

  // Boxes of refs for an annotated screenshot, in this world's top frame (CSS pixels; see
  // topBox): per id null for a ref whose element is gone, hidden, zero-sized or scrolled out of
  // its frame, else {box: [x, y, width, height], covered}. `covered` is null when a click can
  // reach the element (see coveredBy), else what is on top of it: {ref, what}. `texts`: the line
  // boxes of the text of the refs that are not covered (each text node once, at most
  // MAX_TEXT_BOXES), which labels must not hide; `stale` when this document is not the one
  // `token` names.
  function boxes(ids, token) {
    const viewport = [innerWidth, innerHeight];
    if (token !== docToken) return { ok: true, value: { stale: true, boxes: [], texts: [], viewport } };
    const out = [], texts = [], seen = new Set(), named = new Map();
    for (const id of ids) {
      const el = element(id);
      let b = null;
      if (el && el.checkVisibility({ visibilityProperty: true })) {
        const r = el.getBoundingClientRect();
        const box = r.width > 0 && r.height > 0 ? topBox(el) : null;
        if (box) {
          const covered = coveredBy(el, named);
          b = { box, covered };
          if (!covered) textBoxes(el, seen, texts);
        }
      }
      out.push(b);
    }
    return { ok: true, value: { stale: false, boxes: out, texts, viewport } };
  }

  const MAX_TEXT_BOXES = 4000;

  // The line boxes (topBox coordinates) of the rendered text in `el` (open and closed shadow
  // roots included) not in `seen` yet; a form control's whole box (its text is drawn inside).
  function textBoxes(el, seen, out) {
    if (/^(input|textarea|select)$/.test(el.localName)) {
      const b = topBox(el);
      if (b && out.length < MAX_TEXT_BOXES) out.push(b);
      return;
    }
    const roots = [el];
    while (roots.length && out.length < MAX_TEXT_BOXES) {
      const root = roots.pop();
      const doc = root.ownerDocument || root;
      const walk = doc.createTreeWalker(root, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT);
      for (let n = walk.nextNode(); n && out.length < MAX_TEXT_BOXES; n = walk.nextNode()) {
        if (n.nodeType === 1) {
          const sr = shadowOf(n);
          if (sr) roots.push(sr);
          continue;
        }
        if (seen.has(n) || !n.data.trim()) continue;
        seen.add(n);
        const p = n.parentElement;
        if (!p || NO_TEXT.has(p.localName) || !p.checkVisibility({ visibilityProperty: true })) continue;
        const range = doc.createRange();
        range.selectNodeContents(n);
        for (const r of range.getClientRects()) {
          if (r.width <= 0 || r.height <= 0) continue;
          const b = topBox({ getBoundingClientRect: () => r, ownerDocument: p.ownerDocument });
          if (b && out.length < MAX_TEXT_BOXES) out.push(b);
        }
      }
    }
  }

  // Whether a click on `hit` reaches `el`: it is el or inside it (through shadow roots), an
  // ancestor of it (a point of el's box its own content does not cover, or el takes no pointer
  // events), or a label of it.
  function reaches(hit, el) {
    for (let n = hit; n; n = n.parentNode || n.host) if (n === el) return true;
    for (let n = el; n; n = n.parentNode || n.host) if (n === hit) return true;
    const lab = hit.closest && hit.closest('label');
    return !!lab && lab.control === el;
  }

  // What is on top of `el` (or of a same-origin frame holding it) at (x, y) of its frame, or null.
  function topAt(el, x, y) {
    const hitIn = (e, px, py) => {
      const root = e.getRootNode();
      const h = (root && typeof root.elementFromPoint === 'function' ? root : e.ownerDocument).elementFromPoint(px, py);
      return h && !reaches(h, e) ? { over: h, under: e } : null;
    };
    const first = hitIn(el, x, y);
    if (first) return first;
    let win = el.ownerDocument.defaultView;
    while (win && win !== window) {
      let fe = null;
      try { fe = win.frameElement; } catch (e) { fe = null; }
      if (!fe) return null;
      const fr = fe.getBoundingClientRect(), st = getComputedStyle(fe);
      x += fr.left + fe.clientLeft + (parseFloat(st.paddingLeft) || 0);
      y += fr.top + fe.clientTop + (parseFloat(st.paddingTop) || 0);
      win = fe.ownerDocument.defaultView;
      if (x < 0 || y < 0 || x >= win.innerWidth || y >= win.innerHeight) return null;
      const up = hitIn(fe, x, y);
      if (up) return up;
    }
    return null;
  }

  // Whether a user could click `el` now: null when a click at one of its points (the centre of
  // its part in the viewport, then the centres of that part's quarters) reaches it (see
  // reaches), else what covers it: the nearest element with a ref, going up from what is on top,
  // that does not hold el ({ref, what: its role and name}), or without one the outermost such
  // element ({ref: null, what: tag#id.class}). An element with no part in the viewport (a
  // full-page capture) cannot be hit-tested: null. `named` caches the descriptions.
  function coveredBy(el, named) {
    const win = el.ownerDocument.defaultView, r = el.getBoundingClientRect();
    const x0 = Math.max(r.left, 0), x1 = Math.min(r.right, win.innerWidth);
    const y0 = Math.max(r.top, 0), y1 = Math.min(r.bottom, win.innerHeight);
    if (x1 <= x0 || y1 <= y0) return null;
    const cx = (x0 + x1) / 2, cy = (y0 + y1) / 2, qx = (x1 - x0) / 4, qy = (y1 - y0) / 4;
    let first = null;
    for (const [x, y] of [[cx, cy], [cx - qx, cy - qy], [cx + qx, cy - qy], [cx - qx, cy + qy], [cx + qx, cy + qy]]) {
      const top = topAt(el, x, y);
      if (!top) return null;
      first = first || top;
    }
    const holds = (n) => { for (let m = first.under; m; m = m.parentNode || m.host) if (m === n) return true; return false; };
    let outer = first.over;
    for (let n = first.over; n && n.nodeType === 1 && !holds(n); n = n.parentElement || (n.parentNode && n.parentNode.host) || null) {
      if (named.has(n)) return named.get(n);
      const ref = refFor(n);
      if (ref) {
        const [role, name] = identity(n);
        const d = { ref, what: role + (name ? ' ' + JSON.stringify(name) : '') };
        named.set(n, d);
        return d;
      }
      outer = n;
    }
    const cls = outer.classList && outer.classList.length ? '.' + outer.classList[0] : '';
    return { ref: null, what: outer.localName + (outer.id ? '#' + outer.id : '') + cls };
  }

  // ---------------------------------------------------------------- targets: selectors, XPath, locators
  // (the semantics are documented once, in the protocol's `caps/targets.rs`)

  // Every shadow root in `root`, depth first: open ones, and closed ones the engine handed over
  // for a snapshot (a page script cannot reach those).
  function shadowRoots(root, out) {
    const tw = (root.ownerDocument || root).createTreeWalker(root, NodeFilter.SHOW_ELEMENT);
    for (let n = tw.nextNode(); n; n = tw.nextNode()) {
      const sr = shadowOf(n);
      if (sr) { out.push(sr); shadowRoots(sr, out); }
    }
    return out;
  }

  function queryAll(roots, sel) {
    const out = [];
    for (const r of roots) for (const e of r.querySelectorAll(sel)) out.push(e);
    return out;
  }

  function textIs(have, want, exact) {
    const h = collapse(String(have == null ? '' : have)), x = collapse(String(want));
    return exact ? h === x : h.toLowerCase().includes(x.toLowerCase());
  }

  // Whether `have` holds `want` somewhere: where an exact match may still be found below.
  function textHolds(have, want, exact) {
    if (!exact) return textIs(have, want, false);
    return collapse(String(have == null ? '' : have)).includes(collapse(String(want)));
  }

  function rendered(el) {
    return el.checkVisibility() || getComputedStyle(el).display === 'contents';
  }

  const NO_TEXT = new Set(['script', 'style', 'noscript', 'template', 'head', 'title']);

  // The innermost elements under `el` whose text matches (el itself when no child does). The
  // walk descends through every element that holds the text, so an exact match deep in the page
  // is found though the body's whole text is not equal to it.
  function byText(el, want, exact, out) {
    if (NO_TEXT.has(el.localName) || !textHolds(el.textContent, want, exact)) return false;
    let inner = false;
    for (const c of el.children) if (byText(c, want, exact, out)) inner = true;
    if (inner || !textIs(el.textContent, want, exact)) return inner;
    if (rendered(el)) out.push(el);
    return true;
  }

  function labelsOf(el) {
    const out = [];
    if (el.labels) for (const l of el.labels) out.push(l.textContent);
    const al = el.getAttribute('aria-label');
    if (al) out.push(al);
    const lb = el.getAttribute('aria-labelledby');
    if (lb) {
      const root = el.getRootNode();
      const parts = lb.trim().split(/\s+/).map((id) => {
        const t = root.getElementById ? root.getElementById(id) : null;
        return t ? t.textContent : '';
      });
      out.push(parts.join(' '));
    }
    return out;
  }

  // The elements a target matches under `scope` (document `doc`, or an element of it whose
  // descendants only are searched), in order, highlights' overlays left out; throws a
  // SyntaxError for an invalid CSS or XPath.
  function targetMatches(spec, doc, scope) {
    const list = targetMatchesAll(spec, doc, scope);
    return hlHosts.size === 0 ? list : list.filter((el) => !isOverlay(el));
  }

  // targetMatches, highlights' overlays included.
  function targetMatchesAll(spec, doc, scope) {
    const roots = [scope, ...shadowRoots(scope, [])];
    if (spec.kind === 'css') {
      doc.querySelector(spec.value); // throws on an invalid selector before any work
      return queryAll(roots, spec.value);
    }
    if (spec.kind === 'xpath') {
      const r = doc.evaluate(spec.value, scope, null, XPathResult.ORDERED_NODE_SNAPSHOT_TYPE, null);
      const seen = new Set(), out = [];
      for (let i = 0; i < r.snapshotLength; i++) {
        let n = r.snapshotItem(i);
        if (n && n.nodeType !== 1) n = n.parentElement;
        // Inside an element (the context node: `.` is the element), matches outside it are dropped.
        if (n && scope !== doc && !scope.contains(n)) continue;
        if (n && !seen.has(n)) { seen.add(n); out.push(n); }
      }
      return out;
    }
    const f = spec.find, exact = !!f.exact;
    let list;
    switch (f.by) {
      case 'role': {
        const w = walkContext(null, true, true, owners(doc), null, READ_ALL);
        list = [];
        for (const r of roots) for (const el of r.querySelectorAll(nativeCandidates(f.value))) {
          if (roleOf(w, el) !== f.value) continue;
          if (f.name != null && !textIs(cap(nameOf(w, el), 100), f.name, exact)) continue;
          if (rendered(el)) list.push(el);
        }
        return list;
      }
      case 'text':
        list = [];
        for (const r of roots) {
          const start = r === doc ? (doc.body ? [doc.body] : []) : Array.from(r.children);
          for (const el of start) byText(el, f.value, exact, list);
        }
        return list;
      case 'label':
        list = queryAll(roots, 'input:not([type=hidden]),textarea,select,button,meter,output,progress,[aria-label],[aria-labelledby]')
          .filter((el) => labelsOf(el).some((t) => textIs(t, f.value, exact)));
        break;
      case 'placeholder': case 'alt': case 'title':
        list = queryAll(roots, '[' + f.by + ']').filter((el) => textIs(el.getAttribute(f.by), f.value, exact));
        break;
      case 'testid':
        list = queryAll(roots, '[data-testid]').filter((el) => el.getAttribute('data-testid') === f.value);
        break;
      default:
        throw new Error('unknown locator kind ' + f.by);
    }
    return list.filter(rendered);
  }

  // A short CSS path: up to 4 steps, stopping at an id.
  function cssPath(el) {
    const parts = [];
    for (let e = el; e && e.nodeType === 1 && parts.length < 4; e = e.parentElement) {
      let p = e.localName;
      if (e.id) { parts.unshift(p + '#' + CSS.escape(e.id)); break; }
      const par = e.parentElement;
      if (par) {
        const same = Array.from(par.children).filter((c) => c.localName === e.localName);
        if (same.length > 1) p += ':nth-of-type(' + (same.indexOf(e) + 1) + ')';
      }
      parts.unshift(p);
    }
    return parts.join(' > ');
  }

  function htmlHead(el) {
    const h = el.outerHTML, i = h.indexOf('>');
    return cap(i >= 0 ? h.slice(0, i + 1) : h, 120);
  }

  function described(el, withRef) {
    const [role, name] = identity(el);
    const d = { role, name, path: cssPath(el) };
    if (withRef) d.ref = assignRef(el);
    else d.html = htmlHead(el);
    return d;
  }

  // Whether an element shows: rendered, not `visibility: hidden`, with a non-empty box.
  function shown(el) {
    if (!el.isConnected || !el.checkVisibility({ visibilityProperty: true })) return false;
    for (const r of el.getClientRects()) if (r.width > 0 && r.height > 0) return true;
    return false;
  }

  // Resolves a target to its one element and gives it a ref (`mode: 'one'`), lists its matches
  // with refs (`mode: 'list'`, at most `limit`), or counts them and the visible ones
  // (`mode: 'state'`, for a `selector` wait). spec: {kind: 'css'|'xpath'|'find', value, find,
  // what, nextRef, mode, limit, frameOwner, within, visible} (frameOwner: see rootDocument;
  // within: an element whose descendants only are searched; visible: only shown matches count).
  function resolveTarget(spec) {
    if (typeof spec.nextRef === 'number' && spec.nextRef > counter) counter = Math.floor(spec.nextRef);
    const doc = spec.within ? spec.within.ownerDocument : rootDocument(spec);
    if (!doc) return FRAME_GONE;
    const scope = spec.within || doc;
    let list;
    if (spec.kind === 'find') {
      list = targetMatches(spec, doc, scope);
    } else {
      try { list = targetMatches(spec, doc, scope); } catch (e) {
        return { ok: false, code: 'invalid_selector', message: 'invalid ' + spec.what + ': ' + e.message, detail: null };
      }
    }
    if (spec.visible) list = list.filter(shown);
    const count = list.length;
    const nth = typeof spec.nth === 'number' ? spec.nth : spec.find && typeof spec.find.nth === 'number' ? spec.find.nth : null;
    if (nth !== null) {
      const i = nth < 0 ? count + nth : nth;
      list = i >= 0 && i < count ? [list[i]] : [];
      if (!list.length && spec.mode === 'one') {
        return { ok: false, code: 'not_found', message: spec.what + ' has no match number ' + nth + ': it matches ' + count + ' element' + (count === 1 ? '' : 's'), detail: { count } };
      }
    }
    if (spec.mode === 'count') return { ok: true, value: { count: list.length } };
    if (spec.mode === 'state') {
      let visible = 0;
      for (const el of list) if (shown(el)) visible++;
      return { ok: true, value: { count: list.length, visible } };
    }
    if (spec.mode === 'list') {
      const limit = spec.limit > 0 ? spec.limit : 50;
      return { ok: true, value: { count: list.length, matches: list.slice(0, limit).map((el) => described(el, true)), docToken, nextRef: counter } };
    }
    if (!list.length) return { ok: false, code: 'not_found', message: 'no element matches ' + spec.what, detail: { count: 0 } };
    if (list.length > 1) {
      return { ok: false, code: 'ambiguous_target', message: spec.what + ' matches ' + list.length + ' elements', detail: { count: list.length, candidates: list.slice(0, 5).map((el) => described(el, false)) } };
    }
    const el = list[0];
    const [role, name] = identity(el);
    return { ok: true, value: { ref: assignRef(el), role, name, docToken, nextRef: counter } };
  }

  // The ref a snapshot of this document gave an element (null when none did): a11y's nodes.
  function refFor(el) { return (el && refOf.get(el)) || null; }

  return { snapshot, element, frameOwner, identity, differs, select, boxes, resolveTarget, shadowOf, docToken, refFor, highlight, unhighlight };
})()
