"""The generated decoders (agentbrowser/_wire_types.py) against their source and the engine.

Regenerating them from docs/protocol.schema.json gives the checked-in file exactly; every action
of the schema has a decoder; every success envelope of the Rust golden wire test
(crates/cli/tests/golden/wire.json) decodes with its action's decoder; a malformed payload
raises NativeParseError naming the type and the field.  The generator's other branches (enums,
defaults, nested arrays and maps, nulls) run against a small schema of their own.
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from agentbrowser import NativeParseError, _wire_types

REPO = Path(__file__).resolve().parents[2]
GENERATOR = REPO / "python" / "tools" / "gen_wire.py"
SCHEMA = REPO / "docs" / "protocol.schema.json"
GOLDEN = REPO / "crates" / "cli" / "tests" / "golden" / "wire.json"


def generator() -> ModuleType:
    spec = importlib.util.spec_from_file_location("gen_wire", GENERATOR)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["gen_wire"] = module
    spec.loader.exec_module(module)
    return module


def schema() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(SCHEMA.read_text())
    return data


def test_the_checked_in_module_is_what_the_schema_generates() -> None:
    expected = generator().render(schema())
    actual = Path(_wire_types.__file__).read_text()
    assert actual == expected, "python/agentbrowser/_wire_types.py is stale: run python3 python/tools/gen_wire.py"


def test_the_generator_check_mode_agrees() -> None:
    done = subprocess.run([sys.executable, str(GENERATOR), "--check"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr


def test_every_action_has_a_decoder() -> None:
    assert set(_wire_types.RESULTS) == set(schema()["commands"])
    for action, command in schema()["commands"].items():
        name = command["result"]["$ref"].rsplit("/", 1)[1]
        decoder = _wire_types.RESULTS[action]
        assert decoder.__qualname__ == f"{generator().class_name(name)}.decode", action


def test_every_golden_success_decodes_with_its_actions_decoder() -> None:
    entries = [e["response"] for e in json.loads(GOLDEN.read_text())]
    seen = set()
    for response in entries:
        if response["success"] is not True:
            continue
        action = response["action"]
        decoded = _wire_types.decode_result(action, response["data"])
        assert type(decoded).__name__ == generator().class_name(
            schema()["commands"][action]["result"]["$ref"].rsplit("/", 1)[1]
        )
        seen.add(action)
    # The golden run answers every command once at least.
    assert seen == set(schema()["commands"]), set(schema()["commands"]) - seen


def test_decoded_values_are_typed_and_frozen() -> None:
    golden = [e["response"] for e in json.loads(GOLDEN.read_text())]
    click = next(r for r in golden if r["action"] == "click" and r["success"])
    out = _wire_types.ActionOutput.decode(click["data"])
    assert out.target is not None and out.target.ref == "e6" and out.new_tab is None
    assert out.before is not None and isinstance(out.before.spec, _wire_types.SnapshotSpecInfo)
    assert out.before.spec.max_depth == 3 and out.before.refs["e6"].role == "button"
    assert isinstance(out.before.omitted, tuple)
    with pytest.raises(TypeError):
        out.before.refs["e9"] = out.before.refs["e6"]  # type: ignore[index]
    with pytest.raises(AttributeError):
        out.action = "x"  # type: ignore[misc]
    status = next(r for r in golden if r["action"] == "status")
    st = _wire_types.StatusOutput.decode(status["data"])
    # Pinned after `open`: the daemon runs a browser (pid normalized to 0 by the golden test).
    assert st.running is True and st.browser.launched is True and st.browser.pid == 0
    assert st.busy is None and st.idle_timeout_ms == 0


def snapshot() -> dict[str, Any]:
    """The golden run's first snapshot (a fresh copy), with one role left out by a cut."""
    golden = [e["response"] for e in json.loads(GOLDEN.read_text())]
    data: dict[str, Any] = next(r["data"] for r in golden if r["action"] == "snapshot" and r["success"])
    data["omitted"] = [{"role": "row", "count": 3}]
    return data


