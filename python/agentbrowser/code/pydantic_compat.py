"""Pydantic's everyday model methods on our dataclass models, for code written against browser-use.

browser-use's ``ActionResult``, ``JudgementResult``, ``CodeCell``, ``NotebookSession`` and its
history models are pydantic models, so a browser-use script may call ``result.model_dump()``,
``cell.model_dump_json()``, ``ActionResult.model_validate({...})`` or ``r.model_copy(update=...)``.
Ours are dataclasses (no pydantic dependency); :class:`ModelCompat` gives them those four methods
with pydantic's parameter names for the common cases.
"""

from __future__ import annotations

import base64
import copy
import dataclasses
import enum
import json
import types
import typing
from collections.abc import Iterable, Mapping
from typing import Any, TypeVar, Union

__all__ = ["ModelCompat"]

_M = TypeVar("_M", bound="ModelCompat")


class ModelCompat:
    """``model_dump``/``model_dump_json``/``model_copy``/``model_validate`` for a dataclass model."""

    __slots__ = ()

    def model_dump(
        self,
        *,
        mode: str = "python",
        include: Iterable[str] | None = None,
        exclude: Iterable[str] | None = None,
        exclude_none: bool = False,
    ) -> dict[str, Any]:
        """The fields as a dict (nested models too); ``mode="json"`` gives JSON-safe values only."""
        keep = None if include is None else set(include)
        drop = set(exclude or ())
        out: dict[str, Any] = {}
        for f in dataclasses.fields(self):  # type: ignore[arg-type]
            if f.name.startswith("_") or (keep is not None and f.name not in keep) or f.name in drop:
                continue
            value = _dump(getattr(self, f.name), mode == "json")
            if exclude_none and value is None:
                continue
            out[f.name] = value
        return out

    def model_dump_json(
        self,
        *,
        indent: int | None = None,
        include: Iterable[str] | None = None,
        exclude: Iterable[str] | None = None,
        exclude_none: bool = False,
    ) -> str:
        """:meth:`model_dump` as JSON text (bytes as base64; other non-JSON values as their repr)."""
        data = self.model_dump(mode="json", include=include, exclude=exclude, exclude_none=exclude_none)
        return json.dumps(data, indent=indent, ensure_ascii=False)

    def model_copy(self: _M, *, update: Mapping[str, Any] | None = None, deep: bool = False) -> _M:
        """A copy with the fields of ``update`` replaced (validated as on construction)."""
        base = copy.deepcopy(self) if deep else self
        return typing.cast(_M, dataclasses.replace(typing.cast(Any, base), **dict(update or {})))

    @classmethod
    def model_validate(cls: type[_M], obj: Any) -> _M:
        """``obj`` itself when it is one, else the model built from a mapping (nested models too)."""
        if isinstance(obj, cls):
            return obj
        if not isinstance(obj, Mapping):
            raise TypeError(f"{cls.__name__}.model_validate takes a mapping or a {cls.__name__}, not {type(obj).__name__}")
        return typing.cast(_M, _build(cls, obj))


def _dump(value: Any, as_json: bool) -> Any:
    if isinstance(value, ModelCompat):
        return value.model_dump(mode="json" if as_json else "python")
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _dump(getattr(value, f.name), as_json) for f in dataclasses.fields(value)}
    if isinstance(value, enum.Enum):
        return value.value if as_json else value
    if isinstance(value, Mapping):
        return {str(k) if as_json else k: _dump(v, as_json) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        items = [_dump(v, as_json) for v in value]
        return items if as_json or isinstance(value, list) else tuple(items)
    if as_json:
        if isinstance(value, bytes):
            return base64.b64encode(value).decode()
        if value is None or isinstance(value, (str, int, float, bool)):
            return value
        return repr(value)
    return value


def _build(cls: type, data: Mapping[str, Any]) -> Any:
    hints = typing.get_type_hints(cls)
    names = {f.name for f in dataclasses.fields(cls) if f.init}
    unknown = sorted(set(data) - names)
    if unknown:
        raise ValueError(f"{cls.__name__} has no field {', '.join(unknown)}; its fields: {', '.join(sorted(names))}")
    return cls(**{k: _coerce(v, hints.get(k, Any)) for k, v in data.items()})


def _coerce(value: Any, tp: Any) -> Any:
    origin = typing.get_origin(tp)
    if origin in (Union, types.UnionType):
        for arg in typing.get_args(tp):
            if arg is not type(None) and value is not None:
                coerced = _coerce(value, arg)
                if coerced is not value:
                    return coerced
        return value
    if origin in (list, tuple) and isinstance(value, (list, tuple)):
        args = typing.get_args(tp)
        inner = args[0] if args else Any
        items = [_coerce(v, inner) for v in value]
        return items if origin is list else tuple(items)
    if isinstance(tp, type) and dataclasses.is_dataclass(tp) and isinstance(value, Mapping):
        return _build(tp, value)
    if isinstance(tp, type) and issubclass(tp, enum.Enum) and not isinstance(value, tp):
        return tp(value)
    return value
