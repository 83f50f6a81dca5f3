"""Bounded representations: every model's repr stays short, whatever the page holds."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping

_REPR_FIELD = 80


def clip(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters with an ellipsis and the full length."""
    if len(text) <= limit:
        return text
    return f"{text[: max(0, limit - 1)]}… ({len(text)} chars)"


def clip_repr(value: object, limit: int = _REPR_FIELD) -> str:
    """``value``'s repr cut to ``limit`` characters; mappings and long sequences as their sizes."""
    if isinstance(value, str):
        return repr(clip(value, limit))
    if isinstance(value, Mapping):
        return f"{{…{len(value)} keys}}" if value else "{}"
    if isinstance(value, (list, tuple)) and len(value) > 3:
        return f"[…{len(value)} items]"
    return clip(repr(value), limit)


class Bounded:
    """Mixin: a dataclass repr whose every field is clipped, so it stays short."""

    __slots__ = ()

    def __repr__(self) -> str:
        parts = []
        for f in dataclasses.fields(self):  # type: ignore[arg-type]
            if f.repr:
                parts.append(f"{f.name}={clip_repr(getattr(self, f.name))}")
        return f"{type(self).__name__}({', '.join(parts)})"
