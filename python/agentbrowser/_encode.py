"""Python arguments put on the wire: the generated builders of ``_wire_ops`` pass every argument
through one of these checks (the JSON type its schema gives the parameter).

A value of the wrong Python type raises TypeError naming the parameter, and a number JSON cannot
carry (NaN, infinity) ValueError; the engine checks everything else (ranges, enum values,
non-empty strings) and its ``invalid_argument`` becomes a ValueError (:mod:`agentbrowser.errors`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeAlias

#: Checks one argument (of ``action``, named ``name``) and returns its JSON value.
Check: TypeAlias = Callable[[str, str, Any], Any]
#: One parameter: its wire key, its Python name, the argument, its check.
Field: TypeAlias = tuple[str, str, object, Check]


def params(action: str, fields: tuple[Field, ...]) -> dict[str, Any]:
    """The wire parameters of ``fields``, each checked; None arguments are left out."""
    return {key: check(action, name, value) for key, name, value, check in fields if value is not None}


def _wrong(action: str, name: str, expected: str, value: object) -> TypeError:
    return TypeError(f"{action}: {name} must be {expected}, got {type(value).__name__}")


def string(action: str, name: str, value: Any) -> str:
    """A string."""
    if not isinstance(value, str):
        raise _wrong(action, name, "a string", value)
    return value


def boolean(action: str, name: str, value: Any) -> bool:
    """A bool."""
    if not isinstance(value, bool):
        raise _wrong(action, name, "a bool", value)
    return value


def integer(action: str, name: str, value: Any) -> int:
    """An int (not a bool)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise _wrong(action, name, "an int", value)
    return value


def number(action: str, name: str, value: Any) -> float:
    """A finite int or float (not a bool): JSON has no NaN or infinity."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise _wrong(action, name, "a number", value)
    if not math.isfinite(value):
        raise ValueError(f"{action}: {name} must be a finite number, got {value!r}")
    return value


def _sequence(action: str, name: str, value: Any) -> Sequence[Any]:
    if isinstance(value, (str, bytes, Mapping)) or not isinstance(value, Sequence):
        raise _wrong(action, name, "a list", value)
    return value


def strings(action: str, name: str, value: Any) -> list[str]:
    """A sequence of strings (not a string)."""
    items = _sequence(action, name, value)
    if not all(isinstance(v, str) for v in items):
        raise TypeError(f"{action}: {name} must hold strings, got {[type(v).__name__ for v in items]}")
    return list(items)


def objects(action: str, name: str, value: Any) -> list[Any]:
    """A sequence of mappings (JSON objects)."""
    items = _sequence(action, name, value)
    if not all(isinstance(v, Mapping) for v in items):
        raise TypeError(f"{action}: {name} must hold mappings, got {[type(v).__name__ for v in items]}")
    return [dict(v) for v in items]


def string_map(action: str, name: str, value: Any) -> dict[str, str]:
    """A mapping of strings to strings."""
    if not isinstance(value, Mapping) or not all(isinstance(k, str) and isinstance(v, str) for k, v in value.items()):
        raise _wrong(action, name, "a mapping of str to str", value)
    return dict(value)


def obj(action: str, name: str, value: Any) -> Mapping[str, Any]:
    """A mapping (a JSON object the engine reads)."""
    if not isinstance(value, Mapping):
        raise _wrong(action, name, "a mapping", value)
    return value


def target(action: str, name: str, value: Any) -> str | Mapping[str, Any]:
    """A target: a ref, selector or XPath string, or a locator mapping."""
    if not isinstance(value, (str, Mapping)):
        raise _wrong(action, name, "a ref, a CSS selector, an XPath or a locator", value)
    return value


def anything(action: str, name: str, value: Any) -> Any:
    """Any JSON value (the engine reads it)."""
    return value


def flag(value: Any) -> Any:
    """A flag the wire takes only when set: None (left out) for False, else the value itself (a
    builder then checks that it is a bool: ``0`` or ``"no"`` is a TypeError, not False)."""
    return None if value is False else value
