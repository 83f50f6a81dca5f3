"""Blocking JSON-lines transport to the daemon, and what both transports share.

Both speak to ``agentbrowser serve --stdio`` (a child process the client owns) or to a
session's Unix socket.  Responses are matched to requests by ``id``: an answer nobody
waits for any more (its caller timed out or was cancelled) is dropped.
"""

from __future__ import annotations

import collections
import contextlib
import itertools
import json
import os
import select
import socket
import struct
import subprocess
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from .errors import BrowserError

#: Lines of the daemon's stderr kept for error messages.
STDERR_LINES = 40
_CHUNK = 1 << 20


def _encode(payload: Mapping[str, Any]) -> bytes:
    return json.dumps(payload, separators=(",", ":"), ensure_ascii=False).encode() + b"\n"


def _closed_error(reason: str) -> BrowserError:
    return BrowserError(reason, code="browser_closed")


def _timeout_error(action: str, seconds: float) -> BrowserError:
    return BrowserError(
        f"no answer to `{action}` from the daemon within {seconds:.1f} s", action=action, code="timeout"
    )


def daemon_argv(binary: str, session: str | None) -> list[str]:
    """The command line of an owned daemon speaking over stdio."""
    argv = [binary]
    if session is not None:
        argv += ["--session", session]
    return argv + ["serve", "--stdio"]


class _StderrTail:
    """The last lines a child wrote to stderr (bounded)."""

    def __init__(self) -> None:
        self.lines: collections.deque[str] = collections.deque(maxlen=STDERR_LINES)

    def add(self, raw: bytes) -> None:
        self.lines.append(raw.decode(errors="replace").rstrip())

    def text(self) -> str:
        return "\n".join(line for line in self.lines if line)[-4000:]


def _exit_reason(code: int | None, tail: _StderrTail) -> str:
    state = f"exited with code {code}" if code is not None else "closed its output"
    stderr = tail.text()
    return f"the agentbrowser daemon {state}" + (f":\n{stderr}" if stderr else "")


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
        return next(self._ids)

    @property
    def broken(self) -> str | None:
        """Why the connection is unusable, or None."""
        return self._broken

    def request(self, payload: Mapping[str, Any], deadline_s: float) -> dict[str, Any]:
        """Send ``payload`` and return the answer with the same id."""
        action = str(payload.get("action"))
        line = _encode(payload)
        with self._lock:
            if self._broken is not None:
                raise _closed_error(self._broken)
            rid = payload.get("id")
            try:
                view = memoryview(line)
                while view:
                    n = os.write(self._wfd, view)
                    view = view[n:]
            except OSError:
                raise _closed_error(self._fail()) from None
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
                raise _timeout_error(action, deadline_s)
            ready, _, _ = select.select([self._rfd], [], [], remaining)
            if not ready:
                continue
            try:
                chunk = os.read(self._rfd, _CHUNK)
            except OSError:
                chunk = b""
            if not chunk:
                raise _closed_error(self._fail())
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
        self.tail = _StderrTail()
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
        try:
            code: int | None = self.proc.wait(timeout=2)
        except subprocess.TimeoutExpired:
            code = None
        self._drain.join(timeout=1)
        return _exit_reason(code, self.tail)

    def transport(self) -> SyncTransport:
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


def check_peer(sock: socket.socket, path: Path) -> None:
    """Refuse a socket served by another user (a planted daemon could read every command)."""
    creds = sock.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, struct.calcsize("3i"))
    _pid, uid, _gid = struct.unpack("3i", creds)
    if uid != os.geteuid():
        raise BrowserError(
            f"refusing the daemon socket {path}: it is served by uid {uid}, not by you (uid {os.geteuid()})",
            code="invalid_argument",
        )


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


def start_session_daemon(binary: str, session: str, timeout_s: float) -> None:
    """Start a session's daemon the way the CLI does: run ``agentbrowser --session NAME status``."""
    try:
        done = subprocess.run(
            [binary, "--session", session, "status"],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            timeout=timeout_s,
            check=False,
        )
    except subprocess.TimeoutExpired:
        raise BrowserError(
            f"`agentbrowser --session {session} status` did not finish within {timeout_s:.0f} s",
            code="timeout",
        ) from None
    if done.returncode != 0:
        err = done.stderr.decode(errors="replace").strip()[-2000:]
        raise BrowserError(
            f"`agentbrowser --session {session} status` failed with code {done.returncode}"
            + (f": {err}" if err else ""),
            code="browser_closed",
        )
