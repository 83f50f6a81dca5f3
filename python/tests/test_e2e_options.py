"""End-to-end: ``options``, a command added with no hand-written Python, reaches both clients.

``page.options`` is generated (python/tools/gen_methods.py) from the protocol schema; it reads
the options of a real ``<select>`` in Chromium, and what it answers follows the page's own
selection after ``select``.
"""

from __future__ import annotations

import asyncio

import pytest
from agentbrowser import AsyncBrowser, Browser, BrowserError, LaunchOptions
from agentbrowser import _wire_types as w


def test_options_through_the_sync_client(server: str) -> None:
    with Browser.launch(LaunchOptions(timeout_ms=20000)) as browser:
        page = browser.page
        page.open(f"{server}/form")
        out = page.options("#color")
        assert isinstance(out, w.OptionsOutput)
        assert (out.kind, out.multiple, out.total, out.truncated) == ("select", False, 2, False)
        assert [(o.label, o.value, o.selected) for o in out.options] == [("Red", "red", True), ("Blue", "blue", False)]
        page.find.css("#color").select(out.options[1].value)
        assert page.evaluate("document.getElementById('color').value") == "blue"
        assert [o.selected for o in page.options(page.find.css("#color")).options] == [False, True]
        assert len(page.options("#color", limit=1).options) == 1
        with pytest.raises(BrowserError) as err:
            page.options("#submit")
        assert err.value.code == "element_not_editable"


def test_options_through_the_async_client(server: str) -> None:
    async def run() -> None:
        async with await AsyncBrowser.launch(LaunchOptions(timeout_ms=20000)) as browser:
            page = browser.page
            await page.open(f"{server}/form")
            out = await page.options("#color")
            assert [o.label for o in out.options] == ["Red", "Blue"]
            with pytest.raises(BrowserError) as err:
                await page.options("#color", limit=0)
            assert err.value.code == "invalid_argument"

    asyncio.run(run())
