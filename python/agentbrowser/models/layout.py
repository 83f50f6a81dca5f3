"""Layout reads and scrolling: an element's :class:`BoundingBox`, the :class:`ElementGeometry`
of the document or an element, and the :class:`ScrollResult` of ``page.scroll``."""

from __future__ import annotations

from .. import _wire_types as w
from ._records import WireModel

#: The directions ``page.scroll`` takes.
SCROLL_DIRECTIONS = ("up", "down", "left", "right")

#: A scroll offset in CSS pixels (``x``, ``y``): the protocol's record.
ScrollPosition = w.ScrollPosition


class BoundingBox(WireModel, w.BoxOutput):
    """An element's border box: ``x``, ``y`` in the top-level viewport (CSS pixels), its size,
    ``page_x``/``page_y`` in its own document (the viewport point plus that document's
    scroll), and whether it is visible."""

    __slots__ = ()


class ElementGeometry(WireModel, w.GeometryOutput):
    """Where the document (``selector == "document"``) or an element is and how far it
    scrolls: its box in the viewport, its client size (without scrollbars) and its scroll
    size (with what overflows). ``scope`` is the tab measured (``t1``)."""

    __slots__ = ()

    @property
    def overflows_x(self) -> bool:
        """Whether its content is wider than its client area (it scrolls horizontally)."""
        return self.scroll_width > self.client_width

    @property
    def overflows_y(self) -> bool:
        """Whether its content is taller than its client area (it scrolls vertically)."""
        return self.scroll_height > self.client_height


class ScrollResult(WireModel, w.ScrollOutput):
    """Where what scrolled stood ``before`` and ``after``; ``moved`` is False when neither
    offset changed (at the end already, or nothing scrolls that way; the CLI's and the
    envelope's warning say which). ``container`` is the one asked for (``"document"`` for the
    page); ``scrolled`` is what scrolled: ``container`` itself, or in its place the container
    under the viewport's centre when the document does not scroll (an app shell), or the
    scrolling ancestor of the element given (``"document"`` or ``tag#id.class``, with its ref
    when a snapshot gave it one). ``scope`` is the tab scrolled (``t1``)."""

    __slots__ = ()
