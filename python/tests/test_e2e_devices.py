"""End-to-end: low-level keyboard and mouse from the SDK (sync and async); the page sees the events."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import pytest
from agentbrowser import ActionResult, AsyncBrowser, Browser, LaunchOptions
from conftest import PAGES, _page, aeventually

PAGES["/devices"] = _page(
    "Devices",
    '<input id="box" aria-label="Box">'
    "<div id='pad' style='position:absolute;left:0;top:100px;width:400px;height:200px'>pad</div>"
    "<div style='height:3000px'></div>"
    "<script>window.log = [];"
    "const key = e => log.push([e.type, e.key, e.shiftKey].join(' '));"
    "box.addEventListener('keydown', key);"
    "box.addEventListener('input', e => log.push('input ' + e.inputType));"
    "for (const t of ['mousedown', 'mouseup', 'click']) pad.addEventListener(t, e => log.push([e.type, e.button, e.clientX, e.clientY].join(' ')));"
    "</script>",
)


@pytest.fixture(scope="module")
def browser(agentbrowser_bin: Path) -> Iterator[Browser]:
    with Browser.launch(LaunchOptions(timeout_ms=20000)) as b:
        yield b


def test_keyboard(browser: Browser, server: str) -> None:
    browser.page.open(f"{server}/devices")
    browser.page.evaluate("box.focus()")
    result = browser.page.keyboard.type("ok")
    assert isinstance(result, ActionResult) and result.action == "keyboard_type" and result.diff is not None
    browser.page.keyboard.insert_text("!")
    browser.page.keyboard.down("Shift")
    browser.page.keyboard.down("x")
    browser.page.keyboard.up("x")
    browser.page.keyboard.up("Shift")
    assert browser.page.evaluate("box.value") == "ok!x"
    log = browser.page.evaluate("log.splice(0)")
    assert "keydown o false" in log
    assert "input insertText" in log and "keydown x true" in log
    assert log.count("keydown ! false") == 0  # inserted text has no key event
    with pytest.raises(TypeError, match="non-empty"):
        browser.page.keyboard.type("")


def test_mouse(browser: Browser, server: str) -> None:
    browser.page.open(f"{server}/devices")
    browser.page.mouse.move(20, 120)
    browser.page.mouse.down()
    browser.page.mouse.up()
    browser.page.mouse.down("right")
    browser.page.mouse.up("right")
    assert browser.page.evaluate("log.splice(0)") == [
        "mousedown 0 20 120",
        "mouseup 0 20 120",
        "click 0 20 120",
        "mousedown 2 20 120",
        "mouseup 2 20 120",
    ]
    with pytest.raises(ValueError, match="button"):
        browser.page.mouse.down("thumb")
    with pytest.raises(TypeError, match="x"):
        browser.page.mouse.move("1", 2)  # type: ignore[arg-type]


def test_async_mouse_wheel(agentbrowser_bin: Path, server: str) -> None:
    async def main() -> None:
        async with await AsyncBrowser.launch(LaunchOptions(timeout_ms=20000)) as b:
            await b.page.open(f"{server}/devices")
            await b.page.mouse.move(50, 150)
            result = await b.page.mouse.wheel(0, 400)
            assert result.action == "mouse_wheel"
            # Wheel scrolling is animated: the page gets there within a moment.
            async def scrolled() -> bool:
                return bool(await b.page.evaluate("scrollY") > 0)

            assert await aeventually(scrolled), "the wheel never scrolled the page"
            await b.page.evaluate("box.focus()")
            await b.page.keyboard.type("hey")
            assert await b.page.evaluate("box.value") == "hey"

    asyncio.run(main())
