"""pyagentbrowser's names that agentbrowser adds without an engine change (issue 37): the options
fields honoured or refused by name, DocumentScope, DashboardOptions, ensure_installed, the
query/ref/snapshot aliases, PendingAction.map_error and the command forms of the models."""

from __future__ import annotations

import asyncio
import dataclasses
import os
import stat
from pathlib import Path

import pytest
from agentbrowser import (
    AsyncPendingAction,
    AsyncQuery,
    AsyncRef,
    AsyncSnapshot,
    BrowserInstallError,
    CDPTarget,
    ConfirmationRequired,
    DashboardOptions,
    DocumentScope,
    InstallResult,
    LaunchOptions,
    Locator,
    PendingAction,
    ProxyConfig,
    Query,
    Ref,
    RouteResponse,
    SessionOptions,
    Snapshot,
    ensure_installed,
)
from agentbrowser import install as install_module
from agentbrowser.models import Finder
from agentbrowser.options import merge_options


def extension(tmp_path: Path, name: str = "ext") -> Path:
    """An unpacked extension directory (a manifest only)."""
    d = tmp_path / name
    d.mkdir()
    (d / "manifest.json").write_text('{"manifest_version": 3, "name": "t", "version": "1"}')
    return d


def test_document_scope_is_pyagentbrowsers_frozen_identity() -> None:
    scope = DocumentScope("T1", None, "https://a.test/")
    assert (scope.target_id, scope.frame_id, scope.url, scope.generation) == ("T1", None, "https://a.test/", 0)
    with pytest.raises(dataclasses.FrozenInstanceError):
        scope.url = "x"  # type: ignore[misc]


def test_dashboard_options_are_checked() -> None:
    assert DashboardOptions(port=0, cli_version="0.39.0").port == 0
    with pytest.raises(ValueError, match="0..65535"):
        DashboardOptions(port=70000)
    with pytest.raises(ValueError, match="cli_version"):
        DashboardOptions(cli_version=" ")
    with pytest.raises(TypeError, match="DashboardOptions.control"):
        DashboardOptions(control="yes")  # type: ignore[arg-type]
    assert SessionOptions(dashboard=DashboardOptions(port=0)).dashboard == DashboardOptions(port=0)
    with pytest.raises(TypeError, match="DashboardOptions"):
        SessionOptions(dashboard={"port": 1})  # type: ignore[arg-type]


def test_session_namespace_and_pin_tab() -> None:
    with pytest.raises(ValueError, match="SessionOptions.namespace"):
        SessionOptions(namespace="team")
    assert SessionOptions(pin_tab=False).pin_tab is False
    with pytest.raises(ValueError, match="SessionOptions.pin_tab=True"):
        SessionOptions(pin_tab=True)
    with pytest.raises(TypeError, match="pin_tab"):
        SessionOptions(pin_tab="yes")  # type: ignore[arg-type]


def test_launch_fields_refused_by_name() -> None:
    assert LaunchOptions(engine="chrome").engine == "chrome"
    for kwargs, field in (
        ({"engine": "lightpanda"}, "LaunchOptions.engine"),
        ({"provider": "browserbase"}, "LaunchOptions.provider"),
        ({"storage_state": "state.json"}, "LaunchOptions.storage_state"),
        ({"webgpu": True}, "LaunchOptions.webgpu"),
    ):
        with pytest.raises(ValueError, match=field):
            LaunchOptions(**kwargs)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="hide_scrollbars"):
        LaunchOptions(hide_scrollbars=1)  # type: ignore[arg-type]
    assert LaunchOptions(webgpu=False, no_xvfb=True).to_wire() == LaunchOptions().to_wire()


def test_extensions_become_chromium_flags(tmp_path: Path) -> None:
    a, b = extension(tmp_path, "a"), extension(tmp_path, "b")
    opts = LaunchOptions(extensions=[a, str(b)], args=["--lang=de"])
    assert opts.extensions == (str(a), str(b))
    assert opts.to_wire()["args"] == ["--lang=de", f"--load-extension={a},{b}", f"--disable-extensions-except={a},{b}"]
    with pytest.raises(TypeError, match="sequence"):
        LaunchOptions(extensions=str(a))  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="no manifest.json"):
        LaunchOptions(extensions=[tmp_path])
    with pytest.raises(ValueError, match="exclude each other"):
        LaunchOptions(extensions=[a], args=[f"--load-extension={b}"])
    with pytest.raises(ValueError, match="LaunchOptions.extensions"):
        merge_options(LaunchOptions(extensions=[a]), None, CDPTarget(port=9222))


def test_hide_scrollbars_and_webmcp_flags() -> None:
    assert LaunchOptions(hide_scrollbars=True).to_wire()["args"] == ["--hide-scrollbars"]
    assert "args" not in LaunchOptions(hide_scrollbars=False, webmcp=True).to_wire()
    assert LaunchOptions(webmcp=False).to_wire()["args"] == ["--disable-features=WebMCP"]
    merged = LaunchOptions(webmcp=False, args=["--disable-features=Foo"]).to_wire()["args"]
    assert merged == ["--disable-features=Foo,WebMCP"]
    with pytest.raises(ValueError, match="no_xvfb"):
        LaunchOptions(cdp_port=9222, no_xvfb=True)


