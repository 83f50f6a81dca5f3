# unasync: async
# The hand-written source of browser.py, the synchronous client: python/tools/unasync.py writes it
# (`python3 python/tools/unasync.py`); the `# unasync:` blocks hold what differs between the two.
"""The asyncio client: :class:`AsyncBrowser` with :class:`AsyncPage`, :class:`AsyncTabs`, :class:`AsyncNative`.

It shares every model and operation with the sync client.  It never blocks the event
loop: one reader task hands each answer to the coroutine awaiting it, so many
coroutines may await calls on one browser at once.  Cancelling one awaiting call leaves
the connection usable (its late answer is dropped).
"""
# unasync: sync
# """The synchronous client: :class:`Browser` with its :class:`Page`, :class:`Tabs` and :class:`Native`.
#
# Thread safety: one ``Browser`` may be shared by several threads.  Each native call holds
# the connection's lock from sending its request until its answer arrives, so calls from
# different threads run one after another and each receives its own answer.  (The daemon
# runs commands one at a time anyway.)  ``close()`` may be called from any thread; calls
# made after it raise ``RuntimeError``.
# """
# unasync: end

from __future__ import annotations

import asyncio
import contextlib
import os
import tempfile
import copy
import weakref
from pathlib import Path
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar, cast

from .webmcp import AsyncWebMCP
from . import _ops
from . import _wire_ops as g
from ._atransport import AsyncOwnedProcess, AsyncTransport, connect_socket_async
from ._binary import find_binary, socket_path
from ._common import (
    CLOSE_TIMEOUT_S,
    attach_options,
    check_session,
    daemon_argv,
    lazy_argv,
    resolve_options,
    start_session_daemon,
)
from ._dashboard import DashboardProcess, no_dashboard, with_dashboard_session
from ._held import HeldSnapshots
from ._wire_methods import AsyncBrowserCommands, AsyncPageCommands
from ._ops import Call, Op
from ._encode import flag
from .cdp import AsyncCDP
from .models.devtools import DevToolsEndpoint
from .errors import BrowserError, ConfirmationRequired
from .models.pending import AsyncPendingAction
from .models.scope import DocumentScope
from ._alias import BoundStr, alias, alias_required
from .models import (
    CONSOLE_LEVELS,
    Download,
    ActionResult,
    BoundingBox,
    ElementGeometry,
    Locator,
    ScrollResult,
    BrowserResponse,
    CloseResult,
    Finder,
    AccessibilityAudit,
    ConsoleLevel,
    ConsoleLog,
    DialogResult,
    DialogStatus,
    Device,
    EmulationSettings,
    Injection,
    ErrorLog,
    Vitals,
    FrameInfo,
    LaunchResult,
    LoadState,
    Navigation,
    NavigationLoadState,
    Ref,
    Screenshot,
    ScreenshotObservation,
    ReadMode,
    ReadResult,
    SessionStatus,
    Snapshot,
    SnapshotDiff,
    SnapshotSpec,
    TabCloseResult,
    TabInfo,
    TabSwitchResult,
    SelectorState,
    Wait,
    WaitResult,
    clip,
)
from .models._actionable import Actionable
from .models.routes import Route, RouteResponse
from .models.emulation import ColorScheme, MediaType, ReducedMotion
from .models.state import SAME_SITE_VALUES, Cookie, SameSite, StateListing, StorageArea
from .models.auth import AuthEntry, AuthListing, AuthLogin
from .models.network import RESOURCE_TYPES, HarContentMode, RequestDetail, RequestLog
from .models.boundary import ContentBoundary
from .models.react import ReactTree
from . import _react
from .restore import raise_if_save_failed
from .options import CDPTarget, LaunchOptions, SessionOptions, merge_options

if TYPE_CHECKING:
    from .models._client import ModelOps

__all__ = [
    "AsyncBrowser",
    "AsyncPage",
    "AsyncCapture",
    "AsyncTabs",
    "AsyncFrames",
    "AsyncFrame",
    "AsyncNative",
    "AsyncDiagnostics",
    "AsyncNetwork",
    "AsyncEmulation",
    "AsyncScripts",
    "AsyncScroll",
    "AsyncClipboard",
    "AsyncCookies",
    "AsyncStorage",
    "AsyncState",
]

T = TypeVar("T")
#: The wire key of each field a cookie mapping may use (Playwright's camelCase, or snake_case).
_COOKIE_KEYS = {"http_only": "httpOnly", "same_site": "sameSite"}


class _Handle:
    """A part of the client (its page, tabs, emulation, network...): it drives its operations
    through the browser it was made for."""

    def __init__(self, browser: AsyncBrowser) -> None:
        self._b = browser

    def __repr__(self) -> str:
        return f"<{type(self).__name__} of {self._b!r}>"


