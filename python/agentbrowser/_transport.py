"""Blocking JSON-lines transport to the daemon (what both transports share is in ``_wire``).

Both speak to ``agentbrowser serve --stdio`` (a child process the client owns) or to a
session's Unix socket.  Responses are matched to requests by ``id``: an answer nobody
waits for any more (its caller timed out or was cancelled) is dropped.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import os
import select
import socket
import subprocess
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from ._wire import StderrTail, check_peer, closed_error, encode, exit_reason, timeout_error

_CHUNK = 1 << 20


# ---------------------------------------------------------------------------
# Blocking transport


class SyncTransport:
    """Blocking request/response over a pair of file descriptors.

    Thread-safe: a lock makes each write-and-wait-for-answer exclusive, so threads
    sharing one transport are served one at a time and never see each other's answers.
    """

    def __init__(
        self,
        rfd: int,
        wfd: int,
        *,
        describe_eof: Callable[[], str],
        on_close: Callable[[], None],
        on_release: Callable[[], None] = lambda: None,
    ) -> None:
        self._rfd = rfd
        self._wfd = wfd
        self._describe_eof = describe_eof
        self._on_close = on_close
        self._on_release = on_release
        self._buf = bytearray()
        self._lock = threading.Lock()
        self._ids = itertools.count(1)
        self._broken: str | None = None
        self._closed = False

    def next_id(self) -> int:
        """The next request id."""
        return next(self._ids)

    @property
    def broken(self) -> str | None:
        """Why the connection is unusable, or None."""
        return self._broken

    def request(self, payload: Mapping[str, Any], deadline_s: float) -> dict[str, Any]:
        """Send ``payload`` and return the answer with the same id."""
        action = str(payload.get("action"))
        line = encode(payload)
        with self._lock:
            if self._broken is not None:
                raise closed_error(self._broken)
            rid = payload.get("id")
            try:
                view = memoryview(line)
                while view:
                    n = os.write(self._wfd, view)
                    view = view[n:]
            except OSError:
                raise closed_error(self._fail()) from None
            end = time.monotonic() + deadline_s
            while True:
                raw = self._readline(end, action, deadline_s)
                try:
                    message = json.loads(raw)
                except ValueError:
                    continue
                if isinstance(message, dict) and message.get("id") == rid:
                    return message

    def _readline(self, end: float, action: str, deadline_s: float) -> bytes:
        scan = 0
        while True:
            i = self._buf.find(b"\n", scan)
            if i >= 0:
                line = bytes(self._buf[:i])
                del self._buf[: i + 1]
                return line
            scan = len(self._buf)
            remaining = end - time.monotonic()
            if remaining <= 0:
                raise timeout_error(action, deadline_s)
            ready, _, _ = select.select([self._rfd], [], [], remaining)
            if not ready:
                continue
            try:
                chunk = os.read(self._rfd, _CHUNK)
            except OSError:
                chunk = b""
            if not chunk:
                raise closed_error(self._fail())
            self._buf += chunk

    def _fail(self) -> str:
        if self._broken is None:
            self._broken = self._describe_eof()
        return self._broken

    def close(self) -> None:
        """Close the connection (an owned daemon sees EOF and exits); idempotent.

        First wakes any thread waiting for an answer (EOF), then releases the descriptors
        once no thread uses them any more.
        """
        if self._closed:
            return
        self._closed = True
        if self._broken is None:
            self._broken = "the connection to the daemon is closed"
        self._on_close()
        acquired = self._lock.acquire(timeout=5.0)
        try:
            self._on_release()
        finally:
            if acquired:
                self._lock.release()


class OwnedProcess:
    """The daemon child process of a launched browser, with its stderr tail."""

    def __init__(self, argv: Sequence[str]) -> None:
        # Not a new session and no preexec hook: the child ends when its stdin reaches
        # EOF, which happens whenever this process ends, however it ends.
        self.proc = subprocess.Popen(
            list(argv),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            bufsize=0,
            close_fds=True,
            start_new_session=False,
        )
        self.tail = StderrTail()
        self._drain = threading.Thread(target=self._read_stderr, name="agentbrowser-stderr", daemon=True)
        self._drain.start()

    def _read_stderr(self) -> None:
        stream = self.proc.stderr
        if stream is None:
            return
        with contextlib.suppress(OSError, ValueError):
            for raw in iter(stream.readline, b""):
                self.tail.add(raw)

    def describe_eof(self) -> str:
        """Why the daemon's output ended: its exit code and stderr tail."""
        try:
            code: int | None = self.proc.wait(timeout=2)
        except subprocess.TimeoutExpired:
            code = None
        self._drain.join(timeout=1)
        return exit_reason(code, self.tail)

    def transport(self) -> SyncTransport:
        """A blocking transport over the child's stdin and stdout."""
        assert self.proc.stdin is not None and self.proc.stdout is not None
        return SyncTransport(
            self.proc.stdout.fileno(),
            self.proc.stdin.fileno(),
            describe_eof=self.describe_eof,
            on_close=self._close_stdin,
        )

    def _close_stdin(self) -> None:
        if self.proc.stdin is not None:
            with contextlib.suppress(OSError):
                self.proc.stdin.close()

    def finish(self, timeout_s: float) -> int | None:
        """Wait for the child to exit after EOF; kill it past ``timeout_s``. Returns its exit code."""
        self._close_stdin()
        try:
            code: int | None = self.proc.wait(timeout=timeout_s)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            code = self.proc.wait()
        for stream in (self.proc.stdout, self.proc.stderr):
            if stream is not None:
                with contextlib.suppress(OSError):
                    stream.close()
        return code


def connect_socket(path: Path) -> SyncTransport:
    """A blocking transport over a session's Unix socket (OSError when nothing listens)."""
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        sock.connect(str(path))
        check_peer(sock, path)
    except BaseException:
        sock.close()
        raise
    fd = sock.fileno()

    def shutdown() -> None:
        with contextlib.suppress(OSError):
            sock.shutdown(socket.SHUT_RDWR)

    return SyncTransport(
        fd,
        fd,
        describe_eof=lambda: f"the session daemon closed the socket {path}",
        on_close=shutdown,
        on_release=sock.close,
    )
