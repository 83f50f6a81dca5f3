"""The session browser's DevTools endpoint (the ``cdp_url`` answer)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .. import _decode as d
from ._bounded import Bounded


@dataclass(frozen=True, slots=True, repr=False)
class DevToolsEndpoint(Bounded):
    """Where the session's browser speaks CDP: ``ws_url``, whether it is ``attached`` (not
    launched by the session), whether this call ``launched`` it, and its ``browser_version``."""

    ws_url: str
    attached: bool
    launched: bool
    browser_version: str
    raw: Mapping[str, Any] = field(default_factory=dict, repr=False, compare=False)

    @classmethod
    def from_raw(cls, raw: Mapping[str, Any]) -> DevToolsEndpoint:
        """Decode a ``cdp_url`` answer."""
        m = "DevToolsEndpoint"
        raw = d.mapping(m, raw, "data")
        f = d.Fields(m, raw, "")
        return cls(
            ws_url=f.req("wsUrl", d.string),
            attached=f.req("attached", d.boolean),
            launched=f.req("launched", d.boolean),
            browser_version=f.req("browserVersion", d.string),
            raw=raw,
        )
