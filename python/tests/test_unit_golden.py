"""The SDK's decoders against the engine's real envelopes: every success envelope pinned by the
Rust golden wire test (crates/cli/tests/golden/wire.json) decodes into its model, and every
error envelope maps to the documented exception. A field the engine renames breaks this test."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from agentbrowser import (
    ActionResult,
    BrowserError,
    CloseResult,
    LaunchResult,
    Navigation,
    SessionStatus,
    Snapshot,
    SnapshotDiff,
    StaleRefError,
    TabCloseResult,
    TabInfo,
    TabSwitchResult,
    WaitResult,
)
from agentbrowser.errors import error_for
from agentbrowser.models import BrowserResponse

GOLDEN = Path(__file__).resolve().parents[2] / "crates" / "cli" / "tests" / "golden" / "wire.json"

MUTATIONS = {"click", "fill", "type", "select", "check", "uncheck", "hover", "tap", "focus", "clear",
             "scroll_into_view", "press"}


def entries() -> list[dict[str, Any]]:
    data: list[dict[str, Any]] = json.loads(GOLDEN.read_text())
    return data


def decode(action: str, data: Any) -> object:
    """The model the SDK builds from `action`'s data (None where it returns plain values)."""
    browser = object()
    if action in ("open", "back", "forward", "reload"):
        return Navigation.from_raw(data)
    if action == "snapshot":
        return Snapshot.from_raw(data, browser)
    if action in MUTATIONS:
        return ActionResult.from_raw(data, browser, None)
    if action == "diff":
        return SnapshotDiff.from_raw(data)
    if action == "wait":
        return WaitResult.from_raw(data)
    if action == "status":
        return SessionStatus.from_raw(data)
    if action == "close":
        return CloseResult.from_raw(data)
    if action == "tab_new":
        return TabInfo.from_raw(data)
    if action == "tab_list":
        return tuple(TabInfo.from_raw(t) for t in data["tabs"])
    if action == "tab_switch":
        return TabSwitchResult.from_raw(data)
    if action == "tab_close":
        return TabCloseResult.from_raw(data)
    if action == "launch":
        return LaunchResult.from_raw(data)
    return data


def test_every_golden_success_decodes() -> None:
    seen = set()
    for entry in entries():
        response = entry["response"]
        if not response["success"]:
            continue
        action = response["action"]
        seen.add(action)
        decode(action, response["data"])
    # The golden file covers every action the SDK decodes.
    assert {"open", "snapshot", "click", "diff", "wait", "status", "close", "tab_close", "launch"} <= seen


def test_the_closed_tab_comes_from_the_engine() -> None:
    closing = next(e["response"] for e in entries() if e["response"]["action"] == "tab_close")
    result = TabCloseResult.from_raw(closing["data"])
    assert result.id == "t2" and result.closed and result.url.endswith("/")
    assert result.active_tab is not None and result.active_tab.id == "t1"


@pytest.mark.parametrize(
    ("code", "kind"),
    [("unknown_ref", StaleRefError), ("stale_ref", StaleRefError), ("invalid_argument", BrowserError),
     ("js_error", BrowserError)],
)
def test_golden_errors_map_to_their_exceptions(code: str, kind: type[BaseException]) -> None:
    response = next(e["response"] for e in entries() if e["response"].get("code") == code)
    err = error_for(BrowserResponse.from_raw(response))
    assert isinstance(err, kind) and getattr(err, "code", code) == code
