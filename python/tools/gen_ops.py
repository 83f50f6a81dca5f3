#!/usr/bin/env python3
"""Writes python/agentbrowser/_wire_ops.py, one builder per command of the protocol, from
docs/protocol.schema.json (``agentbrowser protocol-schema``), beside ``gen_wire.py``'s decoders.

A builder takes the command's parameters by their snake_case Python names (the required ones
first, the others keyword-only, None meaning "not given"), checks each argument's JSON type
(``_encode``: TypeError naming the parameter), and returns a ``_call.Command``: the action, the
camelCase wire parameters without the None ones, and the decoder of its result type
(``_wire_types``).  The hand-written operations (``_ops``) send these commands and keep only what
is Python's own: paths made absolute, friendly argument forms, several commands composed.

Run ``python3 python/tools/gen_ops.py`` after the schema changes; ``--check`` only says whether
the checked-in module is current (python/tests/test_unit_wire_types.py runs the same check).
"""

from __future__ import annotations

import keyword
import sys
import textwrap
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from gen_wire import WIDTH, SchemaError, class_name, enum_values, flat, generate, snake, wrap_call  # noqa: E402

TARGET = Path(__file__).resolve().parents[2] / "python" / "agentbrowser" / "_wire_ops.py"

#: The Python annotation and the ``_encode`` check of each set of JSON kinds a parameter takes.
BY_KINDS: Mapping[frozenset[str], tuple[str, str]] = {
    frozenset({"string"}): ("str", "string"),
    frozenset({"boolean"}): ("bool", "boolean"),
    frozenset({"integer"}): ("int", "integer"),
    frozenset({"number"}): ("float", "number"),
    frozenset({"object"}): ("Mapping[str, Any]", "obj"),
    frozenset({"string", "object"}): ("str | Mapping[str, Any]", "target"),
    frozenset({"boolean", "string"}): ("bool | str", "anything"),
}


class Ops:
    """Translates the commands of one schema."""

    def __init__(self, schema: Mapping[str, Any]) -> None:
        self.defs: Mapping[str, Any] = schema["$defs"]
        self.commands: Mapping[str, Any] = schema["commands"]

    def resolve(self, node: Mapping[str, Any], where: str) -> Mapping[str, Any]:
        """``node``, or the ``$defs`` type its ``$ref`` names."""
        if "$ref" not in node:
            return node
        name = str(node["$ref"]).removeprefix("#/$defs/")
        if name not in self.defs:
            raise SchemaError(f"{where}: unknown $ref {node['$ref']!r}")
        return self.resolve(self.defs[name], where)

    def kinds(self, node: Mapping[str, Any] | bool, where: str) -> frozenset[str]:
        """The JSON kinds (null left out) a value of ``node`` may have; empty: any value."""
        if node is True or node == {}:
            return frozenset()
        assert isinstance(node, Mapping)
        node = self.resolve(node, where)
        for key in ("anyOf", "oneOf"):
            if key in node:
                out: set[str] = set()
                for option in node[key]:
                    found = self.kinds(option, where)
                    if not found and option != {"type": "null"}:
                        return frozenset()
                    out |= found
                return frozenset(out - {"null"})
        if enum_values(node) is not None:
            return frozenset({"string"})
        kind = node.get("type")
        if kind is None:
            return frozenset()
        return frozenset(kind if isinstance(kind, list) else [kind]) - {"null"}

    def python(self, node: Mapping[str, Any], where: str) -> tuple[str, str]:
        """The annotation and the check of a parameter's schema ``node``."""
        kinds = self.kinds(node, where)
        if not kinds:
            return "Any", "anything"
        if kinds == {"integer", "number"}:
            kinds = frozenset({"number"})
        if kinds == {"array"}:
            items = self.kinds(self.items(node, where), f"{where}[]")
            if items == {"string"}:
                return "Sequence[str]", "strings"
            if items == {"object"}:
                return "Sequence[Mapping[str, Any]]", "objects"
            raise SchemaError(f"{where}: an array of {sorted(items)} has no check (extend {Path(__file__).name})")
        if kinds == {"object"} and self.is_string_map(node, where):
            return "Mapping[str, str]", "string_map"
        if kinds not in BY_KINDS:
            raise SchemaError(
                f"{where}: a parameter of kinds {sorted(kinds)} has no check (extend {Path(__file__).name})"
            )
        return BY_KINDS[kinds]

    def items(self, node: Mapping[str, Any], where: str) -> Mapping[str, Any]:
        """The item schema of an array parameter."""
        node = self.resolve(node, where)
        for key in ("anyOf", "oneOf"):
            for option in node.get(key, ()):
                if "array" in self.kinds(option, where):
                    return self.items(option, where)
        if "items" not in node:
            raise SchemaError(f"{where}: an array without items")
        items: Mapping[str, Any] = node["items"]
        return items

    def is_string_map(self, node: Mapping[str, Any], where: str) -> bool:
        """Whether an object parameter is a map of strings (headers)."""
        node = self.resolve(node, where)
        extra = node.get("additionalProperties")
        return "properties" not in node and isinstance(extra, Mapping) and self.kinds(extra, where) == {"string"}

    def builder(self, action: str, command: Mapping[str, Any]) -> Iterator[str]:
        """The builder function of ``action``."""
        if not action.isidentifier() or keyword.iskeyword(action):
            raise SchemaError(f"commands.{action}: the action makes no Python function name")
        where = f"commands.{action}"
        params = self.resolve(command["params"], f"{where}.params")
        result = str(command["result"]["$ref"]).removeprefix("#/$defs/")
        props: Mapping[str, Any] = params.get("properties", {})
        required = [k for k in params.get("required", ()) if k in props]
        optional = [k for k in props if k not in required]
        args: list[str] = []
        fields: list[str] = []
        for key in [*required, *optional]:
            py = snake(key)
            annotation, check = self.python(props[key], f"{where}.params.{key}")
            if key in required:
                args.append(f"{py}: {annotation}")
            else:
                if len(args) == len(required):
                    args.append("*")
                args.append(f"{py}: {annotation} | None = None")
            fields.append(f'("{key}", "{py}", {py}, _e.{check})')
        yield ""
        yield ""
        yield from wrap_call(f"def {action}(", args, f") -> Command[w.{class_name(result)}]:")
        yield from doc(f"`{action}`: {command.get('summary') or ''}")
        decode = f"w.{class_name(result)}.decode"
        if not fields:
            yield f'    return Command("{action}", {{}}, {decode})'
            return
        tuple_ = fields[0] + "," if len(fields) == 1 else ", ".join(fields)
        one = f'    return Command("{action}", _e.params("{action}", ({tuple_})), {decode})'
        if len(one) <= WIDTH:
            yield one
            return
        if len(fields) == 1:
            yield f"    fields: tuple[_e.Field, ...] = ({tuple_})"
            yield f'    return Command("{action}", _e.params("{action}", fields), {decode})'
            return
        yield "    fields: tuple[_e.Field, ...] = ("
        for f in fields:
            yield f"        {f},"
        yield "    )"
        yield f'    return Command("{action}", _e.params("{action}", fields), {decode})'


