"""Error hierarchy, code mapping, binary discovery (no binary needed)."""

from __future__ import annotations

import os
import stat
import sys
from pathlib import Path
from typing import Any

import agentbrowser
import pytest
from agentbrowser import (
    ActionTransitionError,
    AgentBrowserError,
    AsyncStaleRefError,
    BrowserError,
    BrowserInstallError,
    BrowserResponse,
    ConfirmationRequired,
    NativeParseError,
    RestoreSaveError,
    Snapshot,
    StaleRefError,
    cdp,
)
from agentbrowser._binary import find_binary, socket_dir, socket_path
from agentbrowser.errors import error_for


def envelope(code: str | None, data: Any = None, error: str = "boom", action: str = "click") -> BrowserResponse:
    return BrowserResponse.from_raw(
        {"id": 1, "action": action, "success": False, "data": data, "error": error, "code": code, "warning": None}
    )


def test_hierarchy() -> None:
    for cls in (
        BrowserError,
        NativeParseError,
        ActionTransitionError,
        BrowserInstallError,
        RestoreSaveError,
        cdp.CDPError,
    ):
        assert issubclass(cls, AgentBrowserError)
    assert issubclass(ConfirmationRequired, BrowserError)
    assert issubclass(StaleRefError, BrowserError) and issubclass(AsyncStaleRefError, BrowserError)
    for name in cdp.__all__:
        assert issubclass(getattr(cdp, name), cdp.CDPError)
    assert issubclass(cdp.CDPTimeoutError, TimeoutError)
    assert agentbrowser.cdp.CDPEvaluationError is cdp.CDPEvaluationError


def test_code_mapping() -> None:
    for code in ("stale_ref", "unknown_ref"):
        err = error_for(envelope(code))
        assert type(err) is StaleRefError and err.code == code and err.action == "click"
        assert type(error_for(envelope(code), asynchronous=True)) is AsyncStaleRefError
    install = error_for(envelope("browser_not_found", error="no Chromium found"))
    assert isinstance(install, BrowserInstallError) and "chromium" in str(install).lower()
    generic = error_for(envelope("timeout", error="took too long", action="open"))
    assert type(generic) is BrowserError and generic.code == "timeout" and generic.action == "open"
    assert isinstance(generic.response, BrowserResponse) and str(generic) == "took too long"


def test_stale_ref_refresh_without_ref() -> None:
    with pytest.raises(RuntimeError):
        StaleRefError("x").refresh()


def test_transition_error_fields() -> None:
    spec = {"selector": None, "interactive": True, "compact": False, "maxDepth": None, "urls": False, "maxBytes": 0}
    snap = {
        "text": "t",
        "origin": "http://x/",
        "tab": "t1",
        "generation": 1,
        "spec": spec,
        "refs": {},
        "truncated": False,
        "omitted": [],
    }
    data = {
        "stage": "wait",
        "action": "click",
        "target": {"ref": "e1", "role": "button", "name": "Go"},
        "before": snap,
        "after": None,
        "cause": {"code": "timeout", "message": "text 'never' did not appear"},
    }
    decoded: list[object] = []

    def decode(raw: Any) -> Any:
        decoded.append(raw)
        return Snapshot.from_raw(raw, object())  # type: ignore[type-var]

    err = error_for(envelope("action_transition_failed", data, "click happened, wait failed"), snapshot=decode)
    assert isinstance(err, ActionTransitionError)
    assert err.stage == "wait" and err.action == "click" and err.after is None
    assert isinstance(err.before, Snapshot) and err.before.origin == "http://x/"
    assert err.target == data["target"]
    assert isinstance(err.cause, BrowserError) and err.cause.code == "timeout" and err.__cause__ is err.cause


def test_native_parse_error_names_field() -> None:
    err = NativeParseError("TabInfo", "url", "missing field")
    assert err.field == "url" and "`url`" in str(err) and "TabInfo" in str(err)


# -- binary discovery --------------------------------------------------------------------


def _exe(path: Path) -> Path:
    path.write_text("#!/bin/sh\n")
    path.chmod(path.stat().st_mode | stat.S_IEXEC)
    return path


def test_find_binary_order(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    env_bin = _exe(tmp_path / "custom-agentbrowser")
    venv = tmp_path / "venv" / "bin"
    venv.mkdir(parents=True)
    fake_python = _exe(venv / "python")
    on_path = tmp_path / "path"
    on_path.mkdir()
    _exe(on_path / "agentbrowser")
    monkeypatch.setenv("AGENTBROWSER_BIN", str(env_bin))
    monkeypatch.setattr(sys, "executable", str(fake_python))
    monkeypatch.setenv("PATH", str(on_path))
    assert find_binary() == str(env_bin)
    monkeypatch.delenv("AGENTBROWSER_BIN")
    assert find_binary() == str(on_path / "agentbrowser")
    _exe(venv / "agentbrowser")
    assert find_binary() == str(venv / "agentbrowser")


def test_find_binary_missing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AGENTBROWSER_BIN", str(tmp_path / "nope"))
    with pytest.raises(BrowserInstallError, match="AGENTBROWSER_BIN"):
        find_binary()
    monkeypatch.delenv("AGENTBROWSER_BIN")
    monkeypatch.setattr(sys, "executable", str(tmp_path / "python"))
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(BrowserInstallError) as err:
        find_binary()
    assert "not found" in str(err.value) and err.value.hint


def test_launch_without_binary_raises_install_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("AGENTBROWSER_BIN", raising=False)
    monkeypatch.setattr(sys, "executable", str(tmp_path / "python"))
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(BrowserInstallError):
        agentbrowser.Browser.launch()


def test_socket_dir_precedence(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AGENTBROWSER_SOCKET_DIR", str(tmp_path / "s"))
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(tmp_path / "x"))
    assert socket_path("work") == tmp_path / "s" / "work.sock"
    monkeypatch.delenv("AGENTBROWSER_SOCKET_DIR")
    assert socket_dir() == tmp_path / "x" / "agentbrowser"
    monkeypatch.delenv("XDG_RUNTIME_DIR")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert socket_dir() == tmp_path / "home" / ".agentbrowser" / "run"
    assert os.path.isabs(socket_dir())
