"""pyagentbrowser's page sessions: one page target's flat CDP session on any transport (a
:class:`~agentbrowser.cdp.CDPClient`, or anything with ``send`` and ``drain_events``), with the
controller's frames, execution contexts and evaluation (the same flows of ``_core``; the
contexts come from the ``Runtime`` events the transport hands out)."""

from __future__ import annotations

from typing import Any, NoReturn, TypeVar

from . import _core
from ._async import AsyncExecutionContext, AsyncFrame
from ._core import Flow, Registry, Send, TargetData
from ._sync import ExecutionContext, Frame
from .errors import CDPFrameNotFoundError
from .transport import AsyncCDPTransport, SyncCDPTransport

__all__ = ["CDPPageSession", "AsyncCDPPageSession"]

T = TypeVar("T")

#: How long one look at the transport's events waits for more (seconds).
EVENTS_QUIET_S = 0.02


def _no_engine(op: object) -> NoReturn:
    raise TypeError("a page session has no engine: it looks up frames and contexts over its transport only")


class _Session:
    """What the sync and async page sessions share: identity and the context registry."""

    def __init__(self, *, session_id: str, target_id: str) -> None:
        if not session_id or not target_id:
            raise ValueError("a page session needs its target_id and the session_id attached to it")
        #: The flat session (``Target.attachToTarget(flatten=True)``) this object sends on.
        self.session_id = session_id
        #: The page target the session is attached to.
        self.target_id = target_id
        self._registry = Registry()
        self._registry.attached(target_id, session_id)
        self._target = TargetData(target_id, "page", "", "", None, session_id)
        self._enabled = False

    def _feed(self, events: list[Any]) -> None:
        for event in events:
            self._registry.feed(event)

    def _forget(self) -> None:
        self._registry.clear()
        self._registry.attached(self.target_id, self.session_id)
        self._enabled = False

    @staticmethod
    def _pick(frames: list[Any], frame: str | Any | None) -> Any:
        if frame is None or not isinstance(frame, str):
            return frame if frame is not None else frames[0]
        found = [f for f in frames if f.id == frame]
        if not found:
            raise CDPFrameNotFoundError(
                f"no frame {frame!r} in target", criteria={"id": frame}, candidates=tuple(f.id for f in frames)
            )
        return found[0]


class CDPPageSession(_Session):
    """One page target's session on a blocking transport: ``frames()``, ``frame(...)``,
    ``contexts(...)``, ``context(...)``, ``evaluate(...)``; ``invalidate()`` forgets what it
    knew and asks the page again."""

    def __init__(self, client: SyncCDPTransport, *, session_id: str, target_id: str) -> None:
        super().__init__(session_id=session_id, target_id=target_id)
        #: The transport calls go through.
        self.client = client

    def _send(self, step: Send) -> Any:
        return self.client.send(step.method, step.params, session_id=step.session_id)

    def _run(self, flow: Flow[T]) -> T:
        self.enable()
        self._feed(self.client.drain_events(timeout=EVENTS_QUIET_S))
        return _core.run_sync(flow, self._send, _no_engine)

    def enable(self) -> None:
        """Turns ``Runtime`` on for the session (once; again after :meth:`invalidate`), so that
        its execution contexts are announced."""
        if self._enabled:
            return
        self._enabled = True
        self.client.send("Runtime.disable", {}, session_id=self.session_id)
        self.client.send("Runtime.enable", {}, session_id=self.session_id)
        self._feed(self.client.drain_events(timeout=EVENTS_QUIET_S))

    def invalidate(self) -> None:
        """Forgets the contexts known so far; the next call has the page announce its contexts
        again (one whose document is gone by then raises CDPStaleObjectError)."""
        self._forget()

    def frames(self) -> list[Frame]:
        """The target's frames, the main frame first."""
        return [_core.bind(Frame, self, f) for f in self._run(_core.frames(self._target, self._registry))]

    def frame(self, *, selector: str | None = None, name: str | None = None, url: str | None = None) -> Frame:
        """The one frame the criterion names (an iframe ``selector``, a ``name``, a ``url`` pattern)."""
        crit = {"selector": selector, "name": name, "url": url}
        return _core.bind(Frame, self, self._run(_core.frame(self._target, crit, self._registry)))

    def resolve_frame(self, frame: str | Frame | None) -> Frame:
        """``frame`` itself, the frame with that id, or (None) the main frame."""
        return frame if isinstance(frame, Frame) else self._pick(self.frames(), frame)

    def contexts(
        self, *, frame: str | Frame | None = None, extension_id: str | None = None, predicate: Any = None
    ) -> tuple[ExecutionContext, ...]:
        """The live execution contexts of ``frame`` (default: the main frame)."""
        return self.resolve_frame(frame).contexts(extension_id=extension_id, predicate=predicate)

    def context(
        self, *, frame: str | Frame | None = None, extension_id: str | None = None, predicate: Any = None
    ) -> ExecutionContext:
        """The one context of ``frame`` matching the criteria (none: its default context)."""
        return self.resolve_frame(frame).context(extension_id=extension_id, predicate=predicate)

    def evaluate(
        self,
        script: str,
        *,
        frame: str | Frame | None = None,
        context: ExecutionContext | None = None,
        extension_id: str | None = None,
        await_promise: bool = True,
        return_by_value: bool = True,
    ) -> Any:
        """Runs ``script`` in ``context``, else in ``frame``'s default context (or
        ``extension_id``'s content-script world); default: the main frame."""
        ctx = context or self.context(frame=frame, extension_id=extension_id)
        return ctx.evaluate(script, await_promise=await_promise, return_by_value=return_by_value)


