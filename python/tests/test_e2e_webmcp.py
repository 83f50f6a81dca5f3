"""End-to-end: ``page.webmcp`` (sync and async) against Chromium's native WebMCP on a page served
on 127.0.0.1 that registers tools: list, invoke with valid and invalid input (the page never sees
the invalid call), detach then cancel, a removed tool."""

from __future__ import annotations

import asyncio
import os
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from agentbrowser import AsyncBrowser, Browser, BrowserError, ConfirmationRequired, LaunchOptions, SessionOptions

PAGE = b"""<!doctype html><title>Tools</title><p id=calls>0</p><script>
let calls = 0;
document.modelContext.registerTool({name: 'echo', description: 'Echoes x',
  inputSchema: {type: 'object', properties: {x: {type: 'string'}}, required: ['x']},
  annotations: {readOnlyHint: true},
  execute: async (i) => { calls++; document.getElementById('calls').textContent = calls; return 'got ' + i.x; }});
const ctl = new AbortController();
document.modelContext.registerTool({name: 'wait', description: 'Never answers',
  execute: () => new Promise(() => {})});
document.modelContext.registerTool({name: 'gone', description: 'Removed on demand',
  execute: async () => 'still here'}, {signal: ctl.signal});
window.removeGone = () => ctl.abort();
</script>"""


_PLAIN = b"<!doctype html><title>Plain</title><p>no tools here</p>"


class _Handler(BaseHTTPRequestHandler):
    """``/tools`` registers tools; any other path is a page without any."""

    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        body = PAGE if self.path == "/tools" else _PLAIN
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture(scope="module")
def tools_url() -> Iterator[str]:
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}/tools"
    httpd.shutdown()


def test_sync_list_invoke_invalid_detach_cancel(agentbrowser_bin: Path, tools_url: str) -> None:
    with Browser.launch(LaunchOptions(timeout_ms=20000)) as browser:
        page = browser.page
        page.open(tools_url)
        tools = page.webmcp.list()
        # By name (the page registered echo, wait, gone), live or replayed by a late enable.
        assert [t.name for t in tools] == ["echo", "gone", "wait"]
        echo = page.webmcp.list("echo")[0]
        assert echo.description == "Echoes x" and echo.annotations.get("read_only") is True
        assert echo.input_schema["required"] == ["x"] and echo.origin.startswith("http://127.0.0.1:")

        done = page.webmcp.invoke("echo", {"x": "hi"})
        assert done.status == "completed" and "got hi" in str(done.output), done
        assert page.evaluate("document.getElementById('calls').textContent") == "1"

        with pytest.raises(BrowserError) as bad:
            page.webmcp.invoke("echo", {"x": 5})
        assert bad.value.code == "webmcp_invalid_input"
        assert page.evaluate("document.getElementById('calls').textContent") == "1"  # the page never saw it

        pending = page.webmcp.invoke("wait", detach=True)
        assert pending.status == "pending"
        assert page.webmcp.result(pending.invocation_id).status == "pending"
        assert page.webmcp.cancel(pending.invocation_id).status == "canceled"
        with pytest.raises(BrowserError) as again:
            page.webmcp.cancel(pending.invocation_id)
        assert again.value.code == "webmcp_invocation_finished"

        page.evaluate("removeGone()")
        with pytest.raises(BrowserError) as gone:
            page.webmcp.invoke("gone")
        assert gone.value.code == "webmcp_tool_not_found"


def test_async_list_and_invoke(agentbrowser_bin: Path, tools_url: str) -> None:
    async def main() -> None:
        async with await AsyncBrowser.launch(LaunchOptions(timeout_ms=20000)) as browser:
            page = browser.page
            await page.open(tools_url)
            names = [t.name for t in await page.webmcp.list()]
            assert "echo" in names and "wait" in names
            done = await page.webmcp.invoke("echo", {"x": "async"})
            assert done.status == "completed" and "got async" in str(done.output), done
            with pytest.raises(BrowserError) as bad:
                await page.webmcp.invoke("echo", {})
            assert bad.value.code == "webmcp_invalid_input"

    asyncio.run(main())


def test_a_confirm_policy_pauses_only_tools_that_are_not_read_only(agentbrowser_bin: Path, tools_url: str) -> None:
    opts = SessionOptions(confirm_actions=["mutate"])
    with Browser.launch(LaunchOptions(timeout_ms=20000), session=opts) as browser:
        page = browser.page
        page.open(tools_url)
        # echo is annotated read-only: its call is a read and runs.
        assert page.webmcp.invoke("echo", {"x": "ro"}).status == "completed"
        # gone has no annotations: its call is a mutation and waits for a person.
        with pytest.raises(ConfirmationRequired) as paused:
            page.webmcp.invoke("gone")
        assert paused.value.pending is not None
        paused.value.pending.deny()


