"""Layout reads and scrolling: an element's :class:`BoundingBox`, the :class:`ElementGeometry`
of the document or an element, and the :class:`ScrollResult` of ``page.scroll``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .. import _wire_types as w

#: The directions ``page.scroll`` takes.
SCROLL_DIRECTIONS = ("up", "down", "left", "right")


@dataclass(frozen=True, slots=True)
class BoundingBox:
    """An element's border box: ``x``, ``y`` in the top-level viewport (CSS pixels), its size,
    ``page_x``/``page_y`` in its own document (the viewport point plus that document's
    scroll), and whether it is visible."""

    x: float
    y: float
    width: float
    height: float
    page_x: float
    page_y: float
    visible: bool

    @classmethod
    def from_wire(cls, wire: w.BoxOutput) -> BoundingBox:
        """Build from the decoded ``box`` data."""
        return cls(wire.x, wire.y, wire.width, wire.height, wire.page_x, wire.page_y, wire.visible)


@dataclass(frozen=True, slots=True)
class ElementGeometry:
    """Where the document (``selector == "document"``) or an element is and how far it
    scrolls: its box in the viewport, its client size (without scrollbars) and its scroll
    size (with what overflows). ``scope`` is the tab measured (``t1``)."""

    scope: str
    selector: str
    x: float
    y: float
    width: float
    height: float
    client_width: float
    client_height: float
    scroll_width: float
    scroll_height: float

    @property
    def overflows_x(self) -> bool:
        """Whether its content is wider than its client area (it scrolls horizontally)."""
        return self.scroll_width > self.client_width

    @property
    def overflows_y(self) -> bool:
        """Whether its content is taller than its client area (it scrolls vertically)."""
        return self.scroll_height > self.client_height

    @classmethod
    def from_wire(cls, wire: w.GeometryOutput) -> ElementGeometry:
        """Build from the decoded ``geometry`` data."""
        return cls(
            scope=wire.scope,
            selector=wire.selector,
            x=wire.x,
            y=wire.y,
            width=wire.width,
            height=wire.height,
            client_width=wire.client_width,
            client_height=wire.client_height,
            scroll_width=wire.scroll_width,
            scroll_height=wire.scroll_height,
        )


@dataclass(frozen=True, slots=True)
class ScrollPosition:
    """A scroll offset in CSS pixels."""

    x: float
    y: float


@dataclass(frozen=True, slots=True)
class ScrollResult:
    """Where what scrolled stood ``before`` and ``after``; ``moved`` is False when neither
    offset changed (at the end already, or nothing scrolls that way; the CLI's and the
    envelope's warning say which). ``container`` is the one asked for (``"document"`` for the
    page); ``scrolled`` is what scrolled: ``container`` itself, or in its place the container
    under the viewport's centre when the document does not scroll (an app shell), or the
    scrolling ancestor of the element given (``"document"`` or ``tag#id.class``, with its ref
    when a snapshot gave it one). ``scope`` is the tab scrolled (``t1``)."""

    scope: str
    container: str
    scrolled: str
    before: ScrollPosition
    after: ScrollPosition
    moved: bool

    @classmethod
    def from_wire(cls, wire: w.ScrollOutput) -> ScrollResult:
        """Build from the decoded ``scroll`` data."""
        return cls(
            scope=wire.scope,
            container=wire.container,
            scrolled=wire.scrolled,
            before=ScrollPosition(wire.before.x, wire.before.y),
            after=ScrollPosition(wire.after.x, wire.after.y),
            moved=wire.moved,
        )
