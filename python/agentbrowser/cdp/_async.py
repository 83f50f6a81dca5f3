"""``browser.cdp`` of :class:`~agentbrowser.AsyncBrowser`: the awaited twin of ``_sync`` (the
same flows of ``_core``, driven with awaits)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

from .. import _ops
from . import _core
from ._client import AsyncCDPClient, require_websockets
from ._core import Flow, Registry, Send
from ._sync import DEFAULT_TIMEOUT_S
from .errors import CDPClosedError

if TYPE_CHECKING:
    import asyncio

    from ..aio import AsyncBrowser

T = TypeVar("T")


class AsyncCDP:
    """Direct CDP access to an AsyncBrowser's session (see :class:`~agentbrowser.cdp.CDP`)."""

    def __init__(self, browser: AsyncBrowser, timeout: float = DEFAULT_TIMEOUT_S) -> None:
        self._b = browser
        self.timeout = timeout
        self._registry = Registry()
        self._client: AsyncCDPClient | None = None
        self._closed = False
        self._lock: asyncio.Lock | None = None  # made in the loop that first uses it
        #: The frames of the active tab: ``await cdp.frames.list()``, ``await cdp.frames.get(name=...)``.
        self.frames = AsyncFrames(self)

    async def connected(self) -> AsyncCDPClient:
        """The WebSocket client (connected on first use)."""
        if self._lock is None:
            import asyncio  # only here: importing agentbrowser loads no asyncio

            self._lock = asyncio.Lock()
        async with self._lock:
            if self._closed or self._b._root._close_result is not None:
                raise CDPClosedError("this CDP controller is closed (its AsyncBrowser was closed, or close() was called)")
            if self._client is None or self._client.closed:
                require_websockets()  # before anything starts for a client that cannot run
                url = (await self._b._drive(_ops.cdp_url(True))).ws_url
                self._registry.clear()
                self._client = await AsyncCDPClient.connect(url, timeout=self.timeout, on_event=self._registry.feed)
            return self._client

    async def _run(self, flow: Flow[T]) -> T:
        client = await self.connected()
        outcome: _core.Outcome | None = None
        try:
            while True:
                outcome = await self._outcome(client, _core.resume(flow, outcome))
        except StopIteration as stop:
            value: T = stop.value
            return value
        finally:
            flow.close()

    async def _outcome(self, client: AsyncCDPClient, step: Send | _core.Engine) -> _core.Outcome:
        """The answer to one call of a flow, or the error it raised (thrown into the flow)."""
        try:
            if isinstance(step, Send):
                return (await client.send(step.method, step.params, session_id=step.session_id), None)
            return (await self._b._drive(step.op), None)
        except Exception as exc:
            return (None, exc)

    async def send(
        self, method: str, params: Mapping[str, Any] | None = None, *, session_id: str | None = None, timeout: float | None = None
    ) -> dict[str, Any]:
        """One raw protocol call on the browser (or on ``session_id``) and its result."""
        return await (await self.connected()).send(method, params, session_id=session_id, timeout=timeout)

    async def pop_events(self, method: str | None = None) -> list[dict[str, Any]]:
        """The events received since the last call (bounded buffer), of ``method`` when given."""
        return (await self.connected()).pop_events(method)

    async def target(self, *, label: str | None = None, url: str | None = None, target_id: str | None = None) -> AsyncTarget:
        """The one page target with this tab ``label``, ``url`` (URL pattern) or ``target_id``."""
        crit = {"label": label, "url": url, "target_id": target_id}
        return _core.bind(AsyncTarget, self, await self._run(_core.target(crit, self._registry)))

    async def active(self) -> AsyncTarget:
        """The engine's active tab as a target."""
        return _core.bind(AsyncTarget, self, await self._run(_core.target({}, self._registry)))

    async def evaluate(
        self,
        script: str,
        *,
        frame: AsyncFrame | None = None,
        context: AsyncExecutionContext | None = None,
        await_promise: bool = True,
        return_by_value: bool = True,
        extension_id: str | None = None,
    ) -> Any:
        """Runs ``script`` in ``context``, else ``frame``'s default context, else the active tab's
        main frame (``extension_id``: in that extension's content-script world there)."""
        opts = {"await_promise": await_promise, "return_by_value": return_by_value}
        if context is not None:
            return await context.evaluate(script, **opts)
        if frame is not None:
            return await frame.evaluate(script, extension_id=extension_id, **opts)
        target = await self.active()
        return await target.evaluate(
            script, extension_id=extension_id, await_promise=await_promise, return_by_value=return_by_value
        )

    async def frame(self, *, selector: str | None = None, name: str | None = None, url: str | None = None) -> AsyncFrame:
        """The one frame of the active tab the criterion names (``cdp.frames.get``)."""
        return await self.frames.get(selector=selector, name=name, url=url)

    async def contexts(
        self,
        *,
        frame: AsyncFrame | None = None,
        extension_id: str | None = None,
        predicate: Callable[[AsyncExecutionContext], bool] | None = None,
    ) -> tuple[AsyncExecutionContext, ...]:
        """The live execution contexts of the active tab (see :meth:`AsyncTarget.contexts`)."""
        return await (await self.active()).contexts(frame=frame, extension_id=extension_id, predicate=predicate)

    def invalidate(self) -> None:
        """Forgets the attached sessions and contexts: targets, frames and contexts looked up
        before raise CDPStaleObjectError; the next lookup attaches again."""
        self._registry.clear()

    @property
    def closed(self) -> bool:
        """Whether :meth:`close` was called."""
        return self._closed

    async def close(self) -> None:
        """Closes the connection (idempotent); the browser and the engine go on."""
        self._closed = True
        client, self._client = self._client, None
        if client is not None:
            await client.close()


