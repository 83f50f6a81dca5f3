#!/usr/bin/env python3
"""Faithfulness harness for crates/engine/src/js/snapshot/ (joined) against Chromium's accessibility tree.

Usage:  python3 tools/fidelity.py [--fixture NAME ...] [--show] [--show-full] [--no-perf] [--json FILE]
Needs:  /usr/bin/chromium (or $CHROMIUM), Python 3.11, `pip install websockets`.

What it does, exactly (the Rust port must do the same):

1. Launch  chromium --headless --no-sandbox --disable-background-networking --disable-component-update
   --disable-sync --no-first-run --disable-gpu --remote-debugging-port=0 --user-data-dir=<fresh tmp dir>
   about:blank   and read the `DevTools listening on ws://...` line from stderr (other lines may come first).
2. Serve crates/engine/tests/fixtures/fidelity/ over http.server on 127.0.0.1:<free port> in a thread.
   Fixtures may embed cross-origin frames as http://localhost:<port>/... (a different site than
   127.0.0.1, so Chromium puts them in an out-of-process frame); the harness passes the port as ?port=N
   and the fixture's inline script builds the URL.
3. For each fixture *.html (sorted): open a new target with Target.createTarget(about:blank), attach
   (flatten), enable Page/DOM/Accessibility/Runtime, Target.setAutoAttach(flatten) for child frames,
   Page.navigate to the fixture, wait for Page.loadEventFired, then wait 300 ms.
4. Page.createIsolatedWorld({frameId: main frame, worldName: "agentbrowser-fidelity"}) -> context id
   (one world per document, reused for every call on that document).
   Runtime.evaluate `globalThis.__ab ??= (<snapshot.js source>\n)` in it, then
   `__ab.snapshot({selector:null, interactive:true, compact:false, maxDepth:null, urls:false,
   nextRef:1, baseDepth:0})` with returnByValue.
   For every entry of result.frames: `__ab.frameOwner(index)` -> objectId -> DOM.describeNode -> frameId;
   the attached child target whose targetId == frameId is the frame's session; there we create an
   isolated world, evaluate the source and `__ab.snapshot({... nextRef: <previous nextRef>,
   baseDepth: frame.depth})`, and splice its text in place of the marker line (refs are appended).
   The same is done again with interactive:false (compact false, then true), continuing nextRef: the
   full view gives refs to nodes the interactive view leaves out (table cells). The refs of the three
   calls are merged by id (the same id must come back with the same role and name).
5. For every ref [id, role, name] (from every frame): Runtime.evaluate `__ab.element("<id>")` in the
   same isolated world (returnByValue false) -> objectId; DOM.describeNode({objectId}) -> backendNodeId;
   Accessibility.getPartialAXTree({backendNodeId, fetchRelatives:false}); the FIRST node of the result
   is the element's node.  Chromium role = node.role.value, Chromium name = node.name.value ('' if absent).
   Both names are normalised the same way before comparing: private-use characters (U+E000-U+F8FF,
   icon-font glyphs, which snapshot.js drops) are removed, every run of whitespace (incl. U+00A0,
   U+200B) becomes one space, trim, then if longer than 100 chars keep the first 99, trimEnd, add '…'.
   A ref AGREES when roles are equal and normalised names are equal.
   An `ignored` Chromium node is a DISAGREEMENT, except one case that is counted apart as
   "heuristic": our role is `generic`, our name is '' and the element is clickable only by our
   heuristics (computed cursor:pointer, an onclick attribute, tabindex>=0 or contenteditable), which
   Chromium cannot know about (it does not see listeners added by frameworks at the document root).
   agreement = agree / (refs - heuristic).
6. Hidden check: an element inside a subtree marked `data-hidden` in the fixture must never get a ref
   (the fixtures mark display:none, visibility:hidden, aria-hidden, hidden, inert, closed <details>...
   content with data-hidden). Any ref there is a failure.
7. Coverage: Accessibility.getFullAXTree per frame (main frame and every same-process child frame by
   frameId, plus each out-of-process frame in its own session); every non-ignored node whose role is in
   COVERAGE_ROLES and that has a backendDOMNodeId must be the element of one of our refs
   (compared by backendNodeId). Missing ones are listed. Nodes inside a closed shadow root (which page
   scripts cannot reach) are counted apart as "unreachable" and left out of the coverage figure.
   Nodes inside the parts of a native control (options of a closed <select>, fields of a date input;
   see inside_control) are skipped.
8. API checks (forms.html, modal.html): nextRef is honoured, a second snapshot is identical, ids are
   kept and new elements get the next id, element() accepts 'e5'/'@e5'/'ref=e5' and gives null for
   unknown or removed elements, selector / maxDepth / baseDepth / urls work, not_found and
   invalid_selector errors, password values are never printed, docToken is stable per document.
9. Performance: a generated page (300 links, 100 buttons, a 500x4 table, nested divs: ~5,000
   elements) served at /__perf.html; `__ab.snapshot({interactive:true})` timed in page with
   performance.now() (10 runs after a first one: median and min; the first call is shown apart), plus
   text bytes and ref count of the interactive view, and the time and size of the full view.
Exit status 0 when agreement >= 99%, no hidden refs, coverage >= 99% and the perf page's
interactive text is <= 60 KB; 1 otherwise.
"""

