"""Per-cell stdout/stderr capture and bounded text.

One routing writer per process stream is installed once (:func:`install`); it looks up a
context variable to find the buffer of the cell whose task (or ``asyncio.to_thread`` worker)
is writing, and passes every other write through to the stream it replaced.  Nothing swaps
``sys.stdout`` per cell, so a concurrent task or thread printing during a cell is untouched.

Buffers keep only a head and a tail (:class:`HeadTail`), so a cell printing gigabytes uses
bounded memory; :func:`bound_text` cuts any string the same way, with a
``[... N chars cut of M ...]`` marker in the middle.
"""

from __future__ import annotations

import contextvars
import io
import sys
import threading
from collections import deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, TextIO, cast

__all__ = ["BoundedText", "CellStreams", "HeadTail", "RoutingWriter", "bound_text", "capture", "install"]


def _marker(cut: int, total: int) -> str:
    return f"\n[... {cut} chars cut of {total} ...]\n"


@dataclass(frozen=True, slots=True)
class BoundedText:
    """A bounded text: the kept ``text``, whether it was cut, and the original size in characters."""

    text: str
    truncated: bool
    original_chars: int


def bound_text(text: str, limit: int) -> BoundedText:
    """``text`` cut to about ``limit`` characters: head and tail kept, a marker with the cut and original sizes."""
    if len(text) <= limit:
        return BoundedText(text, False, len(text))
    head = limit // 2
    tail = limit - head
    cut = len(text) - head - tail
    return BoundedText(text[:head] + _marker(cut, len(text)) + (text[-tail:] if tail else ""), True, len(text))


class HeadTail:
    """A text sink that keeps the first and the last ``keep`` characters written and counts the rest."""

    def __init__(self, keep: int) -> None:
        self.keep = max(0, keep)
        self.total = 0
        self._head: list[str] = []
        self._head_len = 0
        self._tail: deque[str] = deque()
        self._tail_len = 0
        self._last = ""
        self._lock = threading.Lock()

    def ends_with_newline(self) -> bool:
        """Whether the last character written is a newline."""
        return self._last == "\n"

    def write(self, text: str) -> int:
        """Add ``text``; returns its length (like a stream)."""
        if not text:
            return 0
        with self._lock:
            self.total += len(text)
            self._last = text[-1]
            if self._head_len < self.keep:
                take = text[: self.keep - self._head_len]
                self._head.append(take)
                self._head_len += len(take)
            piece = text[-self.keep :] if self.keep else ""
            if piece:
                self._tail.append(piece)
                self._tail_len += len(piece)
                while self._tail and self._tail_len - len(self._tail[0]) >= self.keep:
                    self._tail_len -= len(self._tail.popleft())
        return len(text)

    def render(self, limit: int, suffix: str = "", mask: Callable[[str], str] | None = None) -> BoundedText:
        """The text written plus ``suffix``, bounded to ``limit`` (``limit`` must not exceed ``keep``), masked first."""
        m = mask or (lambda s: s)
        with self._lock:
            head = "".join(self._head)
            tail = "".join(self._tail)
            total = self.total
        full = total + len(suffix)
        if total <= self.keep and full <= limit:
            return BoundedText(m(head + suffix), False, full)
        if total <= self.keep:
            cut = bound_text(m(head + suffix), limit)
            return BoundedText(cut.text, cut.truncated, full)
        h = limit // 2
        t = limit - h
        first = m(head)[:h]
        last = m(tail + suffix)[-t:] if t else ""
        return BoundedText(first + _marker(full - h - t, full) + last, True, full)


class CellStreams:
    """The capture of one cell: stdout, stderr, and both interleaved as written (``combined``)."""

    def __init__(self, keep: int) -> None:
        self.stdout = HeadTail(keep)
        self.stderr = HeadTail(keep)
        self.combined = HeadTail(keep)
        #: Set when the cell ended: later writes (a task the cell left running) pass through.
        self.closed = False

    def write(self, stream: str, text: str) -> None:
        """Record ``text`` written to ``stream`` (``stdout`` or ``stderr``)."""
        (self.stdout if stream == "stdout" else self.stderr).write(text)
        self.combined.write(text)


_CURRENT: contextvars.ContextVar[CellStreams | None] = contextvars.ContextVar("agentbrowser_cell_streams", default=None)
_INSTALL_LOCK = threading.Lock()


class RoutingWriter(io.TextIOBase):
    """A process stream that sends writes made inside a cell to that cell, everything else to ``target``."""

    def __init__(self, target: TextIO, stream: str) -> None:
        super().__init__()
        self.target = target
        self.stream = stream

    def write(self, text: str) -> int:
        """Route one write."""
        streams = _CURRENT.get()
        if streams is not None and not streams.closed:
            streams.write(self.stream, text)
            return len(text)
        return self.target.write(text)

    def flush(self) -> None:
        """Flush the passed-through stream (cell buffers need none)."""
        if _CURRENT.get() is None:
            self.target.flush()

    def writable(self) -> bool:
        """Always true."""
        return True

    def isatty(self) -> bool:
        """Whether the passed-through stream is a terminal."""
        return bool(self.target.isatty())

    def fileno(self) -> int:
        """The passed-through stream's file descriptor."""
        return self.target.fileno()

    @property
    def encoding(self) -> str:  # type: ignore[override]
        """The passed-through stream's encoding."""
        return str(getattr(self.target, "encoding", "utf-8") or "utf-8")

    @property
    def errors(self) -> str | None:  # type: ignore[override]
        """The passed-through stream's error handler."""
        value: Any = getattr(self.target, "errors", None)
        return value if isinstance(value, str) else None

    def __getattr__(self, name: str) -> Any:
        return getattr(self.target, name)


def install() -> None:
    """Install the routing writers on ``sys.stdout`` and ``sys.stderr`` unless they are already there.

    Idempotent; when something replaced a stream since (a test harness, ``redirect_stdout``),
    a new router wraps the replacement, so writes outside cells still reach it unchanged.
    """
    with _INSTALL_LOCK:
        if not isinstance(sys.stdout, RoutingWriter):
            sys.stdout = cast(TextIO, RoutingWriter(sys.stdout, "stdout"))
        if not isinstance(sys.stderr, RoutingWriter):
            sys.stderr = cast(TextIO, RoutingWriter(sys.stderr, "stderr"))


@contextmanager
def capture(streams: CellStreams) -> Iterator[CellStreams]:
    """Route this context's (this task's) stdout and stderr writes to ``streams`` while inside."""
    install()
    token = _CURRENT.set(streams)
    try:
        yield streams
    finally:
        _CURRENT.reset(token)
