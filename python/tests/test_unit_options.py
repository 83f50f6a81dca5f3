"""Unit: LaunchOptions, SessionOptions and CDPTarget are checked by the constraints of the
protocol schema (docs/protocol.schema.json, generated into ``_wire_types.OPTION_RULES``), and
the generator translates those constraints (and refuses one it does not know)."""

from __future__ import annotations

import importlib.util
import json
import os
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from agentbrowser import CDPTarget, LaunchOptions, SessionOptions
from agentbrowser._rules import Rule
from agentbrowser._wire_types import OPTION_RULES
from agentbrowser.options import MAX_TIMEOUT_MS, MAX_WINDOW_SIDE, SESSION_NAME, merge_options

REPO = Path(__file__).resolve().parents[2]
SCHEMA = json.loads((REPO / "docs" / "protocol.schema.json").read_text())


def gen_wire() -> ModuleType:
    spec = importlib.util.spec_from_file_location("gen_wire", REPO / "python" / "tools" / "gen_wire.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["gen_wire"] = module
    spec.loader.exec_module(module)
    return module


def _types(prop: dict[str, object]) -> list[str]:
    """The JSON types a schema property allows (a ``$ref`` to a string enum is a string)."""
    if "type" in prop:
        t = prop["type"]
        return [str(x) for x in t] if isinstance(t, list) else [str(t)]
    options = prop.get("anyOf", [prop])
    assert isinstance(options, list)
    return ["string" if "$ref" in o else str(o["type"]) for o in options]


def test_every_launch_param_and_client_option_has_the_schemas_rule() -> None:
    owners = {"LaunchParams": SCHEMA["$defs"]["LaunchParams"], "clientOptions": SCHEMA["clientOptions"]}
    assert set(OPTION_RULES) == set(owners)
    for owner, node in owners.items():
        props = node["properties"]
        # Maps of strings (cdpHeaders) have no rule: the options check them by hand.
        maps = {k for k, p in props.items() if "object" in _types(p)}
        assert set(OPTION_RULES[owner]) == set(props) - maps, owner
        for key, prop in props.items():
            if key in maps:
                continue
            rule = OPTION_RULES[owner][key]
            types = _types(prop)
            assert rule.kind in types and rule.nullable == ("null" in types), (owner, key)
            assert (rule.minimum, rule.maximum) == (prop.get("minimum"), prop.get("maximum")), (owner, key)
            assert rule.min_length == prop.get("minLength") and rule.pattern == prop.get("pattern"), (owner, key)


def test_the_python_constants_are_the_schemas() -> None:
    props = SCHEMA["$defs"]["LaunchParams"]["properties"]
    assert MAX_WINDOW_SIDE == props["windowWidth"]["maximum"] == 16384
    assert MAX_TIMEOUT_MS == SCHEMA["clientOptions"]["properties"]["timeout"]["maximum"]
    assert SESSION_NAME.pattern == SCHEMA["clientOptions"]["properties"]["session"]["pattern"]


@pytest.mark.parametrize(
    ("kwargs", "error", "field"),
    [
        ({"headless": "yes"}, TypeError, "LaunchOptions.headless"),
        ({"executable_path": ""}, ValueError, "LaunchOptions.executable_path"),
        ({"executable_path": 3}, TypeError, "LaunchOptions.executable_path"),
        ({"args": "--lang=de"}, TypeError, "LaunchOptions.args"),
        ({"args": ["--a", 2]}, TypeError, r"LaunchOptions.args\[1\]"),
        ({"window_size": (0, 600)}, ValueError, "LaunchOptions.window_size width"),
        ({"window_size": (800, MAX_WINDOW_SIDE + 1)}, ValueError, "LaunchOptions.window_size height"),
        ({"window_size": (800,)}, TypeError, "LaunchOptions.window_size"),
        ({"window_size": (800.0, 600)}, TypeError, "LaunchOptions.window_size width"),
        ({"timeout_ms": -1}, ValueError, "LaunchOptions.timeout_ms"),
        ({"timeout_ms": MAX_TIMEOUT_MS + 1}, ValueError, "LaunchOptions.timeout_ms"),
        ({"timeout_ms": 1.5}, TypeError, "LaunchOptions.timeout_ms"),
        ({"session": "a b"}, ValueError, "LaunchOptions.session"),
        ({"session": "x" * 65}, ValueError, "LaunchOptions.session"),
        ({"cdp_url": "ftp://host"}, ValueError, "LaunchOptions.cdp_url"),
        ({"cdp_url": "file://host"}, ValueError, "LaunchOptions.cdp_url"),
        ({"cdp_port": 0}, ValueError, "LaunchOptions.cdp_port"),
        ({"cdp_port": True}, TypeError, "LaunchOptions.cdp_port"),
        ({"cdp_url": "ws://h", "cdp_port": 9222}, ValueError, "exclude each other"),
        ({"download_path": ""}, ValueError, "LaunchOptions.download_path"),
        ({"download_path": 1}, TypeError, "LaunchOptions.download_path"),
        ({"auto_dialogs": 1}, TypeError, "LaunchOptions.auto_dialogs"),
    ],
)
def test_launch_options_refuse_naming_the_field(kwargs: dict[str, Any], error: type[Exception], field: str) -> None:
    with pytest.raises(error, match=field):
        LaunchOptions(**kwargs)


@pytest.mark.parametrize(
    ("kwargs", "error", "field"),
    [
        ({"session_id": ""}, ValueError, "SessionOptions.session_id"),
        ({"session_id": 5}, TypeError, "SessionOptions.session_id"),
        ({"timeout": -0.5}, ValueError, r"SessionOptions.timeout must be within 0..86400 seconds"),
        ({"timeout": 86401}, ValueError, "SessionOptions.timeout"),
        ({"timeout": "15"}, TypeError, "SessionOptions.timeout"),
        ({"timeout": True}, TypeError, "SessionOptions.timeout"),
        ({"timeout": float("nan")}, ValueError, "SessionOptions.timeout"),
        ({"auto_dialogs": None}, TypeError, "SessionOptions.auto_dialogs"),
        ({"download_path": b"/tmp"}, TypeError, "SessionOptions.download_path"),
    ],
)
def test_session_options_refuse_naming_the_field(kwargs: dict[str, Any], error: type[Exception], field: str) -> None:
    with pytest.raises(error, match=field):
        SessionOptions(**kwargs)


def test_cdp_target_takes_exactly_one_valid_endpoint() -> None:
    for kwargs in ({}, {"url": "ws://127.0.0.1:1/x", "port": 9222}):
        with pytest.raises(ValueError, match="exactly one"):
            CDPTarget(**kwargs)
    for bad, error in ((0, ValueError), (65536, ValueError), ("9222", TypeError)):
        with pytest.raises(error, match="CDPTarget.port"):
            CDPTarget(port=bad)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="CDPTarget.url"):
        CDPTarget(url="127.0.0.1:9222")
    assert str(CDPTarget(port=9222)) == "127.0.0.1:9222"
    assert CDPTarget(port=65535).port == 65535 and CDPTarget(port=1).port == 1


