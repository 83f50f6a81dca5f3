"""What the code agent shows its model at the start of every step: URL, title, tabs, the
bounded snapshot with refs (its diff after the first step), the run's variables and, with
vision, the latest screenshot.  Every part has a budget and says so when it cuts.

Page text is untrusted: the snapshot goes between ``<page_content>`` and ``</page_content>``
(a closing tag inside the page's own text is defused), and the system prompt tells the model
that what stands there is data, never instructions.
"""

from __future__ import annotations

import asyncio
import difflib
import reprlib
import time
import types
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from ..aio import AsyncBrowser
from ..errors import BrowserError
from ..models import Snapshot, SnapshotSpec, TabInfo

__all__ = ["Observation", "Observer", "PageState", "cut", "page_content"]

#: How the snapshot part of an observation was shown.
SnapshotKind = Literal["full", "diff", "unchanged", "unavailable"]

PAGE_OPEN = "<page_content>"
PAGE_CLOSE = "</page_content>"
_MAX_TABS = 10
_MAX_VARIABLES = 40
_VARIABLE_CHARS = 160


def cut(text: str, limit: int, what: str = "chars") -> str:
    """``text`` within ``limit`` characters: head and tail kept, ``[cut N of M chars]`` between."""
    if limit <= 0 or len(text) <= limit:
        return text
    marker = f"\n[cut {len(text) - limit:,} of {len(text):,} {what}]\n"
    keep = max(0, limit - len(marker))
    head = keep * 2 // 3
    tail = keep - head
    return text[:head] + marker + (text[len(text) - tail :] if tail else "")


def page_content(text: str, source: str) -> str:
    """``text`` from the page, between the data markers (a marker inside it is defused)."""
    safe = text.replace(PAGE_CLOSE, "</page_content\u200b>").replace(PAGE_OPEN, "<page_content\u200b>")
    return f'{PAGE_OPEN[:-1]} source="{source}">\n{safe}\n{PAGE_CLOSE}'


@dataclass(frozen=True, slots=True)
class PageState:
    """The active tab's URL and title, and every tab."""

    url: str
    title: str
    tabs: tuple[TabInfo, ...]

    def header(self, mask: Callable[[str], str]) -> str:
        """The state as a few lines of text (tab titles and URLs are page data: masked, bounded)."""
        lines = [f"URL: {mask(cut(self.url, 500))}", f"Title: {mask(cut(self.title, 200))}"]
        if len(self.tabs) > 1:
            lines.append(f"Tabs ({len(self.tabs)}):")
            for tab in self.tabs[:_MAX_TABS]:
                mark = " (active)" if tab.active else ""
                lines.append(f"  {tab.id}{mark}: {mask(cut(tab.title, 80))} {mask(cut(tab.url, 160))}")
            if len(self.tabs) > _MAX_TABS:
                lines.append(f"  [cut {len(self.tabs) - _MAX_TABS} more tabs]")
        return "\n".join(lines)

    @property
    def active_tab(self) -> str | None:
        """The active tab's id."""
        return next((t.id for t in self.tabs if t.active), None)


@dataclass(frozen=True, slots=True)
class Observation:
    """One step's observation: ``text`` for the model, the ``screenshot`` (PNG bytes, with vision),
    the ``state`` and ``snapshot`` it was made of, how the snapshot was shown, and timings."""

    text: str
    screenshot: bytes | None
    state: PageState
    snapshot: Snapshot[AsyncBrowser] | None
    snapshot_kind: SnapshotKind
    snapshot_s: float
    screenshot_s: float
    state_s: float

    def browser_state(self, mask: Callable[[str], str], limit: int = 2000) -> str:
        """The bounded summary a cell keeps as ``browser_state``: URL, title, tab and the snapshot's head."""
        parts = [self.state.header(mask)]
        tab = self.state.active_tab
        if tab is not None:
            parts.append(f"Tab: {tab} of {len(self.state.tabs)}")
        snap = self.snapshot
        if snap is not None:
            lines = snap.text.count("\n") + 1
            parts.append(
                f"Snapshot: generation {snap.generation}, {len(snap.refs)} refs, {lines} lines"
                f"{' (truncated by its budget)' if snap.truncated else ''}"
            )
            parts.append(mask(snap.text))
        else:
            parts.append("Snapshot: unavailable")
        return cut("\n".join(parts), limit)


