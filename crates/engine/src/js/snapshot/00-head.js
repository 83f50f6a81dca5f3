// agentbrowser in-page accessibility snapshot (embedded by crates/engine: world.rs SNAPSHOT_JS).
//
// The files of this directory, joined in file-name order, are ONE JavaScript expression (this
// head opens it, 90-api.js closes it). The engine evaluates it once per document in an isolated
// world as `globalThis.__ab ??= (<the joined files>)` and then calls the API object it evaluates to:
//
//   __ab.snapshot({selector, interactive, compact, maxDepth, urls, boxOrigin, nextRef, baseDepth, maxBytes, pierced, peek, frameOwner})
//     selector   string|null  CSS selector (or a ref id 'e5' / '@e5' / 'ref=e5') of the subtree root
//     interactive bool (default true)  only lines that carry a ref, each indented under its nearest
//                                      ref'd ancestor; '(no interactive elements)' when there are none
//     compact    bool   full view only: drop unnamed, unref'd wrappers (generic, group, ...)
//     maxDepth   number|null  drop lines whose absolute depth (baseDepth + depth) is > maxDepth
//     urls       bool   links get `url=<absolute href>` in their [...] list
//     boxOrigin  [x, y]|null  when set, every element line gets `box=x,y,width,height` after its ref:
//                       getBoundingClientRect rounded to integers, shifted by the same-origin
//                       frames walked in place and by boxOrigin (where the engine found this
//                       world's window in the top-level viewport), so in top-level viewport pixels
//     nextRef    number the engine's tab-wide counter: new refs are 'e' + nextRef, 'e' + (nextRef+1), ...
//     baseDepth  number indentation (in steps of two spaces) added to every line
//     maxBytes   number size budget of the text (0 = none): past it no line is added (and no ref
//                       issued); `omitted` counts the lines left out by role
//     frameOwner Element|null  the <iframe> of a same-origin frame this document walks in place:
//                       the walk starts at that frame's document, so its elements get the refs a
//                       snapshot of this document gives them (a frame-scoped snapshot; the engine
//                       passes it through Runtime.callFunctionOn)
//     pierced    bool   the engine has looked for closed shadow roots for this run (a pierce walk,
//                       handed over in globalThis.__abReach); when it has not and the walk meets
//                       the signal of one (see BOX_HOSTS), the answer is {ok: true, value: 'pierce'}:
//                       nothing is emitted and the engine runs again after looking
//     peek       bool   a read-only run (the trace recorder's): the text is the one a real run would
//                       give now, but the refs new elements would get are numbered from the run's
//                       own counter and kept nowhere (no element gets a ref, the shared counter
//                       stays); the head's nextRef is where the run's counter ended
//   -> {ok: true, value: one string}: a JSON line {refs: N, nextRef, docToken, frames: [{marker, index, depth}],
//      url, omitted: {role: count} | null}, then N lines `id<TAB>role<TAB>name` (names are collapsed:
//      no tab or newline), then the text (several lines)
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
//   __ab.boxes(ids, token) -> {stale, boxes: [{box: [x, y, w, h], covered: null | {ref, what}} | null
//                         per id], texts: [[x, y, w, h]], viewport: [w, h]}: the refs' border boxes
//                         in this frame's viewport, whether something else is on top of them, and
//                         the line boxes of their text (annotated screenshots)
//   __ab.shadowOf(el)  -> the element's shadow root, open or closed (a closed one once the engine
//                         handed it over for a snapshot), or null
//   __ab.docToken      -> random string, fixed for this API instance (one per document)
//   __ab.refFor(el)    -> the ref a snapshot of this document gave el, or null (a11y's nodes)
//   __ab.highlight(el, style) -> {replaced, highlights} after drawing (or restyling) el's overlay in
//                         its own document, or {error: 'invalid_style', refused: [declaration]}
//                         with nothing drawn (85-highlight.js)
//   __ab.unhighlight(el) -> how many highlights were removed: el's (0 or 1), or with null every one
//                         this world drew
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
// a role (onclick attribute, tabindex >= 0, contenteditable host, cursor:pointer not inherited, a
// click/mousedown/mouseup/pointerdown/pointerup/touchstart listener of its own).
//
// Reach (crates/engine/src/reach.rs): before a run the engine may store
// globalThis.__abReach = {roots: [ShadowRoot]}: the frame's closed shadow roots (walked in place
// like open ones, and searched by targets; snapshot() takes it and deletes it when it starts), and
// keeps globalThis.__abListeners (a Map: backend node id -> Element) holding the elements with
// click-like listeners of their own (not html/body), updated only where the listeners changed.
//
// Frames: same-origin frames are walked in place under an `- iframe "title"` line. A cross-origin
// frame gives the `- iframe` line followed by a line that is exactly `\u0000frame:K`; frames[] lists
// {marker, index: K, depth}; the engine snapshots that frame itself with baseDepth = depth and puts its
// text in place of the marker line.
//
// Roles and names follow Chromium's accessibility tree (the `role.value` / `name.value` of CDP
// Accessibility.getPartialAXTree), name cut to 100 characters with '…'; crates/engine/tests/fidelity.rs measures
// the agreement against Chromium on crates/engine/tests/fixtures/fidelity.
//
// State. A snapshot run keeps what it computes (options, caches, counters, size budget, outputs) in
// its own walk context, made by newWalk (20-caches.js) and passed as the argument `w`; identity()
// makes one too. Only what must outlive a run is module-level (besides constant tables):
//   docToken       names this API instance, i.e. this document, in every answer
//   refOf, byId    element <-> ref for the life of the document: a ref issued by one run is given
//                  again to the same element by later runs, and element(id) resolves it
//   counter        the next ref number, shared by all runs (raised to the engine's nextRef)
//   frameOwners    the latest run's cross-origin frame owners (the array of its context), which
//                  frameOwner(k) reads after the run
//   sheetFlagCache (20-caches.js) what each style sheet uses, kept per sheet object across runs
(() => {
  'use strict';

  const docToken = Math.random().toString(36).slice(2, 10) + Date.now().toString(36).slice(-4);
  const refOf = new WeakMap(); // Element -> 'eN'
  const byId = new Map(); // 'eN' -> WeakRef<Element>
  let counter = 1; // next ref number
  let frameOwners = []; // WeakRef<iframe> per frame marker of the latest snapshot run
  // Closed shadow roots the engine found through CDP (page scripts cannot reach them) and handed
  // over before a run (globalThis.__abReach, see takeReach): host -> ShadowRoot, for the life of
  // the document (a host's shadow root never changes).
  const closedRoots = new WeakMap();
  // An element's shadow root, open or closed (when the engine handed it over), or null.
  function shadowOf(el) { return el.shadowRoot || closedRoots.get(el) || null; }

