"""Playwright for Python as a gallery engine: a reference, used the way a Playwright user writes it.

Elements are found with ``page.get_by_role(role, name=...)`` (the whole name, in any case: the
tasks write names with CSS ``text-transform`` applied, as Chromium shows them; a named
``generic``, which Playwright never names, by ``get_by_label(name, exact=True)``),
``get_by_text(text, exact=True)`` or ``page.locator(css)`` (then ``.nth(n)``), and acted on with ``click``, ``fill``,
``check``/``uncheck``, ``select_option(label=...)``, ``hover``, ``drag_to`` and
``scroll_into_view_if_needed``: Playwright's auto-waits and actionability checks (visible, stable,
enabled, receiving events) are what make it a reference. Locators are the page's, except when the
element is already in a frame and not in the page: then that frame's (where a Playwright user
would write ``frame_locator``). Default timeout 10 s. ``scroll`` puts the
pointer in the middle of the viewport and turns the wheel (``mouse.wheel``), then lets two frames
pass so that the scroll has landed; ``wait_text`` is ``get_by_text(text).first.wait_for()`` on the
page (Playwright's locators pierce open shadow roots but not frames). A step is a success claim
when the call returns without an exception.

Playwright (pinned in ``bench/gallery_peers.sh``) lives in its own virtualenv,
``target/peers/playwright-venv``; this module's :class:`PlaywrightEngine` runs it there in a worker
process (this file run as a script, JSON lines on its stdin and stdout), so the runner's Python
needs no Playwright, and a crash or a hang of the worker is a failed step, not a failed run. The
browser is Debian's ``/usr/bin/chromium`` (``executable_path``), headless, ``--no-sandbox``;
Playwright's own browsers are never downloaded.
"""

from __future__ import annotations

import json
import os
import queue
import re
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any, Literal

from gallery.engine_api import Outcome, Target

REPO = Path(__file__).resolve().parents[2]
VENV_PYTHON = REPO / "target" / "peers" / "playwright-venv" / "bin" / "python"
CHROMIUM = "/usr/bin/chromium"
#: Chromium's flags: no sandbox (we run as root), and nothing that reaches the network on its own.
BROWSER_ARGS = ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"]
#: Playwright's timeout for every wait, action and navigation (ms).
DEFAULT_TIMEOUT_MS = 10_000
#: The longest the worker may take over one step before it is killed (s).
STEP_DEADLINE_S = 60.0
#: Two animation frames: a wheel's scroll has been applied once they have passed.
TWO_FRAMES = "() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => r(true))))"


def whole_name(name: str | None) -> re.Pattern[str] | None:
    """The accessible name as a whole-name match in any case: the gallery's names are written as
    Chromium shows them, with CSS ``text-transform`` applied (MUI's buttons read "OPEN DIALOG"),
    and Playwright computes the name from the DOM's text ("Open dialog")."""
    if name is None:
        return None
    return re.compile("^" + re.escape(" ".join(name.split())) + "$", re.IGNORECASE)


