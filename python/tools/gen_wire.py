#!/usr/bin/env python3
"""Writes python/agentbrowser/_wire_types.py, the SDK's decoders of every command's result, from
the protocol's machine-readable schema docs/protocol.schema.json (``agentbrowser protocol-schema``).

Every object type in ``$defs`` that a result uses becomes a frozen, slotted record class
(``_decode.Record``, a frozen dataclass to type checkers; its ``__init__`` is written out, so an
import builds no code: ``@dataclass`` took about 1 ms a class) with snake_case fields and a
``decode(raw)`` classmethod that checks each field's presence and JSON
type (NativeParseError names the type and the field); a string enum becomes a ``Literal``.
Then the table ``RESULTS`` (action -> result decoder), one ``<Type>Actions`` Literal per result
type, and ``decode_result``, overloaded so that mypy knows each action's result type.

Run ``python3 python/tools/gen_wire.py`` after the schema changes; ``--check`` only says whether
the checked-in module is current (python/tests/test_unit_wire_types.py runs the same check).
A schema construct this script does not know stops it with the path of the construct.
"""

from __future__ import annotations

import json
import keyword
import re
import sys
import textwrap
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
SCHEMA = REPO / "docs" / "protocol.schema.json"
TARGET = REPO / "python" / "agentbrowser" / "_wire_types.py"
WIDTH = 120
PRIMITIVES = {"string": ("str", "_d.string"), "boolean": ("bool", "_d.boolean"), "number": ("float", "_d.number")}


class SchemaError(Exception):
    """The schema has a construct the generator does not translate."""


@dataclass(frozen=True)
class PyType:
    """A schema type in Python: its annotation, its check, and whether null is one of its values
    (then ``base`` is the check of the other values)."""

    annotation: str
    check: str
    nullable: bool = False
    base: str = ""


