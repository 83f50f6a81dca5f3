"""A :class:`Locator`: a live target (CSS selector, XPath or ``page.find`` locator) resolved by
the engine every time one of its methods runs, and :class:`Finder`, ``page.find``.

The matching rules are the protocol's (``docs/protocol.md``, "Targets"): the role is compared
exactly (as the snapshot shows it); names and texts are case-insensitive substrings unless
``exact=True``; ``testid`` is the exact ``data-testid``; only rendered elements match.  Exactly
one element must match when an action or read runs: none raises BrowserError ``not_found``,
several raise :class:`~agentbrowser.AmbiguousTargetError` listing candidates (pick one with
:meth:`Locator.first`, :meth:`Locator.last` or :meth:`Locator.nth`).
"""

from __future__ import annotations

from .._alias import alias_required

import re
from collections.abc import Awaitable, Mapping
from dataclasses import dataclass, field, fields
from typing import Any, Generic, overload

from ._actionable import Mutable
from ._checks import check_type
from ._client import AsyncClient, B, SyncClient
from .action import ActionResult

#: The kinds a ``page.find`` locator matches by.
LOCATOR_KINDS = ("role", "text", "label", "placeholder", "alt", "title", "testid")


@dataclass(frozen=True, slots=True, repr=False)
class Locator(Mutable[B, "LocatorActionResult[B]"]):
    """A live target: ``target`` is its wire form (a CSS selector ``css=...``, an XPath
    ``xpath=...``, a ref id, or ``{"find": {...}}``); every method resolves it again.

    Mutations return a :class:`LocatorActionResult`: an :class:`ActionResult` (with evidence,
    like a :class:`Ref`'s) that has this locator's mutations and reads too, so they chain as
    pyagentbrowser's ``Query`` methods do (``find.role("button").hover().click()``); reads
    return values.  ``count()`` and ``all()`` list what matches now.
    """

    target: str | Mapping[str, Any]
    browser: B = field(compare=False)

    def _wire_target(self) -> str | Mapping[str, Any]:
        return self.target

    def _result(self, result: ActionResult[Any]) -> LocatorActionResult[B]:
        return LocatorActionResult(**_fields(result), locator=self, browser=self.browser)

    def describe(self) -> str:
        """How messages name this locator (``find role "button" name "Save"``, ``css=#x``)."""
        t = self.target
        if isinstance(t, str):
            return t
        f = t["find"]
        out = f"find {f['by']} {f['value']!r}"
        if f.get("name") is not None:
            out += f" name {f['name']!r}"
        if f.get("exact"):
            out += " exact"
        if f.get("nth") is not None:
            out += f" nth {f['nth']}"
        return out

    def __repr__(self) -> str:
        return f"Locator({self.describe()})"

    # pyagentbrowser's Query fields, read from ``target``.

    @property
    def selector(self) -> str | None:
        """The selector this locator resolves (``css=...``, ``xpath=...``, a ref id); None for a
        ``page.find`` locator by role, text, label, ..."""
        return self.target if isinstance(self.target, str) else None

    @property
    def action(self) -> str | None:
        """pyagentbrowser's name of a ``page.find`` locator's kind (``getbyrole``, ``getbytext``,
        ``getbyalttext``, ``getbytestid``, ...); None for a selector."""
        if isinstance(self.target, str):
            return None
        by = self.target["find"]["by"]
        return "getby" + ("alttext" if by == "alt" else by)

    @property
    def params(self) -> Mapping[str, Any] | None:
        """A ``page.find`` locator's criteria (``by``, ``value``, ``name``, ``exact``, ``nth``); None
        for a selector."""
        return None if isinstance(self.target, str) else self.target["find"]

    # -- picking one match -------------------------------------------------------------

    def nth(self, index: int) -> Locator[B]:
        """The match number ``index`` (0-based; negative counts from the end): a ``page.find``
        locator's ``nth``, a CSS selector's or XPath's ``>> nth=N`` (replacing an earlier pick)."""
        check_type("Locator.nth", "index", index, int, "an int")
        if isinstance(self.target, Mapping):
            find = {**self.target["find"], "nth": index}
            return Locator(target={"find": find}, browser=self.browser)
        base = _without_pick(self.target)
        if _REF.fullmatch(base.strip()):
            raise ValueError(
                f"Locator.nth picks among the matches of a selector or page.find locator; {self.describe()} "
                "is a ref, which names one element"
            )
        return Locator(target=f"{base} >> nth={index}", browser=self.browser)

    def first(self) -> Locator[B]:
        """The first match (in document order)."""
        return self.nth(0)

    def last(self) -> Locator[B]:
        """The last match."""
        return self.nth(-1)

    @overload
    def count(self: Locator[SyncClient]) -> int: ...
    @overload
    def count(self: Locator[AsyncClient]) -> Awaitable[int]: ...
    def count(self) -> int | Awaitable[int]:
        """How many elements match now."""
        return self.browser._drive(self.browser._ops.locator_count(self))

    @overload
    def all(self: Locator[SyncClient]) -> tuple[Locator[B], ...]: ...
    @overload
    def all(self: Locator[AsyncClient]) -> Awaitable[tuple[Locator[B], ...]]: ...
    def all(self) -> tuple[Locator[Any], ...] | Awaitable[tuple[Locator[Any], ...]]:
        """Every match now (at most 1000), each as a locator on its ref (``e12``)."""
        return self.browser._drive(self.browser._ops.locator_all(self))



