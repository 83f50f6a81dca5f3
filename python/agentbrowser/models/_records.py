"""Public models that are generated wire records (``_wire_types``) under the SDK's name: such a
model subclasses its record (the fields, their checks and docs come from the protocol's schema)
and adds only its docstring and what Python users get beyond the wire (properties, a bounded
repr).  ``Model.decode(raw)`` decodes straight into the model; :meth:`WireModel.from_wire`
re-types a record decoded inside another answer."""

from __future__ import annotations

from typing import Self

from .._decode import Record


class WireModel:
    """Mixin of a model that extends the generated record of its wire type."""

    __slots__ = ()

    @classmethod
    def from_wire(cls, wire: Record) -> Self:
        """This model with the fields of ``wire``, a decoded record of the type it extends."""
        model = object.__new__(cls)
        for name in wire.__match_args__:
            object.__setattr__(model, name, getattr(wire, name))
        return model