def test_mcp_lists_page_tools_and_says_when_they_change(agentbrowser_bin: Path, tools_url: str) -> None:
    """The MCP server lists the page's tools as webmcp_* tools, runs them, and sends
    notifications/tools/list_changed when the page adds or removes one."""
    from mcp import types
    from mcp.client.session import ClientSession
    from mcp.client.stdio import StdioServerParameters, stdio_client

    async def main() -> None:
        changed = asyncio.Event()

        async def on_message(message: object) -> None:
            root = getattr(message, "root", message)
            if isinstance(root, types.ToolListChangedNotification):
                changed.set()

        params = StdioServerParameters(command=str(agentbrowser_bin), args=["mcp"], env=dict(os.environ))
        async with stdio_client(params) as (r, w), ClientSession(r, w, message_handler=on_message) as session:
            await session.initialize()

            async def names() -> list[str]:
                return [t.name for t in (await session.list_tools()).tools if t.name.startswith("webmcp_")]

            assert await names() == []  # no browser yet: nothing listed, nothing launched
            await session.call_tool("browser_navigate", {"url": tools_url})
            await asyncio.wait_for(changed.wait(), 20)
            changed.clear()
            tools = {t.name: t for t in (await session.list_tools()).tools}
            assert {"webmcp_echo", "webmcp_wait", "webmcp_gone"} <= set(tools), list(tools)
            echo = tools["webmcp_echo"]
            assert echo.annotations is not None and echo.annotations.read_only_hint is True
            assert "untrusted page content" in (echo.description or "")
            assert echo.input_schema["required"] == ["x"]
            gone = tools["webmcp_gone"].annotations
            assert gone is not None and gone.read_only_hint is False

            done = await session.call_tool("webmcp_echo", {"x": "mcp"})
            text = "".join(c.text for c in done.content if isinstance(c, types.TextContent))
            assert not done.is_error and "got mcp" in text, text
            bad = await session.call_tool("webmcp_echo", {"x": 5})
            text = "".join(c.text for c in bad.content if isinstance(c, types.TextContent))
            assert bad.is_error and "webmcp_invalid_input" in text, text

            await session.call_tool("browser_evaluate", {"function": "() => removeGone()"})
            await asyncio.wait_for(changed.wait(), 20)
            assert "webmcp_gone" not in await names()
            await session.call_tool("browser_close", {})

    asyncio.run(main())


@pytest.fixture(scope="module")
def two_origins() -> Iterator[tuple[str, str]]:
    """The tools page on 127.0.0.1, and a page without tools on another origin (localhost)."""
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    port = httpd.server_address[1]
    yield f"http://127.0.0.1:{port}/tools", f"http://localhost:{port}/plain"
    httpd.shutdown()


def test_sdk_and_mcp_agree_that_tools_leave_with_their_page(
    agentbrowser_bin: Path, two_origins: tuple[str, str]
) -> None:
    """After a navigation to another origin, the first page's tools are gone from ``webmcp.list()``
    and from the MCP server's ``webmcp_*`` tools alike (never credited to the new origin); back on
    the first page (the SDK) it lists them again under its origin."""
    from mcp import types
    from mcp.client.session import ClientSession
    from mcp.client.stdio import StdioServerParameters, stdio_client

    tools_url, plain_url = two_origins
    origin = tools_url.rsplit("/", 1)[0]
    with Browser.launch(LaunchOptions(timeout_ms=20000)) as browser:
        page = browser.page
        page.open(tools_url)
        sdk_on_tools = sorted(t.name for t in page.webmcp.list())
        assert {"echo", "wait", "gone"} <= set(sdk_on_tools)
        assert {t.origin for t in page.webmcp.list()} == {origin}
        page.open(plain_url)
        sdk_on_plain = sorted(t.name for t in page.webmcp.list())
        assert sdk_on_plain == [], sdk_on_plain
        with pytest.raises(BrowserError) as gone:
            page.webmcp.invoke("echo", {"x": "late"})
        assert gone.value.code == "webmcp_tool_not_found" and "went away with its page" in str(gone.value)

    async def mcp() -> tuple[list[str], list[str], str]:
        params = StdioServerParameters(command=str(agentbrowser_bin), args=["mcp"], env=dict(os.environ))
        async with stdio_client(params) as (r, w), ClientSession(r, w) as session:
            await session.initialize()

            async def page_tools() -> dict[str, types.Tool]:
                return {t.name: t for t in (await session.list_tools()).tools if t.name.startswith("webmcp_")}

            await session.call_tool("browser_navigate", {"url": tools_url})
            on_tools: dict[str, types.Tool] = {}
            for _ in range(100):  # tools register while the page runs its scripts
                on_tools = await page_tools()
                if {"webmcp_echo", "webmcp_wait", "webmcp_gone"} <= set(on_tools):
                    break
                await asyncio.sleep(0.05)
            described = on_tools["webmcp_echo"].description or ""
            await session.call_tool("browser_navigate", {"url": plain_url})
            on_plain = await page_tools()
            await session.call_tool("browser_close", {})
            return sorted(n.removeprefix("webmcp_") for n in on_tools), sorted(on_plain), described

    mcp_on_tools, mcp_on_plain, described = asyncio.run(mcp())
    assert mcp_on_tools == sdk_on_tools and f"of {origin}" in described, (mcp_on_tools, described)
    assert mcp_on_plain == sdk_on_plain == [], mcp_on_plain
