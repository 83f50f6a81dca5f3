"""End-to-end: console messages and page errors (buffers, levels, clear) and the errors in an
action's evidence, sync and async."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from conftest import aeventually, eventually
from agentbrowser import (
    ActionTransitionError,
    AsyncBrowser,
    Browser,
    ConsoleLog,
    ConsoleMessage,
    ErrorLog,
    PageError,
    Wait,
)

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def browser(agentbrowser_bin: Path, require: Callable[..., None]) -> Iterator[Browser]:
    require("console", "errors", "snapshot", "click")
    with Browser.launch(timeout_ms=20000) as b:
        yield b


def _errors(browser: Browser, at_least: int) -> ErrorLog:
    """The page errors once there are ``at_least`` (a rejection is reported a moment later)."""
    eventually(lambda: len(browser.diagnostics.errors()) >= at_least)
    return browser.diagnostics.errors()


def test_console_and_errors(browser: Browser, server: str) -> None:
    browser.page.open(f"{server}/console")
    log = browser.diagnostics.console()
    assert isinstance(log, ConsoleLog) and log.tab == "t1" and log.dropped == 0 and not log.cleared
    assert [m.text for m in log] == ["loaded 7 {a: Array(1)}", "careful", "details"]
    first = log[0]
    assert isinstance(first, ConsoleMessage)
    assert (first.type, first.level, first.url, first.line) == ("log", "info", f"{server}/console", 1)
    assert isinstance(first.column, int) and first.column > 1
    assert first.raw["source"] == "console" and first.raw["args"] == ["loaded %d", "7", "{a: Array(1)}"]
    assert [m.level for m in log] == ["info", "warning", "verbose"]
    assert len(log) == 3 and log[1:] == log.messages[1:] and len(repr(log)) < 300
    assert log.before_navigation == 0
    assert [m.text for m in browser.diagnostics.console(level="warn")] == ["careful"]
    assert [m.text for m in browser.diagnostics.console(level="log")] == ["loaded 7 {a: Array(1)}", "careful"]
    with pytest.raises(ValueError, match="level must be one of verbose, debug, info, log, warning, warn, error"):
        browser.diagnostics.console(level="loud")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        browser.diagnostics.console(clear="yes")  # type: ignore[arg-type]
    bad = browser.native.execute("console", level="loud")
    assert bad.code == "invalid_argument" and "`warn`" in (bad.error or "")

    errors = _errors(browser, 1)
    assert isinstance(errors, ErrorLog) and len(errors) == 1
    err = errors[0]
    assert isinstance(err, PageError)
    assert (err.kind, err.message, err.url, err.line) == ("rejection", "Error: at load", f"{server}/console", 1)
    assert err.stack.startswith(f"at {server}/console:1:")

    cleared = browser.diagnostics.console(clear=True)
    assert cleared.cleared and [m.text for m in cleared] == [m.text for m in log]
    assert len(browser.diagnostics.console()) == 0
    assert browser.diagnostics.errors(clear=True).cleared and len(browser.diagnostics.errors()) == 0

    # After a navigation to a new document the earlier page's messages are counted, and left out on request.
    browser.page.open(f"{server}/console?first")
    assert eventually(lambda: len(browser.diagnostics.console()) == 3, 10)
    browser.page.open(f"{server}/console?second")
    assert eventually(lambda: len(browser.diagnostics.console()) == 6, 10)
    assert browser.diagnostics.console().before_navigation == 3
    since = browser.diagnostics.console(since_navigation=True)
    assert [m.text for m in since] == ["loaded 7 {a: Array(1)}", "careful", "details"] and since.before_navigation == 3
    assert {m.url for m in since} == {f"{server}/console?second"}


def test_action_evidence_has_console_and_page_errors(browser: Browser, server: str) -> None:
    browser.page.open(f"{server}/console")
    snap = browser.page.observe()
    result = snap.one(role="button", name="Broken").click()
    assert [m.text for m in result.console_errors] == ["clicked bad {n: 1}"]
    assert result.console_errors[0].level == "error" and result.console_errors[0].url == f"{server}/console"
    assert [e.message for e in result.page_errors] == ["TypeError: Cannot read properties of null (reading 'y')"]
    assert result.page_errors[0].kind == "exception" and result.page_errors[0].stack.startswith("at onclick (")
    assert "console_errors=1, page_errors=1" in repr(result)
    clean = snap.one(role="button", name="Fine").click()
    assert clean.console_errors == () and clean.page_errors == ()
    with pytest.raises(ActionTransitionError) as failed:
        snap.one(role="button", name="Broken").click(wait=Wait.text("never there", timeout_ms=300))
    assert [m.text for m in failed.value.console_errors] == ["clicked bad {n: 1}"]
    assert [e.message for e in failed.value.page_errors] == ["TypeError: Cannot read properties of null (reading 'y')"]


def test_async_console_and_errors(agentbrowser_bin: Path, server: str) -> None:
    async def main() -> None:
        async with await AsyncBrowser.launch(timeout_ms=20000) as browser:
            await browser.page.open(f"{server}/console")
            log = await browser.diagnostics.console(level="warning")
            assert isinstance(log, ConsoleLog) and [m.text for m in log] == ["careful"]

            async def reported() -> bool:
                return len(await browser.diagnostics.errors()) > 0

            await aeventually(reported)
            errors = await browser.diagnostics.errors()
            assert [e.message for e in errors] == ["Error: at load"]
            snap = await browser.page.observe()
            result = await snap.one(role="button", name="Broken").click()
            assert [m.text for m in result.console_errors] == ["clicked bad {n: 1}"]
            assert len(result.page_errors) == 1
            cleared = await browser.diagnostics.console(clear=True)
            assert cleared.cleared and len(await browser.diagnostics.console()) == 0
            assert (await browser.diagnostics.errors(clear=True)).cleared
            assert len(await browser.diagnostics.errors()) == 0

    asyncio.run(main())
