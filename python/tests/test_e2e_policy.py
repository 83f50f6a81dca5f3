"""End-to-end: the action policy from the SDK (sync and async). A paused call raises
ConfirmationRequired whose ``pending`` confirms it (finishing the typed work: a ref click's full
ActionResult), denies it, or maps its result in order; replays the policy now refuses raise."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from agentbrowser import (
    ActionResult,
    AsyncBrowser,
    AsyncPendingAction,
    Browser,
    BrowserError,
    ConfirmationRequired,
    LaunchOptions,
    PendingAction,
    SessionOptions,
    Snapshot,
)


def _policy(tmp_path: Path, doc: str) -> Path:
    path = tmp_path / "policy.json"
    path.write_text(doc)
    return path


def test_sync_confirm_deny_and_map(agentbrowser_bin: Path, server: str, tmp_path: Path) -> None:
    policy = _policy(tmp_path, '{"confirm": ["click"], "deny": ["eval"]}')
    opts = SessionOptions(action_policy=policy)
    with Browser.launch(LaunchOptions(timeout_ms=20000), session=opts) as browser:
        browser.page.open(f"{server}/a")
        go = browser.page.observe().one(role="button", name="Go")
        # A paused click did nothing; its pending action names the element.
        with pytest.raises(ConfirmationRequired) as err:
            go.click()
        pending = err.value.pending
        assert isinstance(pending, PendingAction)
        assert err.value.code == "confirmation_required" and err.value.confirmation_id == pending.confirmation_id
        assert (pending.action, pending.role, pending.name, pending.rule) == ("click", "button", "Go", "confirm: click")
        assert pending.target == go.id and pending.host == "127.0.0.1"
        assert browser.page.url() == f"{server}/a"
        # confirm() replays it and returns the click's own typed result, with real evidence.
        done = pending.confirm()
        assert isinstance(done, ActionResult) and done.action == "click"
        assert done.after is not None and 'heading "B"' in done.after.text
        assert done.diff is not None and done.changed
        assert browser.page.url() == f"{server}/b"
        with pytest.raises(BrowserError) as again:
            pending.confirm()
        assert again.value.code == "confirmation_consumed"
        # map() composes in the order the callbacks were added.
        browser.page.open(f"{server}/a")
        go = browser.page.observe().one(role="button", name="Go")
        with pytest.raises(ConfirmationRequired) as err:
            go.click()
        assert err.value.pending is not None
        order: list[str] = []

        def first(r: ActionResult[Browser]) -> Snapshot[Browser] | None:
            order.append("first")
            return r.after

        def second(s: Snapshot[Browser] | None) -> str:
            order.append("second")
            return s.text if s is not None else ""

        text = err.value.pending.map(first).map(second).confirm()
        assert order == ["first", "second"] and 'heading "B"' in text
        # deny() drops it: the page stays.
        browser.page.open(f"{server}/a")
        go = browser.page.observe().one(role="button", name="Go")
        with pytest.raises(ConfirmationRequired) as err:
            go.click()
        assert err.value.pending is not None
        err.value.pending.deny()
        assert browser.page.url() == f"{server}/a"
        with pytest.raises(BrowserError) as spent:
            err.value.pending.confirm()
        assert spent.value.code == "confirmation_consumed"
        # deny wins: refused outright, nothing to confirm.
        with pytest.raises(BrowserError) as refused:
            browser.page.evaluate("1")
        assert refused.value.code == "action_denied" and not isinstance(refused.value, ConfirmationRequired)
        # The policy file changes to deny between pause and confirm: the replay is refused.
        with pytest.raises(ConfirmationRequired) as err:
            go.click()
        assert err.value.pending is not None
        policy.write_text('{"deny": ["click"]}')
        with pytest.raises(BrowserError) as changed:
            err.value.pending.confirm()
        assert changed.value.code == "action_denied" and "deny: click" in str(changed.value)
        assert browser.page.url() == f"{server}/a"


def test_async_confirm_and_map(agentbrowser_bin: Path, server: str) -> None:
    async def main() -> None:
        opts = SessionOptions(confirm_actions=("click",), confirm_timeout=30)
        async with await AsyncBrowser.launch(LaunchOptions(timeout_ms=20000), session=opts) as browser:
            await browser.page.open(f"{server}/a")
            go = (await browser.page.observe()).one(role="button", name="Go")
            with pytest.raises(ConfirmationRequired) as err:
                await go.click()
            pending = err.value.pending
            assert isinstance(pending, AsyncPendingAction)
            assert pending.rule == "confirm-actions: click" and pending.name == "Go"
            assert await browser.page.url() == f"{server}/a"
            order: list[str] = []

            def first(r: ActionResult[AsyncBrowser]) -> ActionResult[AsyncBrowser]:
                order.append("first")
                return r

            def second(r: ActionResult[AsyncBrowser]) -> bool:
                order.append("second")
                return r.changed and r.after is not None and 'heading "B"' in r.after.text

            assert await pending.map(first).map(second).confirm() is True
            assert order == ["first", "second"]
            assert await browser.page.url() == f"{server}/b"
            with pytest.raises(BrowserError) as again:
                await pending.deny()
            assert again.value.code == "confirmation_consumed"
            await browser.page.open(f"{server}/a")
            go = (await browser.page.observe()).one(role="button", name="Go")
            with pytest.raises(ConfirmationRequired) as err:
                await go.click()
            assert err.value.pending is not None
            await err.value.pending.deny()
            assert await browser.page.url() == f"{server}/a"

    asyncio.run(main())


def test_bad_policies(agentbrowser_bin: Path, tmp_path: Path) -> None:
    bad = _policy(tmp_path, '{"confirm": ["clik"]}')
    with pytest.raises(BrowserError) as err:
        Browser.launch(session=SessionOptions(action_policy=bad))
    assert err.value.code == "policy_invalid" and "clik" in str(err.value)
    with pytest.raises(TypeError):
        SessionOptions(confirm_actions="click")
    with pytest.raises(ValueError):
        SessionOptions(confirm_timeout=0)
    with pytest.raises(ValueError):
        SessionOptions(confirm_actions=("",))