class AsyncBrowser(AsyncBrowserCommands):
    # unasync: async
    """A browser session driven with ``await``; mirrors :class:`~agentbrowser.Browser`.

    ``AsyncBrowser()`` is lazy: constructing it starts nothing; the first awaited call starts
    a daemon this process owns, which launches Chromium when a command first needs one.
    ``await AsyncBrowser.launch()`` starts one at once; ``await AsyncBrowser.attach(CDPTarget(...))``
    joins a running Chromium; ``await AsyncBrowser.connect(session=...)`` joins a CLI session.
    Use ``async with`` (an exception inside closes it and close errors are suppressed) or
    ``await close()`` (idempotent; raises TimeoutError when the daemon does not shut down in
    time, after killing it).  Any call after close raises RuntimeError.
    """
    # unasync: sync
    # """A browser session driven synchronously.
    #
    # ``Browser()`` is lazy: constructing it starts nothing; the first call that needs the
    # engine starts a daemon this process owns, and the daemon launches Chromium (with
    # defaults) when a command first needs a browser.  ``Browser.launch()`` starts one at once
    # with :class:`LaunchOptions`; ``Browser.attach(CDPTarget(port=9222))`` joins a Chromium
    # that runs already; ``Browser.connect(session=...)`` joins a session run by the CLI or
    # another process.  Use it as a context manager (an exception inside closes it and close
    # errors are suppressed), or call :meth:`close` (idempotent).  Any call after close raises
    # RuntimeError.
    # """
    # unasync: end

    #: The operations that the bound models (Snapshot, Ref) run through this browser.
    _ops: ClassVar[ModelOps] = _ops

    def __init__(self, session: SessionOptions | None = None) -> None:
        self._options = with_dashboard_session(merge_options(None, session))
        self._session = self._options.session
        #: The session's dashboard process (``SessionOptions.dashboard``), once started.
        self._dashboard: DashboardProcess | None = None
        self._t: AsyncTransport | None = None
        self._process: AsyncOwnedProcess | None = None
        self._starting = asyncio.Lock()
        self._close_result: CloseResult | None = None
        #: The envelope's ``tab``/``frame`` every request of this handle carries (see ``_scoped``).
        self._scope: dict[str, str] = {}
        self._root = self
        #: The content boundary of the last answer of page content (content boundaries on).
        self._boundary: ContentBoundary | None = None
        #: The snapshots this client received: the bases of delta snapshots.
        self._held = HeldSnapshots()
        # unasync: async
        #: The result of the close() under way, which later close() calls wait for.
        self._closing: asyncio.Future[CloseResult] | None = None
        # unasync: end
        #: The browser ``launch()`` started (None for a lazy or connected client).
        self.launch_result: LaunchResult | None = None
        self.page = AsyncPage(self)
        self.tabs = AsyncTabs(self)
        self.dialogs = AsyncDialogs(self)
        self.emulation = AsyncEmulation(self)
        self.scripts = AsyncScripts(self)
        #: The clipboard: ``browser.clipboard.read()``, ``write(text)``, ``copy()``, ``paste()``.
        self.clipboard = AsyncClipboard(self)
        #: Cookies of the session: ``browser.cookies.get()``, ``set(...)``, ``clear()``.
        self.cookies = AsyncCookies(self)
        #: State files: ``browser.state.save()``, ``load(path)``, ``list()``, ``show``, ``rename``, ``clear``, ``clean``.
        self.state = AsyncState(self)
        #: The auth vault: ``await browser.auth.save(...)``, ``login(name)``, ``list()``, ``show``, ``delete``.
        self.auth = AsyncAuth(self)
        #: Request interception: ``browser.network.route(glob, ...)``, ``unroute``, ``routes``, ``headers``, ``credentials``.
        self.network = AsyncNetwork(self)
        self.native = AsyncNative(self)
        self.diagnostics = AsyncDiagnostics(self)
        self._finalizer: weakref.finalize[Any, Any] | None = None
        #: The direct CDP controller (``AsyncBrowser.cdp``), made on first access.
        self._cdp: AsyncCDP | None = None
        #: Whether a command ran in the session's browser (``is_launched``).
        self._browser_used = False
        #: The page or frame handle whose document this handle's commands run in (``Snapshot.document``).
        self._document: AsyncPage | AsyncFrame = self.page

    def _bind(self, transport: AsyncTransport, process: AsyncOwnedProcess | None, options: LaunchOptions) -> None:
        """Use ``transport`` (to ``process`` when owned) with ``options``."""
        self._t = transport
        self._process = process
        self._options = options
        self._session = options.session
        if process is not None and options.dashboard is not None and options.session is not None:
            self._dashboard = DashboardProcess(find_binary(), options.session, options.dashboard)
            weakref.finalize(self, self._dashboard.stop)
        # unasync: async
        if process is not None:
            # Dropped without close(): EOF on the daemon's stdin ends it.
            self._finalizer = weakref.finalize(self, process.close_stdin)
        # unasync: sync
        # self._finalizer = weakref.finalize(self, transport.close)
        # unasync: end

    # -- construction ----------------------------------------------------------

    @classmethod
    async def launch(
        cls,
        options: LaunchOptions | None = None,
        /,
        *,
        session: SessionOptions | str | None = None,
        **kwargs: Any,
    ) -> AsyncBrowser:
        """Start a browser owned by this process now (``await AsyncBrowser.launch(LaunchOptions(...),
        session=SessionOptions(...))``, or ``await AsyncBrowser.launch(headless=False)``; a str ``session``
        is LaunchOptions' older ``session`` name field)."""
        return await cls._launched(resolve_options(options, kwargs, session))

    @classmethod
    async def attach(
        cls, target: CDPTarget, *, launch: LaunchOptions | None = None, session: SessionOptions | None = None
    ) -> AsyncBrowser:
        """Attach to a Chromium that runs already, over its DevTools endpoint (``CDPTarget(port=9222)``
        or ``CDPTarget(url="ws://…")``).  ``close()`` disconnects and leaves that browser running;
        ``launch`` may set only what applies to an attached browser (downloads, dialogs, timeout)."""
        return await cls._launched(attach_options(target, launch, session))

    @classmethod
    async def _launched(cls, opts: LaunchOptions) -> AsyncBrowser:
        opts = with_dashboard_session(opts)
        argv = daemon_argv(find_binary(), opts.session, opts.restore, listen=opts.dashboard is not None)
        process = await AsyncOwnedProcess.spawn(argv)
        browser = cls()
        browser._bind(process.transport(), process, opts)
        try:
            browser.launch_result = await browser._drive(_ops.launch(opts.to_wire()))
        except BaseException:
            await asyncio.shield(browser._abort())
            raise
        return browser

    @classmethod
    async def connect(cls, session: str = "default", *, timeout_ms: int = 30000) -> AsyncBrowser:
        """Join the named session over its Unix socket, starting its daemon through the CLI if needed."""
        opts = check_session(session, timeout_ms)
        path = socket_path(session)
        try:
            transport = await connect_socket_async(path)
        except OSError:
            # `session start` returns once the daemon answered on its socket: it listens now.
            await asyncio.to_thread(start_session_daemon, find_binary(), session, timeout_ms / 1000)
            try:
                transport = await connect_socket_async(path)
            except OSError as exc:
                raise BrowserError(
                    f"cannot connect to session {session!r} at {path}: {exc}", code="browser_closed"
                ) from None
        browser = cls()
        browser._bind(transport, None, opts)
        return browser

    @property
    def started(self) -> bool:
        """Whether this client runs or joined a daemon (False for a lazy ``AsyncBrowser()`` before its first call)."""
        return self._t is not None

    # -- session -------------------------------------------------------------------

    @property
    def session(self) -> AsyncSessionName | None:
        """The session name (None for an unnamed launched browser): a ``str`` that is also
        pyagentbrowser's session namespace (``browser.session.status()``)."""
        return None if self._session is None else AsyncSessionName(self._session, self)

    @property
    def is_launched(self) -> bool:
        """Whether this client's session has a browser it started or joined: True after
        ``launch()``/``attach()``, and once a command ran in the session's browser (a lazy or
        connected client: the daemon launches Chromium when a command first needs one);
        ``status().browser_launched`` asks the daemon."""
        return self._root.launch_result is not None or self._root._browser_used

    async def activate(self) -> AsyncBrowser:
        """Bring the active tab to the front of its window (the engine's ``tab_switch`` to it:
        CDP ``Target.activateTarget``); returns this browser."""
        await self._drive(_ops.activate())
        return self

    @property
    def keyboard(self) -> AsyncKeyboard:
        """The active tab's keyboard (``browser.page.keyboard``)."""
        return self.page.keyboard

    @property
    def mouse(self) -> AsyncMouse:
        """The active tab's mouse (``browser.page.mouse``)."""
        return self.page.mouse

    @property
    def storage(self) -> AsyncStorage:
        """The active tab's web storage (``browser.page.storage``)."""
        return self.page.storage

    @property
    def webmcp(self) -> AsyncWebMCP:
        """The active tab's WebMCP tools (``browser.page.webmcp``)."""
        return self.page.webmcp

    @property
    def downloads(self) -> AsyncDownloads:
        """Downloads of the active tab: ``download(selector, path)``, ``wait(path)``."""
        return AsyncDownloads(self)

    @property
    def diff(self) -> AsyncDiff:
        """Snapshot diffs of the active tab: ``diff.snapshot(baseline=None)``."""
        return AsyncDiff(self)

    @property
    def dashboard(self) -> AsyncDashboard:
        """The session's live dashboard: ``status()`` (its URL) and ``stop()``."""
        return AsyncDashboard(self)

    @property
    def content_boundary(self) -> ContentBoundary | None:
        """The boundary of the last answer of page content (None until one, or with content
        boundaries off): ``content_boundary.wrap(text)`` puts page text between its lines."""
        return self._root._boundary

    @property
    def pid(self) -> int | None:
        """The owned daemon's process id (None when connected)."""
        return self._process.proc.pid if self._process is not None else None

    @property
    def launch_data(self) -> Mapping[str, Any]:
        """The raw data of the ``launch`` answer (``{}`` when connected); typed: :attr:`launch_result`."""
        return self.launch_result.raw if self.launch_result is not None else {}

    @property
    def closed(self) -> bool:
        """Whether :meth:`close` was called."""
        # unasync: async
        return self._close_result is not None or self._closing is not None
        # unasync: sync
        # return self._close_result is not None
        # unasync: end

    @property
    def cdp(self) -> AsyncCDP:
        """Direct Chrome DevTools Protocol access to this session's browser, beside the engine
        (``send``, ``evaluate``, ``frames``, ``target``); needs ``pip install 'agentbrowser-engine[cdp]'``."""
        root = self._root
        if root._cdp is None:
            root._cdp = AsyncCDP(root)
        return root._cdp

    async def cdp_url(self, *, launch: bool = False) -> DevToolsEndpoint:
        """The session browser's DevTools WebSocket URL; with none running, BrowserError
        ``no_browser`` unless ``launch`` (then the browser starts with the session's options)."""
        return await self._drive(_ops.cdp_url(launch))

    async def status(self) -> SessionStatus:
        """Session identity, daemon and browser state."""
        return await self._drive(_ops.raw(g.status(), SessionStatus.from_raw))

    async def close(self, *, end_session: bool | None = None, timeout: float = CLOSE_TIMEOUT_S) -> CloseResult:
        """Close; idempotent (later calls return the first result).

        A launched browser is always shut down (killed if it does not exit within
        ``timeout`` seconds; then TimeoutError is raised).  A connected one only disconnects
        (``closed=False``) unless ``end_session=True``, which closes the session's browser
        and daemon for every client.

        With ``SessionOptions(restore=...)`` the result says what the restore and the final
        save did; when saving failed, RestoreSaveError (carrying the result) is raised after
        cleanup, and again by later calls.
        """
        if self._root._cdp is not None:
            await self._root._cdp.close()
        if self._close_result is not None:
            return raise_if_save_failed(self._close_result)
        # unasync: async
        if self._closing is not None:
            return raise_if_save_failed(await asyncio.shield(self._closing))
        if self._t is None:
            # A lazy AsyncBrowser that never started: nothing runs, nothing to close.
            self._close_result = CloseResult(closed=True, raw={"started": False})
            return self._close_result
        self._closing = asyncio.get_running_loop().create_future()
        try:
            result = await self._shutdown(end_session, timeout)
        except BaseException:
            self._close_result = CloseResult(closed=True)
            self._closing.set_result(self._close_result)
            raise
        self._close_result = result
        self._closing.set_result(result)
        return raise_if_save_failed(result)
        # unasync: sync
        # with self._starting:
        #     if self._t is None:
        #         # A lazy Browser that never started: nothing runs, nothing to close.
        #         self._close_result = CloseResult(closed=True, raw={"started": False})
        #         return self._close_result
        # return raise_if_save_failed(self._shutdown(end_session, timeout))
        # unasync: end

    async def _shutdown(self, end_session: bool | None, timeout: float) -> CloseResult:
        assert self._t is not None
        end = self._process is not None if end_session is None else end_session
        result = CloseResult(closed=False)
        try:
            if end:
                try:
                    # unasync: async
                    async with asyncio.timeout(timeout):
                        result = await self._drive(_ops.close(timeout), closing=True)
                    # unasync: sync
                    # result = self._drive(_ops.close(timeout))
                    # unasync: end
                except BrowserError as exc:
                    if exc.code == "timeout":
                        raise TimeoutError(f"the daemon did not close within {timeout:.1f} s") from exc
                    if exc.code != "browser_closed":
                        raise
                    result = CloseResult(closed=True, raw={"error": str(exc)})
        finally:
            await self._t.close()
            if self._finalizer is not None:
                self._finalizer.detach()
            if self._dashboard is not None:
                self._dashboard.stop()
            if self._process is not None:
                await self._process.finish(timeout)
                if not result.closed:
                    result = CloseResult(closed=True, raw=result.raw)
            # unasync: sync
            # self._close_result = result
            # unasync: end
        return result

    async def _abort(self) -> None:
        self._close_result = CloseResult(closed=True)
        if self._t is not None:
            await self._t.close()
        if self._finalizer is not None:
            self._finalizer.detach()
        if self._dashboard is not None:
            self._dashboard.stop()
        if self._process is not None:
            # unasync: async
            with contextlib.suppress(TimeoutError):
                await self._process.finish(5.0)
            # unasync: sync
            # self._process.finish(5.0)
            # unasync: end

    async def __aenter__(self) -> AsyncBrowser:
        return self

    async def __aexit__(self, exc_type: type[BaseException] | None, *exc: object) -> None:
        if exc_type is None:
            await self.close()
            return
        # The body failed: close anyway, and let the body's exception be the one raised.
        with contextlib.suppress(Exception):
            await self.close()

    def __repr__(self) -> str:
        if self._t is None:
            mode = "lazy (not started)"
        else:
            mode = f"launched pid={self.pid}" if self._process is not None else "connected"
        name = f" session={clip(self._session, 64)!r}" if self._session else ""
        return f"<AsyncBrowser {mode}{name} {'closed' if self.closed else 'open'}>"

    # -- engine ------------------------------------------------------------------------

    def _scoped(self, **scope: str) -> AsyncBrowser:
        """A handle on the same session whose requests carry ``scope`` (the envelope's ``tab``
        and ``frame``): its page, locators and refs act in that tab or frame."""
        clone = copy.copy(self)
        clone._scope = {**self._scope, **scope}
        clone.page = AsyncPage(clone)
        clone.tabs = AsyncTabs(clone)
        clone._document = clone.page
        return clone

    # unasync: async
    async def _drive(self, op: Op[T], *, closing: bool = False) -> T:
        if self._root._close_result is not None or (self._root._closing is not None and not closing):
    # unasync: sync
    # def _drive(self, op: Op[T]) -> T:
    #     if self._root._close_result is not None:
    # unasync: end
            op.close()
            raise RuntimeError("this AsyncBrowser is closed")
        try:
            if self._t is None:
                await self._start()
        except BaseException:
            op.close()
            raise
        return await self._run(op, None, first=True)

    async def _run(self, op: Op[T], sent: Any, *, first: bool) -> T:
        """Drive ``op`` (from its start, or resumed with ``sent``) to its typed result; a call
        the action policy paused raises ConfirmationRequired whose ``pending`` resumes ``op``."""
        paused = False
        try:
            call = next(op) if first else op.send(sent)
            while True:
                try:
                    data = await self._call(call)
                except ConfirmationRequired as exc:
                    pending = self._pending(op, call, exc)
                    if pending is not None:
                        exc.pending = pending
                        paused = True
                    raise
                call = op.send(data)
        except StopIteration as stop:
            value: T = stop.value
            return value
        finally:
            if not paused:
                op.close()

    def _pending(self, op: Op[T], call: Call, exc: ConfirmationRequired[Any]) -> AsyncPendingAction[T] | None:
        """The continuation of ``op`` paused at ``call``: confirm replays it and resumes ``op``."""
        cid = exc.confirmation_id
        if cid is None:
            return None
        params = {"confirmationId": cid}

        async def confirm() -> T:
            try:
                out = await self._call(Call("confirm", params, ref=call.ref, budget_ms=call.budget_ms))
            except BaseException:
                op.close()
                raise
            return await self._run(op, out.get("result") if isinstance(out, Mapping) else None, first=False)

        async def deny() -> None:
            try:
                await self._call(Call("deny", params))
            finally:
                op.close()

        return AsyncPendingAction(cid, call.action, exc.data, confirm, deny)

    # unasync: async
    async def _start(self) -> None:
        """Start the owned daemon of a lazy AsyncBrowser (once, whichever coroutine calls first)."""
        async with self._starting:
            if self._t is not None:
                return
            process = await AsyncOwnedProcess.spawn(lazy_argv(find_binary(), self._options))
            self._bind(process.transport(), process, self._options)
            if self._close_result is not None:
                # close() ran while the daemon started: end it at once.
                await asyncio.shield(self._abort())
                raise RuntimeError("this AsyncBrowser is closed")
    # unasync: sync
    # def _start(self) -> None:
    #     """Start the owned daemon of a lazy Browser (once, whichever thread calls first)."""
    #     with self._starting:
    #         if self._t is not None:
    #             return
    #         if self._close_result is not None:
    #             raise RuntimeError("this Browser is closed")
    #         process = OwnedProcess(lazy_argv(find_binary(), self._options))
    #         self._bind(process.transport(), process, self._options)
    # unasync: end

    async def _call(self, call: Call) -> Any:
        assert self._t is not None
        payload = _ops.request(call, self._t.next_id(), self._options.timeout_ms, self._scope)
        raw = await self._t.request(payload, _ops.client_deadline_s(call, payload))
        if isinstance(raw, Mapping) and isinstance(raw.get("boundary"), Mapping):
            self._root._boundary = ContentBoundary.from_raw(raw["boundary"])
        if call.action not in _ops.BROWSERLESS and isinstance(raw, Mapping) and raw.get("success") is True:
            self._root._browser_used = True
        return _ops.result(call, raw, asynchronous=True, snapshot=self._snapshot)

    def _snapshot(self, raw: Mapping[str, Any]) -> Snapshot[AsyncBrowser]:
        return Snapshot.from_raw(raw, self)


