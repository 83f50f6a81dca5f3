"""Reading agentbrowser's snapshot text the way an agent reads it: one element a line,
``- role "name" [attrs, ref=eN]: text``, to find the ref of the element a task names."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

from gallery.engine_api import Target

_LINE = re.compile(
    r'^\s*- (?P<role>[\w-]+)(?: "(?P<name>(?:[^"\\]|\\.)*)")?(?: \[(?P<attrs>[^\]]*)\])?(?:: (?P<text>.*))?$'
)
_REF = re.compile(r"(?:^|, )ref=(e\d+)")


@dataclass(frozen=True)
class Node:
    """One line of a snapshot: role, accessible name, ref (when it has one) and inline text."""

    role: str
    name: str
    ref: str | None
    text: str


def parse(snapshot: str) -> list[Node]:
    """The snapshot's lines as nodes, in document order (lines that are not elements are skipped)."""
    nodes = []
    for line in snapshot.splitlines():
        m = _LINE.match(line)
        if not m:
            continue
        name = json.loads(f'"{m["name"]}"') if m["name"] is not None else ""
        ref = _REF.search(m["attrs"] or "")
        nodes.append(Node(m["role"], name, ref.group(1) if ref else None, (m["text"] or "").strip()))
    return nodes


def find_ref(snapshot: str, target: Target) -> str | None:
    """The ref of the ``target.nth`` element whose role and name equal the target's (or, for a text
    target, whose name or inline text equals the text); None when the snapshot has none."""
    if target.role is not None:
        hits = [n for n in parse(snapshot) if n.ref and n.role == target.role and n.name == (target.name or "")]
    elif target.text is not None:
        hits = [n for n in parse(snapshot) if n.ref and target.text in (n.name, n.text)]
    else:
        return None
    return hits[target.nth].ref if len(hits) > target.nth else None


def describe(target: Target) -> str:
    """The target as an agent would describe it in words (for error messages and MCP's `element`)."""
    if target.role is not None:
        what = f'{target.role} "{target.name or ""}"'
    elif target.text is not None:
        what = f'text "{target.text}"'
    else:
        what = f"css {target.css}"
    return what if target.nth == 0 else f"{what} (match {target.nth + 1})"
