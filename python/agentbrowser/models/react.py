"""React's component tree, read from the page's fibers: :class:`ReactTree` of :class:`ReactNode`.

``diagnostics.react_tree()`` walks the fiber trees of the React roots it finds in the page's
DOM (React 16.6 to 19) and answers the components (and, unless left out, the host elements) in
walk order, bounded by a node and a depth limit that say when they cut.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from ._bounded import Bounded, clip_repr

#: What a node is: its React DevTools element type, by name.
ReactNodeKind = Literal[
    "class",
    "context",
    "function",
    "forward_ref",
    "host",
    "memo",
    "other",
    "profiler",
    "root",
    "suspense",
    "suspense_list",
    "tracing_marker",
    "view_transition",
    "activity",
]

#: React DevTools' element type numbers (``ElementType*``), the ``type`` of pyagentbrowser's
#: JSON nodes; a keyed Fragment and a Profiler are "other" (9) there, as its backend reports them.
REACT_ELEMENT_TYPES: Mapping[ReactNodeKind, int] = {
    "class": 1,
    "context": 2,
    "function": 5,
    "forward_ref": 6,
    "host": 7,
    "memo": 8,
    "other": 9,
    "profiler": 9,
    "root": 11,
    "suspense": 12,
    "suspense_list": 13,
    "tracing_marker": 14,
    "view_transition": 16,
    "activity": 17,
}

#: The text's header: pyagentbrowser's first two lines, then what the ids are here.
TREE_HEADER = (
    "# React component tree\n"
    "# Columns: depth id parent name [key=...]\n"
    "# IDs number this answer's nodes in walk order."
)


@dataclass(frozen=True, slots=True, repr=False)
class ReactNode(Bounded):
    """One node of the tree: its ``id`` (1, 2, ... in walk order), its ``parent``'s id (0 for a
    root), its ``depth`` (a root's is 0), its ``name`` (``App``, ``Memo(Row)``,
    ``ForwardRef(Input)``, ``Theme.Provider``, ``li`` for a host element, ``Root`` for a root),
    its ``kind``, and its React ``key`` (None when it has none)."""

    id: int
    parent: int
    depth: int
    name: str
    kind: ReactNodeKind
    key: str | None

    @property
    def type(self) -> int:
        """React DevTools' element type number of :attr:`kind` (pyagentbrowser's JSON ``type``)."""
        return REACT_ELEMENT_TYPES[self.kind]

    def line(self) -> str:
        """The node as a line of :attr:`ReactTree.tree`: ``depth id parent name [key="..."]``."""
        parent = "-" if self.parent == 0 else str(self.parent)
        key = "" if self.key is None else f" key={_quoted(self.key)}"
        return f"{self.depth} {self.id} {parent} {self.name}{key}"


def _quoted(text: str) -> str:
    """``text`` in double quotes with backslash escapes, as Rust's ``{:?}`` prints a key."""
    escaped = text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\r", "\\r")
    return '"' + escaped.replace("\t", "\\t") + '"'


def _kind(value: object) -> ReactNodeKind:
    """``value`` checked as a :data:`ReactNodeKind` (the page script names one per node)."""
    for kind in REACT_ELEMENT_TYPES:
        if value == kind:
            return kind
    raise ValueError(f"react_tree: unknown node kind {value!r} from the page script")


#: The keys of a :class:`ReactTree` read as a mapping.
_MAPPING_KEYS = ("tree", "nodes", "truncated")


@dataclass(frozen=True, slots=True, repr=False)
class ReactTree(Bounded, Mapping[str, Any]):
    """The React component tree of the page, walked from each React root (``roots`` of them):
    its ``nodes`` in walk order (a parent before its children, siblings in order).

    ``truncated`` says a limit left nodes out: ``max_nodes_reached`` (the walk stopped after
    ``max_nodes`` nodes) or ``max_depth_reached`` (nodes deeper than ``max_depth`` were left
    out, the walk went on beside them).  ``scoped`` says a ``selector`` chose the part of the
    page walked.

    It is also a read-only mapping, pyagentbrowser's answer: ``tree["tree"]`` is :attr:`tree`
    (its text), ``tree["nodes"]`` the nodes as its JSON form gives them (``id``, ``type``,
    ``name``, ``key``, ``parent``; a root's ``name`` None) and ``tree["truncated"]``.
    """

    nodes: tuple[ReactNode, ...]
    roots: int
    max_nodes_reached: bool
    max_depth_reached: bool
    max_nodes: int
    max_depth: int
    scoped: bool
    raw: Mapping[str, Any] = field(repr=False, compare=False)

    @classmethod
    def from_page(cls, raw: Mapping[str, Any], max_nodes: int, max_depth: int, scoped: bool) -> ReactTree:
        """Build from the page script's answer ``raw`` (``roots``, ``nodes`` as ``[parent,
        depth, name, kind, key]`` rows, ``maxNodesReached``, ``maxDepthReached``)."""
        nodes = tuple(
            ReactNode(id=i, parent=int(p), depth=int(d), name=str(n), kind=_kind(k), key=None if key is None else str(key))
            for i, (p, d, n, k, key) in enumerate(raw["nodes"], start=1)
        )
        return cls(
            nodes=nodes,
            roots=int(raw["roots"]),
            max_nodes_reached=bool(raw["maxNodesReached"]),
            max_depth_reached=bool(raw["maxDepthReached"]),
            max_nodes=max_nodes,
            max_depth=max_depth,
            scoped=scoped,
            raw=raw,
        )

    @property
    def truncated(self) -> bool:
        """Whether a limit left nodes out (``max_nodes_reached`` or ``max_depth_reached``)."""
        return self.max_nodes_reached or self.max_depth_reached

    @property
    def tree(self) -> str:
        """The tree as text, one node a line (``depth id parent name [key="..."]``, a root's
        parent ``-``), under pyagentbrowser's header; a last ``# truncated: ...`` line says
        which limit cut."""
        lines = [TREE_HEADER, *(n.line() for n in self.nodes)]
        if self.max_nodes_reached:
            lines.append(f"# truncated: the walk stopped at max_nodes={self.max_nodes}")
        if self.max_depth_reached:
            lines.append(f"# truncated: nodes deeper than max_depth={self.max_depth} left out")
        return "\n".join(lines)

    def names(self) -> tuple[str, ...]:
        """The nodes' names in walk order."""
        return tuple(n.name for n in self.nodes)

    def children(self, node: ReactNode | int) -> tuple[ReactNode, ...]:
        """The nodes whose parent is ``node`` (a node or its id), in order."""
        parent = node.id if isinstance(node, ReactNode) else node
        return tuple(n for n in self.nodes if n.parent == parent)

    def __getitem__(self, key: str) -> Any:
        if key == "tree":
            return self.tree
        if key == "nodes":
            return [
                {"id": n.id, "type": n.type, "name": None if n.kind == "root" else n.name, "key": n.key, "parent": n.parent}
                for n in self.nodes
            ]
        if key == "truncated":
            return self.truncated
        raise KeyError(key)

    def __iter__(self) -> Iterator[str]:
        return iter(_MAPPING_KEYS)

    def __len__(self) -> int:
        return len(_MAPPING_KEYS)

    def __repr__(self) -> str:
        return (
            f"ReactTree(roots={self.roots}, nodes={clip_repr(self.names())}, truncated={self.truncated}, "
            f"max_nodes={self.max_nodes}, max_depth={self.max_depth}, scoped={self.scoped})"
        )