def doc(text: str) -> Iterator[str]:
    """A function's docstring of ``text`` as ruff formats it: one line when it fits, else the
    text wrapped and the closing quotes on a line of their own."""
    body = flat(text).replace("\\", "\\\\").replace('"""', '\\"\\"\\"')
    lines = textwrap.wrap(body, WIDTH - 7, initial_indent='"""')
    if len(lines) == 1:
        yield f'    {lines[0]}"""'
        return
    yield from (f"    {line}" for line in lines)
    yield '    """'


def render(schema: Mapping[str, Any]) -> str:
    """The whole ``_wire_ops`` module for ``schema``."""
    ops = Ops(schema)
    body: list[str] = []
    for action, command in ops.commands.items():
        body.extend(ops.builder(action, command))
    body.extend(["", "", "#: Each action's builder, for the operations that take the action as a value."])
    body.append("BUILDERS: Mapping[str, Callable[..., Command[Any]]] = MappingProxyType(")
    body.append("    {")
    body.extend(f'        "{action}": {action},' for action in ops.commands)
    body.append("    }")
    body.append(")")
    out = [
        "# Generated by python/tools/gen_ops.py from docs/protocol.schema.json: do not edit.",
        "# Regenerate with `python3 python/tools/gen_ops.py`; python/tests/test_unit_wire_types.py fails when stale.",
        f'"""The commands of wire protocol {schema.get("version", "?")}, one builder each (generated).',
        "",
        "A builder takes the command's parameters by their snake_case names (None: not given), checks",
        "each argument's JSON type (TypeError naming it), and returns the ``Command``: the action, the",
        "camelCase wire parameters, the decoder of the result (``_wire_types``).  ``_call.send`` runs it.",
        '"""',
        "",
        "from __future__ import annotations",
        "",
        "from collections.abc import Callable, Mapping, Sequence",
        "from types import MappingProxyType",
        "from typing import Any",
        "",
        "from . import _encode as _e",
        "from . import _wire_types as w",
        "from ._call import Command",
        *body,
    ]
    return "\n".join(out) + "\n"


def main(argv: list[str]) -> int:
    """Write the module (or, with ``--check``, only compare it); 1 when it was stale."""
    return generate(argv, TARGET, render)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