@dataclass
class Generator:
    """Translates the reachable part of one schema's ``$defs``."""

    defs: Mapping[str, Any]
    objects: list[str] = field(default_factory=list)
    enums: list[str] = field(default_factory=list)
    imports: set[str] = field(default_factory=set)
    integers: dict[str, str] = field(default_factory=dict)

    # -- types ------------------------------------------------------------------------

    def ref(self, pointer: str, where: str) -> str:
        """The ``$defs`` name a ``$ref`` points to, noting it for generation."""
        prefix = "#/$defs/"
        if not pointer.startswith(prefix) or pointer[len(prefix) :] not in self.defs:
            raise SchemaError(f"{where}: unknown $ref {pointer!r}")
        name = pointer[len(prefix) :]
        node = self.defs[name]
        if enum_values(node) is not None:
            if name not in self.enums:
                self.enums.append(name)
        elif node.get("type") == "object" and not isinstance(node.get("additionalProperties"), Mapping):
            if name not in self.objects:
                self.objects.append(name)
                for key, prop in node.get("properties", {}).items():
                    self.type_of(prop, f"{name}.{key}")
        else:
            raise SchemaError(f"{where}: $ref {name!r} is neither an object with properties nor a string enum")
        return name

    def type_of(self, node: Mapping[str, Any], where: str) -> PyType:
        """The Python type of the schema ``node`` found at ``where``."""
        if node is True:  # the schema that allows anything (a JSON value's array items)
            self.imports.add("Any")
            return PyType("Any", "_d.anything", nullable=True, base="_d.anything")
        if "$ref" in node:
            name = self.ref(node["$ref"], where)
            if name in self.enums:
                return PyType(class_name(name), f"_{class_name(name)}")
            return PyType(class_name(name), f"{class_name(name)}.decode")
        if "anyOf" in node:
            options = [o for o in node["anyOf"] if o != {"type": "null"}]
            if len(options) != 1 or len(node["anyOf"]) != 2:
                raise SchemaError(f"{where}: anyOf other than one type or null")
            return nullable(self.type_of(options[0], where))
        values = enum_values(node)
        if values is not None:
            self.imports.update({"Literal", "cast"})
            return PyType(literal(values), f"cast('_d.Check[{literal(values)}]', _d.literal({str_tuple(values)}))")
        kind = node.get("type")
        if kind is None:
            if set(node) - {"description", "default"}:
                raise SchemaError(f"{where}: untyped node with {sorted(set(node) - {'description', 'default'})}")
            self.imports.add("Any")
            return PyType("Any", "_d.anything", nullable=True, base="_d.anything")
        if isinstance(kind, list):
            others = [k for k in kind if k != "null"]
            if len(others) != 1 or len(kind) != 2:
                raise SchemaError(f"{where}: a type list other than one type and null: {kind}")
            return nullable(self.type_of({**node, "type": others[0]}, where))
        if kind in PRIMITIVES:
            return PyType(*PRIMITIVES[kind])
        if kind == "integer":
            lo, hi = node.get("minimum"), node.get("maximum")
            if not all(b is None or (isinstance(b, int) and not isinstance(b, bool)) for b in (lo, hi)):
                raise SchemaError(f"{where}: integer bounds other than integers: {lo!r}, {hi!r}")
            name = f"_INT_{'ANY' if lo is None else lo}_TO_{'ANY' if hi is None else hi}"
            self.integers[name] = f"_d.integer({lo!r}, {hi!r})"
            return PyType("int", name)
        if kind == "array":
            if "items" not in node:
                raise SchemaError(f"{where}: an array without items")
            item = self.type_of(node["items"], f"{where}[]")
            return PyType(f"tuple[{item.annotation}, ...]", f"_d.array({item.check})")
        if kind == "object" and "additionalProperties" in node and "properties" not in node:
            if not isinstance(node["additionalProperties"], Mapping):
                raise SchemaError(f"{where}: additionalProperties is not a schema")
            value = self.type_of(node["additionalProperties"], f"{where}{{}}")
            self.imports.add("Mapping")
            return PyType(f"Mapping[str, {value.annotation}]", f"_d.record({value.check})")
        raise SchemaError(f"{where}: unsupported type {kind!r} (name it in $defs, or extend {Path(__file__).name})")

    # -- code ---------------------------------------------------------------------------

    def record_code(self, name: str) -> Iterator[str]:
        """The frozen record class of the object type ``name`` (``_d.Record``: its ``__init__``
        written out here, so importing the module builds no code)."""
        node = self.defs[name]
        cls = class_name(name)
        required = set(node.get("required", ()))
        props: Mapping[str, Any] = node.get("properties", {})
        unknown = required - set(props)
        if unknown:
            raise SchemaError(f"{name}: required but not described: {sorted(unknown)}")
        yield ""
        yield ""
        if name in DATACLASS_RECORDS:
            yield "@_dataclass(init=False, repr=False, eq=False, match_args=False)"
        yield f"class {cls}(_d.Record):"
        yield from docstring(node.get("description") or f"The protocol type {name}.", "    ")
        names: dict[str, str] = {}
        reads: list[str] = []
        params: list[str] = []
        fields: list[str] = []
        for key, prop in props.items():
            py = snake(key)
            if py in names.values() or py in ("decode",) or py.startswith("_"):
                raise SchemaError(f"{name}.{key}: its Python name {py!r} is taken")
            names[key] = py
            t = self.type_of(prop, f"{name}.{key}")
            base = t.base if t.nullable else t.check
            if key in required:
                read = f'o.req("{key}", {t.check})'
                annotation = t.annotation
            elif prop.get("default") is not None:
                read = f'o.default("{key}", {base}, {default_literal(prop["default"], f"{name}.{key}")})'
                annotation = t.annotation
            else:
                read = f'o.opt("{key}", {base})'
                annotation = t.annotation if t.nullable else f"{t.annotation} | None"
            fields.append(f"    {py}: {annotation}")
            fields.extend(docstring(prop.get("description") or f"The `{key}` field.", "    "))
            params.append(f"{py}: {annotation}")
            reads.append(f"{py}={read}")
        yield ""
        yield from wrap_call("    __slots__ = (", [json.dumps(n) for n in names.values()], ")", tuple_=True)
        yield from wrap_call("    __match_args__ = (", [json.dumps(n) for n in names.values()], ")", tuple_=True)
        if fields:
            yield ""
            yield from fields
        yield ""
        if params:
            yield from wrap_call("    def __init__(", ["self", *params], ") -> None:")
            yield "        _set = object.__setattr__"
            for py in names.values():
                yield f'        _set(self, "{py}", {py})'
        else:
            yield "    def __init__(self) -> None:"
            yield "        pass"
        yield ""
        yield "    @classmethod"
        yield f'    def decode(cls, raw: object, path: str = "") -> {cls}:'
        yield f'        """``raw`` (found at ``path`` in a payload) checked and decoded as {name}."""'
        if not reads:
            yield f'        _d.Fields("{name}", raw, path)'
            yield "        return cls()"
            return
        yield f'        o = _d.Fields("{name}", raw, path)'
        yield from wrap_call("        return cls(", reads, ")")

    def enum_code(self, name: str) -> Iterator[str]:
        """The Literal alias of the string enum ``name`` and its check."""
        values = enum_values(self.defs[name])
        assert values is not None
        cls = class_name(name)
        self.imports.update({"Literal", "cast"})
        yield ""
        yield f"#: {flat(self.defs[name].get('description') or name)}"
        yield f"{cls} = {literal(values)}"
        yield f'_{cls} = cast("_d.Check[{cls}]", _d.literal({str_tuple(values)}))'


