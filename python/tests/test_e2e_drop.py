"""End-to-end through the SDK: ``page.drop`` (files and data dropped onto a drop zone as if
dragged from outside the page), ``page.evaluate(..., target=...)`` (a function called with one
element) and ``page.cancel_file_chooser()``, each checked against the page's own state, sync and
async."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from agentbrowser import AsyncBrowser, Browser, BrowserError, LaunchOptions
from conftest import PAGES, _page

pytestmark = pytest.mark.e2e

PAGES["/sdk-drop"] = _page(
    "SDK drop",
    "<div id='zone' data-kind='zone' style='width:300px;height:100px;border:1px dashed'>Drop here</div>"
    "<div id='plain' style='width:300px;height:60px'>Not a zone</div><p id='out'></p>"
    "<button id='pick' onclick=\"document.getElementById('f').click()\">Pick</button>"
    "<input id='f' type='file' style='display:none'>"
    "<script>window.seen = [];"
    "const z = document.getElementById('zone');"
    "z.addEventListener('dragover', e => e.preventDefault());"
    "z.addEventListener('drop', async e => { e.preventDefault(); const f = e.dataTransfer.files[0];"
    " const plain = e.dataTransfer.getData('text/plain');"
    " window.got = {name: f.name, text: await f.text(), plain};"
    " document.getElementById('out').textContent = 'got ' + f.name; });"
    "const f = document.getElementById('f');"
    "for (const t of ['cancel', 'change']) f.addEventListener(t, e => seen.push(t + ':' + e.isTrusted));</script>",
)


def test_drop_evaluate_on_an_element_and_cancel(agentbrowser_bin: Path, server: str, tmp_path: Path) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_text("from disk")
    with Browser.launch(timeout_ms=20000) as b:
        b.page.open(f"{server}/sdk-drop")
        out = b.page.drop("#zone", files=[str(notes)], data={"text/plain": "hi"})
        assert [f.name for f in out.files or ()] == ["notes.txt"]
        assert out.types is not None and "Files" in out.types and "text/plain" in out.types
        b.page.wait_for_text("got notes.txt")
        assert b.page.evaluate("window.got") == {"name": "notes.txt", "text": "from disk", "plain": "hi"}
        with pytest.raises(BrowserError) as err:
            b.page.drop("#plain", data={"text/plain": "x"})
        assert err.value.code == "drop_not_accepted"
        assert b.page.evaluate("(el) => el.dataset.kind", target="#zone") == "zone"
        with pytest.raises(BrowserError) as err:
            b.page.evaluate("(el) => el.id", target="div")
        assert err.value.code == "ambiguous_target"
        b.page.observe().one(role="button", name="Pick").click()
        cancelled = b.page.cancel_file_chooser()
        assert cancelled.files == ()
        assert b.page.evaluate("window.seen") == ["cancel:true"]
        with pytest.raises(BrowserError) as err:
            b.page.cancel_file_chooser()
        assert err.value.code == "invalid_argument" and "no file chooser" in str(err.value)


def test_async_evaluate_on_an_element(agentbrowser_bin: Path, server: str) -> None:
    async def main() -> None:
        async with await AsyncBrowser.launch(LaunchOptions(timeout_ms=20000)) as b:
            await b.page.open(f"{server}/sdk-drop")
            snap = await b.page.observe()
            pick = snap.one(role="button", name="Pick")
            assert await b.page.evaluate("(el) => el.textContent", target=pick) == "Pick"

    asyncio.run(main())
