"""The package's import graph, read from its source with ``ast``, has no cycle.

Every ``import`` counts as an edge, at module level or inside a function, except those under
``if TYPE_CHECKING:`` (they never run).  The only import inside a function is the package's
lazy ``aio`` (so that ``import agentbrowser`` does not load asyncio).  The layering the graph
must keep: models never reach the operations or the clients, the async client never reaches
the sync one, and no module imports another module's private names.
"""

from __future__ import annotations

import ast
import importlib
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

PACKAGE = "agentbrowser"
ROOT = Path(__file__).resolve().parents[1] / PACKAGE


@dataclass(frozen=True)
class Edge:
    """One import: ``source`` imports ``target`` (``names`` from it) at ``line``, ``in_function`` or not."""

    source: str
    target: str
    names: tuple[str, ...]
    line: int
    in_function: bool


def modules() -> dict[str, Path]:
    """Every module of the package by dotted name (a package by its ``__init__.py``)."""
    found: dict[str, Path] = {}
    for path in sorted(ROOT.rglob("*.py")):
        parts = list(path.relative_to(ROOT.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imports(node: ast.AST, in_function: bool = False) -> Iterator[tuple[ast.Import | ast.ImportFrom, bool]]:
    """The import statements below ``node`` that run, with whether each runs inside a function."""
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.If) and _is_type_checking(child.test):
            for other in child.orelse:
                yield from _imports(ast.Module(body=[other], type_ignores=[]), in_function)
            continue
        if isinstance(child, (ast.Import, ast.ImportFrom)):
            yield child, in_function
        inner = in_function or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
        yield from _imports(child, inner)


def edges() -> list[Edge]:
    """Every import from one module of the package to another."""
    known = modules()
    out: list[Edge] = []
    for name, path in known.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node, in_function in _imports(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import):
                targets = [(alias.name, ()) for alias in node.names]
            else:
                base = package.rsplit(".", node.level - 1)[0] if node.level else ""
                base = ".".join(p for p in (base, node.module or "") if p)
                targets = []
                for alias in node.names:
                    sub = f"{base}.{alias.name}"
                    targets.append((sub, ()) if sub in known else (base, (alias.name,)))
            for target, names in targets:
                if target in known:
                    out.append(Edge(name, target, names, node.lineno, in_function))
    return out


def graph(all_edges: list[Edge]) -> dict[str, set[str]]:
    """Adjacency of the modules."""
    adj: dict[str, set[str]] = {m: set() for m in modules()}
    for e in all_edges:
        adj[e.source].add(e.target)
    return adj


def cycles(adj: dict[str, set[str]]) -> list[list[str]]:
    """The shortest cycle through each module that is on one, as a path back to its start (each once)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[set[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(adj.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group: set[str] = set()
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.add(w)
                if w == v:
                    break
            if len(group) > 1 or v in adj.get(v, ()):
                groups.append(group)

    for v in sorted(adj):
        if v not in index:
            visit(v)
    found: dict[frozenset[str], list[str]] = {}
    for group in groups:
        for start in sorted(group):
            path = _shortest_cycle(start, group, adj)
            found.setdefault(frozenset(path), path)
    return list(found.values())


def _shortest_cycle(start: str, group: set[str], adj: dict[str, set[str]]) -> list[str]:
    parents: dict[str, str] = {}
    frontier = [start]
    while frontier:
        nxt = []
        for v in frontier:
            for w in sorted(adj[v] & group):
                if w == start:
                    path = [v]
                    while path[-1] != start:
                        path.append(parents[path[-1]])
                    return [start, *reversed(path[:-1]), start]
                if w not in parents:
                    parents[w] = v
                    nxt.append(w)
        frontier = nxt
    raise AssertionError(f"no cycle through {start}")


def reachable(adj: dict[str, set[str]], start: str) -> set[str]:
    """Every module ``start`` imports, directly or not."""
    seen: set[str] = set()
    todo = [start]
    while todo:
        for w in adj[todo.pop()]:
            if w not in seen:
                seen.add(w)
                todo.append(w)
    return seen


# -- the tests ------------------------------------------------------------------------------


def test_the_graph_is_read() -> None:
    adj = graph(edges())
    assert {"agentbrowser._ops", "agentbrowser.models"} <= adj["agentbrowser.browser"]
    assert "agentbrowser.models.ref" in adj["agentbrowser.models.snapshot"]
    assert "agentbrowser._wire_types" in adj["agentbrowser.models.specs"]
    assert "agentbrowser._decode" in adj["agentbrowser._wire_types"]
    # The clients' imports of models and browsers for annotations only are not edges.
    assert "agentbrowser.browser" not in adj["agentbrowser.errors"]
    assert "agentbrowser.aio" not in reachable(adj, "agentbrowser.models")


def test_the_cycle_finder_names_a_cycle() -> None:
    adj = {"a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": set(), "e": {"e"}}
    assert sorted(cycles(adj)) == [["a", "b", "c", "a"], ["e", "e"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_no_import_cycle() -> None:
    found = cycles(graph(edges()))
    assert not found, "import cycles: " + "; ".join(" -> ".join(c) for c in found)


def test_no_import_inside_a_function() -> None:
    inside = sorted((e.source, e.target) for e in edges() if e.in_function)
    assert inside == [], inside


def test_the_lazy_table_the_typed_imports_and_all_name_the_same_things() -> None:
    tree = ast.parse((ROOT / "__init__.py").read_text())
    typed: dict[str, str] = {}
    lazy: dict[str, str] = {}
    public: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            for imp in node.body:
                assert isinstance(imp, ast.ImportFrom), ast.dump(imp)
                for alias in imp.names:
                    where = "." + (imp.module or alias.name)
                    typed[alias.asname or alias.name] = where
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.target.id == "_LAZY":
            lazy = ast.literal_eval(node.value)  # type: ignore[arg-type]
        elif isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets):
            public = set(ast.literal_eval(node.value))
    assert lazy == typed, "the _LAZY table and the TYPE_CHECKING imports disagree"
    assert public == set(lazy) | {"__version__"}, sorted(public ^ (set(lazy) | {"__version__"}))


def test_the_package_imports_nothing_until_a_name_is_used() -> None:
    code = (
        "import sys, agentbrowser\n"
        "print(sorted(m for m in sys.modules if m.startswith('agentbrowser')))\n"
        "agentbrowser.Browser\n"
        "print('agentbrowser.browser' in sys.modules, 'agentbrowser.aio' in sys.modules)\n"
        "for name in agentbrowser.__all__:\n"
        "    getattr(agentbrowser, name)\n"
        "print(sorted(set(agentbrowser.__all__) - set(dir(agentbrowser))))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT.parent, capture_output=True, text=True, check=True)
    first, browser, missing = done.stdout.splitlines()
    assert first == "['agentbrowser', 'agentbrowser._version']", first
    assert browser == "True False", "Browser loads the sync client only"
    assert missing == "[]"


def test_layers() -> None:
    adj = graph(edges())
    clients = {"agentbrowser._ops", "agentbrowser.browser", "agentbrowser.aio"}
    for name in adj:
        if name == "agentbrowser.models" or name.startswith("agentbrowser.models."):
            assert not reachable(adj, name) & clients, f"{name} reaches {reachable(adj, name) & clients}"
    sync_only = {"agentbrowser.browser", "agentbrowser._transport"}
    assert not reachable(adj, "agentbrowser.aio") & sync_only
    assert not reachable(adj, "agentbrowser._atransport") & sync_only


def test_no_private_name_imported_from_another_module() -> None:
    private = [
        f"{e.source}:{e.line} imports {n} from {e.target}"
        for e in edges()
        for n in e.names
        if n.startswith("_") and n != "__version__"
    ]
    assert not private, private


def test_models_keep_every_name_they_had() -> None:
    models = importlib.import_module("agentbrowser.models")
    for name in (
        *models.__all__,
        "B",
        "LoadState",
        "LOAD_STATES",
        "MOUSE_BUTTONS",
        "DEFAULT_MAX_BYTES",
        "RESTORE_STATUSES",
        "SAVE_STATUSES",
        "clip",
    ):
        assert hasattr(models, name), name
    top = importlib.import_module(PACKAGE)
    for name in models.__all__:
        assert getattr(top, name) is getattr(models, name), name


def test_import_agentbrowser_skips_asyncio() -> None:
    code = "import sys, agentbrowser; assert 'asyncio' not in sys.modules, 'asyncio loaded'"
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT.parent, capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 0, done.stderr
