"""The mutations and reads shared by every element target: :class:`~agentbrowser.Ref` (a
snapshot's ref) and :class:`~agentbrowser.Locator` (a selector or ``page.find`` locator,
resolved by the engine on every call).  Each runs through ``browser._ops`` with the target's
wire form (:meth:`Actionable._wire_target`) and its other arguments by their Python names; the
generated command checks their types and the engine their values.

:class:`Actionable` has the reads, :class:`Mutable` the mutations too, generic in what they
answer: a ref's :class:`~agentbrowser.ActionResult`, a locator's
:class:`~agentbrowser.LocatorActionResult` (the same evidence, and the locator's mutations and
reads again, as pyagentbrowser's ``Query`` methods return the query: ``.hover().click()``)."""

from __future__ import annotations

import os
from abc import ABC, abstractmethod
from collections.abc import Awaitable, Mapping
from typing import TYPE_CHECKING, Any, Generic, TypeVar, overload

from ._client import AsyncClient, B, SyncClient

if TYPE_CHECKING:
    from collections.abc import Sequence

    from .action import ActionResult
    from .files import Download
    from .ref import Ref
    from .specs import Modifier, MouseButton, Wait


#: What a mutation of a :class:`Mutable` target answers: :class:`ActionResult` for a ref, the
#: chainable :class:`~agentbrowser.LocatorActionResult` for a locator.  Covariant like ``B``.
R = TypeVar("R", covariant=True)


class Actionable(ABC, Generic[B]):
    """The reads (and ``download``) of one element target; subclasses say what goes in the
    request's ``ref``.  :class:`Mutable` adds the mutations."""

    __slots__ = ()
    browser: B

    @abstractmethod
    def _wire_target(self) -> str | Mapping[str, Any]:
        """The request's ``ref``: a ref id, a selector string or ``{"find": {...}}``."""

    def _as_ref(self) -> Ref[B] | None:
        """The :class:`Ref` this target is, for errors and results (None for a locator)."""
        return None

    def _result(self, result: ActionResult[Any]) -> ActionResult[Any]:
        """What a mutation of this target answers, given its :class:`ActionResult` (a locator
        answers one that chains: more of its mutations and reads)."""
        return result

    # -- reads -------------------------------------------------------------------

    @overload
    def download(
        self: Actionable[SyncClient], path: str | os.PathLike[str], *, timeout_ms: int | None = ...
    ) -> Download: ...
    @overload
    def download(
        self: Actionable[AsyncClient], path: str | os.PathLike[str], *, timeout_ms: int | None = ...
    ) -> Awaitable[Download]: ...
    def download(
        self, path: str | os.PathLike[str], *, timeout_ms: int | None = None
    ) -> Download | Awaitable[Download]:
        """Click this element, wait for the download it starts, and move the file to ``path``."""
        return self.browser._drive(self.browser._ops.download(self, path, timeout_ms))

    @overload
    def text(self: Actionable[SyncClient]) -> str: ...
    @overload
    def text(self: Actionable[AsyncClient]) -> Awaitable[str]: ...
    def text(self) -> str | Awaitable[str]:
        """The element's text content."""
        return self.browser._drive(self.browser._ops.read_str(self, "text", {}))

    @overload
    def inner_text(self: Actionable[SyncClient]) -> str: ...
    @overload
    def inner_text(self: Actionable[AsyncClient]) -> Awaitable[str]: ...
    def inner_text(self) -> str | Awaitable[str]:
        """The element's rendered text."""
        return self.browser._drive(self.browser._ops.read_str(self, "inner_text", {}))

    @overload
    def input_value(self: Actionable[SyncClient]) -> str: ...
    @overload
    def input_value(self: Actionable[AsyncClient]) -> Awaitable[str]: ...
    def input_value(self) -> str | Awaitable[str]:
        """The control's current value."""
        return self.browser._drive(self.browser._ops.read_str(self, "input_value", {}))

    @overload
    def attribute(self: Actionable[SyncClient], name: str) -> str | None: ...
    @overload
    def attribute(self: Actionable[AsyncClient], name: str) -> Awaitable[str | None]: ...
    def attribute(self, name: str) -> str | None | Awaitable[str | None]:
        """An attribute's value, or None when absent."""
        return self.browser._drive(self.browser._ops.read_opt_str(self, "attribute", {"name": name}))

    @overload
    def is_visible(self: Actionable[SyncClient]) -> bool: ...
    @overload
    def is_visible(self: Actionable[AsyncClient]) -> Awaitable[bool]: ...
    def is_visible(self) -> bool | Awaitable[bool]:
        """Whether the element is rendered with a box."""
        return self.browser._drive(self.browser._ops.read_bool(self, "is_visible"))

    @overload
    def is_enabled(self: Actionable[SyncClient]) -> bool: ...
    @overload
    def is_enabled(self: Actionable[AsyncClient]) -> Awaitable[bool]: ...
    def is_enabled(self) -> bool | Awaitable[bool]:
        """Whether the element is enabled."""
        return self.browser._drive(self.browser._ops.read_bool(self, "is_enabled"))

    @overload
    def is_checked(self: Actionable[SyncClient]) -> bool: ...
    @overload
    def is_checked(self: Actionable[AsyncClient]) -> Awaitable[bool]: ...
    def is_checked(self) -> bool | Awaitable[bool]:
        """Whether the checkbox or radio is checked."""
        return self.browser._drive(self.browser._ops.read_bool(self, "is_checked"))


