"""End-to-end: cookies, web storage and state files from the SDK (sync and async), and state
files moving both ways between agentbrowser and Playwright for Python (Chromium at
/usr/bin/chromium, no browser download). Pages are served on 127.0.0.1 and, as a second
origin, on localhost by the same server; ``/echo`` answers with the Cookie header it got, so
what the server sees is on the page."""

from __future__ import annotations

import asyncio
import contextlib
import html
import json
import os
import ssl
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
from playwright.sync_api import Browser as PwBrowser
from playwright.sync_api import sync_playwright

from test_e2e_tls_profile import _make_pki


#: The IndexedDB test page shared with the Rust state tests: write(), read(), addOrder().
IDB_PAGE = (Path(__file__).resolve().parents[2] / "crates/cli/tests/fixtures/state/indexeddb.html").read_bytes()


class _Handler(BaseHTTPRequestHandler):
    def do_GET(self) -> None:  # noqa: N802 (http.server API)
        cookies = []
        if self.path.startswith("/login"):
            cookies = ["sid=s3cret; Path=/; HttpOnly; SameSite=Strict"]
        elif self.path.startswith("/secure"):
            cookies = ["sec=1; Path=/; Secure; HttpOnly; SameSite=None", "lax=2; Path=/; Secure; SameSite=Lax"]
        body = "<title>t</title><p id=c>" + html.escape(self.headers.get("Cookie", "")) + "</p>"
        data = IDB_PAGE if self.path.startswith("/idb") else body.encode()
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


