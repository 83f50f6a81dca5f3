"""End-to-end: frames as handles (``page.frames``), tab labels, tab-bound page handles and popups,
sync and async, on real Chromium."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from agentbrowser import (
    AsyncBrowser,
    Browser,
    BrowserError,
    Frame,
    FrameLookupError,
    TabInfo,
)
from conftest import PAGES, _page, aeventually, eventually

pytestmark = pytest.mark.e2e

PAGES["/fx-top"] = _page(
    "Frames top",
    "<h1>Top page</h1>"
    "<iframe name='inner' src='/fx-child' style='width:400px;height:200px;border:0'></iframe>"
    "<script>document.write(\"<iframe name='cross' style='width:300px;height:150px;border:0' "
    "src='http://localhost:\" + location.port + \"/fx-cross'></iframe>\")</script>",
)
PAGES["/fx-child"] = _page(
    "Child doc",
    "<h2>Child heading</h2><button onclick=\"document.title='clicked in child'\">Inside</button>"
    "<iframe name='grand' src='/fx-grand'></iframe>",
)
PAGES["/fx-grand"] = _page("Grand", "<p>grandchild text</p>")
PAGES["/fx-cross"] = _page("Cross doc", "<p>cross text</p><button>Cross button</button>")
PAGES["/fx-plain"] = _page("Plain", "<p>no frames</p>")
PAGES["/fx-opener"] = _page("Opener", "<button onclick=\"window.open('/fx-plain')\">Pop</button>")
PAGES["/fx-closer"] = _page(
    "Closer", "<button onclick=\"opener.closedBy = 'button'; window.close()\">Close</button>"
)


@pytest.fixture(scope="module")
def browser(agentbrowser_bin: Path, require: Callable[..., None]) -> Iterator[Browser]:
    require("frames", "frame", "tab_new")
    with Browser.launch(timeout_ms=20000) as b:
        yield b


def _open_frames(b: Browser, server: str) -> tuple[Frame, ...]:
    b.page.open(f"{server}/fx-top")
    frames: tuple[Frame, ...] = ()

    def ready() -> bool:
        nonlocal frames
        frames = b.page.frames.tree()
        return len(frames) == 3 and any("/fx-cross" in f.url for f in frames)

    assert eventually(ready, 10), frames
    return frames


def test_tree_and_get(browser: Browser, server: str) -> None:
    frames = _open_frames(browser, server)
    names = {f.name: f for f in frames}
    assert set(names) == {"inner", "grand", "cross"}
    assert names["grand"].parent_frame_id == names["inner"].id
    assert names["cross"].info.out_of_process and names["cross"].info.cross_origin
    assert browser.page.frames.get(name="inner").id == names["inner"].id
    assert browser.page.frames.get(url="/fx-cross").id == names["cross"].id
    assert browser.page.frames.get(selector="iframe[name=cross]").id == names["cross"].id
    with pytest.raises(FrameLookupError) as nested:
        browser.page.frames.get(selector="iframe[name=grand]")  # inside the child frame, not the page
    assert nested.value.reason == "not_found"
    assert browser.page.frames.get(id=names["grand"].id).name == "grand"
    with pytest.raises(TypeError):
        browser.page.frames.get(name="inner", url="x")
    with pytest.raises(TypeError):
        browser.page.frames.get()
    with pytest.raises(FrameLookupError) as missing:
        browser.page.frames.get(name="nope")
    assert missing.value.reason == "not_found"
    assert isinstance(missing.value, LookupError)
    assert 0 < len(missing.value.candidates) <= 8
    with pytest.raises(FrameLookupError) as several:
        browser.page.frames.get(url="/fx-")
    assert several.value.reason == "ambiguous"


def test_frame_handle_commands(browser: Browser, server: str, tmp_path: Path) -> None:
    _open_frames(browser, server)
    inner = browser.page.frames.get(name="inner")
    assert inner.title() == "Child doc"
    assert inner.evaluate("document.querySelector('h2').textContent") == "Child heading"
    assert inner.location().endswith("/fx-child")
    snap = inner.observe()
    assert "Inside" in snap.text and "Top page" not in snap.text
    snap.one(role="button", name="Inside").click()
    assert inner.title() == "clicked in child"
    assert browser.page.title() == "Frames top"  # the page itself is not scoped
    inner.find.css("button").click()
    inner.wait_for_text("Child heading", timeout_ms=3000)
    with pytest.raises(BrowserError) as late:
        inner.wait_for_text("Top page", timeout_ms=500)
    assert late.value.code == "timeout"
    cross = browser.page.frames.get(name="cross")
    assert "Cross button" in cross.observe().text
    shot = cross.screenshot(tmp_path / "cross.png")
    assert (shot.width, shot.height) == (300, 150)
    assert (tmp_path / "cross.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    browser.page.open(f"{server}/fx-plain")
    with pytest.raises(FrameLookupError) as gone:
        inner.title()
    assert gone.value.reason == "detached"


def test_labels_get_open_and_keywords(browser: Browser, server: str) -> None:
    for t in browser.tabs.list()[1:]:
        browser.tabs.close(t)
    browser.page.open(f"{server}/fx-plain")
    docs = browser.tabs.new(f"{server}/fx-opener", label="docs")
    assert isinstance(docs, TabInfo) and docs.label == "docs"
    first = browser.tabs.list()[0]
    browser.tabs.switch(id=first.id)
    handle = browser.tabs.get(label="docs")
    assert handle.title() == "Opener"
    assert browser.page.title() == "Plain"  # the active tab did not change
    assert browser.tabs.get(index=int(first.id[1:])).title() == "Plain"
    with pytest.raises(LookupError):
        browser.tabs.get(label="nothing")
    with pytest.raises(TypeError):
        browser.tabs.switch("docs", label="docs")
    with pytest.raises(BrowserError) as dup:
        browser.tabs.new(label="docs")
    assert dup.value.code == "invalid_argument"
    with pytest.raises(BrowserError) as shaped:
        browser.tabs.new(label="t9")
    assert shaped.value.code == "invalid_argument"
    with pytest.raises(BrowserError) as bad:
        browser.tabs.switch(label="nothing")
    assert bad.value.code == "tab_not_found"
    # open() reuses the labelled tab: no new tab, navigated and active.
    count = len(browser.tabs.list())
    reused = browser.tabs.open(f"{server}/fx-grand", label="docs")
    assert reused.id == docs.id and reused.active and reused.url.endswith("/fx-grand")
    assert len(browser.tabs.list()) == count
    fresh = browser.tabs.open(f"{server}/fx-plain", label="other")
    assert fresh.id != docs.id and fresh.label == "other"
    switched = browser.tabs.switch(label="docs")
    assert switched.id == docs.id and switched.revived is False
    closed = browser.tabs.close(label="other")
    assert closed.label == "other"


def test_popup_in_evidence(browser: Browser, server: str) -> None:
    browser.page.open(f"{server}/fx-opener")
    before = len(browser.tabs.list())
    result = browser.page.find.role("button", name="Pop").click()
    assert len(result.opened_tabs) == 1
    popup = result.opened_tabs[0]
    assert not popup.active
    assert len(browser.tabs.list()) == before + 1
    assert eventually(lambda: browser.tabs.get(id=popup.id).url().endswith("/fx-plain"), 5)
    browser.tabs.close(popup.id)


def test_click_that_closes_its_own_tab(browser: Browser, server: str) -> None:
    browser.page.open(f"{server}/fx-opener")
    before = {t.id for t in browser.tabs.list()}
    browser.page.evaluate("window.closedBy = null; window.open('/fx-closer'); 1")
    assert eventually(lambda: len(browser.tabs.list()) == len(before) + 1, 5)
    (popup,) = [t for t in browser.tabs.list() if t.id not in before]
    page = browser.tabs.get(id=popup.id)
    assert eventually(lambda: page.title() == "Closer", 5)
    result = page.find.role("button", name="Close").click()
    # The click was performed (the opener says so) and the result says the tab is gone.
    assert result.closed_tab == popup.id, result.raw
    assert result.after is None and result.diff is None
    assert result.note is not None and "closed its tab" in result.note
    assert {t.id for t in browser.tabs.list()} == before
    assert browser.page.evaluate("window.closedBy") == "button"


def test_async_frames_and_tabs(agentbrowser_bin: Path, server: str, require: Callable[..., None]) -> None:
    require("frames", "frame")

    async def run() -> None:
        async with await AsyncBrowser.launch(timeout_ms=20000) as b:
            await b.page.open(f"{server}/fx-top")
            async def all_three() -> bool:
                frames = await b.page.frames.tree()
                return len(frames) == 3 and any("/fx-cross" in f.url for f in frames)

            assert await aeventually(all_three, 10.0), await b.page.frames.tree()
            inner = await b.page.frames.get(name="inner")
            assert await inner.title() == "Child doc"
            assert await inner.evaluate("location.pathname") == "/fx-child"
            assert "Inside" in (await inner.observe()).text
            with pytest.raises(FrameLookupError):
                await b.page.frames.get(name="nope")
            tab = await b.tabs.new(f"{server}/fx-plain", label="side")
            await b.tabs.switch(index=1)
            side = await b.tabs.get(label="side")
            assert await side.title() == "Plain"
            assert await b.page.title() == "Frames top"
            assert (await b.tabs.close(label="side")).id == tab.id

    asyncio.run(run())