#: The records that public models extend or are (agentbrowser.models): also real dataclasses, so that
#: ``dataclasses.fields``, ``replace`` and ``asdict`` work on those models as on the dataclasses they were
#: (the decorator only records the fields: the class keeps its own ``__init__``, ``__eq__`` and ``__repr__``).
DATACLASS_RECORDS = frozenset(
    {
        "AccessibilityCounts",
        "BoxOutput",
        "DeviceInfo",
        "FileChooserInfo",
        "Geolocation",
        "GeometryOutput",
        "InitScript",
        "Injected",
        "PermissionGrant",
        "ReadAttempt",
        "ReadHeading",
        "ScrollOutput",
        "ScrollPosition",
        "Viewport",
        "Vital",
    }
)

#: The schema types whose fields a client chooses: their constraints become ``OPTION_RULES``
#: (``LaunchParams`` in ``$defs``; ``clientOptions`` at the schema's top level).
OPTION_TYPES = ("LaunchParams",)
#: Keys of a field's schema that carry no constraint.
RULE_NOTES = {"description", "default", "format"}
#: The keys a rule translates, and the ``Rule`` argument each becomes.
RULE_KEYS = {"minimum": "minimum", "maximum": "maximum", "minLength": "min_length", "maxLength": "max_length"}


def is_map(node: Mapping[str, Any]) -> bool:
    """Whether a field's schema is an object of string values (nullable or not)."""
    kind = node.get("type")
    kinds = kind if isinstance(kind, list) else [kind]
    return "object" in kinds and node.get("additionalProperties", {}).get("type") == "string"


