  // ---------------------------------------------------------------- the walk context

  // What one snapshot() run (or one identity() probe) knows and builds. A new one is made per
  // run and passed as `w` (the first argument) to every function that needs it; nothing of a run
  // lives in module-level variables, so nothing has to be reset when a run ends or throws.
  //   opt           the run's options (see snapshot(); null for identity())
  //   styles        Element -> CSSStyleDeclaration
  //   roles, names  Element -> role, Element -> name
  //   dataTables    HTMLTableElement -> bool (a data table, not a layout table)
  //   pseudoCheck   the style sheets of the document being walked set ::before/::after content
  //   cvCheck       they use content-visibility (something may be hidden by it)
  //   ownerOf       aria-owns: owned element -> its owner in the top document (null when none)
  //   activeEl      the focused element, through open shadow roots (null for identity())
  //   interactiveCount  interactive refs seen so far by the walk (post-children decisions)
  //   used, omitted the size budget: bytes of text so far; role -> lines left out past it
  //                 (null while nothing was cut)
  //   lines, refs, frames  the outputs: text lines, [id, role, name], {marker, index, depth}
  //   frameOwners   WeakRef<iframe> per cross-origin frame marker (published as the module's
  //                 frameOwners when the run starts, for frameOwner(k) after it)
  function walkContext(opt, pseudoCheck, cvCheck, ownerOf, activeEl) {
    return {
      opt,
      styles: new Map(),
      roles: new Map(),
      names: new Map(),
      dataTables: new Map(),
      pseudoCheck,
      cvCheck,
      ownerOf,
      activeEl,
      interactiveCount: 0,
      used: 0,
      omitted: null,
      lines: [],
      refs: [],
      frames: [],
      frameOwners: [],
    };
  }

  // The context of a snapshot run over document `doc` with options `opt`.
  function newWalk(doc, opt) {
    const sf = styleFlags(doc);
    let activeEl = doc.activeElement;
    const ownerOf = owners(doc);
    while (activeEl && shadowOf(activeEl) && shadowOf(activeEl).activeElement) activeEl = shadowOf(activeEl).activeElement;
    return walkContext(opt, (sf & 1) !== 0, (sf & 2) !== 0, ownerOf, activeEl);
  }

  // aria-owns: owned element -> its owner, for one document (null when none).
  function owners(doc) {
    let map = null;
    try {
      for (const o of doc.querySelectorAll('[aria-owns]')) {
        for (const id of o.getAttribute('aria-owns').trim().split(/\s+/)) {
          const t = id && doc.getElementById(id);
          if (t && t !== o && !t.contains(o)) (map || (map = new Map())).set(t, o);
        }
      }
    } catch (e) { map = null; }
    return map;
  }

  function cs(w, el) {
    let s = w.styles.get(el);
    if (s === undefined) {
      s = el.ownerDocument.defaultView.getComputedStyle(el);
      w.styles.set(el, s);
    }
    return s;
  }

  // What the style sheets of a document or shadow root use, cached per sheet object:
  // bit 1: ::before/::after rules that set content, bit 2: content-visibility.
  // Unreadable (cross-origin) sheets count as using both.
  const sheetFlagCache = new WeakMap(); // CSSStyleSheet -> {n: rule count, f: flags}
  function styleFlags(root) {
    let f = 0;
    const scan = (sheet) => {
      let rules;
      try { rules = sheet.cssRules; } catch (e) { f |= 3; return; }
      const c = sheetFlagCache.get(sheet);
      if (c !== undefined && c.n === rules.length) { f |= c.f; return; }
      const v = rulesFlags(rules);
      sheetFlagCache.set(sheet, { n: rules.length, f: v });
      f |= v;
    };
    try {
      for (const sh of root.styleSheets) scan(sh);
      if (root.adoptedStyleSheets) for (const sh of root.adoptedStyleSheets) scan(sh);
      if (root.querySelector('[hidden="until-found" i]')) f |= 2; // (inline content-visibility styles are not looked for)
    } catch (e) { f |= 3; }
    return f;
  }
  function rulesFlags(rules) {
    let f = 0;
    for (let i = 0; i < rules.length && f !== 3; i++) {
      const r = rules[i];
      const st = r.style;
      if (st) {
        if ((f & 1) === 0 && r.selectorText !== undefined && /:(before|after)\b/i.test(r.selectorText) && st.getPropertyValue('content')) f |= 1;
        if ((f & 2) === 0 && st.getPropertyValue('content-visibility')) f |= 2;
      }
      if (r.cssRules && r.cssRules.length) f |= rulesFlags(r.cssRules);
    }
    return f;
  }
  // A shadow root's own sheets can add to what the walked document's sheets use.
  function scanShadowStyles(w, sr) {
    if (w.pseudoCheck && w.cvCheck) return;
    const f = styleFlags(sr);
    if (f & 1) w.pseudoCheck = true;
    if (f & 2) w.cvCheck = true;
  }

