"""agent-browser 0.41.2 (npm) as a gallery engine: a reference, driven the way an agent drives it.

Every step is one run of agent-browser's native binary (it ships in the npm package, under
``bin/``) against one daemon and one Chromium per engine: Debian's ``/usr/bin/chromium``,
headless, ``--no-sandbox``. An element named by role and name is looked up in ``snapshot -i
--json`` (then the full snapshot, whose refs also cover headings and other named nodes; both again
until it is there, for at most 10 s) and acted on as ``@eN``, the way its skill tells agents to work; an element named by its visible text
goes through ``find text ... --exact`` for the actions ``find`` has (click, fill, check, hover) and
through an XPath selector otherwise (or when ``find`` finds nothing); CSS is passed as it is. A step is a success claim when the
binary exits 0 with ``"success": true``.

Installed by ``bench/gallery_peers.sh`` into ``target/peers/agent-browser/``.
"""

from __future__ import annotations

import json
import os
import platform
import re
import shutil
import subprocess
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any, Literal

from gallery.engine_api import Outcome, Target

REPO = Path(__file__).resolve().parents[2]
VERSION = "0.41.2"
PACKAGE = REPO / "target" / "peers" / "agent-browser" / "node_modules" / "agent-browser"
CHROMIUM = "/usr/bin/chromium"
#: Chromium's flags: no sandbox (we run as root), and nothing that reaches the network on its own.
BROWSER_ARGS = "--no-sandbox,--disable-gpu,--no-first-run,--disable-background-networking,--disable-component-update,--disable-sync"
#: agent-browser's own wait for an element or a condition (ms), as Playwright's default.
DEFAULT_TIMEOUT_MS = 10_000
#: The pause between two looks for an element that is not in the snapshot yet (s).
LOOK_AGAIN_S = 0.2
#: The longest one command may run before this engine gives up on it (s).
COMMAND_DEADLINE_S = 60.0
#: The actions ``find`` performs itself.
FIND_ACTIONS = frozenset({"click", "fill", "check", "hover"})


def binary() -> Path:
    """agent-browser's native binary for this machine, or an error saying how to install it."""
    arch = {"x86_64": "x64", "aarch64": "arm64"}.get(platform.machine(), platform.machine())
    path = PACKAGE / "bin" / f"agent-browser-linux-{arch}"
    if not path.is_file():
        raise FileNotFoundError(f"agent-browser {VERSION} is not installed at {path}: run bench/gallery_peers.sh")
    return path


def xpath_literal(text: str) -> str:
    """``text`` as an XPath string literal (concat() when it holds both kinds of quote)."""
    if '"' not in text:
        return f'"{text}"'
    if "'" not in text:
        return f"'{text}'"
    return "concat(" + ", '\"', ".join(f'"{part}"' for part in text.split('"')) + ")"


def text_xpath(text: str, nth: int) -> str:
    """The n-th innermost element whose whitespace-normalised text is exactly ``text``."""
    lit = xpath_literal(" ".join(text.split()))
    return f"xpath=(//*[normalize-space(.)={lit}][not(.//*[normalize-space(.)={lit}])])[{nth + 1}]"


def same_name(shown: Any, name: str) -> bool:
    """Whether a snapshot's name is ``name`` as an agent reads it: whitespace collapsed (the
    snapshot keeps a label's trailing space: ``combobox "Fruit "``), in any case."""
    return isinstance(shown, str) and " ".join(shown.split()).casefold() == " ".join(name.split()).casefold()


