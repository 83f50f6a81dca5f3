"""End-to-end: JavaScript dialogs from the SDK (sync and async): confirm and prompt wait for
``browser.dialogs``; other calls raise DialogOpenError meanwhile; ``auto_dialogs`` answers all."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import pytest
from agentbrowser import (
    AsyncBrowser,
    Browser,
    Dialog,
    DialogOpenError,
    DialogResult,
    DialogStatus,
    LaunchOptions,
)


@pytest.fixture(scope="module")
def browser(agentbrowser_bin: Path) -> Iterator[Browser]:
    with Browser.launch(LaunchOptions(timeout_ms=20000)) as b:
        yield b


def _out(b: Browser) -> object:
    return b.page.evaluate("document.getElementById('o').textContent")


def test_confirm_waits_then_accept(browser: Browser, server: str) -> None:
    browser.page.open(f"{server}/dialogs")
    snap = browser.page.observe()
    result = snap.one(role="button", name="Confirm").click()
    d = result.open_dialog
    assert isinstance(d, Dialog) and d.open and (d.type, d.message, d.tab) == ("confirm", "sure?", "t1")
    assert result.after is None and result.diff is None
    status = browser.dialogs.status()
    assert isinstance(status, DialogStatus) and status.dialog is not None and status.dialog.message == "sure?"
    assert status.other_tabs == () and status.auto_dialogs is False
    with pytest.raises(DialogOpenError) as err:
        browser.page.observe()
    assert err.value.code == "dialog_open" and err.value.opened_by_this_command is False
    assert err.value.dialog is not None and err.value.dialog.type == "confirm"
    assert "dialog accept" in str(err.value) and "sure?" in str(err.value)
    answered = browser.dialogs.accept()
    assert isinstance(answered, DialogResult) and answered.accepted and not answered.dialog.open
    assert answered.dialog.accepted and answered.next is None
    assert _out(browser) == "yes"
    assert browser.dialogs.status().dialog is None


def test_prompt_text_and_dialog_opened_by_evaluate(browser: Browser, server: str) -> None:
    browser.page.open(f"{server}/dialogs")
    with pytest.raises(DialogOpenError) as err:
        browser.page.evaluate("document.getElementById('o').textContent = prompt('name?', 'anon')")
    assert err.value.opened_by_this_command is True
    assert err.value.dialog is not None and err.value.dialog.default_prompt == "anon"
    answered = browser.dialogs.accept("Ada")
    assert answered.text == "Ada" and answered.dialog.type == "prompt"
    assert _out(browser) == "Ada"
    with pytest.raises(TypeError, match="text"):
        browser.dialogs.accept(3)  # type: ignore[arg-type]


def test_async_dismiss(agentbrowser_bin: Path, server: str) -> None:
    async def main() -> None:
        async with await AsyncBrowser.launch(LaunchOptions(timeout_ms=20000)) as b:
            await b.page.open(f"{server}/dialogs")
            snap = await b.page.observe()
            result = await snap.one(role="button", name="Confirm").click()
            assert result.open_dialog is not None and result.open_dialog.message == "sure?"
            with pytest.raises(DialogOpenError):
                await b.page.title()
            st = await b.dialogs.status()
            assert st.dialog is not None and st.dialog.type == "confirm"
            answered = await b.dialogs.dismiss()
            assert answered.accepted is False and answered.dialog.message == "sure?"
            assert await b.page.evaluate("document.getElementById('o').textContent") == "no"
            assert (await b.dialogs.status()).dialog is None

    asyncio.run(main())


def test_auto_dialogs_option(agentbrowser_bin: Path, server: str) -> None:
    with pytest.raises(TypeError, match="auto_dialogs"):
        LaunchOptions(auto_dialogs="yes")  # type: ignore[arg-type]
    with Browser.launch(LaunchOptions(timeout_ms=20000, auto_dialogs=True)) as b:
        b.page.open(f"{server}/dialogs")
        result = b.page.observe().one(role="button", name="Confirm").click()
        assert result.open_dialog is None
        assert [(d.type, d.message, d.accepted) for d in result.dialogs] == [("confirm", "sure?", False)]
        assert _out(b) == "no"
        assert b.dialogs.status().auto_dialogs is True