import argparse
import asyncio
import functools
import http.server
import itertools
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time

import websockets

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCRIPT_DIR = os.path.join(ROOT, 'crates', 'engine', 'src', 'js', 'snapshot')
FIXTURES = os.path.join(ROOT, 'crates', 'engine', 'tests', 'fixtures', 'fidelity')
CHROMIUM = os.environ.get('CHROMIUM', '/usr/bin/chromium')
WORLD = 'agentbrowser-fidelity'

COVERAGE_ROLES = {
    'button', 'link', 'textbox', 'searchbox', 'checkbox', 'radio', 'combobox', 'listbox', 'option',
    'menuitem', 'menuitemcheckbox', 'menuitemradio', 'slider', 'spinbutton', 'switch', 'tab', 'treeitem',
    'heading', 'DisclosureTriangle',
}  # gridcell is left out: a grid cell that holds a control is represented by that control
CONTROL_PARTS_PARENTS = {'MenuListPopup', 'Date', 'DateTime', 'InputTime', 'ColorWell', 'combobox', 'textbox',
                         'searchbox', 'spinbutton', 'slider'}
HEURISTIC_JS = """function() {
  const s = getComputedStyle(this);
  return s.cursor === 'pointer' || this.hasAttribute('onclick') || this.isContentEditable ||
         (this.hasAttribute('tabindex') && this.tabIndex >= 0);
}"""
IN_CLOSED_SHADOW_JS = """function() {
  for (let n = this;;) {
    const r = n.getRootNode();
    if (!(r instanceof ShadowRoot)) return false;
    if (r.mode === 'closed') return true;
    n = r.host;
  }
}"""
HIDDEN_JS = "function() { return !!this.closest('[data-hidden]'); }"

WS_RE = re.compile(r'[\s\u00a0\u200b]+')
PUA_RE = re.compile(r'[\ue000-\uf8ff]')


def norm_name(s):
    s = WS_RE.sub(' ', PUA_RE.sub('', s or '')).strip()
    if len(s) > 100:
        s = s[:99].rstrip() + '\u2026'
    return s


# ----------------------------------------------------------------------------- CDP client

