"""End-to-end: cookies, web storage and state files from the SDK (sync and async), and state
files moving both ways between agentbrowser and Playwright for Python (Chromium at
/usr/bin/chromium, no browser download). Pages are served on 127.0.0.1 and, as a second
origin, on localhost by the same server; ``/echo`` answers with the Cookie header it got, so
what the server sees is on the page."""

from __future__ import annotations

import asyncio
import html
import json
import os
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from agentbrowser import (
    AsyncBrowser,
    Browser,
    BrowserError,
    Cookie,
    LaunchOptions,
    StateDecryptError,
    StateListing,
)
from playwright.sync_api import sync_playwright


class _Handler(BaseHTTPRequestHandler):
    def do_GET(self) -> None:  # noqa: N802 (http.server API)
        cookies = []
        if self.path.startswith("/login"):
            cookies = ["sid=s3cret; Path=/; HttpOnly; SameSite=Strict"]
        body = "<title>t</title><p id=c>" + html.escape(self.headers.get("Cookie", "")) + "</p>"
        data = body.encode()
        self.send_response(200)
        for c in cookies:
            self.send_header("Set-Cookie", c)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002
        pass


@pytest.fixture(scope="module")
def port(agentbrowser_bin: Path) -> Iterator[int]:
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    httpd.daemon_threads = True
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    yield int(httpd.server_address[1])
    httpd.shutdown()
    httpd.server_close()


@pytest.fixture()
def state_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    d = tmp_path / "state"
    monkeypatch.setenv("AGENTBROWSER_STATE_DIR", str(d))
    return d


def _launch(tag: str) -> Browser:
    return Browser.launch(LaunchOptions(timeout_ms=20000))


def test_cookies_storage_and_state_round_trip_sync(port: int, state_dir: Path) -> None:
    ip, local = f"http://127.0.0.1:{port}", f"http://localhost:{port}"
    with _launch("a") as b:
        b.page.open(f"{ip}/login")
        (sid,) = [c for c in b.cookies.get() if c.name == "sid"]
        assert isinstance(sid, Cookie) and sid.value == "s3cret" and sid.http_only and sid.same_site == "Strict"
        assert "s3cret" not in repr(sid)
        assert b.cookies.set("tok", "abc", url=f"{local}/", secure=True, same_site="None") == 1
        (tok,) = b.cookies.get(f"{local}/")
        assert (tok.name, tok.secure, tok.same_site, tok.domain) == ("tok", True, "None", "localhost")
        with pytest.raises(ValueError, match="name and value"):
            b.cookies.set("only-name")
        with pytest.raises(ValueError, match="url= or domain="):
            b.cookies.set("a", "b")
        with pytest.raises(ValueError, match="Strict, Lax, None"):
            b.cookies.set("a", "b", domain="x.test", same_site="Sometimes")  # type: ignore[arg-type]
        b.page.storage.set("who", "ip")
        assert b.page.storage.get("who") == "ip"
        assert b.page.storage.get() == {"who": "ip"}
        b.page.storage.set("s", "1", area="session")
        assert b.page.evaluate("sessionStorage.getItem('s')") == "1"
        b.page.open(f"{local}/")
        b.page.storage.set("who", "localhost")
        path = b.state.save("login")
        assert path == state_dir / "login.json" and path.stat().st_mode & 0o777 == 0o600
        listing = b.state.list()
        assert isinstance(listing, StateListing) and [f.filename for f in listing.files] == ["login.json"]
        shown = b.state.show("login")
        assert shown["encrypted"] is False and {o["origin"] for o in shown["origins"]} == {ip, local}
    with _launch("b") as b2:
        loaded = b2.state.load("login")
        assert loaded["cookies"] == 2 and sorted(loaded["origins"]) == sorted([ip, local])
        b2.page.open(f"{ip}/echo")
        assert "sid=s3cret" in b2.page.evaluate("document.getElementById('c').textContent")
        assert b2.page.storage.get("who") == "ip"
        b2.page.open(f"{local}/echo")
        assert b2.page.storage.get("who") == "localhost"
        assert "tok=abc" in b2.page.evaluate("document.getElementById('c').textContent")
        assert b2.state.rename("login", "kept") == state_dir / "kept.json"
        assert b2.state.clean(days=1) == ()
        assert b2.state.clear() == (state_dir / "kept.json",)
        assert b2.cookies.clear() == 2


