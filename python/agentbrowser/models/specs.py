"""Inputs of operations: what a snapshot captures (:class:`SnapshotSpec`) and what to wait
for (:class:`Wait`), with the load states and mouse buttons the engine knows."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal, get_args

from .. import _wire_types as w
from ._bounded import clip_repr
from ._checks import check_timeout, check_type

#: A page load state to wait for; ``none`` (pyagentbrowser's) waits for nothing: the condition is
#: met at once, as in pyagentbrowser, whose engine answers a ``none`` load wait without waiting.
LoadState = Literal["load", "domcontentloaded", "networkidle", "none"]
#: A load state a navigation (``open``, ``back``, ``forward``, ``reload``, ``tabs.open``) waits
#: for: every navigation of the engine waits for one (``none`` has no navigation form here).
NavigationLoadState = Literal["load", "domcontentloaded", "networkidle"]
#: A mouse button of ``Ref.click``.
MouseButton = Literal["left", "right", "middle"]
#: A modifier key held during ``Ref.click`` (``ControlOrMeta`` is Control on Linux).
Modifier = Literal["Alt", "Control", "ControlOrMeta", "Meta", "Shift"]
LOAD_STATES: tuple[str, ...] = get_args(LoadState)
NAVIGATION_LOAD_STATES: tuple[str, ...] = get_args(NavigationLoadState)
MOUSE_BUTTONS: tuple[str, ...] = get_args(MouseButton)
MODIFIERS: tuple[str, ...] = get_args(Modifier)

#: The engine's default size budget of a snapshot's text, in bytes.
DEFAULT_MAX_BYTES = 100_000


@dataclass(frozen=True, slots=True)
class SnapshotSpec:
    """What one accessibility capture includes.

    ``selector`` limits the tree to a CSS subtree, ``interactive`` keeps interactive
    elements (and their context) only, ``compact`` drops empty structural nodes,
    ``max_depth`` limits the depth (>= 0), ``urls`` adds link targets, ``boxes`` adds each
    element's ``box=x,y,width,height`` beside its ref (getBoundingClientRect in CSS pixels of the
    top-level viewport, rounded to integers; inside frames too), ``max_bytes`` is the
    size budget of the text (default 100000, 0 = unbounded): past it the snapshot stops at a
    whole line, ``Snapshot.truncated`` is set and ``Snapshot.omitted`` counts what was left out.
    """

    selector: str | None = None
    interactive: bool = True
    compact: bool = False
    max_depth: int | None = None
    urls: bool = False
    max_bytes: int = DEFAULT_MAX_BYTES
    boxes: bool = False

    def __post_init__(self) -> None:
        if self.selector is not None:
            check_type("SnapshotSpec", "selector", self.selector, str, "a CSS selector string or None")
            if not self.selector.strip():
                raise ValueError("SnapshotSpec.selector must not be empty (use None for the whole page)")
        for name in ("interactive", "compact", "urls", "boxes"):
            check_type("SnapshotSpec", name, getattr(self, name), bool, "a bool")
        if self.max_depth is not None:
            check_type("SnapshotSpec", "max_depth", self.max_depth, int, "an int or None")
            if self.max_depth < 0:
                raise ValueError(f"SnapshotSpec.max_depth must be >= 0 or None, got {self.max_depth}")
        check_type("SnapshotSpec", "max_bytes", self.max_bytes, int, "an int (0 = unbounded)")
        if self.max_bytes < 0:
            raise ValueError(f"SnapshotSpec.max_bytes must be >= 0 (0 = unbounded), got {self.max_bytes}")

    def to_wire(self) -> dict[str, Any]:
        """The ``snapshot`` action's parameters."""
        wire: dict[str, Any] = {
            "interactive": self.interactive,
            "compact": self.compact,
            "urls": self.urls,
            "maxBytes": self.max_bytes,
        }
        if self.boxes:
            wire["boxes"] = True
        if self.selector is not None:
            wire["selector"] = self.selector
        if self.max_depth is not None:
            wire["maxDepth"] = self.max_depth
        return wire

    @classmethod
    def from_raw(cls, raw: Mapping[str, Any]) -> SnapshotSpec:
        """Decode the spec a snapshot reports."""
        return cls.from_wire(w.SnapshotSpecInfo.decode(raw))

    @classmethod
    def from_wire(cls, wire: w.SnapshotSpecInfo) -> SnapshotSpec:
        """The spec a snapshot reports, decoded."""
        return cls(
            selector=wire.selector,
            interactive=wire.interactive,
            compact=wire.compact,
            max_depth=wire.max_depth,
            urls=wire.urls,
            max_bytes=wire.max_bytes,
            boxes=wire.boxes,
        )