class CDP:
    def __init__(self, ws, proc, tmp):
        self.ws, self.proc, self.tmp = ws, proc, tmp
        self.ids = itertools.count(1)
        self.pending = {}
        self.listeners = []
        self.reader = asyncio.create_task(self._read())

    @classmethod
    async def launch(cls):
        tmp = tempfile.mkdtemp(prefix='ab-fidelity-')
        proc = subprocess.Popen(
            [CHROMIUM, '--headless', '--no-sandbox', '--disable-background-networking',
             '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-gpu',
             '--remote-debugging-port=0', f'--user-data-dir={tmp}', 'about:blank'],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        url = None
        deadline = time.time() + 30
        while time.time() < deadline:
            line = await asyncio.to_thread(proc.stderr.readline)
            if not line:
                break
            m = re.search(rb'DevTools listening on (ws://\S+)', line)
            if m:
                url = m.group(1).decode()
                break
        if not url:
            proc.kill()
            raise RuntimeError('chromium did not print its DevTools URL')
        threading.Thread(target=lambda: proc.stderr.read(), daemon=True).start()  # drain
        ws = await websockets.connect(url, max_size=None)
        return cls(ws, proc, tmp)

    async def _read(self):
        try:
            async for msg in self.ws:
                self._dispatch(json.loads(msg))
        except websockets.ConnectionClosed:
            pass

    def _dispatch(self, m):
        if 'id' in m:
            f = self.pending.pop(m['id'], None)
            if f and not f.done():
                f.set_result(m)
        else:
            for cb in list(self.listeners):
                cb(m)

    async def send(self, method, params=None, session=None, timeout=30):
        i = next(self.ids)
        f = asyncio.get_running_loop().create_future()
        self.pending[i] = f
        msg = {'id': i, 'method': method, 'params': params or {}}
        if session:
            msg['sessionId'] = session
        await self.ws.send(json.dumps(msg))
        r = await asyncio.wait_for(f, timeout)
        if 'error' in r:
            raise RuntimeError(f"{method}: {r['error'].get('message')}")
        return r['result']

    def wait_event(self, method, session=None, pred=None):
        f = asyncio.get_running_loop().create_future()

        def cb(m):
            if m.get('method') == method and (session is None or m.get('sessionId') == session) \
                    and (pred is None or pred(m.get('params', {}))) and not f.done():
                f.set_result(m.get('params', {}))
                self.listeners.remove(cb)
        self.listeners.append(cb)
        return f

    async def close(self):
        try:
            await self.send('Browser.close', timeout=5)
        except Exception:
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
        await self.ws.close()
        shutil.rmtree(self.tmp, ignore_errors=True)


# ----------------------------------------------------------------------------- fixture server

PERF_HTML = None


def perf_page():
    links = ''.join(f'<li><a href="/item/{i}">Product {i}</a></li>' for i in range(300))
    buttons = ''.join(
        f'<div class="card"><div class="body"><span class="t">Card {i}</span><button type="button">Add {i}</button></div></div>'
        for i in range(100))
    statuses = ['Active', 'Paused', 'Done', 'New']
    rows = ''.join(
        f'<tr><td>{1000 + i}</td><td>Item {i}</td><td>{statuses[i % 4]}</td><td>${(i * 37) % 900}.{i % 100:02d}</td></tr>'
        for i in range(500))
    filler = ''.join(
        f'<div class="w"><div class="x"><div class="y"><p>Paragraph {i} with some text.</p></div></div></div>'
        for i in range(370))
    return (
        '<!doctype html><html><head><title>Perf</title><style>.card{padding:2px}.w{margin:1px}</style></head><body>'
        '<header><nav aria-label="Catalog"><ul>' + links + '</ul></nav></header>'
        '<main><h1>Dashboard</h1><section aria-label="Cards">' + buttons + '</section>'
        '<table><caption>Orders</caption><thead><tr><th>ID</th><th>Name</th><th>Status</th><th>Total</th></tr></thead><tbody>'
        + rows + '</tbody></table>' + filler + '</main></body></html>')


class Handler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *a):
        pass

    def do_GET(self):
        if self.path.startswith('/__perf.html'):
            body = PERF_HTML.encode()
            self.send_response(200)
            self.send_header('Content-Type', 'text/html; charset=utf-8')
            self.send_header('Content-Length', str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return
        super().do_GET()


def serve():
    srv = http.server.ThreadingHTTPServer(('127.0.0.1', 0), functools.partial(Handler, directory=FIXTURES))
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    return srv


# ----------------------------------------------------------------------------- per-page helpers

class Page:
    def __init__(self, cdp, session, target_id):
        self.cdp, self.session, self.target_id = cdp, session, target_id
        self.children = {}  # targetId -> sessionId (out-of-process frames)
        self.worlds = {}  # (sessionId, frameId) -> World: one isolated world per document, reused

    @classmethod
    async def open(cls, cdp):
        t = await cdp.send('Target.createTarget', {'url': 'about:blank'})
        s = (await cdp.send('Target.attachToTarget', {'targetId': t['targetId'], 'flatten': True}))['sessionId']
        p = cls(cdp, s, t['targetId'])
        cdp.listeners.append(p._on_event)
        for m in ('Page.enable', 'DOM.enable', 'Accessibility.enable', 'Runtime.enable'):
            await cdp.send(m, session=s)
        await cdp.send('Target.setAutoAttach', {'autoAttach': True, 'waitForDebuggerOnStart': False, 'flatten': True}, session=s)
        return p

    def _on_event(self, m):
        if m.get('method') == 'Target.attachedToTarget' and m.get('sessionId') == self.session:
            info = m['params']['targetInfo']
            self.children[info['targetId']] = m['params']['sessionId']
            asyncio.ensure_future(self._init_child(m['params']['sessionId']))

    async def _init_child(self, s):
        for meth in ('Page.enable', 'DOM.enable', 'Accessibility.enable', 'Runtime.enable'):
            try:
                await self.cdp.send(meth, session=s)
            except Exception:
                pass

    async def navigate(self, url):
        loaded = self.cdp.wait_event('Page.loadEventFired', self.session)
        await self.cdp.send('Page.navigate', {'url': url}, session=self.session)
        await asyncio.wait_for(loaded, 30)
        await asyncio.sleep(0.3)

    async def close(self):
        self.cdp.listeners.remove(self._on_event)
        await self.cdp.send('Target.closeTarget', {'targetId': self.target_id})


class World:
    """The snapshot API in an isolated world of one frame."""

    def __init__(self, cdp, session, ctx):
        self.cdp, self.session, self.ctx = cdp, session, ctx

    @classmethod
    async def create(cls, cdp, session, frame_id, source):
        w = await cdp.send('Page.createIsolatedWorld', {'frameId': frame_id, 'worldName': WORLD}, session=session)
        self = cls(cdp, session, w['executionContextId'])
        await self.eval(f'globalThis.__ab ??= ({source}\n); 0')
        return self

    async def eval(self, expr, by_value=True):
        r = await self.cdp.send('Runtime.evaluate', {'expression': expr, 'contextId': self.ctx,
                                                     'returnByValue': by_value, 'awaitPromise': False},
                                session=self.session)
        if 'exceptionDetails' in r:
            d = r['exceptionDetails']
            raise RuntimeError('JS exception: ' + (d.get('exception', {}).get('description') or d.get('text')))
        return r['result'].get('value') if by_value else r['result']

    async def snapshot(self, **opts):
        o = {'selector': None, 'interactive': True, 'compact': False, 'maxDepth': None, 'urls': False,
             'nextRef': 1, 'baseDepth': 0}
        o.update(opts)
        return await self.eval(f'__ab.snapshot({json.dumps(o)})')

    async def object_of(self, expr):
        r = await self.eval(expr, by_value=False)
        return r.get('objectId')

    async def call_on(self, object_id, fn):
        r = await self.cdp.send('Runtime.callFunctionOn', {'objectId': object_id, 'functionDeclaration': fn,
                                                           'returnByValue': True}, session=self.session)
        return r['result'].get('value')


def inside_control(n, by_id):
    """True for nodes that live inside a native control's own parts (the options of a closed <select>,
    the fields and buttons in the user-agent shadow DOM of date/time/colour inputs): the control itself
    carries the ref."""
    p = by_id.get(n.get('parentId'))
    while p is not None:
        if (p.get('role') or {}).get('value') in CONTROL_PARTS_PARENTS:
            return True
        p = by_id.get(p.get('parentId'))
    return False


async def main_frame_id(cdp, session):
    tree = await cdp.send('Page.getFrameTree', session=session)
    return tree['frameTree']['frame']['id'], tree['frameTree']


def frame_ids(tree):
    out = [tree['frame']['id']]
    for c in tree.get('childFrames', []):
        out += frame_ids(c)
    return out


async def world_for(page, session, frame_id, source):
    key = (session, frame_id)
    if key not in page.worlds:
        page.worlds[key] = await World.create(page.cdp, session, frame_id, source)
    return page.worlds[key]


async def full_snapshot(page, source, next_ref=1, **opts):
    """Snapshot the main frame and splice out-of-process frames in place of their markers.
    Returns (text, [(world, ref)], nextRef)."""
    cdp = page.cdp
    fid, _ = await main_frame_id(cdp, page.session)
    world = await world_for(page, page.session, fid, source)
    res = await world.snapshot(nextRef=next_ref, **opts)
    if not res.get('ok'):
        raise RuntimeError(f'snapshot failed: {res}')
    refs = [(world, r) for r in res['refs']]
    text = res['text']
    next_ref = res['nextRef']
    for fr in res['frames']:
        oid = await world.object_of(f'__ab.frameOwner({fr["index"]})')
        child_text = ''
        if oid:
            node = (await cdp.send('DOM.describeNode', {'objectId': oid}, session=page.session))['node']
            child_session = page.children.get(node.get('frameId'))
            if child_session:
                ctree = await cdp.send('Page.getFrameTree', session=child_session)
                cw = await world_for(page, child_session, ctree['frameTree']['frame']['id'], source)
                o = dict(opts)
                o.update(nextRef=next_ref, baseDepth=fr['depth'])
                cres = await cw.snapshot(**o)
                if cres.get('ok'):
                    next_ref = cres['nextRef']
                    refs += [(cw, r) for r in cres['refs']]
                    if not cres['text'].startswith('('):
                        child_text = cres['text']
        lines = text.split('\n')
        text = '\n'.join(child_text if (ln == fr['marker']) else ln for ln in lines if child_text or ln != fr['marker'])
    return text, refs, next_ref


# ----------------------------------------------------------------------------- comparison

async def check_fixture(cdp, base, name, source, args):
    page = await Page.open(cdp)
    try:
        port = base.rsplit(':', 1)[1].rstrip('/')
        await page.navigate(f'{base}/{name}?port={port}')
        await asyncio.sleep(0.2)
        text, refs, next_ref = await full_snapshot(page, source)
        # the full tree (interactive:false) gives refs to more nodes (table cells...): check those too
        full_text, full_refs, next_ref = await full_snapshot(page, source, next_ref=next_ref, interactive=False)
        _, compact_refs, next_ref = await full_snapshot(page, source, next_ref=next_ref, interactive=False, compact=True)
        if args.show_full:
            print(f'--- {name} interactive:false\n{full_text}')
        merged = {}
        for world, r in refs + full_refs + compact_refs:
            key = (world.session, r[0])
            if key in merged and merged[key][1] != r:
                raise RuntimeError(f'{name}: ref {r[0]} reported as {merged[key][1]} and as {r}')
            merged.setdefault(key, (world, r))
        refs = list(merged.values())
        result = {'fixture': name, 'refs': len(refs), 'agree': 0, 'heuristic': 0, 'disagree': [],
                  'hidden': [], 'missing': [], 'coverage_total': 0, 'unreachable': 0, 'text': text}
        ours_backend = set()
        for world, (rid, role, rname) in refs:
            oid = await world.object_of(f'__ab.element({json.dumps(rid)})')
            if not oid:
                result['disagree'].append((rid, role, rname, '<element() returned null>', ''))
                continue
            node = (await cdp.send('DOM.describeNode', {'objectId': oid}, session=world.session))['node']
            bid = node['backendNodeId']
            ours_backend.add((world.session, bid))
            if await world.call_on(oid, HIDDEN_JS):
                result['hidden'].append((rid, role, rname))
            ax = await cdp.send('Accessibility.getPartialAXTree', {'backendNodeId': bid, 'fetchRelatives': False},
                                session=world.session)
            n = ax['nodes'][0]
            crole = (n.get('role') or {}).get('value', '')
            cname = norm_name((n.get('name') or {}).get('value', ''))
            if n.get('ignored'):
                if role == 'generic' and not rname and await world.call_on(oid, HEURISTIC_JS):
                    result['heuristic'] += 1
                    continue
                reasons = ','.join(r['name'] for r in n.get('ignoredReasons', []))
                result['disagree'].append((rid, role, rname, f'<ignored: {reasons}>', ''))
                continue
            if crole == role and cname == rname:
                result['agree'] += 1
            else:
                result['disagree'].append((rid, role, rname, crole, cname))
        # coverage
        sessions = [(page.session, None)]
        fid, tree = await main_frame_id(cdp, page.session)
        sessions = [(page.session, f) for f in frame_ids(tree)]
        for tid, s in page.children.items():
            try:
                _, ctree = await main_frame_id(cdp, s)
                sessions += [(s, f) for f in frame_ids(ctree)]
            except Exception:
                pass
        seen = set()
        for s, f in sessions:
            try:
                ax = await cdp.send('Accessibility.getFullAXTree', {'frameId': f}, session=s)
            except Exception:
                continue
            by_id = {n['nodeId']: n for n in ax['nodes']}
            for n in ax['nodes']:
                role = (n.get('role') or {}).get('value')
                bid = n.get('backendDOMNodeId')
                if n.get('ignored') or role not in COVERAGE_ROLES or bid is None or (s, bid) in seen:
                    continue
                if inside_control(n, by_id):
                    continue
                seen.add((s, bid))
                result['coverage_total'] += 1
                if (s, bid) not in ours_backend:
                    obj = (await cdp.send('DOM.resolveNode', {'backendNodeId': bid}, session=s))['object']
                    closed = (await cdp.send('Runtime.callFunctionOn', {'objectId': obj['objectId'], 'functionDeclaration': IN_CLOSED_SHADOW_JS,
                                                                         'returnByValue': True}, session=s))['result'].get('value')
                    if closed:
                        result['coverage_total'] -= 1
                        result['unreachable'] += 1
                        continue
                    desc = (await cdp.send('DOM.describeNode', {'backendNodeId': bid}, session=s))['node']
                    attrs = desc.get('attributes', [])
                    attr_s = ' '.join(f'{attrs[i]}="{attrs[i + 1]}"' for i in range(0, len(attrs), 2))[:80]
                    result['missing'].append((role, norm_name((n.get('name') or {}).get('value', '')),
                                              f'<{desc.get("localName")} {attr_s}>'))
        return result
    finally:
        await page.close()


async def api_checks(cdp, base, source):
    """Contract checks of the snapshot API (ref stability, element(), options). Returns failures."""
    fails = []

    def check(cond, what):
        if not cond:
            fails.append(what)

    page = await Page.open(cdp)
    try:
        await page.navigate(f'{base}/forms.html')
        fid, _ = await main_frame_id(cdp, page.session)
        w = await World.create(cdp, page.session, fid, source)
        a = await w.snapshot(nextRef=500)
        b = await w.snapshot(nextRef=a['nextRef'])
        check(a['refs'][0][0] == 'e500', f'first ref honours nextRef=500 (got {a["refs"][0][0]})')
        check(a['text'] == b['text'] and a['refs'] == b['refs'], 'second snapshot identical to the first')
        check(a['nextRef'] == b['nextRef'] == 500 + len(a['refs']), 'nextRef advances by the number of new refs')
        check(a['docToken'] == b['docToken'] and len(a['docToken']) >= 8, 'docToken stable within a document')
        check('hunter22' not in a['text'], 'password value not printed')
        full = await w.snapshot(interactive=False, nextRef=b['nextRef'])
        check('hunter22' not in full['text'], 'password value not printed (full view)')
        first = a['refs'][0][0]
        for form in (first, '@' + first, 'ref=' + first):
            check(await w.eval(f'__ab.element({json.dumps(form)}) !== null'), f'element({form}) resolves')
        check(await w.eval('__ab.element("e999999") === null'), 'unknown ref gives null')
        check(await w.eval('__ab.element("bogus") === null'), 'malformed ref gives null')
        btn = next(r[0] for r in a['refs'] if r[1] == 'button' and r[2] == 'Create account')
        await w.eval(f'__ab.element({json.dumps(btn)}).remove(); 0')
        check(await w.eval(f'__ab.element({json.dumps(btn)}) === null'), 'removed element gives null')
        await w.eval('(() => { const b = document.createElement("button"); b.textContent = "Added later"; document.querySelector("main").prepend(b); return 0; })()')
        c = await w.snapshot(nextRef=full['nextRef'])
        added = [r for r in c['refs'] if r[2] == 'Added later']
        check(len(added) == 1 and added[0][0] == f'e{full["nextRef"]}', f'new element gets the next id (got {added})')
        kept = {r[0] for r in c['refs']}
        check(all(r[0] in kept for r in a['refs'] if r[0] != btn), 'existing refs keep their ids')
        r = await w.snapshot(selector='#nope')
        check(r.get('ok') is False and r.get('error') == 'not_found', f'missing selector -> not_found ({r})')
        r = await w.snapshot(selector='[[')
        check(r.get('ok') is False and r.get('error') == 'invalid_selector', f'bad selector -> invalid_selector ({r.get("error")})')
        r = await w.snapshot(selector='form#signup')
        check(r.get('ok') and r['text'].startswith('- form "Sign up"'), 'selector scopes the snapshot')
        r = await w.snapshot(selector=first)
        check(r.get('ok') and r['text'].startswith('- banner'), 'selector accepts a ref id')
        r = await w.snapshot(maxDepth=0)
        check(r['text'] and all(not ln.startswith(' ') for ln in r['text'].split('\n')), 'maxDepth 0 keeps top-level lines only')
        r = await w.snapshot(baseDepth=2)
        check(all(ln.startswith('    ') for ln in r['text'].split('\n')) and r['text'].startswith('    - '), 'baseDepth indents every line')
        r = await w.snapshot(urls=True)
        check(f'url={base}/login' in r['text'], 'urls option adds absolute link urls')
        token = a['docToken']
        await page.navigate(f'{base}/modal.html')
        fid, _ = await main_frame_id(cdp, page.session)
        w2 = await World.create(cdp, page.session, fid, source)
        r = await w2.snapshot(selector='main', interactive=True)
        check(r['text'] == '(no interactive elements)', f'empty interactive view text ({r["text"]!r})')
        check(r['docToken'] != token, 'new document, new docToken')
    finally:
        await page.close()
    return fails


async def perf(cdp, base, source):
    page = await Page.open(cdp)
    try:
        await page.navigate(f'{base}/__perf.html')
        fid, _ = await main_frame_id(cdp, page.session)
        w = await World.create(cdp, page.session, fid, source)
        count = await w.eval('document.getElementsByTagName("*").length')
        times = []
        res = None
        for i in range(11):
            r = await w.eval('(() => { const t = performance.now(); const r = __ab.snapshot({interactive: true, nextRef: 1}); '
                             'return {ms: performance.now() - t, bytes: new TextEncoder().encode(r.text).length, refs: r.refs.length, text: r.text}; })()')
            times.append(r['ms'])
            res = r
        full = await w.eval('(() => { const t = performance.now(); const r = __ab.snapshot({interactive: false}); '
                            'return {ms: performance.now() - t, bytes: new TextEncoder().encode(r.text).length}; })()')
        rest = sorted(times[1:])
        return {'elements': count, 'first_ms': times[0], 'median_ms': rest[len(rest) // 2], 'min_ms': rest[0], 'bytes': res['bytes'],
                'refs': res['refs'], 'text': res['text'], 'full_ms': full['ms'], 'full_bytes': full['bytes']}
    finally:
        await page.close()


async def run(args):
    global PERF_HTML
    PERF_HTML = perf_page()
    # The script's parts, joined in file-name order as the engine does (world.rs SNAPSHOT_JS).
    source = ''.join(open(os.path.join(SCRIPT_DIR, n), encoding='utf-8').read() for n in sorted(os.listdir(SCRIPT_DIR)))
    srv = serve()
    base = f'http://127.0.0.1:{srv.server_address[1]}'
    names = sorted(f for f in os.listdir(FIXTURES) if f.endswith('.html') and not f.startswith('_'))
    if args.fixture:
        names = [n for n in names if any(x in n for x in args.fixture)]
    cdp = await CDP.launch()
    ok = True
    summary = {'fixtures': []}
    try:
        tot = {'refs': 0, 'agree': 0, 'heuristic': 0, 'hidden': 0, 'cov': 0, 'missing': 0}
        for name in names:
            r = await check_fixture(cdp, base, name, source, args)
            denom = r['refs'] - r['heuristic']
            pct = 100.0 * r['agree'] / denom if denom else 100.0
            cov = 100.0 * (r['coverage_total'] - len(r['missing'])) / r['coverage_total'] if r['coverage_total'] else 100.0
            print(f'{name:28} refs {r["refs"]:4}  agree {r["agree"]:4}/{denom:<4} {pct:6.2f}%  '
                  f'heuristic {r["heuristic"]:3}  coverage {cov:6.2f}% ({r["coverage_total"]})  hidden-refs {len(r["hidden"])}'
                  + (f'  unreachable(closed shadow) {r["unreachable"]}' if r['unreachable'] else ''))
            for rid, role, rname, crole, cname in r['disagree']:
                print(f'    DIFF {rid}: ours {role} {json.dumps(rname, ensure_ascii=False)}  chromium {crole} {json.dumps(cname, ensure_ascii=False)}')
            for rid, role, rname in r['hidden']:
                print(f'    HIDDEN REF {rid}: {role} {json.dumps(rname, ensure_ascii=False)}')
            for role, cname, desc in r['missing']:
                print(f'    MISSING {role} {json.dumps(cname, ensure_ascii=False)} {desc}')
            if args.show:
                print(r['text'])
            tot['refs'] += r['refs']
            tot['agree'] += r['agree']
            tot['heuristic'] += r['heuristic']
            tot['hidden'] += len(r['hidden'])
            tot['cov'] += r['coverage_total']
            tot['missing'] += len(r['missing'])
            summary['fixtures'].append({k: v for k, v in r.items() if k != 'text'})
        denom = tot['refs'] - tot['heuristic']
        agreement = 100.0 * tot['agree'] / denom if denom else 100.0
        coverage = 100.0 * (tot['cov'] - tot['missing']) / tot['cov'] if tot['cov'] else 100.0
        print(f'\nTOTAL refs {tot["refs"]}  agree {tot["agree"]}/{denom} = {agreement:.2f}%  '
              f'(heuristic clickables not in Chromium tree: {tot["heuristic"]})  '
              f'coverage {coverage:.2f}% ({tot["cov"] - tot["missing"]}/{tot["cov"]})  hidden refs {tot["hidden"]}')
        summary.update(agreement=agreement, coverage=coverage, **tot)
        ok = agreement >= 99.0 and tot['hidden'] == 0 and coverage >= 99.0
        if not args.fixture:
            fails = await api_checks(cdp, base, source)
            print(f'API checks: {"all passed" if not fails else "FAILED: " + "; ".join(fails)}')
            ok = ok and not fails
        if not args.no_perf and not args.fixture:
            p = await perf(cdp, base, source)
            print(f'PERF {p["elements"]} elements: interactive snapshot median {p["median_ms"]:.1f} ms, '
                  f'min {p["min_ms"]:.1f} ms (first call {p["first_ms"]:.1f} ms), {p["bytes"]} bytes, {p["refs"]} refs; '
                  f'full tree {p["full_ms"]:.1f} ms, {p["full_bytes"]} bytes')
            if args.show:
                print(p['text'][:3000])
            summary['perf'] = {k: v for k, v in p.items() if k != 'text'}
            ok = ok and p['bytes'] <= 60 * 1024
    finally:
        await cdp.close()
        srv.shutdown()
    if args.json:
        with open(args.json, 'w') as f:
            json.dump(summary, f, indent=1)
    return 0 if ok else 1


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--fixture', action='append', help='only fixtures whose file name contains this')
    ap.add_argument('--show', action='store_true', help='print the interactive snapshot text')
    ap.add_argument('--show-full', action='store_true', help='print the non-interactive snapshot text')
    ap.add_argument('--no-perf', action='store_true')
    ap.add_argument('--json', help='write a JSON summary here')
    args = ap.parse_args()
    sys.exit(asyncio.run(run(args)))


if __name__ == '__main__':
    main()
