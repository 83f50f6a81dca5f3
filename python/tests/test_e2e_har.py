"""End-to-end: a HAR recorded through the SDK tells what happened (issue 35). The session goes
through a redirect chain to a page that loads a slow image, fetches JSON and a gzip-compressed
text, posts a form and fails a request; the file must pass the HAR 1.2 JSON schema (npm
har-schema) and haralyzer, and say: one entry per redirect hop with its own status, headers and
``redirectURL`` ("" on the final answer), entries in the order they were sent,
``content.size`` the decoded body's length (``bodySize``/``_transferSize`` what crossed the
wire), one page for the navigation timed by its DOMContentLoaded and load, and each entry's
``pageref``."""

from __future__ import annotations

import gzip
import socket
import struct
import threading
import zlib
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from typing import Any

import pytest
from agentbrowser import Browser
from conftest import eventually
from har_check import validate_har
from haralyzer import HarParser
from local_http import serve

pytestmark = pytest.mark.e2e


def _png(width: int, height: int) -> bytes:
    """A ``width`` x ``height`` RGB PNG of a gradient."""
    rows = b"".join(
        b"\x00" + b"".join(bytes([x * 40 % 256, y * 40 % 256, 200]) for x in range(width)) for y in range(height)
    )

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b"")


PICTURE = _png(5, 3)
DATA = b'{"rows":[{"id":1,"name":"Ann"},{"id":2,"name":"Bo"}],"ok":true}'
TEXT = ("agentbrowser keeps the truth of every request. " * 60).encode()
PACKED = gzip.compress(TEXT)


def _refused_port() -> int:
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = int(s.getsockname()[1])
    s.close()
    return port


REFUSED = _refused_port()
PAGE = f"""<!doctype html><title>loading</title><img src="/picture.png" alt="p">
<script>
(async () => {{
  await (await fetch('/api/data.json')).json();
  await (await fetch('/packed.txt')).text();
  await (await fetch('/api/save', {{method: 'POST', headers: {{'Content-Type': 'application/x-www-form-urlencoded'}},
                                    body: 'name=Ann&city=Oslo'}})).text();
  await fetch('http://127.0.0.1:{REFUSED}/never').catch(() => null);
  document.title = 'ready';
}})();
</script>""".encode()


SAVED = threading.Event()
"""Set when the page's POST was answered; the image waits for it."""


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def _answer(self, status: int, mime: str, body: bytes, **headers: str) -> None:
        self.send_response(status)
        self.send_header("Content-Type", mime)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        for name, value in headers.items():
            self.send_header(name.replace("_", "-"), value)
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self) -> None:  # noqa: N802 (http.server API)
        if self.path == "/start":
            self._answer(302, "text/html", b"", Location="/mid", X_Hop="start")
        elif self.path == "/mid":
            self._answer(301, "text/html", b"", Location=f"http://{self.headers['Host']}/page", X_Hop="mid")
        elif self.path == "/page":
            self._answer(200, "text/html; charset=utf-8", PAGE, X_Hop="page")
        elif self.path == "/picture.png":
            # Sent first, answered last (once the page's last request, the POST, was answered): the
            # entries' order is the order they were sent, not the order they ended.
            SAVED.wait(10)
            self._answer(200, "image/png", PICTURE)
        elif self.path == "/api/data.json":
            self._answer(200, "application/json", DATA)
        elif self.path == "/packed.txt":
            self._answer(200, "text/plain; charset=utf-8", PACKED, Content_Encoding="gzip")
        else:
            self._answer(404, "text/plain", b"no")

    def do_POST(self) -> None:  # noqa: N802
        length = int(self.headers.get("Content-Length", "0"))
        self.rfile.read(length)
        self._answer(201, "text/plain", b"saved")
        SAVED.set()

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002
        pass


@pytest.fixture(scope="module")
def har_server() -> Iterator[str]:
    SAVED.clear()
    yield from serve(_Handler)


def _header(entry: dict[str, Any], side: str, name: str) -> str | None:
    found = [h["value"] for h in entry[side]["headers"] if h["name"].lower() == name.lower()]
    return found[0] if found else None


