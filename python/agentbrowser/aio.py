"""The asyncio client: :class:`AsyncBrowser` with :class:`AsyncPage`, :class:`AsyncTabs`, :class:`AsyncNative`.

It shares every model and operation with the sync client.  It never blocks the event
loop: one reader task hands each answer to the coroutine awaiting it, so many
coroutines may await calls on one browser at once.  Cancelling one awaiting call leaves
the connection usable (its late answer is dropped).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import copy
import weakref
from pathlib import Path
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

from . import _ops
from ._atransport import AsyncOwnedProcess, AsyncTransport, connect_socket_async
from ._binary import find_binary, socket_path
from ._common import CLOSE_TIMEOUT_S, check_session, daemon_argv, resolve_options, start_session_daemon
from ._held import HeldSnapshots
from ._ops import Call, Op
from .errors import BrowserError
from .models import (
    Download,
    ActionResult,
    BrowserResponse,
    CloseResult,
    Finder,
    ConsoleLevel,
    ConsoleLog,
    DialogResult,
    DialogStatus,
    ErrorLog,
    FrameInfo,
    LaunchResult,
    LoadState,
    Navigation,
    Ref,
    Screenshot,
    ScreenshotObservation,
    ReadMode,
    ReadResult,
    SessionStatus,
    Snapshot,
    SnapshotSpec,
    TabCloseResult,
    TabInfo,
    TabSwitchResult,
    Wait,
    WaitResult,
    clip,
)
from .options import LaunchOptions

if TYPE_CHECKING:
    from .models._client import ModelOps

__all__ = ["AsyncBrowser", "AsyncPage", "AsyncCapture", "AsyncTabs", "AsyncFrames", "AsyncFrame", "AsyncNative", "AsyncDiagnostics"]

T = TypeVar("T")


class AsyncBrowser:
    """A browser session driven with ``await``; mirrors :class:`~agentbrowser.Browser`.

    ``await AsyncBrowser.launch()`` owns a daemon that ends with this process;
    ``await AsyncBrowser.connect(session=...)`` joins a CLI session.  Use ``async with``
    or ``await close()`` (idempotent; raises TimeoutError when the daemon does not
    shut down in time, after killing it).
    """

    #: The operations that the bound models (Snapshot, Ref) run through this browser.
    _ops: ClassVar[ModelOps] = _ops

    def __init__(
        self,
        transport: AsyncTransport,
        *,
        options: LaunchOptions,
        process: AsyncOwnedProcess | None,
        session: str | None,
    ) -> None:
        self._t = transport
        self._process = process
        self._options = options
        self._session = session
        self._close_result: CloseResult | None = None
        #: The envelope's ``tab``/``frame`` every request of this handle carries (see ``_scoped``).
        self._scope: dict[str, str] = {}
        self._root = self
        #: The snapshots this client received: the bases of delta snapshots.
        self._held = HeldSnapshots()
        self._closing: asyncio.Future[CloseResult] | None = None
        #: The browser ``launch()`` started (None for a connected client).
        self.launch_result: LaunchResult | None = None
        self.page = AsyncPage(self)
        self.tabs = AsyncTabs(self)
        self.dialogs = AsyncDialogs(self)
        self.native = AsyncNative(self)
        self.diagnostics = AsyncDiagnostics(self)
        if process is not None and process.proc.stdin is not None:
            # Dropped without close(): EOF on the daemon's stdin ends it.
            self._finalizer: weakref.finalize[Any, Any] | None = weakref.finalize(
                self, _close_quietly, process.proc.stdin
            )
        else:
            self._finalizer = None

    @classmethod
    async def launch(cls, options: LaunchOptions | None = None, /, **kwargs: Any) -> AsyncBrowser:
        """Start a browser owned by this process."""
        opts = resolve_options(options, kwargs)
        process = await AsyncOwnedProcess.spawn(daemon_argv(find_binary(), opts.session))
        browser = cls(process.transport(), options=opts, process=process, session=opts.session)
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
            await asyncio.to_thread(start_session_daemon, find_binary(), session, timeout_ms / 1000)
            loop = asyncio.get_running_loop()
            deadline = loop.time() + timeout_ms / 1000
            while True:
                try:
                    transport = await connect_socket_async(path)
                    break
                except OSError as exc:
                    if loop.time() > deadline:
                        raise BrowserError(
                            f"cannot connect to session {session!r} at {path}: {exc}", code="browser_closed"
                        ) from None
                    await asyncio.sleep(0.02)
        return cls(transport, options=opts, process=None, session=session)

    @property
    def session(self) -> str | None:
        """The session name (None for an unnamed launched browser)."""
        return self._session

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
        return self._close_result is not None or self._closing is not None

    async def status(self) -> SessionStatus:
        """Session identity, daemon and browser state."""
        return await self._drive(_ops.status())

    async def close(self, *, end_session: bool | None = None, timeout: float = CLOSE_TIMEOUT_S) -> CloseResult:
        """Close; idempotent.  TimeoutError when shutdown takes longer than ``timeout`` seconds."""
        if self._close_result is not None:
            return self._close_result
        if self._closing is not None:
            return await asyncio.shield(self._closing)
        self._closing = asyncio.get_running_loop().create_future()
        try:
            result = await self._shutdown(end_session, timeout)
        except BaseException:
            self._close_result = CloseResult(closed=True)
            self._closing.set_result(self._close_result)
            raise
        self._close_result = result
        self._closing.set_result(result)
        return result

    async def _shutdown(self, end_session: bool | None, timeout: float) -> CloseResult:
        end = self._process is not None if end_session is None else end_session
        result = CloseResult(closed=False)
        try:
            if end:
                try:
                    async with asyncio.timeout(timeout):
                        result = await self._drive(_ops.close(timeout), closing=True)
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
            if self._process is not None:
                await self._process.finish(timeout)
                if not result.closed:
                    result = CloseResult(closed=True, raw=result.raw)
        return result

    async def _abort(self) -> None:
        self._close_result = CloseResult(closed=True)
        await self._t.close()
        if self._finalizer is not None:
            self._finalizer.detach()
        if self._process is not None:
            with contextlib.suppress(TimeoutError):
                await self._process.finish(5.0)

    async def __aenter__(self) -> AsyncBrowser:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    def __repr__(self) -> str:
        mode = f"launched pid={self.pid}" if self._process is not None else "connected"
        name = f" session={clip(self._session, 64)!r}" if self._session else ""
        return f"<AsyncBrowser {mode}{name} {'closed' if self.closed else 'open'}>"

    def _scoped(self, **scope: str) -> AsyncBrowser:
        """A handle on the same session whose requests carry ``scope`` (the envelope's ``tab``
        and ``frame``): its page, locators and refs act in that tab or frame."""
        clone = copy.copy(self)
        clone._scope = {**self._scope, **scope}
        clone.page = AsyncPage(clone)
        clone.tabs = AsyncTabs(clone)
        return clone

    async def _drive(self, op: Op[T], *, closing: bool = False) -> T:
        if self._root._close_result is not None or (self._root._closing is not None and not closing):
            op.close()
            raise RuntimeError("this AsyncBrowser is closed")
        try:
            call = next(op)
            while True:
                call = op.send(await self._call(call))
        except StopIteration as stop:
            value: T = stop.value
            return value
        finally:
            op.close()

    async def _call(self, call: Call) -> Any:
        payload = _ops.request(call, self._t.next_id(), self._options.timeout_ms, self._scope)
        raw = await self._t.request(payload, _ops.client_deadline_s(call, payload))
        return _ops.result(call, raw, True, self._snapshot)

    def _snapshot(self, raw: Mapping[str, Any]) -> Snapshot[AsyncBrowser]:
        return Snapshot.from_raw(raw, self)


def _close_quietly(stream: asyncio.StreamWriter) -> None:
    with contextlib.suppress(Exception):
        stream.close()


class AsyncPage:
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
        #: The frames of this tab: ``page.frames.tree()``, ``page.frames.get(name="pay")``.
        self.frames = AsyncFrames(browser)

    async def open(self, url: str, wait_until: LoadState = "load") -> Navigation:
        """Navigate to ``url``; ``wait_until`` is ``load``, ``domcontentloaded`` or ``networkidle``."""
        return await self._b._drive(_ops.open_page(url, wait_until))

    async def title(self) -> str:
        """The page title."""
        return await self._b._drive(_ops.title())

    async def url(self) -> str:
        """The page URL."""
        return await self._b._drive(_ops.url())

    async def html(self, target: str, *, outer: bool = False, max_bytes: int | None = None) -> str:
        """The inner HTML (``outer=True``: outer) of a ref or of a CSS selector's first match, cut at ``max_bytes``."""
        return await self._b._drive(_ops.html(target, outer, max_bytes))

    async def count(self, selector: str) -> int:
        """How many elements match a CSS selector."""
        return await self._b._drive(_ops.count(selector))

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
    ) -> ReadResult:
        """Read a page as Markdown for an agent: ``url`` over HTTP (no browser) or the active tab (see :meth:`agentbrowser.Page.read`)."""
        return await self._b._drive(_ops.read(url, mode, filter, timeout_ms, headers, cookies, max_chars))

    async def evaluate(self, js: str, *, max_bytes: int | None = None) -> Any:
        """Evaluate a JavaScript expression (promises are awaited) and return its JSON value
        (values JSON cannot carry as ``{"unserializable": ...}``); a result over ``max_bytes``
        of JSON (default 1 MiB) raises BrowserError with code ``result_too_large``."""
        return await self._b._drive(_ops.evaluate(js, max_bytes))

    async def back(self, wait_until: LoadState | None = None) -> Navigation:
        """Go back one history entry."""
        return await self._b._drive(_ops.history("back", wait_until))

    async def forward(self, wait_until: LoadState | None = None) -> Navigation:
        """Go forward one history entry."""
        return await self._b._drive(_ops.history("forward", wait_until))

    async def reload(self, wait_until: LoadState | None = None) -> Navigation:
        """Reload the page."""
        return await self._b._drive(_ops.history("reload", wait_until))

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
        return await self._b._drive(_ops.press(self._b, key, wait))

    async def wait(self, condition: Wait | None = None, *, ms: int | None = None) -> WaitResult:
        """Wait for a condition, or for ``ms`` milliseconds."""
        return await self._b._drive(_ops.wait(condition, ms))

    def __repr__(self) -> str:
        return f"<AsyncPage of {self._b!r}>"


