"""End-to-end: how a Browser comes to be, sync and async, on real Chromium.

A lazy ``Browser()`` starts nothing until a call needs the engine (no daemon, no Chromium);
``launch(LaunchOptions, session=SessionOptions)`` starts at once with both; ``attach(CDPTarget)``
drives a Chromium this test starts itself with ``--remote-debugging-port`` and leaves it
running on close; the context manager closes on an exception; ``close()`` is idempotent and
any later call raises RuntimeError; bad options raise TypeError/ValueError naming the field
before anything starts.
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import subprocess
import tempfile
import threading
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import PAGES, alive, children
from agentbrowser import (
    AsyncBrowser,
    Browser,
    BrowserError,
    CDPTarget,
    DialogOpenError,
    LaunchOptions,
    SessionOptions,
)

#: What the page's download link saves (a Blob the page makes: no server route needed).
BODY = "construction download body\n" * 40

PAGE = f"""<!doctype html><title>Construct</title><h1>Construct</h1>
<a id="notes" download="notes.txt">Get notes</a>
<script>document.getElementById('notes').href = URL.createObjectURL(new Blob([{json.dumps(BODY)}]));</script>
<button onclick="document.getElementById('out').textContent = String(confirm('Sure?'))">Ask</button>
<p id="out"></p>"""

PAGES["/construct"] = PAGE


@pytest.fixture(scope="module")
def site(server: str) -> str:
    """The URL of this file's page on the shared test server."""
    return f"{server}/construct"


def spawned() -> set[tuple[int, str]]:
    """This process's live child processes (pid, name)."""
    return set(children(os.getpid()))


