"""End-to-end: attaching to a remote grid. The grid is the open-source Browserless server (npm
``@browserless.io/browserless``, pinned in package.json) started by the test on 127.0.0.1 with
Debian's Chromium, offline; it gives every WebSocket connection a fresh browser and wants a
token (``?token=`` or an ``Authorization: Bearer`` header). In front of it runs a
TLS-terminating proxy (``grid/tls_proxy.py``) with a certificate the test's own CA signed, which
records the requests and counts the WebSocket upgrades.

Checked: wss:// and https:// with ``--ca-cert`` end to end (open, snapshot, click with
evidence, tabs), the TLS error without the CA, a bad token, ``--cdp-headers`` reaching the grid,
one connection per session across many commands, no reconnect after a lost connection, the
token never shown (errors, status, process command lines), and bad input named clearly."""

from __future__ import annotations

import asyncio
import json
import os
import secrets
import signal
import socket
import subprocess
import threading
import urllib.request
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from conftest import REPO, children, eventually
from grid.tls_proxy import TlsProxy
from test_e2e_tls_profile import _make_pki

from agentbrowser import AsyncBrowser, Browser, BrowserError, CDPTarget, LaunchOptions

BROWSERLESS = REPO / "node_modules" / "@browserless.io" / "browserless"
SCRIPT = REPO / "python" / "tests" / "grid" / "browserless.mjs"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class Grid:
    """Browserless on 127.0.0.1 (plain) and the TLS proxy in front of it."""

    def __init__(self, tmp: Path) -> None:
        if not BROWSERLESS.is_dir():
            pytest.fail(f"{BROWSERLESS} is missing: run scripts/setup.sh (npm ci installs the pinned Browserless)")
        self.token = "tok-" + secrets.token_hex(12)
        self.ca, cert, key = _make_pki(tmp)
        self.port = _free_port()
        env = {
            **os.environ,
            "PORT": str(self.port),
            "TOKEN": self.token,
            "GRID_DIR": str(tmp / "grid"),
            "CONCURRENT": "8",
            "DEBUG": "-*",
        }
        self.proc = subprocess.Popen(
            ["node", str(SCRIPT)],
            cwd=REPO,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            start_new_session=True,
        )
        self.log: list[str] = []
        ready = threading.Event()

        def read() -> None:
            assert self.proc.stdout is not None
            for line in self.proc.stdout:
                self.log = (self.log + [line])[-200:]
                if line.startswith("READY"):
                    ready.set()

        threading.Thread(target=read, daemon=True).start()
        if not ready.wait(120):
            self.stop()
            pytest.fail("Browserless did not start within 120 s:\n" + "".join(self.log[-40:]))
        self.proxy = TlsProxy(cert, key, self.port)

    def wss(self, token: str | None = None) -> str:
        """The grid's wss:// endpoint through the proxy, with a token in the query string."""
        return f"wss://127.0.0.1:{self.proxy.port}/?token={token or self.token}"

    def browsers(self) -> int:
        """How many Chromium browsers the grid runs now (its process's Chromium children)."""
        return sum(1 for pid, _ in _descendants(self.proc.pid) if _is_browser(pid))

    def stop(self) -> None:
        """Stops the proxy and the grid (its process group)."""
        if hasattr(self, "proxy"):
            self.proxy.close()
        try:
            os.killpg(self.proc.pid, signal.SIGTERM)
            self.proc.wait(20)
        except subprocess.TimeoutExpired:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(10)
        except ProcessLookupError:
            pass


def _descendants(pid: int) -> list[tuple[int, str]]:
    out = []
    todo = [pid]
    while todo:
        for child in children(todo.pop()):
            out.append(child)
            todo.append(child[0])
    return out


def _cmdline(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            return f.read().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return ""


def _is_browser(pid: int) -> bool:
    """A Chromium browser process (not a renderer or another helper)."""
    cmd = _cmdline(pid)
    return "chromium" in cmd and "--type=" not in cmd and "--remote-debugging" in cmd


@pytest.fixture(scope="module")
def grid(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Grid]:
    g = Grid(tmp_path_factory.mktemp("grid"))
    yield g
    g.stop()


def run(binary: Path, session: str, *args: str, env: dict[str, str] | None = None) -> dict[str, Any]:
    """One CLI command with --json: its envelope."""
    done = subprocess.run(
        [str(binary), "--session", session, "--json", *args],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, **(env or {})},
    )
    for text in (done.stdout, done.stderr):
        try:
            value: dict[str, Any] = json.loads(text)
            return value
        except ValueError:
            continue
    raise AssertionError(f"no JSON envelope (rc {done.returncode}): {done.stdout!r} {done.stderr!r}")