def test_a_recorded_har_tells_what_happened(agentbrowser_bin: Path, har_server: str, tmp_path: Path) -> None:
    with Browser.launch(timeout_ms=20000) as browser:
        browser.page.network.har_start()
        browser.page.open(f"{har_server}/start")
        assert eventually(lambda: browser.page.evaluate("document.title") == "ready", 10)
        assert eventually(lambda: all(r.raw["state"] != "pending" for r in browser.page.network.requests()), 10)
        path = browser.page.network.har_stop(tmp_path / "session.har")
    har = validate_har(path)
    entries: list[dict[str, Any]] = har["log"]["entries"]
    by_url = {e["request"]["url"]: e for e in entries}

    # Entries in the order they were sent (the slow image began before the fetches).
    started = [e["startedDateTime"] for e in entries]
    assert started == sorted(started)
    assert started.index(by_url[f"{har_server}/picture.png"]["startedDateTime"]) < started.index(
        by_url[f"{har_server}/api/data.json"]["startedDateTime"]
    )

    # The redirect chain: each hop its own entry, status, headers and redirectURL.
    start, mid, page = (by_url[f"{har_server}{p}"] for p in ("/start", "/mid", "/page"))
    assert (start["response"]["status"], start["response"]["redirectURL"]) == (302, "/mid")
    assert _header(start, "response", "X-Hop") == "start" and _header(start, "response", "Location") == "/mid"
    assert (mid["response"]["status"], mid["response"]["redirectURL"]) == (301, f"{har_server}/page")
    assert _header(mid, "response", "X-Hop") == "mid"
    assert (page["response"]["status"], page["response"]["redirectURL"]) == (200, "")
    assert _header(page, "response", "X-Hop") == "page" and _header(page, "response", "Location") is None
    assert _header(page, "response", "Content-Type") == "text/html; charset=utf-8"
    assert page["response"]["content"]["size"] == len(PAGE)

    # Sizes: content.size is the decoded body; bodySize and _transferSize what crossed the wire.
    data = by_url[f"{har_server}/api/data.json"]["response"]
    assert data["content"]["size"] == len(DATA) and data["content"]["text"] == DATA.decode()
    packed = by_url[f"{har_server}/packed.txt"]["response"]
    assert packed["content"]["text"] == TEXT.decode()
    assert packed["content"]["size"] == len(TEXT)
    assert packed["bodySize"] == len(PACKED)
    assert packed["content"]["compression"] == len(TEXT) - len(PACKED)
    assert packed["_transferSize"] > len(PACKED)
    picture = by_url[f"{har_server}/picture.png"]["response"]
    assert "text" not in picture["content"], "text mode keeps no image"
    assert picture["content"]["size"] == len(PICTURE) and picture["bodySize"] == len(PICTURE)
    save = by_url[f"{har_server}/api/save"]
    assert save["request"]["method"] == "POST" and save["response"]["status"] == 201
    assert save["request"]["postData"]["text"] == "name=Ann&city=Oslo"
    assert save["request"]["postData"]["mimeType"] == "application/x-www-form-urlencoded"
    assert save["request"]["bodySize"] == len("name=Ann&city=Oslo")
    failed = by_url[f"http://127.0.0.1:{REFUSED}/never"]
    assert failed["response"]["status"] == 0 and failed["response"]["content"]["size"] == 0
    assert "failed: net::ERR_CONNECTION_REFUSED" in failed["comment"]

    # One page for the navigation, timed by its own events; every entry on it.
    pages = har["log"]["pages"]
    assert [p["title"] for p in pages] == [f"{har_server}/page"]
    timings = pages[0]["pageTimings"]
    assert 0 <= timings["onContentLoad"] <= timings["onLoad"], timings
    assert {e["pageref"] for e in entries} == {pages[0]["id"]}

    # haralyzer reads it the same way.
    parsed = HarParser(har).pages
    assert [p.page_id for p in parsed] == [pages[0]["id"]]
    hp = parsed[0]
    assert hp.url == f"{har_server}/start"
    assert hp.actual_page.url == f"{har_server}/page"
    assert hp.image_size == len(PICTURE)
    assert [e.url for e in hp.post_requests] == [f"{har_server}/api/save"]
    assert len(hp.entries) == len(entries)
