  // ---------------------------------------------------------------- highlights
  //
  // `highlight`: an overlay around an element, in the element's own document (a same-origin frame
  // this world walks in place included), until `hide_highlight` or until the element or its
  // document goes away. The overlay is one host element appended to <html>
  // (<agentbrowser-highlight aria-hidden=true>), isolated from page CSS by inline !important
  // declarations (`all: initial` first) and shown in the top layer (a manual popover: above the
  // page's modal dialogs opened before it), with the visible box inside a closed shadow root (the
  // default look, then the caller's `style`). pointer-events: none on both: hit tests and real
  // input go through to the page. Its place follows the element: read on every animation frame
  // while a highlight exists, and at once on scroll (capture: any container) and resize.
  // The walk skips the hosts (they are aria-hidden too), targets leave them out, and their closed
  // roots are never handed over as reach.

  const HL_TAG = 'agentbrowser-highlight';
  const HL_HOST = 'all: initial !important; display: block !important; position: fixed !important; ' +
    'z-index: 2147483647 !important; pointer-events: none !important; margin: 0 !important; ' +
    'padding: 0 !important; border: 0 !important; inset: auto !important; overflow: visible !important; ' +
    'box-sizing: border-box !important; background: transparent !important; visibility: visible !important;';
  const HL_LOOK = 'position: absolute; inset: 0; box-sizing: border-box; pointer-events: none; ' +
    'background: rgb(230 0 115 / 18%); outline: 2px solid #E60073; outline-offset: 0;';
  const highlights = new Map(); // Element -> {host, box, style, rect}
  const hlHosts = new Set();
  let hlTicking = false;

  // Whether a node is a highlight's host, or inside one's shadow root.
  function isOverlay(n) {
    if (hlHosts.size === 0 || !n) return false;
    for (let m = n; m; m = m.parentNode || m.host || null) if (hlHosts.has(m)) return true;
    return false;
  }

  // The declarations of a style attribute's text, split at `;` outside parentheses and quotes.
  function declarations(css) {
    const out = [];
    let depth = 0, quote = '', start = 0;
    for (let i = 0; i < css.length; i++) {
      const c = css[i];
      if (quote) { if (c === '\\') i++; else if (c === quote) quote = ''; continue; }
      if (c === '"' || c === "'") quote = c;
      else if (c === '(') depth++;
      else if (c === ')') depth = Math.max(0, depth - 1);
      else if (c === ';' && depth === 0) { out.push(css.slice(start, i)); start = i + 1; }
    }
    out.push(css.slice(start));
    return out.map((d) => d.trim()).filter((d) => d !== '');
  }

  // The declarations of `css` the browser does not take (an unknown property, a bad value).
  function refusedDeclarations(doc, css) {
    const bad = [];
    for (const d of declarations(css)) {
      const probe = doc.createElement('div');
      probe.style.cssText = d;
      if (probe.style.length === 0) bad.push(d);
    }
    return bad;
  }

  function placeHighlight(el, h) {
    const r = el.getBoundingClientRect();
    const shown = r.width > 0 || r.height > 0;
    const key = shown ? r.x + ',' + r.y + ',' + r.width + ',' + r.height : '';
    if (key === h.rect) return;
    h.rect = key;
    const s = h.host.style;
    if (!shown) { s.setProperty('display', 'none', 'important'); return; }
    s.setProperty('display', 'block', 'important');
    s.setProperty('left', r.x + 'px', 'important');
    s.setProperty('top', r.y + 'px', 'important');
    s.setProperty('width', r.width + 'px', 'important');
    s.setProperty('height', r.height + 'px', 'important');
  }

  function raise(host) {
    if (typeof host.showPopover !== 'function') return;
    try {
      if (host.matches(':popover-open')) host.hidePopover();
      host.showPopover();
    } catch (e) { /* not in the top layer: the z-index still holds outside modal dialogs */ }
  }

  // Keeps every overlay on its element: a host the page removed is put back; the highlight of
  // an element that left its document (or whose document went away) is dropped.
  function tickHighlights() {
    for (const [el, h] of highlights) {
      const doc = el.ownerDocument;
      if (!el.isConnected || !doc.defaultView || !doc.documentElement) { dropHighlight(el, h); continue; }
      if (h.host.parentNode !== doc.documentElement) {
        doc.documentElement.appendChild(h.host);
        h.rect = null;
        raise(h.host);
      }
      placeHighlight(el, h);
    }
  }

  function onFrame() {
    if (highlights.size === 0) { hlTicking = false; return; }
    try { tickHighlights(); } catch (e) { /* the next frame tries again */ }
    requestAnimationFrame(onFrame);
  }

  function onMove() {
    if (highlights.size) try { tickHighlights(); } catch (e) { /* the next frame tries again */ }
  }

  function startTicking() {
    if (hlTicking) return;
    hlTicking = true;
    requestAnimationFrame(onFrame);
  }

  const hookedWindows = new WeakSet();
  function hook(win) {
    if (hookedWindows.has(win)) return;
    hookedWindows.add(win);
    win.addEventListener('scroll', onMove, { capture: true, passive: true });
    win.addEventListener('resize', onMove, { passive: true });
  }

  function dropHighlight(el, h) {
    highlights.delete(el);
    hlHosts.delete(h.host);
    h.host.remove();
  }

  // Highlights `el` (its style replaced when it has one already): {replaced, highlights} (the
  // highlights of its document now), or {error: 'invalid_style', refused} with nothing drawn.
  function highlight(el, style) {
    const doc = el.ownerDocument;
    const css = style == null ? '' : String(style);
    if (css) {
      const refused = refusedDeclarations(doc, css);
      if (refused.length) return { error: 'invalid_style', refused };
    }
    let h = highlights.get(el);
    const replaced = !!h;
    if (!h) {
      const host = doc.createElement(HL_TAG);
      host.setAttribute('aria-hidden', 'true');
      host.style.cssText = HL_HOST;
      if (typeof host.showPopover === 'function') host.popover = 'manual';
      const root = host.attachShadow({ mode: 'closed' });
      const box = doc.createElement('div');
      root.appendChild(box);
      h = { host, box, style: null, rect: null };
      highlights.set(el, h);
      hlHosts.add(host);
      doc.documentElement.appendChild(host);
      raise(host);
    }
    h.style = css || null;
    h.box.style.cssText = HL_LOOK + (css ? ' ' + css : '');
    h.rect = null;
    placeHighlight(el, h);
    hook(window);
    if (doc.defaultView && doc.defaultView !== window) hook(doc.defaultView);
    startTicking();
    let n = 0;
    for (const k of highlights.keys()) if (k.ownerDocument === doc) n++;
    return { replaced, highlights: n };
  }

  // Removes the highlight of `el` (null: every highlight this world drew); how many.
  function unhighlight(el) {
    if (el) {
      const h = highlights.get(el);
      if (!h) return 0;
      dropHighlight(el, h);
      return 1;
    }
    let n = 0;
    for (const [k, h] of [...highlights]) {
      // One whose element already left its document is no longer shown: not counted.
      if (k.isConnected) n++;
      dropHighlight(k, h);
    }
    return n;
  }

