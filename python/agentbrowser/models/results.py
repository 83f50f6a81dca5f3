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
    """A unified text diff between two snapshots, with line counts: ``additions``, ``removals``
    and ``unchanged`` lines (pyagentbrowser's names; ``added``/``removed`` are aliases)."""

    diff: str
    additions: int
    removals: int
    unchanged: int
    changed: bool
    raw: Mapping[str, Any] = field(repr=False, compare=False)

    @property
    def text(self) -> str:
        """Alias of ``diff``: the unified diff text."""
        return self.diff

    @property
    def added(self) -> int:
        """Alias of ``additions``: how many lines the later snapshot added."""
        return self.additions

    @property
    def removed(self) -> int:
        """Alias of ``removals``: how many lines the later snapshot removed."""
        return self.removals

    @classmethod
    def from_raw(cls, raw: Mapping[str, Any]) -> SnapshotDiff:
        """Decode a diff: an action's ``diff`` (DiffStats) or the ``diff`` action's data (a DiffOutput)."""
        return cls.from_wire(w.DiffStats.decode(raw), raw)

    @classmethod
    def from_wire(cls, wire: w.DiffStats | w.DiffOutput, raw: Mapping[str, Any]) -> SnapshotDiff:
        """Build from the decoded diff ``raw``."""
        return cls(
            diff=wire.diff,
            additions=wire.added,
            removals=wire.removed,
            unchanged=wire.unchanged,
            changed=wire.changed,
            raw=raw,
        )

    def __repr__(self) -> str:
        return (
            f"SnapshotDiff(changed={self.changed}, additions={self.additions}, removals={self.removals}, "
            f"unchanged={self.unchanged}, diff={clip_repr(self.diff, 120)})"
        )


@dataclass(frozen=True, slots=True)
class Dialog:
    """A JavaScript dialog the page opened: how it was answered, or (``open``) that it waits.

    ``type`` is ``alert``, ``confirm``, ``prompt`` or ``beforeunload``; alerts and beforeunload
    are accepted at once, confirm and prompt wait for :meth:`Dialogs.accept` /
    :meth:`Dialogs.dismiss` (unless ``LaunchOptions(auto_dialogs=True)``, which dismisses them).
    ``tab`` and ``default_prompt`` are known for open dialogs.
    """

    type: str
    message: str
    url: str
    accepted: bool
    open: bool = False
    """Whether it is still open, waiting for an answer (the page is paused meanwhile)."""
    tab: str | None = None
    """The tab it opened in (for open dialogs)."""
    default_prompt: str = ""
    """A prompt's default text."""

    @classmethod
    def from_wire(cls, wire: w.DialogInfo) -> Dialog:
        """Build from the decoded wire object (a dialog answered at once)."""
        return cls(type=wire.type, message=wire.message, url=wire.url, accepted=wire.accepted)

    @classmethod
    def from_raw_open(cls, raw: Mapping[str, Any]) -> Dialog:
        """Decode an open dialog's raw wire object (the ``dialog`` of a ``dialog_open`` error)."""
        return cls.from_open(w.OpenDialog.decode(raw, "dialog"))

    @classmethod
    def from_open(cls, wire: w.OpenDialog, *, open: bool = True, accepted: bool = False) -> Dialog:
        """Build from an open dialog on the wire (``open=False``: it was just answered)."""
        return cls(
            type=wire.type,
            message=wire.message,
            url=wire.url,
            accepted=accepted,
            open=open,
            tab=wire.tab,
            default_prompt=wire.default_prompt,
        )


@dataclass(frozen=True, slots=True)
class DialogStatus:
    """The dialog waiting in the active tab (``dialog``, None when none), those waiting in
    other tabs, and whether every dialog is answered at once (``auto_dialogs``)."""

    dialog: Dialog | None
    other_tabs: tuple[Dialog, ...]
    auto_dialogs: bool

    @classmethod
    def from_wire(cls, wire: w.DialogStatusOutput) -> DialogStatus:
        """Build from the decoded ``dialog_status`` data."""
        return cls(
            dialog=Dialog.from_open(wire.dialog) if wire.dialog is not None else None,
            other_tabs=tuple(Dialog.from_open(x) for x in wire.other_tabs),
            auto_dialogs=wire.auto_dialogs,
        )


@dataclass(frozen=True, slots=True)
class DialogResult:
    """A dialog answered by :meth:`Dialogs.accept` or :meth:`Dialogs.dismiss`: the dialog (now
    closed), whether it was accepted, the text a prompt returned, and a dialog the page opened
    right after (``next``, None when none)."""

    dialog: Dialog
    accepted: bool
    text: str | None
    next: Dialog | None

    @classmethod
    def from_wire(cls, wire: w.DialogAnswer) -> DialogResult:
        """Build from the decoded ``dialog_accept`` / ``dialog_dismiss`` data."""
        return cls(
            dialog=Dialog.from_open(wire.dialog, open=False, accepted=wire.accepted),
            accepted=wire.accepted,
            text=wire.text,
            next=Dialog.from_open(wire.next) if wire.next is not None else None,
        )