class AsyncKeyboard:
    """Low-level key events on the active tab's focused element; each returns an ``ActionResult``
    with its evidence (``wait=`` as for ``press``). Modifiers held with :meth:`down` apply to
    later keys and mouse input until :meth:`up`."""

    def __init__(self, browser: AsyncBrowser) -> None:
        self._b = browser

    async def type(self, text: str, *, wait: Wait | None = None) -> ActionResult[AsyncBrowser]:
        """Type ``text`` with one key event per character."""
        return await self._b._drive(_ops.keyboard_text(self._b, "keyboard_type", text, wait))

    async def insert_text(self, text: str, *, wait: Wait | None = None) -> ActionResult[AsyncBrowser]:
        """Insert ``text`` at once without key events (like an IME or a paste)."""
        return await self._b._drive(_ops.keyboard_text(self._b, "keyboard_insert_text", text, wait))

    async def down(self, key: str, *, wait: Wait | None = None) -> ActionResult[AsyncBrowser]:
        """Press one key (``"Shift"``, ``"a"``, ``"Enter"``) and hold it."""
        return await self._b._drive(_ops.keyboard_key(self._b, "keyboard_down", key, wait))

    async def up(self, key: str, *, wait: Wait | None = None) -> ActionResult[AsyncBrowser]:
        """Release a held key."""
        return await self._b._drive(_ops.keyboard_key(self._b, "keyboard_up", key, wait))

    def __repr__(self) -> str:
        return f"<AsyncKeyboard of {self._b!r}>"