def close(binary: Path, session: str) -> None:
    subprocess.run([str(binary), "--session", session, "close"], capture_output=True, timeout=60)


def secret_shown_anywhere(secret: str) -> list[int]:
    """The processes whose command line holds ``secret`` (this test's own excepted)."""
    me = os.getpid()
    return [int(p) for p in os.listdir("/proc") if p.isdigit() and int(p) != me and secret in _cmdline(int(p))]


def test_wss_with_the_ca_end_to_end_on_one_connection(agentbrowser_bin: Path, server: str, grid: Grid) -> None:
    session = "grid-wss"
    attach = ["--cdp", grid.wss(), "--ca-cert", str(grid.ca)]
    before = grid.proxy.upgrades
    browsers_before = grid.browsers()
    try:
        opened = run(agentbrowser_bin, session, *attach, "open", f"{server}/")
        assert opened["success"], opened
        assert opened["data"]["title"] == "Home"
        status = run(agentbrowser_bin, session, "status")
        running = status["data"]["browser"]
        assert running["attached"] is True and running["pid"] is None, status
        assert "token=***" in running["wsUrl"], running
        assert grid.token not in json.dumps(status)
        daemon = status["data"]["pid"]
        # Nothing launched here: the daemon has no Chromium child; the grid runs one more browser.
        assert not [c for c in _descendants(daemon) if "chrom" in c[1]], _descendants(daemon)
        assert grid.browsers() == browsers_before + 1
        assert secret_shown_anywhere(grid.token) == []
        # Snapshot and click with evidence through the SDK on the same session (same daemon).
        with Browser.connect(session) as b:
            snap = b.page.observe()
            result = snap.one(role="button", name="Press me").click()
            assert result.action == "click" and result.diff is not None
            assert b.page.evaluate("document.getElementById('out').textContent") == "clicked"
            assert result.before is not None and result.after is not None
            tab = b.tabs.new(f"{server}/a")
            assert {t.id for t in b.tabs.list()} >= {tab.id}
            assert b.page.title() == "Page A"
            with pytest.raises(BrowserError) as private:
                b.cdp_url()
            assert private.value.code == "cdp_url_private"
            assert grid.token not in str(private.value)
        for args in (["snapshot"], ["tab", "list"], ["title"], ["url"], ["status"]):
            out = run(agentbrowser_bin, session, *args)
            assert out["success"], (args, out)
            assert grid.token not in json.dumps(out)
        cdp = run(agentbrowser_bin, session, "get", "cdp-url")
        assert cdp["code"] == "cdp_url_private" and grid.token not in cdp["error"], cdp
        # One WebSocket connection for everything above, still open.
        assert grid.proxy.upgrades - before == 1
        assert grid.proxy.open_upgrades == 1
        upgrade = grid.proxy.upgrade_requests()[-1]
        assert upgrade.target == f"/?token={grid.token}"
    finally:
        close(agentbrowser_bin, session)
    # Closing disconnects; the grid then ends that connection's browser (documented).
    assert eventually(lambda: grid.proxy.open_upgrades == 0, 15)
    assert eventually(lambda: grid.browsers() == browsers_before, 30), grid.browsers()


def test_https_discovery_keeps_the_token_for_the_websocket(agentbrowser_bin: Path, server: str, grid: Grid) -> None:
    session = "grid-https"
    endpoint = f"https://127.0.0.1:{grid.proxy.port}/?token={grid.token}"
    try:
        opened = run(agentbrowser_bin, session, "--cdp", endpoint, "--ca-cert", str(grid.ca), "open", f"{server}/b")
        assert opened["success"], opened
        assert opened["data"]["title"] == "Page B"
        discovery = [s for s in grid.proxy.seen if s.target.startswith("/json/version")]
        assert discovery and discovery[-1].target == f"/json/version?token={grid.token}"
        # Browserless answers its own ws:// address without the token: the token is carried over.
        ws = run(agentbrowser_bin, session, "status")["data"]["browser"]["wsUrl"]
        assert ws == f"ws://127.0.0.1:{grid.port}/?token=***", ws
    finally:
        close(agentbrowser_bin, session)


def test_without_the_ca_the_tls_error_is_clear(agentbrowser_bin: Path, grid: Grid) -> None:
    for endpoint in (grid.wss(), f"https://127.0.0.1:{grid.proxy.port}/?token={grid.token}"):
        session = "grid-noca"
        try:
            out = run(agentbrowser_bin, session, "--cdp", endpoint, "open", "about:blank")
            assert out["code"] == "cdp_connect_failed", out
            assert "TLS" in out["error"] and "--ca-cert" in out["error"], out
            assert "UnknownIssuer" in out["error"] or "issuer" in out["error"].lower(), out
            assert grid.token not in json.dumps(out)
            daemon = run(agentbrowser_bin, session, "status")["data"]["pid"]
            assert not [c for c in _descendants(daemon) if "chrom" in c[1]]
        finally:
            close(agentbrowser_bin, session)


