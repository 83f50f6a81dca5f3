"""End-to-end through the SDK: ``page.highlight`` and ``page.hide_highlight``, sync and async.
The overlay is read where a page script cannot reach it (its closed shadow root, through CDP
beside the engine): its box is the element's and its inline style carries the one asked for. A
click goes through it to the element (the page's own counter), snapshots do not show it, hiding
removes it from the DOM, a stale ref draws nothing, and a frame's element is highlighted in the
frame's document."""

from __future__ import annotations

import asyncio
import dataclasses
from pathlib import Path
from typing import Any

import pytest
from agentbrowser import AsyncBrowser, Browser, BrowserError, LaunchOptions
from conftest import PAGES, _page

pytestmark = pytest.mark.e2e

PAGES["/sdk-highlight"] = _page(
    "SDK highlight",
    "<style>html > :not(head):not(body) { display: none !important }</style>"
    "<button id='save' style='margin:60px 0 0 80px;width:150px;height:44px'"
    " onclick=\"window.clicks = (window.clicks || 0) + 1\">Save</button>"
    "<iframe id='inner' src='/sdk-highlight-inner' style='width:320px;height:120px'></iframe>",
)
PAGES["/sdk-highlight-inner"] = _page("Inner", "<button id='deep' style='margin:20px'>Deep</button>")

COUNT = "document.querySelectorAll('agentbrowser-highlight').length"
INNER_COUNT = "document.getElementById('inner').contentDocument.querySelectorAll('agentbrowser-highlight').length"


def find(node: dict[str, Any], name: str) -> dict[str, Any] | None:
    """The first node of a pierced DOM tree named `name` (children and shadow roots)."""
    if node.get("localName") == name:
        return node
    for child in node.get("children", []) + node.get("shadowRoots", []):
        hit = find(child, name)
        if hit is not None:
            return hit
    return None


def border_quad(b: Browser, session_id: str, node_id: int) -> list[float]:
    box = b.cdp.send("DOM.getBoxModel", {"nodeId": node_id}, session_id=session_id)
    return [round(v, 2) for v in box["model"]["border"]]


def test_highlight_is_drawn_over_the_element_and_hidden(agentbrowser_bin: Path, server: str) -> None:
    with Browser.launch(timeout_ms=20000) as b:
        b.page.open(f"{server}/sdk-highlight")
        b.page.wait_for_function("document.getElementById('inner').contentDocument?.getElementById('deep')")
        before = b.page.observe().text
        out = b.page.highlight("#save", style="outline: 3px dashed rgb(255, 0, 0)")
        assert (out.target.name, out.visible, out.replaced, out.highlights) == ("Save", True, False, 1)
        assert out.style == "outline: 3px dashed rgb(255, 0, 0)"
        with pytest.raises(dataclasses.FrozenInstanceError if dataclasses.is_dataclass(out) else AttributeError):
            out.x = 0  # type: ignore[misc]
        # Through CDP: the host's closed shadow root holds the box, over the button, in that style.
        tab = b.cdp.active()
        doc = b.cdp.send("DOM.getDocument", {"depth": -1, "pierce": True}, session_id=tab.session_id)["root"]
        host = find(doc, "agentbrowser-highlight")
        assert host is not None
        root = host["shadowRoots"][0]
        assert root["shadowRootType"] == "closed"
        inner = root["children"][0]
        style = dict(zip(inner["attributes"][::2], inner["attributes"][1::2], strict=True))["style"]
        # As the browser serializes it: the caller's outline replaced the default one.
        assert "outline: rgb(255, 0, 0) dashed 3px;" in style and "230, 0, 115" in style, style
        assert "solid" not in style, style
        button = find(doc, "button")
        assert button is not None
        assert border_quad(b, tab.session_id, inner["nodeId"]) == border_quad(b, tab.session_id, button["nodeId"])
        # Not in the snapshot; a click reaches the button.
        assert b.page.observe().text == before
        b.page.observe().one(role="button", name="Save").click()
        assert b.page.evaluate("window.clicks") == 1
        # Hidden; hiding again removes none.
        assert b.page.hide_highlight(target="#save").removed == 1
        assert b.page.evaluate(COUNT) == 0
        assert b.page.hide_highlight("#save").removed == 0
        # A stale ref draws nothing.
        ref = b.page.observe().one(role="button", name="Save").id
        b.page.evaluate("document.getElementById('save').remove()")
        with pytest.raises(BrowserError) as err:
            b.page.highlight(ref)
        assert err.value.code == "stale_ref"
        assert b.page.evaluate(COUNT) == 0


def test_async_highlight_in_a_frame_and_hide_all(agentbrowser_bin: Path, server: str) -> None:
    async def main() -> None:
        async with await AsyncBrowser.launch(LaunchOptions(timeout_ms=20000)) as b:
            await b.page.open(f"{server}/sdk-highlight")
            await b.page.wait_for_function(
                "document.getElementById('inner').contentDocument?.getElementById('deep')"
            )
            snap = await b.page.observe()
            deep = snap.one(role="button", name="Deep")
            out = await b.page.highlight(deep)
            assert out.target.ref == deep.id and out.highlights == 1
            await b.page.highlight("#save", style="background: rgb(0 200 0 / 40%)")
            assert await b.page.evaluate(INNER_COUNT) == 1
            assert await b.page.evaluate(COUNT) == 1
            assert (await b.page.hide_highlight()).removed == 2
            assert await b.page.evaluate(INNER_COUNT) == 0
            assert await b.page.evaluate(COUNT) == 0

    asyncio.run(main())