class AgentBrowserEngine:
    """agent-browser's CLI, one native process per step, on its own daemon and Chromium."""

    name = "agent-browser"

    def __init__(self, headless: bool = True) -> None:
        self.bin = binary()
        self.session = f"gallery{uuid.uuid4().hex[:8]}"
        self.sockets = Path(tempfile.mkdtemp(prefix="gallery-agent-browser-"))
        self.env = {
            **os.environ,
            "AGENT_BROWSER_SOCKET_DIR": str(self.sockets),
            "AGENT_BROWSER_EXECUTABLE_PATH": CHROMIUM,
            "AGENT_BROWSER_ARGS": BROWSER_ARGS,
            "AGENT_BROWSER_DEFAULT_TIMEOUT": str(DEFAULT_TIMEOUT_MS),
            # A daemon this engine fails to close ends on its own.
            "AGENT_BROWSER_IDLE_TIMEOUT_MS": "600000",
        }
        if not headless:
            self.env["AGENT_BROWSER_HEADED"] = "1"

    # -- the binary -------------------------------------------------------------------------

    def run(self, *args: str) -> dict[str, Any]:
        """One command's JSON answer; a crash, a hang or unreadable output is a failed answer."""
        argv = [str(self.bin), "--session", self.session, "--json", *args]
        try:
            p = subprocess.run(argv, env=self.env, capture_output=True, text=True, timeout=COMMAND_DEADLINE_S)
        except subprocess.TimeoutExpired:
            return {"success": False, "error": f"`{' '.join(args[:2])}` did not answer within {COMMAND_DEADLINE_S:.0f} s"}
        try:
            answer = json.loads(p.stdout)
        except ValueError:
            answer = None
        if not isinstance(answer, dict):
            out = (p.stdout + p.stderr).strip()
            return {"success": False, "error": f"exit {p.returncode}, no JSON answer: {out[-400:]}"}
        if p.returncode != 0 and answer.get("success"):
            answer = {"success": False, "error": f"exit {p.returncode} with a success answer"}
        return answer

    def step(self, *args: str) -> Outcome:
        """Run one command as a step: its claim, and its error when it failed."""
        answer = self.run(*args)
        if answer.get("success") is True:
            return Outcome(ok=True)
        return Outcome(ok=False, error=str(answer.get("error") or answer)[:500])

    # -- targets ----------------------------------------------------------------------------

    def ref(self, role: str, name: str, nth: int) -> str | None:
        """``@eN`` of the n-th ref with this role and name: the interactive snapshot first,
        then the full one, again until one has it or :data:`DEFAULT_TIMEOUT_MS` has passed (an
        agent looks again while a menu or a dialog is still opening)."""
        deadline = time.monotonic() + DEFAULT_TIMEOUT_MS / 1000
        while True:
            for args in (("snapshot", "-i"), ("snapshot",)):
                if (ref := self.ref_in(self.run(*args), role, name, nth)) is not None:
                    return ref
            if time.monotonic() >= deadline:
                return None
            time.sleep(LOOK_AGAIN_S)

    @staticmethod
    def ref_in(answer: dict[str, Any], role: str, name: str, nth: int) -> str | None:
        """``@eN`` of the n-th ref with this role and name (:func:`same_name`) in one snapshot's answer."""
        data = answer.get("data") if answer.get("success") else None
        if not isinstance(data, dict) or not isinstance(refs := data.get("refs"), dict):
            return None
        # The refs in the tree's order (their numbers are not: a ref keeps its number).
        order = dict.fromkeys([*re.findall(r"\bref=(e\d+)", str(data.get("snapshot") or "")), *refs])
        hits = [
            rid
            for rid in order
            if isinstance(info := refs.get(rid), dict) and info.get("role") == role and same_name(info.get("name"), name)
        ]
        return "@" + str(hits[nth]) if len(hits) > nth else None

    def selector(self, target: Target) -> str | Outcome:
        """The selector agent-browser takes for ``target`` (a ref, XPath or CSS), or the failed
        step when the snapshot has no such element."""
        if target.role is not None:
            ref = self.ref(target.role, target.name or "", target.nth)
            if ref is None:
                return Outcome(ok=False, error=f"no {target.role} {target.name!r} (#{target.nth}) in the snapshot's refs within {DEFAULT_TIMEOUT_MS / 1000:.0f} s")
            return ref
        if target.text is not None:
            return text_xpath(target.text, target.nth)
        if target.css is not None:
            if target.nth == 0:
                return target.css
            return Outcome(ok=False, error=f"agent-browser takes the n-th match of a CSS selector only in `find nth` ({target.css!r}, #{target.nth})")
        return Outcome(ok=False, error="the target names no role, text or CSS selector")

    def act(self, action: str, target: Target, *rest: str) -> Outcome:
        """``action`` on ``target``: ``find text`` for text (its documented locator; XPath when it
        finds nothing) and ``find nth`` for the n-th CSS match when ``find`` has the action, else
        the resolved selector."""
        if target.role is None and action in FIND_ACTIONS:
            if target.text is not None and target.nth == 0:
                found = self.step("find", "text", target.text, action, *rest, "--exact")
                # `find text` misses an element whose text sits beside a child control (a
                # label around its checkbox): look again by XPath, as an agent would.
                if found.ok or "No element found" not in (found.error or ""):
                    return found
            if target.text is None and target.css is not None and target.nth > 0:
                return self.step("find", "nth", str(target.nth), target.css, action, *rest)
        sel = self.selector(target)
        if isinstance(sel, Outcome):
            return sel
        return self.step(action, sel, *rest)

    # -- the Engine protocol ----------------------------------------------------------------

    def open(self, url: str) -> Outcome:
        """Navigate and wait for the load event, in the session's first tab: agent-browser makes a
        popup the active tab, so tabs an earlier task opened are closed first (each task starts
        as it would in a fresh session)."""
        tabs = (self.run("tab", "list").get("data") or {}).get("tabs") or []
        if len(tabs) > 1:
            for tab in tabs[1:]:
                self.run("tab", "close", str(tab.get("tabId")))
            self.run("tab", str(tabs[0].get("tabId")))
        return self.step("open", url)

    def click(self, target: Target) -> Outcome:
        """``click @eN``."""
        return self.act("click", target)

    def fill(self, target: Target, text: str) -> Outcome:
        """``fill @eN text``."""
        return self.act("fill", target, text)

    def type_text(self, text: str) -> Outcome:
        """``keyboard type text``: real keystrokes into what has focus."""
        return self.step("keyboard", "type", text)

    def press(self, key: str) -> Outcome:
        """``press key``."""
        return self.step("press", key)

    def check(self, target: Target, checked: bool = True) -> Outcome:
        """``check @eN`` or ``uncheck @eN``."""
        if checked:
            return self.act("check", target)
        sel = self.selector(target)
        return sel if isinstance(sel, Outcome) else self.step("uncheck", sel)

    def select(self, target: Target, option: str) -> Outcome:
        """``select @eN label``."""
        return self.act("select", target, option)

    def hover(self, target: Target) -> Outcome:
        """``hover @eN``."""
        return self.act("hover", target)

    def drag(self, source: Target, dest: Target) -> Outcome:
        """``drag @eA @eB``."""
        src = self.selector(source)
        if isinstance(src, Outcome):
            return src
        dst = self.selector(dest)
        if isinstance(dst, Outcome):
            return dst
        return self.step("drag", src, dst)

    def scroll(self, direction: Literal["up", "down", "left", "right"], pixels: int) -> Outcome:
        """``scroll direction pixels``."""
        return self.step("scroll", direction, str(pixels))

    def scroll_into_view(self, target: Target) -> Outcome:
        """``scrollintoview @eN``."""
        return self.act("scrollintoview", target)

    def wait_text(self, text: str, timeout_s: float = 5.0) -> Outcome:
        """``wait --text text --timeout ms``."""
        return self.step("wait", "--text", text, "--timeout", str(int(timeout_s * 1000)))

    def eval(self, js: str) -> Any:
        """``eval js``'s JSON value; an evaluation error raises."""
        answer = self.run("eval", js)
        if answer.get("success") is not True:
            raise RuntimeError(f"agent-browser eval failed: {answer.get('error')}")
        data = answer.get("data") or {}
        return data.get("result")

    def close(self) -> None:
        """``close``: the daemon and its Chromium end; the socket directory goes."""
        self.run("close")
        shutil.rmtree(self.sockets, ignore_errors=True)
