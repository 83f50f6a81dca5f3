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

