"""Audits: the axe-core accessibility audit (:class:`AccessibilityAudit`) and the page's Web
Vitals (:class:`Vitals`).

Every model keeps the native mapping it was built from in ``raw``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .. import _wire_types as w
from ._bounded import Bounded
from ._records import WireModel

#: How a Web Vital compares with web.dev's thresholds.
VitalRating = w.VitalRating


def _target(value: Any) -> Any:
    """A target entry as tuples: a selector, or the selectors across shadow roots (host first)."""
    if isinstance(value, list):
        return tuple(_target(v) for v in value)
    return value


@dataclass(frozen=True, slots=True, repr=False)
class AccessibilityNode(Bounded):
    """One element an issue is about: axe's ``target`` (one entry per frame from the top
    document down; an entry that is itself a tuple crosses shadow roots, host first), its
    opening tag (``html``, cut at 300 bytes), what to fix (``failure_summary``) and its
    snapshot ``ref`` when a snapshot of its document gave it one (None otherwise)."""

    target: tuple[Any, ...]
    html: str
    failure_summary: str | None
    ref: str | None
    raw: Mapping[str, Any] = field(repr=False, compare=False)

    @classmethod
    def from_wire(cls, wire: w.AccessibilityNode, raw: Mapping[str, Any]) -> AccessibilityNode:
        """Build from the decoded node ``raw``."""
        return cls(
            target=tuple(_target(t) for t in wire.target),
            html=wire.html,
            failure_summary=wire.failure_summary,
            ref=wire.ref,
            raw=raw,
        )


@dataclass(frozen=True, slots=True, repr=False)
class AccessibilityIssue(Bounded):
    """One axe rule that failed (a violation) or could not be decided (incomplete): its ``id``
    (``image-alt``), worst ``impact`` (``minor`` to ``critical``, or None), ``help`` and
    ``help_url``, ``tags``, how many elements it found (``node_count``) and the first of them
    (``nodes``, at most ``max_nodes``)."""

    id: str
    impact: str | None
    help: str
    help_url: str
    tags: tuple[str, ...]
    node_count: int
    nodes: tuple[AccessibilityNode, ...]
    raw: Mapping[str, Any] = field(repr=False, compare=False)

    @classmethod
    def from_wire(cls, wire: w.AccessibilityIssue, raw: Mapping[str, Any]) -> AccessibilityIssue:
        """Build from the decoded issue ``raw``."""
        nodes = tuple(AccessibilityNode.from_wire(n, r) for n, r in zip(wire.nodes, raw["nodes"], strict=True))
        return cls(
            id=wire.id,
            impact=wire.impact,
            help=wire.help,
            help_url=wire.help_url,
            tags=tuple(wire.tags),
            node_count=wire.node_count,
            nodes=nodes,
            raw=raw,
        )


#: How many axe rules ended in each outcome (``violations``, ``incomplete``, ``passes``,
#: ``inapplicable``): the protocol's record.
AccessibilityCounts = w.AccessibilityCounts


@dataclass(frozen=True, slots=True, repr=False)
class AccessibilityAudit(Bounded):
    """An axe-core audit of a page and its frames: the audited ``url``, ``axe_version``,
    ``counts``, ``violations`` (worst impact first) and ``incomplete`` checks.

    ``raw`` holds the native answer: ``frames`` (documents audited),
    ``truncated`` (some issue lists fewer nodes than it found) and axe's report without node
    lists (``raw["raw"]``).
    """

    url: str
    axe_version: str
    counts: AccessibilityCounts
    violations: tuple[AccessibilityIssue, ...]
    incomplete: tuple[AccessibilityIssue, ...]
    raw: Mapping[str, Any] = field(repr=False, compare=False)

    @classmethod
    def from_wire(cls, wire: w.AccessibilityAudit, raw: Mapping[str, Any]) -> AccessibilityAudit:
        """Build from the decoded ``a11y`` data ``raw``."""

        def issues(ws: tuple[w.AccessibilityIssue, ...], rs: list[Mapping[str, Any]]) -> tuple[AccessibilityIssue, ...]:
            return tuple(AccessibilityIssue.from_wire(i, r) for i, r in zip(ws, rs, strict=True))

        return cls(
            url=wire.url,
            axe_version=wire.axe_version,
            counts=wire.counts,
            violations=issues(wire.violations, raw["violations"]),
            incomplete=issues(wire.incomplete, raw["incomplete"]),
            raw=raw,
        )


class Vital(Bounded, WireModel, w.Vital):
    """One Web Vital: its ``value`` in ``unit`` (``ms``, or ``score`` for CLS) rated against
    web.dev's thresholds (at or under ``good`` is good, over ``poor`` is poor), or ``value``
    None and the ``reason`` it could not be measured."""

    __slots__ = ()


@dataclass(frozen=True, slots=True, repr=False)
class Vitals(Bounded):
    """The page's Web Vitals from its own performance entries: ``lcp`` (Largest Contentful
    Paint, ms), ``cls`` (Cumulative Layout Shift, score), ``inp`` (Interaction to Next Paint,
    ms; None until the page saw an interaction), ``fcp`` (First Contentful Paint, ms) and
    ``ttfb`` (Time to First Byte, ms), each a :class:`Vital`.

    ``raw`` holds the native answer; ``raw["raw"]`` what the page reported (navigation timing,
    the LCP element, layout shift entries with their sources, the interaction count).
    """

    url: str
    lcp: Vital
    cls: Vital
    inp: Vital
    fcp: Vital
    ttfb: Vital
    raw: Mapping[str, Any] = field(repr=False, compare=False)

    @classmethod
    def from_wire(cls, wire: w.VitalsOutput, raw: Mapping[str, Any]) -> Vitals:
        """Build from the decoded ``vitals`` data ``raw``."""
        return cls(
            url=wire.url,
            lcp=Vital.from_wire(wire.lcp),
            cls=Vital.from_wire(wire.cls),
            inp=Vital.from_wire(wire.inp),
            fcp=Vital.from_wire(wire.fcp),
            ttfb=Vital.from_wire(wire.ttfb),
            raw=raw,
        )

    @property
    def settled(self) -> bool:
        """Whether the page was quiet for the settle window before the cap (False: read while still busy)."""
        return w.VitalsOutput.decode(self.raw).settle.settled

    @property
    def settle_waited_ms(self) -> int:
        """How long the read waited for the page to settle, in milliseconds."""
        return w.VitalsOutput.decode(self.raw).settle.waited_ms
