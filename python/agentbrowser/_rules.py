"""Checks of the options a client chooses, by the constraints the protocol schema gives them.

The generated ``_wire_types.OPTION_RULES`` holds one :class:`Rule` per field of the schema's
``LaunchParams`` and ``clientOptions`` (its JSON type, range, length, pattern, enum); the
option classes (:mod:`agentbrowser.options`) check their values through it, so the engine's
schema is the one place these constraints are written.  A value of the wrong type raises
TypeError, a value out of range ValueError; both name the field.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["Rule"]

_PYTHON_TYPES = {"boolean": "a bool", "integer": "an int", "number": "a number", "string": "a str", "array": "a sequence"}


@dataclass(frozen=True, slots=True)
class Rule:
    """What one field accepts: its JSON ``kind``, null or not, and the schema's bounds."""

    kind: str
    nullable: bool = False
    minimum: int | float | None = None
    maximum: int | float | None = None
    min_length: int | None = None
    max_length: int | None = None
    pattern: str | None = None
    enum: tuple[str, ...] | None = None
    items: Rule | None = None

    def expected(self) -> str:
        """What a value must be, in words (``a str``, ``a sequence of str``)."""
        what = _PYTHON_TYPES[self.kind]
        if self.items is not None:
            what += " of " + _PYTHON_TYPES[self.items.kind].split(" ", 1)[1]
        return what + (" or None" if self.nullable else "")

    def check(self, label: str, value: object) -> None:
        """TypeError or ValueError naming ``label`` when ``value`` breaks this rule."""
        if value is None:
            if not self.nullable:
                raise TypeError(f"{label} must be {self.expected()}, got None")
            return
        if not self._has_type(value):
            raise TypeError(f"{label} must be {self.expected()}, got {type(value).__name__}")
        if self.kind == "array":
            assert isinstance(value, (list, tuple))
            if self.items is not None:
                for i, item in enumerate(value):
                    self.items.check(f"{label}[{i}]", item)
            return
        if self.kind in ("integer", "number"):
            assert isinstance(value, (int, float))
            self.check_range(label, value)
        elif self.kind == "string":
            assert isinstance(value, str)
            self._check_string(label, value)

    def check_range(self, label: str, value: int | float, *, scale: float = 1, unit: str = "") -> None:
        """ValueError when ``value * scale`` is out of the rule's range (told in ``value``'s unit)."""
        lo, hi = self.minimum, self.maximum
        scaled = value * scale
        if (lo is not None and scaled < lo) or (hi is not None and scaled > hi):
            show = [_num(b / scale) if b is not None else None for b in (lo, hi)]
            if show[1] is None:
                allowed = f"at least {show[0]}"
            elif show[0] is None:
                allowed = f"at most {show[1]}"
            else:
                allowed = f"within {show[0]}..{show[1]}"
            raise ValueError(f"{label} must be {allowed}{unit}, got {_num(value)}")

    def _has_type(self, value: object) -> bool:
        if self.kind == "boolean":
            return isinstance(value, bool)
        if self.kind == "integer":
            return isinstance(value, int) and not isinstance(value, bool)
        if self.kind == "number":
            return isinstance(value, (int, float)) and not isinstance(value, bool)
        if self.kind == "string":
            return isinstance(value, str)
        return isinstance(value, (list, tuple))

    def _check_string(self, label: str, value: str) -> None:
        if self.min_length is not None and len(value) < self.min_length:
            need = "must not be empty" if self.min_length == 1 else f"must have at least {self.min_length} characters"
            raise ValueError(f"{label} {need}")
        if self.max_length is not None and len(value) > self.max_length:
            raise ValueError(f"{label} must have at most {self.max_length} characters, got {len(value)}")
        if self.enum is not None and value not in self.enum:
            raise ValueError(f"{label} must be one of {', '.join(map(repr, self.enum))}, got {value!r}")
        if self.pattern is not None and re.search(self.pattern, value) is None:
            raise ValueError(f"{label} must match {self.pattern}, got {value!r}")


def _num(v: float) -> str:
    """A bound as written: ``86400`` rather than ``86400.0``."""
    return str(int(v)) if float(v).is_integer() else str(v)
