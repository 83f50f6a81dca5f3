"""Paused actions: the typed continuation a :class:`~agentbrowser.ConfirmationRequired` carries.

The engine's action policy can pause a command (``confirmation_required``): nothing ran yet.
``pending.confirm()`` asks the engine to replay it (the engine re-reads the policy and checks
the page's host again) and then finishes the SDK's own typed work on its answer: a confirmed
ref click returns the same :class:`~agentbrowser.ActionResult` (wait, after-snapshot, diff) the
click would have.  ``deny()`` drops it.  ``map(fn)`` returns a continuation that applies ``fn``
to the typed result; several compose in the order they were added.
"""

from __future__ import annotations

from .._alias import alias

from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from ..errors import ConfirmationRequired

__all__ = ["PendingAction", "AsyncPendingAction"]

T = TypeVar("T")
U = TypeVar("U")


class _Details:
    """Readable fields of a ``confirmation_required`` answer's data (shared by both twins)."""

    __slots__ = ()
    details: Mapping[str, Any]

    @property
    def target(self) -> Any:
        """What the action acts on: the ``ref`` (ref, selector or locator) or the ``url``."""
        return self.details.get("target")

    @property
    def role(self) -> str | None:
        """The accessible role of a ref's element when it was issued (refs only)."""
        return self._text("role")

    @property
    def name(self) -> str | None:
        """The accessible name of a ref's element when it was issued (refs only)."""
        return self._text("name")

    @property
    def rule(self) -> str | None:
        """The policy rule that asked for the confirmation (``confirm: click``)."""
        return self._text("rule")

    @property
    def host(self) -> str | None:
        """The host the policy decided for (the page's, or the URL's for a navigation)."""
        return self._text("host")

    def _text(self, key: str) -> str | None:
        v = self.details.get(key)
        return v if isinstance(v, str) else None

    @property
    def expires_at_ms(self) -> int | None:
        """When the confirmation expires (then it counts as denied), in ms since the Unix epoch."""
        v = self.details.get("expiresAtMs")
        return v if isinstance(v, int) and not isinstance(v, bool) else None


@dataclass(frozen=True, slots=True, eq=False)
class PendingAction(_Details, Generic[T]):
    """One paused action of a synchronous :class:`~agentbrowser.Browser`.

    ``confirmation_id`` is the engine's id, ``action`` the native action and ``details`` the
    complete data of the ``confirmation_required`` answer.  A confirmation is answered once: a
    second ``confirm()`` or ``deny()`` raises :class:`~agentbrowser.BrowserError`
    (``confirmation_consumed``), as does one after the timeout (``confirmation_expired``) or
    a replay the policy now refuses (``action_denied``, ``policy_invalid``).
    """

    confirmation_id: str
    action: str
    details: Mapping[str, Any]
    _confirm: Callable[[], T] = field(repr=False)
    _deny: Callable[[], None] = field(repr=False)

    def confirm(self) -> T:
        """Replay the action (after the engine re-checks policy and host) and finish its typed work.

        Another paused step of the same operation raises ConfirmationRequired again."""
        return self._confirm()

    def deny(self) -> None:
        """Reject the action and consume the confirmation; nothing runs."""
        self._deny()

    def map(
        self, callback: Callable[[T], U] | None = None, *, complete: Callable[[T], U] | None = None
    ) -> PendingAction[U]:
        """A continuation that applies ``callback`` to this one's typed result (in the order added);
        ``complete=`` is pyagentbrowser's name of the same parameter."""
        callback = alias("PendingAction.map()", "complete", complete, "callback", callback)
        if not callable(callback):
            raise TypeError(f"PendingAction.map takes a callable, got {type(callback).__name__}")
        previous = self._confirm
        return PendingAction(
            self.confirmation_id,
            self.action,
            self.details,
            lambda: callback(previous()),
            self._deny,
        )

    def map_error(self, transform: Callable[[Exception], BaseException]) -> PendingAction[T]:
        """A continuation whose failures (an exception ``confirm()`` raises, but not another
        ConfirmationRequired) are raised as ``transform(error)`` instead (in the order added)."""
        if not callable(transform):
            raise TypeError(f"PendingAction.map_error takes a callable, got {type(transform).__name__}")
        previous = self._confirm

        def confirm() -> T:
            try:
                return previous()
            except ConfirmationRequired:
                raise
            except Exception as error:
                raise _transformed(transform, error) from error

        return PendingAction(self.confirmation_id, self.action, self.details, confirm, self._deny)


@dataclass(frozen=True, slots=True, eq=False)
class AsyncPendingAction(_Details, Generic[T]):
    """One paused action of an :class:`~agentbrowser.AsyncBrowser`: the same fields as
    :class:`PendingAction`; ``confirm()`` and ``deny()`` are awaitable, ``map()`` is not."""

    confirmation_id: str
    action: str
    details: Mapping[str, Any]
    _confirm: Callable[[], Awaitable[T]] = field(repr=False)
    _deny: Callable[[], Awaitable[None]] = field(repr=False)

    async def confirm(self) -> T:
        """Replay the action (after the engine re-checks policy and host) and finish its typed work."""
        return await self._confirm()

    async def deny(self) -> None:
        """Reject the action and consume the confirmation; nothing runs."""
        await self._deny()

    def map(
        self, callback: Callable[[T], U] | None = None, *, complete: Callable[[T], U] | None = None
    ) -> AsyncPendingAction[U]:
        """A continuation that applies ``callback`` to this one's typed result (in the order added);
        ``complete=`` is pyagentbrowser's name of the same parameter."""
        callback = alias("AsyncPendingAction.map()", "complete", complete, "callback", callback)
        if not callable(callback):
            raise TypeError(f"AsyncPendingAction.map takes a callable, got {type(callback).__name__}")
        previous = self._confirm

        async def composed() -> U:
            return callback(await previous())

        return AsyncPendingAction(self.confirmation_id, self.action, self.details, composed, self._deny)

    def map_error(self, transform: Callable[[Exception], BaseException]) -> AsyncPendingAction[T]:
        """A continuation whose failures (an exception ``await confirm()`` raises, but not another
        ConfirmationRequired) are raised as ``transform(error)`` instead (in the order added)."""
        if not callable(transform):
            raise TypeError(f"AsyncPendingAction.map_error takes a callable, got {type(transform).__name__}")
        previous = self._confirm

        async def confirm() -> T:
            try:
                return await previous()
            except ConfirmationRequired:
                raise
            except Exception as error:
                raise _transformed(transform, error) from error

        return AsyncPendingAction(self.confirmation_id, self.action, self.details, confirm, self._deny)


def _transformed(transform: Callable[[Exception], BaseException], error: Exception) -> BaseException:
    """``transform(error)``, checked to be an exception."""
    out = transform(error)
    if not isinstance(out, BaseException):
        raise TypeError(f"map_error's transform must return an exception, got {type(out).__name__}")
    return out