class Chromium:
    """A headless Chromium this test starts with a DevTools port (the engine did not start it)."""

    def __init__(self) -> None:
        self.profile = tempfile.mkdtemp(prefix="ab-attach-")
        exe = shutil.which("chromium") or "/usr/bin/chromium"
        self.proc = subprocess.Popen(
            [exe, "--headless=new", "--no-sandbox", "--disable-gpu", "--remote-debugging-port=0",
             f"--user-data-dir={self.profile}", "about:blank"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        assert self.proc.stderr is not None
        self.ws_url = ""
        end = time.monotonic() + 30
        while time.monotonic() < end:
            line = self.proc.stderr.readline()
            if not line and self.proc.poll() is not None:
                break
            if line.startswith("DevTools listening on "):
                self.ws_url = line.split(" on ", 1)[1].strip()
                break
        assert self.ws_url.startswith("ws://127.0.0.1:"), f"Chromium gave no DevTools URL (exit {self.proc.poll()})"
        self.port = int(self.ws_url.split(":")[2].split("/")[0])
        threading.Thread(target=self._drain, daemon=True).start()

    def _drain(self) -> None:
        assert self.proc.stderr is not None
        for _ in self.proc.stderr:
            pass

    def page_urls(self) -> list[str]:
        """The URLs of the browser's page targets, from its own DevTools HTTP endpoint."""
        with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/json/list", timeout=10) as r:
            return [t["url"] for t in json.load(r) if t.get("type") == "page"]

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        shutil.rmtree(self.profile, ignore_errors=True)


@pytest.fixture()
def chromium() -> Iterator[Chromium]:
    c = Chromium()
    yield c
    c.stop()


# -- lazy -----------------------------------------------------------------------------------


def test_lazy_browser_starts_nothing_until_needed(agentbrowser_bin: Path, site: str) -> None:
    before = spawned()
    browser = Browser()
    assert not browser.started and "lazy" in repr(browser)
    assert spawned() == before, "constructing Browser() spawned a process"
    # The first call starts the daemon; Chromium still waits for a command that needs it.
    read = browser.page.read(site)
    assert "Construct" in read.content
    status = browser.status()
    assert browser.started and browser.pid is not None and alive(browser.pid)
    assert not status.browser_launched and status.browser_pid is None
    # A command that needs a browser launches it with defaults.
    nav = browser.page.open(site)
    assert nav.title == "Construct" and browser.page.title() == "Construct"
    status = browser.status()
    assert status.browser_launched and status.browser_pid is not None and alive(status.browser_pid)
    assert status.page_count == status.pages == 1 and status.background_pid == browser.pid
    daemon, chrome = browser.pid, status.browser_pid
    first = browser.close()
    assert first.closed and browser.close() is first
    assert not alive(daemon) and not alive(chrome)
    with pytest.raises(RuntimeError, match="closed"):
        browser.page.title()


def test_lazy_browser_closed_before_use_never_starts(agentbrowser_bin: Path) -> None:
    before = spawned()
    browser = Browser(SessionOptions(session_id="lazy-never"))
    result = browser.close()
    assert result.closed and browser.close() is result and browser.closed
    with pytest.raises(RuntimeError, match="closed"):
        browser.status()
    assert spawned() == before


def test_lazy_browser_applies_session_options(agentbrowser_bin: Path, site: str, tmp_path: Path) -> None:
    downloads = tmp_path / "dl"
    opts = SessionOptions(session_id="lazy-opts", timeout=5, auto_dialogs=True, download_path=downloads)
    with Browser(opts) as browser:
        browser.page.open(site)
        assert browser.session == "lazy-opts" and browser.status().session_id == "lazy-opts"
        # auto_dialogs: the confirm is dismissed at once instead of waiting for the agent.
        browser.page.observe().one(role="button", name="Ask").click()
        assert browser.page.evaluate("document.getElementById('out').textContent") == "false"
        # download_path: a download lands there under its suggested name.
        browser.page.observe().one(role="link", name="Get notes").click()
        got = browser.page.wait_for_download()
        assert got.path == downloads / "notes.txt" and got.path.read_text() == BODY
        # timeout: the per-command deadline is 5 s (not the default 30 s).
        started = time.monotonic()
        with pytest.raises(BrowserError) as err:
            browser.page.evaluate("new Promise(() => {})")
        assert err.value.code == "timeout" and "5000 ms" in str(err.value)
        assert 4.5 < time.monotonic() - started < 20


def test_default_dialogs_wait_for_the_agent(agentbrowser_bin: Path, site: str) -> None:
    with Browser() as browser:
        browser.page.open(site)
        result = browser.page.observe().one(role="button", name="Ask").click()
        assert result.open_dialog is not None and result.open_dialog.message == "Sure?"
        with pytest.raises(DialogOpenError):
            browser.page.title()
        browser.dialogs.accept()
        assert browser.page.evaluate("document.getElementById('out').textContent") == "true"


# -- launch and the context manager -------------------------------------------------------------


def test_launch_with_options_and_session(agentbrowser_bin: Path, site: str) -> None:
    options = LaunchOptions(window_size=(800, 600))
    with Browser.launch(options, session=SessionOptions(session_id="launched-one", timeout=20)) as browser:
        assert browser.launch_result is not None and not browser.launch_result.attached
        assert browser.status().session == "launched-one"
        browser.page.open(site)
        assert browser.page.evaluate("[window.outerWidth, window.outerHeight]") == [800, 600]
    # keyword fields keep working, `session` as a str name among them
    with Browser.launch(headless=True, session="kw-named") as browser:
        assert browser.launch_result is not None and browser.launch_result.launched
        assert browser.session == "kw-named" and browser.status().session == "kw-named"


def test_context_manager_closes_on_an_exception(agentbrowser_bin: Path, site: str) -> None:
    with pytest.raises(ZeroDivisionError):
        with Browser() as browser:
            browser.page.open(site)
            daemon = browser.pid
            chrome = browser.status().browser_pid
            1 / 0  # noqa: B018
    assert browser.closed and daemon is not None and chrome is not None
    assert not alive(daemon) and not alive(chrome)
    # With the daemon gone (killed inside the block), closing still completes and the body's
    # exception is the one raised.
    with pytest.raises(KeyError):
        with Browser() as other:
            other.status()
            assert other._process is not None
            other._process.proc.kill()
            other._process.proc.wait()
            raise KeyError("the body's error")
    assert other.closed


def test_bad_options_raise_before_anything_starts(agentbrowser_bin: Path) -> None:
    before = spawned()
    with pytest.raises(ValueError, match="LaunchOptions.window_size width"):
        Browser.launch(window_size=(0, 10))
    with pytest.raises(TypeError, match="LaunchOptions.args"):
        Browser.launch(args="--lang=de")
    with pytest.raises(ValueError, match="SessionOptions.timeout"):
        Browser(SessionOptions(timeout=-1))
    with pytest.raises(TypeError, match="SessionOptions.auto_dialogs"):
        SessionOptions(auto_dialogs="yes")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="SessionOptions.session_id"):
        Browser.launch(session=SessionOptions(session_id="no spaces"))
    with pytest.raises(ValueError, match="differ"):
        Browser.launch(LaunchOptions(session="a"), session=SessionOptions(session_id="b"))
    with pytest.raises(ValueError, match="CDPTarget.port"):
        Browser.attach(CDPTarget(port=70000))
    with pytest.raises(TypeError, match="CDPTarget"):
        Browser.attach(9222)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="LaunchOptions.headless"):
        Browser.attach(CDPTarget(port=9222), launch=LaunchOptions(headless=False))
    assert spawned() == before