def rule_code(node: Mapping[str, Any], where: str, defs: Mapping[str, Any] | None = None) -> str:
    """The ``_r.Rule(...)`` of one field's schema ``node`` (found at ``where``; a ``$ref`` names a
    string enum of ``defs``)."""
    defs = defs or {}
    if "$ref" in node:
        name = str(node["$ref"]).removeprefix("#/$defs/")
        target = defs.get(name)
        values = enum_values(target) if isinstance(target, Mapping) else None
        if values is None:
            raise SchemaError(f"{where}: a client option's $ref {node['$ref']!r} is not a string enum")
        rest = {k: v for k, v in node.items() if k not in ("$ref", "type")}
        return rule_code({**rest, "type": node.get("type", "string"), "enum": values}, where, defs)
    if "anyOf" in node:
        options = [o for o in node["anyOf"] if o != {"type": "null"}]
        if len(options) != 1 or len(node["anyOf"]) != 2:
            raise SchemaError(f"{where}: anyOf other than one type or null")
        rest = {k: v for k, v in node.items() if k != "anyOf"}
        if "$ref" in options[0]:
            return rule_code({**options[0], **rest, "type": ["string", "null"]}, where, defs)
        return rule_code({**options[0], **rest, "type": [options[0].get("type"), "null"]}, where, defs)
    kind: Any = node.get("type")
    nullable = False
    if isinstance(kind, list):
        others = [k for k in kind if k != "null"]
        if len(others) != 1 or len(kind) != 2:
            raise SchemaError(f"{where}: a type list other than one type and null: {kind}")
        kind, nullable = others[0], True
    if kind not in ("boolean", "integer", "number", "string", "array"):
        raise SchemaError(f"{where}: a client option of type {kind!r} has no rule")
    args = [json.dumps(kind)]
    if nullable:
        args.append("nullable=True")
    for key, arg in RULE_KEYS.items():
        if key in node:
            args.append(f"{arg}={node[key]!r}")
    if "pattern" in node:
        args.append(f"pattern={json.dumps(node['pattern'])}")
    values = enum_values({**node, "type": kind}) if kind == "string" else None
    if values is not None:
        args.append(f"enum={str_tuple(values)}")
    if kind == "array":
        args.append(f"items={rule_code(node.get('items', {}), f'{where}[]', defs)}")
    unknown = set(node) - RULE_NOTES - set(RULE_KEYS) - {"type", "pattern", "enum", "items"}
    if unknown:
        raise SchemaError(f"{where}: constraints {sorted(unknown)} have no rule (extend {Path(__file__).name})")
    return f"_r.Rule({', '.join(args)})"


def rules_code(schema: Mapping[str, Any]) -> Iterator[str]:
    """``OPTION_RULES``: each option type's fields (by wire name) with their rules (the types the
    schema has; agentbrowser.options fails at import when the real schema lacks one)."""
    owners: dict[str, Mapping[str, Any]] = {
        name: schema["$defs"][name] for name in OPTION_TYPES if name in schema["$defs"]
    }
    if "clientOptions" in schema:
        owners["clientOptions"] = schema["clientOptions"]
    if not owners:
        return
    yield ""
    yield "#: The constraints the schema gives each field a client chooses, by type and wire name: the options"
    yield "#: (agentbrowser.options) check their values through them."
    yield "OPTION_RULES: Mapping[str, Mapping[str, _r.Rule]] = MappingProxyType("
    yield "    {"
    for owner, node in owners.items():
        yield f'        "{owner}": MappingProxyType('
        yield "            {"
        for key, prop in node.get("properties", {}).items():
            if is_map(prop):
                continue  # a map of strings (cdpHeaders): agentbrowser.options checks it by hand
            yield from wrap_call(
                f'                "{key}": ', [rule_code(prop, f"{owner}.{key}", schema["$defs"])], ","
            )
        yield "            }"
        yield "        ),"
    yield "    }"
    yield ")"


def enum_values(node: Mapping[str, Any]) -> list[str] | None:
    """The strings of a string enum (``enum``, or ``oneOf`` string constants), else None."""
    if node.get("type") == "string" and isinstance(node.get("enum"), list):
        values = node["enum"]
    elif "oneOf" in node and all(isinstance(o, Mapping) and "const" in o for o in node["oneOf"]):
        values = [o["const"] for o in node["oneOf"]]
    elif node.get("type") == "string" and "const" in node:
        values = [node["const"]]
    else:
        return None
    if not values or not all(isinstance(v, str) for v in values):
        raise SchemaError(f"an enum of other than strings: {values!r}")
    return list(values)


def nullable(t: PyType) -> PyType:
    """``t`` or null."""
    if t.nullable:
        return t
    return PyType(f"{t.annotation} | None", f"_d.nullable({t.check})", nullable=True, base=t.check)


def literal(values: list[str]) -> str:
    """A ``Literal[...]`` annotation of ``values``."""
    return "Literal[" + ", ".join(json.dumps(v) for v in values) + "]"