class Mutable(Actionable[B], Generic[B, R]):
    """An element target with mutations: each takes ``wait=`` and answers ``R``, an
    :class:`ActionResult` with the evidence (for a locator one that chains)."""

    __slots__ = ()

    # -- mutations -------------------------------------------------------------

    @overload
    def click(
        self: Mutable[SyncClient, R],
        *,
        button: MouseButton = ...,
        click_count: int = ...,
        new_tab: bool = ...,
        modifiers: Sequence[Modifier] = ...,
        wait: Wait | None = ...,
    ) -> R: ...
    @overload
    def click(
        self: Mutable[AsyncClient, R],
        *,
        button: MouseButton = ...,
        click_count: int = ...,
        new_tab: bool = ...,
        modifiers: Sequence[Modifier] = ...,
        wait: Wait | None = ...,
    ) -> Awaitable[R]: ...
    def click(
        self,
        *,
        button: MouseButton = "left",
        click_count: int = 1,
        new_tab: bool = False,
        modifiers: Sequence[Modifier] = (),
        wait: Wait | None = None,
    ) -> Any:
        """Click with a mouse button (left, right, middle) and count, holding ``modifiers``
        (Alt, Control, ControlOrMeta, Meta, Shift); ``new_tab`` opens links in a new tab."""
        if isinstance(click_count, int) and not isinstance(click_count, bool) and click_count not in (1, 2, 3):
            raise ValueError(
                f"{type(self).__name__}.click click_count must be 1, 2 or 3 (as the engine allows), got {click_count}"
            )
        params = {"button": button, "click_count": click_count, "new_tab": new_tab, "modifiers": modifiers or None}
        return self.browser._drive(self.browser._ops.mutate(self, "click", params, wait))

    @overload
    def fill(self: Mutable[SyncClient, R], value: str, *, wait: Wait | None = ...) -> R: ...
    @overload
    def fill(
        self: Mutable[AsyncClient, R], value: str, *, wait: Wait | None = ...
    ) -> Awaitable[R]: ...
    def fill(self, value: str, *, wait: Wait | None = None) -> Any:
        """Replace the control's value."""
        return self.browser._drive(self.browser._ops.mutate(self, "fill", {"value": value}, wait))

    @overload
    def type(self: Mutable[SyncClient, R], text: str, *, wait: Wait | None = ...) -> R: ...
    @overload
    def type(
        self: Mutable[AsyncClient, R], text: str, *, wait: Wait | None = ...
    ) -> Awaitable[R]: ...
    def type(self, text: str, *, wait: Wait | None = None) -> Any:
        """Type text with key and input events."""
        return self.browser._drive(self.browser._ops.mutate(self, "type", {"text": text}, wait))

    @overload
    def select(
        self: Mutable[SyncClient, R], value: str | Sequence[str], *, wait: Wait | None = ...
    ) -> R: ...
    @overload
    def select(
        self: Mutable[AsyncClient, R], value: str | Sequence[str], *, wait: Wait | None = ...
    ) -> Awaitable[R]: ...
    def select(
        self, value: str | Sequence[str], *, wait: Wait | None = None
    ) -> Any:
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
        self: Mutable[SyncClient, R],
        files: str | os.PathLike[str] | Sequence[str | os.PathLike[str]],
        *,
        wait: Wait | None = ...,
    ) -> R: ...
    @overload
    def upload(
        self: Mutable[AsyncClient, R],
        files: str | os.PathLike[str] | Sequence[str | os.PathLike[str]],
        *,
        wait: Wait | None = ...,
    ) -> Awaitable[R]: ...
    def upload(
        self, files: str | os.PathLike[str] | Sequence[str | os.PathLike[str]], *, wait: Wait | None = None
    ) -> Any:
        """Set files on this file input, or on the hidden one this button or label stands for."""
        return self.browser._drive(self.browser._ops.upload(self.browser, self, files, wait))

    @overload
    def check(self: Mutable[SyncClient, R], *, wait: Wait | None = ...) -> R: ...
    @overload
    def check(self: Mutable[AsyncClient, R], *, wait: Wait | None = ...) -> Awaitable[R]: ...
    def check(self, *, wait: Wait | None = None) -> Any:
        """Make a checkbox or radio checked."""
        return self.browser._drive(self.browser._ops.mutate(self, "check", {}, wait))

    @overload
    def uncheck(self: Mutable[SyncClient, R], *, wait: Wait | None = ...) -> R: ...
    @overload
    def uncheck(
        self: Mutable[AsyncClient, R], *, wait: Wait | None = ...
    ) -> Awaitable[R]: ...
    def uncheck(self, *, wait: Wait | None = None) -> Any:
        """Make a checkbox unchecked."""
        return self.browser._drive(self.browser._ops.mutate(self, "uncheck", {}, wait))

    @overload
    def hover(self: Mutable[SyncClient, R], *, wait: Wait | None = ...) -> R: ...
    @overload
    def hover(self: Mutable[AsyncClient, R], *, wait: Wait | None = ...) -> Awaitable[R]: ...
    def hover(self, *, wait: Wait | None = None) -> Any:
        """Move the mouse over the element."""
        return self.browser._drive(self.browser._ops.mutate(self, "hover", {}, wait))

    @overload
    def tap(self: Mutable[SyncClient, R], *, wait: Wait | None = ...) -> R: ...
    @overload
    def tap(self: Mutable[AsyncClient, R], *, wait: Wait | None = ...) -> Awaitable[R]: ...
    def tap(self, *, wait: Wait | None = None) -> Any:
        """Tap the element with a touch event."""
        return self.browser._drive(self.browser._ops.mutate(self, "tap", {}, wait))

    @overload
    def focus(self: Mutable[SyncClient, R], *, wait: Wait | None = ...) -> R: ...
    @overload
    def focus(self: Mutable[AsyncClient, R], *, wait: Wait | None = ...) -> Awaitable[R]: ...
    def focus(self, *, wait: Wait | None = None) -> Any:
        """Focus the element."""
        return self.browser._drive(self.browser._ops.mutate(self, "focus", {}, wait))

    @overload
    def clear(self: Mutable[SyncClient, R], *, wait: Wait | None = ...) -> R: ...
    @overload
    def clear(self: Mutable[AsyncClient, R], *, wait: Wait | None = ...) -> Awaitable[R]: ...
    def clear(self, *, wait: Wait | None = None) -> Any:
        """Empty the control's value."""
        return self.browser._drive(self.browser._ops.mutate(self, "clear", {}, wait))

    @overload
    def scroll_into_view(self: Mutable[SyncClient, R], *, wait: Wait | None = ...) -> R: ...
    @overload
    def scroll_into_view(
        self: Mutable[AsyncClient, R], *, wait: Wait | None = ...
    ) -> Awaitable[R]: ...
    def scroll_into_view(self, *, wait: Wait | None = None) -> Any:
        """Scroll the element into the viewport."""
        return self.browser._drive(self.browser._ops.mutate(self, "scroll_into_view", {}, wait))

    @overload
    def drag_to(
        self: Mutable[SyncClient, R], target: str | Actionable[Any], *, wait: Wait | None = ...
    ) -> R: ...
    @overload
    def drag_to(
        self: Mutable[AsyncClient, R], target: str | Actionable[Any], *, wait: Wait | None = ...
    ) -> Awaitable[R]: ...
    def drag_to(
        self, target: str | Actionable[Any], *, wait: Wait | None = None
    ) -> Any:
        """Drag this element onto ``target`` (a ref, selector, Ref or Locator) with real input."""
        return self.browser._drive(self.browser._ops.drag(self.browser, self, target, wait))
