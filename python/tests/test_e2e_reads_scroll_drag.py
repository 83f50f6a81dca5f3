"""End-to-end: layout reads (box, styles, geometry, html, count), scrolling, drag and the
clipboard on real Chromium, sync and async."""

from __future__ import annotations

import asyncio
import math
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from agentbrowser import (
    ActionResult,
    AmbiguousTargetError,
    AsyncBrowser,
    BoundingBox,
    Browser,
    BrowserError,
    ElementGeometry,
    LaunchOptions,
    ScrollPosition,
    ScrollResult,
)

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def browser(agentbrowser_bin: Path, require: Callable[..., None]) -> Iterator[Browser]:
    require("box", "styles", "geometry", "scroll", "drag", "clipboard_read")
    with Browser.launch(timeout_ms=20000) as b:
        yield b


def test_box_styles_geometry(browser: Browser, server: str) -> None:
    page = browser.page
    page.open(f"{server}/layout")
    box = page.box("#panel")
    assert isinstance(box, BoundingBox)
    assert (box.x, box.y, box.width, box.height, box.visible) == (40, 30, 200, 100, True)
    assert page.find.xpath("//div[@id='panel']").count() == 1
    assert page.styles("#panel", ["color"]) == {"color": "rgb(0, 128, 0)"}
    assert page.styles(page.find.css("#panel"))["position"] == "absolute"
    with pytest.raises(BrowserError) as bad:
        page.styles("#panel", ["colour"])
    assert bad.value.code == "invalid_argument"
    doc = page.geometry()
    assert isinstance(doc, ElementGeometry)
    assert doc.selector == "document" and doc.overflows_y and doc.scroll_height >= 3000
    lst = page.geometry("#list")
    assert (lst.client_height, lst.scroll_height, lst.overflows_y, lst.overflows_x) == (80, 400, True, False)
    with pytest.raises(ValueError):
        page.geometry("")
    with pytest.raises(AmbiguousTargetError):
        page.html("p.two")
    assert page.html("#panel") == "Panel"
    assert page.count("p.two") == 2
    assert page.count(page.find.text("Panel")) == 1


def test_scroll_is_truthful(browser: Browser, server: str) -> None:
    page = browser.page
    page.open(f"{server}/layout")
    r = page.scroll.down()
    assert isinstance(r, ScrollResult)
    assert (r.before, r.after, r.moved, r.container) == (ScrollPosition(0, 0), ScrollPosition(0, 300), True, "document")
    assert page.evaluate("window.scrollY") == 300
    r = page.scroll.by(y=-1000)
    assert r.after.y == 0 and r.moved
    r = page.scroll.up()
    assert not r.moved, "at the top nothing moves, and the result says so"
    r = page.scroll.down(120, selector="#list")
    assert (r.container, r.after.y, r.moved) == ("#list", 120, True)
    assert page.evaluate("document.getElementById('list').scrollTop") == 120
    for bad in (math.inf, math.nan):
        with pytest.raises(ValueError):
            page.scroll.by(y=bad)
    with pytest.raises(ValueError):
        page.scroll.down(0)
    with pytest.raises(ValueError):
        page.scroll.by(selector="")


def test_drag_and_clipboard(browser: Browser, server: str) -> None:
    page = browser.page
    page.open(f"{server}/layout")
    out = page.find.css("#card").drag_to("#zone")
    assert isinstance(out, ActionResult)
    assert page.evaluate("document.getElementById('zone').textContent") == "Got card"
    assert out.raw["droppedOn"]["ref"]
    browser.clipboard.write("from python")
    assert page.evaluate("navigator.clipboard.readText()") == "from python"
    page.evaluate("navigator.clipboard.writeText('page wrote')")
    assert browser.clipboard.read() == "page wrote"
    page.evaluate("(() => { const s = document.getElementById('src'); s.focus(); s.select(); })()")
    browser.clipboard.copy()
    assert browser.clipboard.read() == "copy me"
    page.find.css("#dst").focus()
    browser.clipboard.paste()
    assert page.evaluate("document.getElementById('dst').value") == "copy me"


def test_async(agentbrowser_bin: Path, server: str, require: Callable[..., None]) -> None:
    require("box", "scroll", "drag", "clipboard_read")

    async def main() -> None:
        async with await AsyncBrowser.launch(LaunchOptions(timeout_ms=20000)) as b:
            await b.page.open(f"{server}/layout")
            box = await b.page.box("#panel")
            assert (box.x, box.width) == (40, 200)
            g = await b.page.geometry("#list")
            assert g.overflows_y
            r = await b.page.scroll.down(50, selector="#list")
            assert r.moved and r.after.y == 50
            assert (await b.page.styles("#panel", ["color"]))["color"] == "rgb(0, 128, 0)"
            await b.page.drag("#card", b.page.find.css("#zone"))
            assert await b.page.evaluate("document.getElementById('zone').textContent") == "Got card"
            await b.clipboard.write("async text")
            assert await b.clipboard.read() == "async text"

    asyncio.run(main())