class Observer:
    """Builds each step's :class:`Observation` for one browser; remembers what it showed last so
    later steps show only the snapshot's changes."""

    def __init__(
        self,
        browser: AsyncBrowser,
        *,
        snapshot_budget_chars: int = 16_000,
        variables_budget_chars: int = 2_000,
        use_vision: bool = True,
        mask: Callable[[str], str] | None = None,
        screenshot_dir: Path | None = None,
    ) -> None:
        self.browser = browser
        self.snapshot_budget_chars = snapshot_budget_chars
        self.variables_budget_chars = variables_budget_chars
        self.use_vision = use_vision
        self.mask: Callable[[str], str] = mask or (lambda s: s)
        self.screenshot_dir = screenshot_dir
        self.spec = SnapshotSpec(max_bytes=snapshot_budget_chars)
        self._last: Snapshot[AsyncBrowser] | None = None
        self._repr = reprlib.Repr()
        self._repr.maxstring = 80
        self._repr.maxother = 80
        self._repr.maxlist = self._repr.maxtuple = self._repr.maxdict = self._repr.maxset = 4
        self._repr.maxlevel = 2

    def reset(self) -> None:
        """Show the whole snapshot next time (not a diff)."""
        self._last = None

    async def state(self) -> PageState:
        """URL, title and tabs, asked concurrently."""
        page = self.browser.page
        url, title, tabs = await asyncio.gather(page.url(), page.title(), self.browser.tabs.list())
        return PageState(url=url, title=title, tabs=tabs)

    async def observe(
        self,
        namespace: Mapping[str, Any],
        baseline: Collection[str],
        *,
        state: PageState | None = None,
    ) -> Observation:
        """The observation now; ``baseline`` names the namespace entries that are not the run's own
        variables (the SDK objects and tools); ``state`` reuses a state read just before."""
        t0 = time.perf_counter()
        problems: list[str] = []
        if state is None:
            try:
                state = await self.state()
            except (BrowserError, RuntimeError, OSError) as exc:  # a cell may have closed the browser
                problems.append(f"[page state unavailable: {exc}]")
                state = PageState(url="", title="", tabs=())
        t1 = time.perf_counter()
        snapshot: Snapshot[AsyncBrowser] | None = None
        try:
            snapshot = await self.browser.page.observe(self.spec, delta=True)
        except (BrowserError, RuntimeError, OSError) as exc:
            problems.append(f"[snapshot unavailable: {exc}]")
        t2 = time.perf_counter()
        shot: bytes | None = None
        if self.use_vision:
            try:
                shot = await self._screenshot()
            except (BrowserError, RuntimeError, OSError) as exc:
                problems.append(f"[screenshot unavailable: {exc}]")
        t3 = time.perf_counter()
        kind, snap_text = self._snapshot_part(snapshot, state)
        parts = ["## Browser state", state.header(self.mask), *problems, snap_text]
        variables = self.variables(namespace, baseline)
        if variables:
            parts += ["## Variables", variables]
        if shot is not None:
            parts.append("(The attached image is a screenshot of the viewport now.)")
        if snapshot is not None:
            self._last = snapshot
        return Observation(
            text="\n".join(p for p in parts if p),
            screenshot=shot,
            state=state,
            snapshot=snapshot,
            snapshot_kind=kind,
            snapshot_s=t2 - t1,
            screenshot_s=t3 - t2,
            state_s=t1 - t0,
        )

    def _snapshot_part(self, snapshot: Snapshot[AsyncBrowser] | None, state: PageState) -> tuple[SnapshotKind, str]:
        if snapshot is None:
            return "unavailable", ""
        last = self._last
        budget = self.snapshot_budget_chars
        note = " (cut by its size budget: narrow it with page.observe(SnapshotSpec(selector=...)))"
        full_head = (
            f"Snapshot (refs like e12 work with click/fill/select, or snapshot.ref('e12')); "
            f"{len(snapshot.refs)} refs{note if snapshot.truncated else ''}:"
        )
        full = full_head + "\n" + page_content(cut(self.mask(snapshot.text), budget), "snapshot")
        if last is None or last.origin != snapshot.origin or last.tab != snapshot.tab:
            return "full", full
        if last.text == snapshot.text:
            return "unchanged", "Snapshot: unchanged since the last step (same refs)."
        diff = self._diff(last, snapshot)
        if len(diff) >= len(full):
            return "full", full
        head = "Snapshot changes since the last step (`-` gone, `+` new; other lines and refs unchanged):"
        return "diff", head + "\n" + page_content(cut(diff, budget), "snapshot diff")

    def _diff(self, old: Snapshot[AsyncBrowser], new: Snapshot[AsyncBrowser]) -> str:
        delta = new.delta
        if (
            delta is not None
            and delta.kind == "delta"
            and delta.change is not None
            and delta.base_generation == old.generation
        ):
            # The engine's own change region, against the very text the model saw last.
            change = delta.change
            old_lines = old.text.split("\n")[change.start_line : change.start_line + change.delete_count]
            body = [f"@@ line {change.start_line + 1} @@"]
            body += [f"-{line}" for line in old_lines] + [f"+{line}" for line in change.lines]
            return self.mask("\n".join(body))
        lines = difflib.unified_diff(old.text.split("\n"), new.text.split("\n"), n=1, lineterm="")
        return self.mask("\n".join(list(lines)[2:]))

    async def _screenshot(self) -> bytes:
        path = None if self.screenshot_dir is None else self.screenshot_dir / "observation.png"
        shot = await self.browser.page.capture.screenshot(path)
        return Path(shot.path).read_bytes()

    def variables(self, namespace: Mapping[str, Any], baseline: Collection[str]) -> str:
        """The run's own variables (names, types, short reprs), bounded; empty when there are none."""
        lines: list[str] = []
        names = [n for n in namespace if not n.startswith("_") and n not in baseline]
        for name in names[:_MAX_VARIABLES]:
            value = namespace[name]
            if isinstance(value, types.ModuleType):
                continue
            lines.append(self.mask(f"{name}: {_type_name(value)} = {self._short(value)}"))
        if len(names) > _MAX_VARIABLES:
            lines.append(f"[cut {len(names) - _MAX_VARIABLES} more variables]")
        return cut("\n".join(lines), self.variables_budget_chars, "chars of variables")

    def _short(self, value: object) -> str:
        try:
            text = self._repr.repr(value)
        except Exception as exc:  # a user object's __repr__ may raise anything
            text = f"<repr failed: {type(exc).__name__}>"
        return cut(text.replace("\n", " "), _VARIABLE_CHARS)


def _type_name(value: object) -> str:
    name = type(value).__name__
    if isinstance(value, (list, tuple, dict, set, frozenset, str, bytes)):
        return f"{name}[{len(value)}]"
    return name
