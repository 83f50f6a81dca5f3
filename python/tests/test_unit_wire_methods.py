"""The generated client methods (agentbrowser/_wire_methods.py) against their sources.

Regenerating them from docs/protocol.schema.json and the hand-written modules gives the checked-in
file exactly; a command no hand-written module sends (like a new ``choices``) gets a typed method
on the page (on the browser when its kind is ``session``), in both clients; a hand-written module
that names its builder or passes its action to the operations takes that method away; a name the
hand-written class already uses stops the generator.
"""

from __future__ import annotations

import ast
import copy
import importlib.util
import json
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from agentbrowser import Browser, Page
from agentbrowser import _wire_methods as generated
from agentbrowser.aio import AsyncBrowser, AsyncPage

REPO = Path(__file__).resolve().parents[2]
GENERATOR = REPO / "python" / "tools" / "gen_methods.py"
SCHEMA = REPO / "docs" / "protocol.schema.json"
PACKAGE = REPO / "python" / "agentbrowser"


def generator() -> ModuleType:
    spec = importlib.util.spec_from_file_location("gen_methods", GENERATOR)  # it imports gen_ops beside it
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def schema() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(SCHEMA.read_text())
    return data


def with_choices(kind: str = "read") -> dict[str, Any]:
    """The schema with one more command, ``choices``, shaped like the reads of a target."""
    out = copy.deepcopy(schema())
    out["$defs"]["ChoicesParams"] = {
        "type": "object",
        "additionalProperties": False,
        "properties": {
            "target": {"$ref": "#/$defs/Target", "description": "The select, listbox or combobox."},
            "maxItems": {"type": ["integer", "null"], "description": "Most choices listed."},
        },
        "required": ["target"],
    }
    out["$defs"]["ChoicesOutput"] = {"type": "object", "properties": {}}
    out["commands"]["choices"] = {
        "kind": kind,
        "summary": "The choices of a select, listbox or combobox.",
        "params": {"$ref": "#/$defs/ChoicesParams"},
        "result": {"$ref": "#/$defs/ChoicesOutput"},
    }
    return out


def methods_of(text: str) -> dict[str, list[str]]:
    """The method names of each class of a rendered module."""
    tree = ast.parse(text)
    return {
        node.name: [item.name for item in node.body if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef))]
        for node in tree.body
        if isinstance(node, ast.ClassDef)
    }


def new_methods(text: str) -> dict[str, list[str]]:
    """The methods of each class of a rendered module that the checked-in module does not have."""
    before = methods_of(Path(generated.__file__).read_text())
    return {name: [m for m in methods if m not in before[name]] for name, methods in methods_of(text).items()}


def test_the_checked_in_module_is_what_the_generator_writes() -> None:
    expected = generator().render(schema())
    assert Path(generated.__file__).read_text() == expected, (
        "_wire_methods.py is stale: run python3 python/tools/gen_methods.py"
    )


def test_the_generator_check_mode_agrees() -> None:
    done = subprocess.run([sys.executable, str(GENERATOR), "--check"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr


def test_the_clients_have_the_generated_classes_as_bases() -> None:
    assert issubclass(AsyncPage, generated.AsyncPageCommands) and issubclass(Page, generated.PageCommands)
    assert issubclass(AsyncBrowser, generated.AsyncBrowserCommands) and issubclass(Browser, generated.BrowserCommands)


def test_a_command_no_hand_written_module_sends_gets_a_page_method_in_both_clients() -> None:
    text = generator().render(with_choices())
    compile(text, "_wire_methods.py", "exec")
    added = new_methods(text)
    assert added["AsyncPageCommands"] == added["PageCommands"] == ["choices"]
    assert added["AsyncBrowserCommands"] == added["BrowserCommands"] == []
    signature = (
        "(\n        self,\n        target: str | Mapping[str, Any] | Actionable[Any],\n        *,\n"
        "        max_items: int | None = None,\n    ) -> w.ChoicesOutput:\n"
    )
    assert f"    async def choices{signature}" in text and f"    def choices{signature}" in text
    assert '        """The choices of a select, listbox or combobox.\n\n        ``target``: The select,' in text
    assert "        built = g.choices(_ops.wire_target(target), max_items=max_items)\n" in text
    assert "        return await self._b._drive(_ops.command(built, target))\n" in text
    assert "        return self._b._drive(_ops.command(built, target))\n" in text


def test_a_session_command_is_a_browser_method() -> None:
    text = generator().render(with_choices(kind="session"))
    added = new_methods(text)
    assert added["AsyncBrowserCommands"] == added["BrowserCommands"] == ["choices"]
    assert added["AsyncPageCommands"] == added["PageCommands"] == []
    assert "        return await self._drive(_ops.command(built, target))\n" in text


@pytest.mark.parametrize(
    "source",
    [
        "from . import _wire_ops as ops\n\ndef f() -> object:\n    return ops.choices('#s')\n",
        "def f(b: object) -> object:\n    return b.browser._ops.read_str(b, 'choices', {})\n",
        "from . import _wire_types as t\n\ndef f(d: object) -> object:\n    return t.decode_result('choices', d)\n",
        "from ._call import Call\n\ndef f() -> object:\n    return Call('choices', {})\n",
    ],
)
def test_a_hand_written_module_that_sends_the_command_takes_its_method_away(tmp_path: Path, source: str) -> None:
    gen = generator()
    (tmp_path / "models").mkdir()
    (tmp_path / "models" / "hand.py").write_text(source)
    sent = gen.hand_sent(tmp_path, frozenset({"choices", "title"}))
    assert sent == {"choices"}
    (tmp_path / "models" / "hand.py").write_text("# Generated by a tool: do not edit.\n" + source)
    assert gen.hand_sent(tmp_path, frozenset({"choices"})) == frozenset()


def test_the_clients_have_a_method_for_every_command_no_hand_written_module_sends() -> None:
    # At dd78c22 the hand-written modules send every command: the generated classes are empty
    # until a command such as `choices` comes without hand-written Python.
    gen = generator()
    commands = schema()["commands"]
    unsent = set(commands) - gen.hand_sent(PACKAGE, frozenset(commands))
    for cls in (generated.AsyncPageCommands, generated.PageCommands):
        assert {name for name in vars(cls) if not name.startswith("_")} == {
            action for action in unsent if commands[action]["kind"] != "session"
        }
    for cls in (generated.AsyncBrowserCommands, generated.BrowserCommands):
        assert {name for name in vars(cls) if not name.startswith("_")} == {
            action for action in unsent if commands[action]["kind"] == "session"
        }


def test_a_name_the_hand_written_class_uses_stops_the_generator(tmp_path: Path) -> None:
    gen = generator()
    data = schema()
    find = {action for action in data["commands"] if action != "find"}
    with pytest.raises(gen.SchemaError, match=r"AsyncPage uses the name of the command\(s\) find"):
        gen.render(data, sent=frozenset(find))
    status = {action for action in data["commands"] if action != "status"}
    with pytest.raises(gen.SchemaError, match=r"AsyncBrowser uses the name of the command\(s\) status"):
        gen.render(data, sent=frozenset(status))
