"""End-to-end: closed shadow roots and listener-only clickables get refs, sync and async."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from agentbrowser import AsyncBrowser, Browser

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def browser(agentbrowser_bin: Path, require: Callable[..., None]) -> Iterator[Browser]:
    require("snapshot", "click", "fill")
    with Browser.launch(timeout_ms=20000) as b:
        yield b


def test_closed_root_and_listener_refs_sync(browser: Browser, server: str) -> None:
    page = browser.page
    page.open(f"{server}/reach")
    assert page.evaluate("document.getElementById('host').shadowRoot") is None
    snap = page.observe()
    snap.one(role="button", name="Closed button").click()
    snap.one(role="textbox", name="Closed input").fill("from python")
    assert page.evaluate("window.typed") == "from python"
    generic = snap.all(role="generic")
    assert len(generic) == 1, snap.text
    assert f"[ref={generic[0].id}]: Listener only" in snap.text
    assert "Row one" not in snap.text and "Row two" not in snap.text
    generic[0].click()
    assert page.evaluate("window.hits") == ["closed", "plain"]


def test_closed_root_and_listener_refs_async(agentbrowser_bin: Path, server: str) -> None:
    async def main() -> None:
        async with await AsyncBrowser.launch(timeout_ms=20000) as b:
            page = b.page
            await page.open(f"{server}/reach")
            snap = await page.observe()
            await snap.one(role="button", name="Closed button").click()
            (plain,) = snap.all(role="generic")
            await plain.click()
            assert await page.evaluate("window.hits") == ["closed", "plain"]
            assert await snap.one(role="textbox", name="Closed input").input_value() == ""

    asyncio.run(main())


def test_mcp_snapshot_shows_and_clicks_them(agentbrowser_bin: Path, server: str) -> None:
    from test_e2e_mcp import call, ref_of, stdio

    async def main() -> None:
        async with stdio(agentbrowser_bin) as session:
            await call(session, "browser_navigate", url=f"{server}/reach")
            snap = await call(session, "browser_snapshot")
            assert "Listener only" in snap and "Row one" not in snap, snap
            await call(session, "browser_click", target=ref_of(snap, "button", "Closed button"))
            await call(session, "browser_type", target=ref_of(snap, "textbox", "Closed input"), text="via mcp")
            seen = await call(session, "browser_evaluate", function="() => window.hits.join(',') + '|' + window.typed")
            assert "closed|via mcp" in seen, seen

    asyncio.run(main())
