// agentbrowser: the active tab's rendered DOM as HTML, for `read`. A function expression called
// with the largest length in characters; runs in the engine's isolated world. The composed tree
// is serialized: an open shadow root in place of its host's children (a slot replaced by what
// is assigned to it), a same-origin frame's body in place of the frame; scripts, styles and
// elements that are not rendered (display: none, hidden content) are left out; link and image
// URLs are absolute. A document that is not HTML (text, JSON, Markdown shown as text) is read
// as its text.
// Answers {ok: true, value: {url, title, contentType, html, text, cut, framesSkipped}}.
(function (max) {
  'use strict';
  const SKIP = new Set(['script', 'style', 'noscript', 'template', 'link', 'meta', 'object',
    'embed', 'canvas', 'svg', 'head']);
  const VOID = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link',
    'meta', 'source', 'track', 'wbr']);
  const out = [];
  let size = 0;
  let cut = false;
  let framesSkipped = 0;

  function push(s) {
    if (cut) return;
    if (size + s.length > max) {
      out.push(s.slice(0, Math.max(0, max - size)));
      size = max;
      cut = true;
      return;
    }
    out.push(s);
    size += s.length;
  }
  function esc(s) {
    return s.replace(/[&<>]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : '&gt;'));
  }
  function escAttr(s) {
    return s.replace(/[&<>"]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : '&quot;'));
  }
  function rendered(e) {
    if (typeof e.checkVisibility !== 'function' || e.checkVisibility()) return true;
    // An element without a box of its own can still show its children.
    const style = e.ownerDocument.defaultView && e.ownerDocument.defaultView.getComputedStyle(e);
    return !!style && style.display === 'contents';
  }
  function attrs(e, doc) {
    let s = '';
    const img = e.localName === 'img';
    for (const a of e.attributes) {
      const n = a.name;
      if (n === 'style' || n.startsWith('on')) continue;
      let v = a.value;
      if (n === 'href' || n === 'src') {
        if (img && n === 'src' && e.currentSrc) v = e.currentSrc;
        else if (v) {
          try { v = new URL(v, doc.baseURI).href; } catch (err) { /* kept as written */ }
        }
      }
      s += ' ' + n + '="' + escAttr(v) + '"';
    }
    return s;
  }
  function children(node, doc) {
    for (let c = node.firstChild; c && !cut; c = c.nextSibling) emit(c, doc);
  }
  function emit(n, doc) {
    if (n.nodeType === 3) push(esc(n.data));
    else if (n.nodeType === 1) element(n, doc);
  }
  function element(e, doc) {
    const name = e.localName;
    if (SKIP.has(name) || !rendered(e)) return;
    if (name === 'slot') {
      const assigned = e.assignedNodes({ flatten: true });
      if (assigned.length) for (const a of assigned) emit(a, a.ownerDocument || doc);
      else children(e, doc);
      return;
    }
    if (name === 'iframe' || name === 'frame') {
      let inner = null;
      try { inner = e.contentDocument; } catch (err) { inner = null; }
      if (inner && inner.body) {
        push('<div data-agentbrowser-frame="' + escAttr(String(inner.URL)) + '">');
        children(inner.body, inner);
        push('</div>');
      } else {
        framesSkipped++;
      }
      return;
    }
    push('<' + name + attrs(e, doc) + '>');
    if (VOID.has(name)) return;
    if (name === 'textarea') push(esc(e.value));
    else children(e.shadowRoot || e, doc);
    push('</' + name + '>');
  }

  const doc = document;
  const type = String(doc.contentType || 'text/html');
  const html = type === 'text/html' || type === 'application/xhtml+xml';
  const value = {
    url: String(location.href),
    title: String(doc.title || ''),
    contentType: type,
    html: null,
    text: null,
    cut: false,
    framesSkipped: 0,
  };
  if (!html) {
    const root = doc.body || doc.documentElement;
    const text = root ? String(root.innerText !== undefined ? root.innerText : root.textContent) : '';
    value.cut = text.length > max;
    value.text = value.cut ? text.slice(0, max) : text;
    return { ok: true, value };
  }
  const lang = doc.documentElement && doc.documentElement.getAttribute('lang');
  push('<!doctype html><html' + (lang ? ' lang="' + escAttr(lang) + '"' : '') + '><head><title>' +
    esc(value.title) + '</title>');
  const base = doc.querySelector('base[href]');
  if (base) push('<base href="' + escAttr(base.href) + '">');
  push('</head>');
  if (doc.body) {
    push('<body' + attrs(doc.body, doc) + '>');
    children(doc.body.shadowRoot || doc.body, doc);
    push('</body>');
  }
  push('</html>');
  value.html = out.join('');
  value.cut = cut;
  value.framesSkipped = framesSkipped;
  return { ok: true, value };
})
