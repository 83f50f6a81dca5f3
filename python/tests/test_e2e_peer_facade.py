"""End-to-end: pyagentbrowser's facade names on our clients (issue 37), sync and async, each checked
against the page's own state on real Chromium: the browser-level namespaces, document methods of
pages and frames (``content``/``set_content``, waits, identity), and its parameter names."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from agentbrowser import AsyncBrowser, Browser, DocumentScope, Navigation, SnapshotSpec
from conftest import PAGES, _page, eventually

pytestmark = pytest.mark.e2e

PAGES["/pf-top"] = _page(
    "Peer top",
    "<h1>Top</h1><input placeholder='Your email'>"
    "<iframe name='kid' src='/pf-child' style='width:400px;height:200px;border:0'></iframe>",
)
PAGES["/pf-child"] = _page(
    "Peer child", "<p id='late'>child text</p><button>Kid button</button><iframe name='grand' src='/pf-grand'></iframe>"
)
PAGES["/pf-grand"] = _page("Peer grand", "<p>grand text</p>")
PAGES["/pf-scroll-top"] = _page(
    "Scroll top",
    "<h1>Tall top</h1><iframe name='tall' src='/pf-scroll-kid' style='width:300px;height:200px'></iframe>"
    "<div style='height:3000px'></div>",
)
PAGES["/pf-scroll-kid"] = _page(
    "Scroll kid",
    "<div id='box' style='height:80px;overflow:auto'><div style='height:900px'>box</div></div>"
    "<div style='height:2000px'>kid</div>",
)

DOC = (
    "<title>Set doc</title><h1 id='h'>Hello set</h1>"
    "<img id='pic' src='data:image/gif;base64,R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7' onload='window.picLoaded = 1'>"
    "<a id='dl' download='note.txt' href='data:text/plain,peer%20download'>Get note</a>"
    "<script>window.ran = (window.ran || 0) + 1</script>"
)


@pytest.fixture(scope="module")
def browser(agentbrowser_bin: Path, require: Callable[..., None]) -> Iterator[Browser]:
    require("frames", "eval", "tab_switch")
    with Browser.launch(timeout_ms=20000) as b:
        yield b


def test_lazy_browser_is_launched_activate_and_namespaces(agentbrowser_bin: Path, server: str) -> None:
    with Browser() as b:
        assert not b.started and not b.is_launched
        assert b.activate() is b and b.is_launched
        # The browser-level namespaces are the active page's.
        assert b.keyboard is b.page.keyboard and b.mouse is b.page.mouse
        assert b.storage is b.page.storage and b.webmcp is b.page.webmcp
        b.page.open(f"{server}/pf-top")
        b.storage.set("k", "v")
        assert b.page.evaluate("localStorage.getItem('k')") == "v"
        b.page.find.placeholder(placeholder="Your email").fill("a@b.c")
        b.keyboard.press("End")
        b.keyboard.type("x")
        assert b.page.evaluate("document.querySelector('input').value") == "a@b.cx"
        # The page shows as visible: activate brought its tab to the front.
        assert b.page.evaluate("document.visibilityState") == "visible"
        assert b.dashboard.status() == {"running": False, "url": None, "port": None, "session": None, "control": False}
        assert b.session is None  # an unnamed launched browser


def test_session_is_a_name_and_a_namespace(agentbrowser_bin: Path) -> None:
    with Browser.launch(session="peer-facade-s", timeout_ms=20000) as b:
        assert b.session == "peer-facade-s" and isinstance(b.session, str)
        st = b.session.status()
        assert st.session == "peer-facade-s"


def test_set_content_and_content(browser: Browser) -> None:
    page = browser.page
    page.open("about:blank")
    nav = page.set_content(DOC)
    assert isinstance(nav, Navigation) and nav.title == "Set doc" and nav.raw["readyState"] == "complete"
    # The document is the new one, its script ran once, its image had loaded when it answered.
    assert page.evaluate(script="document.getElementById('h').textContent") == "Hello set"
    assert page.evaluate(js="[window.ran, window.picLoaded]") == [1, 1]
    assert page.title() == "Set doc" and page.url() == "about:blank"
    html = page.content()
    assert html.startswith("<html>") and "Hello set" in html and html == page.evaluate(
        "document.documentElement.outerHTML"
    )
    with pytest.raises(TypeError, match="script= and js="):
        page.evaluate("1", js="2")
    # The whole document, however long (the engine's html read has no cut here).
    page.evaluate("document.body.insertAdjacentHTML('beforeend', '<p>' + 'x'.repeat(300000) + '</p>')")
    assert len(page.content()) > 300000
    # A ref of the new document acts on it.
    page.observe().one(role="heading", name="Hello set")


def test_downloads_namespace(browser: Browser, tmp_path: Path) -> None:
    browser.page.open("about:blank")
    browser.page.set_content(DOC)
    got = browser.downloads.download("#dl", tmp_path)
    assert got == tmp_path / "note.txt" and got.read_text() == "peer download"


def test_diff_namespace(browser: Browser, tmp_path: Path) -> None:
    page = browser.page
    page.open("about:blank")
    page.set_content("<button>One</button>")
    first = page.observe()
    page.evaluate("document.body.insertAdjacentHTML('beforeend', '<button>Two</button>')")
    d = browser.diff.snapshot()
    assert d.changed and d.additions >= 1 and "Two" in d.text
    base = tmp_path / "base.txt"
    base.write_text(first.text)
    d2 = browser.diff.snapshot(base)
    assert d2.changed and "Two" in d2.diff and d2.additions >= 1


def test_frame_document_methods(browser: Browser, server: str, tmp_path: Path) -> None:
    page = browser.page
    page.open(f"{server}/pf-top")
    assert page.frame_id is None and page.frame_name == "" and page.parent_frame_id is None
    page.wait_for_load_state("load")
    page.wait_for_url("/pf-top")
    page.wait_for_text("Top")
    page.wait_for_selector(selector="iframe")
    page.wait_for_function(predicate="document.querySelectorAll('iframe').length === 1")
    assert eventually(lambda: len(page.frames.tree()) == 2, 10)
    kid = page.frames.get(name="kid")
    assert kid.frame_id == kid.id and kid.frame_name == "kid" and kid.frame_url.endswith("/pf-child")
    # frame.url is the listed URL and, called, the URL now.
    assert kid.url == kid.frame_url and kid.url() == kid.location()
    kid.wait_for_load_state()
    kid.wait_for_url("/pf-child")
    kid.wait_for_selector("#late", state="attached")
    kid.wait_for_function("document.getElementById('late') !== null")
    kid.ready()
    assert "child text" in kid.content() and "Top" not in kid.content()
    assert kid.evaluate(script="document.title") == "Peer child"
    assert kid.geometry().scroll_width > 0
    grand = kid.frames.tree()
    assert [f.frame_name for f in grand] == ["grand"] and grand[0].parent_frame_id == kid.id
    assert kid.frames.page is kid and kid.scroll.page is kid
    # The main frame's id is the tab's target id.
    tabs = browser.tabs.list()
    target = next(t.target_id for t in tabs if t.active)
    tree_kid = next(f for f in page.frames.tree() if f.frame_name == "kid")
    assert tree_kid.target_id == target
    assert tree_kid.scope == DocumentScope(target, tree_kid.id, tree_kid.frame_url, tree_kid.scope.generation)
    shot = kid.capture.screenshot(tmp_path / "kid.png", wait_ms=50)
    assert shot.path.exists() and shot.width == 400
    # Snapshots and refs know their document; an iframe ref gives its frame.
    snap = kid.observe(SnapshotSpec(interactive=False))
    assert snap.document is kid and snap.refs and next(iter(snap.refs.values())).document is kid
    top = page.observe(SnapshotSpec(interactive=False))
    assert top.document is page
    # Our snapshots inline a frame's content and issue no ref for the <iframe> itself, so
    # content_frame() has no iframe ref to take; any other ref is no frame.
    heading = next(r for r in top.refs.values() if r.role == "heading")
    with pytest.raises(ValueError, match="not an <iframe>"):
        heading.content_frame()


def test_frame_scroll_and_geometry_are_the_frames(browser: Browser, server: str) -> None:
    """A frame's scroll and geometry act on its own document (and an element of it on its own
    window), never on the tab's main document."""
    page = browser.page
    page.open(f"{server}/pf-scroll-top")
    assert eventually(lambda: any(f.frame_name == "tall" for f in page.frames.tree()), 10)
    kid = page.frames.get(name="tall")
    kid.wait_for_selector("#box")
    moved = kid.scroll.by(y=300)
    assert moved.moved and moved.scrolled == "document" and moved.after.y == 300, moved
    assert kid.evaluate("scrollY") == 300 and page.evaluate("scrollY") == 0
    inner = kid.scroll.by(y=200, selector="#box")
    assert inner.moved and inner.after.y == 200, inner
    assert kid.evaluate("document.getElementById('box').scrollTop") == 200
    assert kid.evaluate("scrollY") == 300 and page.evaluate("scrollY") == 0
    kid_doc, top_doc = kid.geometry(), page.geometry()
    assert kid_doc.client_height == 200 and top_doc.client_height != 200, (kid_doc, top_doc)
    assert kid_doc.scroll_height == kid.evaluate("document.scrollingElement.scrollHeight")


