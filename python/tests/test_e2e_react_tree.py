"""End-to-end: ``diagnostics.react_tree()`` on apps built with the real React 18 from npm
(``node_modules/react``, ``node_modules/react-dom``), sync and async: the components the app
really has, in order, with keys; host elements optional; the node and depth limits cut and say
so; ``selector`` scopes; a page without React raises ``react_not_found``.  The same page is
walked by pyagentbrowser 0.39 (``target/peer-venv``, its React DevTools hook enabled with
``AGENT_BROWSER_ENABLE=react-devtools``): both list the same nodes, line for line.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from agentbrowser import AsyncBrowser, Browser, BrowserError, ReactTree
from agentbrowser.errors import InvalidArgumentError
from conftest import REPO
from local_http import serve_react

pytestmark = pytest.mark.e2e

sys.path.insert(0, str(REPO / "python" / "tools"))
import peer_api  # noqa: E402

#: A todo app: App > main > (h1, TodoList > ul > TodoItem x3 > li), rendered 200 ms after load.
TODO_JS = r"""
const h = React.createElement;
function TodoItem(props) { return h('li', null, props.text); }
function TodoList(props) { return h('ul', null, props.items.map((t) => h(TodoItem, {key: t, text: t}))); }
function App() { return h('main', null, h('h1', null, 'Todos'), h(TodoList, {items: ['milk', 'eggs', 'bread']})); }
setTimeout(() => ReactDOM.createRoot(document.getElementById('root')).render(h(App)), 200);
"""

#: What React DevTools shows of the other component kinds: class, forwardRef, keyed Fragment,
#: memo, displayName, portal (walked through), Suspense, context Provider/Consumer, Profiler;
#: StrictMode and unkeyed Fragments are walked through.
KINDS_JS = r"""
const h = React.createElement;
const Theme = React.createContext('light'); Theme.displayName = 'Theme';
class Clock extends React.Component { render() { return h('time', null, 'now'); } }
const Fancy = React.forwardRef(function FancyInput(props, ref) { return h('input', {ref}); });
const Pure = React.memo(function PureLabel() { return h('span', null, 'pure'); });
const Named = function () { return h('b', null, 'named'); }; Named.displayName = 'CustomName';
function Portal() { return ReactDOM.createPortal(h('em', null, 'portal'), document.getElementById('elsewhere')); }
function Waiting() { return h(React.Suspense, {fallback: h('i', null, '...')}, h('p', null, 'ready')); }
function App() {
  return h(React.StrictMode, null,
    h(Theme.Provider, {value: 'dark'},
      h(React.Fragment, null, h(Clock), h(Fancy)),
      h(React.Fragment, {key: 'kf'}, h(Pure)),
      h(Named), h(Portal), h(Waiting),
      h(Theme.Consumer, null, (v) => h('small', null, v)),
      h(React.Profiler, {id: 'prof', onRender() {}}, h('u', null, 'p'))));
}
ReactDOM.createRoot(document.getElementById('root')).render(h(App));
"""

#: A chain 60 components deep (Level0 > Level1 > ... > Level59 > span).
DEEP_JS = r"""
const h = React.createElement;
const levels = [];
for (let i = 59; i >= 0; i--) {
  const next = levels[0];
  const C = function (props) { return next ? h(next) : h('span', null, 'bottom'); };
  Object.defineProperty(C, 'name', {value: 'Level' + i});
  levels.unshift(C);
}
ReactDOM.createRoot(document.getElementById('root')).render(h(levels[0]));
"""

PAGES: dict[str, tuple[str, bytes | Path]] = {
    "/todo": ("text/html", b"<!doctype html><meta charset=utf-8><title>Todos</title><div id=root></div>"
              b"<div id=plain><p>not React</p></div>"
              b'<script src="/react.js"></script><script src="/react-dom.js"></script><script src="/todo.js"></script>'),
    "/todo.js": ("text/javascript", TODO_JS.encode()),
    "/kinds": ("text/html", b"<!doctype html><meta charset=utf-8><title>Kinds</title><div id=root></div><div id=elsewhere></div>"
               b'<script src="/react.js"></script><script src="/react-dom.js"></script><script src="/kinds.js"></script>'),
    "/kinds.js": ("text/javascript", KINDS_JS.encode()),
    "/deep": ("text/html", b"<!doctype html><meta charset=utf-8><title>Deep</title><div id=root></div>"
              b'<script src="/react.js"></script><script src="/react-dom.js"></script><script src="/deep.js"></script>'),
    "/deep.js": ("text/javascript", DEEP_JS.encode()),
    "/plain": ("text/html", b"<!doctype html><meta charset=utf-8><title>Plain</title><h1>No React here</h1>"),
}

#: The todo app's tree, as (depth, name, key) in walk order.
TODO_TREE = [
    (0, "Root", None),
    (1, "App", None),
    (2, "main", None),
    (3, "h1", None),
    (3, "TodoList", None),
    (4, "ul", None),
    (5, "TodoItem", "milk"),
    (6, "li", None),
    (5, "TodoItem", "eggs"),
    (6, "li", None),
    (5, "TodoItem", "bread"),
    (6, "li", None),
]


@pytest.fixture(scope="module")
def site() -> Iterator[str]:
    """A server for the React build from npm and the apps."""
    yield from serve_react(PAGES)


@pytest.fixture(scope="module")
def browser(agentbrowser_bin: Path) -> Iterator[Browser]:
    with Browser.launch() as b:
        yield b


def _open(b: Browser, url: str, ready: str) -> None:
    b.page.open(url)
    b.page.wait_for_selector(ready, state="attached")


def _shape(tree: ReactTree) -> list[tuple[int, str, str | None]]:
    return [(n.depth, n.name, n.key) for n in tree.nodes]


def test_the_todo_app_tree_names_its_components_in_order(browser: Browser, site: str) -> None:
    _open(browser, f"{site}/todo", "li")
    tree = browser.diagnostics.react_tree()
    assert _shape(tree) == TODO_TREE
    assert (tree.roots, tree.truncated, tree.scoped) == (1, False, False)
    # Parents and ids: each TodoItem hangs under the ul, each li under its TodoItem.
    ul = next(n for n in tree.nodes if n.name == "ul")
    items = tree.children(ul)
    assert [(n.name, n.key, n.kind) for n in items] == [("TodoItem", k, "function") for k in ("milk", "eggs", "bread")]
    assert [tree.children(i)[0].name for i in items] == ["li", "li", "li"]
    assert tree.nodes[0].kind == "root" and tree.nodes[0].parent == 0
    # pyagentbrowser's mapping: its text (same columns) and its JSON nodes.
    assert tree["truncated"] is False and set(tree) == {"tree", "nodes", "truncated"}
    lines = tree["tree"].splitlines()
    assert lines[:2] == ["# React component tree", "# Columns: depth id parent name [key=...]"]
    assert '5 7 6 TodoItem key="milk"' in lines
    assert tree["nodes"][0] == {"id": 1, "type": 11, "name": None, "key": None, "parent": 0}
    assert tree["nodes"][6] == {"id": 7, "type": 5, "name": "TodoItem", "key": "milk", "parent": 6}


def test_host_elements_are_optional(browser: Browser, site: str) -> None:
    _open(browser, f"{site}/todo", "li")
    tree = browser.diagnostics.react_tree(host_elements=False)
    assert _shape(tree) == [
        (0, "Root", None),
        (1, "App", None),
        (2, "TodoList", None),
        (3, "TodoItem", "milk"),
        (3, "TodoItem", "eggs"),
        (3, "TodoItem", "bread"),
    ]


def test_the_node_limit_cuts_and_says_so(browser: Browser, site: str) -> None:
    _open(browser, f"{site}/todo", "li")
    tree = browser.diagnostics.react_tree(max_nodes=7)
    assert _shape(tree) == TODO_TREE[:7]
    assert tree.truncated and tree.max_nodes_reached and not tree.max_depth_reached
    assert tree["truncated"] is True
    assert tree.tree.splitlines()[-1] == "# truncated: the walk stopped at max_nodes=7"
    # Exactly as many nodes as the app has is no cut.
    whole = browser.diagnostics.react_tree(max_nodes=len(TODO_TREE))
    assert len(whole.nodes) == len(TODO_TREE) and not whole.truncated


def test_the_depth_limit_cuts_and_says_so(browser: Browser, site: str) -> None:
    _open(browser, f"{site}/deep", "span")
    full = browser.diagnostics.react_tree()
    assert full.names() == ("Root", *(f"Level{i}" for i in range(60)), "span")
    assert full.nodes[-1].depth == 61 and not full.truncated
    cut = browser.diagnostics.react_tree(max_depth=10)
    assert cut.names() == ("Root", *(f"Level{i}" for i in range(10)))
    assert cut.truncated and cut.max_depth_reached and not cut.max_nodes_reached
    assert "nodes deeper than max_depth=10 left out" in cut.tree
    # A limit the tree does not reach cuts nothing.
    assert not browser.diagnostics.react_tree(max_depth=61).truncated


def test_react_devtools_names_of_the_other_component_kinds(browser: Browser, site: str) -> None:
    _open(browser, f"{site}/kinds", "u")
    tree = browser.diagnostics.react_tree()
    assert [(n.depth, n.name, n.kind, n.key) for n in tree.nodes] == [
        (0, "Root", "root", None),
        (1, "App", "function", None),
        (2, "Theme.Provider", "context", None),
        (3, "Clock", "class", None),
        (4, "time", "host", None),
        (3, "ForwardRef(FancyInput)", "forward_ref", None),
        (4, "input", "host", None),
        (3, "Fragment", "other", "kf"),
        (4, "Memo(PureLabel)", "memo", None),
        (5, "span", "host", None),
        (3, "CustomName", "function", None),
        (4, "b", "host", None),
        (3, "Portal", "function", None),
        (4, "em", "host", None),
        (3, "Waiting", "function", None),
        (4, "Suspense", "suspense", None),
        (5, "p", "host", None),
        (3, "Theme.Consumer", "context", None),
        (4, "small", "host", None),
        (3, "Profiler", "profiler", None),
        (4, "u", "host", None),
    ]


def test_a_selector_walks_that_part_of_the_page(browser: Browser, site: str) -> None:
    _open(browser, f"{site}/todo", "li")
    part = browser.diagnostics.react_tree(selector="ul")
    assert part.scoped
    assert [(n.depth, n.name, n.key) for n in part.nodes] == [
        (0, "ul", None),
        (1, "TodoItem", "milk"),
        (2, "li", None),
        (1, "TodoItem", "eggs"),
        (2, "li", None),
        (1, "TodoItem", "bread"),
        (2, "li", None),
    ]
    # The root's container holds the whole app; an element React does not render holds none.
    assert _shape(browser.diagnostics.react_tree(selector="#root")) == TODO_TREE
    assert browser.diagnostics.react_tree(selector="#plain").nodes == ()
    with pytest.raises(BrowserError) as missing:
        browser.diagnostics.react_tree(selector="#nowhere")
    assert missing.value.code == "not_found" and "#nowhere" in str(missing.value)
    with pytest.raises(InvalidArgumentError, match="not a valid CSS selector"):
        browser.diagnostics.react_tree(selector="[[")


def test_a_page_without_react_raises_react_not_found(browser: Browser, site: str) -> None:
    browser.page.open(f"{site}/plain")
    with pytest.raises(BrowserError) as err:
        browser.diagnostics.react_tree()
    assert err.value.code == "react_not_found" and err.value.action == "react_tree"
    assert "no React root on this page" in str(err.value)


def test_bad_limits_raise_before_anything_runs(browser: Browser) -> None:
    with pytest.raises(ValueError, match="max_nodes must be from 1 to 20000, got 0"):
        browser.diagnostics.react_tree(max_nodes=0)
    with pytest.raises(ValueError, match="max_depth must be from 0 to 10000, got -1"):
        browser.diagnostics.react_tree(max_depth=-1)
    with pytest.raises(TypeError, match="max_nodes must be an int"):
        browser.diagnostics.react_tree(max_nodes=True)
    with pytest.raises(ValueError, match="selector must not be empty"):
        browser.diagnostics.react_tree(selector=" ")


def test_async_react_tree(agentbrowser_bin: Path, site: str) -> None:
    async def main() -> ReactTree:
        async with await AsyncBrowser.launch() as b:
            await b.page.open(f"{site}/todo")
            await b.page.wait_for_selector("li", state="attached")
            return await b.diagnostics.react_tree(host_elements=False, max_nodes=4)

    tree = asyncio.run(main())
    assert tree.names() == ("Root", "App", "TodoList", "TodoItem") and tree.max_nodes_reached


PEER_SCRIPT = """
import os, sys
from agentbrowser import Browser
with Browser.launch() as browser:
    browser.page.open(sys.argv[1])
    browser.page.wait_for_selector(sys.argv[2], state="attached")
    print(browser.diagnostics.react_tree()["tree"])
"""


def _node_lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if not line.startswith("#")]


def test_pyagentbrowser_lists_the_same_nodes(browser: Browser, site: str) -> None:
    peer_python = peer_api.ensure_venv(REPO / "target" / "peer-venv", peer_api.PEER_VERSION)
    base = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    env = {**base, "AGENT_BROWSER_EXECUTABLE_PATH": "/usr/bin/chromium", "AGENT_BROWSER_ENABLE": "react-devtools"}
    for page, ready in (("todo", "li"), ("kinds", "u")):
        done = subprocess.run(
            [str(peer_python), "-c", PEER_SCRIPT, f"{site}/{page}", ready],
            capture_output=True, text=True, timeout=180, env=env,
        )
        assert done.returncode == 0, done.stderr[-3000:]
        _open(browser, f"{site}/{page}", ready)
        ours = browser.diagnostics.react_tree()
        # Same nodes, ids, parents and keys (both number a fresh page's nodes 1, 2, ... in walk order).
        assert _node_lines(done.stdout) == _node_lines(ours.tree)