class PlaywrightEngine:
    """Playwright's sync API in a worker process on the peers' virtualenv."""

    name = "playwright"

    def __init__(self, headless: bool = True) -> None:
        if not VENV_PYTHON.is_file():
            raise FileNotFoundError(f"Playwright's virtualenv is missing ({VENV_PYTHON}): run bench/gallery_peers.sh")
        self.headless = headless
        self.proc: subprocess.Popen[str] | None = None
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.start()

    # -- the worker ---------------------------------------------------------------------------

    def start(self) -> None:
        """A fresh worker with its own Chromium; raises when it cannot launch."""
        self.lines = queue.Queue()
        self.proc = subprocess.Popen(
            [str(VENV_PYTHON), str(Path(__file__).resolve()), "--worker", "headless" if self.headless else "headed"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            bufsize=1,
            env={**os.environ, "PYTHONPATH": str(REPO)},
        )
        threading.Thread(target=self.pump, args=(self.proc, self.lines), daemon=True).start()
        ready = self.call("ready")
        if not ready.get("ok"):
            self.kill()
            raise RuntimeError(f"Playwright did not start: {ready.get('error')}")

    @staticmethod
    def pump(proc: subprocess.Popen[str], lines: queue.Queue[str | None]) -> None:
        """Copies the worker's answers into ``lines``; ``None`` when it has exited."""
        assert proc.stdout is not None
        for line in proc.stdout:
            lines.put(line)
        lines.put(None)

    def kill(self) -> None:
        """Ends the worker (its Chromium goes with Playwright's driver)."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=10)
        self.proc = None

    def call(self, op: str, **args: Any) -> dict[str, Any]:
        """One request to the worker and its answer; a dead or hung worker answers an error."""
        if self.proc is None or self.proc.poll() is not None or self.proc.stdin is None:
            self.proc = None
            return {"ok": False, "error": "the Playwright worker has exited"}
        try:
            self.proc.stdin.write(json.dumps({"op": op, "args": args}) + "\n")
            self.proc.stdin.flush()
            line = self.lines.get(timeout=STEP_DEADLINE_S)
        except queue.Empty:
            self.kill()
            return {"ok": False, "error": f"{op} did not answer within {STEP_DEADLINE_S:.0f} s (worker killed)"}
        except (BrokenPipeError, OSError) as exc:
            self.kill()
            return {"ok": False, "error": f"the Playwright worker has exited ({exc})"}
        if line is None:
            self.kill()
            return {"ok": False, "error": "the Playwright worker has exited"}
        answer: dict[str, Any] = json.loads(line)
        return answer

    def step(self, op: str, **args: Any) -> Outcome:
        """One step as an :class:`Outcome`."""
        answer = self.call(op, **args)
        return Outcome(ok=bool(answer.get("ok")), error=answer.get("error"))

    @staticmethod
    def spec(target: Target) -> dict[str, Any]:
        """A Target as JSON for the worker."""
        return {"role": target.role, "name": target.name, "text": target.text, "css": target.css, "nth": target.nth}

    # -- the Engine protocol ------------------------------------------------------------------

    def open(self, url: str) -> Outcome:
        """``page.goto(url)`` (load event); a worker that died before starts again first."""
        if self.proc is None or self.proc.poll() is not None:
            self.start()
        return self.step("open", url=url)

    def click(self, target: Target) -> Outcome:
        """``locator.click()``."""
        return self.step("click", target=self.spec(target))

    def fill(self, target: Target, text: str) -> Outcome:
        """``locator.fill(text)``."""
        return self.step("fill", target=self.spec(target), text=text)

    def type_text(self, text: str) -> Outcome:
        """``page.keyboard.type(text)``."""
        return self.step("type_text", text=text)

    def press(self, key: str) -> Outcome:
        """``page.keyboard.press(key)``."""
        return self.step("press", key=key)

    def check(self, target: Target, checked: bool = True) -> Outcome:
        """``locator.check()`` or ``locator.uncheck()``."""
        return self.step("check", target=self.spec(target), checked=checked)

    def select(self, target: Target, option: str) -> Outcome:
        """``locator.select_option(label=option)``."""
        return self.step("select", target=self.spec(target), option=option)

    def hover(self, target: Target) -> Outcome:
        """``locator.hover()``."""
        return self.step("hover", target=self.spec(target))

    def drag(self, source: Target, dest: Target) -> Outcome:
        """``source.drag_to(dest)``."""
        return self.step("drag", source=self.spec(source), dest=self.spec(dest))

    def scroll(self, direction: Literal["up", "down", "left", "right"], pixels: int) -> Outcome:
        """``page.mouse.wheel`` with the pointer in the middle of the viewport."""
        return self.step("scroll", direction=direction, pixels=pixels)

    def scroll_into_view(self, target: Target) -> Outcome:
        """``locator.scroll_into_view_if_needed()``."""
        return self.step("scroll_into_view", target=self.spec(target))

    def wait_text(self, text: str, timeout_s: float = 5.0) -> Outcome:
        """``page.get_by_text(text).first.wait_for(state="visible")``."""
        return self.step("wait_text", text=text, timeout_ms=int(timeout_s * 1000))

    def eval(self, js: str) -> Any:
        """``page.evaluate(js)``; an evaluation error raises."""
        answer = self.call("eval", js=js)
        if not answer.get("ok"):
            raise RuntimeError(f"Playwright evaluate failed: {answer.get('error')}")
        return answer.get("value")

    def close(self) -> None:
        """Closes the browser and ends the worker."""
        proc = self.proc
        if proc is not None and proc.poll() is None and proc.stdin is not None:
            try:
                proc.stdin.write(json.dumps({"op": "close", "args": {}}) + "\n")
                proc.stdin.close()
                proc.wait(timeout=15)
            except (OSError, subprocess.TimeoutExpired):
                pass
        self.kill()


# -- the worker: this file run by the virtualenv's Python -------------------------------------


def worker(headless: bool) -> None:
    """Answers JSON-line requests with Playwright's sync API until ``close`` or end of input."""
    from playwright.sync_api import Error as PlaywrightError
    from playwright.sync_api import sync_playwright

    pw = sync_playwright().start()
    browser = pw.chromium.launch(executable_path=CHROMIUM, headless=headless, args=BROWSER_ARGS)
    page = browser.new_page()
    page.set_default_timeout(DEFAULT_TIMEOUT_MS)
    page.set_default_navigation_timeout(DEFAULT_TIMEOUT_MS)

    def locate_in(frame: Any, t: dict[str, Any]) -> Any:
        if t.get("role") == "generic" and t.get("name"):
            # Playwright names no generic element (ARIA forbids it); its user writes the label.
            loc = frame.get_by_label(t["name"], exact=True)
        elif t.get("role"):
            loc = frame.get_by_role(t["role"], name=whole_name(t.get("name")), exact=True)
        elif t.get("text") is not None:
            loc = frame.get_by_text(t["text"], exact=True)
        elif t.get("css"):
            loc = frame.locator(t["css"])
        else:
            raise ValueError("the target names no role, text or CSS selector")
        return loc.nth(int(t.get("nth") or 0))

    def locate(t: dict[str, Any]) -> Any:
        # The page's locator (auto-waiting for the element), unless the element is already in a
        # frame and not in the page: there a Playwright user writes frame_locator(...) instead.
        loc = locate_in(page, t)
        if loc.count() == 0:
            for frame in page.frames[1:]:
                try:
                    inner = locate_in(frame, t)
                    if inner.count() > 0:
                        return inner
                except PlaywrightError:
                    continue
        return loc

    def scroll(direction: str, pixels: int) -> None:
        size = page.viewport_size or {"width": 1280, "height": 720}
        page.mouse.move(size["width"] / 2, size["height"] / 2)
        dx = {"left": -pixels, "right": pixels}.get(direction, 0)
        dy = {"up": -pixels, "down": pixels}.get(direction, 0)
        page.mouse.wheel(dx, dy)
        page.evaluate(TWO_FRAMES)

    ops: dict[str, Any] = {
        "ready": lambda: True,
        "open": lambda url: page.goto(url, wait_until="load") and None,
        "click": lambda target: locate(target).click(),
        "fill": lambda target, text: locate(target).fill(text),
        "type_text": lambda text: page.keyboard.type(text),
        "press": lambda key: page.keyboard.press(key),
        "check": lambda target, checked: locate(target).check() if checked else locate(target).uncheck(),
        "select": lambda target, option: locate(target).select_option(label=option),
        "hover": lambda target: locate(target).hover(),
        "drag": lambda source, dest: locate(source).drag_to(locate(dest)),
        "scroll": scroll,
        "scroll_into_view": lambda target: locate(target).scroll_into_view_if_needed(),
        "wait_text": lambda text, timeout_ms: page.get_by_text(text).first.wait_for(state="visible", timeout=timeout_ms),
        "eval": lambda js: page.evaluate(js),
    }
    try:
        for line in sys.stdin:
            request = json.loads(line)
            op = request["op"]
            if op == "close":
                break
            try:
                value = ops[op](**request["args"])
                answer: dict[str, Any] = {"ok": True, "value": value if op == "eval" else None}
            except (PlaywrightError, ValueError, KeyError, TypeError) as exc:
                answer = {"ok": False, "error": str(exc).strip()[:500]}
            try:
                text = json.dumps(answer)
            except (TypeError, ValueError):
                text = json.dumps({"ok": False, "error": f"{op}'s value is not JSON"})
            sys.stdout.write(text + "\n")
            sys.stdout.flush()
    finally:
        browser.close()
        pw.stop()


if __name__ == "__main__" and sys.argv[1:2] == ["--worker"]:
    worker(headless=sys.argv[2:3] != ["headed"])
