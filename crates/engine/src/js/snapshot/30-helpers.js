  // ---------------------------------------------------------------- helpers

  const WS = /[\s\u00a0\u200b]+/g;
  const PUA = /[\ue000-\uf8ff]/g; // icon-font glyphs: meaningless as text
  // Whitespace other than single inner spaces, or icon-font glyphs: what collapse changes.
  const NEEDS_COLLAPSE = /[^\S ]|[\u200b\ue000-\uf8ff]|  |^ | $/;
  function collapse(s) { return NEEDS_COLLAPSE.test(s) ? s.replace(PUA, '').replace(WS, ' ').trim() : s; }
  // Cut to n code points (not UTF-16 units, so no surrogate pair is split), marking the cut with '…'.
  function cap(s, n) {
    if (s.length <= n) return s;
    const cps = Array.from(s);
    return cps.length <= n ? s : cps.slice(0, n - 1).join('').trimEnd() + '\u2026';
  }
  const NEEDS_ESC = /["\\]/;
  function esc(s) { return NEEDS_ESC.test(s) ? s.replace(/\\/g, '\\\\').replace(/"/g, '\\"') : s; }

  function explicitRole(el) {
    const r = el.hasAttributes() ? el.getAttribute('role') : null;
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

  function parentEl(w, el) {
    // accessibility parent: aria-owns owner, slot for slotted nodes, host for shadow root children
    const ownerOf = w.ownerOf;
    if (ownerOf !== null) { const o = ownerOf.get(el); if (o !== undefined) return o; }
    if (el.assignedSlot) return el.assignedSlot;
    const p = el.parentNode;
    if (!p) return null;
    if (p.nodeType === 11) return p.host || null;
    return p.nodeType === 1 ? p : null;
  }

  // Nearest ancestor role ignoring generic/none wrappers.
  function contextRole(w, el) {
    for (let p = parentEl(w, el); p; p = parentEl(w, p)) {
      const r = roleOf(w, p);
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

  function computeDataTable(w, t) {
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
    const ts = cs(w, t);
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
        const s = cs(w, cell);
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
        if (r < 5 && r === alt.length) alt.push(cs(w, rows[r]).backgroundColor);
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

  // The role a table gives its rows and cells: 'none', 'grid', 'treegrid', 'table' or
  // 'LayoutTable' (cached per run: every cell asks).
  function tableRoleOf(w, t) {
    let r = w.tableRoles.get(t);
    if (r === undefined) {
      const er = explicitRole(t);
      r = er === 'none' ? 'none' : er === 'grid' || er === 'treegrid' ? er : computeDataTable(w, t) ? 'table' : 'LayoutTable';
      w.tableRoles.set(t, r);
    }
    return r;
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

