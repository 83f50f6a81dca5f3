"""A :class:`Ref`: one element of a snapshot, with its mutations and reads."""

from __future__ import annotations

from collections.abc import Awaitable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Generic, overload

from ._bounded import clip
from ._checks import check_type
from ._client import B
from .specs import MODIFIERS, MOUSE_BUTTONS

if TYPE_CHECKING:
    import os

    from ..aio import AsyncBrowser
    from ..browser import Browser
    from .action import ActionResult
    from .files import Download
    from .snapshot import Snapshot
    from collections.abc import Sequence

    from .specs import Modifier, MouseButton, Wait


def _norm(text: str) -> str:
    return " ".join(text.split()).casefold()


@dataclass(frozen=True, slots=True, repr=False)
class Ref(Generic[B]):
    """One element of a snapshot, addressable by ``id`` (``e3``; ``selector`` is ``@e3``).

    Mutations return :class:`ActionResult` and accept ``wait=``; reads return values.
    Native ``stale_ref``/``unknown_ref`` failures raise StaleRefError (AsyncStaleRefError
    on the async client).
    """

    id: str
    selector: str
    role: str
    name: str
    frame: str | None
    snapshot: Snapshot[B] = field(compare=False)
    browser: B = field(compare=False)
    raw: Mapping[str, Any] = field(compare=False)

    def _matches(self, role: str | None, name: str | None, contains: str | None, exact: bool) -> bool:
        if role is not None and self.role.casefold() != role.casefold():
            return False
        if name is not None and (self.name != name if exact else _norm(self.name) != _norm(name)):
            return False
        if contains is not None and (contains not in self.name if exact else _norm(contains) not in _norm(self.name)):
            return False
        return True

    def _label(self) -> str:
        return f"@{self.id} {self.role} {clip(self.name, 40)!r}"

    def __repr__(self) -> str:
        return f"Ref({self._label()})"

    # -- mutations -------------------------------------------------------------

    @overload
    def click(
        self: Ref[Browser],
        *,
        button: MouseButton = ...,
        click_count: int = ...,
        new_tab: bool = ...,
        modifiers: Sequence[Modifier] = ...,
        wait: Wait | None = ...,
    ) -> ActionResult[Browser]: ...
    @overload
    def click(
        self: Ref[AsyncBrowser],
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
        check_type("Ref.click", "click_count", click_count, int, "1, 2 or 3")
        if click_count not in (1, 2, 3):
            raise ValueError(f"Ref.click click_count must be 1, 2 or 3 (as the engine allows), got {click_count}")
        check_type("Ref.click", "new_tab", new_tab, bool, "a bool")
        if isinstance(modifiers, str) or any(m not in MODIFIERS for m in modifiers):
            raise ValueError(f"Ref.click modifiers must be a list of {', '.join(MODIFIERS)}; got {modifiers!r}")
        params: dict[str, Any] = {"button": button, "clickCount": click_count, "newTab": new_tab}
        if modifiers:
            params["modifiers"] = list(modifiers)
        return self.browser._drive(self.browser._ops.mutate(self, "click", params, wait))

    @overload
    def fill(self: Ref[Browser], value: str, *, wait: Wait | None = ...) -> ActionResult[Browser]: ...
    @overload
    def fill(
        self: Ref[AsyncBrowser], value: str, *, wait: Wait | None = ...
    ) -> Awaitable[ActionResult[AsyncBrowser]]: ...
    def fill(self, value: str, *, wait: Wait | None = None) -> ActionResult[Any] | Awaitable[ActionResult[Any]]:
        """Replace the control's value."""
        check_type("Ref.fill", "value", value, str, "a string")
        return self.browser._drive(self.browser._ops.mutate(self, "fill", {"value": value}, wait))

    @overload
    def type(self: Ref[Browser], text: str, *, wait: Wait | None = ...) -> ActionResult[Browser]: ...
    @overload
    def type(
        self: Ref[AsyncBrowser], text: str, *, wait: Wait | None = ...
    ) -> Awaitable[ActionResult[AsyncBrowser]]: ...
    def type(self, text: str, *, wait: Wait | None = None) -> ActionResult[Any] | Awaitable[ActionResult[Any]]:
        """Type text with key and input events."""
        check_type("Ref.type", "text", text, str, "a string")
        return self.browser._drive(self.browser._ops.mutate(self, "type", {"text": text}, wait))

    @overload
    def select(self: Ref[Browser], value: str | Sequence[str], *, wait: Wait | None = ...) -> ActionResult[Browser]: ...
    @overload
    def select(
        self: Ref[AsyncBrowser], value: str | Sequence[str], *, wait: Wait | None = ...
    ) -> Awaitable[ActionResult[AsyncBrowser]]: ...
    def select(
        self, value: str | Sequence[str], *, wait: Wait | None = None
    ) -> ActionResult[Any] | Awaitable[ActionResult[Any]]:
        """Select an option by value (or label); a list selects exactly those in a ``<select multiple>``."""
        if isinstance(value, str):
            return self.browser._drive(self.browser._ops.mutate(self, "select", {"value": value}, wait))
        values = list(value) if not isinstance(value, (bytes, Mapping)) else None
        if not values or not all(isinstance(v, str) for v in values):
            raise TypeError(f"Ref.select value must be a string or a non-empty list of strings, got {value!r}")
        return self.browser._drive(self.browser._ops.mutate(self, "select", {"values": values}, wait))

    @overload
    def upload(
        self: Ref[Browser], files: str | os.PathLike[str] | Sequence[str | os.PathLike[str]], *, wait: Wait | None = ...
    ) -> ActionResult[Browser]: ...
    @overload
    def upload(
        self: Ref[AsyncBrowser],
        files: str | os.PathLike[str] | Sequence[str | os.PathLike[str]],
        *,
        wait: Wait | None = ...,
    ) -> Awaitable[ActionResult[AsyncBrowser]]: ...
    def upload(
        self, files: str | os.PathLike[str] | Sequence[str | os.PathLike[str]], *, wait: Wait | None = None
    ) -> ActionResult[Any] | Awaitable[ActionResult[Any]]:
        """Set files on this file input, or on the hidden one this button or label stands for."""
        return self.browser._drive(self.browser._ops.upload(self.browser, self, files, wait))

    @overload
    def download(
        self: Ref[Browser], path: str | os.PathLike[str], *, timeout_ms: int | None = ...
    ) -> Download: ...
    @overload
    def download(
        self: Ref[AsyncBrowser], path: str | os.PathLike[str], *, timeout_ms: int | None = ...
    ) -> Awaitable[Download]: ...
    def download(
        self, path: str | os.PathLike[str], *, timeout_ms: int | None = None
    ) -> Download | Awaitable[Download]:
        """Click this ref, wait for the download it starts, and move the file to ``path``."""
        return self.browser._drive(self.browser._ops.download(self, path, timeout_ms))

    @overload
    def check(self: Ref[Browser], *, wait: Wait | None = ...) -> ActionResult[Browser]: ...
    @overload
    def check(self: Ref[AsyncBrowser], *, wait: Wait | None = ...) -> Awaitable[ActionResult[AsyncBrowser]]: ...
    def check(self, *, wait: Wait | None = None) -> ActionResult[Any] | Awaitable[ActionResult[Any]]:
        """Make a checkbox or radio checked."""
        return self.browser._drive(self.browser._ops.mutate(self, "check", {}, wait))

    @overload
    def uncheck(self: Ref[Browser], *, wait: Wait | None = ...) -> ActionResult[Browser]: ...
    @overload
    def uncheck(self: Ref[AsyncBrowser], *, wait: Wait | None = ...) -> Awaitable[ActionResult[AsyncBrowser]]: ...
    def uncheck(self, *, wait: Wait | None = None) -> ActionResult[Any] | Awaitable[ActionResult[Any]]:
        """Make a checkbox unchecked."""
        return self.browser._drive(self.browser._ops.mutate(self, "uncheck", {}, wait))

    @overload
    def hover(self: Ref[Browser], *, wait: Wait | None = ...) -> ActionResult[Browser]: ...
    @overload
    def hover(self: Ref[AsyncBrowser], *, wait: Wait | None = ...) -> Awaitable[ActionResult[AsyncBrowser]]: ...
    def hover(self, *, wait: Wait | None = None) -> ActionResult[Any] | Awaitable[ActionResult[Any]]:
        """Move the mouse over the element."""
        return self.browser._drive(self.browser._ops.mutate(self, "hover", {}, wait))

    @overload
    def tap(self: Ref[Browser], *, wait: Wait | None = ...) -> ActionResult[Browser]: ...
    @overload
    def tap(self: Ref[AsyncBrowser], *, wait: Wait | None = ...) -> Awaitable[ActionResult[AsyncBrowser]]: ...
    def tap(self, *, wait: Wait | None = None) -> ActionResult[Any] | Awaitable[ActionResult[Any]]:
        """Tap the element with a touch event."""
        return self.browser._drive(self.browser._ops.mutate(self, "tap", {}, wait))

    @overload
    def focus(self: Ref[Browser], *, wait: Wait | None = ...) -> ActionResult[Browser]: ...
    @overload
    def focus(self: Ref[AsyncBrowser], *, wait: Wait | None = ...) -> Awaitable[ActionResult[AsyncBrowser]]: ...
    def focus(self, *, wait: Wait | None = None) -> ActionResult[Any] | Awaitable[ActionResult[Any]]:
        """Focus the element."""
        return self.browser._drive(self.browser._ops.mutate(self, "focus", {}, wait))

    @overload
    def clear(self: Ref[Browser], *, wait: Wait | None = ...) -> ActionResult[Browser]: ...
    @overload
    def clear(self: Ref[AsyncBrowser], *, wait: Wait | None = ...) -> Awaitable[ActionResult[AsyncBrowser]]: ...
    def clear(self, *, wait: Wait | None = None) -> ActionResult[Any] | Awaitable[ActionResult[Any]]:
        """Empty the control's value."""
        return self.browser._drive(self.browser._ops.mutate(self, "clear", {}, wait))

    @overload
    def scroll_into_view(self: Ref[Browser], *, wait: Wait | None = ...) -> ActionResult[Browser]: ...
    @overload
    def scroll_into_view(
        self: Ref[AsyncBrowser], *, wait: Wait | None = ...
    ) -> Awaitable[ActionResult[AsyncBrowser]]: ...
    def scroll_into_view(self, *, wait: Wait | None = None) -> ActionResult[Any] | Awaitable[ActionResult[Any]]:
        """Scroll the element into the viewport."""
        return self.browser._drive(self.browser._ops.mutate(self, "scroll_into_view", {}, wait))

    # -- reads -------------------------------------------------------------------

    @overload
    def text(self: Ref[Browser]) -> str: ...
    @overload
    def text(self: Ref[AsyncBrowser]) -> Awaitable[str]: ...
    def text(self) -> str | Awaitable[str]:
        """The element's text content."""
        return self.browser._drive(self.browser._ops.read_str(self, "text", {}))

    @overload
    def inner_text(self: Ref[Browser]) -> str: ...
    @overload
    def inner_text(self: Ref[AsyncBrowser]) -> Awaitable[str]: ...
    def inner_text(self) -> str | Awaitable[str]:
        """The element's rendered text."""
        return self.browser._drive(self.browser._ops.read_str(self, "inner_text", {}))

    @overload
    def input_value(self: Ref[Browser]) -> str: ...
    @overload
    def input_value(self: Ref[AsyncBrowser]) -> Awaitable[str]: ...
    def input_value(self) -> str | Awaitable[str]:
        """The control's current value."""
        return self.browser._drive(self.browser._ops.read_str(self, "input_value", {}))

    @overload
    def attribute(self: Ref[Browser], name: str) -> str | None: ...
    @overload
    def attribute(self: Ref[AsyncBrowser], name: str) -> Awaitable[str | None]: ...
    def attribute(self, name: str) -> str | None | Awaitable[str | None]:
        """An attribute's value, or None when absent."""
        check_type("Ref.attribute", "name", name, str, "a string")
        return self.browser._drive(self.browser._ops.read_opt_str(self, "attribute", {"name": name}))

    @overload
    def is_visible(self: Ref[Browser]) -> bool: ...
    @overload
    def is_visible(self: Ref[AsyncBrowser]) -> Awaitable[bool]: ...
    def is_visible(self) -> bool | Awaitable[bool]:
        """Whether the element is rendered with a box."""
        return self.browser._drive(self.browser._ops.read_bool(self, "is_visible"))

    @overload
    def is_enabled(self: Ref[Browser]) -> bool: ...
    @overload
    def is_enabled(self: Ref[AsyncBrowser]) -> Awaitable[bool]: ...
    def is_enabled(self) -> bool | Awaitable[bool]:
        """Whether the element is enabled."""
        return self.browser._drive(self.browser._ops.read_bool(self, "is_enabled"))

    @overload
    def is_checked(self: Ref[Browser]) -> bool: ...
    @overload
    def is_checked(self: Ref[AsyncBrowser]) -> Awaitable[bool]: ...
    def is_checked(self) -> bool | Awaitable[bool]:
        """Whether the checkbox or radio is checked."""
        return self.browser._drive(self.browser._ops.read_bool(self, "is_checked"))

    # -- re-resolution ---------------------------------------------------------------

    @overload
    def refresh(
        self: Ref[Browser],
        *,
        role: str | None = ...,
        name: str | None = ...,
        contains: str | None = ...,
        exact: bool = ...,
    ) -> Ref[Browser]: ...
    @overload
    def refresh(
        self: Ref[AsyncBrowser],
        *,
        role: str | None = ...,
        name: str | None = ...,
        contains: str | None = ...,
        exact: bool = ...,
    ) -> Awaitable[Ref[AsyncBrowser]]: ...
    def refresh(
        self, *, role: str | None = None, name: str | None = None, contains: str | None = None, exact: bool = True
    ) -> Ref[Any] | Awaitable[Ref[Any]]:
        """Take a fresh snapshot (same spec) and resolve this ref's role and name in it.

        ``role``/``name``/``contains`` override the criteria; LookupError when not exactly one matches.
        """
        return self.browser._drive(self.browser._ops.refresh_ref(self, role, name, contains, exact))
