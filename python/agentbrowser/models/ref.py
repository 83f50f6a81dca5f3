"""A :class:`Ref`: one element of a snapshot, with its mutations and reads."""

from __future__ import annotations

from collections.abc import Awaitable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, overload

from ._actionable import Mutable
from ._bounded import clip
from ._client import AsyncClient, B, SyncClient

if TYPE_CHECKING:
    from .action import ActionResult
    from .snapshot import Snapshot


def _norm(text: str) -> str:
    return " ".join(text.split()).casefold()


@dataclass(frozen=True, slots=True, repr=False)
class Ref(Mutable[B, "ActionResult[B]"]):
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

    @property
    def document(self) -> Any:
        """The page or frame handle whose snapshot issued this ref (``snapshot.document``)."""
        return self.snapshot.document

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

    def _wire_target(self) -> str:
        return self.id

    def _as_ref(self) -> Ref[B]:
        return self

    # -- re-resolution ---------------------------------------------------------------

    @overload
    def refresh(
        self: Ref[SyncClient],
        *,
        role: str | None = ...,
        name: str | None = ...,
        contains: str | None = ...,
        exact: bool = ...,
    ) -> Ref[B]: ...
    @overload
    def refresh(
        self: Ref[AsyncClient],
        *,
        role: str | None = ...,
        name: str | None = ...,
        contains: str | None = ...,
        exact: bool = ...,
    ) -> Awaitable[Ref[B]]: ...
    def refresh(
        self, *, role: str | None = None, name: str | None = None, contains: str | None = None, exact: bool = True
    ) -> Ref[Any] | Awaitable[Ref[Any]]:
        """Take a fresh snapshot (same spec) and resolve this ref's role and name in it.

        ``role``/``name``/``contains`` override the criteria; LookupError when not exactly one matches.
        """
        return self.browser._drive(self.browser._ops.refresh_ref(self, role, name, contains, exact))

    def content_frame(self) -> Any:
        """The frame handle of the ``<iframe>`` this ref is (``document.frames.get(selector=ref)``,
        awaitable on the async client); InvalidArgumentError (a ValueError) when it is no iframe."""
        return self.document.frames.get(selector=self)


#: pyagentbrowser's name for a ref of an async browser: the same :class:`Ref`, whose operations
#: return awaitables when it is bound to an ``AsyncBrowser``.
AsyncRef = Ref
