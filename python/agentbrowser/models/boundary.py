"""Content boundaries and output limits of a session's answers.

With ``SessionOptions(content_boundaries=True)`` the engine marks every answer of page content
(snapshots, reads, text reads, console, eval results, evidence) with a :class:`ContentBoundary`:
the session's random nonce and the page's origin; every string of such an answer has the marker
word neutralised, so a page cannot print a boundary line of its own. ``wrap`` puts text between
the boundary lines the CLI and the MCP server print. With ``max_output`` the engine cuts the
longest strings of a larger answer and says how much in an :class:`OutputLimit`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .. import _decode as d

__all__ = ["MARKER", "ContentBoundary", "OutputLimit", "neutralise"]

#: The word every boundary line carries.
MARKER = "AGENTBROWSER_PAGE_CONTENT"
#: What an occurrence of the marker word inside page content is replaced with (as the engine does).
NEUTRALISED = "[page-content-marker removed]"
_MARKER_RE = re.compile(r"agentbrowser[\W_]*page[\W_]*content", re.IGNORECASE)


def neutralise(text: str) -> str:
    """``text`` with every occurrence of the marker word replaced: in any letter case, however its
    parts are joined (``AGENTBROWSER\\_PAGE\\_CONTENT`` as Markdown escapes it, spaces, dashes)."""
    return _MARKER_RE.sub(NEUTRALISED, text)


@dataclass(frozen=True, slots=True)
class ContentBoundary:
    """The boundary of an answer of page content: the session's ``nonce`` (32 hex digits, never
    shown to the page) and the ``origin`` of the active page (``null`` for an opaque one)."""

    nonce: str
    origin: str

    @classmethod
    def from_raw(cls, raw: Mapping[str, Any]) -> ContentBoundary:
        """Decode the envelope's ``boundary`` object."""
        m = "ContentBoundary"
        f = d.Fields(m, d.mapping(m, raw, "boundary"), "boundary")
        return cls(nonce=f.req("nonce", d.string), origin=f.req("origin", d.string))

    @property
    def start(self) -> str:
        """The line that opens the page content."""
        return f"--- {MARKER} nonce={self.nonce} origin={self.origin} ---"

    @property
    def end(self) -> str:
        """The line that closes the page content."""
        return f"--- END_{MARKER} nonce={self.nonce} ---"

    def wrap(self, text: str) -> str:
        """``text`` (neutralised) between the start and end lines, as the CLI prints it."""
        return f"{self.start}\n{neutralise(text).rstrip(chr(10))}\n{self.end}"


@dataclass(frozen=True, slots=True)
class OutputLimit:
    """How an answer was bounded: the session's ``max`` characters and the characters ``cut``
    from its data (0: nothing)."""

    max: int
    cut: int

    @classmethod
    def from_raw(cls, raw: Mapping[str, Any]) -> OutputLimit:
        """Decode the envelope's ``limit`` object."""
        m = "OutputLimit"
        f = d.Fields(m, d.mapping(m, raw, "limit"), "limit")
        return cls(max=f.req("max", d.integer(0, None)), cut=f.req("cut", d.integer(0, None)))
