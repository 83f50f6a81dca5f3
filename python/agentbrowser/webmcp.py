"""``page.webmcp``: the tools the active tab's pages registered with WebMCP, for the sync
(:class:`WebMCP`) and async (:class:`AsyncWebMCP`) clients."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from . import _webmcp_ops as ops
from .models.webmcp import WebMCPInvocation, WebMCPTool

if TYPE_CHECKING:
    from .aio import AsyncBrowser
    from .browser import Browser


class WebMCP:
    """The page's WebMCP tools (Chromium's native WebMCP, or the page's
    ``document.modelContext``): names, descriptions, schemas and outputs are untrusted page
    content."""

    def __init__(self, browser: Browser) -> None:
        self._b = browser

    def list(self, tool: str | None = None, *, frame_id: str | None = None) -> tuple[WebMCPTool, ...]:
        """The tools, by name (``tool``: only that one; ``frame_id``: one frame's)."""
        return self._b._drive(ops.webmcp_list(tool, frame_id))

    def invoke(
        self,
        tool: str,
        params: Mapping[str, Any] | None = None,
        *,
        frame_id: str | None = None,
        detach: bool = False,
        timeout_ms: int | None = None,
        max_output_bytes: int | None = None,
    ) -> WebMCPInvocation:
        """Call ``tool`` with ``params`` (checked against its input schema before the page sees
        it; a mismatch raises BrowserError ``webmcp_invalid_input``). Waits for the answer up
        to ``timeout_ms`` (default 30000; then it is canceled and ``status`` is ``timed_out``),
        or with ``detach=True`` returns the pending invocation at once."""
        return self._b._drive(ops.webmcp_invoke(tool, params, frame_id, detach, timeout_ms, max_output_bytes))

    def result(
        self, invocation_id: str, *, timeout_ms: int | None = None, max_output_bytes: int | None = None
    ) -> WebMCPInvocation:
        """The invocation's outcome, waiting up to ``timeout_ms`` (default 0) while it is pending."""
        return self._b._drive(ops.webmcp_result(invocation_id, timeout_ms, max_output_bytes))

    def cancel(self, invocation_id: str) -> WebMCPInvocation:
        """Cancel a pending invocation (one that ended raises ``webmcp_invocation_finished``)."""
        return self._b._drive(ops.webmcp_cancel(invocation_id))

    def __repr__(self) -> str:
        return f"<WebMCP of {self._b!r}>"


class AsyncWebMCP:
    """The async twin of :class:`WebMCP`."""

    def __init__(self, browser: AsyncBrowser) -> None:
        self._b = browser

    async def list(self, tool: str | None = None, *, frame_id: str | None = None) -> tuple[WebMCPTool, ...]:
        """See :meth:`WebMCP.list`."""
        return await self._b._drive(ops.webmcp_list(tool, frame_id))

    async def invoke(
        self,
        tool: str,
        params: Mapping[str, Any] | None = None,
        *,
        frame_id: str | None = None,
        detach: bool = False,
        timeout_ms: int | None = None,
        max_output_bytes: int | None = None,
    ) -> WebMCPInvocation:
        """See :meth:`WebMCP.invoke`."""
        return await self._b._drive(ops.webmcp_invoke(tool, params, frame_id, detach, timeout_ms, max_output_bytes))

    async def result(
        self, invocation_id: str, *, timeout_ms: int | None = None, max_output_bytes: int | None = None
    ) -> WebMCPInvocation:
        """See :meth:`WebMCP.result`."""
        return await self._b._drive(ops.webmcp_result(invocation_id, timeout_ms, max_output_bytes))

    async def cancel(self, invocation_id: str) -> WebMCPInvocation:
        """See :meth:`WebMCP.cancel`."""
        return await self._b._drive(ops.webmcp_cancel(invocation_id))

    def __repr__(self) -> str:
        return f"<AsyncWebMCP of {self._b!r}>"