class _Document(_Handle):
    """What a page and a frame share: their document's title, HTML, scripts, waits, geometry
    and identity (pyagentbrowser's document methods)."""

    #: The tab's CDP target id when this handle knows it (a tab handle, a frame listed by ``tree()``).
    _target_id: str | None = None

    async def title(self) -> str:
        """The document's title."""
        return await self._b._drive(_ops.then(g.title(), lambda out: out.title))

    async def content(self) -> str:
        """The document's whole HTML now (the outer HTML of its ``<html>`` element: a read, not a script)."""
        return await self._b._drive(_ops.then(g.html("html", outer=True, max_bytes=0), lambda out: out.html))

    async def set_content(self, html: str) -> Navigation:
        """Replace the document with ``html`` (``document.open``/``write``/``close``, as Playwright's
        ``setContent``: the URL stays) and wait for its ``load`` event (images and styles it names
        loaded); the answer's ``url``/``title`` are the document's then (``raw["readyState"]``)."""
        return await self._b._drive(_ops.set_content(html))

    async def evaluate(
        self,
        script: str | None = None,
        *,
        js: str | None = None,
        target: str | Mapping[str, Any] | Actionable[Any] | None = None,
        max_bytes: int | None = None,
    ) -> Any:
        """Evaluate a JavaScript expression (promises are awaited) in the document's page world and
        return its JSON value (values JSON cannot carry as ``{"unserializable": ...}``); a result
        over ``max_bytes`` of JSON (default 1 MiB) raises BrowserError with code
        ``result_too_large``.  With ``target`` (a ref, selector or locator matching one element)
        the script is a function called with that element (``"(el) => el.textContent"``); a
        stale ref raises ``stale_ref`` and nothing runs.  ``js=`` is the same parameter under our
        older name."""
        code = alias_required("evaluate()", "script", script, "js", js)
        built = g.eval(code, ref=_ops.wire_target(target), max_bytes=max_bytes)
        return await self._b._drive(_ops.then(built, lambda out: out.result))

    async def geometry(self, selector: str | Actionable[Any] | None = None) -> ElementGeometry:
        """The geometry of the document (no selector) or of one element: its box, client and
        scroll sizes (``overflows_x``/``overflows_y``). An empty selector raises ValueError."""
        built = g.geometry(selector=_ops.wire_target(selector))
        return await self._b._drive(_ops.then(built, ElementGeometry.from_wire))

    async def wait_for_text(self, text: str, *, timeout_ms: int | None = None) -> WaitResult:
        """Wait until ``text`` appears in the document."""
        return await self._b._drive(_ops.wait(Wait.text(text, timeout_ms=timeout_ms), None))

    async def wait_for_selector(
        self,
        selector: str | Locator[AsyncBrowser] | None = None,
        *,
        target: str | Locator[AsyncBrowser] | None = None,
        state: SelectorState = "visible",
        timeout_ms: int | None = None,
    ) -> WaitResult:
        """Wait until what ``selector`` matches (a CSS selector, an XPath or a ``find`` locator)
        reaches ``state``: ``visible`` (any match visible), ``hidden`` (none visible), ``attached``
        (any match) or ``detached`` (none); see :meth:`Wait.selector`.  ``target=`` is the same
        parameter under our older name."""
        what = alias_required("wait_for_selector()", "selector", selector, "target", target)
        return await self._b._drive(_ops.wait(Wait.selector(what, state=state, timeout_ms=timeout_ms), None))

    async def wait_for_url(self, pattern: str, *, timeout_ms: int | None = None) -> WaitResult:
        """Wait until the document's URL matches ``pattern`` (a glob with ``*``, else the whole URL
        or a part of it: the rule of ``Wait.url``)."""
        return await self._b._drive(_ops.wait(Wait.url(pattern, timeout_ms=timeout_ms), None))

    async def wait_for_function(
        self, predicate: str | None = None, *, js: str | None = None, timeout_ms: int | None = None
    ) -> WaitResult:
        """Wait until the JavaScript function (or expression) ``predicate`` returns a truthy value
        in the document; an exception in it raises ``BrowserError`` (``js_error``) with the page's
        message.  ``js=`` is the same parameter under our older name."""
        code = alias_required("wait_for_function()", "predicate", predicate, "js", js)
        return await self._b._drive(_ops.wait(Wait.function(code, timeout_ms=timeout_ms), None))

    async def wait_for_load_state(self, state: LoadState = "load", *, timeout_ms: int | None = None) -> WaitResult:
        """Wait until the document reached the load state ``state`` (``load``, ``domcontentloaded``
        or ``networkidle``; ``none``, pyagentbrowser's, returns at once)."""
        return await self._b._drive(_ops.wait(Wait.loaded(state, timeout_ms=timeout_ms), None))

    async def ready(self, *, min_text_length: int = 1, timeout_ms: int | None = None) -> WaitResult:
        """Wait until the document has rendered text (at least ``min_text_length`` characters, its
        shadow roots and frames included, as the snapshot shows them)."""
        return await self._b._drive(_ops.wait(Wait.ready(min_text_length, timeout_ms=timeout_ms), None))

    @property
    def target_id(self) -> str | None:
        """The CDP target id of the document's tab when this handle knows it (a handle from
        ``tabs.get()``, a frame from ``frames.tree()``); None for ``browser.page``, which follows
        the active tab (``tabs.list()`` says which)."""
        return self._target_id

    @property
    def frame_id(self) -> str | None:
        """The frame's id; None for a page (its main document)."""
        return self._b._scope.get("frame")

    @property
    def frame_name(self) -> str:
        """The frame's ``name`` attribute ("" for a page)."""
        return ""

    @property
    def frame_url(self) -> str:
        """The frame's URL when it was listed ("" for a page)."""
        return ""

    @property
    def parent_frame_id(self) -> str | None:
        """The parent frame's id (None for a page)."""
        return None

    @property
    def scope(self) -> DocumentScope:
        """The identity of this document: tab target id, frame id, URL when listed, and the
        generation of the newest snapshot this client received (0 before any)."""
        return DocumentScope(self.target_id, self.frame_id, self.frame_url or None, self._b._root._held.newest())


