  // ---------------------------------------------------------------- roles

  function roleOf(w, el) {
    let r = w.roles.get(el);
    if (r === undefined) { r = computeRole(w, el); w.roles.set(el, r); }
    return r;
  }

  function computeRole(w, el) {
    let er = explicitRole(el);
    if (er === 'none' && (isFocusable(el) || hasGlobalAria(el))) er = null; // presentational conflict
    if (er) {
      switch (er) {
        case 'none': return 'none';
        case 'listitem': {
          const c = contextRole(w, el);
          return c === 'list' || c === 'group' || c === 'directory' ? er : 'generic';
        }
        case 'option': {
          const c = contextRole(w, el);
          return c === 'listbox' || c === 'group' || c === 'combobox' ? er : 'generic';
        }
        case 'treeitem': {
          const c = contextRole(w, el);
          return c === 'tree' || c === 'group' || c === 'treegrid' ? er : 'generic';
        }
        case 'region': case 'form':
          return hasAuthorName(w, el) ? er : 'generic';
        case 'cell': {
          const c = contextRole(w, el);
          if (c === 'row') {
            const t = contextRole(w, parentEl(w, el));
            if (t === 'grid' || t === 'treegrid') return 'gridcell';
          }
          return er;
        }
        default: return er;
      }
    }
    return nativeRole(w, el);
  }

  // (Chromium counts a non-empty attribute, even one of only spaces, for these role decisions.)
  function hasAuthorName(w, el) {
    if (el.getAttribute('aria-label')) return true;
    if (el.hasAttribute('aria-labelledby') && labelledByText(w, el, el).trim()) return true;
    return !!el.getAttribute('title');
  }

  function nativeRole(w, el) {
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
          const pr = roleOf(w, p);
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
        return p && !hasAuthorName(w, el) ? 'generic' : 'complementary';
      }
      case 'section': return hasAuthorName(w, el) ? 'region' : 'generic';
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
      case 'table': return tableRoleOf(w, el);
      case 'caption': return 'caption';
      case 'thead': case 'tbody': case 'tfoot': return 'rowgroup';
      case 'tr': {
        const tb = el.closest('table');
        if (!tb) return 'generic';
        const tr = tableRoleOf(w, tb);
        return tr === 'none' ? 'none' : tr === 'LayoutTable' ? 'LayoutTableRow' : 'row';
      }
      case 'td': case 'th': {
        const tb = tableOf(el);
        if (!tb) return 'generic';
        const tr = tableRoleOf(w, tb);
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

  // Every role nativeRole can give an element of each tag (an element without a valid `role`
  // token gets nativeRole's answer; a tag not listed is always 'generic'). Keep in step with
  // nativeRole: a role locator only computes roles for `[role]` elements and the tags listed
  // here for its role (nativeCandidates), instead of for every element of the page.
  const NATIVE_ROLES = {
    a: ['link', 'generic'], button: ['button'],
    input: ['button', 'checkbox', 'radio', 'slider', 'spinbutton', 'combobox', 'searchbox', 'ColorWell',
      'Date', 'DateTime', 'InputTime', 'none', 'textbox'],
    select: ['listbox', 'combobox'], textarea: ['textbox'], option: ['option'], optgroup: ['group'],
    h1: ['heading'], h2: ['heading'], h3: ['heading'], h4: ['heading'], h5: ['heading'], h6: ['heading'],
    img: ['none', 'image'], ul: ['list'], ol: ['list'], menu: ['list'], li: ['none', 'listitem'],
    nav: ['navigation'], main: ['main'], header: ['sectionheader', 'banner'],
    footer: ['sectionfooter', 'contentinfo'], aside: ['generic', 'complementary'],
    section: ['region', 'generic'], article: ['article'], form: ['form'], search: ['search'],
    dialog: ['dialog'], details: ['group'], summary: ['generic', 'DisclosureTriangleGrouped', 'DisclosureTriangle'],
    fieldset: ['group'], legend: ['Legend'], label: ['LabelText'], output: ['status'],
    progress: ['progressbar'], meter: ['meter'], dl: ['DescriptionList'], dt: ['term'], dd: ['definition'],
    table: ['none', 'grid', 'treegrid', 'table', 'LayoutTable'], caption: ['caption'],
    thead: ['rowgroup'], tbody: ['rowgroup'], tfoot: ['rowgroup'],
    tr: ['generic', 'none', 'LayoutTableRow', 'row'],
    td: ['generic', 'LayoutTableCell', 'gridcell', 'cell'],
    th: ['generic', 'LayoutTableCell', 'rowheader', 'columnheader'],
    p: ['paragraph'], blockquote: ['blockquote'], figure: ['figure'], figcaption: ['Figcaption'],
    hr: ['separator'], code: ['code'], em: ['emphasis'], strong: ['strong'], del: ['deletion'],
    s: ['deletion'], ins: ['insertion'], mark: ['mark'], sub: ['subscript'], sup: ['superscript'],
    time: ['time'], abbr: ['Abbr'], address: ['group'], hgroup: ['group'], iframe: ['Iframe'],
    frame: ['Iframe'], video: ['Video'], audio: ['Audio'], br: ['LineBreak'], math: ['math'],
    ruby: ['Ruby'], canvas: ['canvas'], html: ['none'], body: ['none'],
    svg: ['image', 'generic'], // (an SVG <a> is under a: link or generic)
  };
  const nativeCandidateCache = new Map();

  // A CSS selector list matching every element whose role can be `role` (a superset: roleOf
  // decides), or '*' when any element can have it (generic).
  function nativeCandidates(role) {
    let sel = nativeCandidateCache.get(role);
    if (sel === undefined) {
      const tags = [];
      for (const t in NATIVE_ROLES) if (NATIVE_ROLES[t].includes(role)) tags.push(t);
      sel = role === 'generic' ? '*' : ['[role]', ...tags].join(',');
      nativeCandidateCache.set(role, sel);
    }
    return sel;
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