# -- attach ---------------------------------------------------------------------------------------


def test_attach_by_port_drives_that_chromium_and_leaves_it_running(
    agentbrowser_bin: Path, site: str, chromium: Chromium
) -> None:
    browser = Browser.attach(CDPTarget(port=chromium.port), session=SessionOptions(timeout=20))
    assert browser.launch_result is not None and browser.launch_result.attached
    assert browser.launch_result.pid is None and browser.launch_result.ws_url == chromium.ws_url
    browser.page.open(f"{site}?attached=port")
    assert browser.page.title() == "Construct"
    assert f"{site}?attached=port" in chromium.page_urls()
    assert browser.close().closed
    # The engine only disconnected: the Chromium it did not start still runs, page and all.
    assert chromium.proc.poll() is None and f"{site}?attached=port" in chromium.page_urls()


def test_attach_by_url(agentbrowser_bin: Path, site: str, chromium: Chromium) -> None:
    for target in (CDPTarget(url=chromium.ws_url), CDPTarget(url=f"http://127.0.0.1:{chromium.port}")):
        with Browser.attach(target) as browser:
            assert browser.launch_result is not None and browser.launch_result.attached
            browser.page.open(f"{site}?via=url")
            assert browser.page.title() == "Construct"
        assert chromium.proc.poll() is None


def test_attach_to_nothing_is_a_clear_error(agentbrowser_bin: Path) -> None:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with pytest.raises(BrowserError) as err:
        Browser.attach(CDPTarget(port=port))
    assert err.value.code == "cdp_connect_failed" and str(port) in str(err.value)


# -- async ----------------------------------------------------------------------------------------


def test_async_lazy_launch_attach(agentbrowser_bin: Path, site: str, chromium: Chromium) -> None:
    async def main() -> None:
        before = spawned()
        browser = AsyncBrowser(SessionOptions(timeout=20))
        assert not browser.started and spawned() == before
        status = await browser.status()
        assert browser.started and not status.browser_launched
        nav = await browser.page.open(site)
        assert nav.title == "Construct" and (await browser.status()).browser_launched
        first, second = await asyncio.gather(browser.close(), browser.close())
        assert first.closed and second is first and await browser.close() is first
        with pytest.raises(RuntimeError, match="closed"):
            await browser.page.title()

        never = AsyncBrowser()
        assert (await never.close()).closed and spawned() == before

        launched = await AsyncBrowser.launch(LaunchOptions(), session=SessionOptions(session_id="async-one"))
        async with launched:
            assert (await launched.status()).session == "async-one"

        with pytest.raises(ZeroDivisionError):
            async with await AsyncBrowser.attach(CDPTarget(port=chromium.port)) as attached:
                assert attached.launch_result is not None and attached.launch_result.attached
                await attached.page.open(f"{site}?attached=async")
                assert await attached.page.title() == "Construct"
                1 / 0  # noqa: B018
        assert attached.closed and chromium.proc.poll() is None
        assert f"{site}?attached=async" in chromium.page_urls()

        with pytest.raises(ValueError, match="LaunchOptions.args"):
            await AsyncBrowser.attach(CDPTarget(port=chromium.port), launch=LaunchOptions(args=["--x"]))

    asyncio.run(main())