def test_cdp_headers_are_checked_hidden_and_carried_to_the_wire() -> None:
    target = CDPTarget(url="wss://grid.example/?token=s3cret&x=1", headers={"Authorization": "Bearer s3cret"})
    assert "s3cret" not in repr(target) and "s3cret" not in str(target)
    assert str(target) == "wss://grid.example/?token=***&x=***"
    merged = merge_options(LaunchOptions(ca_cert="/tmp/ca.pem"), None, target)
    assert "s3cret" not in repr(merged) and "cdp_url='wss://grid.example/?token=***&x=***'" in repr(merged)
    wire = merged.to_wire()
    assert wire["cdpHeaders"] == {"Authorization": "Bearer s3cret"} and wire["caCert"] == "/tmp/ca.pem"
    assert wire["cdpUrl"] == "wss://grid.example/?token=s3cret&x=1"
    assert LaunchOptions(cdp_url="https://grid.example:8443", cdp_headers={"A": "b"}).to_wire()["cdpHeaders"] == {"A": "b"}
    for headers, error, words in (
        ({"A": 1}, TypeError, "header 'A' has a int value"),
        ({"A B": "x"}, ValueError, "'A B' is not an HTTP header name"),
        ({"A": "x\ny"}, ValueError, "line break"),
        (["A"], TypeError, "must be a mapping"),
    ):
        with pytest.raises(error, match=words):
            CDPTarget(url="wss://grid.example/", headers=headers)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="cdp_headers go with cdp_url or cdp_port"):
        LaunchOptions(cdp_headers={"A": "b"})
    with pytest.raises(ValueError, match=r"got 'ftp://h/\?token=\*\*\*'") as bad:
        CDPTarget(url="ftp://h/?token=s3cret")
    assert "s3cret" not in str(bad.value)


def test_valid_options_and_their_wire() -> None:
    opts = LaunchOptions(args=["--a"], window_size=(1, MAX_WINDOW_SIDE), download_path="rel", cdp_port=9222)
    assert opts.args == ("--a",) and opts.download_path == os.path.abspath("rel")
    assert opts.to_wire() == {
        "headless": True,
        "args": ["--a"],
        "windowWidth": 1,
        "windowHeight": MAX_WINDOW_SIDE,
        "cdpPort": 9222,
        "downloadPath": os.path.abspath("rel"),
    }
    session = SessionOptions(timeout=1.25, download_path=Path("d"))
    assert session.timeout_ms == 1250 and session.download_path == os.path.abspath("d")
    assert SessionOptions().timeout_ms is None and SessionOptions(timeout=0).timeout_ms == 0


