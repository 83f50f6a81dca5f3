"""Parameters that pyagentbrowser names differently: a call may use its name or ours, not both."""

from __future__ import annotations

from typing import TypeVar

T = TypeVar("T")


def alias(method: str, theirs: str, their_value: T | None, ours: str, our_value: T | None) -> T | None:
    """The value given under pyagentbrowser's name ``theirs`` or our name ``ours`` (None when
    neither); both given is a TypeError naming them."""
    if their_value is not None and our_value is not None:
        raise TypeError(f"{method} got both {theirs}= and {ours}= (one parameter under two names): pass one")
    return their_value if their_value is not None else our_value


def alias_required(method: str, theirs: str, their_value: T | None, ours: str, our_value: T | None) -> T:
    """Like :func:`alias`, for a parameter the call needs: neither given is a TypeError too."""
    value = alias(method, theirs, their_value, ours, our_value)
    if value is None:
        raise TypeError(f"{method} missing its argument {theirs!r} (or {ours}=)")
    return value
