// agentbrowser in-page accessibility snapshot (embedded by crates/engine with include_str!).
//
// This file is ONE JavaScript expression. The engine evaluates it once per document in an isolated
// world as `globalThis.__ab ??= (<this file>)` and then calls the API object it evaluates to:
//
//   __ab.snapshot({selector, interactive, compact, maxDepth, urls, nextRef, baseDepth})
//     selector   string|null  CSS selector (or a ref id 'e5' / '@e5' / 'ref=e5') of the subtree root
//     interactive bool (default true)  only lines that carry a ref, each indented under its nearest
//                                      ref'd ancestor; '(no interactive elements)' when there are none
//     compact    bool   full view only: drop unnamed, unref'd wrappers (generic, group, ...)
//     maxDepth   number|null  drop lines whose absolute depth (baseDepth + depth) is > maxDepth
//     urls       bool   links get `url=<absolute href>` in their [...] list
//     nextRef    number the engine's tab-wide counter: new refs are 'e' + nextRef, 'e' + (nextRef+1), ...
//     baseDepth  number indentation (in steps of two spaces) added to every line
//     maxBytes   number size budget of the text (0 = none): past it no line is added (and no ref
//                       issued); `omitted` counts the lines left out by role
//   -> {ok: true, text, refs: [[id, role, name], ...], nextRef, docToken, frames: [{marker, index, depth}],
//       omitted: {role: count} | null}
//   -> {ok: false, error: 'not_found' | 'invalid_selector', message, docToken}
//
//   __ab.element(id)   -> the live Element of a ref ('e5', '@e5', 'ref=e5'), or null when unknown,
//                         garbage collected or no longer connected
//   __ab.frameOwner(k) -> the <iframe> behind frame marker k of the latest snapshot, or null
//   __ab.identity(el)  -> [role, name] of an element now, as a snapshot line shows them (refs are
//                         checked against it before every action)
//   __ab.differs(el, role, name) -> null when the element still shows that role and name, else
//                         its [role, name] now
//   __ab.select(css, op, arg) -> {count} for op 'count', else {value} of actions.js `op` on the
//                         first match, or {error: 'invalid_selector' | 'not_found', message}
//   __ab.docToken      -> random string, fixed for this API instance (one per document)
//
// Text: one node a line, `- role "name" [state, ..., ref=eN]: value` indented two spaces per depth.
// The name is omitted when empty, [...] when there is neither state nor ref, `: value` when there is
// no value. States: level=N, checked=true|false|mixed, expanded=, pressed=, selected, current,
// disabled, required, readonly, invalid, focused, url=. Values: the current value of text fields,
// spin buttons, sliders and date inputs, the selected option of a <select>, '••••' for a filled
// password field; in the interactive view a ref'd node without a name shows its visible text
// instead (a list item, a clickable div), and a table row shows its cells as `a | b | c`.
// The full view (interactive:false) shows text as `- text: ...` lines.
//
// Refs: an element keeps its ref for the life of the document (one WeakMap per API instance, which
// also covers same-origin child frames walked in place). Refs go to controls (button, link, textbox,
// checkbox, ...), headings, landmarks, dialogs, named images, tables/grids and their rows (interactive
// view) or cells (full view), list items holding only text, and elements that look clickable without
// a role (onclick attribute, tabindex >= 0, contenteditable host, cursor:pointer not inherited).
//
// Frames: same-origin frames are walked in place under an `- iframe "title"` line. A cross-origin
// frame gives the `- iframe` line followed by a line that is exactly `\u0000frame:K`; frames[] lists
// {marker, index: K, depth}; the engine snapshots that frame itself with baseDepth = depth and puts its
// text in place of the marker line.
//
// Roles and names follow Chromium's accessibility tree (the `role.value` / `name.value` of CDP
// Accessibility.getPartialAXTree), name cut to 100 characters with '…'; tools/fidelity.py measures
// the agreement against Chromium on crates/engine/tests/fixtures/fidelity.
(() => {
  'use strict';

  const docToken = Math.random().toString(36).slice(2, 10) + Date.now().toString(36).slice(-4);
  const refOf = new WeakMap(); // Element -> 'eN'
  const byId = new Map(); // 'eN' -> WeakRef<Element>
  let counter = 1; // next ref number
  let frameOwners = [];

  // ---------------------------------------------------------------- role tables

  const ARIA_ROLES = new Set(('alert alertdialog application article banner blockquote button caption cell ' +
    'checkbox code columnheader combobox comment complementary contentinfo definition deletion dialog ' +
    'directory document emphasis feed figure form generic grid gridcell group heading img image insertion ' +
    'link list listbox listitem log main mark marquee math menu menubar menuitem menuitemcheckbox ' +
    'menuitemradio meter navigation none note option paragraph presentation progressbar radio radiogroup ' +
    'region row rowgroup rowheader scrollbar search searchbox sectionfooter sectionheader separator slider ' +
    'spinbutton status strong subscript suggestion superscript switch tab table tablist tabpanel term ' +
    'textbox time timer toolbar tooltip tree treegrid treeitem ' +
    'doc-abstract doc-acknowledgments doc-afterword doc-appendix doc-backlink doc-biblioentry ' +
    'doc-bibliography doc-biblioref doc-chapter doc-colophon doc-conclusion doc-cover doc-credit ' +
    'doc-credits doc-dedication doc-endnote doc-endnotes doc-epigraph doc-epilogue doc-errata doc-example ' +
    'doc-footnote doc-foreword doc-glossary doc-glossref doc-index doc-introduction doc-noteref doc-notice ' +
    'doc-pagebreak doc-pagefooter doc-pageheader doc-pagelist doc-part doc-preface doc-prologue ' +
    'doc-pullquote doc-qna doc-subtitle doc-tip doc-toc graphics-document graphics-object graphics-symbol'
  ).split(' '));
  const ARIA_ALIAS = { img: 'image', directory: 'list', presentation: 'none' };

  // Roles that always get a ref (things to act on).
  const INTERACTIVE = new Set(['button', 'link', 'textbox', 'searchbox', 'checkbox', 'radio', 'combobox',
    'listbox', 'option', 'menuitem', 'menuitemcheckbox', 'menuitemradio', 'slider', 'spinbutton', 'switch',
    'tab', 'treeitem', 'gridcell', 'DisclosureTriangle', 'DisclosureTriangleGrouped', 'ColorWell', 'Date', 'DateTime', 'InputTime',
    'scrollbar', 'doc-backlink', 'doc-biblioref', 'doc-glossref', 'doc-noteref']);
  // Landmarks, headings and containers that structure the interactive view: always a ref.
  const STRUCTURE_REF = new Set(['heading', 'dialog', 'alertdialog', 'navigation', 'main', 'banner',
    'contentinfo', 'complementary', 'region', 'form', 'search', 'menu', 'menubar', 'tablist', 'tabpanel',
    'tree', 'treegrid', 'grid', 'table', 'radiogroup', 'toolbar', 'alert', 'status']);
  // Content that gets a ref when it holds no interactive descendant.
  const CONTENT_REF = new Set(['cell', 'columnheader', 'rowheader', 'listitem']);
  // Roles whose name comes from their content (Chromium SupportsNameFromContents, non-recursive).
  const NAME_FROM_CONTENT = new Set(['button', 'cell', 'checkbox', 'columnheader', 'DisclosureTriangle', 'DisclosureTriangleGrouped',
    'gridcell', 'heading', 'link', 'LayoutTableCell', 'option', 'menuitem', 'menuitemcheckbox',
    'menuitemradio', 'radio', 'rowheader', 'switch', 'tab', 'tooltip', 'treeitem', 'term', 'math',
    'doc-backlink', 'doc-biblioref', 'doc-glossref', 'doc-noteref', 'comment']);
  // Roles that contribute nothing to an ancestor's name from content.
  const NO_CONTENT_RECURSE = new Set(['alert', 'alertdialog', 'application', 'article', 'banner',
    'blockquote', 'complementary', 'dialog', 'document', 'feed', 'figure', 'form', 'grid', 'group',
    'image', 'listbox', 'log', 'main', 'marquee', 'menu', 'menubar', 'navigation', 'note', 'progressbar',
    'radiogroup', 'region', 'row', 'rowgroup', 'search', 'separator', 'status', 'table', 'tablist',
    'tabpanel', 'timer', 'toolbar', 'tree', 'treegrid', 'combobox', 'Iframe', 'Audio', 'Video',
    'sectionheader', 'graphics-document']);
  // Roles for which Chromium does not use the title attribute as the name.
  const NO_TITLE = new Set(['generic', 'none', 'paragraph', 'LabelText', 'caption', 'code', 'deletion',
    'emphasis', 'insertion', 'mark', 'strong', 'subscript', 'superscript', 'time', 'LineBreak',
    'Legend', 'LayoutTableRow', 'rowgroup', 'Figcaption', 'definition', 'term']);
  // Roles that are never shown as their own line (their text merges into the parent).
  const INLINE_HOIST = new Set(['none', 'emphasis', 'strong', 'code', 'mark', 'subscript', 'superscript',
    'time', 'insertion', 'deletion', 'Abbr', 'LabelText', 'LineBreak', 'rowgroup', 'Ruby', 'Legend']);
  // Unnamed wrappers dropped in compact mode (children hoisted).
  const COMPACT_HOIST = new Set(['generic', 'group', 'LayoutTable', 'LayoutTableRow', 'LayoutTableCell',
    'Figcaption', 'DescriptionList', 'definition', 'term', 'blockquote', 'figure', 'row', 'caption']);
  const SKIP_TAGS = new Set(['script', 'style', 'template', 'noscript', 'head', 'title', 'meta', 'link',
    'base', 'datalist', 'param', 'source', 'track', 'area', 'map']);
  const PLACEHOLDER_TYPES = new Set(['text', 'email', 'password', 'tel', 'url', 'search', 'number']);
  const SECTIONING = 'article,aside,main,nav,section,[role=article],[role=complementary],[role=main],' +
    '[role=navigation],[role=region]';
  const REPLACED = new Set(['img', 'input', 'select', 'textarea', 'button', 'video', 'audio', 'canvas',
    'iframe', 'embed', 'object', 'svg', 'meter', 'progress']);

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

  // ---------------------------------------------------------------- helpers

  const WS = /[\s\u00a0\u200b]+/g;
  const PUA = /[\ue000-\uf8ff]/g; // icon-font glyphs: meaningless as text
  function collapse(s) { return s.replace(PUA, '').replace(WS, ' ').trim(); }
  // Cut to n code points (not UTF-16 units, so no surrogate pair is split), marking the cut with '…'.
  function cap(s, n) {
    if (s.length <= n) return s;
    const cps = Array.from(s);
    return cps.length <= n ? s : cps.slice(0, n - 1).join('').trimEnd() + '\u2026';
  }
  function esc(s) { return s.replace(/\\/g, '\\\\').replace(/"/g, '\\"'); }

  function explicitRole(el) {
    const r = el.getAttribute('role');
    if (!r) return null;
    for (const tok of r.trim().toLowerCase().split(/\s+/)) if (ARIA_ROLES.has(tok)) return ARIA_ALIAS[tok] || tok;
    return null;
  }

  function hasGlobalAria(el) {
    if (el.hasAttribute('aria-label') || el.hasAttribute('aria-labelledby') || el.hasAttribute('aria-describedby')) return true;
    for (const a of el.getAttributeNames()) {
      if (a.startsWith('aria-') && a !== 'aria-hidden' && GLOBAL_ARIA.has(a)) return true;
    }
    return false;
  }
  const GLOBAL_ARIA = new Set(['aria-atomic', 'aria-busy', 'aria-controls', 'aria-current', 'aria-details',
    'aria-dropeffect', 'aria-flowto', 'aria-grabbed', 'aria-keyshortcuts', 'aria-live', 'aria-owns',
    'aria-relevant', 'aria-roledescription', 'aria-errormessage', 'aria-brailleroledescription',
    'aria-braillelabel', 'aria-description', 'aria-disabled', 'aria-invalid', 'aria-haspopup']);

  function isFocusable(el) {
    if (el.hasAttribute('tabindex')) return true;
    const t = el.localName;
    if ((t === 'a' || t === 'area') && el.hasAttribute('href')) return true;
    if ((t === 'input' || t === 'select' || t === 'textarea' || t === 'button') && !el.disabled) return t !== 'input' || el.type !== 'hidden';
    if (t === 'summary' || t === 'iframe') return true;
    if (el.isContentEditable) return true;
    return false;
  }

  let ownerOf = null; // Element -> aria-owns owner (per snapshot)
  function parentEl(el) {
    // accessibility parent: aria-owns owner, slot for slotted nodes, host for shadow root children
    if (ownerOf !== null) { const o = ownerOf.get(el); if (o !== undefined) return o; }
    if (el.assignedSlot) return el.assignedSlot;
    const p = el.parentNode;
    if (!p) return null;
    if (p.nodeType === 11) return p.host || null;
    return p.nodeType === 1 ? p : null;
  }

  // Nearest ancestor role ignoring generic/none wrappers.
  function contextRole(el) {
    for (let p = parentEl(el); p; p = parentEl(p)) {
      const r = roleOf(p);
      if (r !== 'generic' && r !== 'none') return r;
    }
    return null;
  }

  function tableOf(cell) {
    let p = cell.parentElement; // tr
    if (!p || p.localName !== 'tr') return null;
    p = p.parentElement;
    if (p && (p.localName === 'tbody' || p.localName === 'thead' || p.localName === 'tfoot')) p = p.parentElement;
    return p && p.localName === 'table' ? p : null;
  }

  function isDataTable(t) {
    let v = dataTables.get(t);
    if (v === undefined) { v = computeDataTable(t); dataTables.set(t, v); }
    return v;
  }
  function computeDataTable(t) {
    const er = explicitRole(t);
    if (er === 'table' || er === 'grid' || er === 'treegrid') return true;
    if (t.isContentEditable) return true;
    if (t.getAttribute('summary') || t.tHead || t.tFoot || t.caption) return true;
    if (t.getAttribute('rules')) return true;
    for (const c of t.children) if (c.localName === 'col' || c.localName === 'colgroup') return true;
    const rows = t.rows;
    const n = rows.length;
    if (n >= 20) return true;
    if (n <= 0) return false;
    if (n === 1 && rows[0].cells.length === 1) return false;
    const ts = cs(t);
    const tableBg = ts.backgroundColor;
    const spacing = ts.borderCollapse !== 'collapse' && ts.borderSpacing.split(' ').every((x) => parseFloat(x) > 0);
    let valid = 0, bordered = 0, bgDiff = 0, top = 0, bottom = 0, left = 0, right = 0;
    const alt = [];
    for (let r = 0; r < n; r++) {
      const cells = rows[r].cells;
      for (let c = 0; c < cells.length; c++) {
        const cell = cells[c];
        if (cell.localName === 'th') return true;
        if (cell.getAttribute('headers') || cell.getAttribute('abbr') || cell.getAttribute('axis') || cell.getAttribute('scope')) return true;
        const s = cs(cell);
        if (s.display === 'none') continue;
        if (cell.offsetWidth < 1 || cell.offsetHeight < 1) continue;
        valid++;
        const role = cell.getAttribute('role');
        if (role === 'columnheader' || role === 'rowheader' || role === 'gridcell') return true;
        if (s.emptyCells === 'hide') return true;
        const bt = parseFloat(s.borderTopWidth) > 0, bb = parseFloat(s.borderBottomWidth) > 0;
        const bl = parseFloat(s.borderLeftWidth) > 0, br = parseFloat(s.borderRightWidth) > 0;
        if ((bt && bb) || (bl && br)) bordered++;
        if (bt) top++;
        if (bb) bottom++;
        if (bl) left++;
        if (br) right++;
        const bg = s.backgroundColor;
        if (spacing && bg !== tableBg && !isTransparent(bg)) bgDiff++;
        if (bordered >= 10 || bgDiff >= 10) return true;
        if (r < 5 && r === alt.length) alt.push(cs(rows[r]).backgroundColor);
      }
    }
    if (valid <= 1) return false;
    const need = Math.floor(valid / 2);
    if (bordered >= need || top >= need || bottom >= need || left >= need || right >= need) return true;
    if (bgDiff >= need) return true;
    if (alt.length > 2) {
      for (let k = 1; k < alt.length; k++) {
        if (k % 2 === 1 && alt[k] === alt[0]) return false;
        if (k % 2 === 0 && alt[k] !== alt[0]) return false;
      }
      return true;
    }
    return false;
  }
  function isTransparent(c) { return c === 'transparent' || c === 'rgba(0, 0, 0, 0)' || /,\s*0\)$/.test(c); }

  function tableRoleOf(t) {
    const er = explicitRole(t);
    if (er === 'none') return 'none';
    if (er === 'grid' || er === 'treegrid') return er;
    return isDataTable(t) ? 'table' : 'LayoutTable';
  }

  function headerRole(cell) {
    const scope = (cell.getAttribute('scope') || '').toLowerCase();
    if (scope === 'row' || scope === 'rowgroup') return 'rowheader';
    if (scope === 'col' || scope === 'colgroup') return 'columnheader';
    const next = cell.nextElementSibling, prev = cell.previousElementSibling;
    if (!next && !prev) return 'columnheader';
    if (isHeaderCell(next) && isHeaderCell(prev)) return 'columnheader';
    if (isNonEmptyDataCell(next) || isNonEmptyDataCell(prev)) return 'rowheader';
    const row = cell.parentElement;
    if (!row || row.localName !== 'tr' || !row.parentNode) return 'columnheader';
    const first = row.firstElementChild, last = row.lastElementChild;
    if (isNonEmptyDataCell(first) || isNonEmptyDataCell(last)) return 'rowheader';
    if ((first && isNonEmptyDataCell(first.nextElementSibling)) || (last && isNonEmptyDataCell(last.previousElementSibling))) return 'rowheader';
    return 'columnheader';
  }
  function isHeaderCell(n) { return !!n && n.localName === 'th'; }
  function isNonEmptyDataCell(n) { return !!n && n.localName === 'td' && n.hasChildNodes(); }

  // ---------------------------------------------------------------- roles

  function roleOf(el) {
    let r = roles.get(el);
    if (r === undefined) { r = computeRole(el); roles.set(el, r); }
    return r;
  }

  function computeRole(el) {
    let er = explicitRole(el);
    if (er === 'none' && (isFocusable(el) || hasGlobalAria(el))) er = null; // presentational conflict
    if (er) {
      switch (er) {
        case 'none': return 'none';
        case 'listitem': {
          const c = contextRole(el);
          return c === 'list' || c === 'group' || c === 'directory' ? er : 'generic';
        }
        case 'option': {
          const c = contextRole(el);
          return c === 'listbox' || c === 'group' || c === 'combobox' ? er : 'generic';
        }
        case 'treeitem': {
          const c = contextRole(el);
          return c === 'tree' || c === 'group' || c === 'treegrid' ? er : 'generic';
        }
        case 'region': case 'form':
          return hasAuthorName(el) ? er : 'generic';
        case 'cell': {
          const c = contextRole(el);
          if (c === 'row') {
            const t = contextRole(parentEl(el));
            if (t === 'grid' || t === 'treegrid') return 'gridcell';
          }
          return er;
        }
        default: return er;
      }
    }
    return nativeRole(el);
  }

  // (Chromium counts a non-empty attribute, even one of only spaces, for these role decisions.)
  function hasAuthorName(el) {
    if (el.getAttribute('aria-label')) return true;
    if (el.hasAttribute('aria-labelledby') && labelledByText(el, el).trim()) return true;
    return !!el.getAttribute('title');
  }

  function nativeRole(el) {
    if (el.namespaceURI === 'http://www.w3.org/2000/svg') {
      if (el.localName === 'svg') return 'image';
      if (el.localName === 'a' && (el.hasAttribute('href') || el.hasAttribute('xlink:href'))) return 'link';
      return 'generic';
    }
    const t = el.localName;
    switch (t) {
      case 'a': return el.hasAttribute('href') ? 'link' : 'generic';
      case 'button': return 'button';
      case 'input': return inputRole(el);
      case 'select': return el.multiple || el.size > 1 ? 'listbox' : 'combobox';
      case 'textarea': return 'textbox';
      case 'option': return 'option';
      case 'optgroup': return 'group';
      case 'h1': case 'h2': case 'h3': case 'h4': case 'h5': case 'h6': return 'heading';
      case 'img': {
        const alt = el.getAttribute('alt');
        if (alt !== null && alt === '' && !hasGlobalAria(el) && !el.hasAttribute('title') && !isFocusable(el)) return 'none';
        return 'image';
      }
      case 'ul': case 'ol': case 'menu': return 'list';
      case 'li': {
        // an <li> whose list has another role (menu, tablist, ...) is presentational
        const p = el.parentElement;
        if (p && (p.localName === 'ul' || p.localName === 'ol' || p.localName === 'menu')) {
          const pr = roleOf(p);
          if (pr !== 'list') return 'none';
        }
        return 'listitem';
      }
      case 'nav': return 'navigation';
      case 'main': return 'main';
      case 'header': return el.parentElement && el.closest(SECTIONING) ? 'sectionheader' : 'banner';
      case 'footer': return el.parentElement && el.closest(SECTIONING) ? 'sectionfooter' : 'contentinfo';
      case 'aside': {
        const p = el.parentElement && el.parentElement.closest('article,aside,nav,section');
        return p && !hasAuthorName(el) ? 'generic' : 'complementary';
      }
      case 'section': return hasAuthorName(el) ? 'region' : 'generic';
      case 'article': return 'article';
      case 'form': return 'form';
      case 'search': return 'search';
      case 'dialog': return 'dialog';
      case 'details': return 'group';
      case 'summary': {
        const p = el.parentElement;
        if (!p || p.localName !== 'details' || p.querySelector(':scope > summary') !== el) return 'generic';
        return p.hasAttribute('name') ? 'DisclosureTriangleGrouped' : 'DisclosureTriangle';
      }
      case 'fieldset': return 'group';
      case 'legend': return 'Legend';
      case 'label': return 'LabelText';
      case 'output': return 'status';
      case 'progress': return 'progressbar';
      case 'meter': return 'meter';
      case 'dl': return 'DescriptionList';
      case 'dt': return 'term';
      case 'dd': return 'definition';
      case 'table': return tableRoleOf(el);
      case 'caption': return 'caption';
      case 'thead': case 'tbody': case 'tfoot': return 'rowgroup';
      case 'tr': {
        const tb = el.closest('table');
        if (!tb) return 'generic';
        const tr = tableRoleOf(tb);
        return tr === 'none' ? 'none' : tr === 'LayoutTable' ? 'LayoutTableRow' : 'row';
      }
      case 'td': case 'th': {
        const tb = tableOf(el);
        if (!tb) return 'generic';
        const tr = tableRoleOf(tb);
        if (tr === 'none') return 'generic';
        if (tr === 'LayoutTable') return 'LayoutTableCell';
        if (t === 'td') return tr === 'grid' || tr === 'treegrid' ? 'gridcell' : 'cell';
        return headerRole(el);
      }
      case 'p': return 'paragraph';
      case 'blockquote': return 'blockquote';
      case 'figure': return 'figure';
      case 'figcaption': return 'Figcaption';
      case 'hr': return 'separator';
      case 'code': return 'code';
      case 'em': return 'emphasis';
      case 'strong': return 'strong';
      case 'del': case 's': return 'deletion';
      case 'ins': return 'insertion';
      case 'mark': return 'mark';
      case 'sub': return 'subscript';
      case 'sup': return 'superscript';
      case 'time': return 'time';
      case 'abbr': return 'Abbr';
      case 'address': return 'group';
      case 'hgroup': return 'group';
      case 'iframe': case 'frame': return 'Iframe';
      case 'video': return 'Video';
      case 'audio': return 'Audio';
      case 'br': return 'LineBreak';
      case 'math': return 'math';
      case 'ruby': return 'Ruby';
      case 'canvas': return 'canvas';
      case 'html': case 'body': return 'none';
      default: return 'generic';
    }
  }

  function inputRole(el) {
    const type = (el.getAttribute('type') || '').toLowerCase();
    switch (type) {
      case 'button': case 'submit': case 'reset': case 'image': case 'file': return 'button';
      case 'checkbox': return 'checkbox';
      case 'radio': return 'radio';
      case 'range': return 'slider';
      case 'number': return 'spinbutton';
      case 'search': return el.hasAttribute('list') ? 'combobox' : 'searchbox';
      case 'color': return 'ColorWell';
      case 'date': return 'Date';
      case 'datetime-local': case 'month': case 'week': return 'DateTime';
      case 'time': return 'InputTime';
      case 'hidden': return 'none';
      default: return el.hasAttribute('list') ? 'combobox' : 'textbox';
    }
  }

  // ---------------------------------------------------------------- names (accname as Chromium does it)

  function nameOf(el) {
    let n = names.get(el);
    if (n === undefined) {
      try { n = collapse(computeName(el, roleOf(el))); } catch (e) { n = ''; }
      names.set(el, n);
    }
    return n;
  }

  function byIdRefs(el, attr) {
    const v = el.getAttribute(attr);
    if (!v) return [];
    const root = el.getRootNode();
    const out = [];
    for (const id of v.trim().split(/\s+/)) {
      const t = root.getElementById ? root.getElementById(id) : el.ownerDocument.getElementById(id);
      if (t) out.push(t);
    }
    return out;
  }

  function labelledByText(el, root) {
    const parts = [];
    for (const t of byIdRefs(el, 'aria-labelledby')) {
      const o = { root, exclude: null, inLabelledBy: true, hiddenOK: isHiddenForName(t), depth: 0 };
      let s;
      if (t === el) {
        s = computeName(el, roleOf(el), true);
      } else {
        s = textAlt(t, o);
      }
      s = collapse(s);
      if (s) parts.push(s);
    }
    return parts.join(' ');
  }

  function computeName(el, role, skipLabelledBy) {
    if (!skipLabelledBy && el.hasAttribute('aria-labelledby')) {
      const s = labelledByText(el, el);
      if (s.trim()) return s;
    }
    const al = el.getAttribute('aria-label');
    if (al && al.trim()) return al;
    const o = { root: el, exclude: el, inLabelledBy: false, hiddenOK: false, depth: 0 };
    const nat = nativeName(el, role, o, false);
    if (nat !== null && (nat.trim() || finalNative(el))) return nat;
    if (NAME_FROM_CONTENT.has(role) || (role === 'row' && inGrid(el))) {
      const c = textFromContent(el, o);
      if (c.trim()) return c;
    }
    if (!NO_TITLE.has(role)) {
      const t = el.getAttribute('title');
      if (t && t.trim()) return t;
    }
    const t = el.localName;
    if ((t === 'input' && PLACEHOLDER_TYPES.has(el.type)) || t === 'textarea') {
      const ph = el.getAttribute('placeholder');
      if (ph && ph.trim()) return ph;
    }
    const ap = el.getAttribute('aria-placeholder');
    if (ap && ap.trim()) return ap;
    if (t === 'input' && (el.type === 'submit' || el.type === 'reset' || el.type === 'image')) return defaultButtonLabel(el);
    return '';
  }

  // An empty host-language name that still ends the computation (alt="", value="").
  function finalNative(el) {
    const t = el.localName;
    if (t === 'img') return el.hasAttribute('alt');
    if (t === 'input') return (el.type === 'submit' || el.type === 'reset' || el.type === 'button') && el.hasAttribute('value');
    return false;
  }

  // Rows of grids and tree grids take their name from their cells (not rows of plain tables).
  function inGrid(row) {
    for (let p = parentEl(row); p; p = parentEl(p)) {
      const r = roleOf(p);
      if (r === 'grid' || r === 'treegrid') return true;
      if (r === 'table' || r === 'LayoutTable') return false;
    }
    return false;
  }

  function defaultButtonLabel(el) {
    return el.type === 'reset' ? 'Reset' : 'Submit';
  }

  // Host-language name. Returns null when the element has none.
  function nativeName(el, role, o, recursive) {
    const t = el.localName;
    if (el.namespaceURI === 'http://www.w3.org/2000/svg') {
      for (const c of el.children) if (c.localName === 'title') return c.textContent;
      return null;
    }
    switch (t) {
      case 'input': {
        const type = el.type;
        if (type === 'button' || type === 'submit' || type === 'reset') {
          const lab = labelsText(el, o);
          if (lab) return lab;
          if (el.hasAttribute('value')) return el.value;
          return type === 'button' ? null : defaultButtonLabel(el);
        }
        if (type === 'image') {
          const lab = labelsText(el, o);
          if (lab) return lab;
          const alt = el.getAttribute('alt');
          if (alt && alt.trim()) return alt;
          const v = el.getAttribute('value');
          if (v && v.trim()) return v;
          const ti = el.getAttribute('title');
          if (ti && ti.trim()) return ti;
          return 'Submit';
        }
        if (type === 'file') {
          const lab = labelsText(el, o);
          if (lab) return lab;
          return 'Choose File';
        }
        return labelsText(el, o);
      }
      case 'textarea': case 'select': case 'meter': case 'output': case 'progress': case 'button':
        return labelsText(el, o);
      case 'img': {
        const alt = el.getAttribute('alt');
        if (alt !== null) return alt;
        return null;
      }
      case 'fieldset': {
        for (const c of el.children) if (c.localName === 'legend') return textFromContent(c, o);
        return null;
      }
      case 'table': {
        const c = el.caption;
        if (c) return textFromContent(c, o);
        return null;
      }
      case 'optgroup': return el.getAttribute('label');
      case 'option': {
        const l = el.getAttribute('label');
        if (l && l.trim()) return l;
        return null;
      }
      default: return null;
    }
  }

  function labelsText(el, o) {
    const labels = el.labels;
    if (!labels || !labels.length) return '';
    const parts = [];
    for (const l of labels) {
      if (isHiddenForName(l)) continue;
      if (l.getAttribute('aria-label') && l.getAttribute('aria-label').trim()) { parts.push(l.getAttribute('aria-label')); continue; }
      const s = collapse(textFromContent(l, { root: o.root, exclude: el, inLabelledBy: o.inLabelledBy, hiddenOK: false, depth: o.depth + 1 }));
      if (s) parts.push(s);
    }
    return parts.join(' ');
  }

  function isHiddenForName(el) {
    if (!el.isConnected) return true;
    for (let p = el; p; p = parentEl(p)) {
      if (p.getAttribute('aria-hidden') === 'true') return true;
    }
    const s = cs(el);
    if (s.display === 'none' || s.visibility !== 'visible') return true;
    return !el.checkVisibility() && s.display !== 'contents';
  }

  function isHiddenChild(el) {
    if (el.getAttribute('aria-hidden') === 'true') return true;
    const s = cs(el);
    const d = s.display;
    if (d === 'none') return true;
    if (s.visibility !== 'visible') return 'vis';
    return false;
  }

  // Text alternative of a node met while computing another node's name (recursion).
  function textAlt(el, o) {
    if (o.depth > 40) return '';
    if (!o.inLabelledBy && el.hasAttribute('aria-labelledby')) {
      const s = labelledByText(el, o.root);
      if (s.trim()) return s;
    }
    const role = roleOf(el);
    // embedded controls contribute their value
    let textField = false;
    if (el !== o.exclude) {
      const v = embeddedValue(el, role);
      if (v !== null) {
        textField = (role === 'textbox' || role === 'searchbox') && (el.localName === 'input' || el.localName === 'textarea');
        if (!textField || v) return v;
      }
    }
    const al = el.getAttribute('aria-label');
    if (al && al.trim()) return al;
    if (textField) {
      // an empty text field contributes its own title / placeholder
      const t = el.getAttribute('title');
      if (t && t.trim()) return t;
      const ph = el.getAttribute('placeholder') || el.getAttribute('aria-placeholder');
      return ph || '';
    }
    const nat = nativeName(el, role, o, true);
    if (nat !== null && (nat.trim() || finalNative(el))) return nat;
    if (el.localName === 'input' && (el.type === 'submit' || el.type === 'reset')) return defaultButtonLabel(el);
    if (el.localName === 'svg' && el.namespaceURI === SVG_NS) {
      // an inline SVG without a title contributes its <text>
      let t = '';
      for (const x of el.querySelectorAll('text')) t += ' ' + x.textContent;
      return t;
    }
    if (!NO_CONTENT_RECURSE.has(role) || o.inLabelledBy) {
      const c = textFromContent(el, { root: o.root, exclude: o.exclude, inLabelledBy: o.inLabelledBy, hiddenOK: o.hiddenOK, depth: o.depth + 1 });
      if (c.trim()) return c;
    }
    if (!NO_TITLE.has(role)) {
      const t = el.getAttribute('title');
      if (t && t.trim()) return t;
    }
    return '';
  }

  function embeddedValue(el, role) {
    const t = el.localName;
    switch (role) {
      case 'textbox': case 'searchbox':
        if (t === 'input' || t === 'textarea') return el.value;
        return null;
      case 'combobox':
        if (t === 'select') { const o = el.selectedOptions[0]; return o ? optionText(o) : ''; }
        if (t === 'input') return el.value;
        return '';
      case 'listbox': {
        if (t === 'select') return Array.from(el.selectedOptions, optionText).join(' ');
        const sel = el.querySelectorAll('[role=option][aria-selected=true]');
        return Array.from(sel, (x) => x.textContent).join(' ');
      }
      case 'slider': case 'spinbutton': case 'scrollbar': case 'meter': {
        const vt = el.getAttribute('aria-valuetext');
        if (vt) return vt;
        const vn = el.getAttribute('aria-valuenow');
        if (vn) return vn;
        if (t === 'meter') return String(el.value);
        if (t === 'input') return el.value || el.getAttribute('placeholder') || el.getAttribute('title') || '';
        if (role === 'slider' || role === 'scrollbar') {
          const mn = parseFloat(el.getAttribute('aria-valuemin') || '0'), mx = parseFloat(el.getAttribute('aria-valuemax') || '100');
          return String(mx < mn ? mn : mn + (mx - mn) / 2);
        }
        return String(parseFloat(el.getAttribute('aria-valuemin') || '0'));
      }
      default: return null;
    }
  }

  function optionText(o) {
    const l = o.getAttribute('label');
    if (l && l.trim()) return l;
    return collapse(o.text);
  }

  // Flat-tree children: an array for a <slot> with assigned nodes, else null (iterate from firstFlatChild).
  function slotted(el) {
    if (el.localName !== 'slot') return null;
    const a = el.assignedNodes();
    return a.length ? a : null;
  }
  function firstFlatChild(el) {
    const sr = el.shadowRoot;
    return sr !== null ? sr.firstChild : el.firstChild;
  }

  function isInlineDisplay(el, d) {
    if (d !== 'inline' && d !== 'contents') return false;
    return !REPLACED.has(el.localName);
  }

  function transformText(s, tt) {
    if (tt === 'uppercase') return s.toUpperCase();
    if (tt === 'lowercase') return s.toLowerCase();
    if (tt === 'capitalize') return s.replace(/(^|[^\p{L}\p{N}_'\u2019])(\p{L})/gu, (m, a, b) => a + b.toUpperCase());
    return s;
  }

  function pseudoText(el, which) {
    if (el.localName === 'q') return { text: which === '::before' ? '\u201c' : '\u201d', block: false };
    if (!pseudoCheck) return null;
    const s = el.ownerDocument.defaultView.getComputedStyle(el, which);
    const c = s.content;
    if (!c || c === 'none' || c === 'normal') return null;
    let txt = parseContent(c, el);
    if (txt === null) return null;
    return { text: txt, block: s.display !== 'inline' };
  }
  function parseContent(c, el) {
    // content: "a" attr(x) "b" / "alt"
    let out = '', alt = null, i = 0, cur = '';
    let sawSlash = false;
    while (i < c.length) {
      const ch = c[i];
      if (ch === '"' || ch === "'") {
        let j = i + 1, s = '';
        while (j < c.length && c[j] !== ch) {
          if (c[j] === '\\' && j + 1 < c.length) {
            const m = /^[0-9a-fA-F]{1,6} ?/.exec(c.slice(j + 1));
            if (m) { s += String.fromCodePoint(parseInt(m[0], 16)); j += 1 + m[0].length; continue; }
            s += c[j + 1]; j += 2; continue;
          }
          s += c[j++];
        }
        cur += s; i = j + 1;
      } else if (c.startsWith('attr(', i)) {
        const j = c.indexOf(')', i);
        const name = c.slice(i + 5, j).trim();
        cur += el.getAttribute(name) || '';
        i = j + 1;
      } else if (ch === '/') {
        out = cur; cur = ''; sawSlash = true; i++;
      } else if (/[a-z]/i.test(ch)) {
        // keywords and functions: counter()/counters()/url() give nothing (as in Chromium), quotes do
        let j = i;
        while (j < c.length && /[a-z-(]/i.test(c[j])) { if (c[j] === '(') { j = c.indexOf(')', j) + 1; break; } j++; }
        if (j <= i) j = i + 1;
        const word = c.slice(i, j);
        if (word === 'open-quote') cur += '\u201c';
        else if (word === 'close-quote') cur += '\u201d';
        i = j;
      } else i++;
    }
    if (sawSlash) { alt = cur; return alt; }
    return cur;
  }

  function textFromContent(el, o) {
    let out = '';
    const push = (s, block) => {
      if (!s) return;
      if (block) out += ' ' + s + ' ';
      else out += s;
    };
    const before = o.invisible ? null : pseudoText(el, '::before');
    if (before) push(before.text, before.block);
    const tt = o.hiddenOK ? 'none' : cs(el).textTransform;
    const arr = slotted(el);
    let idx = 0;
    for (let n = arr !== null ? arr[0] : firstFlatChild(el); n; n = arr !== null ? arr[++idx] : n.nextSibling) {
      if (n.nodeType === 3) {
        if (!o.invisible) push(tt === 'none' ? n.data : transformText(n.data, tt), false);
        continue;
      }
      if (n.nodeType !== 1) continue;
      if (n === o.exclude) continue;
      const ln = n.localName;
      if (SKIP_TAGS.has(ln) && ln !== 'title') continue;
      if (ln === 'title') continue;
      let inline = true;
      if (!o.hiddenOK) {
        const h = isHiddenChild(n);
        if (h === true) continue;
        if (h === 'vis') {
          // invisible itself, visible descendants still count
          const c = textFromContent(n, { root: o.root, exclude: o.exclude, inLabelledBy: o.inLabelledBy, hiddenOK: false, depth: o.depth + 1, invisible: true });
          push(c, false);
          continue;
        }
        inline = isInlineDisplay(n, cs(n).display);
      } else {
        inline = !REPLACED.has(ln) && ln !== 'div' && ln !== 'p' && ln !== 'li' && ln !== 'br';
      }
      if (ln === 'br' || ln === 'wbr') { out += ' '; continue; }
      if (ln === 'rt' || ln === 'rp') continue;
      const s = textAlt(n, { root: o.root, exclude: o.exclude, inLabelledBy: o.inLabelledBy, hiddenOK: o.hiddenOK, depth: o.depth + 1 });
      push(s, !inline);
    }
    const after = o.invisible ? null : pseudoText(el, '::after');
    if (after) push(after.text, after.block);
    return out;
  }

  // ---------------------------------------------------------------- states and values

  const FORM_TAGS = new Set(['input', 'select', 'textarea', 'button', 'option', 'optgroup', 'fieldset']);
  function states(el, role) {
    const st = [];
    const t = el.localName;
    const attrs = el.hasAttributes();
    const aria = (n) => (attrs ? el.getAttribute(n) : null);
    if (role === 'heading') {
      let lv = parseInt(aria('aria-level'), 10);
      if (!(lv > 0)) lv = t.length === 2 && t[0] === 'h' && t[1] >= '1' && t[1] <= '6' ? +t[1] : 2;
      st.push('level=' + lv);
    }
    if (role === 'checkbox' || role === 'radio' || role === 'switch' || role === 'menuitemcheckbox' || role === 'menuitemradio') {
      let c;
      if (t === 'input' && (el.type === 'checkbox' || el.type === 'radio')) c = el.indeterminate && el.type === 'checkbox' ? 'mixed' : String(el.checked);
      else {
        const a = (aria('aria-checked') || '').toLowerCase();
        c = a === 'true' ? 'true' : a === 'mixed' && role !== 'radio' && role !== 'menuitemradio' && role !== 'switch' ? 'mixed' : 'false';
      }
      st.push('checked=' + c);
    }
    const ex = aria('aria-expanded');
    if (ex === 'true' || ex === 'false') st.push('expanded=' + ex);
    else if (role === 'combobox' && t === 'select') st.push('expanded=false');
    else if (t === 'button' && attrs && el.popoverTargetElement) st.push('expanded=' + el.popoverTargetElement.matches(':popover-open'));
    else if (role === 'DisclosureTriangle' || role === 'DisclosureTriangleGrouped') st.push('expanded=' + (el.parentElement && el.parentElement.open ? 'true' : 'false'));
    if (attrs) {
      const pr = el.getAttribute('aria-pressed');
      if (pr === 'true' || pr === 'false' || pr === 'mixed') st.push('pressed=' + pr);
    }
    if (t === 'option' ? el.selected && roleOf(el) === 'option' : aria('aria-selected') === 'true') st.push('selected');
    if (attrs) {
      const cur = el.getAttribute('aria-current');
      if (cur && cur !== 'false') st.push('current');
    }
    const form = FORM_TAGS.has(t);
    if ((form && el.disabled === true && el.matches(':disabled')) || aria('aria-disabled') === 'true') st.push('disabled');
    if ((form && el.required === true) || aria('aria-required') === 'true') st.push('required');
    if (((t === 'input' || t === 'textarea') && el.readOnly === true) || aria('aria-readonly') === 'true') st.push('readonly');
    if (attrs) {
      const inv = el.getAttribute('aria-invalid');
      if (inv && inv !== 'false') st.push('invalid');
    }
    if (el === activeEl && t !== 'body') st.push('focused');
    if (O.urls && role === 'link') {
      const h = el.href;
      if (h) st.push('url=' + (typeof h === 'string' ? h : h.baseVal));
    }
    return st;
  }


  function valueOf(el, role) {
    const t = el.localName;
    switch (role) {
      case 'textbox': case 'searchbox': case 'spinbutton': case 'combobox': case 'slider':
      case 'Date': case 'DateTime': case 'InputTime': case 'ColorWell': {
        if (t === 'input' || t === 'textarea') {
          const v = el.value;
          if (!v) return '';
          if (el.type === 'password') return '\u2022\u2022\u2022\u2022';
          return cap(collapse(v), 120);
        }
        if (t === 'select') { const o = el.selectedOptions[0]; return o ? cap(optionText(o), 120) : ''; }
        const vt = el.getAttribute('aria-valuetext') || el.getAttribute('aria-valuenow');
        if (vt) return cap(collapse(vt), 120);
        if (role === 'textbox' || role === 'searchbox' || role === 'combobox') return preview(el, 120);
        return '';
      }
      default: return '';
    }
  }

  // Visible text of an element (for nameless ref'd nodes in interactive mode), capped.
  function preview(el, max, skipInteractive) {
    const f = el.firstChild;
    if (f !== null && f === el.lastChild && f.nodeType === 3 && el.shadowRoot === null && el.localName !== 'slot') {
      return cap(collapse(f.data), max); // the common case: a single text node
    }
    const parts = [];
    let len = 0;
    const walkP = (n) => {
      const arr = slotted(n);
      let idx = 0;
      for (let c = arr !== null ? arr[0] : firstFlatChild(n); c; c = arr !== null ? arr[++idx] : c.nextSibling) {
        if (len > max) return;
        if (c.nodeType === 3) { const s = c.data; parts.push(s); len += s.trim().length + 1; continue; }
        if (c.nodeType !== 1) continue;
        if (SKIP_TAGS.has(c.localName)) continue;
        if (isHiddenChild(c) !== false) continue;
        if (c.localName === 'img') { const a = c.getAttribute('alt'); if (a) { parts.push(' ' + a + ' '); len += a.length; } continue; }
        const ln = c.localName;
        if (ln === 'input' || ln === 'textarea' || ln === 'select' || ln === 'option') continue;
        if (ln === 'br') { parts.push(' '); continue; }
        if (skipInteractive && (INTERACTIVE.has(roleOf(c)) || refOf.has(c))) continue;
        const d = cs(c).display;
        const blk = !isInlineDisplay(c, d);
        if (blk) parts.push(' ');
        walkP(c);
        if (blk) parts.push(' ');
      }
    };
    walkP(el);
    return cap(collapse(parts.join('')), max);
  }

  // ---------------------------------------------------------------- the walk

  // Items built by the walk:
  //   {kind: 'el', el, role, want, ref, children, cells}  an element that may become a line
  //   {kind: 'text', text} | {kind: 'sep'} | {kind: 'marker', index}
  // want: 0 no ref, 1 ref, 2 content (ref when it holds no interactive descendant and has text),
  //       3 cursor:pointer heuristic (ref when it holds no interactive descendant), 4 image (ref when named),
  //       5 table row in interactive mode (ref when its cells have text; the cells become its value)
  let O = null; // options of the running snapshot
  let interactiveCount = 0; // interactive refs seen so far (post-children decisions)
  const CELL_ROLES = new Set(['cell', 'columnheader', 'rowheader']);

  function visitSafe(n, ctx, out) {
    try { visit(n, ctx, out); } catch (e) { /* a node that throws is left out, the walk goes on */ }
  }
  function visitSiblings(first, ctx, out) {
    for (let n = first; n !== null; n = n.nextSibling) {
      const nt = n.nodeType;
      if (nt === 1) visitSafe(n, ctx, out);
      else if (nt === 3 && ctx.text) pushText(n, ctx, out);
    }
  }
  function visitList(list, ctx, out) {
    for (let i = 0; i < list.length; i++) {
      const n = list[i];
      const nt = n.nodeType;
      if (nt === 1) visitSafe(n, ctx, out);
      else if (nt === 3 && ctx.text) pushText(n, ctx, out);
    }
  }
  function pushText(n, ctx, out) {
    let s = n.data;
    if (!s) return;
    if (ctx.tt === undefined) ctx.tt = cs(ctx.parent).textTransform;
    if (ctx.tt !== 'none') s = transformText(s, ctx.tt);
    const last = out.length ? out[out.length - 1] : null;
    if (last !== null && last.kind === 'text') last.text += s;
    else out.push({ kind: 'text', text: s });
  }

  function visit(el, ctx, out) {
    const tag = el.localName;
    if (SKIP_TAGS.has(tag)) return;
    let inModal = ctx.inModal;
    if (ctx.modal !== null && !inModal) {
      if (el === ctx.modal) inModal = true;
      else if (!el.contains(ctx.modal) && !(el.shadowRoot && el.shadowRoot.contains(ctx.modal))) return;
    }
    const attrs = el.hasAttributes();
    if (attrs && (el.getAttribute('aria-hidden') === 'true' || el.hasAttribute('inert'))) return;
    const st = cs(el);
    const display = st.display;
    if (display === 'none') return;
    const visible = st.visibility === 'visible';
    const cursor = st.cursor;
    const I = O.interactive;

    let role = roleOf(el);
    let want = 0;
    let interactive = false;
    if (visible) {
      if (role === 'gridcell') want = 6;
      else if (INTERACTIVE.has(role)) {
        if (!(ctx.inCombo && tag === 'option')) { want = 1; interactive = true; }
      } else if (STRUCTURE_REF.has(role)) want = 1;
      else if (CELL_ROLES.has(role)) want = I && ctx.row !== null ? 0 : 2;
      else if (role === 'listitem') want = 2;
      else if (role === 'row') want = I ? 5 : 0;
      else if (role === 'image') want = ctx.inInteractive ? 0 : 4;
      if (!interactive) {
        // clickable without an interactive role
        let click = 0;
        if (attrs && (el.hasAttribute('onclick') ||
            (el.hasAttribute('tabindex') && el.tabIndex >= 0 && tag !== 'iframe' && tag !== 'body') ||
            (!ctx.editable && el.hasAttribute('contenteditable') && el.isContentEditable))) click = 1;
        else if (cursor === 'pointer' && ctx.cursor !== 'pointer' && !ctx.inInteractive && !ctx.inLabel && tag !== 'body' && tag !== 'html' && tag !== 'label') click = 3;
        if (click !== 0 && !(click === 3 && (want === 1 || want === 6))) {
          if (want !== 1 && want !== 6) want = click;
          if (click === 1) interactive = true;
          if (role === 'none' || role === 'LineBreak') role = 'generic';
        }
      }
    }
    const isFrame = tag === 'iframe' || tag === 'frame';
    let item = null;
    if (want !== 0 || (isFrame && visible) || (!I && visible && role !== 'none' && !INLINE_HOIST.has(role))) {
      item = { kind: 'el', el, role, want, ref: want !== 0, children: [], cells: role === 'row' ? [] : null };
    }
    if (ctx.row !== null && visible && (CELL_ROLES.has(role) || role === 'gridcell')) ctx.row.cells.push({ el, item });
    const target = item !== null ? item.children : out;
    const before = interactiveCount;

    // In the interactive view text is not collected: an element without element children has nothing to visit.
    const sr0 = el.shadowRoot;
    if (I && sr0 === null && el.firstElementChild === null && tag !== 'slot' && !isFrame) {
      if (item === null) return;
      if (interactive || want === 3 || want === 6) interactiveCount++;
      else if (want === 4) item.ref = nameOf(el) !== '';
      if (item.ref) out.push(item);
      return;
    }
    const cctx = {
      cursor,
      inInteractive: ctx.inInteractive || interactive || role === 'link' || role === 'button',
      inCombo: role === 'combobox',
      inLabel: ctx.inLabel || (tag === 'label' && el.control !== null),
      editable: ctx.editable || (attrs && el.hasAttribute('contenteditable') && el.isContentEditable),
      modal: ctx.modal,
      inModal,
      quiet: ctx.quiet || (!I && isNameSource(el, tag)),
      text: false,
      parent: el,
      tt: undefined,
      row: role === 'row' && item !== null ? item : (role === 'generic' || role === 'none') ? ctx.row : null,
    };

    cctx.text = !I && visible && !cctx.quiet;
    if (isFrame) {
      if (visible) frameChildren(el, cctx, item);
    } else if (tag === 'select') {
      if (role === 'listbox') visitSiblings(el.firstChild, cctx, target);
    } else if (LEAF_TAGS.has(tag) || el.namespaceURI === SVG_NS) {
      // nothing inside that we report
    } else if (tag === 'details' && !el.open) {
      for (let c = el.firstElementChild; c !== null; c = c.nextElementSibling) {
        if (c.localName === 'summary') { visit(c, cctx, target); break; }
      }
    } else if (el.firstChild !== null || sr0 !== null || tag === 'slot') {
      const sr = sr0;
      if (sr !== null) scanShadowStyles(sr);
      let cv = cvCheck ? st.contentVisibility : 'visible';
      if (cv === 'auto') {
        // content-visibility:auto content that is currently skipped (offscreen) is not rendered
        const fc = el.firstElementChild;
        if (fc !== null) {
          const d = cs(fc).display;
          if (d !== 'none' && d !== 'contents' && !fc.checkVisibility({ contentVisibilityAuto: true })) cv = 'hidden';
        }
      }
      if (cv !== 'hidden') {
        const block = !I && item === null && !isInlineDisplay(el, display);
        if (block) out.push(SEP);
        if (sr !== null) visitSiblings(sr.firstChild, cctx, target);
        else if (tag === 'slot') {
          const a = el.assignedNodes();
          if (a.length) visitList(a, cctx, target);
          else visitSiblings(el.firstChild, cctx, target);
        } else visitSiblings(el.firstChild, cctx, target);
        if (block) out.push(SEP);
      }
    }

    if (item === null) return;
    const hasInteractiveDesc = interactiveCount > before;
    if (interactive) interactiveCount++;
    if (want === 2 || want === 3 || want === 6) {
      if (hasInteractiveDesc) {
        // a clickable container (mail list row, card) stays when it has text of its own
        if (want === 3) {
          const own = preview(el, 201, true);
          item.ref = own !== '' && own.length <= 200;
        } else item.ref = false;
      } else if (want !== 2) interactiveCount++;
    } else if (want === 4) {
      item.ref = nameOf(el) !== '';
    }
    if (!item.ref && !isFrame) {
      if (I) {
        for (const c of item.children) out.push(c);
        return;
      }
      // full view: drop wrappers that carry nothing
      if (O.compact && (role === 'listitem' || role === 'paragraph') && item.children.length === 1 && item.children[0].kind === 'el' && nameOf(el) === '') {
        out.push(item.children[0]);
        return;
      }
      if (role === 'generic' || (O.compact && COMPACT_HOIST.has(role))) {
        if (nameOf(el) === '') {
          const block = !isInlineDisplay(el, display);
          if (!(role === 'generic' && !O.compact && block && countShown(item.children) > 1)) {
            if (block) out.push(SEP);
            for (const c of item.children) out.push(c);
            if (block) out.push(SEP);
            return;
          }
        }
      }
    }
    out.push(item);
  }
  const SEP = { kind: 'sep' };

  // Text that is already the name of another line (a control's label, a fieldset's legend, a table's
  // caption) is not repeated in the full view.
  function isNameSource(el, tag) {
    if (tag === 'label') {
      const c = el.control;
      return !!c && !c.hasAttribute('aria-label') && !c.hasAttribute('aria-labelledby');
    }
    if (tag === 'legend') { const p = el.parentElement; return !!p && p.localName === 'fieldset' && !p.hasAttribute('aria-label') && !p.hasAttribute('aria-labelledby'); }
    if (tag === 'caption') { const p = el.parentElement; return !!p && !p.hasAttribute('aria-label') && !p.hasAttribute('aria-labelledby'); }
    return false;
  }
  const SVG_NS = 'http://www.w3.org/2000/svg';
  const LEAF_TAGS = new Set(['textarea', 'input', 'img', 'video', 'audio', 'canvas', 'object', 'embed', 'svg', 'math']);

  function countShown(children) {
    let n = 0;
    for (const c of children) {
      if (c.kind === 'el' || c.kind === 'marker' || (c.kind === 'text' && c.text.trim())) n++;
      if (n > 1) return n;
    }
    return n;
  }

  function frameChildren(el, ctx, item) {
    let doc = null;
    try { doc = el.contentDocument; } catch (e) { doc = null; }
    if (doc && doc.documentElement) {
      const prev = pseudoCheck, prevCv = cvCheck;
      const f = styleFlags(doc);
      pseudoCheck = (f & 1) !== 0;
      cvCheck = (f & 2) !== 0;
      const fctx = Object.assign({}, ctx, { quiet: false, inLabel: false, cursor: 'auto', inInteractive: false, editable: false, modal: findModal(doc), inModal: false, row: null, inCombo: false });
      visit(doc.documentElement, fctx, item.children);
      pseudoCheck = prev;
      cvCheck = prevCv;
    } else {
      const index = frameOwners.length;
      frameOwners.push(new WeakRef(el));
      item.children.push({ kind: 'marker', index });
    }
  }

  function findModal(doc) {
    try { return doc.querySelector('dialog:modal') || null; } catch (e) { return null; }
  }

  // ---------------------------------------------------------------- emit

  function assignRef(el) {
    let id = refOf.get(el);
    if (id === undefined) {
      id = 'e' + counter++;
      refOf.set(el, id);
      byId.set(id, new WeakRef(el));
    }
    return id;
  }

  const PREVIEW_ROLES = new Set(['generic', 'listitem', 'cell', 'columnheader', 'rowheader', 'LabelText',
    'paragraph', 'alert', 'status', 'LayoutTableCell', 'LayoutTableRow', 'gridcell', 'dialog', 'alertdialog',
    'tabpanel', 'row', 'term', 'definition', 'group', 'Legend', 'image', 'blockquote', 'region', 'article',
    'figure', 'Figcaption', 'caption', 'strong', 'emphasis', 'code', 'time', 'Abbr', 'mark', 'note', 'log',
    'tooltip', 'DescriptionList', 'canvas', 'button', 'link', 'menuitem', 'tab', 'option', 'treeitem']);

  // Size budget of the running snapshot: bytes used so far, and what was left out past it.
  let used = 0;
  let omitted = null; // role -> lines left out (null while nothing was cut)

  // Adds a line within the budget; past it, counts the line's role as left out instead.
  function push(lines, line, role) {
    if (omitted === null && (O.maxBytes <= 0 || used + line.length + 1 <= O.maxBytes)) {
      lines.push(line);
      used += line.length + 1;
      return true;
    }
    if (omitted === null) omitted = Object.create(null);
    omitted[role] = (omitted[role] || 0) + 1;
    return false;
  }

  function emit(items, depth, lines, refs, frames) {
    const I = O.interactive;
    const abs = O.baseDepth + depth;
    const cut = O.maxDepth !== null && abs > O.maxDepth;
    const indent = '  '.repeat(abs);
    for (let k = 0; k < items.length; k++) {
      const it = items[k];
      const kind = it.kind;
      if (kind === 'sep') continue;
      if (kind === 'text') {
        if (cut) continue;
        const s = collapse(it.text);
        if (s) push(lines, indent + '- text: ' + esc(cap(s, 500)), 'text');
        continue;
      }
      if (kind === 'marker') {
        if (cut) continue;
        const marker = '\u0000frame:' + it.index;
        if (omitted !== null) continue; // the frame's own line was counted
        lines.push(marker);
        frames.push({ marker, index: it.index, depth: abs });
        continue;
      }
      const el = it.el;
      const role = it.role;
      const isFrame = role === 'Iframe';
      let ref = it.ref;
      let name, value = '';
      let children = it.children;
      if (isFrame) {
        if (I && !hasContent(children)) continue;
        name = cap(collapse(el.getAttribute('title') || el.getAttribute('name') || ''), 100);
      } else {
        name = cap(nameOf(el), 100);
        value = valueOf(el, role);
      }
      if (!I) {
        children = mergeText(children);
        if (children.length > 0 && children.every(isText)) {
          const txt = collapse(children.map((c) => c.text).join(' '));
          if (name && (name.includes(txt) || name.endsWith('\u2026') && txt.startsWith(name.slice(0, -1)))) children = [];
          else if (!value && txt) { value = cap(txt, 300); children = []; }
        }
        if (ref && it.want === 2 && !name && !value && children.length === 0) ref = false;
      } else if (ref) {
        if (it.want === 5) {
          if (name) ref = el.hasAttribute('aria-selected') || el.hasAttribute('aria-expanded') || el.hasAttribute('tabindex');
          else {
            value = rowPreview(it);
            if (!value) ref = false;
          }
        } else if (!name && !value && it.want === 3 && hasContent(children)) {
          value = preview(el, 100, true);
        } else if (!name && !value && PREVIEW_ROLES.has(role) && (it.want === 2 || !hasContent(children))) {
          value = preview(el, 100);
          if (!value) {
            if (it.want === 2) ref = false;
            else value = collapse(el.getAttribute('title') || '');
          }
        }
        if (!ref) { emit(children, depth, lines, refs, frames); continue; }
      }
      if (cut) continue;
      const shownRole = isFrame ? 'iframe' : role;
      if (omitted !== null) {
        // Past the budget: count what is left out; no ref is issued for a line nobody sees.
        push(lines, '', shownRole);
        emit(children, depth + 1, lines, refs, frames);
        continue;
      }
      const st = isFrame ? [] : states(el, role);
      const id = ref ? (refOf.get(el) || 'e' + counter) : null;
      if (id !== null) st.push('ref=' + id);
      let line = indent + '- ' + shownRole;
      if (name) line += ' "' + esc(name) + '"';
      if (st.length) line += ' [' + st.join(', ') + ']';
      if (value) line += ': ' + esc(collapse(value));
      if (push(lines, line, shownRole) && ref) {
        assignRef(el);
        refs.push([id, role, name]);
      }
      emit(children, depth + 1, lines, refs, frames);
    }
  }
  function isText(c) { return c.kind === 'text'; }

  function rowPreview(it) {
    const parts = [];
    let any = false;
    for (const c of it.cells) {
      if (c.item !== null && c.item.ref) continue; // shown as its own line
      const s = preview(c.el, 60);
      if (s) any = true;
      parts.push(s);
    }
    while (parts.length && parts[parts.length - 1] === '') parts.pop();
    return any ? cap(parts.join(' | '), 300) : '';
  }

  function hasContent(children) {
    for (const c of children) if (c.kind === 'el' || c.kind === 'marker') return true;
    return false;
  }

  function mergeText(children) {
    const out = [];
    let lastText = null;
    for (const c of children) {
      if (c.kind === 'text') {
        if (lastText !== null) { lastText.text += c.text; continue; }
        lastText = { kind: 'text', text: c.text };
        out.push(lastText);
        continue;
      }
      lastText = null;
      if (c.kind !== 'sep') out.push(c);
    }
    return out.filter((c) => c.kind !== 'text' || c.text.trim() !== '');
  }

  function pruneDead() {
    if (byId.size < 2048) return;
    for (const [id, w] of byId) if (!w.deref()) byId.delete(id);
  }

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
        return { ok: false, error: 'invalid_selector', message: 'invalid selector ' + JSON.stringify(o.selector) + ': ' + e.message, docToken };
      }
      if (!root) return { ok: false, error: 'not_found', message: 'no element matches selector ' + JSON.stringify(o.selector), docToken };
    } else {
      root = doc.documentElement;
    }
    resetCaches();
    O = o;
    interactiveCount = 0;
    used = 0;
    omitted = null;
    frameOwners = [];
    const sf = styleFlags(doc);
    pseudoCheck = (sf & 1) !== 0;
    cvCheck = (sf & 2) !== 0;
    activeEl = doc.activeElement;
    ownerOf = owners(doc);
    while (activeEl && activeEl.shadowRoot && activeEl.shadowRoot.activeElement) activeEl = activeEl.shadowRoot.activeElement;
    const items = [];
    try {
      if (root) {
        const modal = findModal(root.ownerDocument);
        const ctx = { cursor: 'auto', inInteractive: false, inCombo: false, inLabel: false, editable: false, quiet: false, modal,
          inModal: modal ? root === modal || modal.contains(root) : false, text: !o.interactive, parent: root, tt: undefined, row: null };
        let hiddenRoot = false;
        if (root !== root.ownerDocument.documentElement) {
          // a root inside hidden content shows nothing
          for (let p = parentEl(root); p && !hiddenRoot; p = parentEl(p)) {
            hiddenRoot = p.getAttribute('aria-hidden') === 'true' || p.hasAttribute('inert');
          }
          if (!hiddenRoot && !root.checkVisibility() && cs(root).display !== 'contents') hiddenRoot = true;
          // inherit context from ancestors
          const p = parentEl(root);
          if (p) {
            ctx.cursor = cs(p).cursor;
            ctx.editable = p.isContentEditable;
            ctx.inInteractive = !!p.closest('a[href],button,[role=button],[role=link]');
          }
        }
        if (!hiddenRoot) visit(root, ctx, items);
      }
      const lines = [], refs = [], frames = [];
      emit(items, 0, lines, refs, frames);
      let text = lines.join('\n');
      if (!text) text = o.interactive ? '(no interactive elements)' : '(empty)';
      pruneDead();
      return { ok: true, text, refs, nextRef: counter, docToken, frames, url: location.href, omitted };
    } finally {
      resetCaches();
      O = null;
      ownerOf = null;
      activeEl = null;
      omitted = null;
    }
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

  // [role, name] of an element now, as a snapshot line would show them.
  function identity(el) {
    if (!el || el.nodeType !== 1) return ['', ''];
    const pc = pseudoCheck, cc = cvCheck;
    resetCaches();
    pseudoCheck = true;
    cvCheck = true;
    ownerOf = owners(el.ownerDocument);
    try {
      const tag = el.localName;
      if (tag === 'iframe' || tag === 'frame') {
        return ['Iframe', cap(collapse(el.getAttribute('title') || el.getAttribute('name') || ''), 100)];
      }
      return [roleOf(el), cap(nameOf(el), 100)];
    } catch (e) {
      return ['', ''];
    } finally {
      pseudoCheck = pc;
      cvCheck = cc;
      ownerOf = null;
      resetCaches();
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
      return { error: 'invalid_selector', message: 'invalid selector ' + JSON.stringify(selector) + ': ' + e.message };
    }
    if (op === 'count') return { count: list.length };
    if (!list.length) return { error: 'not_found', message: 'no element matches selector ' + JSON.stringify(selector) };
    return { value: globalThis.__abx.call(list[0], op, arg) };
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

  return { snapshot, element, frameOwner, identity, differs, select, docToken };
})()
