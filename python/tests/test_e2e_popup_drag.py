"""End-to-end: a pointer-based sortable list (pointer events, reordering in animation frames, as
dnd-kit's) dragged by the SDK, sync and async, the same as by the command line; a popup announced
with the URL it opened; and drags in a tab other than the active one (a handle bound to a
background tab, a popup), which the browser shows while they run, on real Chromium."""

from __future__ import annotations

import asyncio
import os
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest
from agentbrowser import AsyncBrowser, Browser
from conftest import PAGES, _page, aeventually, eventually

pytestmark = pytest.mark.e2e

_ITEM = "height:40px;margin:4px;background:#eee;touch-action:none;user-select:none"
PAGES["/pd-list"] = _page(
    "Sortable",
    "<button id=pop onclick=\"window.open('/slow?ms=1200')\">Pop</button>"
    "<ul id=list style='list-style:none;padding:0;width:200px'>"
    + "".join(f"<li data-id={i} style='{_ITEM}'>Item {i}</li>" for i in range(1, 5))
    + "</ul>"
    "<script>"
    "const list = document.getElementById('list');"
    "let dragging = null, y = 0, queued = false;"
    "window.order = () => [...list.children].map(li => li.dataset.id).join(',');"
    "list.addEventListener('pointerdown', e => { dragging = e.target.closest('li'); });"
    "document.addEventListener('pointermove', e => {"
    "  if (!dragging || !(e.buttons & 1)) return;"
    "  y = e.clientY;"
    "  if (queued) return;"
    "  queued = true;"
    "  requestAnimationFrame(() => {"
    "    queued = false;"
    "    for (const li of list.children) {"
    "      if (li === dragging) continue;"
    "      const r = li.getBoundingClientRect();"
    "      if (y >= r.top && y <= r.bottom) {"
    "        list.insertBefore(dragging, y >= r.top + r.height / 2 ? li.nextSibling : li); break;"
    "      }"
    "    }"
    "  });"
    "});"
    "document.addEventListener('pointerup', () => { dragging = null; });"
    # The title says whether the browser shows the page (read without showing it).
    "const shown = () => { document.title = document.visibilityState; };"
    "shown(); document.addEventListener('visibilitychange', shown);"
    "</script>",
)

#: Item 1 dragged onto item 3 (moving down, past item 3's middle).
DRAGGED = "2,3,1,4"
SOURCE, TARGET = "li[data-id='1']", "li[data-id='3']"


def _cli_order(binary: Path, url: str) -> str:
    """The order after the command line dragged item 1 onto item 3 (its own session)."""
    env = {**os.environ, "AGENTBROWSER_SESSION": "pd-cli"}

    def run(*args: str) -> str:
        done = subprocess.run([str(binary), *args], env=env, capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, (args, done.stdout, done.stderr)
        return done.stdout.strip()

    try:
        run("open", url)
        run("drag", SOURCE, TARGET)
        return run("eval", "window.order()").strip('"')
    finally:
        run("close")


def test_sdk_drags_a_sortable_list_like_the_cli(
    agentbrowser_bin: Path, server: str, require: Callable[..., None]
) -> None:
    require("drag", "tab_new")
    assert _cli_order(agentbrowser_bin, f"{server}/pd-list") == DRAGGED
    with Browser.launch(timeout_ms=10000) as b:
        b.page.open(f"{server}/pd-list")
        b.page.drag(SOURCE, TARGET)
        assert b.page.evaluate("window.order()") == DRAGGED

        # A popup: announced with the URL it opened (its page answers late); the opener stays
        # the tab the browser shows, and a drag on it works at once.
        b.page.open(f"{server}/pd-list")
        opened = b.page.find.css("#pop").click().opened_tabs
        assert [t.url for t in opened] == [f"{server}/slow?ms=1200"]
        assert b.page.evaluate("document.visibilityState") == "visible"
        b.page.drag(SOURCE, TARGET)
        assert b.page.evaluate("window.order()") == DRAGGED

        # A handle bound to the popup (a background tab): the browser shows it while the drag
        # runs there, and the active tab again afterwards.
        popup = b.tabs.get(id=opened[0].id)
        popup.open(f"{server}/pd-list")
        popup.drag(SOURCE, TARGET)
        assert popup.evaluate("window.order()") == DRAGGED
        assert b.page.evaluate("document.visibilityState") == "visible"
        assert eventually(lambda: popup.title() == "hidden"), popup.title()

        # A handle bound to a tab a newer tab hid.
        first = b.tabs.list()[0].id
        b.tabs.new(f"{server}/pd-list")
        behind = b.tabs.get(id=first)
        behind.open(f"{server}/pd-list")
        behind.drag(SOURCE, TARGET)
        assert behind.evaluate("window.order()") == DRAGGED
        assert b.page.evaluate("document.visibilityState") == "visible"
        assert eventually(lambda: behind.title() == "hidden"), behind.title()


def test_async_sdk_drags_a_sortable_list_like_the_cli(
    agentbrowser_bin: Path, server: str, require: Callable[..., None]
) -> None:
    require("drag", "tab_new")

    async def run() -> None:
        async with await AsyncBrowser.launch(timeout_ms=10000) as b:
            await b.page.open(f"{server}/pd-list")
            await b.page.drag(SOURCE, TARGET)
            assert await b.page.evaluate("window.order()") == DRAGGED

            await b.page.open(f"{server}/pd-list")
            opened = (await b.page.find.css("#pop").click()).opened_tabs
            assert [t.url for t in opened] == [f"{server}/slow?ms=1200"]
            await b.page.drag(SOURCE, TARGET)
            assert await b.page.evaluate("window.order()") == DRAGGED

            popup = await b.tabs.get(id=opened[0].id)
            await popup.open(f"{server}/pd-list")
            await popup.drag(SOURCE, TARGET)
            assert await popup.evaluate("window.order()") == DRAGGED
            assert await b.page.evaluate("document.visibilityState") == "visible"

            async def popup_hidden() -> bool:
                return await popup.title() == "hidden"

            assert await aeventually(popup_hidden), await popup.title()

    asyncio.run(run())
