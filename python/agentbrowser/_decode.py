"""Strict JSON checks for native payloads; each failure raises NativeParseError naming the field.

The generated ``_wire_types`` decoders read each object through :class:`Fields` with the
checks below (one :data:`Check` a JSON type).  ``mapping``, ``req_bool``, ``opt_str`` and
``opt_bool`` read what the protocol schema does not describe: the response envelope, and
model fields that the protocol does not declare yet.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import FrozenInstanceError
from types import MappingProxyType
from typing import Any, ClassVar, TypeAlias, TypeVar, dataclass_transform

from .errors import NativeParseError

T = TypeVar("T")

_MISSING: Any = object()

#: Checks one JSON value found at a path (``refs.e3.role``) and returns it typed.
Check: TypeAlias = Callable[[object, str], T]


@dataclass_transform(frozen_default=True)
class Record:
    """The base of the generated wire types: frozen like a frozen dataclass (assigning raises
    FrozenInstanceError), compared and hashed by its fields, shown as ``Name(field=value, ...)``.

    The generated classes write ``__init__`` in their source (compiled once, cached as bytecode)
    instead of having ``@dataclass`` build it at every import: that took 1 ms a class.
    """

    __slots__ = ()
    #: The fields, in order (also what ``match`` patterns take positionally).
    __match_args__: ClassVar[tuple[str, ...]] = ()

    def __setattr__(self, name: str, value: object) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}")

    def _values(self) -> tuple[Any, ...]:
        return tuple(getattr(self, n) for n in self.__match_args__)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is self.__class__:
            assert isinstance(other, Record)
            return self._values() == other._values()
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        inner = ", ".join(f"{n}={getattr(self, n)!r}" for n in self.__match_args__)
        return f"{type(self).__qualname__}({inner})"

    def __reduce__(self) -> tuple[type[Record], tuple[Any, ...]]:
        """Copied and pickled as a call of the class with the fields (assigning them raises)."""
        return type(self), self._values()


class Mismatch(Exception):
    """A value at ``path`` is not ``expected``; :class:`Fields` turns it into NativeParseError."""

    def __init__(self, path: str, expected: str, value: object) -> None:
        super().__init__(path, expected)
        self.path = path
        self.expected = expected
        self.value = value


def join(path: str, key: str | int) -> str:
    """The path of ``key`` inside the value at ``path`` (``""`` is the payload itself)."""
    return f"{path}.{key}" if path else str(key)


class Fields:
    """One JSON object decoded as the schema type ``model``: typed reads of its fields."""

    __slots__ = ("model", "raw", "path")

    def __init__(self, model: str, raw: object, path: str) -> None:
        if type(raw) is not dict and not isinstance(raw, Mapping):
            raise NativeParseError(model, path or "data", f"expected an object, got {kind(raw)}", raw)
        self.model = model
        self.raw: Mapping[str, Any] = raw
        self.path = path

    def req(self, key: str, check: Check[T]) -> T:
        """The required field ``key`` checked by ``check``; NativeParseError when missing or wrong."""
        value = self.raw.get(key, _MISSING)
        if value is _MISSING:
            raise NativeParseError(self.model, join(self.path, key), "missing field", self.raw)
        try:
            return check(value, f"{self.path}.{key}" if self.path else key)
        except Mismatch as e:
            raise self._wrong(e) from None

    def opt(self, key: str, check: Check[T]) -> T | None:
        """The optional field ``key`` checked by ``check``; None when absent or null."""
        value = self.raw.get(key)
        if value is None:
            return None
        try:
            return check(value, f"{self.path}.{key}" if self.path else key)
        except Mismatch as e:
            raise self._wrong(e) from None

    def default(self, key: str, check: Check[T], default: T) -> T:
        """The optional field ``key`` checked by ``check``; the schema's ``default`` when absent or null."""
        value = self.opt(key, check)
        return default if value is None else value

    def _wrong(self, e: Mismatch) -> NativeParseError:
        return NativeParseError(self.model, e.path, f"expected {e.expected}, got {kind(e.value)}", self.raw)


def string(value: object, path: str) -> str:
    """A JSON string."""
    if not isinstance(value, str):
        raise Mismatch(path, "a string", value)
    return value


def boolean(value: object, path: str) -> bool:
    """A JSON boolean."""
    if not isinstance(value, bool):
        raise Mismatch(path, "a boolean", value)
    return value


def number(value: object, path: str) -> float:
    """A JSON number (an integer too)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise Mismatch(path, "a number", value)
    return value


def anything(value: object, path: str) -> Any:
    """Any JSON value, as it is."""
    return value


def integer(lo: int | None, hi: int | None) -> Check[int]:
    """The check of a JSON integer within ``lo``..``hi`` (None: unbounded)."""

    def check(value: object, path: str) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise Mismatch(path, "an integer", value)
        if (lo is not None and value < lo) or (hi is not None and value > hi):
            raise Mismatch(path, f"an integer in {lo if lo is not None else ''}..{hi if hi is not None else ''}", value)
        return value

    return check


def literal(choices: tuple[str, ...]) -> Check[str]:
    """The check of a JSON string that is one of ``choices``."""

    def check(value: object, path: str) -> str:
        if not isinstance(value, str) or value not in choices:
            raise Mismatch(path, "one of " + ", ".join(repr(c) for c in choices), value)
        return value

    return check


def nullable(inner: Check[T]) -> Check[T | None]:
    """The check of ``inner`` or null."""

    def check(value: object, path: str) -> T | None:
        return None if value is None else inner(value, path)

    return check


def array(item: Check[T]) -> Check[tuple[T, ...]]:
    """The check of a JSON array whose every item passes ``item`` (as a tuple)."""

    def check(value: object, path: str) -> tuple[T, ...]:
        if not isinstance(value, list):
            raise Mismatch(path, "an array", value)
        return tuple(item(v, join(path, i)) for i, v in enumerate(value))

    return check


def record(item: Check[T]) -> Check[Mapping[str, T]]:
    """The check of a JSON object whose every value passes ``item`` (a read-only mapping, in order)."""

    def check(value: object, path: str) -> Mapping[str, T]:
        if type(value) is not dict and not isinstance(value, Mapping):
            raise Mismatch(path, "an object", value)
        return MappingProxyType({k: item(v, join(path, k)) for k, v in value.items()})

    return check


# -- readers of what the schema does not describe ---------------------------------------------


def mapping(model: str, value: object, field: str = "data") -> Mapping[str, Any]:
    """``value`` as a mapping, or NativeParseError for ``field``."""
    if not isinstance(value, Mapping):
        raise NativeParseError(model, field, f"expected an object, got {kind(value)}", value)
    return value


def req_bool(model: str, raw: Mapping[str, Any], key: str) -> bool:
    """The boolean ``raw[key]``; NativeParseError when missing or not a boolean."""
    return Fields(model, raw, "").req(key, boolean)


def opt_str(model: str, raw: Mapping[str, Any], key: str, default: str | None = None) -> str | None:
    """The string ``raw[key]``, ``default`` when absent or null."""
    value = Fields(model, raw, "").opt(key, string)
    return default if value is None else value


def opt_bool(model: str, raw: Mapping[str, Any], key: str, default: bool = False) -> bool:
    """The boolean ``raw[key]``, ``default`` when absent or null."""
    return Fields(model, raw, "").default(key, boolean, default)


def kind(value: object) -> str:
    """The JSON kind of ``value`` for messages (``null``, ``a string``, ...)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "an array"
    if isinstance(value, Mapping):
        return "an object"
    return type(value).__name__
