"""Checked by mypy in test_typing.py (never run): sync calls return values, async ones awaitables."""

from __future__ import annotations

from typing import assert_type

from agentbrowser import (
    ActionResult,
    AsyncBrowser,
    AsyncStaleRefError,
    Browser,
    CDPTarget,
    ConsoleLog,
    ConsoleMessage,
    ErrorLog,
    LaunchOptions,
    LaunchResult,
    PageError,
    Ref,
    SessionOptions,
    Snapshot,
    SnapshotDiff,
    StaleRefError,
    Wait,
)


def construction() -> None:
    assert_type(Browser(), Browser)
    assert_type(Browser(SessionOptions(timeout=5)), Browser)
    assert_type(Browser.launch(LaunchOptions(), session=SessionOptions()), Browser)
    assert_type(Browser.attach(CDPTarget(port=9222), session=SessionOptions()), Browser)
    assert_type(AsyncBrowser(SessionOptions()), AsyncBrowser)
    assert_type(SessionOptions(timeout=1.5).timeout_ms, int | None)
    Browser("work")  # type: ignore[arg-type]
    Browser.attach(9222)  # type: ignore[arg-type]


async def async_construction() -> None:
    assert_type(await AsyncBrowser.attach(CDPTarget(url="ws://x")), AsyncBrowser)
    assert_type(await AsyncBrowser.launch(session=SessionOptions()), AsyncBrowser)


def sync_use() -> None:
    with Browser.launch() as b:
        snap = b.page.observe()
        assert_type(snap, Snapshot[Browser])
        assert_type(b.launch_result, LaunchResult | None)
        # Literal parameters: a wrong load state or mouse button is a type error (mypy --strict
        # reports an ignore that is not needed, so these lines fail the check if they type-check).
        b.page.open("http://x/", wait_until="loaded")  # type: ignore[arg-type]
        b.page.reload(wait_until="idle")  # type: ignore[arg-type]
        snap.one(role="button").click(button="center")  # type: ignore[arg-type]
        Wait.loaded("ready")  # type: ignore[arg-type]
        assert_type(snap.one(role="button").click(wait=Wait.text("x")), ActionResult[Browser])
        assert_type(snap.one(role="textbox").input_value(), str)
        assert_type(snap.ref("e1").attribute("href"), str | None)
        assert_type(snap.ref("e1").is_checked(), bool)
        assert_type(snap.refresh(), Snapshot[Browser])
        assert_type(snap.diff(), SnapshotDiff)
        log = b.diagnostics.console(level="warn", clear=True)
        assert_type(log, ConsoleLog)
        assert_type(log[0], ConsoleMessage)
        assert_type(b.diagnostics.errors()[0], PageError)
        b.diagnostics.console(level="loud")  # type: ignore[arg-type]
        try:
            snap.ref("e1").fill("x")
        except StaleRefError as e:
            assert_type(e.refresh(), Ref[Browser])


async def async_use() -> None:
    async with await AsyncBrowser.launch() as b:
        snap = await b.page.observe()
        assert_type(snap, Snapshot[AsyncBrowser])
        assert_type(await snap.one(role="button").click(), ActionResult[AsyncBrowser])
        assert_type(await snap.ref("e2").text(), str)
        assert_type(await snap.diff(), SnapshotDiff)
        assert_type(await snap.refresh(), Snapshot[AsyncBrowser])
        assert_type(await b.diagnostics.console(), ConsoleLog)
        assert_type(await b.diagnostics.errors(clear=True), ErrorLog)
        try:
            await snap.ref("e1").fill("x")
        except AsyncStaleRefError as e:
            assert_type(await e.refresh(), Ref[AsyncBrowser])
