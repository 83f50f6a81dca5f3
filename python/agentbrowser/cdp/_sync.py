"""``browser.cdp`` of the synchronous :class:`~agentbrowser.Browser`: raw protocol calls on the
session's browser, and evaluation in frames and execution contexts chosen by strict criteria."""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

from .. import _ops
from . import _core
from ._client import CDPClient, require_websockets
from ._core import Flow, Registry, Send
from .errors import CDPClosedError

if TYPE_CHECKING:
    from ..browser import Browser

T = TypeVar("T")

#: Seconds a protocol call may take unless the controller or the call says otherwise.
DEFAULT_TIMEOUT_S = 10.0


class CDP:
    """Direct Chrome DevTools Protocol access to the session's browser, beside the engine.

    It connects on first use to the URL ``get cdp-url`` reports (launching the session's
    browser first when none runs).  ``close()`` (also done by ``Browser.close()``) ends its
    connection; any use after it raises CDPClosedError.
    """

    def __init__(self, browser: Browser, timeout: float = DEFAULT_TIMEOUT_S) -> None:
        self._b = browser
        self.timeout = timeout
        self._registry = Registry()
        self._client: CDPClient | None = None
        self._closed = False
        self._lock = threading.Lock()
        #: The frames of the active tab: ``cdp.frames.list()``, ``cdp.frames.get(name=...)``.
        self.frames = Frames(self)

    @property
    def client(self) -> CDPClient:
        """The WebSocket client (connected on first use)."""
        with self._lock:
            if self._closed or self._b._root._close_result is not None:
                raise CDPClosedError("this CDP controller is closed (its Browser was closed, or close() was called)")
            if self._client is None or self._client.closed:
                require_websockets()  # before anything starts for a client that cannot run
                url = self._b._drive(_ops.cdp_url(True)).ws_url
                self._registry.clear()
                self._client = CDPClient(url, timeout=self.timeout, on_event=self._registry.feed)
            return self._client

    @property
    def url(self) -> str:
        """The browser's DevTools WebSocket URL."""
        return self.client.url

    def _run(self, flow: Flow[T]) -> T:
        client = self.client
        return _core.run_sync(flow, lambda s: client.send(s.method, s.params, session_id=s.session_id), self._b._drive)

    def send(
        self, method: str, params: Mapping[str, Any] | None = None, *, session_id: str | None = None, timeout: float | None = None
    ) -> dict[str, Any]:
        """One raw protocol call on the browser (or on ``session_id``, e.g. a Target's) and its result."""
        return self.client.send(method, params, session_id=session_id, timeout=timeout)

    def pop_events(self, method: str | None = None) -> list[dict[str, Any]]:
        """The events received since the last call (bounded buffer), of ``method`` when given."""
        return self.client.pop_events(method)

    def target(self, *, label: str | None = None, url: str | None = None, target_id: str | None = None) -> Target:
        """The one page target with this tab ``label``, ``url`` (URL pattern) or ``target_id``."""
        return _core.bind(Target, self, self._run(_core.target({"label": label, "url": url, "target_id": target_id}, self._registry)))

    def active(self) -> Target:
        """The engine's active tab as a target."""
        return _core.bind(Target, self, self._run(_core.target({}, self._registry)))

    def evaluate(
        self,
        script: str,
        *,
        frame: Frame | None = None,
        context: ExecutionContext | None = None,
        await_promise: bool = True,
        return_by_value: bool = True,
        extension_id: str | None = None,
    ) -> Any:
        """Runs ``script`` in ``context``, else ``frame``'s default context, else the active tab's
        main frame (``extension_id``: in that extension's content-script world there); returns
        its value (``return_by_value=False``: the RemoteObject)."""
        opts = {"await_promise": await_promise, "return_by_value": return_by_value}
        if context is not None:
            return context.evaluate(script, **opts)
        if frame is not None:
            return frame.evaluate(script, extension_id=extension_id, **opts)
        return self.active().evaluate(
            script, extension_id=extension_id, await_promise=await_promise, return_by_value=return_by_value
        )

    def frame(self, *, selector: str | None = None, name: str | None = None, url: str | None = None) -> Frame:
        """The one frame of the active tab the criterion names (``cdp.frames.get``)."""
        return self.frames.get(selector=selector, name=name, url=url)

    def contexts(
        self,
        *,
        frame: Frame | None = None,
        extension_id: str | None = None,
        predicate: Callable[[ExecutionContext], bool] | None = None,
    ) -> tuple[ExecutionContext, ...]:
        """The live execution contexts of the active tab (see :meth:`Target.contexts`)."""
        return self.active().contexts(frame=frame, extension_id=extension_id, predicate=predicate)

    def invalidate(self) -> None:
        """Forgets the attached sessions and contexts: targets, frames and contexts looked up
        before raise CDPStaleObjectError; the next lookup attaches again."""
        self._registry.clear()

    @property
    def closed(self) -> bool:
        """Whether :meth:`close` was called."""
        return self._closed

    def close(self) -> None:
        """Closes the connection (idempotent); the browser and the engine go on."""
        with self._lock:
            self._closed = True
            client, self._client = self._client, None
        if client is not None:
            client.close()