@pytest.mark.parametrize(
    ("change", "model", "field", "detail"),
    [
        (lambda s: s.pop("text"), "SnapshotOutput", "text", "missing field"),
        (lambda s: s.update(generation="1"), "SnapshotOutput", "generation", "expected an integer, got a string"),
        (lambda s: s.update(generation=True), "SnapshotOutput", "generation", "expected an integer, got a boolean"),
        (lambda s: s.update(generation=-1), "SnapshotOutput", "generation", "expected an integer in 0.."),
        (lambda s: s["refs"]["e1"].pop("role"), "RefInfo", "refs.e1.role", "missing field"),
        (lambda s: s["refs"].update(e9=None), "RefInfo", "refs.e9", "expected an object, got null"),
        (lambda s: s["spec"].update(urls=None), "SnapshotSpecInfo", "spec.urls", "expected a boolean, got null"),
        (lambda s: s["omitted"][0].update(count=1.5), "Omitted", "omitted.0.count", "expected an integer"),
        (lambda s: s.update(omitted={}), "SnapshotOutput", "omitted", "expected an array, got an object"),
        (lambda s: s.update(refs=[]), "SnapshotOutput", "refs", "expected an object, got an array"),
    ],
)
def test_a_malformed_payload_names_the_type_and_the_field(change: Any, model: str, field: str, detail: str) -> None:
    raw = snapshot()
    _wire_types.SnapshotOutput.decode(raw)
    change(raw)
    with pytest.raises(NativeParseError) as err:
        _wire_types.SnapshotOutput.decode(raw)
    assert (err.value.model, err.value.field) == (model, field)
    assert detail in str(err.value) and model in str(err.value)


def test_not_an_object_and_optional_fields() -> None:
    with pytest.raises(NativeParseError) as err:
        _wire_types.TitleOutput.decode(None)
    assert (err.value.model, err.value.field) == ("TitleOutput", "data")
    with pytest.raises(NativeParseError, match="ValueOutput_string"):
        _wire_types.decode_result("text", {"value": None})
    # Not required by the schema: absent or null reads None; present, it is checked.
    assert _wire_types.decode_result("attribute", {}).value is None
    assert _wire_types.decode_result("attribute", {"value": None}).value is None
    with pytest.raises(NativeParseError) as err:
        _wire_types.decode_result("attribute", {"value": 3})
    assert err.value.field == "value"
    # Free JSON is kept as it is, but a required one must be there.
    assert _wire_types.decode_result("is_checked", {"value": False, "state": "mixed"}).state == "mixed"
    with pytest.raises(NativeParseError, match="state"):
        _wire_types.decode_result("is_checked", {"value": False})
    with pytest.raises(NativeParseError, match="status"):
        _wire_types.decode_result("open", {"url": "u", "title": "t", "status": 70_000})
    with pytest.raises(KeyError):
        _wire_types.decode_result("no_such_action", {})  # type: ignore[call-overload]


# -- the generator's other branches, on a schema of their own ------------------------------------

SMALL = {
    "version": "9.9.9",
    "commands": {
        "probe": {"result": {"$ref": "#/$defs/Probe"}},
        "other": {"result": {"$ref": "#/$defs/Probe"}},
        "empty": {"result": {"$ref": "#/$defs/Empty"}},
    },
    "$defs": {
        "Mode": {"oneOf": [{"type": "string", "const": "a"}, {"type": "string", "const": "b"}]},
        "Probe": {
            "type": "object",
            "description": "A probe.",
            "properties": {
                "mode": {"$ref": "#/$defs/Mode"},
                "modes": {"type": "array", "items": {"$ref": "#/$defs/Mode"}},
                "kind": {"type": "string", "enum": ["x", "y"]},
                "ratio": {"type": "number"},
                "names": {"type": "array", "items": {"type": ["string", "null"]}},
                "table": {"type": "object", "additionalProperties": {"type": "array", "items": {"type": "integer"}}},
                "maybe": {"type": ["integer", "null"], "minimum": 1},
                "limit": {"type": "integer", "default": 5},
                "tags": {"type": "array", "items": {"type": "string"}, "default": ["t"]},
                "class": {"type": "boolean"},
                "inner": {"anyOf": [{"$ref": "#/$defs/Empty"}, {"type": "null"}]},
            },
            "required": ["mode", "modes", "kind", "ratio", "names", "table", "maybe", "class"],
        },
        "Empty": {"type": "object", "description": "Nothing."},
        "Unused": {"type": "object", "properties": {"x": {"oneOf": [{"type": "object"}]}}},
    },
}


