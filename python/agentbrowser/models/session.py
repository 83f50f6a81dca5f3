"""Session models: the native response envelope, the launched browser, the outcome of
``close()`` and the session's status."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .. import _decode as d
from .._version import __version__
from ._bounded import Bounded


@dataclass(frozen=True, slots=True, repr=False)
class BrowserResponse(Bounded):
    """The complete native response envelope (what ``browser.native.execute`` returns)."""

    id: Any
    action: str
    success: bool
    data: Any
    warning: str | None
    error: str | None = None
    code: str | None = None
    raw: Mapping[str, Any] = field(default_factory=dict, repr=False, compare=False)

    @classmethod
    def from_raw(cls, raw: Mapping[str, Any]) -> BrowserResponse:
        """Decode a complete response envelope."""
        m = "BrowserResponse"
        raw = d.mapping(m, raw, "response")
        return cls(
            id=raw.get("id"),
            action=d.opt_str(m, raw, "action", "") or "",
            success=d.req_bool(m, raw, "success"),
            data=raw.get("data"),
            warning=d.opt_str(m, raw, "warning"),
            error=d.opt_str(m, raw, "error"),
            code=d.opt_str(m, raw, "code"),
            raw=raw,
        )


RESTORE_STATUSES = ("load_failed", "loaded", "loaded_but_invalid", "missing", "not_configured", "pending")
SAVE_STATUSES = (
    "disabled",
    "error",
    "invalid_policy",
    "no_browser",
    "not_attempted",
    "not_configured",
    "saved",
    "skipped_restore_failed",
)


@dataclass(frozen=True, slots=True, repr=False)
class LaunchResult(Bounded):
    """The browser that ``launch`` started (or attached to): its version, DevTools URL and pid."""

    launched: bool
    attached: bool
    browser_version: str
    ws_url: str
    pid: int | None
    raw: Mapping[str, Any] = field(default_factory=dict, repr=False, compare=False)

    @classmethod
    def from_raw(cls, raw: Mapping[str, Any]) -> LaunchResult:
        """Decode the ``launch`` action's data."""
        m = "LaunchResult"
        raw = d.mapping(m, raw)
        return cls(
            launched=d.req_bool(m, raw, "launched"),
            attached=d.req_bool(m, raw, "attached"),
            browser_version=d.req_str(m, raw, "browserVersion"),
            ws_url=d.req_str(m, raw, "wsUrl"),
            pid=d.opt_int(m, raw, "pid"),
            raw=raw,
        )


@dataclass(frozen=True, slots=True, repr=False)
class CloseResult(Bounded):
    """The outcome of ``close()``: whether the session closed, and persistence results."""

    closed: bool
    restore_status: str = "not_configured"
    save_status: str = "not_configured"
    state_path: str | None = None
    save_error: str | None = None
    raw: Mapping[str, Any] = field(default_factory=dict, repr=False, compare=False)

    @classmethod
    def from_raw(cls, raw: Mapping[str, Any]) -> CloseResult:
        """Decode the ``close`` action's data."""
        m = "CloseResult"
        raw = d.mapping(m, raw)
        return cls(
            closed=d.req_bool(m, raw, "closed"),
            restore_status=d.opt_str(m, raw, "restoreStatus", "not_configured") or "not_configured",
            save_status=d.opt_str(m, raw, "saveStatus", "not_configured") or "not_configured",
            state_path=d.opt_str(m, raw, "statePath"),
            save_error=d.opt_str(m, raw, "saveError"),
            raw=raw,
        )


@dataclass(frozen=True, slots=True, repr=False)
class SessionStatus(Bounded):
    """Session identity and health as the daemon reports it.

    ``compatible`` is true when the daemon's version equals this SDK's version.
    """

    session: str
    version: str
    socket_path: str | None
    pid: int | None
    browser_launched: bool
    browser_pid: int | None
    browser_version: str | None
    pages: int
    active_tab: str | None
    engine: str
    compatible: bool
    restore_status: str
    save_status: str
    idle_timeout_ms: int | None
    raw: Mapping[str, Any] = field(default_factory=dict, repr=False, compare=False)

    @classmethod
    def from_raw(cls, raw: Mapping[str, Any]) -> SessionStatus:
        """Decode the ``status`` action's data."""
        m = "SessionStatus"
        raw = d.mapping(m, raw)
        browser = d.req_map(m, raw, "browser")
        version = d.req_str(m, raw, "version")
        return cls(
            session=d.req_str(m, raw, "session"),
            version=version,
            socket_path=d.opt_str(m, raw, "socket"),
            pid=d.opt_int(m, raw, "pid"),
            browser_launched=d.req_bool("SessionStatus.browser", browser, "launched"),
            browser_pid=d.opt_int("SessionStatus.browser", browser, "pid"),
            browser_version=d.opt_str("SessionStatus.browser", browser, "version"),
            pages=d.req_int(m, raw, "pages"),
            active_tab=d.opt_str(m, raw, "activeTab"),
            engine=d.req_str(m, raw, "engine"),
            compatible=version == __version__,
            restore_status=d.opt_str(m, raw, "restoreStatus", "not_configured") or "not_configured",
            save_status=d.opt_str(m, raw, "saveStatus", "not_configured") or "not_configured",
            idle_timeout_ms=d.opt_int(m, raw, "idleTimeoutMs"),
            raw=raw,
        )