@dataclass(frozen=True, slots=True, repr=False)
class LocatorActionResult(ActionResult[B], Mutable[B, "LocatorActionResult[B]"]):
    """What a :class:`Locator`'s mutation answers: its :class:`ActionResult` (``before``,
    ``after``, ``diff``, dialogs, errors, ...), which is also that locator's mutations and reads
    (each resolves the locator again), so calls chain as pyagentbrowser's ``Query`` methods,
    which return the query: ``find.role("button", name="Go").hover().click()``.  ``locator`` is
    the locator (for ``nth``, ``count``, ``describe``, ...); ``action`` stays the action's name."""

    locator: Locator[B] = field(kw_only=True, compare=False)
    """The locator that acted (the next chained call acts on it again)."""
    browser: B = field(kw_only=True, compare=False)
    """The client the locator is bound to."""

    def _wire_target(self) -> str | Mapping[str, Any]:
        return self.locator.target

    def _result(self, result: ActionResult[Any]) -> LocatorActionResult[B]:
        return self.locator._result(result)


def _fields(result: ActionResult[Any]) -> dict[str, Any]:
    """The fields of ``result`` by name (an :class:`ActionResult`'s, to build a subclass of it)."""
    return {f.name: getattr(result, f.name) for f in fields(ActionResult)}

#: A ref id as the protocol reads one (``e3``, ``@e3``, ``ref=e3``).
_REF = re.compile(r"(?:@|ref=)?e[0-9]+")
#: A pick at the end of a selector string (``>> first``, ``>> last``, ``>> nth=N``).
_PICK = re.compile(r"\s*>>\s*(?:first|last|nth=\s*-?[0-9]+)\s*$")


def _without_pick(target: str) -> str:
    """A selector string without its trailing pick, if it has one."""
    return _PICK.sub("", target)


def _text(who: str, field_name: str, value: object) -> str:
    check_type(who, field_name, value, str, "a string")
    assert isinstance(value, str)
    if not value.strip():
        raise ValueError(f"{who} {field_name} must not be empty")
    return value


class Finder(Generic[B]):
    """``page.find``: builds :class:`Locator` objects (nothing runs until one is used)."""

    def __init__(self, browser: B) -> None:
        self._b: B = browser

    def _find(self, by: str, value: str, *, name: str | None = None, exact: bool = False) -> Locator[B]:
        who = f"page.find.{by}"
        spec: dict[str, Any] = {"by": by, "value": _text(who, "value", value)}
        if name is not None:
            spec["name"] = _text(who, "name", name)
        check_type(who, "exact", exact, bool, "a bool")
        if exact:
            spec["exact"] = True
        return Locator(target={"find": spec}, browser=self._b)

    def css(self, selector: str) -> Locator[B]:
        """The element a CSS selector matches (document and open shadow roots)."""
        return Locator(target="css=" + _text("page.find.css", "selector", selector), browser=self._b)

    def xpath(self, expression: str) -> Locator[B]:
        """The element an XPath matches (the ``xpath=`` prefix is optional)."""
        expr = _text("page.find.xpath", "expression", expression)
        return Locator(target=expr if expr.startswith("xpath=") else "xpath=" + expr, browser=self._b)

    def role(self, role: str, *, name: str | None = None, exact: bool = False) -> Locator[B]:
        """Elements with this ARIA role (exact, as the snapshot shows it) and, with ``name``, an
        accessible name containing it (case-insensitive; ``exact``: equal)."""
        return self._find("role", role, name=name, exact=exact)

    def text(self, text: str, *, exact: bool = False) -> Locator[B]:
        """The innermost elements whose text contains ``text``."""
        return self._find("text", text, exact=exact)

    def label(self, label: str, *, exact: bool = False) -> Locator[B]:
        """Controls whose label (``<label>``, ``aria-label``, ``aria-labelledby``) matches."""
        return self._find("label", label, exact=exact)

    def placeholder(self, placeholder: str | None = None, *, text: str | None = None, exact: bool = False) -> Locator[B]:
        """Elements whose ``placeholder`` matches (``text=``: the same parameter under our older name)."""
        return self._find("placeholder", alias_required("find.placeholder()", "placeholder", placeholder, "text", text), exact=exact)

    def alt(self, text: str, *, exact: bool = False) -> Locator[B]:
        """Elements whose ``alt`` matches."""
        return self._find("alt", text, exact=exact)

    def title(self, text: str, *, exact: bool = False) -> Locator[B]:
        """Elements whose ``title`` matches."""
        return self._find("title", text, exact=exact)

    def testid(self, test_id: str) -> Locator[B]:
        """Elements whose ``data-testid`` equals ``test_id``."""
        return self._find("testid", test_id)

    #: pyagentbrowser's names.
    alt_text = alt
    test_id = testid

    def __repr__(self) -> str:
        return f"<Finder of {self._b!r}>"


#: pyagentbrowser's names for a live query (``page.find.*``): a :class:`Locator`, which resolves
#: its element at every action, sync or async by the browser it is bound to.
Query = Locator
#: The async twin's name: the same :class:`Locator`, bound to an ``AsyncBrowser``.
AsyncQuery = Locator
