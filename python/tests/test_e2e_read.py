"""End-to-end: ``page.read`` (sync and async) against pages served on 127.0.0.1 and real Chromium:
server Markdown, the HTML fallback, llms.txt, raw, outline, filter, bounds, headers, and the
active tab's rendered DOM; an explicit-URL read launches no browser."""

from __future__ import annotations

import asyncio
import threading
import uuid
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from agentbrowser import (
    AsyncBrowser,
    Browser,
    BrowserError,
    LaunchOptions,
    ReadAttempt,
    ReadHeading,
    ReadMode,
    ReadResult,
)

GUIDE_MD = "# Guide\n\nServer-side Markdown.\n\n## Setup\n\nRun `widgets init`.\n\n## Usage\n\nCall it.\n"
ARTICLE = (
    "<!doctype html><html><head><meta charset=utf-8><title>Article | Site</title></head><body>"
    "<header><nav><a href='/'>Home</a> <a href='/blog'>Blog</a></nav></header>"
    "<main><h1 id='top'>Article title</h1><p>The first paragraph of the article, with a "
    "<a href='/guide'>link to the guide</a>.</p><h2 id='details'>Details</h2>"
    "<pre><code class='language-python'>print('hi')\n</code></pre>"
    "<ul><li>one</li><li>two</li></ul></main>"
    "<footer>Footer text</footer>"
    "<div class='cookie-banner' role='dialog'>We use cookies <button>OK</button></div></body></html>"
)

#: Requests the server saw: (path, headers as a dict with lowercase names).
SEEN: list[tuple[str, dict[str, str]]] = []


class _Handler(BaseHTTPRequestHandler):
    def do_GET(self) -> None:  # noqa: N802 (http.server API)
        SEEN.append((self.path, {k.lower(): v for k, v in self.headers.items()}))
        accept = self.headers.get("Accept", "")
        path = self.path.split("?")[0]
        if path == "/guide" and "text/markdown" in accept:
            self._send(200, "text/markdown; charset=utf-8", GUIDE_MD)
        elif path == "/guide":
            self._send(200, "text/html; charset=utf-8", "<main><h1>Guide as HTML</h1></main>")
        elif path == "/article":
            self._send(200, "text/html; charset=utf-8", ARTICLE)
        elif path == "/llms.txt":
            self._send(200, "text/plain; charset=utf-8", "# Site\n\n> Index for models.\n")
        elif path == "/docs/llms-full.txt":
            self._send(200, "text/markdown", "# Docs\n\nAll of them.\n")
        elif path == "/docs/page.html":
            self._send(200, "text/html; charset=utf-8", "<main><h1>Doc page</h1></main>")
        else:
            self._send(404, "text/html; charset=utf-8", "<h1>Not found</h1>")

    def _send(self, status: int, content_type: str, body: str) -> None:
        data = body.encode()
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002
        pass


@pytest.fixture(scope="module")
def site() -> Iterator[str]:
    """Base URL of this module's pages."""
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    httpd.daemon_threads = True
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()


