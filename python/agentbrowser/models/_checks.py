"""Type and range checks of model inputs, with messages naming the owner and the field."""

from __future__ import annotations


def check_type(owner: str, name: str, value: object, types: type | tuple[type, ...], allowed: str) -> None:
    """TypeError naming ``owner.name`` unless ``value`` is one of ``types`` (a bool is no int here)."""
    if isinstance(value, bool) and bool not in (types if isinstance(types, tuple) else (types,)):
        raise TypeError(f"{owner}.{name} must be {allowed}, got {value!r}")
    if not isinstance(value, types):
        raise TypeError(f"{owner}.{name} must be {allowed}, got {type(value).__name__} {value!r}")


def check_timeout(owner: str, value: int | None, name: str = "timeout_ms") -> None:
    """A timeout is None or an int of milliseconds >= 0."""
    if value is None:
        return
    check_type(owner, name, value, int, "an int of milliseconds or None")
    if value < 0:
        raise ValueError(f"{owner}.{name} must be >= 0 milliseconds, got {value}")
