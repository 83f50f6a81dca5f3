"""End-to-end: TLS at launch (``ca_cert``, ``ignore_https_errors``), network throttling,
persistent profiles and ``session_id()`` on real Chromium, with an HTTPS server on 127.0.0.1
whose certificate the test signs with its own CA, and git repositories the test creates."""

from __future__ import annotations

import asyncio
import datetime
import ipaddress
import ssl
import subprocess
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

import agentbrowser
from agentbrowser import AsyncBrowser, Browser, BrowserError, LaunchOptions, SessionId

PAGE = b"<!doctype html><title>Secure page</title><p id='p'>over tls</p>"


def _name(cn: str) -> x509.Name:
    return x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, cn)])


def _make_pki(directory: Path) -> tuple[Path, Path, Path]:
    """A test CA (ca.pem) and a server certificate for 127.0.0.1 it signed (server.pem, server.key)."""
    now = datetime.datetime.now(datetime.timezone.utc)
    ca_key = ec.generate_private_key(ec.SECP256R1())
    ca = (
        x509.CertificateBuilder()
        .subject_name(_name("agentbrowser test CA"))
        .issuer_name(_name("agentbrowser test CA"))
        .public_key(ca_key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(hours=1))
        .not_valid_after(now + datetime.timedelta(days=2))
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .add_extension(
            x509.KeyUsage(False, False, False, False, False, True, True, False, False), critical=True
        )
        .sign(ca_key, hashes.SHA256())
    )
    key = ec.generate_private_key(ec.SECP256R1())
    leaf = (
        x509.CertificateBuilder()
        .subject_name(_name("127.0.0.1"))
        .issuer_name(ca.subject)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(hours=1))
        .not_valid_after(now + datetime.timedelta(days=2))
        .add_extension(
            x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address("127.0.0.1")), x509.DNSName("localhost")]),
            critical=False,
        )
        .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
        .sign(ca_key, hashes.SHA256())
    )
    ca_pem, cert_pem, key_pem = directory / "ca.pem", directory / "server.pem", directory / "server.key"
    ca_pem.write_bytes(ca.public_bytes(serialization.Encoding.PEM))
    cert_pem.write_bytes(leaf.public_bytes(serialization.Encoding.PEM))
    key_pem.write_bytes(
        key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    )
    return ca_pem, cert_pem, key_pem


class _Https:
    """An HTTPS server on 127.0.0.1 with a certificate signed by the test CA."""

    def __init__(self, directory: Path) -> None:
        self.ca, cert, key = _make_pki(directory)

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802 (http.server API)
                self.send_response(200)
                self.send_header("Content-Type", "text/html")
                self.send_header("Content-Length", str(len(PAGE)))
                self.end_headers()
                self.wfile.write(PAGE)

            def log_message(self, format: str, *args: object) -> None:  # noqa: A002
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        ctx.load_cert_chain(cert, key)
        self.httpd.socket = ctx.wrap_socket(self.httpd.socket, server_side=True)
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()
        self.url = f"https://127.0.0.1:{self.httpd.server_address[1]}/"


@pytest.fixture(scope="module")
def https(tmp_path_factory: pytest.TempPathFactory) -> Iterator[_Https]:
    s = _Https(tmp_path_factory.mktemp("pki"))
    yield s
    s.httpd.shutdown()
    s.httpd.server_close()


def test_a_private_ca_is_trusted_for_the_session_only(agentbrowser_bin: Path, https: _Https) -> None:
    with Browser.launch(LaunchOptions(ca_cert=https.ca, timeout_ms=20000)) as b:
        nav = b.page.open(https.url)
        assert nav.title == "Secure page"
        assert b.page.evaluate("document.getElementById('p').textContent") == "over tls"
        raw = b.status().raw["browser"]
        assert raw["caCert"] == str(https.ca) and raw["ignoreHttpsErrors"] is False
    # Without the CA the same server is refused with the certificate error.
    with Browser.launch(LaunchOptions(timeout_ms=20000)) as b:
        with pytest.raises(BrowserError) as err:
            b.page.open(https.url)
        assert err.value.code == "navigation_failed"
        assert "ERR_CERT_AUTHORITY_INVALID" in str(err.value)


def test_ignore_https_errors_accepts_the_unknown_ca(agentbrowser_bin: Path, https: _Https) -> None:
    with Browser.launch(LaunchOptions(ignore_https_errors=True, timeout_ms=20000)) as b:
        assert b.page.open(https.url).title == "Secure page"
        assert b.status().raw["browser"]["ignoreHttpsErrors"] is True


def test_a_bad_ca_file_is_a_launch_error_naming_it(agentbrowser_bin: Path, tmp_path: Path) -> None:
    garbage = tmp_path / "not-a-cert.pem"
    garbage.write_text("-----BEGIN CERTIFICATE-----\nbm90IGEgY2VydA==\n-----END CERTIFICATE-----\n")
    for path in (garbage, tmp_path / "missing.pem"):
        with pytest.raises(BrowserError) as err:
            with Browser.launch(LaunchOptions(ca_cert=path, timeout_ms=20000)):
                pass
        assert err.value.code == "invalid_argument" and str(path) in str(err.value)


def test_async_launch_with_a_ca(agentbrowser_bin: Path, https: _Https) -> None:
    async def run() -> str:
        async with await AsyncBrowser.launch(LaunchOptions(ca_cert=https.ca, timeout_ms=20000)) as b:
            nav = await b.page.open(https.url)
            return nav.title

    assert asyncio.run(run()) == "Secure page"


