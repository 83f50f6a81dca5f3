"""Frozen result models shared by the sync and async clients, and their decoding.

Every model keeps the native mapping it was built from in ``raw``.  Models that hang
off a browser (:class:`Snapshot`, :class:`Ref`, :class:`ActionResult`) are generic in
the browser type: with a :class:`~agentbrowser.Browser` their operations return values,
with an :class:`~agentbrowser.AsyncBrowser` they return awaitables.
"""

from __future__ import annotations

import dataclasses
import html
from collections.abc import Awaitable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, ClassVar, Generic, Literal, TypeVar, overload

from . import _decode as d
from .errors import NativeParseError

if TYPE_CHECKING:
    from .aio import AsyncBrowser
    from .browser import Browser

__all__ = [
    "SnapshotSpec",
    "Snapshot",
    "Ref",
    "Wait",
    "ActionResult",
    "SnapshotDiff",
    "BrowserResponse",
    "CloseResult",
    "SessionStatus",
    "TabInfo",
    "TabSwitchResult",
    "TabCloseResult",
    "Navigation",
    "WaitResult",
]

B = TypeVar("B", "Browser", "AsyncBrowser")

LoadState = Literal["load", "domcontentloaded", "networkidle"]
LOAD_STATES: tuple[str, ...] = ("load", "domcontentloaded", "networkidle")
MOUSE_BUTTONS: tuple[str, ...] = ("left", "right", "middle")

_REPR_FIELD = 80
_CANDIDATES = 10