class AsyncPage(_Document, AsyncPageCommands):
    """The active tab of an :class:`AsyncBrowser`."""

    def __init__(self, browser: AsyncBrowser) -> None:
        self._b = browser
        #: Screenshots and PDF of this tab.
        self.capture = AsyncCapture(browser)
        #: Live locators and selectors: ``page.find.role("button", name="Save").click()``.
        self.find: Finder[AsyncBrowser] = Finder(browser)
        #: Low-level key events on the focused element.
        self.keyboard = AsyncKeyboard(browser)
        #: The low-level mouse pointer.
        self.mouse = AsyncMouse(browser)
        #: Scrolling of the page or a container: ``page.scroll.down()``, ``page.scroll.by(y=200)``.
        self.scroll = AsyncScroll(browser)
        #: The frames of this tab: ``page.frames.tree()``, ``page.frames.get(name="pay")``.
        self.frames = AsyncFrames(browser)
        #: The web storage of this tab's origin: ``page.storage.get(key, area="local")``.
        self.storage = AsyncStorage(browser)
        #: The request log of this tab and the session's HAR recording: ``page.network.requests()``.
        self.network = AsyncNetwork(browser)
        #: The tools this tab's pages registered with WebMCP: ``page.webmcp.list()``, ``invoke(tool, params)``.
        self.webmcp = AsyncWebMCP(browser)

    async def open(self, url: str, wait_until: NavigationLoadState = "load") -> Navigation:
        """Navigate to ``url``; ``wait_until`` is ``load``, ``domcontentloaded`` or ``networkidle``."""
        return await self._b._drive(_ops.navigate(g.open, wait_until, url))

    async def url(self) -> str:
        """The page URL."""
        return await self._b._drive(_ops.then(g.url(), lambda out: out.url))

    async def html(self, target: str | Actionable[Any], *, outer: bool = False, max_bytes: int | None = None) -> str:
        """The inner HTML (``outer=True``: outer) of the one element a ref, CSS selector, XPath or
        Locator names (several matches raise AmbiguousTargetError), cut at ``max_bytes``."""
        built = g.html(_ops.wire_target(target), outer=bool(outer), max_bytes=max_bytes)
        return await self._b._drive(_ops.then(built, lambda out: out.html))

    async def count(self, selector: str | Locator[Any]) -> int:
        """How many elements a CSS selector, an XPath or a Locator matches."""
        if isinstance(selector, Ref):
            raise TypeError("count() takes a CSS selector, an XPath or a Locator, not a Ref")
        return await self._b._drive(_ops.then(g.count(_ops.wire_target(selector)), lambda out: out.count))

    async def box(self, target: str | Actionable[Any]) -> BoundingBox:
        """The border box of the one element ``target`` names, in viewport CSS pixels."""
        return await self._b._drive(_ops.then(g.box(_ops.wire_target(target)), BoundingBox.from_wire))

    async def styles(self, target: str | Actionable[Any], props: Sequence[str] | None = None) -> dict[str, str]:
        """Computed styles of ``target``: exactly ``props`` (an unknown name raises BrowserError
        ``invalid_argument``), or the engine's default set (display, visibility, position, size,
        colors, font...)."""
        built = g.styles(_ops.wire_target(target), props=props)
        return await self._b._drive(_ops.then(built, lambda out: dict(out.styles)))

    async def drag(
        self, source: str | Actionable[Any], target: str | Actionable[Any], *, wait: Wait | None = None
    ) -> ActionResult[AsyncBrowser]:
        """Drag ``source`` onto ``target`` (refs, selectors, XPaths or Locators) with real input:
        HTML5 drag and drop or pointer events; the evidence of an action on the source."""
        return await self._b._drive(_ops.drag(self._b, source, target, wait))

    async def read(
        self,
        url: str | None = None,
        *,
        mode: ReadMode | None = None,
        filter: str | None = None,
        timeout_ms: int | None = None,
        headers: Mapping[str, str] | None = None,
        cookies: bool = False,
        max_chars: int | None = None,
        render: bool = False,
        allowed_domains: Sequence[str] | None = None,
    ) -> ReadResult:
        """Read a page as Markdown for an agent.

        With ``url``: an HTTP fetch that launches no browser; the server's Markdown when it
        has it (``Accept: text/markdown``, then the URL with ``.md``), else the main content of
        its HTML converted to Markdown.  Without: the active tab's rendered DOM.  ``mode``
        (:class:`ReadMode`) picks the raw body, the outline or llms.txt; ``filter`` keeps the
        heading sections whose heading contains it; ``max_chars`` bounds the content (default
        100000, 0 = no limit; ``truncated`` says when it cut); ``timeout_ms`` (default 10000)
        covers the whole read; ``headers`` and ``cookies=True`` (the session browser's cookies)
        are sent only when given.  ``render=True`` reads ``url`` as the session's browser renders
        it (a page JavaScript renders), in a tab of its own that is closed afterwards (a
        navigation for the action policy).  HTML that is scripts and almost no text reads as
        nearly empty without it: ``raw["warnings"]`` says so (and every other warning of the read).
        ``allowed_domains`` (host patterns such as ``example.com``, ``*.example.com``) bounds this
        read besides the session's allowed domains: the URL and every redirect of a fetch, the
        page a ``render`` ends on, the active tab's URL; leaving them raises ``BrowserError``
        (``domain_not_allowed``).
        """
        if isinstance(allowed_domains, str):
            raise TypeError("read() allowed_domains must be a sequence of host patterns, not a string")
        mode = mode if mode is not None else ReadMode()
        if not isinstance(mode, ReadMode):
            raise TypeError(f"read() mode must be a ReadMode or None, got {type(mode).__name__}")
        if render is True and url is None:
            raise ValueError("read() render needs a url: the active tab is read as the browser rendered it already")
        built = g.read(
            url=url,
            raw=mode.raw or None,
            require_markdown=mode.require_markdown or None,
            llms=mode.llms,
            outline=mode.outline or None,
            filter=filter,
            max_chars=max_chars,
            timeout_ms=timeout_ms,
            headers=headers or None,
            cookies=flag(cookies),
            render=flag(render),
            allowed_domains=None if allowed_domains is None else list(allowed_domains),
        )
        budget = timeout_ms if isinstance(timeout_ms, int) else 10_000
        return await self._b._drive(_ops.decoded(built, ReadResult.from_wire, budget_ms=budget))

    async def back(self, wait_until: NavigationLoadState | None = None) -> Navigation:
        """Go back one history entry."""
        return await self._b._drive(_ops.navigate(g.back, wait_until))

    async def forward(self, wait_until: NavigationLoadState | None = None) -> Navigation:
        """Go forward one history entry."""
        return await self._b._drive(_ops.navigate(g.forward, wait_until))

    async def reload(self, wait_until: NavigationLoadState | None = None) -> Navigation:
        """Reload the page."""
        return await self._b._drive(_ops.navigate(g.reload, wait_until))

    async def observe(self, spec: SnapshotSpec | None = None, *, delta: bool = False) -> Snapshot[AsyncBrowser]:
        """Capture an accessibility snapshot (default SnapshotSpec: interactive elements).

        ``delta=True``: the engine sends only what changed since its last snapshot of the same
        spec in this tab; the SDK rebuilds the whole text and refs from that base, and
        ``Snapshot.delta`` says what changed.
        """
        return await self._b._drive(_ops.observe(self._b, spec, delta))

    async def upload(
        self,
        target: str | Ref[Any] | None,
        files: str | os.PathLike[str] | Sequence[str | os.PathLike[str]],
        *,
        wait: Wait | None = None,
    ) -> ActionResult[AsyncBrowser]:
        """Set files on a file input: ``target`` is its ref, or the ref of the button or label that
        stands for a hidden one; ``None`` answers the file chooser an action opened. Paths are
        made absolute; a missing file raises and nothing is set."""
        return await self._b._drive(_ops.upload(self._b, target, files, wait))

    async def cancel_file_chooser(self, *, wait: Wait | None = None) -> ActionResult[AsyncBrowser]:
        """Cancel the file chooser an action opened, as a user's Cancel does: its input fires its
        ``cancel`` event (no ``change``) and keeps the files it held. With none open it raises
        BrowserError (``invalid_argument``)."""
        return await self._b._drive(_ops.cancel_file_chooser(self._b, wait))

    async def download(
        self, target: str | Ref[Any], path: str | os.PathLike[str], *, timeout_ms: int | None = None
    ) -> Download:
        """Click ``target``, wait for the download it starts, and move the complete file to ``path``
        (a file, or a directory for its suggested filename)."""
        return await self._b._drive(_ops.download(target, path, timeout_ms))

    async def wait_for_download(
        self, path: str | os.PathLike[str] | None = None, *, timeout_ms: int | None = None
    ) -> Download:
        """Wait for the next download (or a complete one not yet claimed) and move it to ``path``
        if given (else it stays in the download directory under its suggested filename)."""
        return await self._b._drive(_ops.wait_for_download(path, timeout_ms))

    async def press(self, key: str, *, wait: Wait | None = None) -> ActionResult[AsyncBrowser]:
        """Press a key (``Enter``, ``Tab``, ``Control+a``…) in the focused element."""
        return await self._b._drive(_ops.act(self._b, g.press(key), wait))

    async def wait(self, condition: Wait | None = None, *, ms: int | None = None) -> WaitResult:
        """Wait for a condition, or for ``ms`` milliseconds."""
        return await self._b._drive(_ops.wait(condition, ms))



class AsyncKeyboard(_Handle):
    """Low-level key events on the active tab's focused element; each returns an ``ActionResult``
    with its evidence (``wait=`` as for ``press``). Modifiers held with :meth:`down` apply to
    later keys and mouse input until :meth:`up`."""

    async def press(self, key: str, *, wait: Wait | None = None) -> ActionResult[AsyncBrowser]:
        """Press a key (``Enter``, ``Tab``, ``Control+a``…) in the focused element (``page.press``)."""
        return await self._b._drive(_ops.act(self._b, g.press(key), wait))

    async def type(self, text: str, *, wait: Wait | None = None) -> ActionResult[AsyncBrowser]:
        """Type ``text`` with one key event per character."""
        return await self._b._drive(_ops.keyboard_text(self._b, g.keyboard_type, text, wait))

    async def insert_text(self, text: str, *, wait: Wait | None = None) -> ActionResult[AsyncBrowser]:
        """Insert ``text`` at once without key events (like an IME or a paste)."""
        return await self._b._drive(_ops.keyboard_text(self._b, g.keyboard_insert_text, text, wait))

    async def down(
        self, key: str, *, code: str | None = None, text: str | None = None, wait: Wait | None = None
    ) -> ActionResult[AsyncBrowser]:
        """Press one key (``"Shift"``, ``"a"``, ``"Enter"``) and hold it; ``code`` (the DOM code,
        such as ``"KeyA"``) and ``text`` (what it types) replace the key's own."""
        return await self._b._drive(_ops.act(self._b, g.keyboard_down(key, code=code, text=text), wait))

    async def up(self, key: str, *, code: str | None = None, wait: Wait | None = None) -> ActionResult[AsyncBrowser]:
        """Release a held key (``code``: the DOM code its event reports)."""
        return await self._b._drive(_ops.act(self._b, g.keyboard_up(key, code=code), wait))

    async def dispatch(
        self,
        event_type: str,
        *,
        key: str | None = None,
        code: str | None = None,
        text: str | None = None,
        wait: Wait | None = None,
    ) -> ActionResult[AsyncBrowser]:
        """Dispatch one raw key event (CDP ``Input.dispatchKeyEvent``): ``event_type`` is
        ``keyDown``, ``keyUp``, ``rawKeyDown`` or ``char`` (which needs ``text``); a key name sets
        its code and key code, ``code`` and ``text`` replace them.  Held modifiers apply."""
        built = g.keyboard_dispatch(event_type, key=key, code=code, text=text)
        return await self._b._drive(_ops.act(self._b, built, wait))


class AsyncMouse(_Handle):
    """The active tab's low-level mouse pointer at viewport points in CSS pixels; each call
    returns an ``ActionResult`` with its evidence. A held button makes :meth:`move` drag."""

    async def move(self, x: float, y: float, *, wait: Wait | None = None) -> ActionResult[AsyncBrowser]:
        """Move the pointer to ``(x, y)``."""
        return await self._b._drive(_ops.act(self._b, g.mouse_move(x, y), wait))

    async def down(self, button: str = "left", *, wait: Wait | None = None) -> ActionResult[AsyncBrowser]:
        """Press ``button`` (``left``, ``right``, ``middle``) at the pointer."""
        return await self._b._drive(_ops.act(self._b, g.mouse_down(button=button), wait))

    async def up(self, button: str = "left", *, wait: Wait | None = None) -> ActionResult[AsyncBrowser]:
        """Release ``button`` at the pointer."""
        return await self._b._drive(_ops.act(self._b, g.mouse_up(button=button), wait))

    async def dispatch(
        self,
        event_type: str,
        *,
        x: float = 0,
        y: float = 0,
        button: str = "none",
        click_count: int | None = None,
        delta_x: float | None = None,
        delta_y: float | None = None,
        wait: Wait | None = None,
    ) -> ActionResult[AsyncBrowser]:
        """Dispatch one raw mouse event at the viewport point ``(x, y)`` (CDP
        ``Input.dispatchMouseEvent``): ``event_type`` is ``mouseMoved``, ``mousePressed``,
        ``mouseReleased`` or ``mouseWheel`` (``delta_x``/``delta_y``); a press or release needs a
        ``button`` (``left``, ``right``, ``middle``; ``none`` for others), ``click_count``
        defaults to 1 for them.  The pointer moves there; a press holds its button."""
        built = g.mouse_dispatch(
            event_type,
            x,
            y,
            button=None if button == "none" else button,
            click_count=click_count,
            delta_x=delta_x,
            delta_y=delta_y,
        )
        return await self._b._drive(_ops.act(self._b, built, wait))

    async def wheel(
        self,
        dx: float | None = None,
        dy: float | None = None,
        *,
        delta_x: float | None = None,
        delta_y: float | None = None,
        x: float | None = None,
        y: float | None = None,
        wait: Wait | None = None,
    ) -> ActionResult[AsyncBrowser]:
        """Scroll by ``(dx, dy)`` CSS pixels at the pointer (positive: right, down).  pyagentbrowser's
        form: ``delta_x=``/``delta_y=`` (neither given: 0 and 100) and the point ``x=``/``y=`` the
        pointer moves to first; ``dx`` without ``dy`` is a TypeError (theirs reads one positional
        number as ``delta_y``: pass it by keyword)."""
        moved = _ops.wheel_deltas(dx, dy, delta_x, delta_y)
        built = g.mouse_wheel(*moved)
        if x is None and y is None:
            return await self._b._drive(_ops.act(self._b, built, wait))
        return await self._b._drive(_ops.move_then(g.mouse_move(x or 0, y or 0), _ops.act(self._b, built, wait)))


