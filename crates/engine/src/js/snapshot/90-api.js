  // ---------------------------------------------------------------- API

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
      baseDepth: opts.baseDepth | 0,
      maxBytes: typeof opts.maxBytes === 'number' && opts.maxBytes > 0 ? opts.maxBytes : 0,
    };
    if (typeof opts.nextRef === 'number' && opts.nextRef > counter) counter = Math.floor(opts.nextRef);
    const doc = document;
    let root;
    if (o.selector !== null) {
      try { root = resolveRoot(doc, o.selector); } catch (e) {
        return { ok: false, code: 'invalid_selector', message: 'invalid selector ' + JSON.stringify(o.selector) + ': ' + e.message, detail: null };
      }
      if (!root) return { ok: false, code: 'not_found', message: 'no element matches selector ' + JSON.stringify(o.selector), detail: null };
    } else {
      root = doc.documentElement;
    }
    const w = newWalk(doc, o);
    frameOwners = w.frameOwners; // frameOwner(k) answers from the latest run's markers
    const items = [];
    if (root) {
      const modal = findModal(root.ownerDocument);
      const ctx = { cursor: 'auto', inInteractive: false, inCombo: false, inLabel: false, editable: false, quiet: false, modal,
        inModal: modal ? root === modal || modal.contains(root) : false, text: !o.interactive, parent: root, tt: undefined, row: null };
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
          ctx.cursor = cs(w, p).cursor;
          ctx.editable = p.isContentEditable;
          ctx.inInteractive = !!p.closest('a[href],button,[role=button],[role=link]');
        }
      }
      if (!hiddenRoot) visit(w, root, ctx, items);
    }
    emit(w, items, 0);
    let text = w.lines.join('\n');
    if (!text) text = o.interactive ? '(no interactive elements)' : '(empty)';
    pruneDead();
    return { ok: true, value: { text, refs: w.refs, nextRef: counter, docToken, frames: w.frames, url: location.href, omitted: w.omitted } };
  }

  // [role, name] of an element now, as a snapshot line would show them.
  function identity(el) {
    if (!el || el.nodeType !== 1) return ['', ''];
    // its own context: fresh caches, every style sheet feature assumed in use, no options
    const w = walkContext(null, true, true, owners(el.ownerDocument), null);
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

  // Boxes of refs for an annotated screenshot: [x, y, width, height] in this frame's viewport
  // (CSS pixels; see topBox) per id, null for a ref whose element is gone, hidden, zero-sized or
  // scrolled out of its frame; `stale` when this document is not the one `token` names.
  function boxes(ids, token) {
    if (token !== docToken) return { ok: true, value: { stale: true, boxes: [], viewport: [innerWidth, innerHeight] } };
    const out = [];
    for (const id of ids) {
      const el = element(id);
      let b = null;
      if (el && el.checkVisibility({ visibilityProperty: true })) {
        const r = el.getBoundingClientRect();
        if (r.width > 0 && r.height > 0) b = topBox(el);
      }
      out.push(b);
    }
    return { ok: true, value: { stale: false, boxes: out, viewport: [innerWidth, innerHeight] } };
  }

  return { snapshot, element, frameOwner, identity, differs, select, boxes, docToken };
})()