def small_module(tmp_path: Path) -> ModuleType:
    """The module generated from SMALL, in a package of its own beside a copy of ``_decode``."""
    source = generator().render(SMALL)
    package = tmp_path / "smallpkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "py.typed").write_text("")
    (package / "_decode.py").write_text((REPO / "python" / "agentbrowser" / "_decode.py").read_text())
    errors = package / "errors.py"
    errors.write_text("from agentbrowser.errors import NativeParseError as NativeParseError\n")
    (package / "_wire_types.py").write_text(source)
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", str(package)],
        env={**os.environ, "MYPYPATH": str(REPO / "python")},
        capture_output=True,
        text=True,
        timeout=300,
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    sys.path.insert(0, str(tmp_path))
    try:
        return importlib.import_module("smallpkg._wire_types")
    finally:
        sys.path.remove(str(tmp_path))


def test_the_generator_translates_every_construct_it_knows(tmp_path: Path) -> None:
    m = small_module(tmp_path)
    raw = {
        "mode": "a",
        "modes": ["b"],
        "kind": "y",
        "ratio": 2,
        "names": ["n", None],
        "table": {"k": [1, 2]},
        "maybe": None,
        "class": True,
    }
    probe = m.decode_result("probe", raw)
    assert (probe.mode, probe.modes, probe.kind, probe.ratio, probe.names) == ("a", ("b",), "y", 2, ("n", None))
    assert dict(probe.table) == {"k": (1, 2)} and probe.maybe is None
    assert probe.limit == 5 and probe.tags == ("t",) and probe.class_ is True and probe.inner is None
    assert m.RESULTS["other"] is not None and m.decode_result("empty", {}) == m.Empty()
    assert not hasattr(m, "Unused")
    for key, value, field in [
        ("mode", "c", "mode"),
        ("modes", ["a", 1], "modes.1"),
        ("kind", "z", "kind"),
        ("ratio", True, "ratio"),
        ("names", [3], "names.0"),
        ("table", {"k": ["1"]}, "table.k.0"),
        ("maybe", 0, "maybe"),
        ("limit", "5", "limit"),
    ]:
        with pytest.raises(NativeParseError) as err:
            m.Probe.decode({**raw, key: value})
        assert (err.value.model, err.value.field) == ("Probe", field), key
    with pytest.raises(NativeParseError) as err:
        m.Probe.decode({**raw, "inner": 1})
    assert (err.value.model, err.value.field) == ("Empty", "inner")


def test_the_generator_refuses_what_it_does_not_know() -> None:
    gen = generator()
    for bad, message in [
        ({"type": "object", "properties": {"x": {"oneOf": [{"type": "object"}]}}}, "Bad.x: untyped node"),
        ({"type": "object", "properties": {"x": {"type": ["string", "integer"]}}}, "Bad.x: a type list"),
        ({"type": "object", "properties": {"x": {"type": "object", "properties": {}}}}, "Bad.x: unsupported type"),
        ({"type": "object", "properties": {"x": {"$ref": "#/$defs/Nope"}}}, "Bad.x: unknown $ref"),
        ({"type": "object", "properties": {"aB": {"type": "string"}, "a_b": {"type": "string"}}}, "is taken"),
    ]:
        small = {"commands": {"bad": {"result": {"$ref": "#/$defs/Bad"}}}, "$defs": {"Bad": bad}}
        with pytest.raises(gen.SchemaError, match=message.replace("$", r"\$")):
            gen.render(small)


def test_records_are_frozen_compared_hashed_and_shown_like_frozen_dataclasses() -> None:
    import dataclasses

    a = _wire_types.OpenOutput.decode({"url": "http://x/", "title": "T", "status": 200})
    b = _wire_types.OpenOutput(url="http://x/", title="T", status=200, recovered=None)
    assert a == b and hash(a) == hash(b)
    assert a != _wire_types.OpenOutput(url="http://x/", title="T", status=404, recovered=None)
    assert repr(a) == "OpenOutput(url='http://x/', title='T', status=200, recovered=None)"
    with pytest.raises(dataclasses.FrozenInstanceError):
        a.title = "other"  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        del a.url
    with pytest.raises(AttributeError):
        a.extra = 1  # nor a new attribute (FrozenInstanceError is an AttributeError)
    match a:
        case _wire_types.OpenOutput(url, title, status, _):
            assert (url, title, status) == ("http://x/", "T", 200)
    # A record of another type with the same fields is not equal.
    assert a != object() and (a == 3) is False
