"""The WebMCP operations (``page.webmcp``), as sans-IO generators shared by the sync and async
clients (see :mod:`agentbrowser._ops`); the commands are generated (``_wire_ops``) and the
engine checks their values (an empty name, a timeout out of range: ValueError)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from . import _wire_ops as g
from ._call import Op, send_raw
from ._encode import flag
from .models.webmcp import WebMCPInvocation, WebMCPTool, tools_from_raw

#: How long ``invoke`` waits by default, in milliseconds.
DEFAULT_INVOKE_TIMEOUT_MS = 30_000


def _budget(timeout_ms: object, default: int) -> int:
    return timeout_ms if isinstance(timeout_ms, int) and not isinstance(timeout_ms, bool) else default


def webmcp_list(tool: str | None, frame_id: str | None) -> Op[tuple[WebMCPTool, ...]]:
    """The tools the active tab's pages registered (one tool, or one frame's)."""
    return tools_from_raw((yield from send_raw(g.webmcp_list(tool=tool, frame_id=frame_id))))


def webmcp_invoke(
    tool: str,
    params: Mapping[str, Any] | None,
    frame_id: str | None,
    detach: bool,
    timeout_ms: int | None,
    max_output_bytes: int | None,
) -> Op[WebMCPInvocation]:
    """Call a page's tool (input checked against its schema by the engine first)."""
    if params is not None:
        if not isinstance(params, Mapping):
            raise TypeError(f"params must be a mapping (the tool's JSON object input), got {type(params).__name__}")
        try:
            params = json.loads(json.dumps(dict(params)))
        except (TypeError, ValueError) as e:
            raise TypeError(f"params must be JSON-serializable: {e}") from e
    command = g.webmcp_invoke(
        tool,
        params=params,
        frame_id=frame_id,
        detach=flag(detach),
        timeout_ms=timeout_ms,
        max_output_bytes=max_output_bytes,
    )
    budget = 0 if detach is True else _budget(timeout_ms, DEFAULT_INVOKE_TIMEOUT_MS)
    return WebMCPInvocation.from_raw("webmcp_invoke", (yield from send_raw(command, budget_ms=budget)))


def webmcp_result(invocation_id: str, timeout_ms: int | None, max_output_bytes: int | None) -> Op[WebMCPInvocation]:
    """An invocation's outcome, waiting up to ``timeout_ms`` while it is pending."""
    command = g.webmcp_result(invocation_id, timeout_ms=timeout_ms, max_output_bytes=max_output_bytes)
    return WebMCPInvocation.from_raw("webmcp_result", (yield from send_raw(command, budget_ms=_budget(timeout_ms, 0))))


def webmcp_cancel(invocation_id: str) -> Op[WebMCPInvocation]:
    """Cancel a pending invocation in its page."""
    return WebMCPInvocation.from_raw("webmcp_cancel", (yield from send_raw(g.webmcp_cancel(invocation_id))))
