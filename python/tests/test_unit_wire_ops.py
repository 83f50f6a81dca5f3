"""The generated command builders (agentbrowser/_wire_ops.py) against their source.

Regenerating them from docs/protocol.schema.json gives the checked-in file exactly; every action
of the schema has a builder that names it and decodes its result type; a builder maps the Python
names to the wire keys, leaves None out, and refuses a value of the wrong type (TypeError naming
the parameter) or a number JSON cannot carry (ValueError); the engine's ``invalid_argument`` is a
ValueError as well as a BrowserError.
"""

from __future__ import annotations

import importlib.util
import json
import math
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from agentbrowser import BrowserError
from agentbrowser import _wire_ops as g
from agentbrowser.errors import InvalidArgumentError, error_for
from agentbrowser.models import BrowserResponse

REPO = Path(__file__).resolve().parents[2]
GENERATOR = REPO / "python" / "tools" / "gen_ops.py"
SCHEMA = REPO / "docs" / "protocol.schema.json"


def schema() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(SCHEMA.read_text())
    return data


def test_the_checked_in_module_is_what_the_schema_generates() -> None:
    spec = importlib.util.spec_from_file_location("gen_ops", GENERATOR)  # it imports gen_wire beside it
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    expected = module.render(schema())
    assert Path(g.__file__).read_text() == expected, "_wire_ops.py is stale: run python3 python/tools/gen_ops.py"


def test_the_generator_check_mode_agrees() -> None:
    done = subprocess.run([sys.executable, str(GENERATOR), "--check"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr


def test_every_action_has_a_builder_of_its_result() -> None:
    commands = schema()["commands"]
    assert list(g.BUILDERS) == list(commands)
    for action, command in commands.items():
        result = command["result"]["$ref"].rsplit("/", 1)[1].replace("_", "")
        required = command_params(command).get("required", [])
        built = g.BUILDERS[action](*(probe(command, key) for key in required))
        assert built.action == action
        assert built.decode.__qualname__.replace("_", "").lower() == f"{result}.decode".lower(), action


def command_params(command: dict[str, Any]) -> dict[str, Any]:
    defs = schema()["$defs"]
    params: dict[str, Any] = defs[command["params"]["$ref"].rsplit("/", 1)[1]]
    return params


def probe(command: dict[str, Any], key: str) -> object:
    """A value of the JSON type of a required parameter."""
    kind = command_params(command)["properties"][key].get("type", "string")
    return {"string": "x", "integer": 1, "number": 1.5, "boolean": True, "array": ["x"], "object": {}}.get(kind, "x")


def test_python_names_become_wire_keys_and_none_is_left_out() -> None:
    assert g.html("body", max_bytes=5).params == {"target": "body", "maxBytes": 5}
    assert g.html("body", outer=None).params == {"target": "body"}
    assert g.state_rename("a", "b").params == {"from": "a", "to": "b"}
    assert g.network_requests(type=("xhr",), clear=True).params == {"clear": True, "type": ["xhr"]}
    assert g.set_headers({"A": "b"}).params == {"headers": {"A": "b"}}
    assert g.click({"find": {"by": "role", "value": "button"}}, click_count=2).params == {
        "ref": {"find": {"by": "role", "value": "button"}},
        "clickCount": 2,
    }
    assert g.title().params == {}


@pytest.mark.parametrize(
    ("build", "name"),
    [
        (lambda: g.mouse_move("1", 2), "x"),  # type: ignore[arg-type]
        (lambda: g.dialog_accept(text=3), "text"),  # type: ignore[arg-type]
        (lambda: g.html("body", max_bytes=True), "max_bytes"),
        (lambda: g.styles("body", props="color"), "props"),
        (lambda: g.set_headers({"A": 1}), "headers"),  # type: ignore[dict-item]
        (lambda: g.html(3), "target"),  # type: ignore[arg-type]
        (lambda: g.snapshot(delta="yes"), "delta"),  # type: ignore[arg-type]
    ],
)
def test_a_value_of_the_wrong_type_is_a_type_error_naming_it(build: Any, name: str) -> None:
    with pytest.raises(TypeError, match=f"\\b{name} must be"):
        build()


def test_a_number_json_cannot_carry_is_a_value_error() -> None:
    for bad in (math.inf, math.nan):
        with pytest.raises(ValueError, match="y must be a finite number"):
            g.scroll(y=bad)


def test_the_engines_invalid_argument_is_a_value_error() -> None:
    envelope = {"id": 1, "action": "html", "success": False, "error": "invalid parameter `maxBytes`: -1"}
    err = error_for(BrowserResponse.from_raw({**envelope, "code": "invalid_argument"}))
    assert isinstance(err, InvalidArgumentError) and isinstance(err, (ValueError, BrowserError))
    assert err.code == "invalid_argument" and "maxBytes" in str(err)
    other = error_for(BrowserResponse.from_raw({**envelope, "code": "js_error"}))
    assert not isinstance(other, ValueError)
