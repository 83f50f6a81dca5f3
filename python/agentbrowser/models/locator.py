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

from collections.abc import Awaitable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Generic, overload

from ._checks import check_type
from ._client import B
from .specs import MODIFIERS, MOUSE_BUTTONS

if TYPE_CHECKING:
    from collections.abc import Sequence

    from ..aio import AsyncBrowser
    from ..browser import Browser
    from .action import ActionResult
    from .specs import Modifier, MouseButton, Wait

#: The kinds a ``page.find`` locator matches by.
LOCATOR_KINDS = ("role", "text", "label", "placeholder", "alt", "title", "testid")


@dataclass(frozen=True, slots=True, repr=False)
class Locator(Generic[B]):
    """A live target: ``target`` is its wire form (a CSS selector ``css=...``, an XPath
    ``xpath=...``, a ref id, or ``{"find": {...}}``); every method resolves it again.

    Mutations return :class:`ActionResult` (with evidence, like a :class:`Ref`'s); reads
    return values.  ``count()`` and ``all()`` list what matches now.
    """

    target: str | Mapping[str, Any]
    browser: B = field(compare=False)

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

    # -- picking one match -------------------------------------------------------------

    def nth(self, index: int) -> Locator[B]:
        """The match number ``index`` (0-based; negative counts from the end) of a ``page.find`` locator."""
        check_type("Locator.nth", "index", index, int, "an int")
        if not isinstance(self.target, Mapping):
            raise ValueError(
                f"Locator.nth applies to page.find locators (role, text, label, ...); {self.describe()} "
                "is a selector: make it match exactly one element"
            )
        find = {**self.target["find"], "nth": index}
        return Locator(target={"find": find}, browser=self.browser)

    def first(self) -> Locator[B]:
        """The first match (in document order)."""
        return self.nth(0)

    def last(self) -> Locator[B]:
        """The last match."""
        return self.nth(-1)

    @overload
    def count(self: Locator[Browser]) -> int: ...
    @overload
    def count(self: Locator[AsyncBrowser]) -> Awaitable[int]: ...
    def count(self) -> int | Awaitable[int]:
        """How many elements match now."""
        return self.browser._drive(self.browser._ops.locator_count(self))

    @overload
    def all(self: Locator[Browser]) -> tuple[Locator[Browser], ...]: ...
    @overload
    def all(self: Locator[AsyncBrowser]) -> Awaitable[tuple[Locator[AsyncBrowser], ...]]: ...
    def all(self) -> tuple[Locator[Any], ...] | Awaitable[tuple[Locator[Any], ...]]:
        """Every match now (at most 1000), each as a locator on its ref (``e12``)."""
        return self.browser._drive(self.browser._ops.locator_all(self))

    # -- mutations -------------------------------------------------------------

    @overload
    def click(
        self: Locator[Browser],
        *,
        button: MouseButton = ...,
        click_count: int = ...,
        new_tab: bool = ...,
        modifiers: Sequence[Modifier] = ...,
        wait: Wait | None = ...,
    ) -> ActionResult[Browser]: ...
    @overload
    def click(
        self: Locator[AsyncBrowser],
        *,
        button: MouseButton = ...,
        click_count: int = ...,
        new_tab: bool = ...,
        modifiers: Sequence[Modifier] = ...,
        wait: Wait | None = ...,
    ) -> Awaitable[ActionResult[AsyncBrowser]]: ...
    def click(
        self,
        *,
        button: MouseButton = "left",
        click_count: int = 1,
        new_tab: bool = False,
        modifiers: Sequence[Modifier] = (),
        wait: Wait | None = None,
    ) -> ActionResult[Any] | Awaitable[ActionResult[Any]]:
        """Click with a mouse button (left, right, middle) and count, holding ``modifiers``
        (Alt, Control, ControlOrMeta, Meta, Shift); ``new_tab`` opens links in a new tab."""
        if button not in MOUSE_BUTTONS:
            raise ValueError(f"click button must be one of {', '.join(MOUSE_BUTTONS)}; got {button!r}")
        check_type("Locator.click", "click_count", click_count, int, "1, 2 or 3")
        if click_count not in (1, 2, 3):
            raise ValueError(f"Locator.click click_count must be 1, 2 or 3 (as the engine allows), got {click_count}")
        check_type("Locator.click", "new_tab", new_tab, bool, "a bool")
        if isinstance(modifiers, str) or any(m not in MODIFIERS for m in modifiers):
            raise ValueError(f"Locator.click modifiers must be a list of {', '.join(MODIFIERS)}; got {modifiers!r}")
        params: dict[str, Any] = {"button": button, "clickCount": click_count, "newTab": new_tab}
        if modifiers:
            params["modifiers"] = list(modifiers)
        return self.browser._drive(self.browser._ops.locator_mutate(self, "click", params, wait))

    @overload
    def fill(self: Locator[Browser], value: str, *, wait: Wait | None = ...) -> ActionResult[Browser]: ...
    @overload
    def fill(
        self: Locator[AsyncBrowser], value: str, *, wait: Wait | None = ...
    ) -> Awaitable[ActionResult[AsyncBrowser]]: ...
    def fill(self, value: str, *, wait: Wait | None = None) -> ActionResult[Any] | Awaitable[ActionResult[Any]]:
        """Replace the control's value."""
        check_type("Locator.fill", "value", value, str, "a string")
        return self.browser._drive(self.browser._ops.locator_mutate(self, "fill", {"value": value}, wait))

    @overload
    def type(self: Locator[Browser], text: str, *, wait: Wait | None = ...) -> ActionResult[Browser]: ...
    @overload
    def type(
        self: Locator[AsyncBrowser], text: str, *, wait: Wait | None = ...
    ) -> Awaitable[ActionResult[AsyncBrowser]]: ...
    def type(self, text: str, *, wait: Wait | None = None) -> ActionResult[Any] | Awaitable[ActionResult[Any]]:
        """Type text with key and input events."""
        check_type("Locator.type", "text", text, str, "a string")
        return self.browser._drive(self.browser._ops.locator_mutate(self, "type", {"text": text}, wait))

    @overload
    def select(self: Locator[Browser], value: str, *, wait: Wait | None = ...) -> ActionResult[Browser]: ...
    @overload
    def select(
        self: Locator[AsyncBrowser], value: str, *, wait: Wait | None = ...
    ) -> Awaitable[ActionResult[AsyncBrowser]]: ...
    def select(self, value: str, *, wait: Wait | None = None) -> ActionResult[Any] | Awaitable[ActionResult[Any]]:
        """Select an option by value (or label)."""
        check_type("Locator.select", "value", value, str, "a string")
        return self.browser._drive(self.browser._ops.locator_mutate(self, "select", {"value": value}, wait))

    @overload
    def check(self: Locator[Browser], *, wait: Wait | None = ...) -> ActionResult[Browser]: ...
    @overload
    def check(self: Locator[AsyncBrowser], *, wait: Wait | None = ...) -> Awaitable[ActionResult[AsyncBrowser]]: ...
    def check(self, *, wait: Wait | None = None) -> ActionResult[Any] | Awaitable[ActionResult[Any]]:
        """Make a checkbox or radio checked."""
        return self.browser._drive(self.browser._ops.locator_mutate(self, "check", {}, wait))

    @overload
    def uncheck(self: Locator[Browser], *, wait: Wait | None = ...) -> ActionResult[Browser]: ...
    @overload
    def uncheck(self: Locator[AsyncBrowser], *, wait: Wait | None = ...) -> Awaitable[ActionResult[AsyncBrowser]]: ...
    def uncheck(self, *, wait: Wait | None = None) -> ActionResult[Any] | Awaitable[ActionResult[Any]]:
        """Make a checkbox unchecked."""
        return self.browser._drive(self.browser._ops.locator_mutate(self, "uncheck", {}, wait))

    @overload
    def hover(self: Locator[Browser], *, wait: Wait | None = ...) -> ActionResult[Browser]: ...
    @overload
    def hover(self: Locator[AsyncBrowser], *, wait: Wait | None = ...) -> Awaitable[ActionResult[AsyncBrowser]]: ...
    def hover(self, *, wait: Wait | None = None) -> ActionResult[Any] | Awaitable[ActionResult[Any]]:
        """Move the mouse over the element."""
        return self.browser._drive(self.browser._ops.locator_mutate(self, "hover", {}, wait))

    @overload
    def tap(self: Locator[Browser], *, wait: Wait | None = ...) -> ActionResult[Browser]: ...
    @overload
    def tap(self: Locator[AsyncBrowser], *, wait: Wait | None = ...) -> Awaitable[ActionResult[AsyncBrowser]]: ...
    def tap(self, *, wait: Wait | None = None) -> ActionResult[Any] | Awaitable[ActionResult[Any]]:
        """Tap the element with a touch event."""
        return self.browser._drive(self.browser._ops.locator_mutate(self, "tap", {}, wait))

    @overload
    def focus(self: Locator[Browser], *, wait: Wait | None = ...) -> ActionResult[Browser]: ...
    @overload
    def focus(self: Locator[AsyncBrowser], *, wait: Wait | None = ...) -> Awaitable[ActionResult[AsyncBrowser]]: ...
    def focus(self, *, wait: Wait | None = None) -> ActionResult[Any] | Awaitable[ActionResult[Any]]:
        """Focus the element."""
        return self.browser._drive(self.browser._ops.locator_mutate(self, "focus", {}, wait))

    @overload
    def clear(self: Locator[Browser], *, wait: Wait | None = ...) -> ActionResult[Browser]: ...
    @overload
    def clear(self: Locator[AsyncBrowser], *, wait: Wait | None = ...) -> Awaitable[ActionResult[AsyncBrowser]]: ...
    def clear(self, *, wait: Wait | None = None) -> ActionResult[Any] | Awaitable[ActionResult[Any]]:
        """Empty the control's value."""
        return self.browser._drive(self.browser._ops.locator_mutate(self, "clear", {}, wait))

    @overload
    def scroll_into_view(self: Locator[Browser], *, wait: Wait | None = ...) -> ActionResult[Browser]: ...
    @overload
    def scroll_into_view(
        self: Locator[AsyncBrowser], *, wait: Wait | None = ...
    ) -> Awaitable[ActionResult[AsyncBrowser]]: ...
    def scroll_into_view(self, *, wait: Wait | None = None) -> ActionResult[Any] | Awaitable[ActionResult[Any]]:
        """Scroll the element into the viewport."""
        return self.browser._drive(self.browser._ops.locator_mutate(self, "scroll_into_view", {}, wait))

    # -- reads -------------------------------------------------------------------

    @overload
    def text(self: Locator[Browser]) -> str: ...
    @overload
    def text(self: Locator[AsyncBrowser]) -> Awaitable[str]: ...
    def text(self) -> str | Awaitable[str]:
        """The element's text content."""
        return self.browser._drive(self.browser._ops.locator_read_str(self, "text", {}))

    @overload
    def inner_text(self: Locator[Browser]) -> str: ...
    @overload
    def inner_text(self: Locator[AsyncBrowser]) -> Awaitable[str]: ...
    def inner_text(self) -> str | Awaitable[str]:
        """The element's rendered text."""
        return self.browser._drive(self.browser._ops.locator_read_str(self, "inner_text", {}))

    @overload
    def input_value(self: Locator[Browser]) -> str: ...
    @overload
    def input_value(self: Locator[AsyncBrowser]) -> Awaitable[str]: ...
    def input_value(self) -> str | Awaitable[str]:
        """The control's current value."""
        return self.browser._drive(self.browser._ops.locator_read_str(self, "input_value", {}))

    @overload
    def attribute(self: Locator[Browser], name: str) -> str | None: ...
    @overload
    def attribute(self: Locator[AsyncBrowser], name: str) -> Awaitable[str | None]: ...
    def attribute(self, name: str) -> str | None | Awaitable[str | None]:
        """An attribute's value, or None when absent."""
        check_type("Locator.attribute", "name", name, str, "a string")
        return self.browser._drive(self.browser._ops.locator_read_opt_str(self, "attribute", {"name": name}))

    @overload
    def is_visible(self: Locator[Browser]) -> bool: ...
    @overload
    def is_visible(self: Locator[AsyncBrowser]) -> Awaitable[bool]: ...
    def is_visible(self) -> bool | Awaitable[bool]:
        """Whether the element is rendered with a box."""
        return self.browser._drive(self.browser._ops.locator_read_bool(self, "is_visible"))

    @overload
    def is_enabled(self: Locator[Browser]) -> bool: ...
    @overload
    def is_enabled(self: Locator[AsyncBrowser]) -> Awaitable[bool]: ...
    def is_enabled(self) -> bool | Awaitable[bool]:
        """Whether the element is enabled."""
        return self.browser._drive(self.browser._ops.locator_read_bool(self, "is_enabled"))

    @overload
    def is_checked(self: Locator[Browser]) -> bool: ...
    @overload
    def is_checked(self: Locator[AsyncBrowser]) -> Awaitable[bool]: ...
    def is_checked(self) -> bool | Awaitable[bool]:
        """Whether the checkbox or radio is checked."""
        return self.browser._drive(self.browser._ops.locator_read_bool(self, "is_checked"))


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

    def placeholder(self, text: str, *, exact: bool = False) -> Locator[B]:
        """Elements whose ``placeholder`` matches."""
        return self._find("placeholder", text, exact=exact)

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