class AsyncMouse:
    """The active tab's low-level mouse pointer at viewport points in CSS pixels; each call
    returns an ``ActionResult`` with its evidence. A held button makes :meth:`move` drag."""

    def __init__(self, browser: AsyncBrowser) -> None:
        self._b = browser

    async def move(self, x: float, y: float, *, wait: Wait | None = None) -> ActionResult[AsyncBrowser]:
        """Move the pointer to ``(x, y)``."""
        return await self._b._drive(_ops.mouse_move(self._b, x, y, wait))

    async def down(self, button: str = "left", *, wait: Wait | None = None) -> ActionResult[AsyncBrowser]:
        """Press ``button`` (``left``, ``right``, ``middle``) at the pointer."""
        return await self._b._drive(_ops.mouse_button(self._b, "mouse_down", button, wait))

    async def up(self, button: str = "left", *, wait: Wait | None = None) -> ActionResult[AsyncBrowser]:
        """Release ``button`` at the pointer."""
        return await self._b._drive(_ops.mouse_button(self._b, "mouse_up", button, wait))

    async def wheel(self, dx: float, dy: float, *, wait: Wait | None = None) -> ActionResult[AsyncBrowser]:
        """Scroll by ``(dx, dy)`` CSS pixels at the pointer (positive: right, down)."""
        return await self._b._drive(_ops.mouse_wheel(self._b, dx, dy, wait))

    def __repr__(self) -> str:
        return f"<AsyncMouse of {self._b!r}>"