class AsyncFrames:
    """The frames of the active tab (awaited)."""

    def __init__(self, cdp: AsyncCDP) -> None:
        self._cdp = cdp

    async def __call__(self) -> tuple[AsyncFrame, ...]:
        """``cdp.frames()``: the same as :meth:`list` (pyagentbrowser's ``frames()`` method)."""
        return await self.list()

    async def list(self) -> tuple[AsyncFrame, ...]:
        """Every frame of the active tab, the main frame first."""
        return await (await self._cdp.active()).frames()

    async def get(self, *, selector: str | None = None, name: str | None = None, url: str | None = None) -> AsyncFrame:
        """The one frame owned by the iframe ``selector`` matches, or with this ``name`` or ``url`` (URL pattern)."""
        return await (await self._cdp.active()).frame(selector=selector, name=name, url=url)


@dataclass(frozen=True, slots=True)
class AsyncTarget(_core.TargetData):
    """A page target this controller attached to (awaited methods)."""

    _cdp: AsyncCDP = field(repr=False, compare=False, kw_only=True)

    async def frames(self) -> tuple[AsyncFrame, ...]:
        """Its frames, the main frame first."""
        listed = await self._cdp._run(_core.frames(self, self._cdp._registry))
        return tuple(_core.bind(AsyncFrame, self._cdp, f) for f in listed)

    async def frame(self, *, selector: str | None = None, name: str | None = None, url: str | None = None) -> AsyncFrame:
        """The one frame the criterion names."""
        crit = {"selector": selector, "name": name, "url": url}
        return _core.bind(AsyncFrame, self._cdp, await self._cdp._run(_core.frame(self, crit, self._cdp._registry)))

    async def contexts(
        self,
        *,
        frame: AsyncFrame | None = None,
        extension_id: str | None = None,
        predicate: Callable[[AsyncExecutionContext], bool] | None = None,
    ) -> tuple[AsyncExecutionContext, ...]:
        """The live execution contexts of all its frames (of ``frame``; of ``extension_id``'s
        content scripts; those ``predicate`` accepts)."""
        if frame is not None:
            return await frame.contexts(extension_id=extension_id, predicate=predicate)
        _core.target_alive(self, self._cdp._registry)
        found = self._cdp._registry.of_session(self.session_id)
        if extension_id is not None:
            origin = _core.extension_origin(extension_id)
            found = [c for c in found if c.origin == origin]
        out = tuple(_core.bind(AsyncExecutionContext, self._cdp, c) for c in found)
        return out if predicate is None else tuple(c for c in out if predicate(c))

    async def evaluate(
        self,
        script: str,
        *,
        frame: AsyncFrame | None = None,
        extension_id: str | None = None,
        context: AsyncExecutionContext | None = None,
        await_promise: bool = True,
        return_by_value: bool = True,
    ) -> Any:
        """Runs ``script`` in ``context``, else in ``frame`` (default: its main frame), in its
        default context or ``extension_id``'s content-script world."""
        opts = {"await_promise": await_promise, "return_by_value": return_by_value}
        if context is not None:
            return await context.evaluate(script, **opts)
        if frame is not None or extension_id is not None:
            owner = frame or (await self.frames())[0]
            return await owner.evaluate(script, extension_id=extension_id, **opts)
        _core.target_alive(self, self._cdp._registry)
        reg = self._cdp._registry
        return await self._cdp._run(_core.evaluate(script, self.session_id, reg, None, await_promise, return_by_value))


