"""The accessibility :class:`Snapshot` of a page, and its lookups of refs."""

from __future__ import annotations

import html
import re
from collections.abc import Awaitable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, ClassVar, Generic, Literal, overload

from .. import _wire_types as w
from ._bounded import clip, clip_repr
from ._client import AsyncClient, B, C, SyncClient
from .ref import Ref
from .specs import SnapshotSpec

if TYPE_CHECKING:
    from .results import SnapshotDiff

_CANDIDATES = 10

#: What a delta snapshot answered: ``full`` (the whole text), ``unchanged`` or ``delta``.
DeltaKind = Literal["full", "unchanged", "delta"]

# The ref of a snapshot line `- role "name" [state, ..., ref=eN]: value` (the ref is the last state).
_REF_LINE = re.compile(r'^ *- [^ :\n]+(?: "(?:[^"\\\n]|\\.)*")? \[(?:[^\n]*?, )?ref=(e\d+)\](?=: |$)', re.M)


@dataclass(frozen=True, slots=True)
class SnapshotChange:
    """The one region of lines that turns the base snapshot's text into the new one (as
    ``list[start_line:start_line + delete_count] = lines``)."""

    start_line: int
    delete_count: int
    lines: tuple[str, ...]

    def apply(self, base_text: str) -> str:
        """The new text, from the base's."""
        lines = base_text.split("\n")
        lines[self.start_line : self.start_line + self.delete_count] = self.lines
        return "\n".join(lines)


@dataclass(frozen=True, slots=True)
class SnapshotDelta:
    """How a snapshot taken with ``delta=True`` relates to its base.

    ``kind`` is ``full`` (no base of the same spec: the engine sent the whole text; also when
    this client did not hold the base the engine named, and fetched the whole snapshot),
    ``unchanged`` or ``delta``; ``base_generation`` the base's generation (None for ``full``);
    ``change`` the replaced region (None unless ``delta``); ``line_count`` the lines of the new
    text; ``removed_refs`` the base's refs the new text no longer shows; ``rebuilt`` whether the
    SDK rebuilt ``Snapshot.text`` and ``Snapshot.refs`` from the base it held; ``raw`` the
    engine's delta mapping.
    """

    kind: DeltaKind
    base_generation: int | None
    change: SnapshotChange | None
    line_count: int
    removed_refs: tuple[str, ...]
    rebuilt: bool
    raw: Mapping[str, Any] = field(compare=False)

    @classmethod
    def from_wire(cls, wire: w.SnapshotDelta, raw: Mapping[str, Any], rebuilt: bool) -> SnapshotDelta:
        """Decode the engine's delta object."""
        change = wire.change
        return cls(
            kind=wire.kind,
            base_generation=wire.base_generation,
            change=SnapshotChange(change.start_line, change.delete_count, change.lines) if change else None,
            line_count=wire.line_count,
            removed_refs=wire.removed_refs,
            rebuilt=rebuilt,
            raw=raw,
        )


def rebuild(raw: Mapping[str, Any], base: Mapping[str, Any]) -> dict[str, Any] | None:
    """The whole wire snapshot that a delta answer ``raw`` stands for, from the ``base`` snapshot it
    names: the text with the change applied, every ref of it in order (the delta's own refs for
    the changed lines, the base's for the others). None when the result does not have the line
    count the engine gives (then ``base`` is not the snapshot the engine meant)."""
    wire = w.SnapshotDelta.decode(raw["delta"], "delta")
    base_text: str = base["text"]
    if wire.change is None:
        text = base_text
    else:
        change = wire.change
        if change.start_line + change.delete_count > base_text.count("\n") + 1:
            return None
        text = SnapshotChange(change.start_line, change.delete_count, change.lines).apply(base_text)
    if text.count("\n") + 1 != wire.line_count:
        return None
    known: dict[str, Any] = {**base["refs"], **raw["refs"]}
    refs = {rid: known[rid] for rid in _REF_LINE.findall(text) if rid in known}
    return {**raw, "text": text, "refs": refs}


def _parse_ref_id(ref_id: str) -> str:
    if not isinstance(ref_id, str):
        raise TypeError(f"ref id must be a string like 'e1' or '@e1', got {type(ref_id).__name__}")
    rid = ref_id.strip()
    if rid.startswith("@"):
        rid = rid[1:]
    elif rid.startswith("ref="):
        rid = rid[4:]
    return rid


