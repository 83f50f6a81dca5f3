"""One native request (:class:`Call`), an operation that yields them (:data:`Op`), and the
typed :class:`Command` the generated builders of ``_wire_ops`` make: :func:`send` runs one
and answers its decoded result with the data it came from (:class:`Reply`).

An operation is a sans-IO generator: it yields :class:`Call` objects and receives each call's
response data; its return value is the typed result.  ``Browser._drive`` runs one with
blocking I/O, ``AsyncBrowser._drive`` with awaits.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, NamedTuple, TypeAlias, TypeVar

if TYPE_CHECKING:
    from .models.ref import Ref

T = TypeVar("T")
R = TypeVar("R")


@dataclass(frozen=True, slots=True)
class Call:
    """One native request: its action and camelCase parameters; ``ref`` is the ref it acts on
    (for errors), ``envelope`` asks for the whole answer, ``budget_ms`` is the wait the engine
    may spend beyond the request timeout, ``deadline_s`` replaces the client's deadline."""

    action: str
    params: Mapping[str, Any]
    ref: Ref[Any] | None = None
    envelope: bool = False
    budget_ms: int = 0
    deadline_s: float | None = None


#: An operation: yields calls, receives their data, returns its typed result.
Op: TypeAlias = Generator[Call, Any, T]


@dataclass(frozen=True, slots=True)
class Command(Generic[R]):
    """One command with its wire parameters (None dropped) and its result's decoder.  (A
    dataclass, not a generic NamedTuple: mypy infers the record type a lambda is given from a
    dataclass, ``_ops.then(g.title(), lambda out: out.title)``, and not from a NamedTuple.)"""

    action: str
    params: dict[str, Any]
    decode: Callable[[object], R]


class Reply(NamedTuple, Generic[R]):
    """A command's result decoded (``wire``) and the data it was decoded from (``raw``)."""

    wire: R
    raw: Mapping[str, Any]


def send(
    command: Command[R], *, ref: Ref[Any] | None = None, budget_ms: int = 0, deadline_s: float | None = None
) -> Op[Reply[R]]:
    """Send ``command`` (see :class:`Call` for the options) and decode its answer."""
    data = yield Call(command.action, command.params, ref, False, budget_ms, deadline_s)
    return Reply(command.decode(data), data)


def send_raw(
    command: Command[Any], *, ref: Ref[Any] | None = None, budget_ms: int = 0, deadline_s: float | None = None
) -> Op[Mapping[str, Any]]:
    """Send ``command`` and answer its data undecoded (for the models that decode it themselves)."""
    data: Mapping[str, Any] = yield Call(command.action, command.params, ref, False, budget_ms, deadline_s)
    return data