def test_a_bad_token_is_refused_clearly_and_nothing_launches(agentbrowser_bin: Path, grid: Grid) -> None:
    bad = "bad-" + secrets.token_hex(8)
    browsers = grid.browsers()
    for endpoint in (grid.wss(bad), f"http://127.0.0.1:{grid.port}/?token={bad}"):
        session = "grid-badtoken"
        try:
            out = run(agentbrowser_bin, session, "--cdp", endpoint, "--ca-cert", str(grid.ca), "open", "about:blank")
            assert out["code"] == "cdp_unauthorized", out
            assert "401" in out["error"] or "403" in out["error"], out
            assert bad not in json.dumps(out) and "token=***" in out["error"], out
            daemon = run(agentbrowser_bin, session, "status")["data"]["pid"]
            assert not [c for c in _descendants(daemon) if "chrom" in c[1]]
        finally:
            close(agentbrowser_bin, session)
    assert grid.browsers() == browsers


def test_headers_reach_the_grid_and_are_never_shown(agentbrowser_bin: Path, server: str, grid: Grid) -> None:
    headers = json.dumps({"Authorization": f"Bearer {grid.token}", "X-Agent": "agentbrowser-test"})
    no_token = f"wss://127.0.0.1:{grid.proxy.port}/"
    session = "grid-headers"
    before = len(grid.proxy.seen)
    try:
        # From the environment: no process listing shows it.
        out = run(
            agentbrowser_bin,
            session,
            "--cdp",
            no_token,
            "--ca-cert",
            str(grid.ca),
            "open",
            f"{server}/a",
            env={"AGENTBROWSER_CDP_HEADERS": headers},
        )
        assert out["success"], out
        upgrade = [s for s in grid.proxy.seen[before:] if s.upgrade]
        assert len(upgrade) == 1
        assert upgrade[0].headers["authorization"] == f"Bearer {grid.token}"
        assert upgrade[0].headers["x-agent"] == "agentbrowser-test"
        assert secret_shown_anywhere(grid.token) == []
        status = run(agentbrowser_bin, session, "status")
        assert grid.token not in json.dumps(status)
    finally:
        close(agentbrowser_bin, session)
    # Over https:// discovery (Browserless checks the header there too), the flag this time.
    session = "grid-headers-flag"
    try:
        out = run(
            agentbrowser_bin,
            session,
            "--cdp",
            f"https://127.0.0.1:{grid.proxy.port}",
            "--cdp-headers",
            headers,
            "--ca-cert",
            str(grid.ca),
            "open",
            f"{server}/b",
        )
        assert out["success"], out
        discovery = [s for s in grid.proxy.seen if s.target == "/json/version"]
        assert discovery[-1].headers["authorization"] == f"Bearer {grid.token}"
        # The daemon got the headers in its environment, not on its command line.
        daemon = run(agentbrowser_bin, session, "status")["data"]["pid"]
        assert grid.token not in _cmdline(daemon)
    finally:
        close(agentbrowser_bin, session)
    # A wrong header is a clear refusal naming the header, never its value.
    wrong = json.dumps({"Authorization": "Bearer wrong-value-123"})
    try:
        out = run(agentbrowser_bin, "grid-headers-bad", "--cdp", no_token, "--ca-cert", str(grid.ca),
                  "--cdp-headers", wrong, "open", "about:blank")
        assert out["code"] == "cdp_unauthorized", out
        assert "Authorization" in out["error"] and "wrong-value-123" not in out["error"], out
    finally:
        close(agentbrowser_bin, "grid-headers-bad")


def test_a_lost_connection_is_not_reconnected(agentbrowser_bin: Path, server: str, grid: Grid) -> None:
    session = "grid-lost"
    before = grid.proxy.upgrades
    try:
        assert run(agentbrowser_bin, session, "--cdp", grid.wss(), "--ca-cert", str(grid.ca), "open", f"{server}/")["success"]
        grid.proxy.cut()
        assert eventually(lambda: grid.proxy.open_upgrades == 0, 10)
        for _ in range(2):
            out = run(agentbrowser_bin, session, "snapshot")
            assert out["code"] == "browser_closed", out
        assert "does not reconnect" in out["error"] and grid.token not in out["error"], out
        # No second connection was tried: a grid would have given it another browser.
        assert grid.proxy.upgrades - before == 1
    finally:
        close(agentbrowser_bin, session)