def test_tab_page_target_id(browser: Browser, server: str) -> None:
    browser.page.open(f"{server}/pf-grand")
    tab = next(t for t in browser.tabs.list() if t.active)
    page = browser.tabs.get(id=tab.id)
    assert page.target_id == tab.target_id and page.scope.target_id == tab.target_id
    assert browser.page.target_id is None


def test_peer_parameter_names(browser: Browser, server: str, tmp_path: Path) -> None:
    page = browser.page
    browser.network.route(url=f"{server}/pf-routed", body="<title>Routed</title><p>routed body</p>", content_type="text/html")
    try:
        page.open(f"{server}/pf-routed")
        assert page.title() == "Routed"
    finally:
        browser.network.unroute(f"{server}/pf-routed")
    browser.emulation.timezone(timezone_id="Asia/Tokyo")
    assert page.evaluate("Intl.DateTimeFormat().resolvedOptions().timeZone") == "Asia/Tokyo"
    browser.emulation.timezone(id=None)
    with pytest.raises(TypeError, match="timezone_id= and id="):
        browser.emulation.timezone("UTC", id="UTC")
    page.open("about:blank")
    page.set_content("<button onclick=\"document.title = prompt('Name?')\">Ask</button>")
    page.observe().one(role="button", name="Ask").click()
    browser.dialogs.accept(prompt_text="Ada")
    assert page.title() == "Ada"
    data = browser.native.data("title")
    assert data == {"title": "Ada"}
    assert browser.native.data("eval", expect="any", script="1") is not None
    shot = page.capture.screenshot(tmp_path / "p.png", wait_ms=20)
    assert shot.path.exists()
    browser.emulation.headers({"X-Peer": "yes"})


