"""What the browser-bound models (:class:`Snapshot`, :class:`Ref`, :class:`ActionResult`)
know of the client that holds them: the :class:`Client` protocol (a :class:`SyncClient` drives
an operation to its value, an :class:`AsyncClient` to an awaitable), the type variable ``B``
they are generic in, and :class:`ModelOps`, the operations they run through ``browser._ops``
and ``browser._drive``.

The models never import the clients nor the operations (``_ops`` imports the models): each
client class provides the ``_ops`` module as its ``_ops`` attribute, and mypy checks that the
module has every operation below with these signatures, and that ``Browser`` is a
:class:`SyncClient` and ``AsyncBrowser`` an :class:`AsyncClient` wherever a model is bound to one.
"""

from __future__ import annotations

from collections.abc import Awaitable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

if TYPE_CHECKING:
    import os

    from .. import _wire_types as w
    from .._call import Op
    from .._held import HeldSnapshots
    from ._actionable import Actionable
    from .action import ActionResult
    from .files import Download
    from .locator import Locator
    from .ref import Ref
    from .results import SnapshotDiff
    from .snapshot import Snapshot
    from .specs import SnapshotSpec, Wait

T = TypeVar("T")


class Client(Protocol):
    """What a bound model needs of the client it belongs to."""

    @property
    def _ops(self) -> ModelOps:
        """The operations (the ``_ops`` module)."""

    @property
    def _held(self) -> HeldSnapshots:
        """The snapshots this client received (the bases of delta snapshots)."""

    @property
    def _document(self) -> Any:
        """The page or frame handle whose document this client's commands run in."""

    def _drive(self, op: Op[T]) -> T | Awaitable[T]:
        """Run one operation."""


class SyncClient(Client, Protocol):
    """A client that runs an operation to its value (``Browser``)."""

    def _drive(self, op: Op[T]) -> T:
        """Run one operation to its value."""


class AsyncClient(Client, Protocol):
    """A client that runs an operation as an awaitable (``AsyncBrowser``)."""

    def _drive(self, op: Op[T]) -> Awaitable[T]:
        """Run one operation as an awaitable."""


#: The client a bound model belongs to: with a SyncClient (Browser) its operations return
#: values, with an AsyncClient (AsyncBrowser) awaitables.  Covariant, so that a model's
#: overloads can take ``self: Model[SyncClient]`` (and ``Model[AsyncClient]``) and still answer
#: ``Model[B]``, the concrete client (mypy does not check a method type variable's bound on the
#: self type of an inherited method, so ``self: Model[S]`` with ``S`` bound to SyncClient would
#: pick the sync overload for an AsyncBrowser too).
B = TypeVar("B", bound=Client, covariant=True)
#: A client taken as an argument (by a function or a classmethod that builds a model bound to it).
C = TypeVar("C", bound=Client)


class ModelOps(Protocol):
    """The operations the bound models run (each a sans-IO generator of ``_ops``)."""

    def observe(self, browser: C, spec: SnapshotSpec | None, delta: bool = False) -> Op[Snapshot[C]]:
        """Capture a snapshot with ``spec`` (``delta``: only what changed, rebuilt whole)."""

    def diff(self, snapshot: Snapshot[Any]) -> Op[SnapshotDiff]:
        """Compare ``snapshot`` with the active page."""

    def mutate(
        self, target: Actionable[C], action: w.ActionOutputActions, params: Mapping[str, Any], wait: Wait | None
    ) -> Op[ActionResult[C]]:
        """Run one mutation on ``target`` (``params``: its other arguments by their Python names)."""

    def upload(
        self,
        browser: C,
        target: str | Actionable[Any] | None,
        files: str | os.PathLike[str] | Sequence[str | os.PathLike[str]],
        wait: Wait | None,
    ) -> Op[ActionResult[C]]:
        """Set files on the file input ``target`` stands for (``None``: the open file chooser)."""

    def download(
        self, target: str | Actionable[Any], path: str | os.PathLike[str], timeout_ms: int | None
    ) -> Op[Download]:
        """Click ``target`` and move the download it starts to ``path``."""

    def drag(
        self, browser: C, source: str | Actionable[Any], target: str | Actionable[Any], wait: Wait | None
    ) -> Op[ActionResult[C]]:
        """Drag ``source`` onto ``target``."""

    def read_str(
        self, target: Actionable[Any], action: w.ValueOutputStringActions, params: Mapping[str, Any]
    ) -> Op[str]:
        """Read one string of ``target``."""

    def read_opt_str(
        self, target: Actionable[Any], action: w.ValueOutputNullableStringActions, params: Mapping[str, Any]
    ) -> Op[str | None]:
        """Read one optional string of ``target``."""

    def read_bool(
        self, target: Actionable[Any], action: w.ValueOutputBooleanActions | w.CheckedOutputActions
    ) -> Op[bool]:
        """Read one boolean state of ``target``."""

    def refresh_ref(
        self, ref: Ref[C], role: str | None, name: str | None, contains: str | None, exact: bool
    ) -> Op[Ref[C]]:
        """Resolve ``ref``'s role and name in a fresh snapshot."""

    def locator_count(self, loc: Locator[Any]) -> Op[int]:
        """How many elements ``loc`` matches."""

    def locator_all(self, loc: Locator[C]) -> Op[tuple[Locator[C], ...]]:
        """Every element ``loc`` matches, as locators on their refs."""
