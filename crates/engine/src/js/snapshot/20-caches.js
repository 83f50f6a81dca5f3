  // ---------------------------------------------------------------- the walk context

  // What one snapshot() run (or one identity() probe) knows and builds. A new one is made per
  // run and passed as `w` (the first argument) to every function that needs it; nothing of a run
  // lives in module-level variables, so nothing has to be reset when a run ends or throws.
  //   opt           the run's options (see snapshot(); null for identity())
  //   roles, names  Element -> role, Element -> name
  //   tts           Element -> text-transform, as the walk took it from the parent or read it
  //   tableRoles    HTMLTableElement -> the role it gives its rows and cells (see tableRoleOf)
  //   pseudoCheck   the style sheets of the document being walked set ::before/::after content
  //   cvCheck       they use content-visibility (something may be hidden by it)
  //   declared      per INHERITED property, the elements of the document being walked that may set
  //                 it themselves (a Set; null: unknown, every element's value is read); see declaredIn
  //   ownerOf       aria-owns: owned element -> its owner in the top document (null when none)
  //   activeEl      the focused element, through open shadow roots (null for identity())
  //   interactiveCount  interactive refs seen so far by the walk (post-children decisions)
  //   mayHostClosed the walk met the signal of a closed shadow root not handed over (see BOX_HOSTS)
  //   used, omitted the size budget: bytes of text so far; role -> lines left out past it
  //                 (null while nothing was cut)
  //   lines, refs, frames  the outputs: text lines, [id, role, name], {marker, index, depth}
  //   frameOwners   WeakRef<iframe> per cross-origin frame marker (published as the module's
  //                 frameOwners when the run starts, for frameOwner(k) after it)
  //   winOrigins    frame window walked in place -> its origin in this world's window (boxes)
  //   peek, next    a peek run (opt.peek): element -> the ref it numbered (a Map, else null), and
  //                 the next number it gives (its own counter; the module's stays)
  function walkContext(opt, pseudoCheck, cvCheck, ownerOf, activeEl, declared) {
    return {
      opt,
      roles: new Map(),
      names: new Map(),
      tts: new Map(),
      tableRoles: new Map(),
      pseudoCheck,
      cvCheck,
      declared,
      ownerOf,
      activeEl,
      interactiveCount: 0,
      mayHostClosed: false,
      used: 0,
      omitted: null,
      lines: [],
      refs: [],
      frames: [],
      frameOwners: [],
      winOrigins: new Map(),
      peek: null,
      next: 0,
    };
  }

  // The context of a snapshot run over document `doc` with options `opt`.
  function newWalk(doc, opt) {
    const si = styleInfo(doc);
    let activeEl = doc.activeElement;
    const ownerOf = owners(doc);
    while (activeEl && shadowOf(activeEl) && shadowOf(activeEl).activeElement) activeEl = shadowOf(activeEl).activeElement;
    return walkContext(opt, (si.f & 1) !== 0, (si.f & 2) !== 0, ownerOf, activeEl, declaredIn(doc, si));
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

  // Computed styles, kept per element across runs: a computed style object is live (it always
  // answers the element's current style), so keeping it only saves making it again.
  const styleOf = new WeakMap(); // Element -> CSSStyleDeclaration
  function cs(w, el) {
    let s = styleOf.get(el);
    if (s === undefined) {
      s = el.ownerDocument.defaultView.getComputedStyle(el);
      styleOf.set(el, s);
    }
    return s;
  }

  // Inherited properties the walk takes from the parent instead of reading them, unless the
  // element may set them itself (see declaredIn): reading a computed property is most of a
  // walk's cost. INHERITED_UA: the elements Chromium's user-agent style sheet gives a value of
  // their own (measured with a parent of another value), always read.
  const INHERITED = ['cursor', 'visibility', 'text-transform'];
  const INHERITED_UA = [
    new Set(['a', 'area', 'button', 'input', 'label', 'select', 'textarea', 'option', 'optgroup', 'datalist']),
    new Set(),
    new Set(['button', 'input', 'select', 'textarea', 'option', 'optgroup', 'datalist']),
  ];
  // Past this many rule selectors for one property the walk reads that property everywhere.
  const MAX_DECLARED_SELECTORS = 200;
  // Grouping rules whose style rules' selectors mean what they say (unlike nested or @scope rules).
  const PLAIN_GROUPS = new Set(['CSSMediaRule', 'CSSSupportsRule', 'CSSLayerBlockRule', 'CSSContainerRule',
    'CSSStartingStyleRule']);

  // What the style sheets of a document or shadow root use, cached per sheet object:
  //   f  bit 1: ::before/::after rules that set content, bit 2: content-visibility,
  //      bits 4, 8, 16: INHERITED[0..2] set where no selector tells which elements (nested or
  //      scoped rules, keyframes, other at-rules, too many selectors): read everywhere
  //   sel  per INHERITED property, the selectors of the style rules that set it (or `all`)
  // Unreadable (cross-origin) sheets count as using everything.
  const sheetInfoCache = new WeakMap(); // CSSStyleSheet -> {n: rule count, f, sel}
  const ALL_FLAGS = 31;
  const READ_ALL = [null, null, null]; // declared when nothing is known: every value is read
  function styleInfo(root) {
    const info = { f: 0, sel: [[], [], []] };
    const scan = (sheet) => {
      let rules;
      try { rules = sheet.cssRules; } catch (e) { info.f |= ALL_FLAGS; return; }
      let c = sheetInfoCache.get(sheet);
      if (c === undefined || c.n !== rules.length) {
        c = { n: rules.length, f: 0, sel: [[], [], []] };
        scanRules(rules, c, true);
        sheetInfoCache.set(sheet, c);
      }
      info.f |= c.f;
      for (let k = 0; k < 3; k++) for (const x of c.sel[k]) info.sel[k].push(x);
    };
    try {
      for (const sh of root.styleSheets) scan(sh);
      if (root.adoptedStyleSheets) for (const sh of root.adoptedStyleSheets) scan(sh);
      if (root.querySelector('[hidden="until-found" i]')) info.f |= 2; // (inline content-visibility styles are not looked for)
    } catch (e) { info.f |= ALL_FLAGS; }
    return info;
  }
  function styleFlags(root) { return styleInfo(root).f; }
  // Adds what `rules` use to `c` ({f, sel}); `plain`: their style rules' selectors can be matched
  // as written (not nested in a style rule or an @scope).
  function scanRules(rules, c, plain) {
    for (let i = 0; i < rules.length; i++) {
      const r = rules[i];
      const kind = r.constructor ? r.constructor.name : '';
      if (kind === 'CSSImportRule') {
        try { if (r.styleSheet) scanRules(r.styleSheet.cssRules, c, plain); } catch (e) { c.f |= ALL_FLAGS; }
        continue;
      }
      const st = r.style;
      const styleRule = kind === 'CSSStyleRule';
      if (st) {
        if ((c.f & 1) === 0 && styleRule && /:(before|after)\b/i.test(r.selectorText) && st.getPropertyValue('content')) c.f |= 1;
        if ((c.f & 2) === 0 && st.getPropertyValue('content-visibility')) c.f |= 2;
        const all = st.getPropertyValue('all') !== '';
        for (let k = 0; k < 3; k++) {
          if ((c.f & (4 << k)) !== 0 || !(all || st.getPropertyValue(INHERITED[k]))) continue;
          if (plain && styleRule && c.sel[k].length < MAX_DECLARED_SELECTORS) c.sel[k].push(r.selectorText);
          else c.f |= 4 << k;
        }
      }
      if (r.cssRules && r.cssRules.length) scanRules(r.cssRules, c, plain && PLAIN_GROUPS.has(kind));
    }
  }

  // Per INHERITED property, the elements of `doc` that a style rule may give a value of their
  // own (a Set), or null when that cannot be known: the walk then reads every element's value.
  // (Elements with a style attribute, shadow hosts and everything inside shadow trees are always
  // read; see visit.)
  function declaredIn(doc, info) {
    const out = [null, null, null];
    for (let k = 0; k < 3; k++) {
      if ((info.f & (4 << k)) !== 0) continue;
      const sel = [...new Set(info.sel[k])];
      if (sel.length > MAX_DECLARED_SELECTORS) continue;
      const set = new Set();
      if (sel.length) {
        try { for (const e of doc.querySelectorAll(sel.join(','))) set.add(e); } catch (e) { continue; }
      }
      out[k] = set;
    }
    return out;
  }
  // A shadow root's own sheets can add to what the walked document's sheets use.
  function scanShadowStyles(w, sr) {
    if (w.pseudoCheck && w.cvCheck) return;
    const f = styleFlags(sr);
    if (f & 1) w.pseudoCheck = true;
    if (f & 2) w.cvCheck = true;
  }