class AsyncCapture(_Handle):
    """Captures of the active tab: screenshots (with ref annotations, or only if changed) and PDF.

    Files are written by the engine; a relative path is resolved against this process's
    working directory, and answered as given (as pyagentbrowser answers it: relative to that
    directory; ``screenshot.path.resolve()`` makes it absolute).  Without ``path`` (and ``output_dir``) the screenshot goes to a new
    file in ``$TMPDIR/agentbrowser-screenshots/``.
    """

    async def screenshot(
        self,
        path: str | os.PathLike[str] | None = None,
        *,
        selector: str | Ref[Any] | None = None,
        full_page: bool = False,
        annotate: bool = False,
        output_dir: str | os.PathLike[str] | None = None,
        format: str | None = None,
        quality: int | None = None,
        wait_ms: int = 0,
    ) -> Screenshot:
        """Capture the viewport, the whole page (``full_page``) or one element (``selector``: a CSS
        selector matching exactly one element, a ref id or a :class:`Ref`) to an image file.

        ``format`` is ``png``, ``jpeg`` or ``webp`` (default: from the path's extension, else
        png); ``quality`` 0-100 for jpeg and webp.  ``annotate`` draws each ref's box and
        number (``[12]`` is ``e12``) and fills :attr:`Screenshot.annotations`.  ``wait_ms``
        waits that long first (pyagentbrowser's default is 100; ours 0).
        """
        call = _ops.screenshot_params(path, selector, full_page, annotate, output_dir, format, quality)
        return await self._b._drive(_ops.after(wait_ms, _ops.screenshot(call)))

    async def screenshot_if_changed(
        self,
        path: str | os.PathLike[str] | None = None,
        *,
        selector: str | Ref[Any] | None = None,
        full_page: bool = False,
        annotate: bool = False,
        output_dir: str | os.PathLike[str] | None = None,
        format: str | None = None,
        quality: int | None = None,
        threshold: float = 0.0,
        wait_ms: int = 0,
    ) -> ScreenshotObservation:
        """Like :meth:`screenshot`, but compared with the last screenshot of the same scope in this
        tab: when at most ``threshold`` (0-1) of the pixels changed, no file is written and
        ``screenshot`` is None.  The first capture of a scope counts as changed.
        """
        call = _ops.screenshot_params(path, selector, full_page, annotate, output_dir, format, quality)
        return await self._b._drive(_ops.after(wait_ms, _ops.screenshot_if_changed(call, threshold)))

    async def pdf(
        self,
        path: str | os.PathLike[str] | None = None,
        *,
        print_background: bool = True,
        landscape: bool = False,
        prefer_css_page_size: bool = False,
    ) -> Path:
        """Print the page to a PDF file (headless browsers only) and return its path: ``path`` as
        given (a relative one is relative to this process's working directory, as
        pyagentbrowser answers it), or a new temporary file's absolute path without ``path``."""
        shown: str | None = None
        if path is None:
            fd, target = tempfile.mkstemp(prefix="agentbrowser-", suffix=".pdf")
            os.close(fd)
        else:
            target, shown = _ops.named_path("path", path)
        built = g.pdf(
            target,
            print_background=bool(print_background),
            landscape=bool(landscape),
            prefer_css_page_size=bool(prefer_css_page_size),
        )
        return await self._b._drive(_ops.then(built, lambda out: _ops.answered_path(out.path, target, shown)))


class AsyncTabs(_Handle):
    """The tabs of a :class:`AsyncBrowser`, by stable id (``t1``, ``t2``…) or label."""

    async def list(self) -> tuple[TabInfo, ...]:
        """Every open tab."""
        return await self._b._drive(_ops.tab_list())

    async def new(self, url: str | None = None, *, label: str | None = None) -> TabInfo:
        """Open a tab (about:blank by default), optionally with a unique ``label``; it becomes active."""
        return await self._b._drive(_ops.decoded(g.tab_new(url=url, label=label), TabInfo.from_wire))

    async def open(
        self, url: str, *, label: str | None = None, reuse: bool = True, wait_until: NavigationLoadState = "load"
    ) -> TabInfo:
        """With ``reuse`` and a tab labelled ``label``: switch to it and navigate it to ``url``;
        otherwise open a new tab at ``url`` (with that label)."""
        return await self._b._drive(_ops.tab_open(url, label, reuse, wait_until))

    async def get(self, *, id: str | None = None, label: str | None = None, index: int | None = None) -> AsyncPage:
        """A page handle bound to one tab (by tab id or CDP target id, label, or index N = ``tN``):
        its commands run in that tab even when another one is active (the browser shows it while
        an action, navigation, script, screenshot or wait runs there). LookupError when none matches."""
        tab = await self._b._drive(_ops.tab_find(id, label, index))
        page = self._b._scoped(tab=tab.id).page
        page._target_id = tab.target_id
        return page

    async def switch(
        self,
        tab: str | TabInfo | None = None,
        *,
        id: str | None = None,
        label: str | None = None,
        index: int | None = None,
    ) -> TabSwitchResult:
        """Make a tab active: positional id/label/TabInfo, or one of ``id=``, ``label=``, ``index=``."""
        sel = _ops.tab_selector("tabs.switch()", tab, id, label, index)
        if sel is None:
            raise TypeError("tabs.switch() needs a tab id such as 't2', a TabInfo, or id=, label=, index=")
        return await self._b._drive(_ops.raw(g.tab_switch(sel), TabSwitchResult.from_raw))

    async def close(
        self,
        tab: str | TabInfo | None = None,
        *,
        id: str | None = None,
        label: str | None = None,
        index: int | None = None,
    ) -> TabCloseResult:
        """Close a tab (default: the active one): positional, or ``id=``, ``label=``, ``index=``."""
        sel = _ops.tab_selector("tabs.close()", tab, id, label, index)
        return await self._b._drive(_ops.raw(g.tab_close(tab=sel or None), TabCloseResult.from_raw))


class AsyncEmulation(_Handle):
    """Emulation of a :class:`AsyncBrowser`: session settings applied to every tab, including tabs
    opened later. Each method returns the session's :class:`~agentbrowser.EmulationSettings`."""

    async def viewport(
        self, width: int | None = None, height: int | None = None, *, device_scale_factor: float = 1.0, mobile: bool = False
    ) -> EmulationSettings:
        """Emulate a viewport in CSS pixels in every tab (also tabs opened later); no size resets it."""
        if width is None and height is None:
            built = g.set_viewport()
        else:
            built = g.set_viewport(width=width, height=height, device_scale_factor=device_scale_factor, mobile=flag(mobile))
        return await self._b._drive(_ops.then(built, EmulationSettings.from_wire))

    async def device(self, name: str | None) -> EmulationSettings:
        """Emulate a device of :meth:`devices` (viewport, scale, mobile, touch, user agent); None resets it.
        An unknown name raises BrowserError (``invalid_argument``) listing close names."""
        return await self._b._drive(_ops.then(g.set_device(name=name), EmulationSettings.from_wire))

    async def devices(self) -> tuple[Device, ...]:
        """The device table :meth:`device` knows."""
        return await self._b._drive(_ops.then(g.devices(), lambda out: tuple(Device.from_wire(d) for d in out.devices)))

    async def media(
        self,
        *,
        color_scheme: ColorScheme | None = None,
        reduced_motion: ReducedMotion | None = None,
        media: MediaType | None = None,
        features: Mapping[str, str] | None = None,
    ) -> EmulationSettings:
        """Emulate CSS media (``prefers-color-scheme``, ``prefers-reduced-motion``, print or screen,
        and other ``features`` by name, such as ``{"prefers-contrast": "more"}``: merged into those
        set, an empty value drops one); none given resets them."""
        wanted = None if features is None else [{"name": k, "value": v} for k, v in features.items()]
        built = g.set_media(color_scheme=color_scheme, reduced_motion=reduced_motion, media=media, features=wanted)
        return await self._b._drive(_ops.then(built, EmulationSettings.from_wire))

    async def user_agent(self, value: str | None) -> EmulationSettings:
        """Override the user agent (``navigator.userAgent`` and the request header); None resets it."""
        return await self._b._drive(_ops.then(g.set_user_agent(user_agent=value), EmulationSettings.from_wire))

    async def timezone(self, timezone_id: str | None = None, *, id: str | None = None) -> EmulationSettings:
        """Override the time zone with an IANA id (``Europe/Berlin``); None resets it; an unknown id is
        ``invalid_argument``.  ``id=`` is the same parameter under our older name."""
        zone = alias("emulation.timezone()", "timezone_id", timezone_id, "id", id)
        return await self._b._drive(_ops.then(g.set_timezone(timezone=zone), EmulationSettings.from_wire))

    async def headers(self, headers: Mapping[str, str], *, origin: str | None = None) -> tuple[str, ...]:
        """Send these extra HTTP headers with every request (``network.headers``, pyagentbrowser's
        place for it); answers the header names set."""
        return await self._b.network.headers(headers, origin=origin)

    async def locale(self, locale: str | None) -> EmulationSettings:
        """Override the locale (``navigator.language``, ``Intl``, ``Accept-Language``); None resets it."""
        return await self._b._drive(_ops.then(g.set_locale(locale=locale), EmulationSettings.from_wire))

    async def geolocation(
        self, latitude: float | None, longitude: float | None, *, accuracy: float | None = None
    ) -> EmulationSettings:
        """Emulate a position for ``navigator.geolocation`` (granting the permission); None, None resets it."""
        built = g.set_geolocation(latitude=latitude, longitude=longitude, accuracy=accuracy)
        return await self._b._drive(_ops.then(built, EmulationSettings.from_wire))

    async def permissions(self, permissions: Sequence[str] | None, *, origin: str | None = None) -> EmulationSettings:
        """Grant permissions (``["geolocation", "notifications"]``) for every origin or ``origin`` and deny
        the others; None or ``[]`` resets every permission."""
        if permissions is None or (
            isinstance(permissions, Sequence) and not isinstance(permissions, str) and not permissions
        ):
            if origin is not None:
                raise ValueError("emulation.permissions() origin needs permissions to grant")
            built = g.set_permissions(clear=True)
        else:
            built = g.set_permissions(permissions=permissions, origin=origin)
        return await self._b._drive(_ops.then(built, EmulationSettings.from_wire))

    async def offline(self, enabled: bool = True) -> EmulationSettings:
        """Take every tab offline (its requests fail), or back online with ``enabled=False``."""
        return await self._b._drive(_ops.then(g.set_offline(enabled), EmulationSettings.from_wire))

    async def throttle(
        self,
        preset: str | None = None,
        *,
        latency_ms: int | None = None,
        download_kbps: int | None = None,
        upload_kbps: int | None = None,
        off: bool = False,
    ) -> EmulationSettings:
        """Throttle every tab's network (also tabs opened later; kept with ``offline()``): a
        preset (``slow-3g``, ``fast-3g``, ``fast-4g``) or the added latency in ms and the largest
        rates in kbit/s; ``off=True`` stops it."""
        built = g.set_throttle(
            preset=preset, latency_ms=latency_ms, download_kbps=download_kbps, upload_kbps=upload_kbps, off=flag(off)
        )
        return await self._b._drive(_ops.then(built, EmulationSettings.from_wire))

    async def settings(self) -> EmulationSettings:
        """The session's emulation and init scripts."""
        return await self._b._drive(_ops.then(g.settings(), EmulationSettings.from_wire))


