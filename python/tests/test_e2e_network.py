"""End-to-end: the request log (filters, bodies, post data), request detail and HAR recording,
sync and async; the HAR files are read by haralyzer and validated against the npm har-schema
(HAR 1.2) with jsonschema."""

from __future__ import annotations

import asyncio
import json
import struct
import zlib
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler
from pathlib import Path

import pytest
from agentbrowser import AsyncBrowser, Browser, BrowserError, NetworkRequest, RequestDetail, RequestLog
from conftest import aeventually, eventually
from har_check import validate_har
from haralyzer import HarParser
from local_http import serve

pytestmark = pytest.mark.e2e


def _png() -> bytes:
    """A 3x2 RGB PNG."""
    raw = b"".join(b"\x00" + b"\xff\x00\x00" * 3 for _ in range(2))

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    ihdr = struct.pack(">IIBBBBB", 3, 2, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b"")


PNG = _png()
APP = """<!doctype html><title>Net</title><img src="/pixel.png" alt="p"><h1>Net</h1>
<script>
(async () => {
  await (await fetch('/api/items?page=2&q=a%20b')).json();
  await (await fetch('/api/save', {method: 'POST', headers: {'Content-Type': 'application/json'},
                                   body: JSON.stringify({name: 'Ann'})})).text();
  await (await fetch('/gone')).text();
  document.title = 'ready';
})();
</script>"""
ROUTES: dict[str, tuple[int, str, bytes]] = {
    "/app": (200, "text/html; charset=utf-8", APP.encode()),
    "/pixel.png": (200, "image/png", PNG),
    "/api/items": (200, "application/json", b'{"items":[1,2]}'),
    "/favicon.ico": (200, "image/x-icon", b""),
}


class _Handler(BaseHTTPRequestHandler):
    def _answer(self, status: int, mime: str, body: bytes) -> None:
        self.send_response(status)
        self.send_header("Content-Type", mime)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        if self.path.startswith("/api/"):
            self.send_header("Set-Cookie", "session=abc; Path=/; HttpOnly")
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self) -> None:  # noqa: N802 (http.server API)
        route = ROUTES.get(self.path.split("?")[0])
        if route is None:
            self._answer(404, "text/plain", b"not here")
        else:
            self._answer(*route)

    def do_POST(self) -> None:  # noqa: N802
        length = int(self.headers.get("Content-Length", "0"))
        got = json.loads(self.rfile.read(length))
        self._answer(201, "application/json", json.dumps({"saved": got["name"]}).encode())

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002
        pass


@pytest.fixture(scope="module")
def net_server() -> Iterator[str]:
    yield from serve(_Handler)


@pytest.fixture(scope="module")
def browser(agentbrowser_bin: Path, require: Callable[..., None]) -> Iterator[Browser]:
    require("network_requests", "network_request", "har_start", "har_stop")
    with Browser.launch(timeout_ms=20000) as b:
        yield b


def _settled(log: RequestLog) -> bool:
    return all(r.raw["state"] != "pending" for r in log)


def _open_app(browser: Browser, base: str) -> None:
    browser.page.open(f"{base}/app")
    assert eventually(lambda: browser.page.evaluate("document.title") == "ready", 10)
    assert eventually(lambda: _settled(browser.page.network.requests()), 5)


def test_requests_filters_and_detail(browser: Browser, net_server: str) -> None:
    _open_app(browser, net_server)
    log = browser.page.network.requests()
    assert isinstance(log, RequestLog) and log.tab == "t1" and log.dropped == 0 and not log.truncated
    by_url = {r.url: r for r in log}
    doc = by_url[f"{net_server}/app"]
    assert isinstance(doc, NetworkRequest)
    assert (doc.method, doc.resource_type, doc.status) == ("GET", "document", 200)
    assert doc.raw["source"] == {"kind": "page", "tab": "t1", "frameId": doc.raw["source"]["frameId"]}
    assert by_url[f"{net_server}/pixel.png"].resource_type == "image"

    fetches = browser.page.network.requests(resource_type="fetch")
    assert sorted(r.url.split("?")[0] for r in fetches) == [
        f"{net_server}/api/items",
        f"{net_server}/api/save",
        f"{net_server}/gone",
    ]
    assert [r.url for r in browser.page.network.requests(method="POST")] == [f"{net_server}/api/save"]
    assert [r.status for r in browser.page.network.requests(status="4xx")] == [404]
    assert [r.status for r in browser.page.network.requests(status=201)] == [201]
    assert [r.url for r in browser.page.network.requests(url_pattern="**/api/items*")] == [
        f"{net_server}/api/items?page=2&q=a%20b"
    ]
    two = browser.page.network.requests(limit=2)
    assert len(two) == 2 and two.truncated and two.matched == len(log)
    with pytest.raises(ValueError, match="resource_type must be among"):
        browser.page.network.requests(resource_type="pictures")
    bad = browser.native.execute("network_requests", status="20")
    assert bad.code == "invalid_argument" and "2xx" in (bad.error or "")

    items = browser.page.network.request_detail(by_url[f"{net_server}/api/items?page=2&q=a%20b"].id)
    assert isinstance(items, RequestDetail)
    assert items.body == '{"items":[1,2]}' and items.status == 200
    assert items.response_headers["Content-Type"] == "application/json"
    image = browser.page.network.request_detail(by_url[f"{net_server}/pixel.png"].id)
    assert image.body == PNG and image.raw["body"]["encoding"] == "base64"
    save = browser.page.network.request_detail(by_url[f"{net_server}/api/save"].id)
    assert save.method == "POST" and save.raw["postData"] == '{"name":"Ann"}' and save.body == '{"saved": "Ann"}'
    cut = browser.page.network.request_detail(items.id, max_bytes=4)
    assert cut.body == '{"it' and cut.raw["body"]["truncated"] is True and cut.raw["body"]["size"] == 15
    with pytest.raises(BrowserError) as missing:
        browser.page.network.request_detail("r424242")
    assert missing.value.code == "request_not_found"

    assert browser.page.network.requests(clear=True).cleared
    assert len(browser.page.network.requests()) == 0


