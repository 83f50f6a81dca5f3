"""End-to-end: process ownership (kill -9 leaves no Chromium) and joining a CLI session."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from agentbrowser import AsyncBrowser, Browser, CloseResult

REPO = Path(__file__).resolve().parents[2]


def alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie counts as gone)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[-1].split()[0] != "Z"
    except OSError:
        return False


def wait_gone(pid: int, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if not alive(pid):
            return True
        time.sleep(0.05)
    return not alive(pid)


@pytest.mark.parametrize("flavour", ["sync", "async"])
def test_kill_9_of_owner_leaves_no_chromium(agentbrowser_bin: Path, flavour: str) -> None:
    if flavour == "sync":
        body = """
            from agentbrowser import Browser
            b = Browser.launch()
            st = b.status()
            print(b.pid, st.browser_pid, flush=True)
            time.sleep(600)
        """
    else:
        body = """
            import asyncio
            from agentbrowser import AsyncBrowser
            async def main():
                b = await AsyncBrowser.launch()
                st = await b.status()
                print(b.pid, st.browser_pid, flush=True)
                await asyncio.sleep(600)
            asyncio.run(main())
        """
    script = f"import time, sys\nsys.path.insert(0, {str(REPO / 'python')!r})\n" + textwrap.dedent(body)
    child = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    try:
        assert child.stdout is not None
        line = child.stdout.readline()
        daemon_pid, chromium_pid = (int(x) for x in line.split())
        assert alive(daemon_pid) and alive(chromium_pid)
        os.kill(child.pid, signal.SIGKILL)
        child.wait(10)
        assert wait_gone(daemon_pid, 10), "the daemon outlived its owner"
        assert wait_gone(chromium_pid, 10), "Chromium outlived its owner"
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
        if child.stdout is not None:
            child.stdout.close()


def cli(bin_path: Path, *args: str) -> str:
    done = subprocess.run([str(bin_path), *args], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_connect_to_cli_session(agentbrowser_bin: Path, server: str) -> None:
    session = f"pytest-{os.getpid()}"
    browser = Browser.connect(session=session)
    try:
        assert browser.session == session and browser.pid is None
        browser.page.open(f"{server}/form")
        # The CLI sees the page the SDK opened: same session, same browser.
        assert cli(agentbrowser_bin, "--session", session, "title") == "Form"
        cli(agentbrowser_bin, "--session", session, "open", f"{server}/")
        assert browser.page.title() == "Home"
        st = browser.status()
        assert st.session == session and st.socket_path and st.socket_path.endswith(f"{session}.sock")
        # A second client joins the same session.
        other = Browser.connect(session=session)
        assert other.page.url() == f"{server}/"
        assert other.close() == CloseResult(closed=False)  # disconnect only
        assert browser.page.title() == "Home"
    finally:
        result = browser.close(end_session=True)
    assert result.closed
    with pytest.raises(RuntimeError):
        browser.page.title()


def test_async_connect_to_cli_session(agentbrowser_bin: Path, server: str) -> None:
    session = f"pytest-async-{os.getpid()}"

    async def main() -> None:
        browser = await AsyncBrowser.connect(session=session)
        try:
            await browser.page.open(f"{server}/a")
            assert await asyncio.to_thread(cli, agentbrowser_bin, "--session", session, "title") == "Page A"
            disconnected = await browser.close()
            assert not disconnected.closed
            again = await AsyncBrowser.connect(session=session)
            assert await again.page.title() == "Page A"
            assert (await again.close(end_session=True)).closed
        finally:
            if not browser.closed:
                await browser.close(end_session=True)

    asyncio.run(main())


def test_connect_validates_session_name(agentbrowser_bin: Path) -> None:
    with pytest.raises(ValueError, match="session"):
        Browser.connect(session="no spaces allowed")
    with pytest.raises(TypeError):
        Browser.connect(session=3)  # type: ignore[arg-type]


def test_connect_never_signals_an_unrelated_process(agentbrowser_bin: Path, tmp_path: Path) -> None:
    import os
    import subprocess

    from agentbrowser import Browser

    run_dir = tmp_path / "run"
    run_dir.mkdir(mode=0o700)
    sleeper = subprocess.Popen(["sleep", "300"])
    try:
        (run_dir / "z.pid").write_text(f"{sleeper.pid}\n0.0.0-other\n")
        old = os.environ.get("AGENTBROWSER_SOCKET_DIR")
        os.environ["AGENTBROWSER_SOCKET_DIR"] = str(run_dir)
        try:
            with Browser.connect(session="z", timeout_ms=20000) as b:
                assert b.page.title() == ""
                b.close(end_session=True)
        finally:
            if old is None:
                del os.environ["AGENTBROWSER_SOCKET_DIR"]
            else:
                os.environ["AGENTBROWSER_SOCKET_DIR"] = old
        assert sleeper.poll() is None, "the unrelated process was signalled"
    finally:
        sleeper.kill()
        sleeper.wait()


def test_connect_refuses_a_world_writable_socket_dir(tmp_path: Path) -> None:
    import os

    from agentbrowser import Browser, BrowserError

    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o777)
    old = os.environ.get("AGENTBROWSER_SOCKET_DIR")
    os.environ["AGENTBROWSER_SOCKET_DIR"] = str(shared)
    try:
        with pytest.raises(BrowserError, match="writable by others"):
            Browser.connect(session="x", timeout_ms=5000)
    finally:
        if old is None:
            del os.environ["AGENTBROWSER_SOCKET_DIR"]
        else:
            os.environ["AGENTBROWSER_SOCKET_DIR"] = old
    assert shared.stat().st_mode & 0o777 == 0o777
