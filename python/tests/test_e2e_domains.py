"""End-to-end: allowed domains through the SDK on real Chromium (sync, async and lazy), with a
second server on 127.0.0.1 reached as ``localhost`` that counts every request it receives: with
``allowed_domains=["127.0.0.1"]`` it receives none (the page's fetch, WebSocket and image fail,
``open`` raises BrowserError ``domain_not_allowed``); without them the same page reaches it."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from agentbrowser import AsyncBrowser, Browser, BrowserError, CDPTarget, LaunchOptions, SessionOptions
from conftest import eventually

# The page's attempts on the other host; ``window.__done`` holds one report per channel.
ATTACK = """
window.__done = {};
const T = 'http://localhost:%(port)d';
fetch(T + '/fetch').then(() => __done.fetch = 'reached', () => __done.fetch = 'failed');
const ws = new WebSocket('ws://localhost:%(port)d/ws');
ws.onerror = () => __done.websocket = 'failed'; ws.onopen = () => __done.websocket = 'open';
const img = new Image(); img.onload = () => __done.img = 'reached'; img.onerror = () => __done.img = 'failed';
img.src = T + '/img';
'started'
"""


class _Counter:
    """A server that records the path of every request (WebSocket upgrades included)."""

    def __init__(self) -> None:
        paths: list[str] = []
        self.paths = paths

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802 (http.server API)
                paths.append(self.path)
                body = b"<title>reached</title>"
                self.send_response(200)
                self.send_header("Content-Type", "text/html")
                self.send_header("Access-Control-Allow-Origin", "*")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, format: str, *args: object) -> None:  # noqa: A002
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()
        self.port = int(self.httpd.server_address[1])
        self.url = f"http://localhost:{self.port}"


@pytest.fixture()
def counter() -> Iterator[_Counter]:
    c = _Counter()
    yield c
    c.httpd.shutdown()
    c.httpd.server_close()


def _settled(b: Browser) -> dict[str, str]:
    done: dict[str, str] = {}

    def check() -> bool:
        nonlocal done
        done = b.page.evaluate("window.__done")
        return all(k in done for k in ("fetch", "websocket", "img"))

    assert eventually(check, 20.0), done
    return done


def test_sync_allowed_domains_block_every_request_and_command(
    agentbrowser_bin: Path, server: str, counter: _Counter
) -> None:
    with Browser.launch(LaunchOptions(timeout_ms=20000), session=SessionOptions(allowed_domains=["127.0.0.1"])) as b:
        assert b.page.open(server + "/").title
        b.page.evaluate(ATTACK % {"port": counter.port})
        done = _settled(b)
        assert done["fetch"] == "failed" and done["img"] == "failed" and done["websocket"] == "failed", done
        with pytest.raises(BrowserError) as err:
            b.page.open(counter.url + "/typed")
        assert err.value.code == "domain_not_allowed"
        assert "localhost" in str(err.value) and "127.0.0.1" in str(err.value)
        with pytest.raises(BrowserError) as err:
            b.page.open("file:///etc/hostname")
        assert err.value.code == "invalid_argument" and "allow-file-access" in str(err.value)
        b.page.open(server + "/a")
    assert counter.paths == []


def test_without_allowed_domains_the_same_page_reaches_the_other_host(
    agentbrowser_bin: Path, server: str, counter: _Counter
) -> None:
    with Browser.launch(LaunchOptions(timeout_ms=20000)) as b:
        b.page.open(server + "/")
        b.page.evaluate(ATTACK % {"port": counter.port})
        done = _settled(b)
        assert done["fetch"] == "reached", done
        assert eventually(lambda: {"/fetch", "/ws", "/img"} <= set(counter.paths), 10.0), counter.paths
        assert b.page.open(counter.url + "/typed").title == "reached"


def test_lazy_browser_with_allowed_domains_refuses_other_hosts(
    agentbrowser_bin: Path, server: str, counter: _Counter
) -> None:
    b = Browser(SessionOptions(allowed_domains="127.0.0.1", timeout=20))
    try:
        b.page.open(server + "/")
        with pytest.raises(BrowserError) as err:
            b.page.open(counter.url + "/lazy")
        assert err.value.code == "domain_not_allowed"
        assert b.page.evaluate(
            f"fetch('{counter.url}/lazy-fetch').then(() => 'reached', () => 'failed')"
        ) == "failed"
    finally:
        b.close()
    assert counter.paths == []


def test_async_allowed_domains(agentbrowser_bin: Path, server: str, counter: _Counter) -> None:
    async def run() -> tuple[str, str | None]:
        opts = LaunchOptions(allowed_domains=("127.0.0.1",), timeout_ms=20000)
        async with await AsyncBrowser.launch(opts) as b:
            await b.page.open(server + "/")
            fetched = await b.page.evaluate(f"fetch('{counter.url}/async').then(() => 'reached', () => 'failed')")
            try:
                await b.page.open(counter.url + "/async-typed")
            except BrowserError as e:
                return fetched, e.code
            return fetched, None

    assert asyncio.run(run()) == ("failed", "domain_not_allowed")
    assert counter.paths == []


def test_conflicts_and_bad_lists_are_errors_naming_the_field(agentbrowser_bin: Path) -> None:
    with pytest.raises(ValueError, match="allowed_domains.*empty"):
        SessionOptions(allowed_domains=[])
    with pytest.raises(TypeError, match="allowed_domains"):
        SessionOptions(allowed_domains=[1])  # type: ignore[list-item]
    with pytest.raises(ValueError, match="cdp_port"):
        LaunchOptions(allowed_domains=["example.com"], cdp_port=9222)
    with pytest.raises(ValueError, match="profile"):
        LaunchOptions(allowed_domains=["example.com"], profile="/tmp/agentbrowser-domains-profile")
    with pytest.raises(ValueError, match="cdp_port"):
        Browser.attach(CDPTarget(port=9222), session=SessionOptions(allowed_domains=["example.com"]))
    with pytest.raises(BrowserError) as err:
        Browser.launch(LaunchOptions(allowed_domains=["http://example.com/"], timeout_ms=20000))
    assert err.value.code == "invalid_argument" and "http://example.com/" in str(err.value)
    with pytest.raises(BrowserError) as err:
        Browser.launch(LaunchOptions(allowed_domains=["example.com"], args=["https://evil.test/"], timeout_ms=20000))
    assert err.value.code == "invalid_argument" and "startup URL" in str(err.value)
