"""End-to-end: a page JavaScript renders, read by URL through the SDK (sync and async) and the MCP
server's ``browser_read`` (issue 35): the answer warns that the HTML is scripts and an empty root
and names the fix; ``render`` reads it as the browser renders it; a static page gives no warning."""

from __future__ import annotations

import asyncio
import os
import uuid
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler
from pathlib import Path

import pytest
from agentbrowser import AsyncBrowser, Browser, LaunchOptions, ReadResult
from local_http import serve
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

SPA = (
    "<!doctype html><html><head><meta charset=utf-8><title>Widget App</title>"
    "<script src='/app.js'></script></head><body><div id='root'></div></body></html>"
)
APP_JS = (
    "addEventListener('DOMContentLoaded', () => fetch('/data.json').then(r => r.json()).then(d => {"
    "document.getElementById('root').innerHTML = '<main><h1>' + d.title + '</h1><p>' + d.text + '</p></main>'; }));"
)
DATA = '{"title": "Rendered Widgets", "text": "The script wrote this paragraph after its data arrived."}'
STATIC = (
    "<!doctype html><html><head><title>Static</title><script src='/app.js'></script></head><body><main>"
    "<h1>Static Widgets</h1><p>"
    + "This paragraph is in the HTML the server sent, so a reader needs no script to see it. " * 4
    + "</p></main></body></html>"
)
ROUTES = {
    "/app/": ("text/html; charset=utf-8", SPA),
    "/app.js": ("text/javascript", APP_JS),
    "/data.json": ("application/json", DATA),
    "/static": ("text/html; charset=utf-8", STATIC),
}


class _Handler(BaseHTTPRequestHandler):
    def do_GET(self) -> None:  # noqa: N802 (http.server API)
        content_type, body = ROUTES.get(self.path.split("?")[0], ("text/html", "<h1>Not found</h1>"))
        data = body.encode()
        self.send_response(200 if self.path.split("?")[0] in ROUTES else 404)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002
        pass


@pytest.fixture(scope="module")
def site() -> Iterator[str]:
    """Base URL of this module's pages."""
    yield from serve(_Handler)


def _warnings(read: ReadResult) -> list[str]:
    """The read's warnings, as the model gives them (checked against the raw answer)."""
    assert list(read.warnings) == [str(w) for w in read.raw.get("warnings", [])]
    return list(read.warnings)


def test_sdk_read_warns_and_renders(agentbrowser_bin: Path, site: str) -> None:
    browser = Browser.connect(session=f"spa-{uuid.uuid4().hex[:8]}")
    try:
        plain = browser.page.read(f"{site}/app/")
        assert plain.source == "html-fallback"
        assert "Rendered Widgets" not in plain.content
        warning = " ".join(_warnings(plain))
        assert "JavaScript" in warning and "render" in warning and "open" in warning, plain.raw

        static = browser.page.read(f"{site}/static")
        assert "in the HTML the server sent" in static.content
        assert _warnings(static) == []

        rendered = browser.page.read(f"{site}/app/", render=True)
        assert rendered.source == "rendered"
        assert "# Rendered Widgets" in rendered.content
        assert "after its data arrived" in rendered.content
        assert _warnings(rendered) == []

        with pytest.raises(ValueError, match="render needs a url"):
            browser.page.read(render=True)
    finally:
        # The session is this test's own: end its daemon too (a connected handle leaves it running).
        browser.close(end_session=True)


def test_async_sdk_renders(agentbrowser_bin: Path, site: str) -> None:
    async def main() -> None:
        browser = await AsyncBrowser.launch(LaunchOptions())
        try:
            r = await browser.page.read(f"{site}/app/", render=True)
            assert (r.source, r.title) == ("rendered", "Widget App")
            assert "after its data arrived" in r.content
        finally:
            await browser.close()

    asyncio.run(main())


def test_mcp_read_warns_and_renders(agentbrowser_bin: Path, site: str) -> None:
    async def main() -> None:
        params = StdioServerParameters(command=str(agentbrowser_bin), args=["mcp"], env=dict(os.environ))
        async with stdio_client(params) as (r, w), ClientSession(r, w) as session:
            await session.initialize()
            plain = await session.call_tool("browser_read", {"url": f"{site}/app/"})
            text = "\n".join(c.text for c in plain.content if getattr(c, "type", "") == "text")
            assert not plain.is_error, text
            assert "JavaScript" in text and "render" in text, text
            assert "Rendered Widgets" not in text
            rendered = await session.call_tool("browser_read", {"url": f"{site}/app/", "render": True})
            text = "\n".join(c.text for c in rendered.content if getattr(c, "type", "") == "text")
            assert not rendered.is_error, text
            assert "Rendered Widgets" in text and "after its data arrived" in text, text
            assert "JavaScript" not in text

    asyncio.run(main())
