  // ---------------------------------------------------------------- per-snapshot caches

  let styles = new Map(); // Element -> CSSStyleDeclaration
  let roles = new Map(); // Element -> role string
  let names = new Map(); // Element -> name
  let dataTables = new Map(); // HTMLTableElement -> bool
  let pseudoCheck = false; // stylesheets use ::before/::after
  let activeEl = null;

  function resetCaches() {
    styles = new Map();
    roles = new Map();
    names = new Map();
    dataTables = new Map();
  }

  function cs(el) {
    let s = styles.get(el);
    if (s === undefined) {
      s = el.ownerDocument.defaultView.getComputedStyle(el);
      styles.set(el, s);
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
  let cvCheck = true; // content-visibility may hide something
  function scanShadowStyles(sr) {
    if (pseudoCheck && cvCheck) return;
    const f = styleFlags(sr);
    if (f & 1) pseudoCheck = true;
    if (f & 2) cvCheck = true;
  }