def test_read_urls_without_a_browser(agentbrowser_bin: Path, site: str) -> None:
    browser = Browser.connect(session=f"read-{uuid.uuid4().hex[:8]}")
    try:
        r = browser.page.read(f"{site}/guide")
        assert isinstance(r, ReadResult)
        assert (r.source, r.status, r.content) == ("accept-markdown", 200, GUIDE_MD)
        assert r.url == r.final_url == f"{site}/guide"
        assert r.content_type is not None and r.content_type.startswith("text/markdown")
        assert r.truncated is False and r.total_chars == len(GUIDE_MD)
        assert r.title == "Guide" and str(r) == GUIDE_MD
        assert r.attempts == (ReadAttempt("page", f"{site}/guide", 200, r.content_type, True, None),)

        art = browser.page.read(f"{site}/article")
        assert art.source == "html-fallback"
        assert art.content.startswith("# Article title\n\nThe first paragraph of the article, with a ")
        assert f"[link to the guide]({site}/guide)" in art.content
        assert "```python\nprint('hi')\n```" in art.content and "- one\n- two" in art.content
        for chrome in ("Home", "Blog", "Footer text", "cookies"):
            assert chrome not in art.content
        assert [a.purpose for a in art.attempts] == ["page", "md-url"]
        assert art.attempts[1].status == 404 and art.attempts[1].used is False

        outline = browser.page.read(f"{site}/article", mode=ReadMode.outline_only())
        assert outline.outline == (ReadHeading(1, "Article title", "top"), ReadHeading(2, "Details", "details"))
        assert outline.content == "# Article title {#top}\n## Details {#details}"

        part = browser.page.read(f"{site}/guide", filter="setup")
        assert (part.content, part.sections) == ("## Setup\n\nRun `widgets init`.", 1)

        raw = browser.page.read(f"{site}/article", mode=ReadMode.html())
        assert (raw.source, raw.content) == ("raw", ARTICLE)

        idx = browser.page.read(f"{site}/docs/page.html", mode=ReadMode.llms_index())
        assert (idx.source, idx.final_url) == ("llms-index", f"{site}/llms.txt")
        assert [a.url for a in idx.attempts] == [f"{site}/docs/llms.txt", f"{site}/llms.txt"]
        full = browser.page.read(f"{site}/docs/page.html", mode=ReadMode.llms_full())
        assert (full.source, full.final_url, full.content) == (
            "llms-full",
            f"{site}/docs/llms-full.txt",
            "# Docs\n\nAll of them.\n",
        )

        cut = browser.page.read(f"{site}/guide", max_chars=20)
        assert cut.truncated is True and cut.total_chars == len(GUIDE_MD)
        assert GUIDE_MD.startswith(cut.content) and len(cut.content) <= 20

        with pytest.raises(BrowserError) as err:
            browser.page.read(f"{site}/docs/page.html", mode=ReadMode.markdown(require=True))
        assert err.value.code == "content_unavailable"
        assert "page.html.md" in str(err.value)
        with pytest.raises(BrowserError) as err:
            browser.page.read(f"{site}/guide", filter="nowhere")
        assert err.value.code == "content_unavailable" and "Setup" in str(err.value)

        # Headers only when given.
        before = len(SEEN)
        browser.page.read(f"{site}/guide")
        browser.page.read(f"{site}/guide", headers={"X-Token": "t0ken"})
        plain, asked = SEEN[before], SEEN[before + 1]
        assert "x-token" not in plain[1] and "cookie" not in plain[1]
        assert asked[1]["x-token"] == "t0ken"

        # None of it needed a browser.
        assert browser.status().raw["browser"]["launched"] is False
    finally:
        browser.close(end_session=True)


def test_read_arguments_are_checked_before_sending(agentbrowser_bin: Path) -> None:
    browser = Browser.connect(session=f"readargs-{uuid.uuid4().hex[:8]}")
    try:
        for kwargs, exc in (
            ({"mode": ReadMode.html(), "filter": "x"}, ValueError),
            ({"mode": ReadMode.outline_only(), "filter": "x"}, ValueError),
            ({"mode": ReadMode.markdown(require=True)}, ValueError),
            ({"headers": {"X": "y"}}, ValueError),
            ({"cookies": True}, ValueError),
            ({"timeout_ms": 0}, ValueError),
            ({"max_chars": -1}, ValueError),
            ({"filter": ""}, ValueError),
            ({"mode": "html"}, TypeError),
        ):
            with pytest.raises(exc):
                browser.page.read(**kwargs)  # type: ignore[arg-type]
        with pytest.raises(BrowserError) as err:
            browser.page.read("file:///etc/hostname")
        assert err.value.code == "invalid_argument"
        assert browser.status().raw["browser"]["launched"] is False
    finally:
        browser.close(end_session=True)


def test_read_async_active_tab_and_url(agentbrowser_bin: Path, site: str) -> None:
    async def main() -> None:
        async with await AsyncBrowser.launch(LaunchOptions(timeout_ms=20000)) as browser:
            await browser.page.open(f"{site}/article")
            await browser.page.evaluate(
                "document.querySelector('main').insertAdjacentHTML('beforeend', '<p>Written by a script.</p>')"
            )
            tab = await browser.page.read()
            assert (tab.source, tab.status, tab.url) == ("active-tab", None, f"{site}/article")
            assert tab.content.startswith("# Article title\n")
            assert tab.content.endswith("Written by a script.")
            assert tab.attempts == ()
            dom = await browser.page.read(mode=ReadMode.html())
            assert dom.source == "active-tab-html" and "Written by a script." in dom.content
            outline = await browser.page.read(mode=ReadMode.outline_only())
            assert outline.outline is not None and [h.text for h in outline.outline] == ["Article title", "Details"]
            over_http = await browser.page.read(f"{site}/guide")
            assert over_http.source == "accept-markdown"

    asyncio.run(main())