class _Discovery(BaseHTTPRequestHandler):
    """Answers /json/version wrongly, by the path prefix: /notjson, /denied, /nourl, /redirect."""

    def do_GET(self) -> None:  # noqa: N802 (http.server API)
        kind = self.path.split("/")[1]
        status, body = {
            "notjson": (200, b"<html>hello</html>"),
            "denied": (401, b'{"error": "bad token"}'),
            "nourl": (200, b'{"Browser": "Chrome/1"}'),
            "missing": (404, b"not here"),
        }.get(kind, (500, b""))
        self.send_response(status)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002
        pass


@pytest.fixture(scope="module")
def discovery() -> Iterator[str]:
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _Discovery)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()


def test_bad_input_is_named_clearly(agentbrowser_bin: Path, discovery: str) -> None:
    secret = "s3cret-" + secrets.token_hex(6)
    session = "grid-bad-input"
    cases: list[tuple[list[str], str, str]] = [
        (["--cdp", "9222", "--cdp-headers", "{"], "invalid_argument", "`--cdp-headers`: is not valid JSON"),
        (["--cdp", "9222", "--cdp-headers", f'["{secret}"]'], "invalid_argument", "is JSON array, not an object"),
        (["--cdp", "9222", "--cdp-headers", '{"X-Token": 5}'], "invalid_argument", "header `X-Token` has a JSON number"),
        (["--cdp", "9222", "--cdp-headers", json.dumps({"X": f"a\n{secret}"})], "invalid_argument", "line break"),
        (["--cdp", "9222", "--cdp-headers", json.dumps({"Host": secret})], "invalid_argument", "WebSocket handshake"),
        (["--cdp", f"ftp://h/?token={secret}"], "invalid_argument", "unsupported scheme"),
        ([ "--cdp", f"{discovery}/notjson/?token={secret}"], "cdp_connect_failed", "did not return JSON"),
        (["--cdp", f"{discovery}/denied/?token={secret}"], "cdp_unauthorized", "answered HTTP 401"),
        (["--cdp", f"{discovery}/nourl"], "cdp_connect_failed", "without a `webSocketDebuggerUrl`"),
        (["--cdp", f"{discovery}/missing"], "cdp_connect_failed", "answered HTTP 404"),
        (["--cdp", f"http://127.0.0.1:{_free_port()}"], "cdp_connect_failed", "cannot reach"),
    ]
    try:
        for args, code, words in cases:
            out = run(agentbrowser_bin, session, *args, "open", "about:blank",
                      env={"AGENTBROWSER_CDP_HEADERS": ""} if "--cdp-headers" in args else None)
            assert out["code"] == code and words in out["error"], (args, out)
            assert secret not in json.dumps(out), (args, out)
            close(agentbrowser_bin, session)
    finally:
        close(agentbrowser_bin, session)


def test_python_sdk_attaches_to_the_grid_sync_and_async(agentbrowser_bin: Path, server: str, grid: Grid) -> None:
    target = CDPTarget(url=grid.wss())
    assert grid.token not in str(target)
    with_headers = CDPTarget(url=f"wss://127.0.0.1:{grid.proxy.port}/", headers={"Authorization": f"Bearer {grid.token}"})
    assert grid.token not in repr(with_headers)
    with pytest.raises(ValueError, match="cdp_headers go with cdp_url"):
        LaunchOptions(cdp_headers={"A": "b"})
    with pytest.raises(TypeError, match="header 'A' has a int value"):
        CDPTarget(url="wss://x", headers={"A": 1})  # type: ignore[dict-item]
    before = grid.proxy.upgrades
    with Browser.attach(with_headers, launch=LaunchOptions(ca_cert=grid.ca)) as b:
        assert b.launch_data["attached"] is True
        b.page.open(f"{server}/")
        snap = b.page.observe()
        snap.one(role="button", name="Press me").click()
        assert b.page.evaluate("document.getElementById('out').textContent") == "clicked"
        with pytest.raises(BrowserError) as private:
            _ = b.cdp.send("Browser.getVersion")
        assert private.value.code == "cdp_url_private"
    assert grid.proxy.upgrades - before == 1

    async def twin() -> None:
        async with await AsyncBrowser.attach(target, launch=LaunchOptions(ca_cert=grid.ca)) as ab:
            await ab.page.open(f"{server}/b")
            assert await ab.page.title() == "Page B"

    asyncio.run(twin())
    assert grid.proxy.upgrades - before == 2