def test_encryption_right_wrong_and_no_key(port: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    key = tmp_path / "k"
    key.write_text("12" * 32)
    wrong = tmp_path / "w"
    wrong.write_text("34" * 32)
    file = tmp_path / "enc.json"
    with _launch("enc") as b:
        b.page.open(f"http://127.0.0.1:{port}/login")
        b.state.save(file, key_file=key)
        assert file.read_bytes().startswith(b"AGBSTATE\x01")
        assert b.state.show(file, key_file=key)["encrypted"] is True
        with pytest.raises(StateDecryptError, match="no key"):
            b.state.load(file)
        with pytest.raises(StateDecryptError, match="key is wrong") as e:
            b.state.load(file, key_file=wrong)
        assert e.value.code == "state_decrypt_failed"
        bad = tmp_path / "bad"
        bad.write_text("xyz")
        with pytest.raises(BrowserError, match="64 hex characters"):
            b.state.load(file, key_file=bad)
        assert b.state.load(file, key_file=key)["encrypted"] is True


def test_async_cookies_storage_and_state(port: int, tmp_path: Path) -> None:
    async def run() -> None:
        async with await AsyncBrowser.launch(LaunchOptions(timeout_ms=20000)) as b:
            await b.page.open(f"http://127.0.0.1:{port}/login")
            names = {c.name for c in await b.cookies.get()}
            assert names == {"sid"}
            await b.cookies.set(cookies=[{"name": "x", "value": "1", "domain": "127.0.0.1"}])
            await b.page.storage.set("k", "v")
            assert await b.page.storage.get() == {"k": "v"}
            await b.page.storage.remove("k")
            assert await b.page.storage.get("k") is None
            await b.page.storage.set("k2", "v2")
            path = await b.state.save(tmp_path / "a.json")
            doc = json.loads(path.read_text())
            assert {c["name"] for c in doc["cookies"]} == {"sid", "x"}
            assert doc["origins"][0]["localStorage"] == [{"name": "k2", "value": "v2"}]
            assert await b.cookies.clear() == 2
            await b.page.storage.clear()
            await b.state.load(path)
            assert {c.name for c in await b.cookies.get()} == {"sid", "x"}
            assert await b.page.storage.get("k2") == "v2"

    asyncio.run(run())


def test_state_files_move_both_ways_with_playwright(port: int, tmp_path: Path) -> None:
    ip = f"http://127.0.0.1:{port}"
    ours = tmp_path / "ours.json"
    with _launch("pw") as b:
        b.page.open(f"{ip}/login")
        b.page.storage.set("from", "agentbrowser")
        b.state.save(ours)
    theirs = tmp_path / "theirs.json"
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
        try:
            ctx = browser.new_context(storage_state=str(ours))
            page = ctx.new_page()
            page.goto(f"{ip}/echo")
            assert "sid=s3cret" in page.text_content("#c")
            assert page.evaluate("localStorage.getItem('from')") == "agentbrowser"
            ctx.close()
            ctx = browser.new_context()
            page = ctx.new_page()
            page.goto(f"http://localhost:{port}/echo")
            ctx.add_cookies([{"name": "pw", "value": "yes", "url": f"http://localhost:{port}/", "httpOnly": True}])
            page.evaluate("localStorage.setItem('from', 'playwright')")
            ctx.storage_state(path=str(theirs))
            ctx.close()
        finally:
            browser.close()
    with _launch("pw2") as b2:
        loaded = b2.state.load(theirs)
        assert loaded["origins"] == [f"http://localhost:{port}"]
        b2.page.open(f"http://localhost:{port}/echo")
        assert "pw=yes" in b2.page.evaluate("document.getElementById('c').textContent")
        assert b2.page.storage.get("from") == "playwright"
        (pw,) = b2.cookies.get()
        assert pw.http_only
