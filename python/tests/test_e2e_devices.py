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


PAGES["/devices-popup"] = _page(
    "Popup opener",
    "<a id='blank' href='/devices' target='_blank' "
    "style='position:absolute;left:10px;top:10px;width:200px;height:30px;display:block'>Blank link</a>"
    "<a id='win' href='#' onclick=\"window.open('/devices'); return false\">Window link</a>",
)


def test_mouse_and_keyboard_report_the_tabs_they_open(browser: Browser, server: str) -> None:
    page = browser.page
    page.open(f"{server}/devices-popup")
    before = len(browser.tabs.list())
    page.mouse.move(50, 20)
    assert page.mouse.down().opened_tabs == ()
    up = page.mouse.up()
    assert len(up.opened_tabs) == 1, up.raw
    assert up.opened_tabs[0].active is False
    page.evaluate("document.getElementById('win').focus()")
    down = page.keyboard.down("Enter")
    page.keyboard.up("Enter")
    assert len(down.opened_tabs) == 1, down.raw
    assert len(browser.tabs.list()) == before + 2
    assert page.keyboard.type("x").opened_tabs == ()


def test_async_mouse_reports_the_tab_it_opens(agentbrowser_bin: Path, server: str) -> None:
    async def main() -> None:
        async with await AsyncBrowser.launch(LaunchOptions(timeout_ms=20000)) as b:
            await b.page.open(f"{server}/devices-popup")
            await b.page.mouse.move(50, 20)
            await b.page.mouse.down()
            up = await b.page.mouse.up()
            assert len(up.opened_tabs) == 1, up.raw
            assert up.opened_tabs[0].active is False
            assert len(await b.tabs.list()) == 2

    asyncio.run(main())