def str_tuple(values: list[str]) -> str:
    """A tuple literal of strings."""
    return "(" + ", ".join(json.dumps(v) for v in values) + (",)" if len(values) == 1 else ")")


def default_literal(value: object, where: str) -> str:
    """The Python literal of a schema default (arrays become tuples, as the decoded fields are)."""

    def scalar(v: object) -> str:
        if isinstance(v, str):
            return json.dumps(v)
        if isinstance(v, (bool, int, float)):
            return repr(v)
        raise SchemaError(f"{where}: a default other than a scalar or an array of scalars: {value!r}")

    if isinstance(value, list):
        items = [scalar(v) for v in value]
        return "(" + ", ".join(items) + (",)" if len(items) == 1 else ")")
    return scalar(value)


def class_name(name: str) -> str:
    """A ``$defs`` name as a Python class name (``ValueOutput_Nullable_string`` -> ``ValueOutputNullableString``)."""
    return "".join(part[:1].upper() + part[1:] for part in name.split("_"))


def snake(key: str) -> str:
    """A camelCase JSON key as a snake_case Python name (a keyword gets a trailing ``_``)."""
    py = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", key).lower()
    if not py.isidentifier():
        raise SchemaError(f"the JSON key {key!r} makes no Python name")
    return py + "_" if keyword.iskeyword(py) else py


def flat(text: str) -> str:
    """``text`` on one line."""
    return " ".join(text.split())


def docstring(text: str, indent: str) -> Iterator[str]:
    """A docstring of ``text`` at ``indent``, wrapped at the line width."""
    body = flat(text).replace("\\", "\\\\").replace('"""', '\\"\\"\\"')
    if body.endswith('"'):
        body = body[:-1] + '\\"'
    one = f'{indent}"""{body}"""'
    if len(one) <= WIDTH:
        yield one
        return
    lines = textwrap.wrap(body, WIDTH - len(indent))
    yield f'{indent}"""{lines[0]}'
    for line in lines[1:]:
        yield f"{indent}{line}"
    yield f'{indent}"""'


def wrap_call(head: str, args: list[str], tail: str, tuple_: bool = False) -> Iterator[str]:
    """``head`` + the arguments + ``tail``, on one line when it fits, else one argument a line
    (``tuple_``: a one-item line ends with a comma, as a tuple of one does)."""
    one = head + ", ".join(args) + ("," if tuple_ and len(args) == 1 else "") + tail
    if len(one) <= WIDTH:
        yield one
        return
    indent = " " * (len(head) - len(head.lstrip()))
    yield head
    for arg in args:
        yield f"{indent}    {arg},"
    yield indent + tail