@dataclass(frozen=True, slots=True)
class AsyncFrame(_core.FrameData):
    """A frame of a target, bound to the document it showed when listed (awaited methods)."""

    _cdp: AsyncCDP = field(repr=False, compare=False, kw_only=True)

    async def contexts(
        self,
        *,
        name: str | None = None,
        predicate: Callable[[AsyncExecutionContext], bool] | None = None,
        extension_id: str | None = None,
    ) -> tuple[AsyncExecutionContext, ...]:
        """Its live execution contexts (by world ``name``, ``extension_id``: the worlds of that
        extension's content scripts, or ``predicate`` when given)."""
        found = await self._cdp._run(_core.contexts(self, self._cdp._registry, name, extension_id=extension_id))
        out = tuple(_core.bind(AsyncExecutionContext, self._cdp, c) for c in found)
        return out if predicate is None else tuple(c for c in out if predicate(c))

    async def context(
        self,
        *,
        name: str | None = None,
        predicate: Callable[[AsyncExecutionContext], bool] | None = None,
        extension_id: str | None = None,
    ) -> AsyncExecutionContext:
        """The one context matching ``name``/``extension_id``/``predicate``; with none, its default context."""
        pick = None if predicate is None else (lambda c: predicate(_core.bind(AsyncExecutionContext, self._cdp, c)))
        found = await self._cdp._run(_core.context(self, self._cdp._registry, name, pick, extension_id))
        return _core.bind(AsyncExecutionContext, self._cdp, found)

    async def evaluate(
        self, script: str, *, extension_id: str | None = None, await_promise: bool = True, return_by_value: bool = True
    ) -> Any:
        """Runs ``script`` in its default context (``extension_id``: in that extension's content-script world)."""
        ctx = await self.context(extension_id=extension_id)
        return await ctx.evaluate(script, await_promise=await_promise, return_by_value=return_by_value)


@dataclass(frozen=True, slots=True)
class AsyncExecutionContext(_core.ContextData):
    """One JavaScript world of a frame (awaited ``evaluate``); stale once its document is gone."""

    _cdp: AsyncCDP = field(repr=False, compare=False, kw_only=True)

    async def evaluate(self, script: str, *, await_promise: bool = True, return_by_value: bool = True) -> Any:
        """Runs ``script`` here and returns its value (or its RemoteObject)."""
        reg = self._cdp._registry
        return await self._cdp._run(_core.evaluate(script, self.session_id, reg, self, await_promise, return_by_value))
