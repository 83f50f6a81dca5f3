// agentbrowser element operations. ONE function declaration, called with CDP
// Runtime.callFunctionOn on a ref's element (`this`) in the engine's isolated world:
//   function (op, arg) -> a JSON-able result, or an Element for the ops that find one.
function (op, arg) {
  'use strict';
  const el = this;

  function deepActive(doc) {
    let a = doc.activeElement;
    while (a && a.shadowRoot && a.shadowRoot.activeElement) a = a.shadowRoot.activeElement;
    return a;
  }

  function describe(node) {
    if (!node || node.nodeType !== 1) return String(node);
    let s = node.localName;
    if (node.id) s += '#' + node.id;
    const cls = (node.getAttribute('class') || '').trim().split(/\s+/).filter(Boolean).slice(0, 2);
    if (cls.length) s += '.' + cls.join('.');
    const role = node.getAttribute('role');
    if (role) s += '[role=' + role + ']';
    const text = (node.innerText || node.textContent || '').replace(/\s+/g, ' ').trim().slice(0, 40);
    if (text) s += ' "' + text + '"';
    return s;
  }

  function isDisabled(e) {
    try { if (e.matches(':disabled')) return true; } catch (_) { /* not a form element */ }
    const a = e.closest('[aria-disabled]');
    return !!a && a.getAttribute('aria-disabled') === 'true';
  }

  function isVisible(e) {
    if (!e.isConnected) return false;
    if (typeof e.checkVisibility === 'function' &&
        !e.checkVisibility({ visibilityProperty: true, opacityProperty: false, contentVisibilityAuto: true })) return false;
    const rects = e.getClientRects();
    for (const r of rects) if (r.width > 0 && r.height > 0) return true;
    return false;
  }

  // Offset of the element's frame within the top frame this world can reach (same-origin frames).
  function frameOffset(e) {
    let x = 0, y = 0;
    let win = e.ownerDocument.defaultView;
    while (win && win.frameElement) {
      const fe = win.frameElement;
      const r = fe.getBoundingClientRect();
      x += r.left + fe.clientLeft;
      y += r.top + fe.clientTop;
      win = fe.ownerDocument.defaultView;
    }
    return { x, y };
  }

  function inViewport(r, win) {
    return r.bottom > 0 && r.right > 0 && r.top < win.innerHeight && r.left < win.innerWidth;
  }

  function hitsTarget(hit, target) {
    for (let n = hit; n; ) {
      if (n === target) return true;
      if (n.parentNode) n = n.parentNode;
      else if (n.host) n = n.host; // leave a shadow root
      else break;
    }
    // A label that activates the control counts as the control.
    const lab = hit && hit.closest && hit.closest('label');
    return !!lab && lab.control === target;
  }

  function probe(e, opts) {
    if (!e.isConnected) return { state: 'gone' };
    if (opts && opts.enabled && isDisabled(e)) return { state: 'disabled' };
    const win = e.ownerDocument.defaultView;
    let rect = null;
    for (const r of e.getClientRects()) if (r.width > 0 && r.height > 0) { rect = r; break; }
    if (!rect || !isVisible(e)) return { state: 'hidden' };
    if (!inViewport(rect, win)) {
      e.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' });
      rect = null;
      for (const r of e.getClientRects()) if (r.width > 0 && r.height > 0) { rect = r; break; }
      if (!rect) return { state: 'hidden' };
    }
    const left = Math.max(rect.left, 0), right = Math.min(rect.right, win.innerWidth);
    const top = Math.max(rect.top, 0), bottom = Math.min(rect.bottom, win.innerHeight);
    if (right <= left || bottom <= top) return { state: 'hidden' };
    const x = (left + right) / 2, y = (top + bottom) / 2;
    if (opts && opts.hit) {
      const root = e.getRootNode();
      const hitRoot = root && typeof root.elementFromPoint === 'function' ? root : e.ownerDocument;
      const hit = hitRoot.elementFromPoint(x, y);
      if (hit && !hitsTarget(hit, e)) return { state: 'covered', by: describe(hit) };
    }
    const off = frameOffset(e);
    return { state: 'ok', x: x + off.x, y: y + off.y };
  }

  const TEXT_INPUTS = new Set(['', 'text', 'search', 'email', 'url', 'tel', 'password', 'number']);
  const DIRECT_INPUTS = new Set(['date', 'time', 'datetime-local', 'month', 'week', 'color', 'range']);

  function setNativeValue(e, value) {
    const proto = e instanceof HTMLTextAreaElement ? HTMLTextAreaElement.prototype
      : e instanceof HTMLSelectElement ? HTMLSelectElement.prototype : HTMLInputElement.prototype;
    const desc = Object.getOwnPropertyDescriptor(proto, 'value');
    if (desc && desc.set) desc.set.call(e, value); else e.value = value;
  }

  function fire(e, type) {
    e.dispatchEvent(new Event(type, { bubbles: true, composed: type === 'input' }));
  }

  function editKind(e) {
    if (e instanceof HTMLTextAreaElement) return e.readOnly ? 'readonly' : 'text';
    if (e instanceof HTMLInputElement) {
      const t = (e.getAttribute('type') || '').toLowerCase();
      if (e.readOnly) return 'readonly';
      if (TEXT_INPUTS.has(t) || !['checkbox', 'radio', 'button', 'submit', 'reset', 'image', 'file', 'hidden'].includes(t) && !DIRECT_INPUTS.has(t)) return 'text';
      if (DIRECT_INPUTS.has(t)) return 'direct';
      return 'none:' + t;
    }
    if (e.isContentEditable) return 'editable';
    return 'none:' + e.localName;
  }

  function checkedState(e) {
    if (e instanceof HTMLInputElement && (e.type === 'checkbox' || e.type === 'radio')) return e.indeterminate ? 'mixed' : e.checked;
    const a = e.getAttribute('aria-checked') ?? e.getAttribute('aria-pressed') ?? e.getAttribute('aria-selected');
    if (a === 'true') return true;
    if (a === 'false') return false;
    if (a === 'mixed') return 'mixed';
    return null;
  }

  function selectAll(e) {
    if (e instanceof HTMLInputElement || e instanceof HTMLTextAreaElement) {
      try { e.select(); } catch (_) { /* some types cannot select */ }
      try { e.setSelectionRange(0, e.value.length); } catch (_) { /* number/email */ }
    } else {
      const sel = e.ownerDocument.getSelection();
      const range = e.ownerDocument.createRange();
      range.selectNodeContents(e);
      sel.removeAllRanges();
      sel.addRange(range);
    }
  }

  function optionLabel(o) {
    return (o.getAttribute('aria-label') || o.label || o.textContent || '').replace(/\s+/g, ' ').trim();
  }

  switch (op) {
    case 'probe': return probe(el, arg);
    case 'scroll': {
      if (!el.isConnected) return { state: 'gone' };
      el.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' });
      return { state: isVisible(el) ? 'ok' : 'hidden' };
    }
    case 'editKind': return editKind(el);
    case 'focusSelect': {
      el.focus();
      selectAll(el);
      return deepActive(el.ownerDocument) === el || el.contains(deepActive(el.ownerDocument));
    }
    case 'focus': {
      el.focus();
      const a = deepActive(el.ownerDocument);
      return a === el || (!!a && el.contains(a));
    }
    case 'setValue': {
      el.focus();
      if (el.isContentEditable && !(el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement)) el.textContent = arg;
      else setNativeValue(el, arg);
      fire(el, 'input');
      fire(el, 'change');
      return true;
    }
    case 'deleteSelection': {
      if (!el.ownerDocument.execCommand('delete')) {
        if (el.isContentEditable && !(el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement)) el.textContent = '';
        else setNativeValue(el, '');
        fire(el, 'input');
      }
      return true;
    }
    case 'fillPrepare': {
      // One round trip for fill/clear: editable? actionable? then focus and select all.
      const kind = editKind(el);
      if (kind !== 'text' && kind !== 'editable' && kind !== 'direct') return { kind };
      const p = probe(el, { enabled: true });
      if (p.state !== 'ok') return Object.assign({ kind }, p);
      if (kind === 'direct') return { kind, state: 'ok' };
      el.focus();
      selectAll(el);
      const a = deepActive(el.ownerDocument);
      return { kind, state: 'ok', focused: a === el || (!!a && el.contains(a)) };
    }
    case 'change': {
      fire(el, 'change');
      return (el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement) ? el.value : el.innerText;
    }
    case 'value': {
      if (el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement || el instanceof HTMLSelectElement) return el.value;
      if (el.isContentEditable) return el.innerText;
      const role = el.getAttribute('role');
      if (role && el.hasAttribute('aria-valuenow')) return el.getAttribute('aria-valuenow');
      return { error: 'not_input', what: describe(el) };
    }
    case 'selectNative': {
      if (!(el instanceof HTMLSelectElement)) return { error: 'not_select' };
      const opts = Array.from(el.options);
      let o = opts.find((x) => x.value === arg) || opts.find((x) => optionLabel(x) === arg) ||
        opts.find((x) => optionLabel(x).toLowerCase() === String(arg).toLowerCase());
      if (!o) return { error: 'no_option', options: opts.slice(0, 30).map(optionLabel) };
      if (o.disabled) return { error: 'disabled_option', label: optionLabel(o) };
      if (!el.multiple) el.value = o.value; else o.selected = true;
      fire(el, 'input');
      fire(el, 'change');
      return { ok: true, label: optionLabel(o), value: o.value };
    }
    case 'findOption': {
      // ARIA listbox/combobox: the options it owns or controls, or its descendants.
      const doc = el.ownerDocument;
      const scopes = [el];
      for (const attr of ['aria-controls', 'aria-owns']) {
        for (const id of (el.getAttribute(attr) || '').split(/\s+/).filter(Boolean)) {
          const t = doc.getElementById(id);
          if (t) scopes.push(t);
        }
      }
      const seen = new Set(), all = [];
      for (const s of scopes) for (const o of s.querySelectorAll('[role=option]')) if (!seen.has(o)) { seen.add(o); all.push(o); }
      const want = String(arg);
      const match = all.find((o) => (o.getAttribute('data-value') || o.getAttribute('value') || o.id) === want) ||
        all.find((o) => optionLabel(o) === want) || all.find((o) => optionLabel(o).toLowerCase() === want.toLowerCase());
      if (match) return match;
      return JSON.stringify({ error: 'no_option', options: all.slice(0, 30).map(optionLabel) });
    }
    case 'expanded': return el.getAttribute('aria-expanded') === 'true';
    case 'checked': return checkedState(el);
    case 'text': return el.textContent;
    case 'innerText': return el.innerText !== undefined ? el.innerText : el.textContent;
    case 'attr': return el.getAttribute(arg);
    case 'visible': return isVisible(el);
    case 'enabled': return !isDisabled(el);
    case 'describe': return describe(el);
    default: throw new Error('unknown op ' + op);
  }
}
