"""WebMCP: the tools a page registered with ``document.modelContext.registerTool``
(:class:`WebMCPTool`) and the calls made to them (:class:`WebMCPInvocation`).

Tool names, descriptions, schemas and outputs are page content: untrusted. Every model keeps the
native mapping it was built from in ``raw``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from .. import _wire_types as w
from ._bounded import Bounded

#: Where an invocation stands.
WebMCPInvocationStatus = Literal["pending", "completed", "canceled", "failed", "timed_out"]

#: Every invocation status.
WEBMCP_INVOCATION_STATUSES: tuple[WebMCPInvocationStatus, ...] = (
    "pending",
    "completed",
    "canceled",
    "failed",
    "timed_out",
)


@dataclass(frozen=True, slots=True, repr=False)
class WebMCPTool(Bounded):
    """One tool a page registered: its ``name``, ``description`` (cut at 2000 bytes), JSON Schema
    ``input_schema``, ``annotations`` (``read_only``, ``untrusted_content``, ``consequential``),
    the ``origin`` and ``frame_id`` of the frame that registered it, and the ``backend_node_id``
    of a declarative tool's ``<form>`` (None for a script's tool)."""

    name: str
    description: str
    input_schema: Any
    annotations: Mapping[str, bool]
    origin: str
    frame_id: str
    backend_node_id: int | None
    raw: Mapping[str, Any] = field(repr=False, compare=False)

    @classmethod
    def from_wire(cls, wire: w.WebMcpTool, raw: Mapping[str, Any]) -> WebMCPTool:
        """Build from the decoded tool ``raw``."""
        a = wire.annotations
        return cls(
            name=wire.name,
            description=wire.description,
            input_schema=wire.input_schema,
            annotations={
                "read_only": a.read_only,
                "untrusted_content": a.untrusted_content,
                "consequential": a.consequential,
            },
            origin=wire.origin,
            frame_id=wire.frame_id,
            backend_node_id=None if wire.backend_node_id is None else int(wire.backend_node_id),
            raw=raw,
        )


def tools_from_raw(data: Mapping[str, Any]) -> tuple[WebMCPTool, ...]:
    """The tools of a ``webmcp_list`` answer."""
    wire = w.decode_result("webmcp_list", data)
    return tuple(WebMCPTool.from_wire(t, r) for t, r in zip(wire.tools, data["tools"], strict=True))


@dataclass(frozen=True, slots=True, repr=False)
class WebMCPInvocation(Bounded):
    """One call of a page's tool: ``invocation_id`` (for ``result`` and ``cancel``), the
    ``tool_name``, ``frame_id`` and ``origin``, ``status`` (``pending``, ``completed``,
    ``canceled``, ``failed``, ``timed_out``), ``duration_ms``, Chromium's ``raw_status``, the
    tool's ``output`` (untrusted; over the limit it is the start of its JSON text and
    ``output_truncated`` is True, ``original_output_bytes`` the whole size) and ``error``."""

    invocation_id: str
    tool_name: str
    frame_id: str
    origin: str
    status: WebMCPInvocationStatus
    duration_ms: int
    raw_status: str | None
    output: Any
    output_truncated: bool
    original_output_bytes: int
    error: str | None
    raw: Mapping[str, Any] = field(repr=False, compare=False)

    @classmethod
    def from_raw(cls, action: Literal["webmcp_invoke", "webmcp_result", "webmcp_cancel"], data: Mapping[str, Any]) -> WebMCPInvocation:
        """Build from the answer ``data`` of ``action``."""
        wire = w.decode_result(action, data)
        return cls(
            invocation_id=wire.invocation_id,
            tool_name=wire.tool_name,
            frame_id=wire.frame_id,
            origin=wire.origin,
            status=wire.status,
            duration_ms=int(wire.duration_ms),
            raw_status=wire.raw_status,
            output=wire.output,
            output_truncated=wire.output_truncated,
            original_output_bytes=int(wire.original_output_bytes),
            error=wire.error,
            raw=data,
        )