def test_cdp_target_auto_connect_is_a_bool() -> None:
    assert CDPTarget(port=9222).auto_connect is True
    assert CDPTarget(url="ws://127.0.0.1:1/devtools/browser/x", auto_connect=False).auto_connect is False
    with pytest.raises(TypeError, match="auto_connect"):
        CDPTarget(port=9222, auto_connect="no")  # type: ignore[arg-type]


def fake_chromium(directory: Path, name: str, body: str) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / name
    path.write_text("#!/bin/sh\n" + body + "\n")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return path


def test_ensure_installed_finds_chromium_on_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    exe = fake_chromium(tmp_path / "bin", "chromium-browser", 'echo "Chromium 131.0.6778.85 built on Debian"')
    monkeypatch.setenv("PATH", str(tmp_path / "bin"))
    monkeypatch.delenv("AGENTBROWSER_EXECUTABLE_PATH", raising=False)
    assert ensure_installed(progress=False) == InstallResult(exe, "131.0.6778.85", "system", False)


def test_ensure_installed_prefers_the_variable_and_checks_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    exe = fake_chromium(tmp_path, "my-chrome", "exit 3")
    monkeypatch.setenv("AGENTBROWSER_EXECUTABLE_PATH", str(exe))
    assert ensure_installed() == InstallResult(exe, None, "environment", False)
    monkeypatch.setenv("AGENTBROWSER_EXECUTABLE_PATH", str(tmp_path / "missing"))
    with pytest.raises(BrowserInstallError, match="not an executable file"):
        ensure_installed()


def test_ensure_installed_says_what_to_install_and_never_downloads(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.delenv("AGENTBROWSER_EXECUTABLE_PATH", raising=False)
    with pytest.raises(BrowserInstallError) as err:
        ensure_installed()
    message = str(err.value)
    assert "apt-get install chromium" in message and "no download is possible offline" in message
    assert os.listdir(tmp_path) == []


def test_ensure_installed_does_not_hang_on_a_stuck_version(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fake_chromium(tmp_path, "chromium", "sleep 30")
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.delenv("AGENTBROWSER_EXECUTABLE_PATH", raising=False)
    monkeypatch.setattr(install_module, "VERSION_TIMEOUT_S", 0.3)
    assert ensure_installed().version is None


def test_query_ref_and_snapshot_aliases() -> None:
    assert Query is Locator and AsyncQuery is Locator
    assert AsyncRef is Ref and AsyncSnapshot is Snapshot
    find = Finder(object())
    css = find.css("#go")
    assert (css.selector, css.action, css.params) == ("css=#go", None, None)
    role = find.role("button", name="Go")
    assert role.selector is None and role.action == "getbyrole"
    assert role.params == {"by": "role", "value": "button", "name": "Go"}
    assert find.alt_text("logo").action == "getbyalttext"


def test_pending_action_map_error_transforms_failures_in_order() -> None:
    def fail() -> int:
        raise KeyError("gone")

    pending: PendingAction[int] = PendingAction("c1", "click", {}, fail, lambda: None)
    mapped = pending.map_error(lambda e: ValueError(f"one {e}")).map_error(lambda e: RuntimeError(f"two {e}"))
    with pytest.raises(RuntimeError, match="two one 'gone'") as err:
        mapped.confirm()
    assert isinstance(err.value.__cause__, ValueError)
    assert PendingAction("c1", "click", {}, lambda: 5, lambda: None).map_error(ValueError).confirm() == 5

    def pause() -> int:
        raise ConfirmationRequired("again", action="click", code="confirmation_required")

    with pytest.raises(ConfirmationRequired):
        PendingAction("c1", "click", {}, pause, lambda: None).map_error(ValueError).confirm()
    with pytest.raises(TypeError, match="must return an exception"):
        pending.map_error(lambda e: "text").confirm()  # type: ignore[arg-type,return-value]


def test_async_pending_action_map_error() -> None:
    async def fail() -> int:
        raise KeyError("gone")

    async def deny() -> None:
        return None

    pending: AsyncPendingAction[int] = AsyncPendingAction("c1", "click", {}, fail, deny)
    with pytest.raises(LookupError, match="mapped"):
        asyncio.run(pending.map_error(lambda e: LookupError(f"mapped {e}")).confirm())


def test_command_forms_of_proxy_and_route_response() -> None:
    proxy = ProxyConfig("http://proxy:3128", bypass="localhost", username="u", password="p")
    assert proxy.as_command_value() == {
        "server": "http://proxy:3128",
        "bypass": "localhost",
        "username": "u",
        "password": "p",
    }
    assert ProxyConfig("socks5://p:1").as_command_value() == {"server": "socks5://p:1"}
    answer = RouteResponse(status=201, body="{}", content_type="application/json", headers={"X-A": "1"})
    assert answer.as_command_value() == {
        "status": 201,
        "body": "{}",
        "contentType": "application/json",
        "headers": {"X-A": "1"},
    }
    assert RouteResponse().as_command_value() == {}
