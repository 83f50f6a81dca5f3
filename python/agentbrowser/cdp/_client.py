"""The WebSocket clients of the Chrome DevTools Protocol: :class:`CDPClient` (blocking, a reader
thread) and :class:`AsyncCDPClient` (asyncio, a reader task), on the optional ``websockets``
package (``pip install 'agentbrowser-engine[cdp]'``).

Both match answers to calls by id, bound every wait by a timeout (``CDPTimeoutError``), turn a
protocol error into ``CDPProtocolError``, keep the newest events in a bounded buffer
(``pop_events``) and hand each event to an ``on_event`` callback (the context registry).  A
call after ``close()``, or on a connection the browser dropped, raises ``CDPClosedError``.
"""

from __future__ import annotations

import inspect
import itertools
import json
import threading
import time
from collections import deque
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import asyncio

from .errors import CDPClosedError, CDPError, CDPProtocolError, CDPTimeoutError
from .transport import AsyncConnect, SyncConnect, SyncWebSocket

#: Largest message accepted from the browser, in bytes (a big screenshot or DOM fits).
MAX_MESSAGE_BYTES = 256 * 1024 * 1024
#: Events kept for ``pop_events`` (the oldest are dropped first).
MAX_EVENTS = 1000
#: The install hint of the missing optional dependency.
INSTALL_HINT = "browser.cdp needs a WebSocket client: pip install 'agentbrowser-engine[cdp]' (the websockets package)"

EventHook = Callable[[Mapping[str, Any]], None]


def require_websockets() -> None:
    """ImportError with the install hint unless the ``websockets`` package imports."""
    try:
        import websockets  # noqa: F401
    except ImportError:
        raise ImportError(INSTALL_HINT) from None


def _options(connect: Callable[..., Any], timeout: float) -> dict[str, Any]:
    """The connection options: no compression, big messages, no keepalive pings (a page
    paused in a debugger must not drop the connection), and no proxy for a local browser
    (``proxy`` exists from websockets 15 on)."""
    options: dict[str, Any] = {
        "max_size": MAX_MESSAGE_BYTES,
        "open_timeout": timeout,
        "compression": None,
        "ping_interval": None,
    }
    if "proxy" in inspect.signature(connect).parameters:
        options["proxy"] = None
    return options


def _websocket(url: str, timeout: float) -> SyncWebSocket:
    """A blocking ``websockets`` connection to ``url`` with :func:`_options`."""
    from websockets.sync.client import connect

    # Entered like a context manager (its own close() ends it): websockets 17 warns otherwise.
    ws: SyncWebSocket = connect(url, **_options(connect, timeout)).__enter__()
    return ws


def _closed_normally(exc: BaseException) -> bool:
    """Whether ``exc`` is a WebSocket's clean close (websockets' ConnectionClosedOK), which ends
    reading without an error, as iterating the connection does."""
    return type(exc).__name__ == "ConnectionClosedOK"


def _check_quiet(timeout: float) -> None:
    """ValueError unless ``timeout`` (a drain's quiet period) is a positive number of seconds."""
    if isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or not timeout > 0:
        raise ValueError(f"drain_events timeout must be positive seconds, got {timeout!r}")


def _message(method: str, params: Mapping[str, Any] | None, session_id: str | None, call_id: int) -> str:
    if not isinstance(method, str) or "." not in method:
        raise ValueError(f"a CDP method is Domain.method (e.g. 'Runtime.evaluate'), got {method!r}")
    if params is not None and not isinstance(params, Mapping):
        raise TypeError(f"params must be a mapping or None, got {type(params).__name__}")
    payload: dict[str, Any] = {"id": call_id, "method": method, "params": dict(params or {})}
    if session_id is not None:
        payload["sessionId"] = session_id
    return json.dumps(payload)


def _outcome(method: str, answer: Mapping[str, Any]) -> dict[str, Any]:
    if "error" in answer:
        raise CDPProtocolError(method, answer["error"])
    result: dict[str, Any] = dict(answer.get("result") or {})
    return result