def test_async_twins(agentbrowser_bin: Path, server: str, tmp_path: Path) -> None:
    out = tmp_path

    async def main() -> None:
        async with AsyncBrowser() as b:
            assert not b.is_launched
            assert await b.activate() is b and b.is_launched
            nav = await b.page.set_content(DOC)
            assert nav.title == "Set doc" and await b.page.evaluate(script="window.ran") == 1
            assert "Hello set" in await b.page.content()
            await b.page.open(f"{server}/pf-top")
            await b.page.wait_for_selector(selector="iframe")
            # The child document has loaded (same origin): the frame tree lists it.
            await b.page.wait_for_function(
                predicate="window.frames.length === 1 && window.frames[0].document.readyState === 'complete'"
            )
            kid = await b.page.frames.get(name="kid")
            await kid.wait_for_load_state()
            assert await kid.url() == await kid.location() and kid.url.endswith("/pf-child")
            assert "child text" in await kid.content()
            await kid.wait_for_function(predicate="document.title === 'Peer child'")
            assert (await kid.observe()).document is kid
            await b.keyboard.press("Tab")
            await b.dashboard.stop()  # no dashboard: nothing to stop
            await b.page.open("about:blank")
            await b.page.set_content(DOC)
            got = await b.downloads.download("#dl", out)
            assert got.read_text() == "peer download"
            await b.page.observe()
            await b.page.evaluate("document.body.insertAdjacentHTML('beforeend', '<button>More</button>')")
            assert "More" in (await b.diff.snapshot()).text
            assert (await b.native.data("title")) == {"title": "Set doc"}
            await b.emulation.timezone(timezone_id="Asia/Tokyo")
            assert await b.page.evaluate(script="Intl.DateTimeFormat().resolvedOptions().timeZone") == "Asia/Tokyo"
            await b.mouse.wheel(delta_y=0, delta_x=0)
            assert await b.cookies.get(unsafe_export_all=True) == ()
        async with await AsyncBrowser.launch(session="peer-facade-as") as named:
            assert named.session == "peer-facade-as"
            assert (await named.session.status()).session == "peer-facade-as"

    asyncio.run(main())


def test_mouse_wheel_in_pyagentbrowsers_form(browser: Browser) -> None:
    page = browser.page
    page.open("about:blank")
    page.set_content("<div style='height:5000px;width:5000px'>tall</div>")
    browser.mouse.wheel(delta_y=300, x=20, y=20)
    assert eventually(lambda: page.evaluate("scrollY") == 300)
    browser.mouse.wheel()  # its default: 100 down
    assert eventually(lambda: page.evaluate("scrollY") == 400)
    browser.mouse.wheel(50, 0)  # ours: dx, dy
    assert eventually(lambda: page.evaluate("scrollX") == 50)
    with pytest.raises(TypeError, match="both dx and dy"):
        browser.mouse.wheel(200)


def test_unsafe_flags_with_allowed_domains(agentbrowser_bin: Path, server: str, tmp_path: Path) -> None:
    from agentbrowser import SessionOptions

    with Browser.launch(session=SessionOptions(allowed_domains=["127.0.0.1"]), timeout_ms=20000) as b:
        b.page.open(f"{server}/pf-grand")
        b.page.evaluate("document.cookie = 'peer=1; path=/'")
        kept = b.cookies.get()
        assert [c.name for c in kept] == ["peer"] and b.cookies.get(unsafe_export_all=True) == kept
        saved = b.state.save(tmp_path / "s.json", unsafe_export_all=True)
        with pytest.raises(ValueError, match="unsafe_import_all=True"):
            b.state.load(saved, unsafe_import_all=True)
        assert b.cookies.clear(unsafe_clear_all=True) == 1 and b.cookies.get() == ()
        b.state.load(saved)
        assert b.page.evaluate("document.cookie") == "peer=1"
        with pytest.raises(TypeError):
            b.cookies.get(unsafe_export_all="yes")  # type: ignore[arg-type]
