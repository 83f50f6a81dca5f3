"""agentbrowser's MCP server as a gallery engine: `agentbrowser mcp` over stdio, driven with the
official `mcp` client the way an MCP agent drives it. A target is found in a fresh
`browser_snapshot` (interactive first, then the full tree) and passed to the tools by its ref; a
text target that no snapshot line carries is passed as an XPath over the text. Checkboxes use
`browser_fill_form`; scrolling is the mouse wheel at the viewport's centre (`--caps all`)."""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import os
import subprocess
import threading
import time
from itertools import count
from pathlib import Path
from typing import Any, Literal

from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.types import TextContent

from gallery.engine_api import Outcome, Target
from gallery.engines.snapshot_text import describe, find_ref

REPO = Path(__file__).resolve().parents[2]
_sessions = count()
_Call = tuple[str, dict[str, Any], "concurrent.futures.Future[tuple[bool, str]]"]


def _section(answer: str, title: str) -> str:
    """The text of the answer's ``### title`` section ('' when it has none)."""
    head = f"### {title}\n"
    if head not in answer:
        return ""
    return answer.split(head, 1)[1].split("\n### ", 1)[0].strip()


class AgentbrowserMcp:
    """Drives `agentbrowser mcp` (stdio) in a session of its own; one client thread owns the link."""

    name = "agentbrowser-mcp"

    def __init__(
        self, binary: Path | None = None, session: str | None = None, timeout_ms: int = 8000, find_s: float = 4.0
    ) -> None:
        self.binary = binary or Path(os.environ.get("AGENTBROWSER_BIN") or REPO / "target" / "release" / "agentbrowser")
        self.session = session or f"gallery-mcp-{os.getpid()}-{next(_sessions)}"
        self.timeout_ms = timeout_ms
        self.find_s = find_s
        self._loop = asyncio.new_event_loop()
        self._queue: asyncio.Queue[_Call | None] | None = None
        self._ready: concurrent.futures.Future[None] = concurrent.futures.Future()
        self._thread = threading.Thread(target=self._loop.run_until_complete, args=(self._serve(),), daemon=True)
        self._thread.start()
        self._ready.result(timeout=60)

    async def _serve(self) -> None:
        """Holds the MCP session open and runs the calls queued from the engine's thread."""
        params = StdioServerParameters(
            command=str(self.binary),
            args=["--session", self.session, "--timeout", str(self.timeout_ms), "mcp", "--caps", "all"],
            env=dict(os.environ),
        )
        try:
            async with stdio_client(params) as (r, w), ClientSession(r, w) as session:
                await session.initialize()
                self._queue = asyncio.Queue()
                self._ready.set_result(None)
                while (call := await self._queue.get()) is not None:
                    tool, args, fut = call
                    try:
                        result = await session.call_tool(tool, args)
                        text = "\n".join(c.text for c in result.content if isinstance(c, TextContent))
                        fut.set_result((not result.is_error, text))
                    except Exception as e:  # the link broke: the step failed, say how
                        fut.set_result((False, f"{type(e).__name__}: {e}"))
        except Exception as e:
            if not self._ready.done():
                self._ready.set_exception(e)

    def _tool(self, tool: str, **args: Any) -> tuple[bool, str]:
        """Calls ``tool``; (not an error, the answer's text)."""
        fut: concurrent.futures.Future[tuple[bool, str]] = concurrent.futures.Future()
        assert self._queue is not None
        self._loop.call_soon_threadsafe(self._queue.put_nowait, (tool, args, fut))
        return fut.result(timeout=self.timeout_ms / 1000 + 30)

    def _act(self, tool: str, **args: Any) -> Outcome:
        start = time.monotonic()
        ok, text = self._tool(tool, **args)
        return Outcome(ok, None if ok else _section(text, "Error") or text, time.monotonic() - start)

    def _ref(self, target: Target) -> str | None:
        """The ref (or selector) for ``target``, looked for again until ``find_s`` passed."""
        if target.css is not None:
            return target.css
        deadline = time.monotonic() + self.find_s
        while True:
            for full in (False, True):
                ok, answer = self._tool("browser_snapshot", full=full)
                ref = find_ref(_section(answer, "Snapshot"), target) if ok else None
                if ref:
                    return ref
            if time.monotonic() >= deadline:
                break
            time.sleep(0.1)
        if target.text is not None and "'" not in target.text:
            return f"xpath=//*[text()[normalize-space()='{target.text}']] >> nth={target.nth}"
        return None

    def _on(self, target: Target, tool: str, key: str = "target", **args: Any) -> Outcome:
        start = time.monotonic()
        ref = self._ref(target)
        if ref is None:
            return Outcome(False, f"the snapshot has no {describe(target)}", time.monotonic() - start)
        done = self._act(tool, **{key: ref}, element=describe(target), **args)
        return Outcome(done.ok, done.error, time.monotonic() - start)

    def open(self, url: str) -> Outcome:
        """Navigate the active tab to ``url``."""
        return self._act("browser_navigate", url=url)

    def click(self, target: Target) -> Outcome:
        """Click the element."""
        return self._on(target, "browser_click")

    def fill(self, target: Target, text: str) -> Outcome:
        """Replace the field's value with ``text`` (browser_type replaces the value)."""
        return self._on(target, "browser_type", text=text)

    def type_text(self, text: str) -> Outcome:
        """Type ``text`` into the focused element, one key press a character."""
        start = time.monotonic()
        for ch in text:
            done = self._act("browser_press_key", key=ch)
            if not done.ok:
                return Outcome(False, done.error, time.monotonic() - start)
        return Outcome(True, seconds=time.monotonic() - start)

    def press(self, key: str) -> Outcome:
        """Press one key or chord."""
        return self._act("browser_press_key", key=key)

    def check(self, target: Target, checked: bool = True) -> Outcome:
        """Check (or uncheck) a checkbox, radio or switch with browser_fill_form."""
        start = time.monotonic()
        ref = self._ref(target)
        if ref is None:
            return Outcome(False, f"the snapshot has no {describe(target)}", time.monotonic() - start)
        kind = "radio" if target.role == "radio" else "checkbox"
        field = {
            "target": ref,
            "element": describe(target),
            "name": target.name or target.text or "",
            "type": kind,
            "value": "true" if checked else "false",
        }
        done = self._act("browser_fill_form", fields=[field])
        return Outcome(done.ok, done.error, time.monotonic() - start)

    def select(self, target: Target, option: str) -> Outcome:
        """Pick ``option`` in a select."""
        return self._on(target, "browser_select_option", values=[option])

    def hover(self, target: Target) -> Outcome:
        """Move the pointer over the element."""
        return self._on(target, "browser_hover")

    def drag(self, source: Target, dest: Target) -> Outcome:
        """Drag ``source`` onto ``dest``."""
        start = time.monotonic()
        refs = (self._ref(source), self._ref(dest))
        if refs[0] is None or refs[1] is None:
            missing = source if refs[0] is None else dest
            return Outcome(False, f"the snapshot has no {describe(missing)}", time.monotonic() - start)
        done = self._act(
            "browser_drag", startRef=refs[0], endRef=refs[1], startElement=describe(source), endElement=describe(dest)
        )
        return Outcome(done.ok, done.error, time.monotonic() - start)

    def scroll(self, direction: Literal["up", "down", "left", "right"], pixels: int) -> Outcome:
        """The mouse wheel at the viewport's centre, as a user scrolls what is in front of them."""
        start = time.monotonic()
        size = self.eval("[innerWidth, innerHeight]")
        moved = self._act("browser_mouse_move_xy", x=size[0] / 2, y=size[1] / 2)
        if not moved.ok:
            return Outcome(False, moved.error, time.monotonic() - start)
        dx = {"left": -pixels, "right": pixels}.get(direction, 0)
        dy = {"up": -pixels, "down": pixels}.get(direction, 0)
        done = self._act("browser_mouse_wheel", deltaX=dx, deltaY=dy)
        return Outcome(done.ok, done.error, time.monotonic() - start)

    def scroll_into_view(self, target: Target) -> Outcome:
        """Bring the element into view (hovering it scrolls it there: MCP has no scroll tool)."""
        return self._on(target, "browser_hover")

    def wait_text(self, text: str, timeout_s: float = 5.0) -> Outcome:
        """Wait until ``text`` shows, at most ``timeout_s``."""
        return self._act("browser_wait_for", text=text, timeout=int(timeout_s * 1000))

    def eval(self, js: str) -> Any:
        """The JSON value of ``js`` in the page; raises when the page could not evaluate it."""
        ok, answer = self._tool("browser_evaluate", function=f"() => ({js})")
        if not ok:
            raise RuntimeError(f"browser_evaluate failed: {answer}")
        return json.loads(_section(answer, "Result"))

    def close(self) -> None:
        """Close the browser, end the server, and stop the session's daemon (which the server
        leaves running for the next client)."""
        try:
            self._tool("browser_close")
        finally:
            assert self._queue is not None
            self._loop.call_soon_threadsafe(self._queue.put_nowait, None)
            self._thread.join(timeout=30)
            subprocess.run([str(self.binary), "--session", self.session, "close"], capture_output=True, timeout=30)