class _Events:
    """The bounded event buffer of a client."""

    def __init__(self, limit: int) -> None:
        self._buf: deque[dict[str, Any]] = deque(maxlen=limit)
        self._lock = threading.Lock()
        #: How many events were dropped because the buffer was full.
        self.dropped = 0
        #: How many events arrived in all (``drain_events`` waits until it stops growing).
        self.received = 0

    def push(self, event: dict[str, Any]) -> None:
        with self._lock:
            if len(self._buf) == self._buf.maxlen:
                self.dropped += 1
            self._buf.append(event)
            self.received += 1

    def quiet_since(self, seen: int) -> tuple[bool, int]:
        """Whether no event arrived since ``seen`` (a ``received`` count), and the count now."""
        now = self.received
        return now == seen, now

    def pop(self, method: str | None) -> list[dict[str, Any]]:
        with self._lock:
            taken = [e for e in self._buf if method is None or e.get("method") == method]
            kept = [e for e in self._buf if not (method is None or e.get("method") == method)]
            self._buf.clear()
            self._buf.extend(kept)
            return taken


class CDPClient:
    """A blocking CDP client on one WebSocket (``url``: a ``ws://…/devtools/browser/…`` URL).

    ``timeout`` (seconds) bounds the connection and each call unless the call gives its own.
    """

    def __init__(
        self,
        url: str,
        *,
        timeout: float = 5.0,
        on_event: EventHook | None = None,
        max_events: int = MAX_EVENTS,
        connect: SyncConnect | None = None,
    ) -> None:
        if connect is None:
            require_websockets()
        if timeout <= 0:
            raise ValueError(f"timeout must be positive seconds, got {timeout}")
        self.url = url
        self.timeout = timeout
        self._on_event = on_event
        self._events = _Events(max_events)
        self._ids = itertools.count(1)
        self._pending: dict[int, tuple[threading.Event, list[Mapping[str, Any]]]] = {}
        self._call_sessions: dict[int, str] = {}
        self._lock = threading.Lock()
        self._closed: str | None = None
        try:
            self._ws: SyncWebSocket = connect(url) if connect is not None else _websocket(url, timeout)
        except Exception as exc:
            raise CDPClosedError(f"cannot connect to {url}: {exc}") from exc
        self._reader = threading.Thread(target=self._read, name="agentbrowser-cdp", daemon=True)
        self._reader.start()

    def _read(self) -> None:
        reason = "the browser closed the DevTools connection"
        try:
            while True:
                try:
                    raw = self._ws.recv()
                except Exception as exc:
                    if _closed_normally(exc):
                        break
                    raise
                message = json.loads(raw)
                if "id" in message:
                    with self._lock:
                        waiter = self._pending.get(message["id"])
                    if waiter is not None:
                        waiter[1].append(message)
                        waiter[0].set()
                    continue
                with self._lock:
                    orphans = _orphaned(message, self._call_sessions)
                    waiters = [(self._pending.get(cid), answer) for cid, answer in orphans]
                for waiter, answer in waiters:
                    if waiter is not None:
                        waiter[1].append(answer)
                        waiter[0].set()
                if self._on_event is not None:
                    self._on_event(message)
                self._events.push(message)
        except Exception as exc:  # the connection broke
            reason = f"the DevTools connection failed: {exc}"
        self._finish(reason)

    def _finish(self, reason: str) -> None:
        with self._lock:
            if self._closed is None:
                self._closed = reason
            waiting = list(self._pending.values())
        for event, _ in waiting:
            event.set()

    @property
    def closed(self) -> bool:
        """Whether the client was closed (or its connection dropped)."""
        return self._closed is not None

    def send(
        self,
        method: str,
        params: Mapping[str, Any] | None = None,
        *,
        session_id: str | None = None,
        timeout: float | None = None,
    ) -> dict[str, Any]:
        """Calls ``method`` (on ``session_id``'s target, or the browser) and returns its result."""
        limit = self.timeout if timeout is None else timeout
        call_id = next(self._ids)
        text = _message(method, params, session_id, call_id)
        event, box = threading.Event(), list[Mapping[str, Any]]()
        with self._lock:
            if self._closed is not None:
                raise CDPClosedError(f"{method}: the CDP client is closed ({self._closed})")
            self._pending[call_id] = (event, box)
            if session_id is not None:
                self._call_sessions[call_id] = session_id
        try:
            try:
                self._ws.send(text)
            except Exception as exc:
                raise CDPClosedError(f"{method}: cannot send ({exc})") from exc
            if not event.wait(limit):
                raise CDPTimeoutError(method, limit)
            if not box:
                raise CDPClosedError(f"{method}: the CDP client is closed ({self._closed})")
            return _outcome(method, box[0])
        finally:
            with self._lock:
                self._pending.pop(call_id, None)
                self._call_sessions.pop(call_id, None)

    def pop_events(self, method: str | None = None) -> list[dict[str, Any]]:
        """Takes the buffered events (of ``method`` only, when given), oldest first."""
        return self._events.pop(method)

    def drain_events(self, *, timeout: float = 0.05) -> list[dict[str, Any]]:
        """Waits until no event has arrived for ``timeout`` seconds (at most the client's
        ``timeout`` in all), then takes every buffered event (pyagentbrowser's ``drain_events``)."""
        _check_quiet(timeout)
        deadline = time.monotonic() + self.timeout
        seen = self._events.received
        while time.monotonic() < deadline:
            time.sleep(timeout)
            quiet, seen = self._events.quiet_since(seen)
            if quiet:
                break
        return self.pop_events()

    @property
    def dropped_events(self) -> int:
        """How many events the full buffer dropped."""
        return self._events.dropped

    def close(self) -> None:
        """Closes the connection (idempotent); pending and later calls raise CDPClosedError."""
        self._finish("closed by close()")
        try:
            self._ws.close()
        finally:
            self._reader.join(self.timeout)


