"""Tab models: one tab's listing, and the results of switching to and closing a tab."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .. import _decode as d
from ..errors import NativeParseError
from ._bounded import Bounded


@dataclass(frozen=True, slots=True, repr=False)
class TabInfo(Bounded):
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
        """Decode one tab of a listing."""
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
        """Decode the ``tab_switch`` action's data."""
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