class AsyncCapture:
    """Captures of the active tab: screenshots (with ref annotations, or only if changed) and PDF.

    Files are written by the engine; a relative path is resolved against this process's
    working directory.  Without ``path`` (and ``output_dir``) the screenshot goes to a new
    file in ``$TMPDIR/agentbrowser-screenshots/``.
    """

    def __init__(self, browser: AsyncBrowser) -> None:
        self._b = browser

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
    ) -> Screenshot:
        """Capture the viewport, the whole page (``full_page``) or one element (``selector``: a CSS
        selector matching exactly one element, a ref id or a :class:`Ref`) to an image file.

        ``format`` is ``png``, ``jpeg`` or ``webp`` (default: from the path's extension, else
        png); ``quality`` 0-100 for jpeg and webp.  ``annotate`` draws each ref's box and
        number (``[12]`` is ``e12``) and fills :attr:`Screenshot.annotations`.
        """
        params, ref = _ops.screenshot_params(path, selector, full_page, annotate, output_dir, format, quality)
        return await self._b._drive(_ops.screenshot(params, ref))

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
    ) -> ScreenshotObservation:
        """Like :meth:`screenshot`, but compared with the last screenshot of the same scope in this
        tab: when at most ``threshold`` (0-1) of the pixels changed, no file is written and
        ``screenshot`` is None.  The first capture of a scope counts as changed.
        """
        params, ref = _ops.screenshot_params(path, selector, full_page, annotate, output_dir, format, quality)
        return await self._b._drive(_ops.screenshot_if_changed(params, ref, threshold))

    async def pdf(
        self,
        path: str | os.PathLike[str] | None = None,
        *,
        print_background: bool = True,
        landscape: bool = False,
        prefer_css_page_size: bool = False,
    ) -> Path:
        """Print the page to a PDF file (headless browsers only) and return its absolute path
        (a new temporary file without ``path``)."""
        return await self._b._drive(_ops.pdf(path, print_background, landscape, prefer_css_page_size))

    def __repr__(self) -> str:
        return f"<AsyncCapture of {self._b!r}>"


class AsyncTabs:
    """The tabs of a :class:`AsyncBrowser`, by stable id (``t1``, ``t2``…) or label."""

    def __init__(self, browser: AsyncBrowser) -> None:
        self._b = browser

    async def list(self) -> tuple[TabInfo, ...]:
        """Every open tab."""
        return await self._b._drive(_ops.tab_list())

    async def new(self, url: str | None = None, *, label: str | None = None) -> TabInfo:
        """Open a tab (about:blank by default), optionally with a unique ``label``; it becomes active."""
        return await self._b._drive(_ops.tab_new(url, label))

    async def open(
        self, url: str, *, label: str | None = None, reuse: bool = True, wait_until: LoadState = "load"
    ) -> TabInfo:
        """With ``reuse`` and a tab labelled ``label``: switch to it and navigate it to ``url``;
        otherwise open a new tab at ``url`` (with that label)."""
        return await self._b._drive(_ops.tab_open(url, label, reuse, wait_until))

    async def get(self, *, id: str | None = None, label: str | None = None, index: int | None = None) -> AsyncPage:
        """A page handle bound to one tab (by tab id or CDP target id, label, or index N = ``tN``):
        its commands run in that tab even when another one is active. LookupError when none matches."""
        tab = await self._b._drive(_ops.tab_find(id, label, index))
        return self._b._scoped(tab=tab.id).page

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
        return await self._b._drive(_ops.tab_switch(sel))

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
        return await self._b._drive(_ops.tab_close(sel))

    def __repr__(self) -> str:
        return f"<AsyncTabs of {self._b!r}>"


class AsyncFrames:
    """The frames of a page: ``tree()`` and ``get(id=|selector=|name=|url=)``."""

    def __init__(self, browser: AsyncBrowser) -> None:
        self._b = browser

    async def tree(self) -> tuple[AsyncFrame, ...]:
        """Every frame below the page (same-process and out-of-process iframes), parents first."""
        infos = await self._b._drive(_ops.frames_tree())
        return tuple(AsyncFrame(i, self._b) for i in infos if i.depth > 0)

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
        return AsyncFrame(info, self._b)

    def __repr__(self) -> str:
        return f"<AsyncFrames of {self._b!r}>"