class AsyncCDPPageSession(_Session):
    """The awaited twin of :class:`CDPPageSession` on an asyncio transport."""

    def __init__(self, client: AsyncCDPTransport, *, session_id: str, target_id: str) -> None:
        super().__init__(session_id=session_id, target_id=target_id)
        #: The transport calls go through.
        self.client = client

    async def _send(self, step: Send | _core.Engine) -> Any:
        if not isinstance(step, Send):
            _no_engine(step)
        return await self.client.send(step.method, step.params, session_id=step.session_id)

    async def _run(self, flow: Flow[T]) -> T:
        await self.enable()
        self._feed(await self.client.drain_events(timeout=EVENTS_QUIET_S))
        return await _core.run_async(flow, self._send)

    async def enable(self) -> None:
        """Turns ``Runtime`` on for the session (once; again after :meth:`invalidate`)."""
        if self._enabled:
            return
        self._enabled = True
        await self.client.send("Runtime.disable", {}, session_id=self.session_id)
        await self.client.send("Runtime.enable", {}, session_id=self.session_id)
        self._feed(await self.client.drain_events(timeout=EVENTS_QUIET_S))

    def invalidate(self) -> None:
        """Forgets the contexts known so far; the next call has the page announce its contexts
        again (one whose document is gone by then raises CDPStaleObjectError)."""
        self._forget()

    async def frames(self) -> list[AsyncFrame]:
        """The target's frames, the main frame first."""
        return [_core.bind(AsyncFrame, self, f) for f in await self._run(_core.frames(self._target, self._registry))]

    async def frame(
        self, *, selector: str | None = None, name: str | None = None, url: str | None = None
    ) -> AsyncFrame:
        """The one frame the criterion names."""
        crit = {"selector": selector, "name": name, "url": url}
        return _core.bind(AsyncFrame, self, await self._run(_core.frame(self._target, crit, self._registry)))

    async def resolve_frame(self, frame: str | AsyncFrame | None) -> AsyncFrame:
        """``frame`` itself, the frame with that id, or (None) the main frame."""
        if isinstance(frame, AsyncFrame):
            return frame
        return self._pick(await self.frames(), frame)  # type: ignore[no-any-return]

    async def contexts(
        self, *, frame: str | AsyncFrame | None = None, extension_id: str | None = None, predicate: Any = None
    ) -> tuple[AsyncExecutionContext, ...]:
        """The live execution contexts of ``frame`` (default: the main frame)."""
        return await (await self.resolve_frame(frame)).contexts(extension_id=extension_id, predicate=predicate)

    async def context(
        self, *, frame: str | AsyncFrame | None = None, extension_id: str | None = None, predicate: Any = None
    ) -> AsyncExecutionContext:
        """The one context of ``frame`` matching the criteria (none: its default context)."""
        return await (await self.resolve_frame(frame)).context(extension_id=extension_id, predicate=predicate)

    async def evaluate(
        self,
        script: str,
        *,
        frame: str | AsyncFrame | None = None,
        context: AsyncExecutionContext | None = None,
        extension_id: str | None = None,
        await_promise: bool = True,
        return_by_value: bool = True,
    ) -> Any:
        """Runs ``script`` in ``context``, else in ``frame``'s default context (or
        ``extension_id``'s content-script world); default: the main frame."""
        ctx = context or await self.context(frame=frame, extension_id=extension_id)
        return await ctx.evaluate(script, await_promise=await_promise, return_by_value=return_by_value)
