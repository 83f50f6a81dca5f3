"""End-to-end: the auth vault from the SDK (sync and async) against a login site on 127.0.0.1
that checks posted credentials and sets a session cookie; the password never comes back."""

from __future__ import annotations

import asyncio
import threading
import urllib.parse
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from agentbrowser import AsyncBrowser, AuthEntry, AuthListing, AuthLogin, AuthVaultError, Browser, LaunchOptions

PASSWORD = "py-s3cret pass"
KEY = "ab" * 32
POSTS: list[str] = []

FORM = (
    "<title>Sign in</title><form method=post action=/login>"
    "<input name=user placeholder=User><input name=pass type=password placeholder=Password>"
    "<button type=submit>Go</button></form>"
)


class _Handler(BaseHTTPRequestHandler):
    def _send(self, status: int, body: str, headers: dict[str, str] | None = None) -> None:
        data = body.encode()
        self.send_response(status)
        for k, v in (headers or {}).items():
            self.send_header(k, v)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self) -> None:  # noqa: N802 (http.server API)
        if self.path == "/home":
            who = "Logged in as bob" if "sid=bob" in self.headers.get("Cookie", "") else "Not logged in"
            self._send(200, f"<title>Home</title><p id=who>{who}</p>")
        else:
            self._send(200, FORM)

    def do_POST(self) -> None:  # noqa: N802 (http.server API)
        body = self.rfile.read(int(self.headers.get("Content-Length", "0"))).decode()
        POSTS.append(body)
        fields = dict(urllib.parse.parse_qsl(body))
        if fields.get("user") == "bob" and fields.get("pass") == PASSWORD:
            self._send(303, "", {"Location": "/home", "Set-Cookie": "sid=bob; Path=/; HttpOnly"})
        else:
            self._send(401, "<title>Denied</title>")

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002
        pass


@pytest.fixture(scope="module")
def site(agentbrowser_bin: Path) -> Iterator[str]:
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    httpd.daemon_threads = True
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()


@pytest.fixture()
def vault(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    d = tmp_path / "auth"
    monkeypatch.setenv("AGENTBROWSER_AUTH_DIR", str(d))
    monkeypatch.setenv("AGENTBROWSER_ENCRYPTION_KEY", KEY)
    POSTS.clear()
    return d


def test_auth_vault_sync(site: str, vault: Path) -> None:
    with Browser.launch(LaunchOptions(timeout_ms=20000)) as b:
        entry = b.auth.save("shop", url=f"{site}/login", username="bob", password=PASSWORD)
        assert isinstance(entry, AuthEntry) and entry.path == vault / "shop.vault"
        assert PASSWORD not in repr(entry) and PASSWORD.encode() not in entry.path.read_bytes()
        done = b.auth.login("shop")
        assert isinstance(done, AuthLogin) and done.submit == "click" and done.navigated
        assert done.url == f"{site}/home" and done.title == "Home"
        assert PASSWORD not in str(done.raw)
        assert b.page.evaluate("document.getElementById('who').textContent") == "Logged in as bob"
        assert len(POSTS) == 1
        listing = b.auth.list()
        assert isinstance(listing, AuthListing) and [e.name for e in listing.entries] == ["shop"]
        assert b.auth.show("shop").username == "bob"
        assert PASSWORD not in str(listing.raw)
        assert b.auth.delete("shop") == vault / "shop.vault"
        with pytest.raises(AuthVaultError) as e:
            b.auth.login("shop")
        assert e.value.code == "auth_not_found"
        with pytest.raises(ValueError, match="non-empty password"):
            b.auth.save("x", url=f"{site}/login", username="bob", password="")


def test_auth_vault_async(site: str, vault: Path) -> None:
    async def main() -> None:
        async with await AsyncBrowser.launch(LaunchOptions(timeout_ms=20000)) as b:
            await b.auth.save("shop", url=f"{site}/login", username="bob", password=PASSWORD, submit_selector="button")
            done = await b.auth.login("shop")
            assert done.submit_selector == "button" and done.url == f"{site}/home"
            assert await b.page.evaluate("document.getElementById('who').textContent") == "Logged in as bob"
            assert [e.name for e in (await b.auth.list()).entries] == ["shop"]
            assert (await b.auth.show("shop")).submit_selector == "button"
            await b.auth.delete("shop")

    asyncio.run(main())


def test_auth_vault_without_a_key(site: str, vault: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("AGENTBROWSER_ENCRYPTION_KEY")
    with Browser.launch(LaunchOptions(timeout_ms=20000)) as b:
        with pytest.raises(AuthVaultError, match="AGENTBROWSER_ENCRYPTION_KEY") as e:
            b.auth.save("shop", url=f"{site}/login", username="bob", password=PASSWORD)
        assert e.value.code == "auth_key_missing"
        assert not vault.exists() or not any(vault.iterdir())


def test_auth_login_mcp_tool(site: str, vault: Path, agentbrowser_bin: Path) -> None:
    from test_e2e_mcp import call, error, stdio

    with Browser.launch(LaunchOptions(timeout_ms=20000)) as b:
        b.auth.save("shop", url=f"{site}/login", username="bob", password=PASSWORD)

    async def main() -> None:
        async with stdio(agentbrowser_bin, "--caps", "storage") as session:
            done = await call(session, "browser_auth_login", name="shop")
            assert "logged in as bob with shop" in done and f"now {site}/home" in done, done
            who = await call(session, "browser_evaluate", function="() => document.getElementById('who').textContent")
            assert "Logged in as bob" in who, who
            assert PASSWORD not in done
            missing = await error(session, "browser_auth_login", name="nobody")
            assert "no entry" in missing, missing

    asyncio.run(main())
    assert len(POSTS) == 1
