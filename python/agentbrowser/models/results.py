"""Results of page operations: where a navigation ended, a satisfied wait, a snapshot diff."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .. import _wire_types as w
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
        """Decode a navigation's data (an OpenOutput; a Location is one without ``status``)."""
        return cls.from_wire(w.OpenOutput.decode(raw), raw)

    @classmethod
    def from_wire(cls, wire: w.OpenOutput | w.Location, raw: Mapping[str, Any]) -> Navigation:
        """Build from the decoded ``open`` (or ``back``/``forward``/``reload``) data ``raw``."""
        status = wire.status if isinstance(wire, w.OpenOutput) else None
        return cls(url=wire.url, title=wire.title, status=status, raw=raw)


@dataclass(frozen=True, slots=True, repr=False)
class WaitResult(Bounded):
    """A satisfied ``page.wait``: ``matched`` and the time it took."""

    matched: bool
    elapsed_ms: int
    raw: Mapping[str, Any] = field(repr=False, compare=False)

    @classmethod
    def from_raw(cls, raw: Mapping[str, Any]) -> WaitResult:
        """Decode the ``wait`` action's data."""
        wire = w.WaitOutput.decode(raw)
        return cls(matched=wire.matched, elapsed_ms=wire.elapsed_ms, raw=raw)


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
        """Decode a diff: an action's ``diff`` (DiffStats) or the ``diff`` action's data (a DiffOutput)."""
        return cls.from_wire(w.DiffStats.decode(raw), raw)

    @classmethod
    def from_wire(cls, wire: w.DiffStats | w.DiffOutput, raw: Mapping[str, Any]) -> SnapshotDiff:
        """Build from the decoded diff ``raw``."""
        return cls(
            diff=wire.diff,
            added=wire.added,
            removed=wire.removed,
            unchanged=wire.unchanged,
            changed=wire.changed,
            raw=raw,
        )

    def __repr__(self) -> str:
        return (
            f"SnapshotDiff(changed={self.changed}, added={self.added}, removed={self.removed}, "
            f"unchanged={self.unchanged}, diff={clip_repr(self.diff, 120)})"
        )


@dataclass(frozen=True, slots=True)
class Dialog:
    """A JavaScript dialog the page opened during an action, and how the engine answered it."""

    type: str
    message: str
    url: str
    accepted: bool

    @classmethod
    def from_wire(cls, wire: w.DialogInfo) -> Dialog:
        """Build from the decoded wire object."""
        return cls(type=wire.type, message=wire.message, url=wire.url, accepted=wire.accepted)
