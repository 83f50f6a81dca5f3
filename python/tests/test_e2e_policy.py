"""End-to-end: the action policy from the SDK (sync and async). A paused call raises
ConfirmationRequired whose ``pending`` confirms it (finishing the typed work: a ref click's full
ActionResult), denies it, or maps its result in order; replays the policy now refuses raise."""

from __future__ import annotations

import asyncio
import os
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler
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
    Wait,
)
from agentbrowser.code import CodeSession, ExecutionStatus
from local_http import serve


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


_COUNTER = b"""<!doctype html><title>Counter</title><button id=b>Go</button><p id=hits>hits: 0</p><script>
let hits = 0;
document.addEventListener('click', () => {
  hits++; document.getElementById('hits').textContent = 'hits: ' + hits; }, true);
</script>"""


class _Logged(BaseHTTPRequestHandler):
    """Serves the counter page at ``/`` and logs every path asked for (``/ran/...``: a script ran)."""

    paths: list[str] = []

    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        type(self).paths.append(self.path)
        body = _COUNTER if self.path == "/" else b"ok"
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture
def logged() -> Iterator[tuple[str, list[str]]]:
    """A server's base URL and the paths it was asked for."""
    _Logged.paths = []
    for base in serve(_Logged):
        yield base, _Logged.paths


def _ran(paths: list[str]) -> list[str]:
    return [p for p in paths if p.startswith("/ran/")]


def test_deny_eval_refuses_page_javascript_from_the_sdk_and_code_cells(
    agentbrowser_bin: Path, logged: tuple[str, list[str]], tmp_path: Path
) -> None:
    """``deny: ["eval"]`` refuses every SDK call that runs JavaScript (evaluate, wait_for_function,
    a click waiting for a function, scripts) and a code cell calling them: nothing runs in the page."""
    base, paths = logged
    opts = SessionOptions(action_policy=_policy(tmp_path, '{"default": "allow", "deny": ["eval"]}'))
    with Browser.launch(LaunchOptions(timeout_ms=20000), session=opts) as browser:
        page = browser.page
        page.open(base + "/")

        def js(tag: str) -> str:
            return f"(fetch('/ran/{tag}'), true)"

        calls = [
            lambda: page.evaluate("fetch('/ran/evaluate')"),
            lambda: page.wait_for_function("(fetch('/ran/wait_for_function'), true)"),
            lambda: page.wait(Wait.function("(fetch('/ran/wait'), true)")),
            lambda: browser.scripts.add("fetch('/ran/add')"),
            lambda: browser.scripts.add_init("fetch('/ran/add_init')"),
            lambda: page.observe().one(role="button", name="Go").click(wait=Wait.function(js("click"))),
        ]
        for call in calls:
            with pytest.raises(BrowserError) as err:
                call()
            assert err.value.code == "action_denied" and "deny: eval" in str(err.value), err.value
        page.reload()
        assert page.html("#hits") == "hits: 0"

    async def cells() -> None:
        async with await AsyncBrowser.launch(LaunchOptions(timeout_ms=20000), session=opts) as browser:
            await browser.page.open(base + "/")
            async with CodeSession(browser) as session:
                for source in (
                    "await page.evaluate(\"fetch('/ran/cell-evaluate')\")",
                    "await page.wait_for_function(\"(fetch('/ran/cell-wait'), true)\")",
                ):
                    cell = await session.run(source)
                    assert cell.status is ExecutionStatus.ERROR, cell
                    assert "is refused by the action policy (rule deny: eval)" in (cell.error or ""), cell.error
                ok = await session.run("await page.title()")
                assert ok.status is ExecutionStatus.SUCCESS and ok.result == "'Counter'", ok.error

    asyncio.run(cells())
    assert _ran(paths) == [], paths


def test_deny_eval_refuses_mcp_evaluate_and_wait_for(
    agentbrowser_bin: Path, logged: tuple[str, list[str]], tmp_path: Path
) -> None:
    """The MCP server under ``deny: ["eval"]``: ``browser_evaluate`` and a ``browser_wait_for`` with a
    function are refused by the same engine check; under ``confirm: ["eval"]`` they pause."""
    from mcp import types
    from mcp.client.session import ClientSession
    from mcp.client.stdio import StdioServerParameters, stdio_client

    base, paths = logged

    def text(result: types.CallToolResult) -> str:
        return "".join(c.text for c in result.content if isinstance(c, types.TextContent))

    async def main(policy: Path, code: str) -> None:
        args = ["--action-policy", str(policy), "mcp"]
        params = StdioServerParameters(command=str(agentbrowser_bin), args=args, env=dict(os.environ))
        async with stdio_client(params) as (r, w), ClientSession(r, w) as session:
            await session.initialize()
            opened = await session.call_tool("browser_navigate", {"url": base + "/"})
            assert not opened.is_error, text(opened)
            for tool, arguments in (
                ("browser_evaluate", {"function": "() => fetch('/ran/mcp-evaluate')"}),
                ("browser_wait_for", {"function": "() => (fetch('/ran/mcp-wait'), true)"}),
            ):
                out = await session.call_tool(tool, arguments)
                assert out.is_error and code in text(out), (tool, text(out))
            # A wait without a function is a read: it runs.
            out = await session.call_tool("browser_wait_for", {"text": "hits: 0"})
            assert not out.is_error, text(out)
            await session.call_tool("browser_close", {})

    asyncio.run(main(_policy(tmp_path, '{"default": "allow", "deny": ["eval"]}'), "action_denied"))
    (tmp_path / "confirm").mkdir()
    confirm = (tmp_path / "confirm") / "policy.json"
    confirm.write_text('{"confirm": ["eval"]}')
    asyncio.run(main(confirm, "confirmation_required"))
    assert _ran(paths) == [], paths