class AsyncFrame:
    """One frame of a page: every command of this handle runs in that frame's document (the
    envelope's ``frame``). A frame a navigation removed raises FrameLookupError(reason="detached")."""

    def __init__(self, info: FrameInfo, browser: AsyncBrowser) -> None:
        #: The frame as ``frames`` listed it.
        self.info = info
        self._b = browser._scoped(frame=info.id)
        #: Live locators and selectors resolved in this frame's document.
        self.find: Finder[AsyncBrowser] = Finder(self._b)

    @property
    def id(self) -> str:
        """The frame id."""
        return self.info.id

    @property
    def name(self) -> str:
        """The frame's ``name`` attribute (empty when none)."""
        return self.info.name

    @property
    def url(self) -> str:
        """The frame's URL when it was listed (``location()`` reads it now)."""
        return self.info.url

    @property
    def parent_frame_id(self) -> str | None:
        """The parent frame's id."""
        return self.info.parent_frame_id

    async def title(self) -> str:
        """The frame document's title."""
        return await self._b._drive(_ops.title())

    async def location(self) -> str:
        """The frame's URL now."""
        return await self._b._drive(_ops.url())

    async def evaluate(self, js: str, *, max_bytes: int | None = None) -> Any:
        """Evaluate JavaScript in the frame's page world and return the JSON value."""
        return await self._b._drive(_ops.evaluate(js, max_bytes))

    async def observe(self, spec: SnapshotSpec | None = None) -> Snapshot[AsyncBrowser]:
        """A snapshot of the frame's document; its refs act in this frame."""
        if spec is not None and spec.selector is not None:
            raise TypeError("frame snapshots capture the selected frame document; leave SnapshotSpec.selector None")
        return await self._b._drive(_ops.observe(self._b, spec, False))

    async def wait_for_text(self, text: str, *, timeout_ms: int | None = None) -> WaitResult:
        """Wait until ``text`` appears in the frame's document."""
        return await self._b._drive(_ops.wait(Wait.text(text, timeout_ms=timeout_ms), None))

    async def screenshot(self, path: str | os.PathLike[str] | None = None) -> Screenshot:
        """A screenshot of the frame's box in the page (its visible part)."""
        params, ref = _ops.screenshot_params(path, None, False, False, None, None, None)
        return await self._b._drive(_ops.screenshot(params, ref))

    def __repr__(self) -> str:
        return f"<AsyncFrame {self.info.id} name={self.info.name!r} url={self.info.url!r}>"


class AsyncDialogs:
    """The JavaScript dialogs of a :class:`AsyncBrowser`: a confirm or prompt waits for :meth:`accept` or
    :meth:`dismiss` (alerts and beforeunload are accepted at once); while one is open, other
    calls on its tab raise :class:`~agentbrowser.DialogOpenError`."""

    def __init__(self, browser: AsyncBrowser) -> None:
        self._b = browser

    async def status(self) -> DialogStatus:
        """The dialog open in the active tab (``dialog``, None when none) and those in other tabs."""
        return await self._b._drive(_ops.dialog_status())

    async def accept(self, text: str | None = None) -> DialogResult:
        """Accept (OK) the open dialog; ``text`` is what a prompt returns (default: its default text)."""
        return await self._b._drive(_ops.dialog_accept(text))

    async def dismiss(self) -> DialogResult:
        """Dismiss (Cancel) the open dialog."""
        return await self._b._drive(_ops.dialog_dismiss())

    def __repr__(self) -> str:
        return f"<AsyncDialogs of {self._b!r}>"


class AsyncDiagnostics:
    """The active tab's console messages and page errors; mirrors :class:`~agentbrowser.Diagnostics`."""

    def __init__(self, browser: AsyncBrowser) -> None:
        self._b = browser

    async def console(self, *, clear: bool = False, level: ConsoleLevel | None = None) -> ConsoleLog:
        """The console messages, oldest first; ``level`` keeps that severity and above;
        ``clear`` empties the buffer after this read."""
        return await self._b._drive(_ops.console(clear, level))

    async def errors(self, *, clear: bool = False) -> ErrorLog:
        """The uncaught exceptions and unhandled rejections, oldest first; ``clear`` empties
        the buffer after this read."""
        return await self._b._drive(_ops.errors(clear))

    def __repr__(self) -> str:
        return f"<AsyncDiagnostics of {self._b!r}>"


class AsyncNative:
    """Direct access to the wire protocol."""

    def __init__(self, browser: AsyncBrowser) -> None:
        self._b = browser

    async def execute(self, action: str, **params: Any) -> BrowserResponse:
        """Send one native action with camelCase parameters; return the full envelope, success or not."""
        return await self._b._drive(_ops.native(action, params))

    def __repr__(self) -> str:
        return f"<AsyncNative of {self._b!r}>"