#: The state a :meth:`Wait.selector` waits for.
SelectorState = Literal["visible", "hidden", "attached", "detached"]
SELECTOR_STATES: tuple[str, ...] = get_args(SelectorState)
WAIT_KINDS = ("text", "url", "load", "selector", "function", "ready", "all")


@dataclass(frozen=True, slots=True)
class Wait:
    """One condition to wait for after an action (or alone with ``page.wait``).

    Build it with :meth:`text`, :meth:`url`, :meth:`loaded`, :meth:`selector`,
    :meth:`function`, :meth:`ready` or :meth:`all`.  Timeouts are milliseconds (>= 0);
    ``None`` means the engine default.
    """

    kind: Literal["text", "url", "load", "selector", "function", "ready", "all"]
    value: str | None = None
    conditions: tuple[Wait, ...] = ()
    timeout_ms: int | None = None
    target: str | Mapping[str, Any] | None = None
    """``selector``: the wire target (a CSS selector, an XPath or ``{"find": {...}}``)."""
    state: SelectorState | None = None
    """``selector``: the state to reach."""
    min_text_length: int | None = None
    """``ready``: characters of rendered text the page must have."""

    def __post_init__(self) -> None:
        if self.kind not in WAIT_KINDS:
            raise ValueError(f"Wait.kind must be one of {', '.join(WAIT_KINDS)}; got {self.kind!r}")
        check_timeout("Wait", self.timeout_ms)
        if self.kind == "all":
            if not self.conditions:
                raise ValueError("Wait.all() requires at least one condition")
            for c in self.conditions:
                if not isinstance(c, Wait):
                    raise TypeError(f"Wait.all() takes Wait conditions, got {type(c).__name__} {c!r}")
            return
        if self.kind == "selector":
            if isinstance(self.target, str):
                if not self.target.strip():
                    raise ValueError("Wait.selector() needs a non-empty selector")
            elif not isinstance(self.target, Mapping):
                raise TypeError(
                    "Wait.selector() target must be a CSS selector or XPath string, or a Locator, "
                    f"got {type(self.target).__name__}"
                )
            if self.state not in SELECTOR_STATES:
                raise ValueError(f"Wait.selector state must be one of {', '.join(SELECTOR_STATES)}; got {self.state!r}")
            return
        if self.kind == "ready":
            check_type("Wait.ready", "min_text_length", self.min_text_length, int, "an int >= 1")
            assert self.min_text_length is not None
            if self.min_text_length < 1:
                raise ValueError(f"Wait.ready min_text_length must be >= 1, got {self.min_text_length}")
            return
        if not isinstance(self.value, str):
            raise TypeError(f"Wait.{self.kind} value must be a string, got {type(self.value).__name__}")
        if self.kind == "load" and self.value not in LOAD_STATES:
            raise ValueError(f"Wait.loaded state must be one of {', '.join(LOAD_STATES)}; got {self.value!r}")
        if self.kind in ("text", "url", "function") and not self.value.strip():
            raise ValueError(f"Wait.{self.kind}() needs a non-empty {self.kind}")

    @classmethod
    def text(cls, text: str, *, timeout_ms: int | None = None) -> Wait:
        """Wait until ``text`` appears in the page's rendered text (its shadow roots and frames
        included, as the snapshot shows them)."""
        return cls("text", text, timeout_ms=timeout_ms)

    @classmethod
    def url(cls, url: str, *, timeout_ms: int | None = None) -> Wait:
        """Wait until the active URL matches the URL pattern ``url``: a glob over the whole URL when
        it has ``*`` or ``{`` (``*`` stops at ``/``, ``**`` crosses it), the whole URL when it
        begins with a scheme, otherwise a part of the URL."""
        return cls("url", url, timeout_ms=timeout_ms)

    @classmethod
    def loaded(cls, state: LoadState = "load", *, timeout_ms: int | None = None) -> Wait:
        """Wait for a load state: ``load``, ``domcontentloaded`` or ``networkidle``; ``none``
        (pyagentbrowser's) waits for nothing: an action with it alone waits for nothing, in
        :meth:`all` it is skipped, and ``page.wait`` with it returns at once."""
        return cls("load", state, timeout_ms=timeout_ms)

    @classmethod
    def selector(
        cls, target: str | Any, *, state: SelectorState = "visible", timeout_ms: int | None = None
    ) -> Wait:
        """Wait until the elements ``target`` matches (a CSS selector, an XPath, or a
        :class:`Locator` from ``page.find``; main frame) reach ``state``: ``visible`` (at least
        one match is visible), ``hidden`` (no match is visible, or none matches), ``attached``
        (at least one matches) or ``detached`` (none matches)."""
        wire = getattr(target, "_wire_target", None)
        return cls("selector", timeout_ms=timeout_ms, target=wire() if callable(wire) else target, state=state)

    @classmethod
    def function(cls, js: str, *, timeout_ms: int | None = None) -> Wait:
        """Wait until the JavaScript function (or expression) ``js`` returns a truthy value in the
        page (polled; a promise is awaited; an exception raises ``BrowserError`` ``js_error``)."""
        return cls("function", js, timeout_ms=timeout_ms)

    @classmethod
    def ready(cls, min_text_length: int = 1, *, timeout_ms: int | None = None) -> Wait:
        """Wait until the page has at least ``min_text_length`` characters of rendered text (its
        shadow roots and frames included)."""
        return cls("ready", timeout_ms=timeout_ms, min_text_length=min_text_length)

    @classmethod
    def all(cls, *conditions: Wait, timeout_ms: int | None = None) -> Wait:
        """Every condition in order (at least one), within an optional shared timeout."""
        return cls("all", None, tuple(conditions), timeout_ms=timeout_ms)

    @property
    def waits_for_nothing(self) -> bool:
        """Whether this condition is met at once: ``Wait.loaded("none")``, or :meth:`all` of only
        such conditions (it has no wire form: actions and ``page.wait`` skip it)."""
        if self.kind == "all":
            return all(c.waits_for_nothing for c in self.conditions)
        return self.kind == "load" and self.value == "none"

    def to_wire(self) -> dict[str, Any]:
        """The WaitCondition JSON of the wire protocol (conditions that wait for nothing left out
        of :meth:`all`); ValueError for one that waits for nothing (see :attr:`waits_for_nothing`)."""
        if self.waits_for_nothing:
            raise ValueError(f"{self!r} waits for nothing: it has no wire form (actions and page.wait skip it)")
        wire: dict[str, Any] = {"type": self.kind}
        if self.kind == "all":
            wire["conditions"] = [c.to_wire() for c in self.conditions if not c.waits_for_nothing]
        elif self.kind == "load":
            wire["state"] = self.value
        elif self.kind == "selector":
            wire["selector"] = self.target
            wire["state"] = self.state
        elif self.kind == "ready":
            wire["minTextLength"] = self.min_text_length
        else:
            wire[self.kind] = self.value
        if self.timeout_ms is not None:
            wire["timeoutMs"] = self.timeout_ms
        return wire

    def budget_ms(self) -> int:
        """Upper bound of the time this condition may take (its explicit timeouts)."""
        if self.timeout_ms is not None:
            return self.timeout_ms
        return sum(c.budget_ms() for c in self.conditions)

    def __repr__(self) -> str:
        t = f", timeout_ms={self.timeout_ms}" if self.timeout_ms is not None else ""
        if self.kind == "all":
            inner = ", ".join(repr(c) for c in self.conditions[:3])
            more = f", …{len(self.conditions) - 3} more" if len(self.conditions) > 3 else ""
            return f"Wait.all({inner}{more}{t})"
        if self.kind == "selector":
            return f"Wait.selector({clip_repr(self.target)}, state={self.state!r}{t})"
        if self.kind == "ready":
            return f"Wait.ready({self.min_text_length}{t})"
        name = "loaded" if self.kind == "load" else self.kind
        return f"Wait.{name}({clip_repr(self.value)}{t})"
