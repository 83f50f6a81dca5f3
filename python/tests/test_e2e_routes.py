"""End-to-end: request interception from the SDK (sync and async) on real Chromium: routes
(fulfill, abort, continue with a header, times), extra headers, HTTP credentials, and a real
proxy server (proxy.py from PyPI, with basic authentication) that logs what it relayed."""

from __future__ import annotations

import asyncio
import base64
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from agentbrowser import AsyncBrowser, Browser, BrowserError, LaunchOptions, ProxyConfig, Route, RouteResponse

from conftest import aeventually, eventually


class _Handler(BaseHTTPRequestHandler):
    """Serves a page, logs every request (path and headers); `/secret` needs Basic alice:wonder."""

    log: list[tuple[str, dict[str, str]]] = []

    def do_GET(self) -> None:  # noqa: N802 - the stdlib's name
        self.log.append((self.path, {k.lower(): v for k, v in self.headers.items()}))
        if self.path.startswith("/secret"):
            want = "Basic " + base64.b64encode(b"alice:wonder").decode()
            if self.headers.get("Authorization") != want:
                body = b"<title>denied</title>"
                self.send_response(401)
                self.send_header("WWW-Authenticate", 'Basic realm="t"')
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)
                return
        body = f"<title>page {self.path}</title>real".encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture(scope="module")
def site() -> Iterator[str]:
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()


def _seen(path: str) -> list[dict[str, str]]:
    return [h for p, h in _Handler.log if p == path]


FETCH = "fetch('{}').then(async r => [r.status, r.headers.get('content-type'), await r.text()], e => 'error:' + e.name)"


def test_routes_from_the_sdk(agentbrowser_bin: Path, site: str) -> None:
    with Browser.launch(LaunchOptions(timeout_ms=20000)) as b:
        b.page.open(f"{site}/home")
        r = b.network.route("**/api/data", response=RouteResponse(status=201, body=b"\x00bin", content_type="application/x-bin"))
        assert isinstance(r, Route) and r.action == "fulfill" and r.status == 201 and r.body_bytes == 4
        assert b.page.evaluate(FETCH.format("/api/data")) == [201, "application/x-bin", "\x00bin"]
        assert _seen("/api/data") == []
        b.network.route("**/api/fail", abort="connectionrefused")
        assert b.page.evaluate(FETCH.format("/api/fail")) == "error:TypeError"
        b.network.route("**/api/echo", set_headers={"X-Added": "42"})
        b.page.evaluate(FETCH.format("/api/echo"))
        assert _seen("/api/echo")[-1]["x-added"] == "42"
        gone = b.network.route("**/api/strip", remove_headers=["X-Secret"])
        assert gone.action == "continue" and gone.removed_header_names == ("X-Secret",)
        b.page.evaluate("fetch('/api/strip', {headers: {'X-Secret': 's', 'X-Kept': 'k'}}).then(r => r.status)")
        stripped = _seen("/api/strip")[-1]
        assert stripped["x-kept"] == "k" and "x-secret" not in stripped, stripped
        b.network.unroute("**/api/strip")
        b.network.route("**/api/count", body="mocked", times=2)
        got = [b.page.evaluate(FETCH.format("/api/count"))[2] for _ in range(3)]
        assert got == ["mocked", "mocked", "<title>page /api/count</title>real"]
        routes = b.network.routes()
        assert [x.url for x in routes] == ["**/api/echo", "**/api/fail", "**/api/data"]
        assert all(x.hits == 1 for x in routes)
        with pytest.raises(BrowserError) as e:
            b.network.route("**/x", abort=True, status=200)
        assert e.value.code == "invalid_argument" and "status" in str(e.value)
        with pytest.raises(ValueError):
            b.network.route("**/x", response={"status": 200}, body="b")
        removed = b.network.unroute()
        assert len(removed) == 3 and b.network.routes() == ()

        assert b.network.headers({"X-Team": "blue"}) == ("X-Team",)
        b.page.evaluate(FETCH.format("/h1"))
        assert _seen("/h1")[-1]["x-team"] == "blue"
        b.network.headers({})
        b.page.evaluate(FETCH.format("/h2"))
        assert "x-team" not in _seen("/h2")[-1]

        b.network.credentials("alice", "wonder")
        assert b.page.open(f"{site}/secret").title == "page /secret"
        # Chromium keeps credentials an origin accepted: the wrong ones go to another origin.
        b.network.credentials("alice", "wrong")
        b.page.open(f"{site.replace('127.0.0.1', 'localhost')}/secret2")
        assert b.page.evaluate("document.title") == "denied"
        assert len(_seen("/secret2")) <= 3, "answered once, then refused: no loop"
        b.network.credentials(None, None)


def test_routes_async(agentbrowser_bin: Path, site: str) -> None:
    async def main() -> None:
        async with await AsyncBrowser.launch(LaunchOptions(timeout_ms=20000)) as b:
            await b.page.open(f"{site}/ahome")
            r = await b.network.route("**/api/async", body="from async", resource_type="fetch")
            assert r.resource_types == ("fetch",)
            assert (await b.page.evaluate(FETCH.format("/api/async")))[2] == "from async"
            assert [x.hits for x in await b.network.routes()] == [1]
            assert [x.url for x in await b.network.unroute("**/api/async")] == ["**/api/async"]
            assert await aeventually(lambda: _async_real(b), 5)
            assert await b.network.headers({"X-A": "1"}, origin=site) == ("X-A",)
            await b.page.evaluate(FETCH.format("/ah"))
            assert _seen("/ah")[-1]["x-a"] == "1"
            await b.network.credentials(None, None)

    asyncio.run(main())


async def _async_real(b: AsyncBrowser) -> bool:
    return bool((await b.page.evaluate(FETCH.format("/api/async")))[0] == 200)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_proxy_with_authentication(agentbrowser_bin: Path, site: str, tmp_path: Path) -> None:
    port = _free_port()
    log = tmp_path / "proxy.log"
    proxy = subprocess.Popen(
        [sys.executable, "-m", "proxy", "--hostname", "127.0.0.1", "--port", str(port),
         "--basic-auth", "pxuser:pxpass-secret", "--log-file", str(log), "--num-workers", "1", "--num-acceptors", "1"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    try:
        def listening() -> bool:
            with socket.socket() as s:
                return s.connect_ex(("127.0.0.1", port)) == 0

        assert eventually(listening, 20), "proxy.py started"
        # Chromium never proxies loopback unless told (`<-loopback>`); localhost stays direct.
        options = LaunchOptions(timeout_ms=20000, proxy=ProxyConfig(
            f"http://127.0.0.1:{port}", bypass="<-loopback>,localhost", username="pxuser", password="pxpass-secret"))
        with Browser.launch(options) as b:
            assert b.page.open(f"{site}/via-proxy").title == "page /via-proxy"
            assert eventually(lambda: "/via-proxy" in log.read_text(), 5), log.read_text()
            other = site.replace("127.0.0.1", "localhost")
            assert b.page.open(f"{other}/direct").title == "page /direct"
            assert "/direct" not in log.read_text(), "the bypass list was honoured"
            pid = b.launch_result.pid if b.launch_result else None
            assert pid is not None
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes().decode()
            assert f"--proxy-server=http://127.0.0.1:{port}" in cmdline
            assert "pxpass-secret" not in cmdline and "pxuser" not in cmdline
        with pytest.raises((BrowserError, ValueError)) as e:
            Browser.launch(LaunchOptions(proxy="ftp://127.0.0.1:1"))
        assert "http, https, socks5" in str(e.value)
    finally:
        proxy.terminate()
        proxy.wait(10)