def _orphaned(message: Mapping[str, Any], call_sessions: dict[int, str]) -> list[tuple[int, Mapping[str, Any]]]:
    """The calls a ``Target.detachedFromTarget`` event leaves without an answer (their session is
    gone: Chromium never answers them), each with the error Chromium gives a call to a session it
    no longer has, so that they fail at once as stale instead of waiting out their timeout."""
    if message.get("method") != "Target.detachedFromTarget":
        return []
    gone = (message.get("params") or {}).get("sessionId")
    return [
        (cid, {"id": cid, "error": {"code": -32001, "message": f"Session with given id not found: {gone} detached"}})
        for cid, sid in call_sessions.items()
        if sid == gone
    ]


class AsyncCDPClient:
    """The asyncio twin of :class:`CDPClient`: ``await AsyncCDPClient.connect(url)``."""

    def __init__(
        self,
        url: str,
        timeout: float = 5.0,
        on_event: EventHook | None = None,
        max_events: int = MAX_EVENTS,
        *,
        connect: AsyncConnect | None = None,
    ) -> None:
        if timeout <= 0:
            raise ValueError(f"timeout must be positive seconds, got {timeout}")
        self._connect = connect
        self.url = url
        self.timeout = timeout
        self._on_event = on_event
        self._events = _Events(max_events)
        self._ids = itertools.count(1)
        self._pending: dict[int, asyncio.Future[Mapping[str, Any]]] = {}
        self._call_sessions: dict[int, str] = {}
        self._closed: str | None = None
        self._ws: Any = None
        self._reader: asyncio.Task[None] | None = None

    @classmethod
    async def connect(
        cls, url: str, *, timeout: float = 5.0, on_event: EventHook | None = None, max_events: int = MAX_EVENTS
    ) -> AsyncCDPClient:
        """Opens the WebSocket at ``url`` (within ``timeout`` seconds)."""
        client = cls(url, timeout, on_event, max_events)
        await client._open()
        return client

    async def _open(self) -> None:
        """Opens the WebSocket (``connect``'s, else a ``websockets`` one) and starts reading.
        A client built directly (pyagentbrowser's ``AsyncCDPClient(url)``) opens on first send."""
        import asyncio  # only with the async client: importing agentbrowser loads no asyncio

        if self._connect is None:
            require_websockets()
            from websockets.asyncio.client import connect

            opening: Any = connect(self.url, **_options(connect, self.timeout))
        else:
            opening = self._connect(self.url)
        try:
            self._ws = await opening if inspect.isawaitable(opening) else opening
        except Exception as exc:
            raise CDPClosedError(f"cannot connect to {self.url}: {exc}") from exc
        self._reader = asyncio.get_running_loop().create_task(self._read())

    async def _read(self) -> None:
        reason = "the browser closed the DevTools connection"
        try:
            while True:
                try:
                    raw = await self._ws.recv()
                except Exception as exc:
                    if _closed_normally(exc):
                        break
                    raise
                message = json.loads(raw)
                if "id" in message:
                    fut = self._pending.get(message["id"])
                    if fut is not None and not fut.done():
                        fut.set_result(message)
                    continue
                for cid, answer in _orphaned(message, self._call_sessions):
                    fut = self._pending.get(cid)
                    if fut is not None and not fut.done():
                        fut.set_result(answer)
                if self._on_event is not None:
                    self._on_event(message)
                self._events.push(message)
        except Exception as exc:
            reason = f"the DevTools connection failed: {exc}"
        self._finish(reason)

    def _finish(self, reason: str) -> None:
        if self._closed is None:
            self._closed = reason
        for fut in self._pending.values():
            if not fut.done():
                fut.set_exception(CDPClosedError(f"the CDP client is closed ({reason})"))

    @property
    def closed(self) -> bool:
        """Whether the client was closed (or its connection dropped)."""
        return self._closed is not None

    async def send(
        self,
        method: str,
        params: Mapping[str, Any] | None = None,
        *,
        session_id: str | None = None,
        timeout: float | None = None,
    ) -> dict[str, Any]:
        """Calls ``method`` and returns its result (see :meth:`CDPClient.send`)."""
        limit = self.timeout if timeout is None else timeout
        call_id = next(self._ids)
        text = _message(method, params, session_id, call_id)
        if self._closed is not None:
            raise CDPClosedError(f"{method}: the CDP client is closed ({self._closed})")
        if self._ws is None:
            await self._open()
        import asyncio

        fut: asyncio.Future[Mapping[str, Any]] = asyncio.get_running_loop().create_future()
        self._pending[call_id] = fut
        if session_id is not None:
            self._call_sessions[call_id] = session_id
        try:
            try:
                await self._ws.send(text)
            except Exception as exc:
                raise CDPClosedError(f"{method}: cannot send ({exc})") from exc
            try:
                answer = await asyncio.wait_for(fut, limit)
            except asyncio.TimeoutError:
                raise CDPTimeoutError(method, limit) from None
            except CDPError:
                raise
            return _outcome(method, answer)
        finally:
            self._pending.pop(call_id, None)
            self._call_sessions.pop(call_id, None)

    def pop_events(self, method: str | None = None) -> list[dict[str, Any]]:
        """Takes the buffered events (of ``method`` only, when given), oldest first."""
        return self._events.pop(method)

    async def drain_events(self, *, timeout: float = 0.05) -> list[dict[str, Any]]:
        """The awaited :meth:`CDPClient.drain_events`."""
        import asyncio

        _check_quiet(timeout)
        deadline = time.monotonic() + self.timeout
        seen = self._events.received
        while time.monotonic() < deadline:
            await asyncio.sleep(timeout)
            quiet, seen = self._events.quiet_since(seen)
            if quiet:
                break
        return self.pop_events()

    async def close(self) -> None:
        """Closes the connection (idempotent)."""
        self._finish("closed by close()")
        if self._ws is not None:
            await self._ws.close()
        if self._reader is not None:
            import asyncio

            await asyncio.wait_for(asyncio.shield(self._reader), self.timeout)
