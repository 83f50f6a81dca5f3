"""Reading a page as text: how to read it (:class:`ReadMode`) and what was read (:class:`ReadResult`,
with its outline headings and the HTTP requests it made)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, get_args

from .. import _wire_types as w
from ._bounded import Bounded, clip_repr
from ._checks import check_type

#: Which llms.txt file a read looks for: ``index`` (llms.txt) or ``full`` (llms-full.txt).
LlmsFile = Literal["index", "full"]
LLMS_FILES: tuple[str, ...] = get_args(LlmsFile)

#: Where a read's content came from (``ReadResult.source``).
ReadSource = w.ReadSource
READ_SOURCES: tuple[str, ...] = get_args(w.ReadSource)

#: The engine's default bound of a read's content, in characters.
DEFAULT_READ_MAX_CHARS = 100_000
#: The engine's default timeout of a read, in milliseconds.
DEFAULT_READ_TIMEOUT_MS = 10_000
#: The longest timeout a read accepts, in milliseconds.
MAX_READ_TIMEOUT_MS = 600_000


@dataclass(frozen=True, slots=True)
class ReadMode:
    """How ``page.read`` reads: Markdown (the default), the raw body, the outline, or llms.txt.

    Build it with :meth:`markdown`, :meth:`html`, :meth:`outline_only`, :meth:`llms_index` or
    :meth:`llms_full`.  ``raw`` goes with none of the others (ValueError).
    """

    raw: bool = False
    require_markdown: bool = False
    llms: LlmsFile | None = None
    outline: bool = False

    def __post_init__(self) -> None:
        for name in ("raw", "require_markdown", "outline"):
            check_type("ReadMode", name, getattr(self, name), bool, "a bool")
        if self.llms is not None and self.llms not in LLMS_FILES:
            raise ValueError(f"ReadMode.llms must be one of {', '.join(LLMS_FILES)} or None; got {self.llms!r}")
        if self.raw:
            for name in ("require_markdown", "llms", "outline"):
                if getattr(self, name) not in (False, None):
                    raise ValueError(f"ReadMode.raw (the body as it is) cannot go with {name}")

    @classmethod
    def markdown(cls, *, require: bool = False) -> ReadMode:
        """Markdown: the server's own when it has it, else the HTML's main content converted;
        ``require=True`` fails instead of converting HTML."""
        return cls(require_markdown=require)

    @classmethod
    def html(cls) -> ReadMode:
        """The raw response body (the active tab's serialized DOM without a URL)."""
        return cls(raw=True)

    @classmethod
    def outline_only(cls) -> ReadMode:
        """Only the headings, with their levels and anchors."""
        return cls(outline=True)

    @classmethod
    def llms_index(cls, *, require_markdown: bool = False) -> ReadMode:
        """The site's llms.txt, looked up from the URL's path up to the origin root."""
        return cls(llms="index", require_markdown=require_markdown)

    @classmethod
    def llms_full(cls, *, require_markdown: bool = False) -> ReadMode:
        """The site's llms-full.txt, looked up from the URL's path up to the origin root."""
        return cls(llms="full", require_markdown=require_markdown)

    def to_wire(self) -> dict[str, Any]:
        """The mode's part of the ``read`` action's parameters."""
        wire: dict[str, Any] = {}
        if self.raw:
            wire["raw"] = True
        if self.require_markdown:
            wire["requireMarkdown"] = True
        if self.llms is not None:
            wire["llms"] = self.llms
        if self.outline:
            wire["outline"] = True
        return wire


#: One heading of a read's outline: ``level`` (1-6), ``text`` and ``anchor`` (None when it has
#: none); the protocol's record.
ReadHeading = w.ReadHeading
#: One HTTP request a read made: what it looked for (``purpose``), the ``url``, the answer
#: (``status``, ``content_type``, ``error``), whether it was ``used``; the protocol's record.
ReadAttempt = w.ReadAttempt


@dataclass(frozen=True, slots=True, repr=False)
class ReadResult(Bounded):
    """A page read as text: the URL asked for, where it ended (``final_url``), the HTTP status
    (None for the active tab), content type, ``source`` (``accept-markdown``, ``md-url``,
    ``llms-index``, ``llms-full``, ``html-fallback``, ``text``, ``raw``, ``active-tab``,
    ``active-tab-html``), whether ``content`` was cut, the content, and the raw answer."""

    url: str
    final_url: str
    status: int | None
    content_type: str | None
    source: ReadSource
    truncated: bool
    content: str
    raw: Mapping[str, Any] = field(repr=False, compare=False)

    @classmethod
    def from_raw(cls, raw: Mapping[str, Any]) -> ReadResult:
        """Decode the ``read`` action's data."""
        return cls.from_wire(w.ReadOutput.decode(raw), raw)

    @classmethod
    def from_wire(cls, wire: w.ReadOutput, raw: Mapping[str, Any]) -> ReadResult:
        """Build from the decoded ``read`` data ``raw``."""
        return cls(
            url=wire.url,
            final_url=wire.final_url,
            status=wire.status,
            content_type=wire.content_type,
            source=wire.source,
            truncated=wire.truncated,
            content=wire.content,
            raw=raw,
        )

    @property
    def _wire(self) -> w.ReadOutput:
        return w.ReadOutput.decode(self.raw)

    @property
    def title(self) -> str | None:
        """The document's title, when it has one."""
        return self._wire.title

    @property
    def warnings(self) -> tuple[str, ...]:
        """What the read warns of (e.g. a page JavaScript renders, read without running it); empty when nothing."""
        return self._wire.warnings or ()

    @property
    def total_chars(self) -> int:
        """The whole content's length in characters, before any cut (the original size)."""
        return self._wire.total_chars

    @property
    def outline(self) -> tuple[ReadHeading, ...] | None:
        """The headings (with ``ReadMode.outline_only()``; else None)."""
        return self._wire.outline

    @property
    def sections(self) -> int | None:
        """How many heading sections matched (with ``filter=``; else None)."""
        return self._wire.sections

    @property
    def attempts(self) -> tuple[ReadAttempt, ...]:
        """Every HTTP request the read made, in order (empty for the active tab's DOM)."""
        return self._wire.attempts

    def __str__(self) -> str:
        return self.content

    def __repr__(self) -> str:
        return (
            f"ReadResult(source={self.source!r}, final_url={clip_repr(self.final_url)}, status={self.status}, "
            f"truncated={self.truncated}, content={clip_repr(self.content, 120)})"
        )