class _Slow:
    """A server whose /data answers a known number of bytes."""

    SIZE = 64 * 1024

    def __init__(self) -> None:
        size = self.SIZE

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802 (http.server API)
                body = b"<!doctype html><title>T</title>" if self.path == "/" else b"x" * size
                self.send_response(200)
                self.send_header("Content-Type", "text/html" if self.path == "/" else "application/octet-stream")
                self.send_header("Content-Length", str(len(body)))
                self.send_header("Cache-Control", "no-store")
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, format: str, *args: object) -> None:  # noqa: A002
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"


FETCH = "(async () => { const t = performance.now(); const r = await fetch('/data?' + Math.random()); const n = (await r.arrayBuffer()).byteLength; return [performance.now() - t, n]; })()"


def test_throttle_delays_and_bounds_the_rate_and_off_restores(agentbrowser_bin: Path) -> None:
    site = _Slow()
    try:
        with Browser.launch(LaunchOptions(timeout_ms=30000)) as b:
            b.page.open(site.url + "/")
            s = b.emulation.throttle(latency_ms=400)
            assert s.throttle is not None and s.throttle.latency_ms == 400 and s.throttle.download_kbps is None
            took, n = b.page.evaluate(FETCH)
            assert n == site.SIZE and took >= 400
            # 64 KiB at 1024 kbit/s (128 000 bytes/s) takes at least 0.5 s.
            s = b.emulation.throttle(download_kbps=1024)
            took, n = b.page.evaluate(FETCH)
            assert n == site.SIZE and took >= site.SIZE / 128_000 * 1000 * 0.9
            # Offline and throttling are one state: offline keeps the throttle, and back.
            s = b.emulation.offline(True)
            assert s.offline and s.throttle is not None and s.throttle.download_kbps == 1024
            with pytest.raises(BrowserError):
                b.page.evaluate("fetch('/data').then(r => r.status)")
            s = b.emulation.offline(False)
            assert s.throttle is not None
            b.tabs.new(site.url + "/")
            took, n = b.page.evaluate(FETCH)
            assert n == site.SIZE and took >= site.SIZE / 128_000 * 1000 * 0.9
            s = b.emulation.throttle("slow-3g")
            assert s.throttle is not None and (s.throttle.preset, s.throttle.latency_ms) == ("slow-3g", 2000)
            s = b.emulation.throttle(off=True)
            assert s.throttle is None and b.emulation.settings().throttle is None
            with pytest.raises(BrowserError) as err:
                b.emulation.throttle()
            assert err.value.code == "invalid_argument"
            with pytest.raises(ValueError):
                b.emulation.throttle("2g")
    finally:
        site.httpd.shutdown()
        site.httpd.server_close()


def test_a_persistent_profile_keeps_state_and_is_locked(agentbrowser_bin: Path, tmp_path: Path) -> None:
    site = _Slow()
    profile = tmp_path / "profile"
    try:
        with Browser.launch(LaunchOptions(profile=profile, timeout_ms=20000)) as b:
            b.page.open(site.url + "/")
            b.page.evaluate("localStorage.setItem('k', 'kept'); document.cookie = 'c=1; max-age=3600'; 1")
            raw = b.status().raw["browser"]
            assert raw["profile"] == str(profile) and raw["persistentProfile"] is True
            with pytest.raises(BrowserError) as err:
                with Browser.launch(LaunchOptions(profile=profile, timeout_ms=20000)):
                    pass
            assert err.value.code == "profile_in_use" and str(profile) in str(err.value)
        assert profile.is_dir()
        with Browser.launch(LaunchOptions(profile=profile, timeout_ms=20000)) as b:
            b.page.open(site.url + "/")
            assert b.page.evaluate("[localStorage.getItem('k'), document.cookie]") == ["kept", "c=1"]
    finally:
        site.httpd.shutdown()
        site.httpd.server_close()


def _git(*args: str, cwd: Path) -> None:
    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True)


def test_session_id_for_dirs_repos_and_worktrees(agentbrowser_bin: Path, tmp_path: Path) -> None:
    import hashlib

    repo = tmp_path / "My Repo"
    (repo / "src").mkdir(parents=True)
    _git("init", "-q", cwd=repo)
    _git("-c", "user.email=t@e", "-c", "user.name=t", "commit", "-q", "--allow-empty", "-m", "x", cwd=repo)
    wt = tmp_path / "feature-wt"
    _git("worktree", "add", "-q", str(wt), cwd=repo)
    (wt / "deep").mkdir()

    def expect(path: Path, prefix: str) -> str:
        real = str(path.resolve())
        return f"{prefix}-{hashlib.sha256(real.encode()).hexdigest()[:12]}"

    sid = agentbrowser.session_id(path=repo / "src")
    assert isinstance(sid, SessionId) and sid.scope == "worktree" and sid.path == repo.resolve()
    assert str(sid) == sid.session == expect(repo, "my-repo") and len(sid.hash) == 12
    assert agentbrowser.session_id(path=wt / "deep").session == expect(wt, "feature-wt")
    assert agentbrowser.session_id(scope="git-root", path=wt / "deep").session == expect(repo, "my-repo")
    assert agentbrowser.session_id(scope="cwd", path=wt / "deep").session == expect(wt / "deep", "deep")
    assert agentbrowser.session_id(path=repo, prefix="My App").session == expect(repo, "my-app")
    outside = tmp_path / "plain"
    outside.mkdir()
    assert agentbrowser.session_id(path=outside).session == expect(outside, "plain")
    with pytest.raises(ValueError, match="git"):
        agentbrowser.session_id(scope="git-root", path=outside)
    with pytest.raises(ValueError):
        agentbrowser.session_id(scope="repo")
    # The CLI prints the same name (the one implementation).
    out = subprocess.run(
        [str(agentbrowser_bin), "session", "id", "--path", str(wt / "deep")], capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == expect(wt, "feature-wt")
