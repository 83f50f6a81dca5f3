  // ---------------------------------------------------------------- the walk

  // Items built by the walk:
  //   {kind: 'el', el, role, want, ref, children, cells}  an element that may become a line
  //   {kind: 'text', text} | {kind: 'sep'} | {kind: 'marker', index}
  // want: 0 no ref, 1 ref, 2 content (ref when it holds no interactive descendant and has text),
  //       3 cursor:pointer heuristic (ref when it holds no interactive descendant), 4 image (ref when named),
  //       5 table row in interactive mode (ref when its cells have text; the cells become its value),
  //       6 grid cell, 7 a click-like listener of its own (ref when it holds no interactive
  //       descendant and at most 200 characters of text: a control, not a delegating container)
  const CELL_ROLES = new Set(['cell', 'columnheader', 'rowheader']);

  function visitSafe(w, n, ctx, out) {
    try { visit(w, n, ctx, out); } catch (e) { /* a node that throws is left out, the walk goes on */ }
  }
  function visitSiblings(w, first, ctx, out) {
    for (let n = first; n !== null; n = n.nextSibling) {
      const nt = n.nodeType;
      if (nt === 1) visitSafe(w, n, ctx, out);
      else if (nt === 3 && ctx.text) pushText(w, n, ctx, out);
    }
  }
  function visitList(w, list, ctx, out) {
    for (let i = 0; i < list.length; i++) {
      const n = list[i];
      const nt = n.nodeType;
      if (nt === 1) visitSafe(w, n, ctx, out);
      else if (nt === 3 && ctx.text) pushText(w, n, ctx, out);
    }
  }
  // text-transform of ctx.parent (read when the walk did not take it from its parent).
  function inheritedTT(w, ctx) {
    if (ctx.tt === undefined) ctx.tt = textTransformOf(w, ctx.parent);
    return ctx.tt;
  }
  // An element's text-transform: what the walk took from its parent, else read (and kept).
  function textTransformOf(w, el) {
    let tt = w.tts.get(el);
    if (tt === undefined) {
      tt = cs(w, el).textTransform;
      w.tts.set(el, tt);
    }
    return tt;
  }
  function pushText(w, n, ctx, out) {
    let s = n.data;
    if (!s) return;
    const tt = inheritedTT(w, ctx);
    if (tt !== 'none') s = transformText(s, tt);
    const last = out.length ? out[out.length - 1] : null;
    if (last !== null && last.kind === 'text') last.text += s;
    else out.push({ kind: 'text', text: s });
  }

  function visit(w, el, ctx, out) {
    const tag = el.localName;
    if (SKIP_TAGS.has(tag)) return;
    if (hlHosts.size !== 0 && hlHosts.has(el)) return; // a highlight's overlay (85-highlight.js)
    let inModal = ctx.inModal;
    if (ctx.modal !== null && !inModal) {
      if (el === ctx.modal) inModal = true;
      else if (!el.contains(ctx.modal) && !(shadowOf(el) && shadowOf(el).contains(ctx.modal))) return;
    }
    const attrs = el.hasAttributes();
    if (attrs && (el.getAttribute('aria-hidden') === 'true' || el.hasAttribute('inert'))) return;
    const st = cs(w, el);
    const display = st.display;
    if (display === 'none') return;
    const sr0 = shadowOf(el);
    if (!w.mayHostClosed && (sr0 !== null ? sr0.mode === 'closed' : tag.indexOf('-') >= 0 ||
        (el.firstChild === null && BOX_HOSTS.has(tag) && hasBox(el)))) w.mayHostClosed = true;
    // Inherited values are the parent's unless the element may set them itself (see declaredIn).
    const d = w.declared;
    const own = ctx.inShadow || sr0 !== null || (attrs && el.hasAttribute('style'));
    const visible = own || d[1] === null || d[1].has(el) ? st.visibility === 'visible' : ctx.visible;
    const cursor = own || d[0] === null || d[0].has(el) || INHERITED_UA[0].has(tag) ? st.cursor : ctx.cursor;
    const I = w.opt.interactive;

    let role = roleOf(w, el);
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
        else if (w.listened !== null && w.listened.has(el) && !ctx.inInteractive && !ctx.inLabel && tag !== 'body' && tag !== 'html' && tag !== 'label') click = 7;
        if (click !== 0 && !((click === 3 || click === 7) && (want === 1 || want === 6))) {
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
    const before = w.interactiveCount;

    // In the interactive view text is not collected: an element without element children has nothing to visit.
    if (I && sr0 === null && el.firstElementChild === null && tag !== 'slot' && !isFrame) {
      if (item === null) return;
      if (want === 7) item.ref = preview(w, el, 201, true).length <= 200;
      if (interactive || want === 3 || want === 6 || (want === 7 && item.ref)) w.interactiveCount++;
      else if (want === 4) item.ref = nameOf(w, el) !== '';
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
      // (text-transform only matters where text is collected: the full view)
      tt: I || own || d[2] === null || d[2].has(el) || INHERITED_UA[2].has(tag) ? undefined : inheritedTT(w, ctx),
      visible,
      inShadow: ctx.inShadow || sr0 !== null,
      row: role === 'row' && item !== null ? item : (role === 'generic' || role === 'none') ? ctx.row : null,
    };

    cctx.text = !I && visible && !cctx.quiet;
    if (cctx.tt !== undefined) w.tts.set(el, cctx.tt);
    if (isFrame) {
      if (visible) frameChildren(w, el, cctx, item);
    } else if (tag === 'select') {
      if (role === 'listbox') visitSiblings(w, el.firstChild, cctx, target);
    } else if (LEAF_TAGS.has(tag) || el.namespaceURI === SVG_NS) {
      // nothing inside that we report
    } else if (tag === 'details' && !el.open) {
      for (let c = el.firstElementChild; c !== null; c = c.nextElementSibling) {
        if (c.localName === 'summary') { visit(w, c, cctx, target); break; }
      }
    } else if (el.firstChild !== null || sr0 !== null || tag === 'slot') {
      const sr = sr0;
      if (sr !== null) scanShadowStyles(w, sr);
      let cv = w.cvCheck ? st.contentVisibility : 'visible';
      if (cv === 'auto') {
        // content-visibility:auto content that is currently skipped (offscreen) is not rendered
        const fc = el.firstElementChild;
        if (fc !== null) {
          const d = cs(w, fc).display;
          if (d !== 'none' && d !== 'contents' && !fc.checkVisibility({ contentVisibilityAuto: true })) cv = 'hidden';
        }
      }
      if (cv !== 'hidden') {
        const block = !I && item === null && !isInlineDisplay(el, display);
        if (block) out.push(SEP);
        if (sr !== null) visitSiblings(w, sr.firstChild, cctx, target);
        else if (tag === 'slot') {
          const a = el.assignedNodes();
          if (a.length) visitList(w, a, cctx, target);
          else visitSiblings(w, el.firstChild, cctx, target);
        } else visitSiblings(w, el.firstChild, cctx, target);
        if (block) out.push(SEP);
      }
    }

    if (item === null) return;
    const hasInteractiveDesc = w.interactiveCount > before;
    if (interactive) w.interactiveCount++;
    if (want === 2 || want === 3 || want === 6) {
      if (hasInteractiveDesc) {
        // a clickable container (mail list row, card) stays when it has text of its own
        if (want === 3) {
          const own = preview(w, el, 201, true);
          item.ref = own !== '' && own.length <= 200;
        } else item.ref = false;
      } else if (want !== 2) w.interactiveCount++;
    } else if (want === 7) {
      item.ref = !hasInteractiveDesc && preview(w, el, 201, true).length <= 200;
      if (item.ref) w.interactiveCount++;
    } else if (want === 4) {
      item.ref = nameOf(w, el) !== '';
    }
    if (!item.ref && !isFrame) {
      if (I) {
        for (const c of item.children) out.push(c);
        return;
      }
      // full view: drop wrappers that carry nothing
      if (w.opt.compact && (role === 'listitem' || role === 'paragraph') && item.children.length === 1 && item.children[0].kind === 'el' && nameOf(w, el) === '') {
        out.push(item.children[0]);
        return;
      }
      if (role === 'generic' || (w.opt.compact && COMPACT_HOIST.has(role))) {
        if (nameOf(w, el) === '') {
          const block = !isInlineDisplay(el, display);
          if (!(role === 'generic' && !w.opt.compact && block && countShown(item.children) > 1)) {
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

  // The signal that the document may hold a closed shadow root the engine has not handed over
  // (see snapshot's `pierced`): a closed root already known, a custom element (a name with `-`)
  // without an open root, or an element that can host a shadow root, has no child node and
  // still draws a box (its content comes from somewhere). A closed root on an element whose
  // light children are all unslotted and that has none of these marks is not found.
  const BOX_HOSTS = new Set(['article', 'aside', 'blockquote', 'div', 'footer', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6',
    'header', 'main', 'nav', 'p', 'section', 'span']);
  function hasBox(el) {
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.height > 0;
  }

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

  function frameChildren(w, el, ctx, item) {
    let doc = null;
    try { doc = el.contentDocument; } catch (e) { doc = null; }
    if (doc && doc.documentElement) {
      const prev = w.pseudoCheck, prevCv = w.cvCheck, prevDeclared = w.declared;
      const si = styleInfo(doc);
      w.pseudoCheck = (si.f & 1) !== 0;
      w.cvCheck = (si.f & 2) !== 0;
      w.declared = declaredIn(doc, si);
      // the frame's root inherits nothing: initial values
      const fctx = Object.assign({}, ctx, { quiet: false, inLabel: false, cursor: 'auto', inInteractive: false, editable: false, modal: findModal(doc), inModal: false, row: null, inCombo: false,
        visible: true, tt: 'none', inShadow: false });
      visit(w, doc.documentElement, fctx, item.children);
      w.pseudoCheck = prev;
      w.cvCheck = prevCv;
      w.declared = prevDeclared;
    } else {
      const index = w.frameOwners.length;
      w.frameOwners.push(new WeakRef(el));
      item.children.push({ kind: 'marker', index });
    }
  }

  function findModal(doc) {
    try { return doc.querySelector('dialog:modal') || null; } catch (e) { return null; }
  }

