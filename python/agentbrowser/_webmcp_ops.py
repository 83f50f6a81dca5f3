"""The WebMCP operations (``page.webmcp``), as sans-IO generators shared by the sync and async
clients (see :mod:`agentbrowser._ops`)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from ._ops import Call, Op
from .models.webmcp import WebMCPInvocation, WebMCPTool, tools_from_raw

#: Longest wait one may ask for, in milliseconds (the engine's limit).
MAX_TIMEOUT_MS = 600_000
#: How long ``invoke`` waits by default, in milliseconds.
DEFAULT_INVOKE_TIMEOUT_MS = 30_000


def _name(what: str, value: object) -> str:
    if not isinstance(value, str):
        raise TypeError(f"{what} must be a string, got {type(value).__name__}")
    if not value.strip():
        raise ValueError(f"{what} must not be empty")
    return value


def _timeout(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"timeout_ms must be an int of milliseconds, got {value!r}")
    if not 0 <= value <= MAX_TIMEOUT_MS:
        raise ValueError(f"timeout_ms must be 0 to {MAX_TIMEOUT_MS}, got {value}")
    return value


def _max_output(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"max_output_bytes must be an int, got {value!r}")
    if not 1 <= value <= 1_048_576:
        raise ValueError(f"max_output_bytes must be 1 to 1048576, got {value}")
    return value


def webmcp_list(tool: str | None, frame_id: str | None) -> Op[tuple[WebMCPTool, ...]]:
    """The tools the active tab's pages registered (one tool, or one frame's)."""
    params: dict[str, Any] = {}
    if tool is not None:
        params["tool"] = _name("tool", tool)
    if frame_id is not None:
        params["frameId"] = _name("frame_id", frame_id)
    data = yield Call("webmcp_list", params)
    return tools_from_raw(data)


def webmcp_invoke(
    tool: str,
    params: Mapping[str, Any] | None,
    frame_id: str | None,
    detach: bool,
    timeout_ms: int | None,
    max_output_bytes: int | None,
) -> Op[WebMCPInvocation]:
    """Call a page's tool (input checked against its schema by the engine first)."""
    p: dict[str, Any] = {"tool": _name("tool", tool)}
    if params is not None:
        if not isinstance(params, Mapping):
            raise TypeError(f"params must be a mapping (the tool's JSON object input), got {type(params).__name__}")
        try:
            p["params"] = json.loads(json.dumps(dict(params)))
        except (TypeError, ValueError) as e:
            raise TypeError(f"params must be JSON-serializable: {e}") from e
    if frame_id is not None:
        p["frameId"] = _name("frame_id", frame_id)
    if not isinstance(detach, bool):
        raise TypeError(f"detach must be a bool, got {detach!r}")
    if detach:
        p["detach"] = True
    budget = DEFAULT_INVOKE_TIMEOUT_MS
    if timeout_ms is not None:
        p["timeoutMs"] = budget = _timeout(timeout_ms)
    if max_output_bytes is not None:
        p["maxOutputBytes"] = _max_output(max_output_bytes)
    data = yield Call("webmcp_invoke", p, budget_ms=0 if detach else budget)
    return WebMCPInvocation.from_raw("webmcp_invoke", data)


def webmcp_result(invocation_id: str, timeout_ms: int | None, max_output_bytes: int | None) -> Op[WebMCPInvocation]:
    """An invocation's outcome, waiting up to ``timeout_ms`` while it is pending."""
    p: dict[str, Any] = {"invocationId": _name("invocation_id", invocation_id)}
    budget = 0
    if timeout_ms is not None:
        p["timeoutMs"] = budget = _timeout(timeout_ms)
    if max_output_bytes is not None:
        p["maxOutputBytes"] = _max_output(max_output_bytes)
    data = yield Call("webmcp_result", p, budget_ms=budget)
    return WebMCPInvocation.from_raw("webmcp_result", data)


def webmcp_cancel(invocation_id: str) -> Op[WebMCPInvocation]:
    """Cancel a pending invocation in its page."""
    data = yield Call("webmcp_cancel", {"invocationId": _name("invocation_id", invocation_id)})
    return WebMCPInvocation.from_raw("webmcp_cancel", data)