class Frames:
    """The frames of the active tab."""

    def __init__(self, cdp: CDP) -> None:
        self._cdp = cdp

    def __call__(self) -> tuple[Frame, ...]:
        """``cdp.frames()``: the same as :meth:`list` (pyagentbrowser's ``frames()`` method)."""
        return self.list()

    def list(self) -> tuple[Frame, ...]:
        """Every frame of the active tab, the main frame first."""
        return self._cdp.active().frames()

    def get(self, *, selector: str | None = None, name: str | None = None, url: str | None = None) -> Frame:
        """The one frame owned by the iframe ``selector`` matches, or with this ``name`` or ``url`` (URL pattern)."""
        return self._cdp.active().frame(selector=selector, name=name, url=url)


@dataclass(frozen=True, slots=True)
class Target(_core.TargetData):
    """A page target this controller attached to."""

    _cdp: CDP = field(repr=False, compare=False, kw_only=True)

    def frames(self) -> tuple[Frame, ...]:
        """Its frames, the main frame first."""
        return tuple(_core.bind(Frame, self._cdp, f) for f in self._cdp._run(_core.frames(self, self._cdp._registry)))

    def frame(self, *, selector: str | None = None, name: str | None = None, url: str | None = None) -> Frame:
        """The one frame the criterion names (see :meth:`Frames.get`)."""
        crit = {"selector": selector, "name": name, "url": url}
        return _core.bind(Frame, self._cdp, self._cdp._run(_core.frame(self, crit, self._cdp._registry)))

    def contexts(
        self,
        *,
        frame: Frame | None = None,
        extension_id: str | None = None,
        predicate: Callable[[ExecutionContext], bool] | None = None,
    ) -> tuple[ExecutionContext, ...]:
        """The live execution contexts of all its frames (of ``frame``; of ``extension_id``'s
        content scripts; those ``predicate`` accepts)."""
        if frame is not None:
            return frame.contexts(extension_id=extension_id, predicate=predicate)
        _core.target_alive(self, self._cdp._registry)
        found = self._cdp._registry.of_session(self.session_id)
        if extension_id is not None:
            origin = _core.extension_origin(extension_id)
            found = [c for c in found if c.origin == origin]
        out = tuple(_core.bind(ExecutionContext, self._cdp, c) for c in found)
        return out if predicate is None else tuple(c for c in out if predicate(c))

    def evaluate(
        self,
        script: str,
        *,
        frame: Frame | None = None,
        extension_id: str | None = None,
        context: ExecutionContext | None = None,
        await_promise: bool = True,
        return_by_value: bool = True,
    ) -> Any:
        """Runs ``script`` in ``context``, else in ``frame`` (default: its main frame), in its
        default context or ``extension_id``'s content-script world."""
        opts = {"await_promise": await_promise, "return_by_value": return_by_value}
        if context is not None:
            return context.evaluate(script, **opts)
        if frame is not None or extension_id is not None:
            return (frame or self.frames()[0]).evaluate(script, extension_id=extension_id, **opts)
        _core.target_alive(self, self._cdp._registry)
        flow = _core.evaluate(script, self.session_id, self._cdp._registry, None, await_promise, return_by_value)
        return self._cdp._run(flow)


@dataclass(frozen=True, slots=True)
class Frame(_core.FrameData):
    """A frame of a target, bound to the document it showed when listed."""

    _cdp: CDP = field(repr=False, compare=False, kw_only=True)

    def contexts(
        self,
        *,
        name: str | None = None,
        predicate: Callable[[ExecutionContext], bool] | None = None,
        extension_id: str | None = None,
    ) -> tuple[ExecutionContext, ...]:
        """Its live execution contexts (by world ``name``, ``extension_id``: the worlds of that
        extension's content scripts, or ``predicate`` when given)."""
        found = self._cdp._run(_core.contexts(self, self._cdp._registry, name, extension_id=extension_id))
        out = tuple(_core.bind(ExecutionContext, self._cdp, c) for c in found)
        return out if predicate is None else tuple(c for c in out if predicate(c))

    def context(
        self,
        *,
        name: str | None = None,
        predicate: Callable[[ExecutionContext], bool] | None = None,
        extension_id: str | None = None,
    ) -> ExecutionContext:
        """The one context matching ``name``/``extension_id``/``predicate``; with none, its default context."""
        pick = None if predicate is None else (lambda c: predicate(_core.bind(ExecutionContext, self._cdp, c)))
        return _core.bind(ExecutionContext, self._cdp, self._cdp._run(_core.context(self, self._cdp._registry, name, pick, extension_id)))

    def evaluate(
        self, script: str, *, extension_id: str | None = None, await_promise: bool = True, return_by_value: bool = True
    ) -> Any:
        """Runs ``script`` in its default context (``extension_id``: in that extension's content-script world)."""
        ctx = self.context(extension_id=extension_id)
        return ctx.evaluate(script, await_promise=await_promise, return_by_value=return_by_value)


@dataclass(frozen=True, slots=True)
class ExecutionContext(_core.ContextData):
    """One JavaScript world of a frame (or a worker); stale once its document is gone."""

    _cdp: CDP = field(repr=False, compare=False, kw_only=True)

    def evaluate(self, script: str, *, await_promise: bool = True, return_by_value: bool = True) -> Any:
        """Runs ``script`` here and returns its value (or its RemoteObject)."""
        flow = _core.evaluate(script, self.session_id, self._cdp._registry, self, await_promise, return_by_value)
        return self._cdp._run(flow)

