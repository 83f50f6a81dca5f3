"""Typed field readers for native payloads: each raises NativeParseError naming the field."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .errors import NativeParseError

_MISSING: Any = object()


def mapping(model: str, value: object, field: str = "data") -> Mapping[str, Any]:
    """``value`` as a mapping, or NativeParseError for ``field``."""
    if not isinstance(value, Mapping):
        raise NativeParseError(model, field, f"expected an object, got {_kind(value)}", value)
    return value


def _get(model: str, raw: Mapping[str, Any], key: str) -> Any:
    value = raw.get(key, _MISSING)
    if value is _MISSING:
        raise NativeParseError(model, key, "missing field", raw)
    return value


def _wrong(model: str, key: str, expected: str, value: object, raw: Mapping[str, Any]) -> NativeParseError:
    return NativeParseError(model, key, f"expected {expected}, got {_kind(value)}", raw)


def req_str(model: str, raw: Mapping[str, Any], key: str) -> str:
    """The string ``raw[key]``; NativeParseError when missing or not a string."""
    value = _get(model, raw, key)
    if not isinstance(value, str):
        raise _wrong(model, key, "a string", value, raw)
    return value


def opt_str(model: str, raw: Mapping[str, Any], key: str, default: str | None = None) -> str | None:
    """The string ``raw[key]``, ``default`` when absent or null."""
    value = raw.get(key)
    if value is None:
        return default
    if not isinstance(value, str):
        raise _wrong(model, key, "a string or null", value, raw)
    return value


def req_bool(model: str, raw: Mapping[str, Any], key: str) -> bool:
    """The boolean ``raw[key]``; NativeParseError when missing or not a boolean."""
    value = _get(model, raw, key)
    if not isinstance(value, bool):
        raise _wrong(model, key, "a boolean", value, raw)
    return value


def opt_bool(model: str, raw: Mapping[str, Any], key: str, default: bool = False) -> bool:
    """The boolean ``raw[key]``, ``default`` when absent or null."""
    value = raw.get(key)
    if value is None:
        return default
    if not isinstance(value, bool):
        raise _wrong(model, key, "a boolean or null", value, raw)
    return value


def req_int(model: str, raw: Mapping[str, Any], key: str) -> int:
    """The integer ``raw[key]``; NativeParseError when missing or not an integer."""
    value = _get(model, raw, key)
    if isinstance(value, bool) or not isinstance(value, int):
        raise _wrong(model, key, "an integer", value, raw)
    return value


def opt_int(model: str, raw: Mapping[str, Any], key: str) -> int | None:
    """The integer ``raw[key]``, None when absent or null."""
    value = raw.get(key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise _wrong(model, key, "an integer or null", value, raw)
    return value


def req_map(model: str, raw: Mapping[str, Any], key: str) -> Mapping[str, Any]:
    """The object ``raw[key]``; NativeParseError when missing or not an object."""
    value = _get(model, raw, key)
    if not isinstance(value, Mapping):
        raise _wrong(model, key, "an object", value, raw)
    return value


def opt_map(model: str, raw: Mapping[str, Any], key: str) -> Mapping[str, Any] | None:
    """The object ``raw[key]``, None when absent or null."""
    value = raw.get(key)
    if value is None:
        return None
    if not isinstance(value, Mapping):
        raise _wrong(model, key, "an object or null", value, raw)
    return value


def req_list(model: str, raw: Mapping[str, Any], key: str) -> list[Any]:
    """The list ``raw[key]``; NativeParseError when missing or not a list."""
    value = _get(model, raw, key)
    if not isinstance(value, list):
        raise _wrong(model, key, "an array", value, raw)
    return value


def req_any(model: str, raw: Mapping[str, Any], key: str) -> Any:
    """The value ``raw[key]`` of any type; NativeParseError when missing."""
    return _get(model, raw, key)


def _kind(value: object) -> str:
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
