"""The dashboard of a session (``SessionOptions(dashboard=DashboardOptions(...))``): an
``agentbrowser dashboard`` child process serving the session's live view on 127.0.0.1."""

from __future__ import annotations

import dataclasses
import json
import os
import secrets
import selectors
import subprocess
import tempfile
import time
from typing import Any
from urllib.parse import urlsplit

from .errors import BrowserError
from .options import DashboardOptions, LaunchOptions

#: How long the dashboard may take to print its URL (seconds).
START_TIMEOUT_S = 15.0


def with_dashboard_session(opts: LaunchOptions) -> LaunchOptions:
    """``opts`` with a session name when a dashboard is asked for and none is given: the dashboard
    reaches the session through its socket, which needs a name (``py-<pid>-<random>``)."""
    if opts.dashboard is None or opts.session is not None:
        return opts
    return dataclasses.replace(opts, session=f"py-{os.getpid()}-{secrets.token_hex(4)}")


class DashboardProcess:
    """A running ``agentbrowser --session NAME dashboard --no-open`` child and the URL it printed."""

    def __init__(self, binary: str, session: str, options: DashboardOptions) -> None:
        argv = [binary, "--session", session, "dashboard", "--no-open", "--port", str(options.port or 0)]
        if options.control:
            argv.append("--control")
        self.session = session
        self.control = options.control
        self._stderr = tempfile.TemporaryFile()
        self.proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=self._stderr)
        try:
            line = self._first_line()
            self.url: str = json.loads(line)["url"]
        except BaseException:
            self.stop()
            raise
        self.port: int = urlsplit(self.url).port or 0

    def _first_line(self) -> str:
        """The first line the dashboard prints (its ``{"url": ...}``), or BrowserError."""
        assert self.proc.stdout is not None
        sel = selectors.DefaultSelector()
        sel.register(self.proc.stdout, selectors.EVENT_READ)
        deadline = time.monotonic() + START_TIMEOUT_S
        buf = b""
        try:
            while b"\n" not in buf:
                left = deadline - time.monotonic()
                if left <= 0 or not sel.select(left):
                    raise BrowserError(
                        f"agentbrowser dashboard printed no URL within {START_TIMEOUT_S:.0f} s", code="timeout"
                    )
                chunk = os.read(self.proc.stdout.fileno(), 4096)
                if not chunk:
                    self.proc.wait(5)
                    raise BrowserError(
                        f"agentbrowser dashboard exited ({self.proc.returncode}) without a URL: {self._stderr_tail()}",
                        code="io_error",
                    )
                buf += chunk
        finally:
            sel.close()
        return buf.split(b"\n", 1)[0].decode()

    def _stderr_tail(self) -> str:
        self._stderr.seek(0)
        return self._stderr.read().decode(errors="replace").strip()[-2000:]

    @property
    def running(self) -> bool:
        """Whether the dashboard process still runs."""
        return self.proc.poll() is None

    def status(self) -> dict[str, Any]:
        """``running``, ``url``, ``port``, ``session`` and ``control``."""
        return {
            "running": self.running,
            "url": self.url,
            "port": self.port,
            "session": self.session,
            "control": self.control,
        }

    def stop(self, timeout: float = 5.0) -> None:
        """Stop the dashboard (SIGTERM, then SIGKILL after ``timeout``); idempotent."""
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        if self.proc.stdout is not None:
            self.proc.stdout.close()
        self._stderr.close()


def no_dashboard(session: str | None) -> dict[str, Any]:
    """The status of a browser that runs no dashboard."""
    return {"running": False, "url": None, "port": None, "session": session, "control": False}