class AsyncScripts(_Handle):
    """Scripts of a :class:`AsyncBrowser`: init scripts every new document of every tab runs before its
    own scripts (also tabs opened later), and scripts or styles added to the active page now.
    Each method takes exactly one source, else ValueError."""

    async def add_init(self, script: str | None = None, *, path: str | os.PathLike[str] | None = None) -> str:
        """Add an init script (source, or a file at ``path``); returns its id (``"init-script-1"``)."""
        if path is not None and not isinstance(path, (str, os.PathLike)):
            raise TypeError(f"scripts.add_init() path must be a str or path, got {type(path).__name__}")
        built = g.add_init_script(script=script, path=None if path is None else os.path.abspath(os.fspath(path)))
        return await self._b._drive(_ops.then(built, lambda out: out.id))

    async def remove_init(self, identifier: str) -> tuple[str, ...]:
        """Remove an init script by id; returns the ids left. An unknown id is ``not_found`` listing the known ones."""
        return await self._b._drive(_ops.then(g.remove_init_script(identifier), lambda out: tuple(out.remaining)))

    async def add(self, script: str | None = None, *, url: str | None = None) -> Injection:
        """Run a script in the active page now (source, or ``url``: waits until it loaded; a load error raises)."""
        return await self._b._drive(_ops.then(g.add_script(script=script, url=url), Injection.from_wire))

    async def add_style(self, content: str | None = None, *, url: str | None = None) -> Injection:
        """Add CSS to the active page now (source, or a style sheet ``url``: a load error raises)."""
        return await self._b._drive(_ops.then(g.add_style(content=content, url=url), Injection.from_wire))


class AsyncScroll(_Handle):
    """Scrolling of the active tab's page or of a container (``selector``); each call answers
    a :class:`ScrollResult` with the positions before and after (``moved`` False when nothing
    could scroll), not an action's snapshots."""

    @property
    def page(self) -> AsyncPage | AsyncFrame:
        """The page or frame handle whose scrolling these are."""
        return self._b._document

    async def by(self, x: float = 0, y: float = 0, selector: str | Actionable[Any] | None = None) -> ScrollResult:
        """Scroll by ``x``, ``y`` CSS pixels (positive: right, down); non-finite offsets raise ValueError."""
        return await self._b._drive(_ops.scroll(None, None, x, y, selector))

    async def up(self, px: int = 300, selector: str | Actionable[Any] | None = None) -> ScrollResult:
        """Scroll up by ``px`` (1 to 1000000)."""
        return await self._b._drive(_ops.scroll("up", px, 0, 0, selector))

    async def down(self, px: int = 300, selector: str | Actionable[Any] | None = None) -> ScrollResult:
        """Scroll down by ``px`` (1 to 1000000)."""
        return await self._b._drive(_ops.scroll("down", px, 0, 0, selector))

    async def left(self, px: int = 300, selector: str | Actionable[Any] | None = None) -> ScrollResult:
        """Scroll left by ``px`` (1 to 1000000)."""
        return await self._b._drive(_ops.scroll("left", px, 0, 0, selector))

    async def right(self, px: int = 300, selector: str | Actionable[Any] | None = None) -> ScrollResult:
        """Scroll right by ``px`` (1 to 1000000)."""
        return await self._b._drive(_ops.scroll("right", px, 0, 0, selector))


class AsyncNetwork(_Handle):
    """Request interception of a :class:`AsyncBrowser`, for every tab (also tabs opened later), frame
    and worker of the session: routes (answer, abort, or continue with changed headers), extra
    request headers and HTTP credentials. URL patterns (one rule for routes, ``requests`` and
    ``Wait.url``): with ``*`` or ``{`` a glob over the whole URL (``*`` within a path segment,
    ``**`` across segments, ``{a,b}`` either); without, the whole URL when it has a scheme,
    otherwise a part of the URL. Also the active tab's request log
    (bounded, from the tab's first request; also its iframes' and the popups it opened) and the
    session's HAR recording."""

    async def route(
        self,
        url: str | None = None,
        *,
        url_glob: str | None = None,
        abort: bool | str = False,
        response: RouteResponse | Mapping[str, Any] | None = None,
        status: int | None = None,
        body: str | bytes | None = None,
        content_type: str | None = None,
        headers: Mapping[str, str] | None = None,
        resource_type: str | None = None,
        resource_types: Sequence[str] | None = None,
        times: int | None = None,
        set_headers: Mapping[str, str] | None = None,
        continue_request: bool = False,
        remove_headers: Sequence[str] | None = None,
    ) -> Route:
        """Route the requests matching ``url`` (a URL pattern): ``abort`` (True or a reason such as
        ``"connectionrefused"``) fails them; ``set_headers`` or ``remove_headers`` (or
        ``continue_request=True``) sends them on with those request headers set or taken out; otherwise they are answered with ``response`` (a
        :class:`RouteResponse` or mapping) or ``status``/``body``/``content_type``/``headers``.
        ``resource_type(s)`` limit it (``"fetch"``, ``"document"``...), ``times`` removes it after
        N matches. A route with the same glob and types replaces the old one. Returns the route.
        ``url_glob=`` is the same parameter as ``url`` under our older name."""
        glob = alias_required("network.route()", "url", url, "url_glob", url_glob)
        return await self._b._drive(
            _ops.network_route(
                glob, abort=abort, response=response, status=status, body=body, content_type=content_type,
                headers=headers, resource_type=resource_type, resource_types=resource_types, times=times,
                set_headers=set_headers, continue_request=continue_request, remove_headers=remove_headers,
            )
        )

    async def unroute(self, url: str | None = None) -> tuple[Route, ...]:
        """Remove the routes with glob ``url`` (every route when None); returns those removed, with their hits."""
        return await self._b._drive(_ops.listed(g.network_unroute(url=url), "removed", Route.from_wire))

    async def routes(self) -> tuple[Route, ...]:
        """The session's routes, newest first (the order they are tried in), with hits and times left."""
        return await self._b._drive(_ops.listed(g.network_routes(), "routes", Route.from_wire))

    async def headers(self, headers: Mapping[str, str], *, origin: str | None = None) -> tuple[str, ...]:
        """Send ``headers`` with every request (or only requests to ``origin``); ``{}`` clears them.
        Returns the header names now set for that scope."""
        return await self._b._drive(_ops.then(g.set_headers(headers, origin=origin), lambda out: tuple(out.names)))

    async def credentials(self, username: str | None, password: str | None) -> None:
        """Answer HTTP authentication challenges (Basic, Digest) with these credentials, once per
        request (a refused answer is not retried); ``None, None`` clears them."""
        if username is None and password is None:
            await self._b._drive(_ops.done(g.set_credentials(clear=True)))
            return
        if not isinstance(username, str) or not isinstance(password, str):
            raise TypeError("network.credentials() takes a str username and a str password (or None, None to clear)")
        await self._b._drive(_ops.done(g.set_credentials(username=username, password=password)))

    async def requests(
        self,
        *,
        clear: bool = False,
        url_pattern: str | None = None,
        resource_type: str | Sequence[str] | None = None,
        method: str | None = None,
        status: str | int | None = None,
        limit: int | None = None,
    ) -> RequestLog:
        """The requests, oldest first (the newest ``limit``, default 100): ``url_pattern`` is a
        URL pattern (a glob, a whole URL, or without wildcard and scheme a URL part),
        ``resource_type`` one type or several
        (``xhr``, ``fetch``, ``document``, ...), ``status`` ``200``, ``"2xx"`` or ``"400-499"``;
        ``clear`` empties the log after this read."""
        types = [resource_type] if isinstance(resource_type, str) else resource_type
        if types is not None:
            for t in types:  # the docs promise this ValueError before anything is sent
                if not isinstance(t, str) or t.lower() not in RESOURCE_TYPES:
                    raise ValueError(f"resource_type must be among {', '.join(RESOURCE_TYPES)}; got {t!r}")
            types = [t.lower() for t in types]
        if isinstance(status, int) and not isinstance(status, bool):
            status = str(status)  # 200 is "200"; a bool stays one (TypeError)
        built = g.network_requests(
            clear=flag(clear), filter=url_pattern, type=types, method=method, status=cast(str, status), limit=limit
        )
        return await self._b._drive(_ops.decoded(built, RequestLog.from_wire))

    async def request_detail(self, request_id: str, *, max_bytes: int | None = None) -> RequestDetail:
        """One request in full: headers, post data and the response body fetched now (``str`` or
        ``bytes``, cut at ``max_bytes``, default 262144); raises
        :class:`~agentbrowser.BrowserError` (code ``request_not_found``) for an id the log does not have."""
        built = g.network_request(request_id, max_bytes=max_bytes)
        return await self._b._drive(_ops.decoded(built, RequestDetail.from_wire))

    async def har_start(self, *, content: HarContentMode = "text") -> None:
        """Start recording every tab's traffic as HAR; ``content`` keeps ``text`` bodies, ``all``
        (binary as base64) or ``none``."""
        await self._b._drive(_ops.done(g.har_start(content=content)))

    async def har_stop(self, path: str | os.PathLike[str] | None = None) -> Path:
        """Stop recording and write the HAR 1.2 file (default: the downloads directory); returns
        its path. A failed write raises and keeps the recording, so this can be retried."""
        built = g.har_stop(path=None if path is None else str(Path(path).absolute()))
        return await self._b._drive(_ops.then(built, lambda out: Path(out.path)))


class AsyncClipboard(_Handle):
    """The browser's clipboard, used from the active page (which must be a secure context:
    https, localhost or 127.0.0.1; the engine grants its origin the clipboard permissions)."""

    async def read(self, *, max_chars: int | None = None) -> str:
        """The clipboard's text, cut at ``max_chars`` (default 100000, 0 = no limit)."""
        return await self._b._drive(_ops.then(g.clipboard_read(max_chars=max_chars), lambda out: out.text))

    async def write(self, text: str) -> None:
        """Put ``text`` on the clipboard (read back to check it is there)."""
        await self._b._drive(_ops.done(g.clipboard_write(text)))

    async def copy(self, *, wait: Wait | None = None) -> ActionResult[AsyncBrowser]:
        """Copy the focused element's selection (Control+C), with evidence."""
        return await self._b._drive(_ops.act(self._b, g.clipboard_copy(), wait))

    async def paste(self, *, wait: Wait | None = None) -> ActionResult[AsyncBrowser]:
        """Paste the clipboard into the focused element (Control+V), with evidence."""
        return await self._b._drive(_ops.act(self._b, g.clipboard_paste(), wait))


class AsyncFrames(_Handle):
    """The frames of a page: ``tree()`` and ``get(id=|selector=|name=|url=)``."""

    @property
    def page(self) -> AsyncPage | AsyncFrame:
        """The page or frame handle whose frames these are."""
        return self._b._document

    async def tree(self) -> tuple[AsyncFrame, ...]:
        """Every frame below the page (same-process and out-of-process iframes), parents first;
        of a frame's ``frames``: those below that frame."""
        infos = await self._b._drive(_ops.listed(g.frames(limit=1000), "frames", FrameInfo.from_wire))
        # The main frame's id is its tab's CDP target id.
        target = next((i.id for i in infos if i.depth == 0), None)
        below = _ops.frames_below(infos, self._b._scope.get("frame"))
        return tuple(AsyncFrame(i, self._b, target) for i in below)

    async def get(
        self,
        *,
        id: str | None = None,
        selector: str | Ref[AsyncBrowser] | None = None,
        name: str | None = None,
        url: str | None = None,
    ) -> AsyncFrame:
        """The one frame that exactly one criterion names: ``id`` (from ``tree()``), ``selector``
        (CSS, XPath or a ref of its ``<iframe>``), ``name`` (exact) or ``url`` (a substring).
        FrameLookupError (``reason``, ``criteria``, ``candidates``) when none or several match."""
        info = await self._b._drive(_ops.frame_get(id, selector, name, url))
        return AsyncFrame(info, self._b, self._b._document._target_id)


class AsyncFrameURL(BoundStr):
    """A frame's URL when it was listed (a ``str``), also callable as pyagentbrowser's
    ``frame.url()``, which reads the frame's URL now (``frame.location()``)."""

    _owner: AsyncFrame

    async def __call__(self) -> str:
        """The frame's URL now."""
        return await self._owner.location()


