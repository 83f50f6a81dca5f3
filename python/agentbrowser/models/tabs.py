"""Tab models: one tab's listing, and the results of switching to and closing a tab."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .. import _decode as d
from .. import _wire_types as w
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
        return cls.from_wire(w.TabInfo.decode(raw), raw)

    @classmethod
    def from_wire(cls, wire: w.TabInfo, raw: Mapping[str, Any]) -> TabInfo:
        """Build from one decoded tab ``raw``."""
        return cls(**_tab_fields("TabInfo", wire, raw))


def _tab_fields(m: str, wire: w.TabInfo, raw: Mapping[str, Any]) -> dict[str, Any]:
    return {
        "id": wire.id,
        "url": wire.url,
        "title": wire.title,
        "label": wire.label,
        "active": wire.active,
        "target_id": wire.target_id,
        "raw": raw,
    }


@dataclass(frozen=True, slots=True, repr=False)
class TabSwitchResult(TabInfo):
    """The selected tab, plus whether it was revived and whether a dialog blocked it."""

    revived: bool = False
    dialog_blocked: bool = False

    @classmethod
    def from_raw(cls, raw: Mapping[str, Any]) -> TabSwitchResult:
        """Decode the ``tab_switch`` action's data (``revived``: its crashed or hung page was
        recovered; ``dialog_blocked``: a confirm or prompt waits in the tab)."""
        m = "TabSwitchResult"
        wire = w.TabInfo.decode(raw)
        return cls(
            **_tab_fields(m, wire, raw),
            revived=bool(wire.revived),
            dialog_blocked=bool(wire.dialog_blocked),
        )


@dataclass(frozen=True, slots=True, repr=False)
class TabCloseResult(TabInfo):
    """The closed tab's fields, plus ``closed``, ``active_tab_revived`` and the new active tab."""

    closed: bool = True
    active_tab_revived: bool = False
    active_tab: TabInfo | None = None

    @classmethod
    def from_raw(cls, raw: Mapping[str, Any]) -> TabCloseResult:
        """Decode the ``tab_close`` data: the closed tab as it was and the tab active now."""
        m = "TabCloseResult"
        wire = w.TabCloseOutput.decode(raw)
        fields = _tab_fields(m, wire.tab, raw["tab"])
        return cls(
            **{**fields, "id": wire.closed, "active": False, "raw": raw},
            closed=True,
            active_tab_revived=d.opt_bool(m, raw, "activeTabRevived"),
            active_tab=TabInfo.from_wire(wire.active, raw["active"]) if wire.active is not None else None,
        )


@dataclass(frozen=True, slots=True, repr=False)
class FrameInfo(Bounded):
    """One frame of a tab (``frames``): id, parent, name, URL, depth and process flags."""

    id: str
    name: str
    url: str
    parent_frame_id: str | None
    depth: int
    out_of_process: bool
    cross_origin: bool
    raw: Mapping[str, Any] = field(repr=False, compare=False)

    @classmethod
    def from_wire(cls, wire: w.FrameInfo, raw: Mapping[str, Any]) -> FrameInfo:
        """Build from one decoded frame ``raw``."""
        return cls(
            id=wire.id,
            name=wire.name,
            url=wire.url,
            parent_frame_id=wire.parent_id,
            depth=wire.depth,
            out_of_process=wire.out_of_process,
            cross_origin=wire.cross_origin,
            raw=raw,
        )
