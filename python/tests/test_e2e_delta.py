"""End-to-end: delta snapshots (``observe(delta=True)``), rebuilt whole by the SDK, sync and async."""

from __future__ import annotations

import asyncio
import json
import os
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from agentbrowser import AsyncBrowser, Browser, SnapshotChange, SnapshotDelta, SnapshotSpec

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def browser(agentbrowser_bin: Path, require: Callable[..., None]) -> Iterator[Browser]:
    require("snapshot", "fill", "click", "eval")
    with Browser.launch(timeout_ms=20000) as b:
        yield b


def test_delta_snapshots_are_rebuilt_whole(browser: Browser, server: str) -> None:
    browser.page.open(f"{server}/many")
    first = browser.page.observe(delta=True)
    assert first.delta is not None and first.delta.kind == "full" and first.delta.base_generation is None
    assert "Button number 399" in first.text and len(first.refs) == 400

    same = browser.page.observe(delta=True)
    assert same.delta == SnapshotDelta("unchanged", first.generation, None, 400, (), rebuilt=True, raw={})
    assert same.generation > first.generation
    assert same.text == first.text and list(same.refs) == list(first.refs)
    # What came over the wire is tiny; what the SDK hands out is whole.
    assert same.delta.raw["kind"] == "unchanged"
    assert len(json.dumps(same.delta.raw)) < 200

    # One line changes: the delta has it, the rebuilt text equals a full snapshot's.
    browser.page.evaluate("document.querySelectorAll('button')[7].textContent = 'Renamed seven'")
    changed = browser.page.observe(delta=True)
    assert changed.delta is not None and changed.delta.kind == "delta"
    assert changed.delta.base_generation == same.generation
    change = changed.delta.change
    assert isinstance(change, SnapshotChange) and change.start_line == 7 and change.delete_count == 1
    assert len(change.lines) == 1 and 'button "Renamed seven"' in change.lines[0]
    assert change.apply(same.text) == changed.text
    full = browser.page.observe()
    assert changed.text == full.text and list(changed.refs) == list(full.refs)
    # The engine sent the one changed ref only.
    assert list(changed.raw["delta"]["change"]["lines"]) == list(change.lines)

    # A ref of the rebuilt snapshot acts, and the delta after an action's evidence is unchanged.
    renamed = changed.one(role="button", name="Renamed seven")
    result = renamed.click()
    assert result.after is not None
    after = browser.page.observe(delta=True)
    assert after.delta is not None and after.delta.kind == "unchanged"
    assert after.delta.base_generation == result.after.generation

    # Removing a button: its ref is reported gone, and the rebuilt refs lose it.
    gone_id = first.one(role="button", name="Button number 0 with a fairly long accessible name").id
    browser.page.evaluate("document.querySelector('button').remove()")
    removed = after.refresh(delta=True)
    assert removed.delta is not None and removed.delta.kind == "delta"
    assert removed.delta.removed_refs == (gone_id,) and gone_id not in removed.refs
    assert len(removed.refs) == 399 and removed.delta.line_count == 399

    # Another spec has no base yet.
    other = browser.page.observe(SnapshotSpec(interactive=False), delta=True)
    assert other.delta is not None and other.delta.kind == "full" and other.text

    with pytest.raises(TypeError, match="delta"):
        browser.page.observe(delta="yes")  # type: ignore[arg-type]


def test_a_base_this_client_never_saw_is_fetched_whole(agentbrowser_bin: Path, server: str) -> None:
    session = f"pytest-delta-{os.getpid()}"
    one = Browser.connect(session=session)
    try:
        one.page.open(f"{server}/form")
        seen = one.page.observe(delta=True)
        other = Browser.connect(session=session)
        try:
            newer = other.page.observe()
        finally:
            other.close()
        # The engine's base is the other client's snapshot: this one fetches the whole text.
        again = one.page.observe(delta=True)
        assert again.delta is not None and again.delta.kind == "full" and not again.delta.rebuilt
        assert again.generation > newer.generation > seen.generation
        assert again.text == seen.text and again.refs.keys() == seen.refs.keys()
    finally:
        one.close(end_session=True)


def test_async_delta_snapshots(agentbrowser_bin: Path, server: str) -> None:
    async def main() -> None:
        async with await AsyncBrowser.launch(timeout_ms=20000) as browser:
            await browser.page.open(f"{server}/form")
            first = await browser.page.observe(delta=True)
            assert first.delta is not None and first.delta.kind == "full"
            await browser.page.evaluate("document.getElementById('name').value = 'Grace'")
            changed = await first.refresh(delta=True)
            assert changed.delta is not None and changed.delta.kind == "delta" and changed.delta.rebuilt
            assert changed.delta.change is not None and "Grace" in changed.delta.change.lines[0]
            full = await browser.page.observe()
            assert changed.text == full.text
            name = changed.one(role="textbox", name="Name")
            result = await name.fill("Ada")
            assert result.after is not None and "Ada" in result.after.text

    asyncio.run(main())
