"""The mutations and reads shared by every element target: :class:`~agentbrowser.Ref` (a
snapshot's ref) and :class:`~agentbrowser.Locator` (a selector or ``page.find`` locator,
resolved by the engine on every call).  Each runs through ``browser._ops`` with the target's
wire form (:meth:`Actionable._wire_target`) and its other arguments by their Python names; the
generated command checks their types and the engine their values."""

from __future__ import annotations

import os
from abc import ABC, abstractmethod
from collections.abc import Awaitable, Mapping
from typing import TYPE_CHECKING, Any, Generic, overload

from ._client import B

if TYPE_CHECKING:
    from collections.abc import Sequence

    from ..aio import AsyncBrowser
    from ..browser import Browser
    from .action import ActionResult
    from .files import Download
    from .ref import Ref
    from .specs import Modifier, MouseButton, Wait


class Actionable(ABC, Generic[B]):
    """Mutations (returning :class:`ActionResult` with evidence, each taking ``wait=``) and
    reads of one element target; subclasses say what goes in the request's ``ref``."""

    __slots__ = ()
    browser: B

    @abstractmethod
    def _wire_target(self) -> str | Mapping[str, Any]:
        """The request's ``ref``: a ref id, a selector string or ``{"find": {...}}``."""

    def _as_ref(self) -> Ref[B] | None:
        """The :class:`Ref` this target is, for errors and results (None for a locator)."""
        return None

    # -- mutations -------------------------------------------------------------

    @overload
    def click(
        self: Actionable[Browser],
        *,
        button: MouseButton = ...,
        click_count: int = ...,
        new_tab: bool = ...,
        modifiers: Sequence[Modifier] = ...,
        wait: Wait | None = ...,
    ) -> ActionResult[Browser]: ...
    @overload
    def click(
        self: Actionable[AsyncBrowser],
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
        if isinstance(click_count, int) and not isinstance(click_count, bool) and click_count not in (1, 2, 3):
            raise ValueError(
                f"{type(self).__name__}.click click_count must be 1, 2 or 3 (as the engine allows), got {click_count}"
            )
        params = {"button": button, "click_count": click_count, "new_tab": new_tab, "modifiers": modifiers or None}
        return self.browser._drive(self.browser._ops.mutate(self, "click", params, wait))

    @overload
    def fill(self: Actionable[Browser], value: str, *, wait: Wait | None = ...) -> ActionResult[Browser]: ...
    @overload
    def fill(
        self: Actionable[AsyncBrowser], value: str, *, wait: Wait | None = ...
    ) -> Awaitable[ActionResult[AsyncBrowser]]: ...
    def fill(self, value: str, *, wait: Wait | None = None) -> ActionResult[Any] | Awaitable[ActionResult[Any]]:
        """Replace the control's value."""
        return self.browser._drive(self.browser._ops.mutate(self, "fill", {"value": value}, wait))

    @overload
    def type(self: Actionable[Browser], text: str, *, wait: Wait | None = ...) -> ActionResult[Browser]: ...
    @overload
    def type(
        self: Actionable[AsyncBrowser], text: str, *, wait: Wait | None = ...
    ) -> Awaitable[ActionResult[AsyncBrowser]]: ...
    def type(self, text: str, *, wait: Wait | None = None) -> ActionResult[Any] | Awaitable[ActionResult[Any]]:
        """Type text with key and input events."""
        return self.browser._drive(self.browser._ops.mutate(self, "type", {"text": text}, wait))

    @overload
    def select(
        self: Actionable[Browser], value: str | Sequence[str], *, wait: Wait | None = ...
    ) -> ActionResult[Browser]: ...
    @overload
    def select(
        self: Actionable[AsyncBrowser], value: str | Sequence[str], *, wait: Wait | None = ...
    ) -> Awaitable[ActionResult[AsyncBrowser]]: ...
    def select(
        self, value: str | Sequence[str], *, wait: Wait | None = None
    ) -> ActionResult[Any] | Awaitable[ActionResult[Any]]:
        """Select an option by value (or label); a list selects exactly those in a ``<select multiple>``."""
        if isinstance(value, str):
            return self.browser._drive(self.browser._ops.mutate(self, "select", {"value": value}, wait))
        values = list(value) if not isinstance(value, (bytes, Mapping)) else None
        if not values or not all(isinstance(v, str) for v in values):
            raise TypeError(
                f"{type(self).__name__}.select value must be a string or a non-empty list of strings, got {value!r}"
            )
        return self.browser._drive(self.browser._ops.mutate(self, "select", {"values": values}, wait))

    @overload
    def upload(
        self: Actionable[Browser],
        files: str | os.PathLike[str] | Sequence[str | os.PathLike[str]],
        *,
        wait: Wait | None = ...,
    ) -> ActionResult[Browser]: ...
    @overload
    def upload(
        self: Actionable[AsyncBrowser],
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
        self: Actionable[Browser], path: str | os.PathLike[str], *, timeout_ms: int | None = ...
    ) -> Download: ...
    @overload
    def download(
        self: Actionable[AsyncBrowser], path: str | os.PathLike[str], *, timeout_ms: int | None = ...
    ) -> Awaitable[Download]: ...
    def download(
        self, path: str | os.PathLike[str], *, timeout_ms: int | None = None
    ) -> Download | Awaitable[Download]:
        """Click this element, wait for the download it starts, and move the file to ``path``."""
        return self.browser._drive(self.browser._ops.download(self, path, timeout_ms))

    @overload
    def check(self: Actionable[Browser], *, wait: Wait | None = ...) -> ActionResult[Browser]: ...
    @overload
    def check(self: Actionable[AsyncBrowser], *, wait: Wait | None = ...) -> Awaitable[ActionResult[AsyncBrowser]]: ...
    def check(self, *, wait: Wait | None = None) -> ActionResult[Any] | Awaitable[ActionResult[Any]]:
        """Make a checkbox or radio checked."""
        return self.browser._drive(self.browser._ops.mutate(self, "check", {}, wait))

    @overload
    def uncheck(self: Actionable[Browser], *, wait: Wait | None = ...) -> ActionResult[Browser]: ...
    @overload
    def uncheck(
        self: Actionable[AsyncBrowser], *, wait: Wait | None = ...
    ) -> Awaitable[ActionResult[AsyncBrowser]]: ...
    def uncheck(self, *, wait: Wait | None = None) -> ActionResult[Any] | Awaitable[ActionResult[Any]]:
        """Make a checkbox unchecked."""
        return self.browser._drive(self.browser._ops.mutate(self, "uncheck", {}, wait))

    @overload
    def hover(self: Actionable[Browser], *, wait: Wait | None = ...) -> ActionResult[Browser]: ...
    @overload
    def hover(self: Actionable[AsyncBrowser], *, wait: Wait | None = ...) -> Awaitable[ActionResult[AsyncBrowser]]: ...
    def hover(self, *, wait: Wait | None = None) -> ActionResult[Any] | Awaitable[ActionResult[Any]]:
        """Move the mouse over the element."""
        return self.browser._drive(self.browser._ops.mutate(self, "hover", {}, wait))

    @overload
    def tap(self: Actionable[Browser], *, wait: Wait | None = ...) -> ActionResult[Browser]: ...
    @overload
    def tap(self: Actionable[AsyncBrowser], *, wait: Wait | None = ...) -> Awaitable[ActionResult[AsyncBrowser]]: ...
    def tap(self, *, wait: Wait | None = None) -> ActionResult[Any] | Awaitable[ActionResult[Any]]:
        """Tap the element with a touch event."""
        return self.browser._drive(self.browser._ops.mutate(self, "tap", {}, wait))

    @overload
    def focus(self: Actionable[Browser], *, wait: Wait | None = ...) -> ActionResult[Browser]: ...
    @overload
    def focus(self: Actionable[AsyncBrowser], *, wait: Wait | None = ...) -> Awaitable[ActionResult[AsyncBrowser]]: ...
    def focus(self, *, wait: Wait | None = None) -> ActionResult[Any] | Awaitable[ActionResult[Any]]:
        """Focus the element."""
        return self.browser._drive(self.browser._ops.mutate(self, "focus", {}, wait))

    @overload
    def clear(self: Actionable[Browser], *, wait: Wait | None = ...) -> ActionResult[Browser]: ...
    @overload
    def clear(self: Actionable[AsyncBrowser], *, wait: Wait | None = ...) -> Awaitable[ActionResult[AsyncBrowser]]: ...
    def clear(self, *, wait: Wait | None = None) -> ActionResult[Any] | Awaitable[ActionResult[Any]]:
        """Empty the control's value."""
        return self.browser._drive(self.browser._ops.mutate(self, "clear", {}, wait))

    @overload
    def scroll_into_view(self: Actionable[Browser], *, wait: Wait | None = ...) -> ActionResult[Browser]: ...
    @overload
    def scroll_into_view(
        self: Actionable[AsyncBrowser], *, wait: Wait | None = ...
    ) -> Awaitable[ActionResult[AsyncBrowser]]: ...
    def scroll_into_view(self, *, wait: Wait | None = None) -> ActionResult[Any] | Awaitable[ActionResult[Any]]:
        """Scroll the element into the viewport."""
        return self.browser._drive(self.browser._ops.mutate(self, "scroll_into_view", {}, wait))

    @overload
    def drag_to(
        self: Actionable[Browser], target: str | Actionable[Any], *, wait: Wait | None = ...
    ) -> ActionResult[Browser]: ...
    @overload
    def drag_to(
        self: Actionable[AsyncBrowser], target: str | Actionable[Any], *, wait: Wait | None = ...
    ) -> Awaitable[ActionResult[AsyncBrowser]]: ...
    def drag_to(
        self, target: str | Actionable[Any], *, wait: Wait | None = None
    ) -> ActionResult[Any] | Awaitable[ActionResult[Any]]:
        """Drag this element onto ``target`` (a ref, selector, Ref or Locator) with real input."""
        return self.browser._drive(self.browser._ops.drag(self.browser, self, target, wait))

    # -- reads -------------------------------------------------------------------

    @overload
    def text(self: Actionable[Browser]) -> str: ...
    @overload
    def text(self: Actionable[AsyncBrowser]) -> Awaitable[str]: ...
    def text(self) -> str | Awaitable[str]:
        """The element's text content."""
        return self.browser._drive(self.browser._ops.read_str(self, "text", {}))

    @overload
    def inner_text(self: Actionable[Browser]) -> str: ...
    @overload
    def inner_text(self: Actionable[AsyncBrowser]) -> Awaitable[str]: ...
    def inner_text(self) -> str | Awaitable[str]:
        """The element's rendered text."""
        return self.browser._drive(self.browser._ops.read_str(self, "inner_text", {}))

    @overload
    def input_value(self: Actionable[Browser]) -> str: ...
    @overload
    def input_value(self: Actionable[AsyncBrowser]) -> Awaitable[str]: ...
    def input_value(self) -> str | Awaitable[str]:
        """The control's current value."""
        return self.browser._drive(self.browser._ops.read_str(self, "input_value", {}))

    @overload
    def attribute(self: Actionable[Browser], name: str) -> str | None: ...
    @overload
    def attribute(self: Actionable[AsyncBrowser], name: str) -> Awaitable[str | None]: ...
    def attribute(self, name: str) -> str | None | Awaitable[str | None]:
        """An attribute's value, or None when absent."""
        return self.browser._drive(self.browser._ops.read_opt_str(self, "attribute", {"name": name}))

    @overload
    def is_visible(self: Actionable[Browser]) -> bool: ...
    @overload
    def is_visible(self: Actionable[AsyncBrowser]) -> Awaitable[bool]: ...
    def is_visible(self) -> bool | Awaitable[bool]:
        """Whether the element is rendered with a box."""
        return self.browser._drive(self.browser._ops.read_bool(self, "is_visible"))

    @overload
    def is_enabled(self: Actionable[Browser]) -> bool: ...
    @overload
    def is_enabled(self: Actionable[AsyncBrowser]) -> Awaitable[bool]: ...
    def is_enabled(self) -> bool | Awaitable[bool]:
        """Whether the element is enabled."""
        return self.browser._drive(self.browser._ops.read_bool(self, "is_enabled"))

    @overload
    def is_checked(self: Actionable[Browser]) -> bool: ...
    @overload
    def is_checked(self: Actionable[AsyncBrowser]) -> Awaitable[bool]: ...
    def is_checked(self) -> bool | Awaitable[bool]:
        """Whether the checkbox or radio is checked."""
        return self.browser._drive(self.browser._ops.read_bool(self, "is_checked"))