def render(schema: Mapping[str, Any]) -> str:
    """The whole ``_wire_types`` module for ``schema``."""
    defs: Mapping[str, Any] = schema["$defs"]
    gen = Generator(defs)
    results: dict[str, str] = {}
    for action, command in schema["commands"].items():
        result = command.get("result")
        if not isinstance(result, Mapping) or set(result) != {"$ref"}:
            raise SchemaError(f"commands.{action}.result: expected a $ref to a $defs type")
        name = gen.ref(result["$ref"], f"commands.{action}.result")
        if name not in gen.objects:
            raise SchemaError(f"commands.{action}.result: {name} is not an object type")
        results[action] = name
    by_type: dict[str, list[str]] = {}
    for action, name in results.items():
        by_type.setdefault(name, []).append(action)

    body: list[str] = []
    for name in gen.enums:
        body.extend(gen.enum_code(name))
    for name in [n for n in defs if n in gen.objects]:
        body.extend(gen.record_code(name))
    gen.imports.update({"Callable", "Mapping", "Literal", "overload"})

    out = [
        "# Generated by python/tools/gen_wire.py from docs/protocol.schema.json: do not edit.",
        "# Regenerate with `python3 python/tools/gen_wire.py`; python/tests/test_unit_wire_types.py fails when stale.",
        f'"""The results of every command of wire protocol {schema.get("version", "?")}, decoded strictly (generated).',
        "",
        "One frozen record (``_d.Record``) per object type of the schema's ``$defs`` that a result uses; its",
        "``decode(raw)`` checks every field the schema requires, and the JSON type of every field,",
        "and raises NativeParseError naming the type and the field's path (never a silent default).",
        "A field the schema does not require reads None when absent or null.  ``RESULTS`` maps each",
        "action to its result's decoder; ``decode_result`` does the same with a type per action.",
        '"""',
        "",
        "from __future__ import annotations",
        "",
    ]
    abc = sorted(n for n in ("Callable", "Mapping") if n in gen.imports)
    out.append(f"from collections.abc import {', '.join(abc)}")
    if DATACLASS_RECORDS & set(gen.objects):
        out.append("from dataclasses import dataclass as _dataclass")
    out.append("from types import MappingProxyType")
    typing = sorted(n for n in ("Any", "Literal", "cast", "overload") if n in gen.imports)
    out.append(f"from typing import {', '.join(typing)}")
    out.append("")
    out.append("from . import _decode as _d")
    rules = list(rules_code(schema))
    if rules:
        out.append("from . import _rules as _r")
    if gen.integers:
        out.append("")
        out.append("# The integer checks, by their bounds (ANY: unbounded).")
        for name in sorted(gen.integers):
            out.append(f"{name} = {gen.integers[name]}")
    out.extend(body)
    out.append("")
    out.append("")
    for name, actions in by_type.items():
        out.append(f"#: The actions whose result is {name}.")
        out.extend(wrap_assign(f"{class_name(name)}Actions = ", literal(actions)))
    out.extend(rules)
    out.append("")
    out.append("#: Each action's result decoder.")
    out.append("RESULTS: Mapping[str, Callable[[object], object]] = MappingProxyType(")
    out.append("    {")
    for action, name in results.items():
        out.append(f'        "{action}": {class_name(name)}.decode,')
    out.append("    }")
    out.append(")")
    for name in by_type:
        out.append("")
        out.append("")
        out.append("@overload")
        out.append(f"def decode_result(action: {class_name(name)}Actions, raw: object) -> {class_name(name)}: ...")
    out.append("")
    out.append("")
    out.append("def decode_result(action: str, raw: object) -> object:")
    out.append('    """The data of ``action``\'s success envelope as its result type (KeyError: no such action)."""')
    out.append("    return RESULTS[action](raw)")
    return "\n".join(out) + "\n"


def wrap_assign(head: str, value: str) -> Iterator[str]:
    """``head`` + a Literal annotation, wrapped one value a line when too long."""
    one = head + value
    if len(one) <= WIDTH:
        yield one
        return
    inner = value[len("Literal[") : -1]
    yield head + "Literal["
    for item in inner.split(", "):
        yield f"    {item},"
    yield "]"


def generate(argv: list[str], target: Path, build: Callable[[Mapping[str, Any]], str]) -> int:
    """Write ``target`` as ``build`` renders it from the schema (or, with ``--check`` in ``argv``,
    only compare it): 0 when it was current or is written now, 1 when stale, 2 on a usage or schema
    error.  The generators of this directory share it."""
    check = argv[1:] == ["--check"]
    if argv[1:] and not check:
        print(f"usage: {argv[0]} [--check]", file=sys.stderr)
        return 2
    try:
        text = build(json.loads(SCHEMA.read_text()))
    except SchemaError as e:
        print(f"{SCHEMA.relative_to(REPO)}: {e}", file=sys.stderr)
        return 2
    current = target.read_text() if target.exists() else None
    if current == text:
        return 0
    if check:
        print(f"{target.relative_to(REPO)} is stale: run python3 {Path(argv[0]).as_posix()}", file=sys.stderr)
        return 1
    target.write_text(text)
    print(f"wrote {target.relative_to(REPO)}")
    return 0


def main(argv: list[str]) -> int:
    """Write the module (or, with ``--check``, only compare it); 1 when it was stale."""
    return generate(argv, TARGET, render)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
