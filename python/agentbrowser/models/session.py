"""Session models: the native response envelope, the launched browser, the outcome of
``close()`` and the session's status."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .. import _decode as d
from .. import _wire_types as w
from .._version import __version__
from ..errors import NativeParseError
from ._bounded import Bounded
from .boundary import ContentBoundary, OutputLimit


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
    #: With content boundaries on, for an answer of page content: its boundary.
    boundary: ContentBoundary | None = None
    #: With a maximum output size: the size and how much of ``data`` was cut.
    limit: OutputLimit | None = None

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
            boundary=ContentBoundary.from_raw(raw["boundary"]) if raw.get("boundary") is not None else None,
            limit=OutputLimit.from_raw(raw["limit"]) if raw.get("limit") is not None else None,
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
        wire = w.LaunchOutput.decode(raw)
        return cls(
            launched=wire.launched,
            attached=wire.attached,
            browser_version=wire.browser_version,
            ws_url=wire.ws_url,
            pid=wire.pid,
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
        """Decode the ``close`` action's data (the persistence fields, not in the protocol yet, from ``raw``)."""
        wire = w.CloseOutput.decode(raw)
        m = "CloseResult"
        return cls(
            closed=wire.closed,
            restore_status=_status(m, raw, "restoreStatus"),
            save_status=_status(m, raw, "saveStatus"),
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
    #: The restore key (None: no restore), what the restore did in words, the file it loaded.
    restore_key: str | None = None
    restore_status_detail: str | None = None
    restore_loaded_path: str | None = None
    #: Whether the restore checks wait for the first navigation.
    restore_validation_pending: bool = False
    #: The save policy (``auto``, ``always``, ``never``), the file the last save wrote, why it failed.
    restore_save: str | None = None
    restore_saved_path: str | None = None
    save_error: str | None = None
    #: Milliseconds between autosaves (0: on close only).
    autosave_interval_ms: int | None = None
    #: The restore checks: a URL glob, a text, a JavaScript function.
    restore_check_url: str | None = None
    restore_check_text: str | None = None
    restore_check_fn: str | None = None
    raw: Mapping[str, Any] = field(default_factory=dict, repr=False, compare=False)

    # pyagentbrowser's names for the same data (the seed's "socket path, background PID, page
    # count, compatibility"): read-only aliases.

    @property
    def session_id(self) -> str:
        """Alias of ``session``: the session's name."""
        return self.session

    @property
    def background_pid(self) -> int | None:
        """Alias of ``pid``: the serving daemon's process id."""
        return self.pid

    @property
    def page_count(self) -> int:
        """Alias of ``pages``: how many tabs are open."""
        return self.pages

    @property
    def socket_dir(self) -> Path | None:
        """The directory of ``socket_path`` (None for a daemon serving over stdio)."""
        return Path(self.socket_path).parent if self.socket_path is not None else None

    @property
    def namespace(self) -> str | None:
        """pyagentbrowser's session namespace: None (agentbrowser has no namespaces)."""
        return None

    @property
    def launch_hash(self) -> str | None:
        """pyagentbrowser's hash of the launch options: None (the daemon reports none)."""
        return None

    @property
    def compatibility_status(self) -> str:
        """``"current"`` when the daemon's version is this SDK's, else ``"version_mismatch"`` (from ``compatible``)."""
        return "current" if self.compatible else "version_mismatch"

    @classmethod
    def from_raw(cls, raw: Mapping[str, Any]) -> SessionStatus:
        """Decode the ``status`` action's data (the persistence fields, not in the protocol yet, from ``raw``)."""
        wire = w.StatusOutput.decode(raw)
        m = "SessionStatus"
        return cls(
            session=wire.session,
            version=wire.version,
            socket_path=wire.socket,
            pid=wire.pid,
            browser_launched=wire.browser.launched,
            browser_pid=wire.browser.pid,
            browser_version=wire.browser.version,
            pages=wire.pages,
            active_tab=wire.active_tab,
            engine=wire.engine,
            compatible=wire.version == __version__,
            restore_status=_status(m, raw, "restoreStatus"),
            save_status=_status(m, raw, "saveStatus"),
            idle_timeout_ms=wire.idle_timeout_ms,
            restore_key=d.opt_str(m, raw, "restoreKey"),
            restore_status_detail=d.opt_str(m, raw, "restoreStatusDetail"),
            restore_loaded_path=d.opt_str(m, raw, "restoreLoadedPath"),
            restore_validation_pending=bool(raw.get("restoreValidationPending", False)),
            restore_save=d.opt_str(m, raw, "restoreSave"),
            restore_saved_path=d.opt_str(m, raw, "restoreSavedPath"),
            save_error=d.opt_str(m, raw, "saveError"),
            autosave_interval_ms=raw.get("autosaveIntervalMs"),
            restore_check_url=d.opt_str(m, raw, "restoreCheckUrl"),
            restore_check_text=d.opt_str(m, raw, "restoreCheckText"),
            restore_check_fn=d.opt_str(m, raw, "restoreCheckFn"),
            raw=raw,
        )


def _status(model: str, raw: Mapping[str, Any], key: str) -> str:
    """A restore or save status; an unknown one is NativeParseError (absent: ``not_configured``)."""
    value = d.opt_str(model, raw, key) or "not_configured"
    allowed = SAVE_STATUSES if key == "saveStatus" else RESTORE_STATUSES
    if value not in allowed:
        raise NativeParseError(model, key, f"unknown status {value!r}; expected one of {', '.join(allowed)}", raw)
    return value


@dataclass(frozen=True, slots=True)
class SessionId:
    """A stable session name for a directory (:func:`agentbrowser.session_id`): ``session`` is
    ``<sanitized prefix>-<hash>``, ``scope`` the scope used (``worktree``, ``cwd``,
    ``git-root``), ``path`` the canonical directory it came from and ``hash`` the first 12
    hexadecimal characters of the SHA-256 of that path. ``str()`` gives ``session``."""

    session: str
    scope: str
    path: Path
    hash: str

    def __str__(self) -> str:
        return self.session

    @classmethod
    def from_wire(cls, wire: w.SessionIdOutput) -> SessionId:
        """Build from the decoded ``session_id`` data."""
        return cls(wire.session, wire.scope, Path(wire.path), wire.hash)
