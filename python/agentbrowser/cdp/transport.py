"""The typing contracts pyagentbrowser names for its CDP plumbing: the WebSocket a client talks
through, the transport a page session sends on, and how a socket is opened.

agentbrowser's :class:`~agentbrowser.cdp.CDPClient` opens its own socket (``websockets``); these
Protocols let code typed against pyagentbrowser's names type-check here.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Protocol

__all__ = ["SyncWebSocket", "AsyncWebSocket", "SyncCDPTransport", "AsyncCDPTransport", "SyncConnect", "AsyncConnect"]


class SyncWebSocket(Protocol):
    """A blocking WebSocket: send a text message, receive one (waiting up to ``timeout``), close."""

    def send(self, message: str) -> None:
        """Send one text message."""

    def recv(self, timeout: float | None = None) -> str | bytes:
        """The next message, waiting up to ``timeout`` seconds (None: as long as it takes)."""

    def close(self) -> None:
        """Close the connection."""


class AsyncWebSocket(Protocol):
    """An asyncio WebSocket: awaited send, receive and close."""

    async def send(self, message: str) -> None:
        """Send one text message."""

    async def recv(self) -> str | bytes:
        """The next message."""

    async def close(self) -> None:
        """Close the connection."""


class SyncCDPTransport(Protocol):
    """What sends protocol calls (on a flat ``session_id``) and hands out the events received."""

    def send(
        self, method: str, params: Mapping[str, Any] | None = None, *, session_id: str | None = None
    ) -> Mapping[str, Any]:
        """One protocol call (on the flat session ``session_id``) and its result."""

    def drain_events(self, *, timeout: float = 0.05) -> list[Mapping[str, Any]]:
        """The events received, once none has arrived for ``timeout`` seconds."""


class AsyncCDPTransport(Protocol):
    """The awaited twin of :class:`SyncCDPTransport`."""

    async def send(
        self, method: str, params: Mapping[str, Any] | None = None, *, session_id: str | None = None
    ) -> Mapping[str, Any]:
        """One protocol call (on the flat session ``session_id``) and its result."""

    async def drain_events(self, *, timeout: float = 0.05) -> list[Mapping[str, Any]]:
        """The events received, once none has arrived for ``timeout`` seconds."""


#: Opens a blocking WebSocket to a URL.
SyncConnect = Callable[[str], SyncWebSocket]
#: Opens an asyncio WebSocket to a URL (an awaitable or an async context manager).
AsyncConnect = Callable[[str], Any]