@pytest.mark.parametrize("content", ["text", "all", "none"])
def test_har_in_each_mode(browser: Browser, net_server: str, tmp_path: Path, content: str) -> None:
    browser.page.network.har_start(content=content)  # type: ignore[arg-type]
    _open_app(browser, net_server)
    with pytest.raises(BrowserError) as failed:
        browser.page.network.har_stop(tmp_path / "missing" / "x.har")
    assert failed.value.code == "io_error"
    path = browser.page.network.har_stop(tmp_path / f"{content}.har")
    assert path == tmp_path / f"{content}.har"
    har = validate_har(path)
    entries = {e["request"]["url"].split("?")[0]: e for e in har["log"]["entries"]}
    items = entries[f"{net_server}/api/items"]
    assert {"name": "page", "value": "2"} in items["request"]["queryString"]
    assert {"name": "q", "value": "a b"} in items["request"]["queryString"]
    assert items["response"]["cookies"][0]["name"] == "session"
    assert items["response"]["cookies"][0]["httpOnly"] is True
    save = entries[f"{net_server}/api/save"]
    assert save["request"]["postData"]["text"] == '{"name":"Ann"}'
    image = entries[f"{net_server}/pixel.png"]["response"]["content"]
    if content == "none":
        assert all("text" not in e["response"]["content"] for e in har["log"]["entries"])
    else:
        assert items["response"]["content"]["text"] == '{"items":[1,2]}'
    if content == "all":
        assert image["encoding"] == "base64" and image["size"] == len(PNG)
        import base64

        assert base64.b64decode(image["text"]) == PNG
    else:
        assert "text" not in image
    parser = HarParser(har)
    page = parser.pages[-1]
    assert any(e.url.startswith(f"{net_server}/api/items") for e in page.entries)
    with pytest.raises(BrowserError) as stopped:
        browser.page.network.har_stop()
    assert stopped.value.code == "har_not_started"


def test_async_network(agentbrowser_bin: Path, net_server: str, tmp_path: Path) -> None:
    async def run() -> None:
        async with await AsyncBrowser.launch(timeout_ms=20000) as b:
            await b.page.network.har_start()
            await b.page.open(f"{net_server}/app")

            async def settled() -> bool:
                log = await b.page.network.requests()
                return await b.page.evaluate("document.title") == "ready" and _settled(log)

            assert await aeventually(settled, 10)
            log = await b.page.network.requests(resource_type=["fetch"], method="post")
            assert [r.status for r in log] == [201]
            detail = await b.page.network.request_detail(log[0].id)
            assert detail.body == '{"saved": "Ann"}'
            path = await b.page.network.har_stop(tmp_path / "async.har")
            har = validate_har(path)
            assert any(e["request"]["method"] == "POST" for e in har["log"]["entries"])

    asyncio.run(run())


def test_har_with_a_request_still_in_flight_validates(browser: Browser, server: str, tmp_path: Path) -> None:
    """A request still waiting for its response at har_stop is in the HAR (status 0, a pending
    comment), and the file still passes the HAR 1.2 schema and haralyzer."""
    browser.page.network.har_start()
    browser.page.open(f"{server}/a")
    browser.page.evaluate("fetch('/slow?ms=6000'); 1")
    assert eventually(lambda: any("/slow" in r.url for r in browser.page.network.requests()), 10)
    har = validate_har(browser.page.network.har_stop(tmp_path / "pending.har"))
    slow = [e for e in har["log"]["entries"] if "/slow" in e["request"]["url"]]
    assert len(slow) == 1 and slow[0]["response"]["status"] == 0, slow
    assert slow[0]["comment"].startswith("pending:"), slow
    browser.page.open("about:blank")