class AsyncFrame(_Document):
    """One frame of a page: every command of this handle runs in that frame's document (the
    envelope's ``frame``). A frame a navigation removed raises FrameLookupError(reason="detached")."""

    def __init__(self, info: FrameInfo, browser: AsyncBrowser, target_id: str | None = None) -> None:
        #: The frame as ``frames`` listed it.
        self.info = info
        self._b = browser._scoped(frame=info.id)
        self._b._document = self
        self._target_id = target_id
        #: Live locators and selectors resolved in this frame's document.
        self.find: Finder[AsyncBrowser] = Finder(self._b)
        #: Screenshots of this frame's box: ``frame.capture.screenshot()``.
        self.capture = AsyncFrameCapture(self._b)
        #: The frames inside this one: ``frame.frames.tree()``, ``frame.frames.get(name=...)``.
        self.frames = AsyncFrames(self._b)
        #: Scrolling of the frame's document or a container in it.
        self.scroll = AsyncScroll(self._b)

    @property
    def id(self) -> str:
        """The frame id."""
        return self.info.id

    @property
    def frame_id(self) -> str:
        """The frame id (pyagentbrowser's name of :attr:`id`)."""
        return self.info.id

    @property
    def name(self) -> str:
        """The frame's ``name`` attribute (empty when none)."""
        return self.info.name

    @property
    def frame_name(self) -> str:
        """The frame's ``name`` attribute (pyagentbrowser's name of :attr:`name`)."""
        return self.info.name

    @property
    def url(self) -> AsyncFrameURL:
        """The frame's URL when it was listed; ``frame.url()`` reads it now (as ``location()``)."""
        return AsyncFrameURL(self.info.url, self)

    @property
    def frame_url(self) -> str:
        """The frame's URL when it was listed (pyagentbrowser's name)."""
        return self.info.url

    @property
    def parent_frame_id(self) -> str | None:
        """The parent frame's id."""
        return self.info.parent_frame_id

    async def location(self) -> str:
        """The frame's URL now."""
        return await self._b._drive(_ops.then(g.url(), lambda out: out.url))

    async def observe(self, spec: SnapshotSpec | None = None) -> Snapshot[AsyncBrowser]:
        """A snapshot of the frame's document; its refs act in this frame."""
        if spec is not None and spec.selector is not None:
            raise TypeError("frame snapshots capture the selected frame document; leave SnapshotSpec.selector None")
        return await self._b._drive(_ops.observe(self._b, spec, False))

    async def screenshot(self, path: str | os.PathLike[str] | None = None) -> Screenshot:
        """A screenshot of the frame's box in the page (its visible part)."""
        return await self.capture.screenshot(path)

    def __repr__(self) -> str:
        return f"<AsyncFrame {self.info.id} name={self.info.name!r} url={self.info.url!r}>"


class AsyncFrameCapture(_Handle):
    """Screenshots of a frame's box in the page (its visible part)."""

    async def screenshot(
        self,
        path: str | os.PathLike[str] | None = None,
        *,
        output_dir: str | os.PathLike[str] | None = None,
        format: str | None = None,
        quality: int | None = None,
        wait_ms: int = 0,
    ) -> Screenshot:
        """Capture the frame's box to an image file (as ``page.capture.screenshot``), after
        ``wait_ms`` milliseconds (pyagentbrowser waits 100 by default; we do not)."""
        call = _ops.screenshot_params(path, None, False, False, output_dir, format, quality)
        return await self._b._drive(_ops.after(wait_ms, _ops.screenshot(call)))

    async def screenshot_if_changed(
        self,
        path: str | os.PathLike[str] | None = None,
        *,
        output_dir: str | os.PathLike[str] | None = None,
        format: str | None = None,
        quality: int | None = None,
        threshold: float = 0.0,
        wait_ms: int = 0,
    ) -> ScreenshotObservation:
        """Like :meth:`screenshot`, written only when more than ``threshold`` (0-1) of the pixels
        changed since the last screenshot of this frame."""
        call = _ops.screenshot_params(path, None, False, False, output_dir, format, quality)
        return await self._b._drive(_ops.after(wait_ms, _ops.screenshot_if_changed(call, threshold)))


class AsyncSessionName(BoundStr):
    """The session's name (a ``str``: ``browser.session == "work"``), also pyagentbrowser's session
    namespace: ``browser.session.status()``."""

    _owner: AsyncBrowser

    async def status(self) -> SessionStatus:
        """Session identity, daemon and browser state (``browser.status()``)."""
        return await self._owner.status()


class AsyncDownloads(_Handle):
    """Downloads of the active tab (pyagentbrowser's namespace; ``page.download`` and
    ``page.wait_for_download`` answer the richer :class:`~agentbrowser.Download`)."""

    async def download(
        self, selector: str | Ref[Any], path: str | os.PathLike[str], *, timeout_ms: int | None = None
    ) -> Path:
        """Click ``selector`` (a ref, CSS selector or XPath), wait for the download it starts, move
        the complete file to ``path`` (a file, or a directory for its suggested name): its path."""
        done = await self._b.page.download(selector, path, timeout_ms=timeout_ms)
        return Path(done.path)

    async def wait(self, path: str | os.PathLike[str] | None = None, *, timeout_ms: int | None = None) -> Path:
        """Wait for the next download (or a complete one not yet claimed), move it to ``path`` if
        given: the file's path."""
        done = await self._b.page.wait_for_download(path, timeout_ms=timeout_ms)
        return Path(done.path)


class AsyncDiff(_Handle):
    """Snapshot diffs of the active tab (pyagentbrowser's namespace; ``snapshot.diff()`` diffs
    a snapshot you hold)."""

    async def snapshot(
        self,
        baseline: str | os.PathLike[str] | None = None,
        *,
        selector: str | None = None,
        compact: bool = False,
        max_depth: int | None = None,
    ) -> SnapshotDiff:
        """Diff the page now against a baseline: the last snapshot taken in this tab (no
        ``baseline``: the engine's ``diff``, with that snapshot's spec), or the snapshot text
        in the file ``baseline`` (against a new snapshot with ``selector``, ``compact`` and
        ``max_depth``)."""
        if baseline is None:
            if selector is not None or compact or max_depth is not None:
                raise TypeError(
                    "diff.snapshot() without a baseline diffs against the last snapshot with its own spec;"
                    " selector=, compact=, max_depth= need a baseline file"
                )
            return await self._b._drive(_ops.decoded(g.diff(), SnapshotDiff.from_wire))
        before = Path(baseline).read_text(encoding="utf-8")
        now = await self._b.page.observe(SnapshotSpec(selector=selector, compact=compact, max_depth=max_depth))
        return _ops.text_diff(before, now.text)


class AsyncDashboard(_Handle):
    """The session's live dashboard (``SessionOptions(dashboard=DashboardOptions(...))``): an
    ``agentbrowser dashboard`` process this browser started and stops when it closes."""

    async def status(self) -> Mapping[str, Any]:
        """``running``, ``url`` (with its token), ``port``, ``session`` and ``control``; without a
        dashboard ``running`` is False and ``url``/``port`` are None."""
        d = self._b._root._dashboard
        return no_dashboard(self._b._root._session) if d is None else d.status()

    async def stop(self) -> None:
        """Stop the dashboard (the session goes on); idempotent."""
        d = self._b._root._dashboard
        if d is not None:
            d.stop()


class AsyncDialogs(_Handle):
    """The JavaScript dialogs of a :class:`AsyncBrowser`: a confirm or prompt waits for :meth:`accept` or
    :meth:`dismiss` (alerts and beforeunload are accepted at once); while one is open, other
    calls on its tab raise :class:`~agentbrowser.DialogOpenError`."""

    async def status(self) -> DialogStatus:
        """The dialog open in the active tab (``dialog``, None when none) and those in other tabs."""
        return await self._b._drive(_ops.then(g.dialog_status(), DialogStatus.from_wire))

    async def accept(self, prompt_text: str | None = None, *, text: str | None = None) -> DialogResult:
        """Accept (OK) the open dialog; ``prompt_text`` is what a prompt returns (default: its
        default text).  ``text=`` is the same parameter under our older name."""
        answer = alias("dialogs.accept()", "prompt_text", prompt_text, "text", text)
        return await self._b._drive(_ops.then(g.dialog_accept(text=answer), DialogResult.from_wire))

    async def dismiss(self) -> DialogResult:
        """Dismiss (Cancel) the open dialog."""
        return await self._b._drive(_ops.then(g.dialog_dismiss(), DialogResult.from_wire))


class AsyncDiagnostics(_Handle):
    """The active tab's console messages and page errors, from bounded buffers that fill from
    the tab's start (reading them waits for no other client's command); its accessibility audit,
    Web Vitals and React component tree."""

    async def console(
        self, *, clear: bool = False, level: ConsoleLevel | None = None, since_navigation: bool = False
    ) -> ConsoleLog:
        """The console messages, oldest first (earlier pages' too, unless ``since_navigation``:
        only those since the tab's last navigation to a new document; ``raw["beforeNavigation"]``
        counts the earlier page's); ``level`` keeps that severity and above (``verbose``/``debug``,
        ``info``/``log``, ``warning``/``warn``, ``error``); ``clear`` empties the buffer after
        this read."""
        if level is not None and level not in CONSOLE_LEVELS:  # the message the docs promise
            raise ValueError(f"level must be one of {', '.join(CONSOLE_LEVELS)}; got {level!r}")
        built = g.console(clear=flag(clear), level=level, since_navigation=flag(since_navigation))
        return await self._b._drive(_ops.decoded(built, ConsoleLog.from_wire))

    async def errors(self, *, clear: bool = False) -> ErrorLog:
        """The uncaught exceptions and unhandled rejections, oldest first, with their stacks;
        ``clear`` empties the buffer after this read."""
        return await self._b._drive(_ops.decoded(g.errors(clear=flag(clear)), ErrorLog.from_wire))

    async def accessibility(
        self,
        url: str | None = None,
        *,
        tags: Sequence[str] = (),
        selector: str | None = None,
        max_nodes: int | None = None,
    ) -> AccessibilityAudit:
        """An axe-core audit of the active tab (after opening ``url`` when given), in every
        frame (same- and cross-origin) and shadow root; ``tags`` keeps rules with those axe
        tags (``wcag2a``, ``wcag2aa``, ``best-practice``, ...), ``selector`` a part of the page,
        ``max_nodes`` the nodes listed per issue (default 20; ``node_count`` is the total)."""
        tag_list = ([tags] if isinstance(tags, str) else tags) or None
        built = g.a11y(url=url, tags=tag_list, selector=selector, max_nodes=max_nodes)
        return await self._b._drive(_ops.decoded(built, AccessibilityAudit.from_wire))

    async def vitals(self, url: str | None = None, *, quiet_ms: int | None = None, cap_ms: int | None = None) -> Vitals:
        """The active tab's Web Vitals (after opening ``url`` when given): LCP, CLS, INP, FCP
        and TTFB from the page's own performance entries, each rated or None with the reason.
        They are read once the page was quiet for ``quiet_ms`` after load (no layout shift,
        long task or new LCP candidate; default 1000) or ``cap_ms`` passed (default 10000);
        ``raw["settle"]`` says which."""
        return await self._b._drive(_ops.decoded(g.vitals(url=url, quiet_ms=quiet_ms, cap_ms=cap_ms), Vitals.from_wire))

    async def react_tree(
        self,
        *,
        selector: str | None = None,
        max_nodes: int = _react.DEFAULT_MAX_NODES,
        max_depth: int = _react.DEFAULT_MAX_DEPTH,
        host_elements: bool = True,
    ) -> ReactTree:
        """The React component tree of the active tab's page, walked in the page from the fibers
        React keeps on the DOM (React 16.6 to 19; no DevTools hook or launch flag): components
        by name (``App``, ``Memo(Row)``, ``Theme.Provider``) and, unless ``host_elements=False``,
        the host elements (``li``).  ``selector`` walks the part of the page under that element
        (``not_found`` when nothing matches).  The walk stops after ``max_nodes`` nodes (1 to
        20000, default 2000) and lists nothing deeper than ``max_depth`` (0 to 10000, default
        200; a root is at 0); ``truncated`` says when a limit cut.  A page with no React root
        raises :class:`BrowserError` with code ``react_not_found``.  The result is also
        pyagentbrowser's mapping: ``tree["tree"]`` is the text.  The action policy sees an ``eval``."""
        op = _react.react_tree(selector, max_nodes, max_depth, host_elements)
        return await self._b._drive(op)


