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


def _python_blocks() -> list[tuple[str, int, str]]:
    """Every ```python block of the skills, the README and docs/: (file, first line, code)."""
    files = [REPO / "README.md", *sorted((REPO / "skills").rglob("*.md")), *sorted((REPO / "docs").glob("*.md"))]
    out: list[tuple[str, int, str]] = []
    for path in files:
        text = path.read_text()
        for m in re.finditer(r"^```python\n(.*?)^```", text, re.S | re.M):
            out.append((str(path.relative_to(REPO)), text[: m.start()].count("\n") + 2, m.group(1)))
    return out


def _parse(code: str, where: str) -> ast.Module:
    """The block as Python (top-level ``await`` allowed, as in notebook cells and the REPL)."""
    tree = compile(code, where, "exec", flags=ast.PyCF_ONLY_AST | ast.PyCF_ALLOW_TOP_LEVEL_AWAIT)
    assert isinstance(tree, ast.Module)
    return tree


class _Names:
    """What a docs block names of the agentbrowser package, followed through its annotations:
    imports, classes and what their constructors, ``launch``/``attach``, methods, properties and
    attributes give. ``missing`` collects each name the package does not have."""

    def __init__(self, file: str, first_line: int) -> None:
        self.file = file
        self.first_line = first_line
        self.env: dict[str, object] = {}
        self.missing: list[str] = []

    def _miss(self, node: ast.AST, what: str) -> None:
        line = self.first_line + getattr(node, "lineno", 1) - 1
        self.missing.append(f"{self.file}:{line}: {what}")

    @staticmethod
    def _ours(obj: object) -> bool:
        return getattr(obj, "__module__", "").startswith("agentbrowser")

    def _hints(self, obj: object) -> dict[str, object]:
        """The annotations of a function or class (and its bases), each resolved on its own:
        one that names a type only imported for type checking does not hide the others."""
        raw: dict[str, object] = {}
        owners = [k for k in reversed(obj.__mro__)] if isinstance(obj, type) else [obj]
        for owner in owners:
            raw.update(getattr(owner, "__annotations__", {}) or {})
        module = sys.modules.get(getattr(obj, "__module__", ""), None)
        scope = dict(getattr(obj, "__globals__", None) or vars(module) if module else {})
        out: dict[str, object] = {}
        for name, ann in raw.items():
            if isinstance(ann, str):
                try:
                    ann = eval(ann, scope)  # noqa: S307 - the package's own annotations
                except Exception:
                    continue
            out[name] = ann
        return out

    def _class_of(self, hint: object) -> object:
        """The class of ours an annotation names: `Snapshot[Browser]` is `Snapshot`, `X | None`
        is `X`; None for anything else."""
        import typing

        origin = typing.get_origin(hint)
        if origin is not None:
            args = [a for a in typing.get_args(hint) if a is not type(None)]
            if origin in (typing.Union, getattr(__import__("types"), "UnionType", None)):
                return self._class_of(args[0]) if len(args) == 1 else None
            hint = origin
        return hint if isinstance(hint, type) and self._ours(hint) else None

    def _returns(self, fn: object) -> object:
        """The class a function or method returns, when its annotation names one of ours."""
        return self._class_of(self._hints(fn).get("return"))

    def _instance_attrs(self, cls: type) -> dict[str, object]:
        """``self.X = Cls(...)`` and ``self.X: T`` of the class's ``__init__`` (and its bases')."""
        import inspect
        import textwrap

        found: dict[str, object] = {}
        for klass in cls.__mro__:
            init = klass.__dict__.get("__init__")
            if init is None or not self._ours(klass):
                continue
            try:
                tree = ast.parse(textwrap.dedent(inspect.getsource(init)))
            except (OSError, TypeError, SyntaxError):
                continue
            module = sys.modules[klass.__module__]
            for node in ast.walk(tree):
                targets: list[ast.expr] = []
                value: ast.expr | None = None
                if isinstance(node, ast.Assign):
                    targets, value = node.targets, node.value
                elif isinstance(node, ast.AnnAssign):
                    targets, value = [node.target], node.value
                for t in targets:
                    if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == "self":
                        kind = None
                        if isinstance(value, ast.Call) and isinstance(value.func, ast.Name):
                            candidate = getattr(module, value.func.id, None)
                            kind = candidate if isinstance(candidate, type) and self._ours(candidate) else None
                        found.setdefault(t.attr, kind)
        return found

    def member(self, owner: object, name: str, node: ast.AST) -> object:
        """What ``owner.name`` gives (a class of ours for an instance of it, or a function), or
        None when it cannot be told; a name the class does not have is recorded as missing."""
        import inspect

        if owner is None:
            return None
        if isinstance(owner, tuple) and owner[0] == "instance":
            cls = owner[1]
        elif isinstance(owner, type):
            cls = owner
        elif inspect.ismodule(owner):
            if not hasattr(owner, name):
                import importlib

                try:
                    return importlib.import_module(f"{owner.__name__}.{name}")
                except ImportError:
                    self._miss(node, f"{owner.__name__} has no `{name}`")
                    return None
            return getattr(owner, name)
        else:
            return None
        if not self._ours(cls):
            return None
        try:
            static = inspect.getattr_static(cls, name)
        except AttributeError:
            static = None
            if isinstance(owner, tuple):
                attrs = self._instance_attrs(cls)
                hints = self._hints(cls)
                if name in attrs:
                    kind = attrs[name]
                    return ("instance", kind) if kind else None
                if name in hints or name in getattr(cls, "__slots__", ()) or name in getattr(cls, "__dataclass_fields__", {}):
                    hint = self._class_of(hints.get(name))
                    return ("instance", hint) if hint else None
            self._miss(node, f"`{cls.__name__}` has no `{name}`")
            return None
        if isinstance(static, property):
            kind = self._returns(static.fget)
            return ("instance", kind) if kind else None
        if isinstance(static, (classmethod, staticmethod)):
            return ("function", static.__func__)
        if inspect.isfunction(static):
            return ("function", static)
        if isinstance(static, type):
            return static
        return None

    def kind(self, node: ast.expr | None) -> object:
        """What an expression gives, as far as the package's annotations tell."""
        if node is None:
            return None
        if isinstance(node, ast.Name):
            return self.env.get(node.id)
        if isinstance(node, ast.Await):
            return self.kind(node.value)
        if isinstance(node, ast.Attribute):
            return self.member(self.kind(node.value), node.attr, node)
        if isinstance(node, ast.Call):
            for arg in [*node.args, *(k.value for k in node.keywords)]:
                self.kind(arg)
            callee = self.kind(node.func)
            if isinstance(callee, type) and self._ours(callee):
                return ("instance", callee)
            if isinstance(callee, tuple) and callee[0] == "function":
                kind = self._returns(callee[1])
                return ("instance", kind) if kind else None
            return None
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.expr):
                self.kind(child)
        return None

    def run(self, tree: ast.Module) -> None:
        """Walks the block in order, binding names and checking every use."""
        import importlib

        for stmt in ast.walk(tree):
            if isinstance(stmt, ast.ImportFrom) and (stmt.module or "").startswith("agentbrowser"):
                module = importlib.import_module(str(stmt.module))
                for alias in stmt.names:
                    value = self.member(module, alias.name, stmt)
                    self.env[alias.asname or alias.name] = value
            elif isinstance(stmt, ast.Import):
                for alias in stmt.names:
                    if alias.name.startswith("agentbrowser"):
                        importlib.import_module(alias.name)
        for stmt in ast.walk(tree):
            if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
                self.env[stmt.targets[0].id] = self.kind(stmt.value)
            elif isinstance(stmt, (ast.With, ast.AsyncWith)):
                for item in stmt.items:
                    kind = self.kind(item.context_expr)
                    if isinstance(item.optional_vars, ast.Name):
                        self.env[item.optional_vars.id] = kind
            elif isinstance(stmt, ast.Expr):
                self.kind(stmt.value)
            elif isinstance(stmt, (ast.Return, ast.AugAssign, ast.AnnAssign)) and stmt.value is not None:
                self.kind(stmt.value)


def test_every_python_block_of_the_docs_parses() -> None:
    broken: list[str] = []
    for where, line, code in _python_blocks():
        try:
            _parse(code, f"{where}:{line}")
        except SyntaxError as e:
            broken.append(f"{where}:{line + (e.lineno or 1) - 1}: {e.msg}")
    assert not broken, "Python blocks that do not parse: " + "; ".join(broken)


def test_every_name_a_python_block_uses_of_the_package_exists() -> None:
    sys.path.insert(0, str(REPO / "python"))
    missing: list[str] = []
    for where, line, code in _python_blocks():
        names = _Names(where, line)
        names.run(_parse(code, where))
        missing.extend(names.missing)
    assert not missing, "names the docs use that the package does not have:\n" + "\n".join(missing)
