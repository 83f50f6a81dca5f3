"""pyagentbrowser's forms beside ours: parameters it names differently (a call may use its name or
ours, not both), and strings that are also its namespaces (:class:`BoundStr`)."""

from __future__ import annotations

from typing import Any, Self, TypeVar

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


class BoundStr(str):
    """A ``str`` (a session name, a frame's URL) that carries the handle its methods use, so that
    pyagentbrowser's namespace or method of the same name works on it."""

    _owner: Any

    def __new__(cls, value: str, owner: Any) -> Self:
        made = super().__new__(cls, value)
        made._owner = owner
        return made
