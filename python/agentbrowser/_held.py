"""The snapshots this client received, by tab and generation: the bases it rebuilds delta
snapshots from (bounded: the newest 16, at most 8 MiB of text)."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Mapping
from typing import Any

#: Snapshots kept per client (the engine keeps 16 per tab).
HELD_SNAPSHOTS = 16
#: Characters of snapshot text kept per client.
HELD_CHARS = 8 << 20


class HeldSnapshots:
    """Whole snapshots (their wire mappings) this client received, newest last."""

    __slots__ = ("_items", "_chars")

    def __init__(self) -> None:
        self._items: OrderedDict[tuple[str, int], Mapping[str, Any]] = OrderedDict()
        self._chars = 0

    def keep(self, raw: Mapping[str, Any] | None, *, rebuilt: bool = False) -> None:
        """Keeps a snapshot's wire mapping when it holds the whole text: not a delta answer's,
        unless ``rebuilt`` from its base."""
        if not isinstance(raw, Mapping):
            return
        delta = raw.get("delta")
        if not rebuilt and isinstance(delta, Mapping) and delta.get("kind") != "full":
            return
        tab, generation, text = raw.get("tab"), raw.get("generation"), raw.get("text")
        if not isinstance(tab, str) or not isinstance(generation, int) or not isinstance(text, str):
            return
        key = (tab, generation)
        old = self._items.pop(key, None)
        if old is not None:
            self._chars -= len(old["text"])
        self._items[key] = raw
        self._chars += len(text)
        while len(self._items) > 1 and (len(self._items) > HELD_SNAPSHOTS or self._chars > HELD_CHARS):
            _, dropped = self._items.popitem(last=False)
            self._chars -= len(dropped["text"])

    def newest(self) -> int:
        """The generation of the newest snapshot kept (0 when none)."""
        return next(reversed(self._items))[1] if self._items else 0

    def get(self, tab: str, generation: int | None) -> Mapping[str, Any] | None:
        """The kept snapshot of ``tab`` with this generation, or None."""
        if generation is None:
            return None
        return self._items.get((tab, generation))
