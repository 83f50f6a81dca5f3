#!/usr/bin/env python3
"""The import circles of a Rust crate: the strongly connected components of its module graph.

A module imports another when its code names a `crate::a::b` path (a `use` or a call); the
path resolves to the longest module prefix it names. Comments and a trailing
`#[cfg(test)] mod tests { ... }` are not read. A parent declaring `mod child;` is not an
import; a child's `super::x` is one with `--super`. Each circle is printed as its size (in
files) and its files, largest first.

    python3 scripts/import_circles.py crates/engine/src            # the three largest circles
    python3 scripts/import_circles.py crates/engine/src --max 12   # exit 1 when one is larger
    python3 scripts/import_circles.py crates/engine/src --edges    # what holds the largest together
    python3 scripts/import_circles.py crates/engine/src --imports page,cx  # what these import
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

PATH = re.compile(r"(?<![A-Za-z0-9_$])crate::([A-Za-z_][A-Za-z0-9_]*(?:::[A-Za-z_][A-Za-z0-9_]*)*)")
SUPER = re.compile(r"\bsuper::([A-Za-z_][A-Za-z0-9_]*)")
TESTS = re.compile(r"#\[cfg\(test\)\]\s*mod tests\s*\{.*", re.S)
COMMENT = re.compile(r"//[^\n]*")


def modules(root: Path) -> dict[str, Path]:
    """Every module of the crate under `root`, by its path (`events::dialogs`; "" the root)."""
    found = {}
    for f in sorted(root.rglob("*.rs")):
        parts = list(f.relative_to(root).with_suffix("").parts)
        if parts[-1] in ("mod", "lib", "main"):
            parts = parts[:-1]
        found["::".join(parts)] = f
    return found


def code_of(f: Path) -> str:
    """The file's code: without comments and without its unit tests."""
    text = TESTS.sub("", f.read_text())
    # A `//` inside a string literal ("http://...") ends the line's code here too: such a
    # string holds no `crate::` path the rest of its line would need.
    return COMMENT.sub("", text)


def resolve(path: str, names: set[str]) -> str | None:
    """The module a path names: its longest prefix that is a module."""
    parts = path.split("::")
    while parts:
        if "::".join(parts) in names:
            return "::".join(parts)
        parts.pop()
    return None


def graph_of(mods: dict[str, Path], with_super: bool) -> dict[str, dict[str, int]]:
    """Each module's imports, with how many paths name each."""
    names = set(mods)
    graph: dict[str, dict[str, int]] = {m: {} for m in mods}
    for m, f in mods.items():
        code = code_of(f)
        targets = [resolve(hit.group(1), names) for hit in PATH.finditer(code)]
        if with_super:
            parent = m.rsplit("::", 1)[0] if "::" in m else ""
            for hit in SUPER.finditer(code):
                name = f"{parent}::{hit.group(1)}" if parent else hit.group(1)
                targets.append(resolve(name, names) or parent)
        for t in targets:
            if t is not None and t != m and t != "":
                graph[m][t] = graph[m].get(t, 0) + 1
    return graph


def circles(graph: dict[str, dict[str, int]]) -> list[list[str]]:
    """The strongly connected components of more than one module, largest first (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    found: list[list[str]] = []
    counter = 0

    def strong(v: str) -> None:
        nonlocal counter
        index[v] = low[v] = counter
        counter += 1
        stack.append(v)
        on.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                found.append(sorted(comp))

    sys.setrecursionlimit(10_000)
    for v in sorted(graph):
        if v not in index:
            strong(v)
    return sorted(found, key=len, reverse=True)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("root", nargs="?", default="crates/engine/src", help="the crate's src directory")
    ap.add_argument("--max", type=int, help="exit 1 when the largest circle has more files than this")
    ap.add_argument("--super", action="store_true", help="count a child's `super::x` as an import")
    ap.add_argument("--edges", action="store_true", help="print the imports inside the largest circle")
    ap.add_argument("--imports", metavar="MODS", help="print what these modules (comma-separated) import")
    args = ap.parse_args()

    root = Path(args.root)
    mods = modules(root)
    graph = graph_of(mods, args.super)
    found = circles(graph)

    def file(m: str) -> str:
        return str(mods[m].relative_to(root))

    for c in found[:3]:
        print(len(c), "files:", " ".join(sorted(file(m) for m in c)))
    if not found:
        print("no import circles")
    if args.edges and found:
        inside = set(found[0])
        for m in found[0]:
            for t, n in sorted(graph[m].items()):
                if t in inside:
                    print(f"  {file(m)} -> {file(t)} ({n})")
    if args.imports:
        for m in args.imports.split(","):
            print(f"{m}: " + " ".join(sorted(graph[m.strip()])))
    largest = len(found[0]) if found else 0
    if args.max is not None and largest > args.max:
        print(f"the largest import circle has {largest} files, over the limit of {args.max}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
