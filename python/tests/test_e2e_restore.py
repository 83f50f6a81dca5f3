"""End-to-end: restore and autosave from the SDK (sync and async) on real Chromium, with the
state tests' site on 127.0.0.1 (``/login`` sets an HttpOnly cookie; every page shows the Cookie
header the server got, in ``#c``):
``SessionOptions(restore=RestoreOptions(...))``, the CloseResult's restore and save fields,
``SessionStatus``'s restore fields, the checks, and RestoreSaveError after cleanup."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from agentbrowser import (
    AsyncBrowser,
    Browser,
    CloseResult,
    LaunchOptions,
    RestoreOptions,
    RestoreSaveError,
    SessionOptions,
    SessionStatus,
)

from conftest import alive
from test_e2e_state import port  # noqa: F401 (the state tests' cookie site: /login sets sid, every page shows its Cookie header)


@pytest.fixture(scope="module")
def site(port: int) -> str:
    return f"http://127.0.0.1:{port}"


@pytest.fixture()
def state_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    d = tmp_path / "state"
    monkeypatch.setenv("AGENTBROWSER_STATE_DIR", str(d))
    monkeypatch.delenv("AGENTBROWSER_ENCRYPTION_KEY", raising=False)
    monkeypatch.delenv("AGENTBROWSER_RESTORE_SAVE", raising=False)
    return d


def _cookie_header(b: Browser) -> str:
    text = b.page.evaluate("document.getElementById('c').textContent")
    assert isinstance(text, str)
    return text


def test_a_lazy_session_saves_on_close_and_the_next_one_restores_and_checks(site: str, state_dir: Path) -> None:
    b = Browser(SessionOptions(session_id="py-rs-a", restore=RestoreOptions("acct")))
    status = b.status()
    assert isinstance(status, SessionStatus)
    assert (status.restore_key, status.restore_status, status.save_status) == ("acct", "pending", "not_attempted")
    assert status.autosave_interval_ms == 30000 and status.restore_save == "auto"
    b.page.open(f"{site}/login")
    b.page.storage.set("who", "py")
    assert b.status().restore_status == "missing"
    result = b.close()
    assert isinstance(result, CloseResult)
    assert (result.closed, result.restore_status, result.save_status) == (True, "missing", "saved")
    assert result.state_path == str(state_dir / "acct.json") and result.save_error is None
    assert b.close() is result

    opts = SessionOptions(restore=RestoreOptions("acct", check_text="sid=s3cret", autosave_interval_ms=0))
    with Browser.launch(LaunchOptions(timeout_ms=20000), session=opts) as b2:
        status = b2.status()
        assert status.restore_status == "loaded" and status.restore_validation_pending is True
        assert status.restore_check_text == "sid=s3cret" and status.autosave_interval_ms == 0
        b2.page.open(f"{site}/account")
        assert "sid=s3cret" in _cookie_header(b2)
        assert b2.page.storage.get("who") == "py"
        status = b2.status()
        assert status.restore_status == "loaded" and status.restore_validation_pending is False
        assert status.restore_loaded_path == str(state_dir / "acct.json")

    # A check the restored page fails: loaded_but_invalid, in the status and the close result.
    failing = SessionOptions(restore=RestoreOptions("acct", check_fn="() => localStorage.getItem('who') === 'nobody'"))
    with Browser(failing) as b3:
        b3.page.open(f"{site}/account")
        status = b3.status()
        assert status.restore_status == "loaded_but_invalid"
        assert "function check failed" in (status.restore_status_detail or "")
    closed = b3.close()
    assert closed.restore_status == "loaded_but_invalid" and closed.save_status == "saved"


def test_a_failed_save_raises_restore_save_error_after_cleanup(site: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocked = tmp_path / "blocked"
    blocked.write_text("a file where the state directory should be")
    monkeypatch.setenv("AGENTBROWSER_STATE_DIR", str(blocked))
    b = Browser(SessionOptions(restore=RestoreOptions("err", save="always")))
    b.page.open(f"{site}/login")
    pid = b.pid
    assert pid is not None
    with pytest.raises(RestoreSaveError, match="was not saved") as e:
        b.close()
    result = e.value.result
    assert isinstance(result, CloseResult) and result.closed
    assert result.save_status == "error" and "cannot create the state directory" in (result.save_error or "")
    # Cleanup finished first: the daemon is gone and the browser counts as closed.
    assert b.closed and not alive(pid)
    with pytest.raises(RestoreSaveError):
        b.close()
    with pytest.raises(RuntimeError):
        b.status()


def test_never_and_no_browser_save_nothing(site: str, state_dir: Path) -> None:
    with Browser(SessionOptions(restore=RestoreOptions("off", save="never"))) as b:
        assert b.status().save_status == "disabled"
        b.page.open(f"{site}/login")
    assert not (state_dir / "off.json").exists()
    idle = Browser(SessionOptions(restore=RestoreOptions("idle")))
    assert idle.status().restore_status == "pending"
    result = idle.close()
    assert (result.restore_status, result.save_status, result.state_path) == ("pending", "no_browser", None)


def test_async_restore_and_restore_save_error(
    site: str, state_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def run() -> None:
        opts = SessionOptions(restore=RestoreOptions("aio", check_url="**/account"))
        b = AsyncBrowser(opts)
        await b.page.open(f"{site}/login")
        first = await b.close()
        assert (first.restore_status, first.save_status) == ("missing", "saved")
        async with await AsyncBrowser.launch(LaunchOptions(timeout_ms=20000), session=opts) as b2:
            await b2.page.open(f"{site}/account")
            assert "sid=s3cret" in await b2.page.evaluate("document.getElementById('c').textContent")
            status = await b2.status()
            assert status.restore_status == "loaded" and status.restore_check_url == "**/account"
        # The state directory replaced by a file: the final save fails.
        blocked = tmp_path / "blocked-aio"
        blocked.write_text("x")
        monkeypatch.setenv("AGENTBROWSER_STATE_DIR", str(blocked))
        b3 = AsyncBrowser(SessionOptions(restore=RestoreOptions("aio")))
        await b3.page.open(f"{site}/login")
        with pytest.raises(RestoreSaveError) as e:
            await b3.close()
        assert e.value.result.save_status == "error" and b3.closed
        with pytest.raises(RestoreSaveError):
            await b3.close()

    asyncio.run(run())


def test_restore_options_are_checked_when_built() -> None:
    with pytest.raises(ValueError, match="auto, always, never"):
        RestoreOptions("k", save="sometimes")
    with pytest.raises(ValueError, match="letters, digits"):
        RestoreOptions("no/slash")
    with pytest.raises(ValueError, match="autosave_interval_ms"):
        RestoreOptions("k", autosave_interval_ms=-1)
    with pytest.raises(TypeError, match="autosave_interval_ms"):
        RestoreOptions("k", autosave_interval_ms=True)
    with pytest.raises(ValueError, match="check_text"):
        RestoreOptions("k", check_text=" ")
    with pytest.raises(TypeError, match="SessionOptions.restore"):
        SessionOptions(restore="k")  # type: ignore[arg-type]


def test_a_restore_key_file_encrypts_and_bad_key_files_fail_the_start(
    site: str, state_dir: Path, tmp_path: Path
) -> None:
    key = tmp_path / "restore.key"
    key.write_text("7e" * 32 + "\n")
    opts = SessionOptions(restore=RestoreOptions("sealed", key_file=key, autosave_interval_ms=0))
    with Browser(opts) as b:
        b.page.open(f"{site}/login")
        b.page.storage.set("who", "frank")
    assert (state_dir / "sealed.json").read_bytes().startswith(b"AGBSTATE")
    with Browser(opts) as b2:
        b2.page.open(f"{site}/account")
        assert b2.status().restore_status == "loaded"
        assert b2.page.storage.get("who") == "frank"
    # Another key in the file: load_failed (state_decrypt_failed), the file kept.
    other = tmp_path / "other.key"
    other.write_text("11" * 32)
    with Browser(SessionOptions(restore=RestoreOptions("sealed", key_file=other))) as b3:
        b3.page.open(f"{site}/account")
        status = b3.status()
        assert status.restore_status == "load_failed"
        assert (status.restore_status_detail or "").startswith("state_decrypt_failed")
    # A file that holds no key fails the session's start, naming the option and the fault.
    short = tmp_path / "short.key"
    short.write_text("abc")
    with pytest.raises(Exception, match="restore-key-file.*it has 3 characters"):
        with Browser(SessionOptions(restore=RestoreOptions("sealed", key_file=short))) as b4:
            b4.page.open(f"{site}/account")
    with pytest.raises(TypeError, match="key_file"):
        RestoreOptions("k", key_file=3)  # type: ignore[arg-type]


def test_async_restore_with_a_key_file(site: str, state_dir: Path, tmp_path: Path) -> None:
    key = tmp_path / "aio.key"
    key.write_text("3c" * 32)
    opts = SessionOptions(restore=RestoreOptions("aio-sealed", key_file=key, autosave_interval_ms=0))

    async def run() -> None:
        b = AsyncBrowser(opts)
        await b.page.open(f"{site}/login")
        assert (await b.close()).save_status == "saved"
        async with AsyncBrowser(opts) as b2:
            await b2.page.open(f"{site}/account")
            assert (await b2.status()).restore_status == "loaded"
            assert "sid=s3cret" in await b2.page.evaluate("document.getElementById('c').textContent")

    asyncio.run(run())
    assert (state_dir / "aio-sealed.json").read_bytes().startswith(b"AGBSTATE")