def test_merging_launch_session_and_target() -> None:
    merged = merge_options(
        LaunchOptions(timeout_ms=5000), SessionOptions(session_id="s1", timeout=2, auto_dialogs=True, download_path="/d")
    )
    assert (merged.session, merged.timeout_ms, merged.auto_dialogs, merged.download_path) == ("s1", 2000, True, "/d")
    assert merge_options(None, None) == LaunchOptions()
    attached = merge_options(None, SessionOptions(timeout=3), CDPTarget(url="http://127.0.0.1:9222"))
    assert attached.cdp_url == "http://127.0.0.1:9222" and attached.timeout_ms == 3000
    with pytest.raises(ValueError, match="SessionOptions.session_id='b' and LaunchOptions.session='a' differ"):
        merge_options(LaunchOptions(session="a"), SessionOptions(session_id="b"))
    with pytest.raises(ValueError, match="download_path"):
        merge_options(LaunchOptions(download_path="/x"), SessionOptions(download_path="/y"))
    with pytest.raises(ValueError, match="LaunchOptions.executable_path, LaunchOptions.window_size"):
        merge_options(LaunchOptions(executable_path="/c", window_size=(5, 5)), None, CDPTarget(port=1))
    with pytest.raises(ValueError, match="cdp_url/cdp_port must be unset"):
        merge_options(LaunchOptions(cdp_port=3), None, CDPTarget(port=1))
    with pytest.raises(TypeError, match="session must be a SessionOptions"):
        merge_options(None, {"timeout": 1})  # type: ignore[arg-type]


def test_rule_checks() -> None:
    rule = Rule("string", nullable=True, enum=("dark", "light"))
    rule.check("X.scheme", "dark")
    rule.check("X.scheme", None)
    with pytest.raises(ValueError, match="X.scheme must be one of 'dark', 'light', got 'blue'"):
        rule.check("X.scheme", "blue")
    with pytest.raises(TypeError, match="X.n must be an int, got None"):
        Rule("integer").check("X.n", None)
    with pytest.raises(ValueError, match="X.n must be at least 2, got 1"):
        Rule("integer", minimum=2).check("X.n", 1)
    with pytest.raises(ValueError, match="X.n must be at most 2.5, got 3"):
        Rule("number", maximum=2.5).check("X.n", 3)
    with pytest.raises(ValueError, match="at most 3 characters"):
        Rule("string", max_length=3).check("X.s", "abcd")


def test_the_generator_translates_constraints_and_refuses_unknown_ones() -> None:
    gen = gen_wire()
    code = gen.rule_code(
        {"type": ["string", "null"], "enum": ["a", "b"], "minLength": 1, "description": "d"}, "T.f"
    )
    assert code == '_r.Rule("string", nullable=True, min_length=1, enum=("a", "b"))'
    code = gen.rule_code({"anyOf": [{"type": "integer", "minimum": 0, "maximum": 9}, {"type": "null"}]}, "T.g")
    assert code == '_r.Rule("integer", nullable=True, minimum=0, maximum=9)'
    assert gen.rule_code({"type": "array", "items": {"type": "string"}}, "T.h") == (
        '_r.Rule("array", items=_r.Rule("string"))'
    )
    defs = {"Scheme": {"oneOf": [{"const": "dark", "description": "d"}, {"const": "light"}]}, "Obj": {"type": "object"}}
    nullable_enum = {"anyOf": [{"$ref": "#/$defs/Scheme"}, {"type": "null"}], "description": "x"}
    assert gen.rule_code(nullable_enum, "T.k", defs) == '_r.Rule("string", nullable=True, enum=("dark", "light"))'
    assert gen.rule_code({"$ref": "#/$defs/Scheme"}, "T.l", defs) == '_r.Rule("string", enum=("dark", "light"))'
    with pytest.raises(gen.SchemaError, match="T.m: a client option's \\$ref '#/\\$defs/Obj' is not a string enum"):
        gen.rule_code({"$ref": "#/$defs/Obj"}, "T.m", defs)
    with pytest.raises(gen.SchemaError, match=r"T.i: constraints \['multipleOf'\]"):
        gen.rule_code({"type": "integer", "multipleOf": 2}, "T.i")
    with pytest.raises(gen.SchemaError, match="T.j"):
        gen.rule_code({"type": "object"}, "T.j")
