"""agentbrowser's CLI as a gallery engine: every step is one `agentbrowser --session S ...` call,
the way an agent in a shell drives it. A target named by role and name is found in a fresh
`snapshot` (interactive first, the full tree when that lacks it) and acted on by its ref; a text
target through `find text`; a CSS target as a selector."""

from __future__ import annotations

import json
import os
import subprocess
import time
from itertools import count
from pathlib import Path
from typing import Any, Literal

from gallery.engine_api import Outcome, Target
from gallery.engines.snapshot_text import describe, find_ref

REPO = Path(__file__).resolve().parents[2]
_sessions = count()


class TargetNotFound(Exception):
    """The engine's view of the page has no element the target names."""


class AgentbrowserCli:
    """Drives `target/release/agentbrowser` (or ``binary``) in a session of its own."""

    name = "agentbrowser-cli"

    def __init__(
        self, binary: Path | None = None, session: str | None = None, timeout_ms: int = 8000, find_s: float = 4.0
    ) -> None:
        self.binary = binary or Path(os.environ.get("AGENTBROWSER_BIN") or REPO / "target" / "release" / "agentbrowser")
        self.session = session or f"gallery-cli-{os.getpid()}-{next(_sessions)}"
        self.timeout_ms = timeout_ms
        self.find_s = find_s

    def _call(self, *args: str, timeout_ms: int | None = None) -> dict[str, Any]:
        """One CLI call; its JSON envelope (a usage error that printed none becomes one)."""
        ms = timeout_ms or self.timeout_ms
        cmd = [str(self.binary), "--session", self.session, "--json", "--timeout", str(ms), *args]
        try:
            done = subprocess.run(cmd, capture_output=True, text=True, timeout=ms / 1000 + 20)
        except subprocess.TimeoutExpired:
            return {"success": False, "error": f"`{' '.join(args)}` did not answer within {ms / 1000 + 20:.0f} s"}
        lines = [line for line in done.stdout.splitlines() if line.startswith("{")]
        if lines:
            envelope: dict[str, Any] = json.loads(lines[-1])
            return envelope
        return {"success": False, "error": (done.stderr or done.stdout).strip() or f"exit status {done.returncode}"}

    def _act(self, *args: str, timeout_ms: int | None = None) -> Outcome:
        start = time.monotonic()
        env = self._call(*args, timeout_ms=timeout_ms)
        seconds = time.monotonic() - start
        if env.get("success") and (env.get("data") or {}).get("moved") is not False:
            return Outcome(True, seconds=seconds)
        if env.get("success"):  # a scroll that says it did not move
            return Outcome(False, f"did not move: {env.get('warning')}", seconds)
        code = f"[{env['code']}] " if env.get("code") else ""
        return Outcome(False, f"{code}{env.get('error')}", seconds)

    def _ref(self, target: Target) -> str:
        """The ref (or selector) to act on for ``target``: looked for again until ``find_s`` passed
        (as an agent takes a new snapshot when a menu or dialog is still opening)."""
        if target.css is not None:
            return target.css
        deadline = time.monotonic() + self.find_s
        while True:
            ref, why = self._look(target)
            if ref or time.monotonic() >= deadline:
                break
            time.sleep(0.1)
        if ref is None:
            raise TargetNotFound(why)
        return ref

    def _look(self, target: Target) -> tuple[str | None, str]:
        """One look for ``target``: its ref, or None and why not."""
        if target.text is not None:
            env = self._call("find", "text", target.text)
            matches = (env.get("data") or {}).get("matches") or []
            if len(matches) > target.nth:
                return f"@{matches[target.nth]['ref']}", ""
            return None, f"find text found no {describe(target)}: {env.get('error') or 'no match'}"
        for full in (False, True):
            env = self._call("snapshot", *(["--full"] if full else []))
            if not env.get("success"):
                return None, f"snapshot failed: {env.get('error')}"
            ref = find_ref(env["data"]["text"], target)
            if ref:
                return f"@{ref}", ""
        return None, f"the snapshot has no {describe(target)}"

    def _on(self, target: Target, *args: str, after: tuple[str, ...] = ()) -> Outcome:
        """``args`` on the element ``target`` names, then ``after``."""
        start = time.monotonic()
        try:
            ref = self._ref(target)
        except TargetNotFound as e:
            return Outcome(False, str(e), time.monotonic() - start)
        done = self._act(*args, ref, *after)
        return Outcome(done.ok, done.error, time.monotonic() - start)

    def open(self, url: str) -> Outcome:
        """Navigate the active tab to ``url``."""
        return self._act("open", url, timeout_ms=20000)

    def click(self, target: Target) -> Outcome:
        """Click the element."""
        return self._on(target, "click")

    def fill(self, target: Target, text: str) -> Outcome:
        """Replace the field's value with ``text``."""
        return self._on(target, "fill", after=(text,))

    def type_text(self, text: str) -> Outcome:
        """Type ``text`` into the focused element."""
        return self._act("keyboard", "type", text)

    def press(self, key: str) -> Outcome:
        """Press one key or chord."""
        return self._act("press", key)

    def check(self, target: Target, checked: bool = True) -> Outcome:
        """Check (or uncheck) a checkbox, radio or switch."""
        return self._on(target, "check" if checked else "uncheck")

    def select(self, target: Target, option: str) -> Outcome:
        """Pick ``option`` in a native select."""
        return self._on(target, "select", after=(option,))

    def hover(self, target: Target) -> Outcome:
        """Move the pointer over the element."""
        return self._on(target, "hover")

    def drag(self, source: Target, dest: Target) -> Outcome:
        """Drag ``source`` onto ``dest``."""
        start = time.monotonic()
        try:
            refs = (self._ref(source), self._ref(dest))
        except TargetNotFound as e:
            return Outcome(False, str(e), time.monotonic() - start)
        done = self._act("drag", *refs)
        return Outcome(done.ok, done.error, time.monotonic() - start)

    def scroll(self, direction: Literal["up", "down", "left", "right"], pixels: int) -> Outcome:
        """Scroll what the user would scroll."""
        return self._act("scroll", direction, str(pixels))

    def scroll_into_view(self, target: Target) -> Outcome:
        """Scroll until the element is in view."""
        return self._on(target, "scroll-into-view")

    def wait_text(self, text: str, timeout_s: float = 5.0) -> Outcome:
        """Wait until ``text`` shows."""
        ms = int(timeout_s * 1000)
        return self._act("wait", "--text", text, timeout_ms=ms)

    def eval(self, js: str) -> Any:
        """The JSON value of ``js`` in the page; raises when the page could not evaluate it."""
        env = self._call("eval", js)
        if not env.get("success"):
            raise RuntimeError(f"eval failed: {env.get('error')}")
        return env["data"]["result"]

    def close(self) -> None:
        """Close the session's browser and daemon."""
        self._call("close")