@dataclass(frozen=True, slots=True, eq=False, repr=False)
class Snapshot(Generic[B]):
    """One accessibility capture of the active page.

    ``text`` is the readable tree, ``origin`` (alias ``url``) the page URL, ``spec`` the
    :class:`SnapshotSpec` reused by :meth:`refresh` and ref mutations, ``refs`` the bound
    :class:`Ref` objects by id, ``generation`` the engine's snapshot counter, ``tab`` the tab
    that issued the refs, ``truncated`` whether the size budget cut the text and ``omitted``
    what it left out as ``(role, lines)`` pairs, most first; ``raw`` the native mapping (for a
    rebuilt delta snapshot, with the whole text and refs); ``delta`` the :class:`SnapshotDelta`
    when it was taken with ``delta=True``.
    """

    text: str
    origin: str
    spec: SnapshotSpec
    generation: int
    truncated: bool
    tab: str | None
    omitted: tuple[tuple[str, int], ...]
    browser: B
    refs: Mapping[str, Ref[B]]
    raw: Mapping[str, Any]
    delta: SnapshotDelta | None = None
    """With ``delta=True`` only: how it relates to its base (``text`` and ``refs`` are whole anyway)."""

    @property
    def url(self) -> str:
        """Alias of ``origin``."""
        return self.origin

    @property
    def document(self) -> Any:
        """The page (``browser.page``, or the tab's from ``tabs.get()``) or frame handle whose
        document this snapshot captured (pyagentbrowser's ``Snapshot.document``)."""
        return self.browser._document

    @classmethod
    def from_raw(cls: type[Snapshot[C]], raw: Mapping[str, Any], browser: C) -> Snapshot[C]:
        """Decode a wire Snapshot bound to ``browser``."""
        return cls.from_wire(w.SnapshotOutput.decode(raw), raw, browser)

    @classmethod
    def from_wire(
        cls: type[Snapshot[C]],
        wire: w.SnapshotOutput,
        raw: Mapping[str, Any],
        browser: C,
        delta: SnapshotDelta | None = None,
    ) -> Snapshot[C]:
        """Build from the decoded snapshot ``raw``, bound to ``browser`` (``delta``: how it relates
        to its base, default decoded from ``raw``)."""
        if delta is None and wire.delta is not None:
            delta = SnapshotDelta.from_wire(wire.delta, raw["delta"], rebuilt=wire.delta.kind != "full")
        snap = cls(
            text=wire.text,
            origin=wire.origin,
            spec=SnapshotSpec.from_wire(wire.spec),
            generation=wire.generation,
            truncated=wire.truncated,
            tab=wire.tab,
            omitted=tuple((o.role, o.count) for o in wire.omitted),
            browser=browser,
            refs=MappingProxyType({}),
            raw=raw,
            delta=delta,
        )
        metas: Mapping[str, Any] = raw["refs"]
        refs = {
            rid: Ref(
                id=rid,
                selector=f"@{rid}",
                role=info.role,
                name=info.name,
                frame=info.frame,
                snapshot=snap,
                browser=browser,
                raw=metas[rid],
            )
            for rid, info in wire.refs.items()
        }
        object.__setattr__(snap, "refs", MappingProxyType(refs))
        return snap

    # -- lookups (pure) -----------------------------------------------------

    def ref(self, ref_id: str) -> Ref[B]:
        """The ref with this exact id (``e1``, ``@e1`` or ``ref=e1``); KeyError if unknown."""
        rid = _parse_ref_id(ref_id)
        try:
            return self.refs[rid]
        except KeyError:
            known = ", ".join(list(self.refs)[:_CANDIDATES])
            more = f", … ({len(self.refs)} refs)" if len(self.refs) > _CANDIDATES else ""
            raise KeyError(f"unknown ref {ref_id!r} in this snapshot; known ids: {known or 'none'}{more}") from None

    def all(
        self, *, role: str | None = None, name: str | None = None, contains: str | None = None, exact: bool = False
    ) -> tuple[Ref[B], ...]:
        """Every ref matching the criteria, in document order.

        ``role`` matches case-insensitively; ``name`` matches the whole accessible name
        (ignoring case and runs of whitespace unless ``exact``); ``contains`` matches a
        substring of the name (case-insensitive unless ``exact``).
        """
        return tuple(r for r in self.refs.values() if r._matches(role, name, contains, exact))

    def one(
        self, *, role: str | None = None, name: str | None = None, contains: str | None = None, exact: bool = False
    ) -> Ref[B]:
        """The single ref matching the criteria (as :meth:`all` matches them); LookupError naming the
        criteria, how ``name`` matches, and a few candidates when zero or several match."""
        found = self.all(role=role, name=name, contains=contains, exact=exact)
        if len(found) == 1:
            return found[0]
        criteria = _criteria(role, name, contains, exact)
        if found:
            head, pool = f"{len(found)} refs match {criteria}", found
        else:
            same_role = self.all(role=role) if role is not None else ()
            pool = same_role or tuple(self.refs.values())
            head = f"no ref matches {criteria}"
            if name is not None:
                # pyagentbrowser matches ``name`` as a substring; here it is the whole name.
                partial = self.all(role=role, contains=name, exact=exact)
                how = (
                    "`name` matches the whole accessible name (case and whitespace folded unless exact=True); "
                    "use contains= for a part of it"
                )
                head += f" ({how}; {len(partial)} ref(s) contain {clip(name, 60)!r})" if partial else f" ({how})"
        shown = ", ".join(r._label() for r in pool[:_CANDIDATES])
        more = f", … {len(pool) - _CANDIDATES} more" if len(pool) > _CANDIDATES else ""
        raise LookupError(f"{head}; candidates: {shown or 'none (the snapshot has no refs)'}{more}")

    # -- operations ----------------------------------------------------------

    @overload
    def refresh(self: Snapshot[SyncClient], *, delta: bool = False) -> Snapshot[B]: ...
    @overload
    def refresh(self: Snapshot[AsyncClient], *, delta: bool = False) -> Awaitable[Snapshot[B]]: ...
    def refresh(self, *, delta: bool = False) -> Snapshot[Any] | Awaitable[Snapshot[Any]]:
        """Capture the same SnapshotSpec again (a new Snapshot); ``delta=True`` asks only for what
        changed (see ``Page.observe``)."""
        return self.browser._drive(self.browser._ops.observe(self.browser, self.spec, delta))

    @overload
    def diff(self: Snapshot[SyncClient]) -> SnapshotDiff: ...
    @overload
    def diff(self: Snapshot[AsyncClient]) -> Awaitable[SnapshotDiff]: ...
    def diff(self) -> SnapshotDiff | Awaitable[SnapshotDiff]:
        """Compare this snapshot with the active page now."""
        return self.browser._drive(self.browser._ops.diff(self))

    # -- presentation ----------------------------------------------------------

    def __repr__(self) -> str:
        first = self.text.strip().splitlines()[0] if self.text.strip() else ""
        return (
            f"Snapshot(origin={clip_repr(self.origin, 80)}, generation={self.generation}, "
            f"refs={len(self.refs)}, lines={self.text.count(chr(10)) + 1}, text={clip_repr(first, 80)})"
        )

    _DISPLAY_CHARS: ClassVar[int] = 6000

    def _repr_markdown_(self) -> str:
        body = clip(self.text, self._DISPLAY_CHARS).replace("```", "`\u200b``")
        return (
            f"**Snapshot** of `{clip(self.origin, 200)}` — {len(self.refs)} refs, generation "
            f"{self.generation}{' (truncated)' if self.truncated else ''}\n\n```\n{body}\n```"
        )

    def _repr_html_(self) -> str:
        body = html.escape(clip(self.text, self._DISPLAY_CHARS))
        return (
            f"<div><b>Snapshot</b> of <code>{html.escape(clip(self.origin, 200))}</code> — "
            f"{len(self.refs)} refs, generation {self.generation}"
            f"{' (truncated)' if self.truncated else ''}<pre>{body}</pre></div>"
        )


def _criteria(role: str | None, name: str | None, contains: str | None, exact: bool) -> str:
    parts = [
        f"{k}={clip(v, 60)!r}" for k, v in (("role", role), ("name", name), ("contains", contains)) if v is not None
    ]
    parts.append(f"exact={exact}")
    return "(" + ", ".join(parts) + ")"


#: pyagentbrowser's name for a snapshot of an async browser: the same :class:`Snapshot`, whose
#: operations return awaitables when it is bound to an ``AsyncBrowser``.
AsyncSnapshot = Snapshot
