"""Diagnostics: console messages and page errors, read from the tab's bounded buffers.

:class:`ConsoleLog` and :class:`ErrorLog` are immutable sequences (of :class:`ConsoleMessage`
and :class:`PageError`) that also say which tab was read, how many entries fell out of the
buffer before the read (``dropped``) and whether the read cleared it.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Generic, Literal, TypeVar, overload

from .. import _wire_types as w
from ._bounded import Bounded, clip_repr

#: The severities a message can have (CDP's names), least severe first.
LogLevel = Literal["verbose", "info", "warning", "error"]

#: What ``console(level=...)`` accepts: the console's method names and the CDP level names.
ConsoleLevel = Literal["verbose", "debug", "info", "log", "warning", "warn", "error"]

#: Every accepted ``level``, in the order of the protocol.
CONSOLE_LEVELS: tuple[ConsoleLevel, ...] = ("verbose", "debug", "info", "log", "warning", "warn", "error")


@dataclass(frozen=True, slots=True, repr=False)
class ConsoleMessage(Bounded):
    """One console message: the console method (``type``), its text as the console shows it,
    its ``level``, and where it was logged (1-based ``line`` and ``column``; None when unknown).

    ``raw`` holds the whole native message: ``source`` (``console``, or the browser's source
    such as ``network``), ``args`` (each argument rendered), ``timestamp`` and ``truncated``.
    """

    type: str
    text: str
    level: LogLevel
    url: str
    line: int | None
    column: int | None
    raw: Mapping[str, Any] = field(repr=False, compare=False)

    @classmethod
    def from_wire(cls, wire: w.ConsoleMessage, raw: Mapping[str, Any]) -> ConsoleMessage:
        """Build from the decoded message ``raw``."""
        return cls(
            type=wire.type,
            text=wire.text,
            level=wire.level,
            url=wire.url,
            line=wire.line,
            column=wire.column,
            raw=raw,
        )


@dataclass(frozen=True, slots=True, repr=False)
class PageError(Bounded):
    """An uncaught exception (``kind="exception"``) or unhandled rejection (``"rejection"``):
    its message (``TypeError: x is not a function``), its stack (one ``at ...`` frame a line),
    and where it was thrown (1-based ``line`` and ``column``)."""

    kind: Literal["exception", "rejection"]
    message: str
    stack: str
    url: str
    line: int | None
    column: int | None
    raw: Mapping[str, Any] = field(repr=False, compare=False)

    @classmethod
    def from_wire(cls, wire: w.PageError, raw: Mapping[str, Any]) -> PageError:
        """Build from the decoded error ``raw``."""
        return cls(
            kind=wire.kind,
            message=wire.message,
            stack=wire.stack,
            url=wire.url,
            line=wire.line,
            column=wire.column,
            raw=raw,
        )


T = TypeVar("T")


class _Entries(ABC, Generic[T]):
    """Base: an immutable sequence of the entries one read returned, with a short repr."""

    __slots__ = ()
    tab: str
    dropped: int
    cleared: bool

    @abstractmethod
    def _entries(self) -> tuple[T, ...]:
        """The entries, oldest first (each log names its own field)."""

    def __len__(self) -> int:
        return len(self._entries())

    def __iter__(self) -> Iterator[T]:
        return iter(self._entries())

    @overload
    def __getitem__(self, i: int) -> T: ...
    @overload
    def __getitem__(self, i: slice) -> tuple[T, ...]: ...
    def __getitem__(self, i: int | slice) -> T | tuple[T, ...]:
        return self._entries()[i]

    def __repr__(self) -> str:
        return (
            f"{type(self).__name__}(tab={self.tab!r}, entries={clip_repr(self._entries())}, "
            f"dropped={self.dropped}, cleared={self.cleared})"
        )


@dataclass(frozen=True, slots=True, repr=False)
class ConsoleLog(_Entries[ConsoleMessage]):
    """The console messages of one read, oldest first: a sequence of :class:`ConsoleMessage`.

    ``dropped`` counts the messages logged since the last clear that fell out of the tab's
    buffer (it keeps the newest 500 and 256 KiB) before this read.
    """

    messages: tuple[ConsoleMessage, ...]
    tab: str
    dropped: int
    cleared: bool
    raw: Mapping[str, Any] = field(compare=False)

    @classmethod
    def from_wire(cls, wire: w.ConsoleOutput, raw: Mapping[str, Any]) -> ConsoleLog:
        """Build from the decoded ``console`` data ``raw``."""
        messages = tuple(ConsoleMessage.from_wire(m, r) for m, r in zip(wire.messages, raw["messages"], strict=True))
        return cls(messages=messages, tab=wire.tab, dropped=wire.dropped, cleared=wire.cleared, raw=raw)

    @property
    def before_navigation(self) -> int:
        """How many messages the tab's earlier pages logged: the first ones of the log, or those left out by
        ``since_navigation=True``."""
        return w.ConsoleOutput.decode(self.raw).before_navigation

    def _entries(self) -> tuple[ConsoleMessage, ...]:
        return self.messages


@dataclass(frozen=True, slots=True, repr=False)
class ErrorLog(_Entries[PageError]):
    """The page errors of one read, oldest first: a sequence of :class:`PageError`.

    ``dropped`` counts the errors thrown since the last clear that fell out of the tab's
    buffer (it keeps the newest 200 and 256 KiB) before this read.
    """

    errors: tuple[PageError, ...]
    tab: str
    dropped: int
    cleared: bool
    raw: Mapping[str, Any] = field(compare=False)

    @classmethod
    def from_wire(cls, wire: w.ErrorsOutput, raw: Mapping[str, Any]) -> ErrorLog:
        """Build from the decoded ``errors`` data ``raw``."""
        errors = tuple(PageError.from_wire(e, r) for e, r in zip(wire.errors, raw["errors"], strict=True))
        return cls(errors=errors, tab=wire.tab, dropped=wire.dropped, cleared=wire.cleared, raw=raw)

    def _entries(self) -> tuple[PageError, ...]:
        return self.errors


def logged_errors(data: Mapping[str, Any]) -> tuple[tuple[ConsoleMessage, ...], tuple[PageError, ...]]:
    """The ``consoleErrors`` and ``pageErrors`` of an action's data (or of a failed action's
    ``action_transition_failed`` data), decoded; empty when it has none."""
    console = data.get("consoleErrors") or []
    errors = data.get("pageErrors") or []
    return (
        tuple(ConsoleMessage.from_wire(w.ConsoleMessage.decode(r, "consoleErrors"), r) for r in console),
        tuple(PageError.from_wire(w.PageError.decode(r, "pageErrors"), r) for r in errors),
    )