class AsyncNative(_Handle):
    """Direct access to the wire protocol."""

    async def execute(self, action: str, **params: Any) -> BrowserResponse:
        """Send one native action with camelCase parameters; return the full envelope, success or not."""
        return await self._b._drive(_ops.native(action, params))

    async def data(self, action: str, *, expect: str = "object", **params: Any) -> Any:
        """Send one native action with camelCase parameters and answer its ``data``; a failure
        raises its BrowserError (as every method).  ``expect="object"`` (default) also checks the
        data is a JSON object; ``expect="any"`` takes a scalar, array or null."""
        return await self._b._drive(_ops.native_data(action, params, expect))


class AsyncCookies(_Handle):
    """The session's cookies: ``browser.cookies.get()``, ``set(...)``, ``clear()``."""

    async def get(self, urls: Sequence[str] | str | None = None, *, unsafe_export_all: bool = False) -> tuple[Cookie, ...]:
        """Every cookie of the session, or those sent to ``urls``.  ``unsafe_export_all`` is
        pyagentbrowser's escape from its allowed-domains filter: accepted, with nothing to lift here
        (nothing outside the allowed domains can be in a session)."""
        _ops.unsafe_flag("cookies.get()", "unsafe_export_all", unsafe_export_all)
        built = g.cookies_get(urls=[urls] if isinstance(urls, str) else urls)
        return await self._b._drive(_ops.listed(built, "cookies", Cookie.from_wire))

    async def set(
        self,
        name: str | None = None,
        value: str | None = None,
        *,
        cookies: Mapping[str, Any] | Sequence[Mapping[str, Any]] | None = None,
        url: str | None = None,
        domain: str | None = None,
        path: str | None = None,
        expires: int | None = None,
        http_only: bool | None = None,
        secure: bool | None = None,
        same_site: SameSite | None = None,
    ) -> int:
        """Set one cookie (``name``, ``value`` and ``url`` or ``domain``) or several
        (``cookies=``); answers how many the browser kept. ``ValueError`` for bad input."""
        if cookies is not None:
            if name is not None or value is not None:
                raise ValueError("cookies.set() takes either cookies= or name and value, not both")
            items = [cookies] if isinstance(cookies, Mapping) else cookies
            rows = [
                {_COOKIE_KEYS.get(k, k): v for k, v in c.items() if v is not None} if isinstance(c, Mapping) else c
                for c in items
            ]
            built = g.cookies_set(cookies=rows)
        else:
            # The messages the docs and tests name (the engine's use the wire's names).
            if name is None or value is None:
                raise ValueError("cookies.set() needs both name and value (or cookies=)")
            if url is None and domain is None:
                raise ValueError(f"cookie {name!r} needs url= or domain= (which site it belongs to)")
            if same_site is not None and same_site not in SAME_SITE_VALUES:
                raise ValueError(f"same_site must be one of {', '.join(SAME_SITE_VALUES)}, got {same_site!r}")
            built = g.cookies_set(
                name=name,
                value=value,
                url=url,
                domain=domain,
                path=path,
                expires=expires,
                http_only=http_only,
                secure=secure,
                same_site=same_site,
            )
        return await self._b._drive(_ops.then(built, lambda out: len(out.set)))

    async def clear(
        self, *, url: str | None = None, domain: str | None = None, name: str | None = None, unsafe_clear_all: bool = False
    ) -> int:
        """Remove every cookie (or those of ``url`` or ``domain``, and of ``name``); answers how many.
        ``unsafe_clear_all``: pyagentbrowser's escape from its allowed-domains filter, accepted
        with nothing to lift here."""
        _ops.unsafe_flag("cookies.clear()", "unsafe_clear_all", unsafe_clear_all)
        built = g.cookies_clear(url=url, domain=domain, name=name)
        return await self._b._drive(_ops.then(built, lambda out: out.removed))


class AsyncStorage(_Handle):
    """The active tab's web storage (its origin's ``localStorage`` or ``sessionStorage``)."""

    async def get(self, key: str | None = None, *, area: StorageArea = "local", max_items: int | None = None) -> Any:
        """``key``'s value (None when absent), or every entry as a dict (at most ``max_items``, default 1000)."""
        built = g.storage_get(area, key=key, max_items=max_items)
        return await self._b._drive(
            _ops.then(built, lambda out: out.value if key is not None else {e.name: e.value for e in out.entries})
        )

    async def set(self, key: str, value: str, *, area: StorageArea = "local") -> None:
        """Set ``key`` to ``value``."""
        await self._b._drive(_ops.done(g.storage_set(area, key, value)))

    async def remove(self, key: str, *, area: StorageArea = "local") -> None:
        """Remove ``key``."""
        await self._b._drive(_ops.done(g.storage_remove(area, key)))

    async def clear(self, *, area: StorageArea = "local") -> None:
        """Remove every entry."""
        await self._b._drive(_ops.done(g.storage_clear(area)))


class AsyncAuth(_Handle):
    """The auth vault: logins saved encrypted under the state key (the session needs
    ``AGENTBROWSER_ENCRYPTION_KEY`` or a ``key_file``), filled and submitted by :meth:`login`.
    Passwords go in and never come back out."""

    async def save(
        self,
        name: str,
        *,
        url: str,
        username: str,
        password: str,
        username_selector: str | None = None,
        password_selector: str | None = None,
        submit_selector: str | None = None,
        key_file: str | os.PathLike[str] | None = None,
    ) -> AuthEntry:
        """Save (or replace) a login; answers the entry without its password."""
        if not isinstance(password, str) or not password:
            raise ValueError("auth.save() needs a non-empty password string")
        built = g.auth_save(
            name,
            url,
            username,
            password,
            username_selector=username_selector,
            password_selector=password_selector,
            submit_selector=submit_selector,
            key_file=_ops.key_path(key_file),
        )
        return await self._b._drive(_ops.then(built, lambda out: AuthEntry.from_wire(out.entry)))

    async def login(self, name: str, *, navigate: bool = True, key_file: str | os.PathLike[str] | None = None) -> AuthLogin:
        """Open the entry's URL (unless ``navigate=False``), fill its fields (checking they were
        not swapped), submit; raises unless the form was submitted."""
        built = g.auth_login(name, navigate=None if navigate is True else navigate, key_file=_ops.key_path(key_file))
        return await self._b._drive(_ops.decoded(built, AuthLogin.from_wire))

    async def list(self, *, key_file: str | os.PathLike[str] | None = None) -> AuthListing:
        """The vault's entries (no passwords)."""
        return await self._b._drive(_ops.decoded(g.auth_list(key_file=_ops.key_path(key_file)), AuthListing.from_wire))

    async def show(self, name: str, *, key_file: str | os.PathLike[str] | None = None) -> AuthEntry:
        """One entry without its password."""
        built = g.auth_show(name, key_file=_ops.key_path(key_file))
        return await self._b._drive(_ops.then(built, lambda out: AuthEntry.from_wire(out.entry)))

    async def delete(self, name: str) -> Path:
        """Remove an entry; answers the file removed."""
        return await self._b._drive(_ops.then(g.auth_delete(name), lambda out: Path(out.path)))


class AsyncState(_Handle):
    """State files (cookies, localStorage, IndexedDB in Playwright's storageState shape). A ``Path`` or
    a string with ``/`` is a file; a plain string is a name in the state directory."""

    async def save(
        self,
        path: str | os.PathLike[str] | None = None,
        *,
        key_file: str | os.PathLike[str] | None = None,
        indexed_db: bool = True,
        unsafe_export_all: bool = False,
    ) -> Path:
        """Save cookies, localStorage and (unless ``indexed_db=False``) IndexedDB of every
        origin visited; answers the file written.  ``unsafe_export_all``: pyagentbrowser's escape
        from its allowed-domains filter, accepted with nothing to lift here."""
        _ops.unsafe_flag("state.save()", "unsafe_export_all", unsafe_export_all)
        built = g.state_save(
            path=None if path is None else _ops.state_path("state.save()", path),
            key_file=_ops.key_path(key_file),
            indexed_db=None if indexed_db is True else indexed_db,
        )
        return await self._b._drive(_ops.then(built, lambda out: Path(out.path)))

    async def load(
        self,
        path: str | os.PathLike[str],
        *,
        key_file: str | os.PathLike[str] | None = None,
        unsafe_import_all: bool = False,
    ) -> Mapping[str, Any]:
        """Load a state file (ours or Playwright's); answers what was loaded.  With allowed domains
        the engine refuses a file that holds anything outside them, and ``unsafe_import_all=True``
        (pyagentbrowser's way past its filter) raises ValueError: nothing lifts that here."""
        _ops.unsafe_flag("state.load()", "unsafe_import_all", unsafe_import_all, self._b._options.allowed_domains)
        built = g.state_load(_ops.state_path("state_load()", path), key_file=_ops.key_path(key_file))
        return await self._b._drive(_ops.decoded(built, lambda _, data: data))

    async def list(self) -> StateListing:
        """The state directory's files."""
        return await self._b._drive(_ops.decoded(g.state_list(), StateListing.from_wire))

    async def show(self, path: str | os.PathLike[str], *, key_file: str | os.PathLike[str] | None = None) -> Mapping[str, Any]:
        """What a state file holds (``encrypted``, ``cookies``, ``origins``, the whole ``state``)."""
        built = g.state_show(_ops.state_path("state_show()", path), key_file=_ops.key_path(key_file))
        return await self._b._drive(_ops.decoded(built, lambda _, data: data))

    async def rename(self, path: str | os.PathLike[str], name: str) -> Path:
        """Rename a state file within its directory; answers the new path."""
        built = g.state_rename(_ops.state_path("state.rename()", path), name)
        return await self._b._drive(_ops.then(built, lambda out: Path(out.to)))

    async def clear(self, path: str | os.PathLike[str] | None = None) -> tuple[Path, ...]:
        """Remove one state file, or every file of the state directory."""
        built = g.state_clear(all=True) if path is None else g.state_clear(path=_ops.state_path("state.clear()", path))
        return await self._b._drive(_ops.then(built, lambda out: tuple(Path(p) for p in out.removed)))

    async def clean(self, *, days: int = 30) -> tuple[Path, ...]:
        """Remove the state directory's files older than ``days``."""
        return await self._b._drive(_ops.then(g.state_clean(days), lambda out: tuple(Path(p) for p in out.removed)))
