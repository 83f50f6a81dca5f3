  // ---------------------------------------------------------------- names (accname as Chromium does it)

  function nameOf(w, el) {
    let n = w.names.get(el);
    if (n === undefined) {
      try { n = collapse(computeName(w, el, roleOf(w, el))); } catch (e) { n = ''; }
      w.names.set(el, n);
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

  function labelledByText(w, el, root) {
    const parts = [];
    for (const t of byIdRefs(el, 'aria-labelledby')) {
      const o = { root, exclude: null, inLabelledBy: true, hiddenOK: isHiddenForName(w, t), depth: 0 };
      let s;
      if (t === el) {
        s = computeName(w, el, roleOf(w, el), true);
      } else {
        s = textAlt(w, t, o);
      }
      s = collapse(s);
      if (s) parts.push(s);
    }
    return parts.join(' ');
  }

  // Tags whose name nativeName computes (from labels, alt, a legend, a caption, value, ...).
  const NATIVE_NAME_TAGS = new Set(['input', 'textarea', 'select', 'meter', 'output', 'progress', 'button', 'img',
    'fieldset', 'table', 'optgroup', 'option']);

  function computeName(w, el, role, skipLabelledBy) {
    // No attribute, no host-language name, not named from content: nothing can name it.
    if (!NAME_FROM_CONTENT.has(role) && role !== 'row' && !el.hasAttributes() && !NATIVE_NAME_TAGS.has(el.localName) &&
        el.namespaceURI !== SVG_NS) return '';
    if (!skipLabelledBy && el.hasAttribute('aria-labelledby')) {
      const s = labelledByText(w, el, el);
      if (s.trim()) return s;
    }
    const al = el.getAttribute('aria-label');
    if (al && al.trim()) return al;
    // Named as its own aria-labelledby part (`skipLabelledBy`), a control's `<label for>` does
    // not count again: Chromium names Headless UI's listbox button "Assignee Wade Cooper".
    const o = { root: el, exclude: el, inLabelledBy: false, hiddenOK: false, depth: 0, noLabels: !!skipLabelledBy };
    const nat = nativeName(w, el, role, o, false);
    if (nat !== null && (nat.trim() || finalNative(el))) return nat;
    if (NAME_FROM_CONTENT.has(role) || (role === 'row' && inGrid(w, el))) {
      const c = textFromContent(w, el, o);
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
    if (t === 'table') return el.caption !== null || el.hasAttribute('summary');
    if (t === 'input') return (el.type === 'submit' || el.type === 'reset' || el.type === 'button') && el.hasAttribute('value');
    return false;
  }

  // Rows of grids and tree grids take their name from their cells (not rows of plain tables).
  function inGrid(w, row) {
    for (let p = parentEl(w, row); p; p = parentEl(w, p)) {
      const r = roleOf(w, p);
      if (r === 'grid' || r === 'treegrid') return true;
      if (r === 'table' || r === 'LayoutTable') return false;
    }
    return false;
  }

  function defaultButtonLabel(el) {
    return el.type === 'reset' ? 'Reset' : 'Submit';
  }

  // Host-language name. Returns null when the element has none.
  function nativeName(w, el, role, o, recursive) {
    const t = el.localName;
    if (el.namespaceURI === 'http://www.w3.org/2000/svg') {
      for (const c of el.children) if (c.localName === 'title') return c.textContent;
      return null;
    }
    switch (t) {
      case 'input': {
        const type = el.type;
        if (type === 'button' || type === 'submit' || type === 'reset') {
          const lab = labelsText(w, el, o);
          if (lab) return lab;
          if (el.hasAttribute('value')) return el.value;
          return type === 'button' ? null : defaultButtonLabel(el);
        }
        if (type === 'image') {
          const lab = labelsText(w, el, o);
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
          const lab = labelsText(w, el, o);
          if (lab) return lab;
          return 'Choose File';
        }
        return labelsText(w, el, o);
      }
      case 'textarea': case 'select': case 'meter': case 'output': case 'progress': case 'button':
        return labelsText(w, el, o);
      case 'img': {
        const alt = el.getAttribute('alt');
        if (alt !== null) return alt;
        return null;
      }
      case 'fieldset': {
        for (const c of el.children) if (c.localName === 'legend') return textFromContent(w, c, o);
        return null;
      }
      case 'table': {
        // As Chromium: a caption ends it, even empty or hidden (then ''); else a summary attribute, even blank.
        const c = el.caption;
        if (c) return !o.hiddenOK && isHiddenForName(w, c) ? '' : textFromContent(w, c, o);
        return el.getAttribute('summary');
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

  function labelsText(w, el, o) {
    const labels = o.noLabels ? null : el.labels;
    if (!labels || !labels.length) return '';
    const parts = [];
    for (const l of labels) {
      if (isHiddenForName(w, l)) continue;
      if (l.getAttribute('aria-label') && l.getAttribute('aria-label').trim()) { parts.push(l.getAttribute('aria-label')); continue; }
      const s = collapse(textFromContent(w, l, { root: o.root, exclude: el, inLabelledBy: o.inLabelledBy, hiddenOK: false, depth: o.depth + 1 }));
      if (s) parts.push(s);
    }
    return parts.join(' ');
  }

  function isHiddenForName(w, el) {
    if (!el.isConnected) return true;
    for (let p = el; p; p = parentEl(w, p)) {
      if (p.getAttribute('aria-hidden') === 'true') return true;
    }
    const s = cs(w, el);
    if (s.display === 'none' || s.visibility !== 'visible') return true;
    return !el.checkVisibility() && s.display !== 'contents';
  }

  function isHiddenChild(w, el) {
    if (el.getAttribute('aria-hidden') === 'true') return true;
    const s = cs(w, el);
    const d = s.display;
    if (d === 'none') return true;
    if (s.visibility !== 'visible') return 'vis';
    return false;
  }

  // Text alternative of a node met while computing another node's name (recursion).
  function textAlt(w, el, o) {
    if (o.depth > 40) return '';
    if (!o.inLabelledBy && el.hasAttribute('aria-labelledby')) {
      const s = labelledByText(w, el, o.root);
      if (s.trim()) return s;
    }
    const role = roleOf(w, el);
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
    const nat = nativeName(w, el, role, o, true);
    if (nat !== null && (nat.trim() || finalNative(el))) return nat;
    if (el.localName === 'input' && (el.type === 'submit' || el.type === 'reset')) return defaultButtonLabel(el);
    if (el.localName === 'svg' && el.namespaceURI === SVG_NS) {
      // an inline SVG without a title contributes its <text>
      let t = '';
      for (const x of el.querySelectorAll('text')) t += ' ' + x.textContent;
      return t;
    }
    if (!NO_CONTENT_RECURSE.has(role) || o.inLabelledBy) {
      const c = textFromContent(w, el, { root: o.root, exclude: o.exclude, inLabelledBy: o.inLabelledBy, hiddenOK: o.hiddenOK, depth: o.depth + 1 });
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
    const sr = shadowOf(el);
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

  function pseudoText(w, el, which) {
    if (el.localName === 'q') return { text: which === '::before' ? '\u201c' : '\u201d', block: false };
    if (!w.pseudoCheck) return null;
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

  function textFromContent(w, el, o) {
    let out = '';
    const push = (s, block) => {
      if (!s) return;
      if (block) out += ' ' + s + ' ';
      else out += s;
    };
    const before = o.invisible ? null : pseudoText(w, el, '::before');
    if (before) push(before.text, before.block);
    const tt = o.hiddenOK ? 'none' : textTransformOf(w, el);
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
        const h = isHiddenChild(w, n);
        if (h === true) continue;
        if (h === 'vis') {
          // invisible itself, visible descendants still count
          const c = textFromContent(w, n, { root: o.root, exclude: o.exclude, inLabelledBy: o.inLabelledBy, hiddenOK: false, depth: o.depth + 1, invisible: true });
          push(c, false);
          continue;
        }
        inline = isInlineDisplay(n, cs(w, n).display);
      } else {
        inline = !REPLACED.has(ln) && ln !== 'div' && ln !== 'p' && ln !== 'li' && ln !== 'br';
      }
      if (ln === 'br' || ln === 'wbr') { out += ' '; continue; }
      if (ln === 'rt' || ln === 'rp') continue;
      const s = textAlt(w, n, { root: o.root, exclude: o.exclude, inLabelledBy: o.inLabelledBy, hiddenOK: o.hiddenOK, depth: o.depth + 1 });
      push(s, !inline);
    }
    const after = o.invisible ? null : pseudoText(w, el, '::after');
    if (after) push(after.text, after.block);
    return out;
  }

