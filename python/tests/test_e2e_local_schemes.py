"""End-to-end: URLs that reach local files are refused through the Python SDK and MCP exactly as
through the CLI (one engine check): ``view-source:file:``, a ``file:`` spelled with a tab, and
``chrome://`` give ``BrowserError`` ``invalid_argument`` from ``page.open`` and ``tabs.new``, and a
tool error from MCP's ``browser_navigate`` and ``browser_tabs`` ``new``; the secret file's content
shows in no answer, page text or tab title. With ``allow_file_access=True`` the file opens."""

from __future__ import annotations

import asyncio
import os
import time
from pathlib import Path
from typing import Any

import pytest
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

from agentbrowser import Browser, BrowserError, LaunchOptions


class _Secret:
    """A file whose marker is in its title and text, never in its path."""

    def __init__(self, directory: Path) -> None:
        self.marker = f"PYSECRET{os.getpid()}X{time.monotonic_ns()}"
        self.path = directory / "secret.html"
        self.path.write_text(f"<title>{self.marker}</title><p>{self.marker}</p>")
        self.url = f"file://{self.path}"

    def refused_urls(self) -> list[str]:
        return [f"view-source:{self.url}", f"fi\tle://{self.path}", "chrome://version"]


@pytest.fixture()
def secret(tmp_path: Path) -> _Secret:
    return _Secret(tmp_path)


def _assert_refused(err: BrowserError, url: str) -> None:
    assert err.code == "invalid_argument", (url, err.code, str(err))
    assert "--allow-file-access" in str(err), str(err)


def test_sdk_open_and_tab_new_refuse_local_urls(agentbrowser_bin: Path, server: str, secret: _Secret) -> None:
    with Browser.launch(LaunchOptions(timeout_ms=20000)) as b:
        b.page.open(server + "/")
        for url in secret.refused_urls():
            with pytest.raises(BrowserError) as err:
                b.page.open(url)
            _assert_refused(err.value, url)
            assert secret.marker not in str(err.value)
            with pytest.raises(BrowserError) as err:
                b.tabs.new(url)
            _assert_refused(err.value, url)
        tabs = b.tabs.list()
        assert len(tabs) == 1, tabs
        assert all(secret.marker not in t.title for t in tabs), tabs
        assert secret.marker not in str(b.page.evaluate("document.documentElement.outerHTML"))
        assert b.page.evaluate("location.href") == server + "/"


def test_sdk_with_file_access_opens_the_file(agentbrowser_bin: Path, secret: _Secret) -> None:
    with Browser.launch(LaunchOptions(timeout_ms=20000, allow_file_access=True)) as b:
        assert b.page.open(secret.url).title == secret.marker
        b.page.open(f"view-source:{secret.url}")
        assert secret.marker in str(b.page.evaluate("document.body.innerText"))


def _text(result: Any) -> str:
    return "\n".join(c.text for c in result.content if getattr(c, "type", "") == "text")


def test_mcp_navigate_and_tabs_new_refuse_local_urls(agentbrowser_bin: Path, server: str, secret: _Secret) -> None:
    async def main() -> None:
        params = StdioServerParameters(command=str(agentbrowser_bin), args=["mcp"], env=dict(os.environ))
        async with stdio_client(params) as (r, w), ClientSession(r, w) as session:
            await session.initialize()
            opened = await session.call_tool("browser_navigate", {"url": server + "/"})
            assert not opened.is_error, _text(opened)
            answers = []
            for url in secret.refused_urls():
                for tool, args in (
                    ("browser_navigate", {"url": url}),
                    ("browser_tabs", {"action": "new", "url": url}),
                ):
                    result = await session.call_tool(tool, args)
                    text = _text(result)
                    assert result.is_error, f"{tool} {url!r} was not refused:\n{text}"
                    assert "invalid_argument" in text and "--allow-file-access" in text, text
                    answers.append(text)
            listed = await session.call_tool("browser_tabs", {"action": "list"})
            snap = await session.call_tool("browser_snapshot", {})
            for text in [*answers, _text(listed), _text(snap)]:
                assert secret.marker not in text, text
            assert "* t1" in _text(listed) and "t2" not in _text(listed), _text(listed)

    asyncio.run(main())
