"""What the browser-bound models (:class:`Snapshot`, :class:`Ref`, :class:`ActionResult`)
know of the client that holds them: the type variable ``B`` they are generic in, and
:class:`ModelOps`, the operations they run through ``browser._ops`` and ``browser._drive``.

The models never import the operations (``_ops`` imports the models): each client class
provides the ``_ops`` module as its ``_ops`` attribute, and mypy checks that the module
has every operation below with these signatures.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

if TYPE_CHECKING:
    import os

    from .. import _wire_types as w
    from .._ops import Op
    from ..aio import AsyncBrowser
    from ..browser import Browser
    from ._actionable import Actionable
    from .action import ActionResult
    from .files import Download
    from .locator import Locator
    from .ref import Ref
    from .results import SnapshotDiff
    from .snapshot import Snapshot
    from .specs import SnapshotSpec, Wait

#: The client a bound model belongs to: with a Browser its operations return values,
#: with an AsyncBrowser awaitables.
B = TypeVar("B", "Browser", "AsyncBrowser")


class ModelOps(Protocol):
    """The operations the bound models run (each a sans-IO generator of ``_ops``)."""

    def observe(self, browser: B, spec: SnapshotSpec | None, delta: bool = False) -> Op[Snapshot[B]]:
        """Capture a snapshot with ``spec`` (``delta``: only what changed, rebuilt whole)."""

    def diff(self, snapshot: Snapshot[Any]) -> Op[SnapshotDiff]:
        """Compare ``snapshot`` with the active page."""

    def mutate(
        self, target: Actionable[B], action: w.ActionOutputActions, params: Mapping[str, Any], wait: Wait | None
    ) -> Op[ActionResult[B]]:
        """Run one mutation on ``target`` (``params``: its other arguments by their Python names)."""

    def upload(
        self,
        browser: B,
        target: str | Actionable[Any] | None,
        files: str | os.PathLike[str] | Sequence[str | os.PathLike[str]],
        wait: Wait | None,
    ) -> Op[ActionResult[B]]:
        """Set files on the file input ``target`` stands for (``None``: the open file chooser)."""

    def download(self, target: str | Actionable[Any], path: str | os.PathLike[str], timeout_ms: int | None) -> Op[Download]:
        """Click ``target`` and move the download it starts to ``path``."""

    def drag(
        self, browser: B, source: str | Actionable[Any], target: str | Actionable[Any], wait: Wait | None
    ) -> Op[ActionResult[B]]:
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
        self, ref: Ref[B], role: str | None, name: str | None, contains: str | None, exact: bool
    ) -> Op[Ref[B]]:
        """Resolve ``ref``'s role and name in a fresh snapshot."""

    def locator_count(self, loc: Locator[Any]) -> Op[int]:
        """How many elements ``loc`` matches."""

    def locator_all(self, loc: Locator[B]) -> Op[tuple[Locator[B], ...]]:
        """Every element ``loc`` matches, as locators on their refs."""
