"""The ten-line example of docs/python.md runs as written; every public item has a docstring."""

from __future__ import annotations

import ast
import os
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def test_ten_line_example_runs(agentbrowser_bin: Path, require: Callable[..., None]) -> None:
    require("snapshot", "fill", "click")
    doc = (REPO / "docs" / "python.md").read_text()
    section = doc.split("## Ten lines", 1)[1]
    code = re.search(r"```python\n(.*?)```", section, re.S)
    assert code is not None
    lines = code.group(1).strip().splitlines()
    assert len(lines) <= 10
    env = {**os.environ, "PYTHONPATH": str(REPO / "python")}
    done = subprocess.run([sys.executable, "-c", code.group(1)], env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "Greet" in done.stdout and "Hi Ada" in done.stdout


def test_every_public_item_has_a_docstring() -> None:
    missing: list[str] = []

    def walk(path: Path, body: list[ast.stmt], prefix: str) -> None:
        for node in body:
            if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                continue
            if node.name.startswith("_") or any(
                isinstance(d, ast.Name) and d.id == "overload" for d in node.decorator_list
            ):
                continue
            if not ast.get_docstring(node):
                missing.append(f"{path.relative_to(REPO)}:{node.lineno} {prefix}{node.name}")
            if isinstance(node, ast.ClassDef):
                walk(path, node.body, f"{prefix}{node.name}.")

    for path in sorted((REPO / "python" / "agentbrowser").rglob("*.py")):
        tree = ast.parse(path.read_text())
        if not ast.get_docstring(tree):
            missing.append(f"{path.relative_to(REPO)}: module")
        walk(path, tree.body, "")
    assert not missing, "no docstring: " + ", ".join(missing)
