"""Results of page operations: where a navigation ended, a satisfied wait, a snapshot diff."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .. import _decode as d
from ._bounded import Bounded, clip_repr


@dataclass(frozen=True, slots=True, repr=False)
class Navigation(Bounded):
    """Where a navigation (open, back, forward, reload) ended: URL, title, HTTP status."""

    url: str
    title: str
    status: int | None
    raw: Mapping[str, Any] = field(repr=False, compare=False)

    @classmethod
    def from_raw(cls, raw: Mapping[str, Any]) -> Navigation:
        """Decode a navigation's data."""
        m = "Navigation"
        raw = d.mapping(m, raw)
        return cls(
            url=d.req_str(m, raw, "url"),
            title=d.req_str(m, raw, "title"),
            status=d.opt_int(m, raw, "status"),
            raw=raw,
        )


@dataclass(frozen=True, slots=True, repr=False)
class WaitResult(Bounded):
    """A satisfied ``page.wait``: ``matched`` and the time it took."""

    matched: bool
    elapsed_ms: int
    raw: Mapping[str, Any] = field(repr=False, compare=False)

    @classmethod
    def from_raw(cls, raw: Mapping[str, Any]) -> WaitResult:
        """Decode the ``wait`` action's data."""
        m = "WaitResult"
        raw = d.mapping(m, raw)
        return cls(matched=d.opt_bool(m, raw, "matched", True), elapsed_ms=d.req_int(m, raw, "elapsedMs"), raw=raw)


@dataclass(frozen=True, slots=True, repr=False)
class SnapshotDiff(Bounded):
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
        """Decode the ``diff`` action's data."""
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
            f"unchanged={self.unchanged}, diff={clip_repr(self.diff, 120)})"
        )