@pytest.fixture(scope="module")
def https_site(agentbrowser_bin: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """The same site over HTTPS on 127.0.0.1 (a certificate of the test's own CA): its URL and the CA."""
    ca, cert, key = _make_pki(tmp_path_factory.mktemp("state-pki"))
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    httpd.daemon_threads = True
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    ctx.load_cert_chain(cert, key)
    httpd.socket = ctx.wrap_socket(httpd.socket, server_side=True)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    yield f"https://127.0.0.1:{httpd.server_address[1]}", ca
    httpd.shutdown()
    httpd.server_close()


@pytest.fixture()
def state_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    d = tmp_path / "state"
    monkeypatch.setenv("AGENTBROWSER_STATE_DIR", str(d))
    return d


@contextlib.contextmanager
def _playwright() -> Iterator[PwBrowser]:
    """Playwright's Chromium (/usr/bin/chromium: no browser download)."""
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
        try:
            yield browser
        finally:
            browser.close()


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
    with _playwright() as browser:
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
    with _launch("pw2") as b2:
        loaded = b2.state.load(theirs)
        assert loaded["origins"] == [f"http://localhost:{port}"]
        b2.page.open(f"http://localhost:{port}/echo")
        assert "pw=yes" in b2.page.evaluate("document.getElementById('c').textContent")
        assert b2.page.storage.get("from") == "playwright"
        (pw,) = b2.cookies.get()
        assert pw.http_only


def _idb(read: object) -> dict[str, object]:
    assert isinstance(read, str)
    out = json.loads(read)
    assert isinstance(out, dict)
    return out


#: What the IndexedDB page reads back after ``write()``.
IDB_WRITTEN = {
    "version": 3, "stores": ["misc", "orders"], "count": 2, "date": "2024-01-02T03:04:05.000Z",
    "item": {"name": "pen", "qty": 2}, "bytes": [1, 2, 255], "bySku": "plain", "byTag": ["a1", "b2"],
    "unique": True, "multiEntry": True, "map": [["k", 1]], "epoch": "at epoch", "nothing": None, "misc": 3,
}


def test_indexed_db_moves_both_ways_with_playwright(port: int, tmp_path: Path) -> None:
    ip = f"http://127.0.0.1:{port}"
    ours = tmp_path / "ours-idb.json"
    with _launch("idb") as b:
        b.page.open(f"{ip}/idb")
        assert b.page.evaluate("write()") == "written"
        b.state.save(ours)
    doc = json.loads(ours.read_text())
    assert doc["origins"][0]["indexedDB"][0]["name"] == "shop"
    theirs = tmp_path / "theirs-idb.json"
    with _playwright() as browser:
        # Ours into Playwright: the page reads every record back.
        ctx = browser.new_context(storage_state=str(ours))
        page = ctx.new_page()
        page.goto(f"{ip}/idb")
        assert _idb(page.evaluate("read()")) == IDB_WRITTEN
        assert page.evaluate("addOrder()") == 3
        ctx.close()
        # Playwright's (indexed_db=True) into ours, from a fresh context on localhost.
        ctx = browser.new_context()
        page = ctx.new_page()
        page.goto(f"http://localhost:{port}/idb")
        assert page.evaluate("write()") == "written"
        ctx.storage_state(path=str(theirs), indexed_db=True)
        ctx.close()
    assert "indexedDB" in json.loads(theirs.read_text())["origins"][0]
    with _launch("idb2") as b2:
        loaded = b2.state.load(theirs)
        assert [(d["origin"], d["name"], d["records"]) for d in loaded["indexedDb"]] == [
            (f"http://localhost:{port}", "shop", 5)
        ]
        b2.page.open(f"http://localhost:{port}/idb")
        assert _idb(b2.page.evaluate("read()")) == IDB_WRITTEN
        # Encrypted files carry it too; indexed_db=False leaves it out.
        key = tmp_path / "idb.key"
        key.write_text("5a" * 32)
        sealed = b2.state.save(tmp_path / "sealed.json", key_file=key)
        assert sealed.read_bytes().startswith(b"AGBSTATE")
        plain = b2.state.save(tmp_path / "plain.json", indexed_db=False)
        assert "indexedDB" not in plain.read_text()
        with pytest.raises(TypeError, match="indexed_db"):
            b2.state.save(tmp_path / "x.json", indexed_db="no")  # type: ignore[arg-type]

    async def run() -> None:
        async with await AsyncBrowser.launch(LaunchOptions(timeout_ms=20000)) as b3:
            shown = await b3.state.load(sealed, key_file=key)
            assert [d["records"] for d in shown["indexedDb"]] == [5]
            await b3.page.open(f"http://localhost:{port}/idb")
            assert _idb(await b3.page.evaluate("read()")) == IDB_WRITTEN
            saved = await b3.state.save(tmp_path / "aio.json", indexed_db=False)
            assert "indexedDB" not in saved.read_text()

    asyncio.run(run())


def test_secure_samesite_and_httponly_cookies_of_an_https_site_round_trip(
    https_site: tuple[str, Path], tmp_path: Path
) -> None:
    url, _ca = https_site
    # ignore_https_errors, not ca_cert: the cookies are what is tested, not the trust store.
    opts = LaunchOptions(ignore_https_errors=True, timeout_ms=20000)
    flags = lambda b: {c.name: (c.secure, c.http_only, c.same_site) for c in b.cookies.get()}  # noqa: E731
    expected = {"sec": (True, True, "None"), "lax": (True, False, "Lax"), "sid": (False, True, "Strict")}
    with Browser.launch(opts) as b:
        b.page.open(f"{url}/secure")
        b.page.open(f"{url}/login")
        assert flags(b) == expected
        assert b.page.evaluate("document.cookie") == "lax=2"
        saved = b.state.save(tmp_path / "tls.json")
    doc = {c["name"]: c for c in json.loads(saved.read_text())["cookies"]}
    assert (doc["sec"]["secure"], doc["sec"]["httpOnly"], doc["sec"]["sameSite"]) == (True, True, "None")
    assert (doc["lax"]["secure"], doc["lax"]["httpOnly"], doc["lax"]["sameSite"]) == (True, False, "Lax")
    with Browser.launch(opts) as b2:
        b2.state.load(saved)
        assert flags(b2) == expected
        b2.page.open(f"{url}/echo")
        sent = b2.page.evaluate("document.getElementById('c').textContent")
        assert "sec=1" in sent and "lax=2" in sent and "sid=s3cret" in sent, sent
