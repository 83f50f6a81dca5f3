"""The contract between the gallery's tasks and the engines that run them.

A task is a list of steps written the way an agent thinks ("click the button named Save"), not
in any one engine's vocabulary. Every engine (agentbrowser's CLI, agentbrowser's MCP server,
agent-browser, Playwright) implements :class:`Engine`; each step answers an :class:`Outcome`
saying whether the engine *claimed* success. Whether it really happened is read afterwards from
the app's own state (``Engine.eval``), never from the engine's answer.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal, Protocol


@dataclass(frozen=True)
class Target:
    """An element as an agent names it: by accessibility role and name (exact, as the engine's
    snapshot shows them), or by visible text, or (last resort) by CSS selector."""

    role: str | None = None
    name: str | None = None
    text: str | None = None
    css: str | None = None
    #: The n-th match (0-based) when several elements share role and name.
    nth: int = 0


@dataclass(frozen=True)
class Outcome:
    """What the engine answered for one step: ``ok`` is the engine's claim, ``error`` its message."""

    ok: bool
    error: str | None = None
    #: Seconds the step took, as the runner measured it.
    seconds: float = 0.0


#: The verdict of one task: the engine claimed success and the app shows it ("success"), the
#: engine reported an error and the app does not show the effect ("honest_failure"), the engine
#: claimed success and the app does not show it ("false_success", the worst), or the engine
#: reported an error although the effect happened ("false_failure").
Verdict = Literal["success", "honest_failure", "false_success", "false_failure"]


class Engine(Protocol):
    """One browser automation engine driven the way an agent drives it."""

    #: Short name for tables: "agentbrowser-cli", "agentbrowser-mcp", "agent-browser", "playwright".
    name: str

    def open(self, url: str) -> Outcome:
        """Navigate the active tab to ``url`` and wait for it to load."""
        ...

    def click(self, target: Target) -> Outcome:
        """Click the element."""
        ...

    def fill(self, target: Target, text: str) -> Outcome:
        """Replace the field's value with ``text``."""
        ...

    def type_text(self, text: str) -> Outcome:
        """Type ``text`` with the keyboard into whatever has focus."""
        ...

    def press(self, key: str) -> Outcome:
        """Press one key or chord ("Enter", "ArrowDown", "Control+a")."""
        ...

    def check(self, target: Target, checked: bool = True) -> Outcome:
        """Make a checkbox, radio or switch checked (or unchecked)."""
        ...

    def select(self, target: Target, option: str) -> Outcome:
        """Pick ``option`` (its label) in a native ``<select>``."""
        ...

    def hover(self, target: Target) -> Outcome:
        """Move the pointer over the element."""
        ...

    def drag(self, source: Target, dest: Target) -> Outcome:
        """Drag ``source`` onto ``dest`` with the pointer."""
        ...

    def scroll(self, direction: Literal["up", "down", "left", "right"], pixels: int) -> Outcome:
        """Scroll what the user would scroll (the page, or an app shell's scrolling region)."""
        ...

    def scroll_into_view(self, target: Target) -> Outcome:
        """Scroll until the element is in view."""
        ...

    def wait_text(self, text: str, timeout_s: float = 5.0) -> Outcome:
        """Wait until ``text`` is visible on the page (shadow roots and frames included)."""
        ...

    def eval(self, js: str) -> Any:
        """Evaluate ``js`` in the page and return its JSON value: how the app's state is read."""
        ...

    def close(self) -> None:
        """Shut the browser down."""
        ...
