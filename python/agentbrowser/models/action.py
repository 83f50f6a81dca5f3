"""The :class:`ActionResult` of one completed mutation, with its evidence."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Generic

from .. import _wire_types as w
from ._bounded import clip_repr
from ._client import B, C
from .diagnostics import ConsoleMessage, PageError
from .files import FileChooser, UploadedFile, uploaded
from .results import Dialog, SnapshotDiff
from .snapshot import Snapshot
from .tabs import TabInfo

if TYPE_CHECKING:
    from .ref import Ref


@dataclass(frozen=True, slots=True, repr=False)
class ActionResult(Generic[B]):
    """One completed mutation: its action, target ref, snapshots before and after, and the diff."""

    action: str
    target: Ref[B] | None
    before: Snapshot[B] | None
    after: Snapshot[B] | None
    diff: SnapshotDiff | None
    raw: Mapping[str, Any] = field(compare=False)
    dialogs: tuple[Dialog, ...] = ()
    """JavaScript dialogs the page opened during the action and that were answered at once
    (alerts and beforeunload accepted; with ``auto_dialogs`` confirm and prompt dismissed)."""
    open_dialog: Dialog | None = None
    """A confirm or prompt the action opened that waits for an answer (``browser.dialogs``);
    the page is paused until then, so ``before``, ``after`` and ``diff`` are None."""
    console_errors: tuple[ConsoleMessage, ...] = ()
    """Console messages of level ``error`` logged during the action (at most 10)."""
    page_errors: tuple[PageError, ...] = ()
    """Uncaught exceptions and unhandled rejections of the page during the action (at most 10)."""
    files: tuple[UploadedFile, ...] = ()
    """``upload``: the files the input holds afterwards, as the page sees them."""
    file_chooser: FileChooser | None = None
    """A file chooser the action opened, waiting for ``page.upload(None, files)``."""
    opened_tabs: tuple[TabInfo, ...] = ()
    """Tabs the page opened during the action (``window.open``, a ``target=_blank`` link);
    they are listed by ``tabs.list()`` and not made active."""
    closed_tab: str | None = None
    """The tab the action ran in, when its page closed it during the action (``window.close()``
    in a click handler): the action was performed, ``after`` and ``diff`` are None, and another
    tab is active now."""
    note: str | None = None
    """What the engine says besides about how the action went (for example that its tab closed)."""

    @property
    def changed(self) -> bool:
        """Whether the diff shows any change (False without evidence)."""
        return self.diff is not None and self.diff.changed

    @classmethod
    def from_raw(
        cls: type[ActionResult[C]], raw: Mapping[str, Any], browser: C, target: Ref[C] | None
    ) -> ActionResult[C]:
        """Decode a mutation's data; its snapshots are bound to ``browser``."""
        return cls.from_wire(w.ActionOutput.decode(raw), raw, browser, target)

    @classmethod
    def from_wire(
        cls: type[ActionResult[C]], wire: w.ActionOutput, raw: Mapping[str, Any], browser: C, target: Ref[C] | None
    ) -> ActionResult[C]:
        """Build from the decoded mutation data ``raw``; its snapshots are bound to ``browser``."""
        files, chooser = uploaded(wire)
        return cls(
            action=wire.action,
            target=target,
            before=Snapshot.from_wire(wire.before, raw["before"], browser) if wire.before is not None else None,
            after=Snapshot.from_wire(wire.after, raw["after"], browser) if wire.after is not None else None,
            diff=SnapshotDiff.from_wire(wire.diff, raw["diff"]) if wire.diff is not None else None,
            raw=raw,
            dialogs=tuple(Dialog.from_wire(d) for d in wire.dialogs or ()),
            open_dialog=Dialog.from_open(wire.open_dialog) if wire.open_dialog is not None else None,
            console_errors=tuple(
                ConsoleMessage.from_wire(m, r)
                for m, r in zip(wire.console_errors or (), raw.get("consoleErrors") or (), strict=True)
            ),
            page_errors=tuple(
                PageError.from_wire(e, r)
                for e, r in zip(wire.page_errors or (), raw.get("pageErrors") or (), strict=True)
            ),
            files=files,
            file_chooser=chooser,
            opened_tabs=tuple(
                TabInfo.from_wire(t, r)
                for t, r in zip(wire.opened_tabs or (), raw.get("openedTabs") or (), strict=True)
            ),
            closed_tab=wire.closed_tab,
            note=wire.note,
        )

    def __repr__(self) -> str:
        target = self.target._label() if self.target is not None else None
        if target is None and isinstance(self.raw.get("target"), Mapping):
            target = clip_repr(self.raw["target"].get("ref"))
        diff = (
            f"changed={self.diff.changed}, +{self.diff.additions} -{self.diff.removals}"
            if self.diff is not None
            else "no diff"
        )
        logged = ""
        if self.console_errors or self.page_errors:
            logged = f", console_errors={len(self.console_errors)}, page_errors={len(self.page_errors)}"
        return f"{type(self).__name__}(action={self.action!r}, target={target}, {diff}{logged})"
