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

  // The ref el has, or (a peek run) the one this run numbered it with; undefined when none.
  function refIn(w, el) {
    const id = refOf.get(el);
    return id !== undefined || !w.peek ? id : w.peek.get(el);
  }
  // The ref the next new element gets: the module's counter, or (a peek run) the run's own.
  function nextRefIn(w) { return 'e' + (w.peek ? w.next : counter); }
  // Gives el its ref: for the life of the document, or (a peek run, which changes no state of
  // the document's refs) for this run only, numbered as a real run now would number it.
  function issueRef(w, el) {
    if (!w.peek) return assignRef(el);
    let id = refIn(w, el);
    if (id === undefined) {
      id = 'e' + w.next++;
      w.peek.set(el, id);
    }
    return id;
  }

  const PREVIEW_ROLES = new Set(['generic', 'listitem', 'cell', 'columnheader', 'rowheader', 'LabelText',
    'paragraph', 'alert', 'status', 'LayoutTableCell', 'LayoutTableRow', 'gridcell', 'dialog', 'alertdialog',
    'tabpanel', 'row', 'term', 'definition', 'group', 'Legend', 'image', 'blockquote', 'region', 'article',
    'figure', 'Figcaption', 'caption', 'strong', 'emphasis', 'code', 'time', 'Abbr', 'mark', 'note', 'log',
    'tooltip', 'DescriptionList', 'canvas', 'button', 'link', 'menuitem', 'tab', 'option', 'treeitem']);

  // Adds a line to w.lines within the size budget (w.used bytes so far of w.opt.maxBytes); past it,
  // counts the line's role in w.omitted as left out instead.
  function push(w, line, role) {
    const maxBytes = w.opt.maxBytes;
    if (w.omitted === null && (maxBytes <= 0 || w.used + line.length + 1 <= maxBytes)) {
      w.lines.push(line);
      w.used += line.length + 1;
      return true;
    }
    if (w.omitted === null) w.omitted = Object.create(null);
    w.omitted[role] = (w.omitted[role] || 0) + 1;
    return false;
  }

  // Turns the walk's items into w.lines, w.refs and w.frames.
  function emit(w, items, depth) {
    const opt = w.opt;
    const I = opt.interactive;
    const abs = opt.baseDepth + depth;
    const cut = opt.maxDepth !== null && abs > opt.maxDepth;
    const indent = '  '.repeat(abs);
    for (let k = 0; k < items.length; k++) {
      const it = items[k];
      const kind = it.kind;
      if (kind === 'sep') continue;
      if (kind === 'text') {
        if (cut) continue;
        const s = collapse(it.text);
        if (s) push(w, indent + '- text: ' + esc(cap(s, 500)), 'text');
        continue;
      }
      if (kind === 'marker') {
        if (cut) continue;
        const marker = '\u0000frame:' + it.index;
        if (w.omitted !== null) continue; // the frame's own line was counted
        w.lines.push(marker);
        w.frames.push({ marker, index: it.index, depth: abs });
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
        name = cap(nameOf(w, el), 100);
        value = valueOf(w, el, role);
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
            value = rowPreview(w, it);
            if (!value) ref = false;
          }
        } else if (!name && !value && (it.want === 3 || it.want === 7) && hasContent(children)) {
          value = preview(w, el, 100, true);
        } else if (!name && !value && PREVIEW_ROLES.has(role) && (it.want === 2 || !hasContent(children))) {
          value = preview(w, el, 100);
          if (!value) {
            if (it.want === 2) ref = false;
            else value = collapse(el.getAttribute('title') || '');
          }
        }
        if (!ref) { emit(w, children, depth); continue; }
      }
      if (cut) continue;
      const shownRole = isFrame ? 'iframe' : role;
      if (w.omitted !== null) {
        // Past the budget: count what is left out; no ref is issued for a line nobody sees.
        push(w, '', shownRole);
        emit(w, children, depth + 1);
        continue;
      }
      const st = isFrame ? [] : states(w, el, role);
      const id = ref ? (refIn(w, el) || nextRefIn(w)) : null;
      if (id !== null) st.push('ref=' + id);
      if (opt.boxOrigin !== null) st.push('box=' + boxOf(w, el));
      let line = indent + '- ' + shownRole;
      if (name) line += ' "' + esc(name) + '"';
      if (st.length) line += ' [' + st.join(', ') + ']';
      if (value) line += ': ' + esc(collapse(value));
      if (push(w, line, shownRole) && ref) {
        issueRef(w, el);
        w.refs.push(id + '\t' + role + '\t' + name);
      }
      emit(w, children, depth + 1);
    }
  }
  function isText(c) { return c.kind === 'text'; }

  // `x,y,width,height` of el's border box (getBoundingClientRect, rounded to integers) in the
  // top-level viewport: shifted by the frames walked in place between el and this world's
  // window, and by where the engine says this window is (opt.boxOrigin). Not clipped.
  function boxOf(w, el) {
    const r = el.getBoundingClientRect();
    const o = winOrigin(w, el.ownerDocument.defaultView);
    const b = w.opt.boxOrigin;
    return [r.x + o[0] + b[0], r.y + o[1] + b[1], r.width, r.height].map((v) => Math.round(v) || 0).join(',');
  }

  // Where the top-left corner of frame window `win` (walked in place) is in this world's
  // window, in CSS pixels: its <iframe>'s content box, up through the frames above it; kept per
  // window for the run.
  function winOrigin(w, win) {
    if (!win || win === window) return [0, 0];
    const known = w.winOrigins.get(win);
    if (known) return known;
    let fe = null;
    try { fe = win.frameElement; } catch (e) { fe = null; }
    let o = [0, 0];
    if (fe) {
      const up = winOrigin(w, fe.ownerDocument.defaultView);
      const fr = fe.getBoundingClientRect(), st = cs(w, fe);
      o = [up[0] + fr.left + fe.clientLeft + (parseFloat(st.paddingLeft) || 0),
        up[1] + fr.top + fe.clientTop + (parseFloat(st.paddingTop) || 0)];
    }
    w.winOrigins.set(win, o);
    return o;
  }

  function rowPreview(w, it) {
    const parts = [];
    let any = false;
    for (const c of it.cells) {
      if (c.item !== null && c.item.ref) continue; // shown as its own line
      const s = preview(w, c.el, 60);
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

  // Drops the refs of collected elements from byId once it doubled since the last pass (amortized:
  // a page with thousands of live refs is not scanned on every run).
  let pruneAt = 2048;
  function pruneDead() {
    if (byId.size < pruneAt) return;
    for (const [id, w] of byId) if (!w.deref()) byId.delete(id);
    pruneAt = Math.max(2048, byId.size * 2);
  }

