"""What the blocking and the asyncio transports share: JSON-lines framing, the errors a
broken or silent connection raises, the daemon's stderr tail, and the socket peer check."""

from __future__ import annotations

import collections
import json
import os
import socket
import struct
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from .errors import BrowserError

#: Lines of the daemon's stderr kept for error messages.
STDERR_LINES = 40


def encode(payload: Mapping[str, Any]) -> bytes:
    """One request as a compact JSON line."""
    return json.dumps(payload, separators=(",", ":"), ensure_ascii=False).encode() + b"\n"


def closed_error(reason: str) -> BrowserError:
    """The error of a call on a connection that is closed or broken (code ``browser_closed``)."""
    return BrowserError(reason, code="browser_closed")


def timeout_error(action: str, seconds: float) -> BrowserError:
    """The error of a call the daemon did not answer in time (code ``timeout``)."""
    return BrowserError(
        f"no answer to `{action}` from the daemon within {seconds:.1f} s", action=action, code="timeout"
    )


class StderrTail:
    """The last lines a child wrote to stderr (bounded)."""

    def __init__(self) -> None:
        self.lines: collections.deque[str] = collections.deque(maxlen=STDERR_LINES)

    def add(self, raw: bytes) -> None:
        """Keep one raw stderr line."""
        self.lines.append(raw.decode(errors="replace").rstrip())

    def text(self) -> str:
        """The kept lines, at most 4000 characters (the most recent ones)."""
        return "\n".join(line for line in self.lines if line)[-4000:]


def exit_reason(code: int | None, tail: StderrTail) -> str:
    """Why an owned daemon's connection ended: its exit code (if known) and its stderr tail."""
    state = f"exited with code {code}" if code is not None else "closed its output"
    stderr = tail.text()
    return f"the agentbrowser daemon {state}" + (f":\n{stderr}" if stderr else "")


def check_peer(sock: socket.socket, path: Path) -> None:
    """Refuse a socket served by another user (a planted daemon could read every command)."""
    creds = sock.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, struct.calcsize("3i"))
    _pid, uid, _gid = struct.unpack("3i", creds)
    if uid != os.geteuid():
        raise BrowserError(
            f"refusing the daemon socket {path}: it is served by uid {uid}, not by you (uid {os.geteuid()})",
            code="invalid_argument",
        )