def clip(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters with an ellipsis and the full length."""
    if len(text) <= limit:
        return text
    return f"{text[: max(0, limit - 1)]}… ({len(text)} chars)"


def _clip_repr(value: object, limit: int = _REPR_FIELD) -> str:
    if isinstance(value, str):
        return repr(clip(value, limit))
    if isinstance(value, Mapping):
        return f"{{…{len(value)} keys}}" if value else "{}"
    if isinstance(value, (list, tuple)) and len(value) > 3:
        return f"[…{len(value)} items]"
    return clip(repr(value), limit)


class _Bounded:
    """Mixin: a dataclass repr whose every field is clipped, so it stays short."""

    __slots__ = ()

    def __repr__(self) -> str:
        parts = []
        for f in dataclasses.fields(self):  # type: ignore[arg-type]
            if f.repr:
                parts.append(f"{f.name}={_clip_repr(getattr(self, f.name))}")
        return f"{type(self).__name__}({', '.join(parts)})"


def _check_type(owner: str, name: str, value: object, types: type | tuple[type, ...], allowed: str) -> None:
    if isinstance(value, bool) and bool not in (types if isinstance(types, tuple) else (types,)):
        raise TypeError(f"{owner}.{name} must be {allowed}, got {value!r}")
    if not isinstance(value, types):
        raise TypeError(f"{owner}.{name} must be {allowed}, got {type(value).__name__} {value!r}")


def _check_timeout(owner: str, value: int | None, name: str = "timeout_ms") -> None:
    if value is None:
        return
    _check_type(owner, name, value, int, "an int of milliseconds or None")
    if value < 0:
        raise ValueError(f"{owner}.{name} must be >= 0 milliseconds, got {value}")


# ---------------------------------------------------------------------------
# Specs and conditions (inputs)


#: The engine's default size budget of a snapshot's text, in bytes.
DEFAULT_MAX_BYTES = 100_000


def _opt_int_default(model: str, raw: Mapping[str, Any], key: str, default: int) -> int:
    value = d.opt_int(model, raw, key)
    return default if value is None else value


@dataclass(frozen=True, slots=True)
class SnapshotSpec:
    """What one accessibility capture includes.

    ``selector`` limits the tree to a CSS subtree, ``interactive`` keeps interactive
    elements (and their context) only, ``compact`` drops empty structural nodes,
    ``max_depth`` limits the depth (>= 0), ``urls`` adds link targets, ``max_bytes`` is the
    size budget of the text (default 100000, 0 = unbounded): past it the snapshot stops at a
    whole line, ``Snapshot.truncated`` is set and ``Snapshot.omitted`` counts what was left out.
    """

    selector: str | None = None
    interactive: bool = True
    compact: bool = False
    max_depth: int | None = None
    urls: bool = False
    max_bytes: int = DEFAULT_MAX_BYTES

    def __post_init__(self) -> None:
        if self.selector is not None:
            _check_type("SnapshotSpec", "selector", self.selector, str, "a CSS selector string or None")
            if not self.selector.strip():
                raise ValueError("SnapshotSpec.selector must not be empty (use None for the whole page)")
        for name in ("interactive", "compact", "urls"):
            _check_type("SnapshotSpec", name, getattr(self, name), bool, "a bool")
        if self.max_depth is not None:
            _check_type("SnapshotSpec", "max_depth", self.max_depth, int, "an int or None")
            if self.max_depth < 0:
                raise ValueError(f"SnapshotSpec.max_depth must be >= 0 or None, got {self.max_depth}")
        _check_type("SnapshotSpec", "max_bytes", self.max_bytes, int, "an int (0 = unbounded)")
        if self.max_bytes < 0:
            raise ValueError(f"SnapshotSpec.max_bytes must be >= 0 (0 = unbounded), got {self.max_bytes}")

    def to_wire(self) -> dict[str, Any]:
        """The ``snapshot`` action's parameters."""
        wire: dict[str, Any] = {
            "interactive": self.interactive,
            "compact": self.compact,
            "urls": self.urls,
            "maxBytes": self.max_bytes,
        }
        if self.selector is not None:
            wire["selector"] = self.selector
        if self.max_depth is not None:
            wire["maxDepth"] = self.max_depth
        return wire

    @classmethod
    def from_raw(cls, raw: Mapping[str, Any]) -> SnapshotSpec:
        m = "SnapshotSpec"
        return cls(
            selector=d.opt_str(m, raw, "selector"),
            interactive=d.opt_bool(m, raw, "interactive", True),
            compact=d.opt_bool(m, raw, "compact", False),
            max_depth=d.opt_int(m, raw, "maxDepth"),
            urls=d.opt_bool(m, raw, "urls", False),
            max_bytes=_opt_int_default(m, raw, "maxBytes", DEFAULT_MAX_BYTES),
        )


@dataclass(frozen=True, slots=True)
class Wait:
    """One condition to wait for after an action (or alone with ``page.wait``).

    Build it with :meth:`text`, :meth:`url`, :meth:`loaded` or :meth:`all`.  Timeouts
    are milliseconds (>= 0); ``None`` means the engine default.
    """

    kind: Literal["text", "url", "load", "all"]
    value: str | None = None
    conditions: tuple[Wait, ...] = ()
    timeout_ms: int | None = None

    def __post_init__(self) -> None:
        if self.kind not in ("text", "url", "load", "all"):
            raise ValueError(f"Wait.kind must be one of text, url, load, all; got {self.kind!r}")
        _check_timeout("Wait", self.timeout_ms)
        if self.kind == "all":
            if not self.conditions:
                raise ValueError("Wait.all() requires at least one condition")
            for c in self.conditions:
                if not isinstance(c, Wait):
                    raise TypeError(f"Wait.all() takes Wait conditions, got {type(c).__name__} {c!r}")
            return
        if not isinstance(self.value, str):
            raise TypeError(f"Wait.{self.kind} value must be a string, got {type(self.value).__name__}")
        if self.kind == "load" and self.value not in LOAD_STATES:
            raise ValueError(f"Wait.loaded state must be one of {', '.join(LOAD_STATES)}; got {self.value!r}")
        if self.kind in ("text", "url") and not self.value:
            raise ValueError(f"Wait.{self.kind}() needs a non-empty {self.kind}")

    @classmethod
    def text(cls, text: str, *, timeout_ms: int | None = None) -> Wait:
        """Wait until ``text`` appears in the page's rendered text."""
        return cls("text", text, timeout_ms=timeout_ms)

    @classmethod
    def url(cls, url: str, *, timeout_ms: int | None = None) -> Wait:
        """Wait until the active URL equals ``url`` or matches it as a glob (``*``, ``?``)."""
        return cls("url", url, timeout_ms=timeout_ms)

    @classmethod
    def loaded(cls, state: str = "load", *, timeout_ms: int | None = None) -> Wait:
        """Wait for a load state: ``load``, ``domcontentloaded`` or ``networkidle``."""
        return cls("load", state, timeout_ms=timeout_ms)

    @classmethod
    def all(cls, *conditions: Wait, timeout_ms: int | None = None) -> Wait:
        """Every condition in order (at least one), within an optional shared timeout."""
        return cls("all", None, tuple(conditions), timeout_ms=timeout_ms)

    def to_wire(self) -> dict[str, Any]:
        """The WaitCondition JSON of the wire protocol."""
        wire: dict[str, Any] = {"type": self.kind}
        if self.kind == "all":
            wire["conditions"] = [c.to_wire() for c in self.conditions]
        elif self.kind == "load":
            wire["state"] = self.value
        else:
            wire[self.kind] = self.value
        if self.timeout_ms is not None:
            wire["timeoutMs"] = self.timeout_ms
        return wire

    def budget_ms(self) -> int:
        """Upper bound of the time this condition may take (its explicit timeouts)."""
        if self.timeout_ms is not None:
            return self.timeout_ms
        return sum(c.budget_ms() for c in self.conditions)

    def __repr__(self) -> str:
        t = f", timeout_ms={self.timeout_ms}" if self.timeout_ms is not None else ""
        if self.kind == "all":
            inner = ", ".join(repr(c) for c in self.conditions[:3])
            more = f", …{len(self.conditions) - 3} more" if len(self.conditions) > 3 else ""
            return f"Wait.all({inner}{more}{t})"
        name = "loaded" if self.kind == "load" else self.kind
        return f"Wait.{name}({_clip_repr(self.value)}{t})"


# ---------------------------------------------------------------------------
# Envelope and session models


@dataclass(frozen=True, slots=True, repr=False)
class BrowserResponse(_Bounded):
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
class CloseResult(_Bounded):
    """The outcome of ``close()``: whether the session closed, and persistence results."""

    closed: bool
    restore_status: str = "not_configured"
    save_status: str = "not_configured"
    state_path: str | None = None
    save_error: str | None = None
    raw: Mapping[str, Any] = field(default_factory=dict, repr=False, compare=False)

    @classmethod
    def from_raw(cls, raw: Mapping[str, Any]) -> CloseResult:
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
class SessionStatus(_Bounded):
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
        from . import __version__

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


@dataclass(frozen=True, slots=True, repr=False)
class TabInfo(_Bounded):
    """One tab: stable id (``t1``), URL, title, label, active state, CDP target id."""

    id: str
    url: str
    title: str
    label: str | None
    active: bool
    target_id: str | None
    raw: Mapping[str, Any] = field(repr=False, compare=False)

    @classmethod
    def from_raw(cls, raw: Mapping[str, Any]) -> TabInfo:
        return cls(**_tab_fields("TabInfo", raw))


def _tab_fields(m: str, raw: Mapping[str, Any]) -> dict[str, Any]:
    raw = d.mapping(m, raw)
    return {
        "id": d.req_str(m, raw, "id"),
        "url": d.req_str(m, raw, "url"),
        "title": d.req_str(m, raw, "title"),
        "label": d.opt_str(m, raw, "label"),
        "active": d.req_bool(m, raw, "active"),
        "target_id": d.opt_str(m, raw, "targetId"),
        "raw": raw,
    }


@dataclass(frozen=True, slots=True, repr=False)
class TabSwitchResult(TabInfo):
    """The selected tab, plus whether it was revived and whether a dialog blocked it."""

    revived: bool = False
    dialog_blocked: bool = False

    @classmethod
    def from_raw(cls, raw: Mapping[str, Any]) -> TabSwitchResult:
        m = "TabSwitchResult"
        fields = _tab_fields(m, raw)
        return cls(
            **fields,
            revived=d.opt_bool(m, raw, "revived"),
            dialog_blocked=d.opt_bool(m, raw, "dialogBlocked"),
        )


@dataclass(frozen=True, slots=True, repr=False)
class TabCloseResult(TabInfo):
    """The closed tab's fields, plus ``closed``, ``active_tab_revived`` and the new active tab."""

    closed: bool = True
    active_tab_revived: bool = False
    active_tab: TabInfo | None = None

    @classmethod
    def from_raw(cls, raw: Mapping[str, Any], tab: Mapping[str, Any] | None = None) -> TabCloseResult:
        """Build from the ``tab_close`` data and the closed tab's listing (when known)."""
        m = "TabCloseResult"
        raw = d.mapping(m, raw)
        closed_id = raw.get("closed")
        if isinstance(closed_id, bool):
            closed, tab_id = closed_id, (tab or {}).get("id")
        else:
            closed, tab_id = True, d.req_str(m, raw, "closed")
        if not isinstance(tab_id, str):
            raise NativeParseError(m, "closed", "missing closed tab id", raw)
        tab_raw = d.opt_map(m, raw, "tab") or tab or {}
        active_raw = d.opt_map(m, raw, "active")
        return cls(
            id=tab_id,
            url=d.opt_str(m, tab_raw, "url", "") or "",
            title=d.opt_str(m, tab_raw, "title", "") or "",
            label=d.opt_str(m, tab_raw, "label"),
            active=False,
            target_id=d.opt_str(m, tab_raw, "targetId"),
            raw=raw,
            closed=closed,
            active_tab_revived=d.opt_bool(m, raw, "activeTabRevived"),
            active_tab=TabInfo.from_raw(active_raw) if active_raw is not None else None,
        )


@dataclass(frozen=True, slots=True, repr=False)
class Navigation(_Bounded):
    """Where a navigation (open, back, forward, reload) ended: URL, title, HTTP status."""

    url: str
    title: str
    status: int | None
    raw: Mapping[str, Any] = field(repr=False, compare=False)

    @classmethod
    def from_raw(cls, raw: Mapping[str, Any]) -> Navigation:
        m = "Navigation"
        raw = d.mapping(m, raw)
        return cls(
            url=d.req_str(m, raw, "url"),
            title=d.req_str(m, raw, "title"),
            status=d.opt_int(m, raw, "status"),
            raw=raw,
        )


@dataclass(frozen=True, slots=True, repr=False)
class WaitResult(_Bounded):
    """A satisfied ``page.wait``: ``matched`` and the time it took."""

    matched: bool
    elapsed_ms: int
    raw: Mapping[str, Any] = field(repr=False, compare=False)

    @classmethod
    def from_raw(cls, raw: Mapping[str, Any]) -> WaitResult:
        m = "WaitResult"
        raw = d.mapping(m, raw)
        return cls(matched=d.opt_bool(m, raw, "matched", True), elapsed_ms=d.req_int(m, raw, "elapsedMs"), raw=raw)


# ---------------------------------------------------------------------------
# Evidence models


@dataclass(frozen=True, slots=True, repr=False)
class SnapshotDiff(_Bounded):
    """A unified text diff between two snapshots, with line counts."""

    diff: str
    added: int
    removed: int
    unchanged: int
    changed: bool
    raw: Mapping[str, Any] = field(repr=False, compare=False)

    @property
    def text(self) -> str:
        """Alias of ``diff``: the unified diff text."""
        return self.diff

    @classmethod
    def from_raw(cls, raw: Mapping[str, Any]) -> SnapshotDiff:
        m = "SnapshotDiff"
        raw = d.mapping(m, raw)
        return cls(
            diff=d.req_str(m, raw, "diff"),
            added=d.req_int(m, raw, "added"),
            removed=d.req_int(m, raw, "removed"),
            unchanged=d.req_int(m, raw, "unchanged"),
            changed=d.req_bool(m, raw, "changed"),
            raw=raw,
        )

    def __repr__(self) -> str:
        return (
            f"SnapshotDiff(changed={self.changed}, added={self.added}, removed={self.removed}, "
            f"unchanged={self.unchanged}, diff={_clip_repr(self.diff, 120)})"
        )


def _norm(text: str) -> str:
    return " ".join(text.split()).casefold()


def _parse_ref_id(ref_id: str) -> str:
    if not isinstance(ref_id, str):
        raise TypeError(f"ref id must be a string like 'e1' or '@e1', got {type(ref_id).__name__}")
    rid = ref_id.strip()
    if rid.startswith("@"):
        rid = rid[1:]
    elif rid.startswith("ref="):
        rid = rid[4:]
    return rid


def _omitted(value: object) -> tuple[tuple[str, int], ...]:
    if not isinstance(value, list):
        return ()
    out: list[tuple[str, int]] = []
    for item in value:
        if isinstance(item, Mapping) and isinstance(item.get("role"), str) and isinstance(item.get("count"), int):
            out.append((item["role"], item["count"]))
    return tuple(out)


@dataclass(frozen=True, slots=True, eq=False, repr=False)
class Snapshot(Generic[B]):
    """One accessibility capture of the active page.

    ``text`` is the readable tree, ``origin`` (alias ``url``) the page URL, ``spec`` the
    :class:`SnapshotSpec` reused by :meth:`refresh` and ref mutations, ``refs`` the bound
    :class:`Ref` objects by id, ``generation`` the engine's snapshot counter, ``tab`` the tab
    that issued the refs, ``truncated`` whether the size budget cut the text and ``omitted``
    what it left out as ``(role, lines)`` pairs, most first; ``raw`` the native mapping.
    """

    text: str
    origin: str
    spec: SnapshotSpec
    generation: int
    truncated: bool
    tab: str | None
    omitted: tuple[tuple[str, int], ...]
    browser: B
    refs: Mapping[str, Ref[B]]
    raw: Mapping[str, Any]

    @property
    def url(self) -> str:
        """Alias of ``origin``."""
        return self.origin

    @classmethod
    def from_raw(cls, raw: Mapping[str, Any], browser: B, spec: SnapshotSpec | None = None) -> Snapshot[B]:
        """Decode a wire Snapshot bound to ``browser``."""
        m = "Snapshot"
        raw = d.mapping(m, raw)
        spec_raw = d.opt_map(m, raw, "spec")
        refs_raw = d.req_map(m, raw, "refs")
        snap = cls(
            text=d.req_str(m, raw, "text"),
            origin=d.req_str(m, raw, "origin"),
            spec=SnapshotSpec.from_raw(spec_raw) if spec_raw is not None else (spec or SnapshotSpec()),
            generation=d.req_int(m, raw, "generation"),
            truncated=d.opt_bool(m, raw, "truncated"),
            tab=d.opt_str(m, raw, "tab"),
            omitted=_omitted(raw.get("omitted")),
            browser=browser,
            refs=MappingProxyType({}),
            raw=raw,
        )
        refs: dict[str, Ref[B]] = {}
        for rid, meta in refs_raw.items():
            meta = d.mapping("Ref", meta, f"refs.{rid}")
            refs[rid] = Ref(
                id=rid,
                selector=f"@{rid}",
                role=d.req_str("Ref", meta, "role"),
                name=d.opt_str("Ref", meta, "name", "") or "",
                frame=d.opt_str("Ref", meta, "frame"),
                snapshot=snap,
                browser=browser,
                raw=meta,
            )
        object.__setattr__(snap, "refs", MappingProxyType(refs))
        return snap

    # -- lookups (pure) -----------------------------------------------------

    def ref(self, ref_id: str) -> Ref[B]:
        """The ref with this exact id (``e1``, ``@e1`` or ``ref=e1``); KeyError if unknown."""
        rid = _parse_ref_id(ref_id)
        try:
            return self.refs[rid]
        except KeyError:
            known = ", ".join(list(self.refs)[:_CANDIDATES])
            more = f", … ({len(self.refs)} refs)" if len(self.refs) > _CANDIDATES else ""
            raise KeyError(f"unknown ref {ref_id!r} in this snapshot; known ids: {known or 'none'}{more}") from None

    def all(
        self, *, role: str | None = None, name: str | None = None, contains: str | None = None, exact: bool = False
    ) -> tuple[Ref[B], ...]:
        """Every ref matching the criteria, in document order.

        ``role`` matches case-insensitively; ``name`` matches the whole accessible name
        (ignoring case and runs of whitespace unless ``exact``); ``contains`` matches a
        substring of the name (case-insensitive unless ``exact``).
        """
        return tuple(r for r in self.refs.values() if r._matches(role, name, contains, exact))

    def one(
        self, *, role: str | None = None, name: str | None = None, contains: str | None = None, exact: bool = False
    ) -> Ref[B]:
        """The single ref matching the criteria; LookupError naming them when zero or several match."""
        found = self.all(role=role, name=name, contains=contains, exact=exact)
        if len(found) == 1:
            return found[0]
        criteria = _criteria(role, name, contains, exact)
        if found:
            head, pool = f"{len(found)} refs match {criteria}", found
        else:
            same_role = self.all(role=role) if role is not None else ()
            pool = same_role or tuple(self.refs.values())
            head = f"no ref matches {criteria}"
        shown = ", ".join(r._label() for r in pool[:_CANDIDATES])
        more = f", … {len(pool) - _CANDIDATES} more" if len(pool) > _CANDIDATES else ""
        raise LookupError(f"{head}; candidates: {shown or 'none (the snapshot has no refs)'}{more}")

    # -- operations ----------------------------------------------------------

    @overload
    def refresh(self: Snapshot[Browser]) -> Snapshot[Browser]: ...
    @overload
    def refresh(self: Snapshot[AsyncBrowser]) -> Awaitable[Snapshot[AsyncBrowser]]: ...
    def refresh(self) -> Snapshot[Any] | Awaitable[Snapshot[Any]]:
        """Capture the same SnapshotSpec again (a new Snapshot)."""
        return self.browser._drive(_ops.observe(self.browser, self.spec))

    @overload
    def diff(self: Snapshot[Browser]) -> SnapshotDiff: ...
    @overload
    def diff(self: Snapshot[AsyncBrowser]) -> Awaitable[SnapshotDiff]: ...
    def diff(self) -> SnapshotDiff | Awaitable[SnapshotDiff]:
        """Compare this snapshot with the active page now."""
        return self.browser._drive(_ops.diff(self))

    # -- presentation ----------------------------------------------------------

    def __repr__(self) -> str:
        first = self.text.strip().splitlines()[0] if self.text.strip() else ""
        return (
            f"Snapshot(origin={_clip_repr(self.origin, 80)}, generation={self.generation}, "
            f"refs={len(self.refs)}, lines={self.text.count(chr(10)) + 1}, text={_clip_repr(first, 80)})"
        )

    _DISPLAY_CHARS: ClassVar[int] = 6000

    def _repr_markdown_(self) -> str:
        body = clip(self.text, self._DISPLAY_CHARS).replace("```", "`\u200b``")
        return (
            f"**Snapshot** of `{clip(self.origin, 200)}` — {len(self.refs)} refs, generation "
            f"{self.generation}{' (truncated)' if self.truncated else ''}\n\n```\n{body}\n```"
        )

    def _repr_html_(self) -> str:
        body = html.escape(clip(self.text, self._DISPLAY_CHARS))
        return (
            f"<div><b>Snapshot</b> of <code>{html.escape(clip(self.origin, 200))}</code> — "
            f"{len(self.refs)} refs, generation {self.generation}"
            f"{' (truncated)' if self.truncated else ''}<pre>{body}</pre></div>"
        )


def _criteria(role: str | None, name: str | None, contains: str | None, exact: bool) -> str:
    parts = [
        f"{k}={clip(v, 60)!r}" for k, v in (("role", role), ("name", name), ("contains", contains)) if v is not None
    ]
    parts.append(f"exact={exact}")
    return "(" + ", ".join(parts) + ")"


@dataclass(frozen=True, slots=True, repr=False)
class Ref(Generic[B]):
    """One element of a snapshot, addressable by ``id`` (``e3``; ``selector`` is ``@e3``).

    Mutations return :class:`ActionResult` and accept ``wait=``; reads return values.
    Native ``stale_ref``/``unknown_ref`` failures raise StaleRefError (AsyncStaleRefError
    on the async client).
    """

    id: str
    selector: str
    role: str
    name: str
    frame: str | None
    snapshot: Snapshot[B] = field(compare=False)
    browser: B = field(compare=False)
    raw: Mapping[str, Any] = field(compare=False)

    def _matches(self, role: str | None, name: str | None, contains: str | None, exact: bool) -> bool:
        if role is not None and self.role.casefold() != role.casefold():
            return False
        if name is not None and (self.name != name if exact else _norm(self.name) != _norm(name)):
            return False
        if contains is not None and (contains not in self.name if exact else _norm(contains) not in _norm(self.name)):
            return False
        return True

    def _label(self) -> str:
        return f"@{self.id} {self.role} {clip(self.name, 40)!r}"

    def __repr__(self) -> str:
        return f"Ref({self._label()})"

    # -- mutations -------------------------------------------------------------

    @overload
    def click(
        self: Ref[Browser], *, button: str = ..., click_count: int = ..., new_tab: bool = ..., wait: Wait | None = ...
    ) -> ActionResult[Browser]: ...
    @overload
    def click(
        self: Ref[AsyncBrowser],
        *,
        button: str = ...,
        click_count: int = ...,
        new_tab: bool = ...,
        wait: Wait | None = ...,
    ) -> Awaitable[ActionResult[AsyncBrowser]]: ...
    def click(
        self, *, button: str = "left", click_count: int = 1, new_tab: bool = False, wait: Wait | None = None
    ) -> ActionResult[Any] | Awaitable[ActionResult[Any]]:
        """Click with a mouse button (left, right, middle) and count; ``new_tab`` opens links in a new tab."""
        if button not in MOUSE_BUTTONS:
            raise ValueError(f"click button must be one of {', '.join(MOUSE_BUTTONS)}; got {button!r}")
        _check_type("Ref.click", "click_count", click_count, int, "1, 2 or 3")
        if click_count not in (1, 2, 3):
            raise ValueError(f"Ref.click click_count must be 1, 2 or 3 (as the engine allows), got {click_count}")
        _check_type("Ref.click", "new_tab", new_tab, bool, "a bool")
        params = {"button": button, "clickCount": click_count, "newTab": new_tab}
        return self.browser._drive(_ops.mutate(self, "click", params, wait))

    @overload
    def fill(self: Ref[Browser], value: str, *, wait: Wait | None = ...) -> ActionResult[Browser]: ...
    @overload
    def fill(
        self: Ref[AsyncBrowser], value: str, *, wait: Wait | None = ...
    ) -> Awaitable[ActionResult[AsyncBrowser]]: ...
    def fill(self, value: str, *, wait: Wait | None = None) -> ActionResult[Any] | Awaitable[ActionResult[Any]]:
        """Replace the control's value."""
        _check_type("Ref.fill", "value", value, str, "a string")
        return self.browser._drive(_ops.mutate(self, "fill", {"value": value}, wait))

    @overload
    def type(self: Ref[Browser], text: str, *, wait: Wait | None = ...) -> ActionResult[Browser]: ...
    @overload
    def type(
        self: Ref[AsyncBrowser], text: str, *, wait: Wait | None = ...
    ) -> Awaitable[ActionResult[AsyncBrowser]]: ...
    def type(self, text: str, *, wait: Wait | None = None) -> ActionResult[Any] | Awaitable[ActionResult[Any]]:
        """Type text with key and input events."""
        _check_type("Ref.type", "text", text, str, "a string")
        return self.browser._drive(_ops.mutate(self, "type", {"text": text}, wait))

    @overload
    def select(self: Ref[Browser], value: str, *, wait: Wait | None = ...) -> ActionResult[Browser]: ...
    @overload
    def select(
        self: Ref[AsyncBrowser], value: str, *, wait: Wait | None = ...
    ) -> Awaitable[ActionResult[AsyncBrowser]]: ...
    def select(self, value: str, *, wait: Wait | None = None) -> ActionResult[Any] | Awaitable[ActionResult[Any]]:
        """Select an option by value (or label)."""
        _check_type("Ref.select", "value", value, str, "a string")
        return self.browser._drive(_ops.mutate(self, "select", {"value": value}, wait))

    @overload
    def check(self: Ref[Browser], *, wait: Wait | None = ...) -> ActionResult[Browser]: ...
    @overload
    def check(self: Ref[AsyncBrowser], *, wait: Wait | None = ...) -> Awaitable[ActionResult[AsyncBrowser]]: ...
    def check(self, *, wait: Wait | None = None) -> ActionResult[Any] | Awaitable[ActionResult[Any]]:
        """Make a checkbox or radio checked."""
        return self.browser._drive(_ops.mutate(self, "check", {}, wait))

    @overload
    def uncheck(self: Ref[Browser], *, wait: Wait | None = ...) -> ActionResult[Browser]: ...
    @overload
    def uncheck(self: Ref[AsyncBrowser], *, wait: Wait | None = ...) -> Awaitable[ActionResult[AsyncBrowser]]: ...
    def uncheck(self, *, wait: Wait | None = None) -> ActionResult[Any] | Awaitable[ActionResult[Any]]:
        """Make a checkbox unchecked."""
        return self.browser._drive(_ops.mutate(self, "uncheck", {}, wait))

    @overload
    def hover(self: Ref[Browser], *, wait: Wait | None = ...) -> ActionResult[Browser]: ...
    @overload
    def hover(self: Ref[AsyncBrowser], *, wait: Wait | None = ...) -> Awaitable[ActionResult[AsyncBrowser]]: ...
    def hover(self, *, wait: Wait | None = None) -> ActionResult[Any] | Awaitable[ActionResult[Any]]:
        """Move the mouse over the element."""
        return self.browser._drive(_ops.mutate(self, "hover", {}, wait))

    @overload
    def tap(self: Ref[Browser], *, wait: Wait | None = ...) -> ActionResult[Browser]: ...
    @overload
    def tap(self: Ref[AsyncBrowser], *, wait: Wait | None = ...) -> Awaitable[ActionResult[AsyncBrowser]]: ...
    def tap(self, *, wait: Wait | None = None) -> ActionResult[Any] | Awaitable[ActionResult[Any]]:
        """Tap the element with a touch event."""
        return self.browser._drive(_ops.mutate(self, "tap", {}, wait))

    @overload
    def focus(self: Ref[Browser], *, wait: Wait | None = ...) -> ActionResult[Browser]: ...
    @overload
    def focus(self: Ref[AsyncBrowser], *, wait: Wait | None = ...) -> Awaitable[ActionResult[AsyncBrowser]]: ...
    def focus(self, *, wait: Wait | None = None) -> ActionResult[Any] | Awaitable[ActionResult[Any]]:
        """Focus the element."""
        return self.browser._drive(_ops.mutate(self, "focus", {}, wait))

    @overload
    def clear(self: Ref[Browser], *, wait: Wait | None = ...) -> ActionResult[Browser]: ...
    @overload
    def clear(self: Ref[AsyncBrowser], *, wait: Wait | None = ...) -> Awaitable[ActionResult[AsyncBrowser]]: ...
    def clear(self, *, wait: Wait | None = None) -> ActionResult[Any] | Awaitable[ActionResult[Any]]:
        """Empty the control's value."""
        return self.browser._drive(_ops.mutate(self, "clear", {}, wait))

    @overload
    def scroll_into_view(self: Ref[Browser], *, wait: Wait | None = ...) -> ActionResult[Browser]: ...
    @overload
    def scroll_into_view(
        self: Ref[AsyncBrowser], *, wait: Wait | None = ...
    ) -> Awaitable[ActionResult[AsyncBrowser]]: ...
    def scroll_into_view(self, *, wait: Wait | None = None) -> ActionResult[Any] | Awaitable[ActionResult[Any]]:
        """Scroll the element into the viewport."""
        return self.browser._drive(_ops.mutate(self, "scroll_into_view", {}, wait))

    # -- reads -------------------------------------------------------------------

    @overload
    def text(self: Ref[Browser]) -> str: ...
    @overload
    def text(self: Ref[AsyncBrowser]) -> Awaitable[str]: ...
    def text(self) -> str | Awaitable[str]:
        """The element's text content."""
        return self.browser._drive(_ops.read_str(self, "text", {}))

    @overload
    def inner_text(self: Ref[Browser]) -> str: ...
    @overload
    def inner_text(self: Ref[AsyncBrowser]) -> Awaitable[str]: ...
    def inner_text(self) -> str | Awaitable[str]:
        """The element's rendered text."""
        return self.browser._drive(_ops.read_str(self, "inner_text", {}))

    @overload
    def input_value(self: Ref[Browser]) -> str: ...
    @overload
    def input_value(self: Ref[AsyncBrowser]) -> Awaitable[str]: ...
    def input_value(self) -> str | Awaitable[str]:
        """The control's current value."""
        return self.browser._drive(_ops.read_str(self, "input_value", {}))

    @overload
    def attribute(self: Ref[Browser], name: str) -> str | None: ...
    @overload
    def attribute(self: Ref[AsyncBrowser], name: str) -> Awaitable[str | None]: ...
    def attribute(self, name: str) -> str | None | Awaitable[str | None]:
        """An attribute's value, or None when absent."""
        _check_type("Ref.attribute", "name", name, str, "a string")
        return self.browser._drive(_ops.read_opt_str(self, "attribute", {"name": name}))

    @overload
    def is_visible(self: Ref[Browser]) -> bool: ...
    @overload
    def is_visible(self: Ref[AsyncBrowser]) -> Awaitable[bool]: ...
    def is_visible(self) -> bool | Awaitable[bool]:
        """Whether the element is rendered with a box."""
        return self.browser._drive(_ops.read_bool(self, "is_visible"))

    @overload
    def is_enabled(self: Ref[Browser]) -> bool: ...
    @overload
    def is_enabled(self: Ref[AsyncBrowser]) -> Awaitable[bool]: ...
    def is_enabled(self) -> bool | Awaitable[bool]:
        """Whether the element is enabled."""
        return self.browser._drive(_ops.read_bool(self, "is_enabled"))

    @overload
    def is_checked(self: Ref[Browser]) -> bool: ...
    @overload
    def is_checked(self: Ref[AsyncBrowser]) -> Awaitable[bool]: ...
    def is_checked(self) -> bool | Awaitable[bool]:
        """Whether the checkbox or radio is checked."""
        return self.browser._drive(_ops.read_bool(self, "is_checked"))

    # -- re-resolution ---------------------------------------------------------------

    @overload
    def refresh(
        self: Ref[Browser],
        *,
        role: str | None = ...,
        name: str | None = ...,
        contains: str | None = ...,
        exact: bool = ...,
    ) -> Ref[Browser]: ...
    @overload
    def refresh(
        self: Ref[AsyncBrowser],
        *,
        role: str | None = ...,
        name: str | None = ...,
        contains: str | None = ...,
        exact: bool = ...,
    ) -> Awaitable[Ref[AsyncBrowser]]: ...
    def refresh(
        self, *, role: str | None = None, name: str | None = None, contains: str | None = None, exact: bool = True
    ) -> Ref[Any] | Awaitable[Ref[Any]]:
        """Take a fresh snapshot (same spec) and resolve this ref's role and name in it.

        ``role``/``name``/``contains`` override the criteria; LookupError when not exactly one matches.
        """
        return self.browser._drive(_ops.refresh_ref(self, role, name, contains, exact))


@dataclass(frozen=True, slots=True, repr=False)
class ActionResult(Generic[B]):
    """One completed mutation: its action, target ref, snapshots before and after, and the diff."""

    action: str
    target: Ref[B] | None
    before: Snapshot[B] | None
    after: Snapshot[B] | None
    diff: SnapshotDiff | None
    raw: Mapping[str, Any] = field(compare=False)

    @property
    def changed(self) -> bool:
        """Whether the diff shows any change (False without evidence)."""
        return self.diff is not None and self.diff.changed

    @classmethod
    def from_raw(
        cls, raw: Mapping[str, Any], browser: B, target: Ref[B] | None, spec: SnapshotSpec | None = None
    ) -> ActionResult[B]:
        m = "ActionResult"
        raw = d.mapping(m, raw)
        before = d.opt_map(m, raw, "before")
        after = d.opt_map(m, raw, "after")
        diff = d.opt_map(m, raw, "diff")
        return cls(
            action=d.req_str(m, raw, "action"),
            target=target,
            before=Snapshot.from_raw(before, browser, spec) if before is not None else None,
            after=Snapshot.from_raw(after, browser, spec) if after is not None else None,
            diff=SnapshotDiff.from_raw(diff) if diff is not None else None,
            raw=raw,
        )

    def __repr__(self) -> str:
        target = self.target._label() if self.target is not None else None
        if target is None and isinstance(self.raw.get("target"), Mapping):
            target = _clip_repr(self.raw["target"].get("ref"))
        diff = (
            f"changed={self.diff.changed}, +{self.diff.added} -{self.diff.removed}"
            if self.diff is not None
            else "no diff"
        )
        return f"ActionResult(action={self.action!r}, target={target}, {diff})"


from . import _ops  # noqa: E402  (operations use the models above)
