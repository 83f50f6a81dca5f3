  // ---------------------------------------------------------------- states and values

  const FORM_TAGS = new Set(['input', 'select', 'textarea', 'button', 'option', 'optgroup', 'fieldset']);
  function states(w, el, role) {
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
    if (t === 'option' ? el.selected && roleOf(w, el) === 'option' : aria('aria-selected') === 'true') st.push('selected');
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
    if (el === w.activeEl && t !== 'body') st.push('focused');
    if (w.opt.urls && role === 'link') {
      const h = el.href;
      if (h) st.push('url=' + (typeof h === 'string' ? h : h.baseVal));
    }
    return st;
  }


  function valueOf(w, el, role) {
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
        if (role === 'textbox' || role === 'searchbox' || role === 'combobox') return preview(w, el, 120);
        return '';
      }
      default: return '';
    }
  }

  // Visible text of an element (for nameless ref'd nodes in interactive mode), capped.
  function preview(w, el, max, skipInteractive) {
    const f = el.firstChild;
    if (f !== null && f === el.lastChild && f.nodeType === 3 && shadowOf(el) === null && el.localName !== 'slot') {
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
        if (isHiddenChild(w, c) !== false) continue;
        if (c.localName === 'img') { const a = c.getAttribute('alt'); if (a) { parts.push(' ' + a + ' '); len += a.length; } continue; }
        const ln = c.localName;
        if (ln === 'input' || ln === 'textarea' || ln === 'select' || ln === 'option') continue;
        if (ln === 'br') { parts.push(' '); continue; }
        if (skipInteractive && (INTERACTIVE.has(roleOf(w, c)) || refIn(w, c) !== undefined)) continue;
        const d = cs(w, c).display;
        const blk = !isInlineDisplay(c, d);
        if (blk) parts.push(' ');
        walkP(c);
        if (blk) parts.push(' ');
      }
    };
    walkP(el);
    return cap(collapse(parts.join('')), max);
  }

