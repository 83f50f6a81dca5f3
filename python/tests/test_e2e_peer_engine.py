"""End-to-end: pyagentbrowser's last gaps that needed engine work (issue 37), sync and async, each
checked in the page's own state on real Chromium: ``emulation.media(features=)``, raw key and
mouse events (``keyboard.down/up(code=, text=)``, ``keyboard.dispatch``, ``mouse.dispatch``),
``page.read(allowed_domains=)`` and frame waits that the engine runs in the frame."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from agentbrowser import AsyncBrowser, Browser, BrowserError
from conftest import PAGES, _page

pytestmark = pytest.mark.e2e

PAGES["/pe-input"] = _page(
    "Raw input",
    "<input id=box aria-label=Box>"
    "<div id=pad style='position:absolute;left:0;top:100px;width:400px;height:200px'>pad</div>"
    "<script>window.log = [];"
    "const key = e => log.push([e.type, e.key, e.code, e.shiftKey].join(' '));"
    "box.addEventListener('keydown', key); box.addEventListener('keyup', key);"
    "const note = e => log.push([e.type, e.button, e.clientX, e.clientY].join(' '));"
    "for (const t of ['mousedown', 'mouseup', 'click']) pad.addEventListener(t, note);</script>",
)
PAGES["/pe-top"] = _page("Frame top", "<iframe name='kid' src='/pe-first'></iframe>")
PAGES["/pe-first"] = _page(
    "First", "<p>first</p><script>onload = () => setTimeout(() => location.href = '/pe-second', 300)</script>"
)
PAGES["/pe-second"] = _page(
    "Second",
    "<p>second</p><img src='/slow?ms=1200'><script>setTimeout(() => window.late = 1, 500)</script>",
)
PAGES["/pe-read"] = _page("Readable", "<main><h1>Allowed</h1><p>Read me.</p></main>")

CONTRAST = "matchMedia('(prefers-contrast: more)').matches"


@pytest.fixture(scope="module")
def browser(agentbrowser_bin: Path, require: Callable[..., None]) -> Iterator[Browser]:
    require("keyboard_dispatch", "mouse_dispatch", "set_media", "read", "wait")
    with Browser.launch(timeout_ms=20000) as b:
        yield b


def test_media_features(browser: Browser, server: str) -> None:
    page = browser.page
    page.open(f"{server}/pe-read")
    settings = browser.emulation.media(color_scheme="dark", features={"prefers-contrast": "more"})
    assert page.evaluate(CONTRAST) is True
    assert page.evaluate("matchMedia('(prefers-color-scheme: dark)').matches") is True
    assert settings.features == {"prefers-contrast": "more"}
    browser.emulation.media(features={"prefers-contrast": ""})
    assert page.evaluate(CONTRAST) is False
    browser.emulation.media()
    with pytest.raises(BrowserError, match="media feature name"):
        browser.emulation.media(features={"Not A Name": "x"})


def test_raw_keys_and_mouse(browser: Browser, server: str) -> None:
    page = browser.page
    page.open(f"{server}/pe-input")
    page.evaluate("box.focus()")
    browser.keyboard.down("a", code="KeyQ", text="z")
    browser.keyboard.up("a", code="KeyQ")
    browser.keyboard.dispatch("rawKeyDown", key="Shift")
    browser.keyboard.dispatch("keyDown", key="b")
    browser.keyboard.dispatch("keyUp", key="b")
    browser.keyboard.dispatch("keyUp", key="Shift")
    browser.keyboard.dispatch("char", text="!")
    assert page.evaluate("box.value") == "zb!"
    assert page.evaluate("log.splice(0)") == [
        "keydown a KeyQ false",
        "keyup a KeyQ false",
        "keydown Shift ShiftLeft true",
        "keydown b KeyB true",
        "keyup b KeyB true",
        "keyup Shift ShiftLeft false",
    ]
    browser.mouse.dispatch("mouseMoved", x=30, y=150)
    browser.mouse.dispatch("mousePressed", x=30, y=150, button="left", click_count=1)
    browser.mouse.dispatch("mouseReleased", x=30, y=150, button="left", click_count=1)
    assert page.evaluate("log.splice(0)") == ["mousedown 0 30 150", "mouseup 0 30 150", "click 0 30 150"]
    with pytest.raises(BrowserError, match="button"):
        browser.mouse.dispatch("mousePressed", x=5, y=5)
    with pytest.raises(BrowserError):
        browser.mouse.dispatch("mouseMoved", x=-1, y=5)
    with pytest.raises(BrowserError):
        browser.keyboard.dispatch("keyTwisted", key="a")


def test_read_allowed_domains(browser: Browser, server: str) -> None:
    port = server.rsplit(":", 1)[1]
    result = browser.page.read(f"{server}/pe-read", allowed_domains=["127.0.0.1"])
    assert "Read me." in result.content
    with pytest.raises(BrowserError, match="localhost") as err:
        browser.page.read(f"http://localhost:{port}/pe-read", allowed_domains=["127.0.0.1"])
    assert err.value.code == "domain_not_allowed"
    browser.page.open(f"{server}/pe-read")
    assert "Read me." in browser.page.read(allowed_domains=["127.0.0.1"]).content
    with pytest.raises(BrowserError) as err:
        browser.page.read(allowed_domains=["localhost"])
    assert err.value.code == "domain_not_allowed"
    with pytest.raises(TypeError):
        browser.page.read(allowed_domains="127.0.0.1")


def test_frame_waits_run_in_the_frame(browser: Browser, server: str) -> None:
    page = browser.page
    page.open(f"{server}/pe-top")
    kid = page.frames.get(name="kid")
    kid.wait_for_url("**/pe-second")
    kid.wait_for_load_state("load")
    assert kid.evaluate("[document.readyState, document.images[0].complete]") == ["complete", True]
    kid.wait_for_function("() => window.late === 1")
    assert kid.evaluate("window.late") == 1
    with pytest.raises(BrowserError) as err:
        page.wait_for_function("() => window.late === 1", timeout_ms=800)
    assert err.value.code == "timeout"


def test_async_twins(agentbrowser_bin: Path, server: str) -> None:
    async def run() -> None:
        async with await AsyncBrowser.launch(timeout_ms=20000) as b:
            await b.page.open(f"{server}/pe-top")
            kid = await b.page.frames.get(name="kid")
            await kid.wait_for_url("**/pe-second")
            await kid.wait_for_function("() => window.late === 1")
            await b.emulation.media(features={"prefers-contrast": "more"})
            assert await b.page.evaluate(CONTRAST) is True
            await b.page.open(f"{server}/pe-input")
            await b.page.evaluate("box.focus()")
            await b.keyboard.down("x", code="KeyX")
            await b.keyboard.up("x", code="KeyX")
            await b.keyboard.dispatch("char", text="y")
            await b.mouse.dispatch("mousePressed", x=30, y=150, button="left")
            await b.mouse.dispatch("mouseReleased", x=30, y=150, button="left")
            assert await b.page.evaluate("box.value") == "xy"
            assert "click 0 30 150" in await b.page.evaluate("log")
            result = await b.page.read(f"{server}/pe-read", allowed_domains=["127.0.0.1"])
            assert "Read me." in result.content

    asyncio.run(run())
