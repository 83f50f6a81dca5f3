"""The cell executor of code mode: :class:`CodeSession` runs Python cells against a live browser.

Each cell is compiled with ``ast.PyCF_ALLOW_TOP_LEVEL_AWAIT`` (never re-indented) and run in
one persistent globals dict, so variables survive between cells and assignments made before
an error stay.  Output is captured per cell through a context variable (see
:mod:`agentbrowser.code.streams`), bounded, masked, and returned as a
:class:`~agentbrowser.code.notebook.CodeCell` with the error, the last expression's value,
the images the cell produced and the browser state after it.
"""

from __future__ import annotations

import ast
import asyncio
import base64
import contextvars
import ctypes
import importlib
import inspect
import json
import linecache
import os
import re
import threading
import time
import traceback
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import CodeType
from typing import TYPE_CHECKING, Any, Literal, Protocol, runtime_checkable

from ..aio import AsyncBrowser, AsyncCapture
from ..models import ImageContent, Screenshot, ScreenshotObservation, Snapshot, SnapshotSpec, Wait
from ..options import LaunchOptions
from ..tools import ToolContext, Tools
from .notebook import CellError, CellImage, CodeCell, ExecutionStatus, NotebookSession
from .secrets import SensitiveData
from .streams import CellStreams, bound_text, capture

if TYPE_CHECKING:
    from .subproc import SubprocessExecutor

__all__ = ["CellTimeout", "CodeSession", "Masker"]

#: How long after the deadline the watchdog waits for the event loop before interrupting the cell's thread.
WATCHDOG_GRACE_S = 0.5
#: How long a cancelled cell may take to unwind before it is abandoned.
CANCEL_GRACE_S = 2.0
#: The browser state's size bound, in characters.
BROWSER_STATE_CHARS = 2000
#: How long collecting the browser state may take, in seconds.
BROWSER_STATE_TIMEOUT_S = 10.0
_CELL_NAME = re.compile(r"^<cell (\d+)>$")


@runtime_checkable
class Masker(Protocol):
    """Anything that masks secrets in text (``agentbrowser.code.secrets.SensitiveData`` is one)."""

    def mask(self, text: str) -> str:
        """``text`` with every secret value replaced by its placeholder."""
        ...


class CellTimeout(BaseException):
    """Raised inside a cell's thread by the watchdog when pure Python code overruns the cell timeout.

    A BaseException, so that a cell's ``except Exception`` does not swallow it.
    """


# -- per-cell state -----------------------------------------------------------------------------------


@dataclass(slots=True)
class _CellRun:
    streams: CellStreams
    images: list[CellImage] = field(default_factory=list)
    seen: set[str] = field(default_factory=set)

    def add_image(self, image: CellImage, key: str) -> None:
        if key and key in self.seen:
            return
        if key:
            self.seen.add(key)
        self.images.append(image)


_RUN: contextvars.ContextVar[_CellRun | None] = contextvars.ContextVar("agentbrowser_cell_run", default=None)


def _image_of(obj: Any) -> tuple[CellImage, str] | None:
    """A CellImage (and a de-duplication key) for a screenshot-like object, or None."""
    if isinstance(obj, ScreenshotObservation):
        obj = obj.screenshot
    if isinstance(obj, Screenshot):
        return CellImage(data=obj.bytes(), media_type=obj.media_type, name=obj.path.name), str(obj.path)
    if isinstance(obj, CellImage):
        return obj, f"id:{id(obj)}"
    if isinstance(obj, ImageContent):
        return CellImage(data=obj.data, media_type=obj.media_type, name=obj.source.name), str(obj.source)
    if isinstance(obj, (bytes, bytearray)):
        return CellImage(data=bytes(obj), media_type=_sniff(bytes(obj)), name="image"), f"id:{id(obj)}"
    if isinstance(obj, (str, os.PathLike)):
        path = Path(obj).resolve()
        data = path.read_bytes()
        return CellImage(data=data, media_type=_sniff(data), name=path.name), str(path)
    return None


def _sniff(data: bytes) -> str:
    if data.startswith(b"\xff\xd8"):
        return "image/jpeg"
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "image/webp"
    return "image/png"


def _note(obj: Any) -> bool:
    """Record ``obj`` as an image of the running cell when it is one; whether it was."""
    run = _RUN.get()
    if run is None:
        return False
    found = _image_of(obj)
    if found is None:
        return False
    run.add_image(*found)
    return True


class _RecordingCapture(AsyncCapture):
    """The namespace page's capture: screenshots taken during a cell become that cell's images."""

    async def screenshot(self, *args: Any, **kwargs: Any) -> Screenshot:
        shot = await super().screenshot(*args, **kwargs)
        _note(shot)
        return shot

    async def screenshot_if_changed(self, *args: Any, **kwargs: Any) -> ScreenshotObservation:
        seen = await super().screenshot_if_changed(*args, **kwargs)
        if seen.screenshot is not None:
            _note(seen.screenshot)
        return seen


# -- the watchdog ---------------------------------------------------------------------------------------


def _async_raise(thread_id: int, exc: type[BaseException] | None) -> None:
    # None clears a pending asynchronous exception (NULL in the C API).
    arg = ctypes.py_object(exc) if exc is not None else None
    ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(thread_id), arg)


class _Watchdog:
    """Interrupts a cell whose pure Python code blocks the event loop past the timeout.

    The loop itself marks the deadline; when it has not done so ``WATCHDOG_GRACE_S`` later it
    is blocked by the cell, and :class:`CellTimeout` is raised in its thread (again each grace
    period, a few times, in case the cell catches it).  Blocking C calls (``time.sleep``, a
    socket read) cannot be interrupted this way: only the subprocess executor stops those.
    """

    def __init__(self, loop: asyncio.AbstractEventLoop, timeout_s: float) -> None:
        self.thread_id = threading.get_ident()
        self.timeout_s = timeout_s
        self.lock = threading.Lock()
        self.finished = False
        self.fired = 0
        self.loop_saw_deadline = threading.Event()
        self.done = threading.Event()
        self._handle = loop.call_later(timeout_s, self.loop_saw_deadline.set)
        self._thread = threading.Thread(target=self._watch, name="agentbrowser-cell-watchdog", daemon=True)
        self._thread.start()

    def _watch(self) -> None:
        if self.done.wait(self.timeout_s + WATCHDOG_GRACE_S):
            return
        while self.fired < 5:
            with self.lock:
                if self.finished or self.loop_saw_deadline.is_set():
                    return
                _async_raise(self.thread_id, CellTimeout)
                self.fired += 1
            if self.done.wait(WATCHDOG_GRACE_S):
                return

    def finish(self) -> None:
        with self.lock:
            self.finished = True
            if self.fired:
                _async_raise(self.thread_id, None)
        self.done.set()
        self._handle.cancel()


@dataclass(slots=True)
class _Outcome:
    value: Any = None
    has_value: bool = False
    exc: BaseException | None = None
    timed_out: bool = False
    abandoned: bool = False


# -- errors -----------------------------------------------------------------------------------------------


def _exc_text(exc: BaseException) -> str:
    try:
        return str(exc)
    except Exception as err:  # noqa: BLE001 - a broken __str__ must not break reporting
        return f"<str() failed: {type(err).__name__}>"


def _cell_error(exc: BaseException, filename: str, sources: Mapping[str, str]) -> CellError:
    """The CellError of ``exc``: its line in this cell (else the innermost cell frame), frames of cells only."""
    ename = type(exc).__name__
    if isinstance(exc, SyntaxError) and exc.filename == filename:
        lineno = exc.lineno
        line = (exc.text or "").rstrip("\n").strip() or None
        if line is None and lineno:
            line = _source_line(sources.get(filename, ""), lineno)
        tb = tuple(traceback.format_exception_only(type(exc), exc))
        return CellError(ename=ename, evalue=exc.msg, lineno=lineno, line=line, traceback=tb)
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if _CELL_NAME.match(f.filename)]
    lines: list[str] = []
    for f in frames:
        text = _source_line(sources.get(f.filename, ""), f.lineno or 0) or ""
        lines.append(f'  File "{f.filename}", line {f.lineno}, in {f.name}\n' + (f"    {text}\n" if text else ""))
    lines.extend(traceback.format_exception_only(type(exc), exc))
    own = [f for f in frames if f.filename == filename] or frames
    lineno = own[-1].lineno if own else None
    line = _source_line(sources.get(own[-1].filename, ""), lineno or 0) if own else None
    if frames:
        lines.insert(0, "Traceback (most recent call last):\n")
    return CellError(ename=ename, evalue=_exc_text(exc), lineno=lineno, line=line, traceback=tuple(lines))


def _source_line(source: str, lineno: int) -> str | None:
    rows = source.splitlines()
    if 1 <= lineno <= len(rows):
        return rows[lineno - 1].strip() or None
    return None


def _error_text(info: CellError) -> str:
    head = f"{info.ename}: {info.evalue}" if info.evalue else info.ename
    if info.lineno is not None:
        return f"{head} (line {info.lineno}: {info.line})" if info.line else f"{head} (line {info.lineno})"
    return head


def _compile(source: str, filename: str) -> tuple[CodeType, CodeType | None]:
    """The cell's body and, when its last statement is an expression, that expression (mode eval)."""
    flags = ast.PyCF_ALLOW_TOP_LEVEL_AWAIT
    tree = compile(source, filename, "exec", flags=flags | ast.PyCF_ONLY_AST, dont_inherit=True)
    assert isinstance(tree, ast.Module)
    last: ast.Expr | None = None
    tail = tree.body[-1] if tree.body else None
    if isinstance(tail, ast.Expr) and not source.rstrip().endswith(";"):
        tree.body.pop()
        last = tail
    body = compile(tree, filename, "exec", flags=flags, dont_inherit=True)
    expr = None
    if last is not None:
        expr = compile(ast.Expression(last.value), filename, "eval", flags=flags, dont_inherit=True)
    return body, expr


def _safe_repr(value: Any) -> str:
    try:
        return repr(value)
    except Exception as exc:  # noqa: BLE001 - a broken __repr__ is the cell's problem, not the host's
        return f"<repr() failed: {type(exc).__name__}: {_exc_text(exc)}>"


# -- the session ------------------------------------------------------------------------------------------


class CodeSession:
    """Persistent Python cells against a live browser; ``await run(source)`` returns a :class:`CodeCell`.

    The namespace holds ``browser``, ``page``, ``Wait``, ``SnapshotSpec``, ``done``, ``show``,
    ``asyncio``, ``json``, ``re``, ``Path`` and every tool of ``tools`` as an async function.
    ``browser=None`` launches one on :meth:`start` (or the first :meth:`run`) with ``launch``
    options and closes it in :meth:`close`; ``launch_browser=False`` runs without any browser
    (``browser`` and ``page`` are None: pure Python cells, as the unit tests do).

    ``cell_timeout_s`` (or ``run(timeout_s=)``) stops a cell: an awaiting cell is cancelled, a
    pure Python loop is interrupted from a watchdog thread; a blocking C call (``time.sleep``,
    a socket read) is only stopped by ``executor="subprocess"``, which runs the cells in a child
    Python process connected to the same browser session and kills it when a cell overruns.

    Security: the in-process executor is NOT a security boundary.  Cells run with this
    process's rights (files, network, environment, the browser); use it only for code you
    would run yourself.  The subprocess executor isolates crashes and hangs, not privileges.
    """

    def __init__(
        self,
        browser: AsyncBrowser | None = None,
        *,
        tools: Tools | None = None,
        cell_timeout_s: float = 120.0,
        max_output_chars: int = 10_000,
        sensitive_data: SensitiveData | Mapping[str, Any] | None = None,
        executor: Literal["inprocess", "subprocess"] = "inprocess",
        launch: LaunchOptions | None = None,
        notebook: NotebookSession | None = None,
        launch_browser: bool = True,
        record_browser_state: bool = True,
        available_file_paths: Sequence[str] = (),
    ) -> None:
        if executor not in ("inprocess", "subprocess"):
            raise ValueError(f"executor must be 'inprocess' or 'subprocess', got {executor!r}")
        if not cell_timeout_s > 0:
            raise ValueError(f"cell_timeout_s must be positive, got {cell_timeout_s!r}")
        if isinstance(max_output_chars, bool) or not isinstance(max_output_chars, int) or max_output_chars < 100:
            raise ValueError(f"max_output_chars must be an int of at least 100, got {max_output_chars!r}")
        self.browser = browser
        self.tools = tools if tools is not None else Tools()
        self.cell_timeout_s = float(cell_timeout_s)
        self.max_output_chars = max_output_chars
        if sensitive_data is not None and not isinstance(sensitive_data, SensitiveData | Mapping):
            raise TypeError(f"sensitive_data must be a SensitiveData or a mapping, got {type(sensitive_data).__name__}")
        self.masker = SensitiveData(sensitive_data) if isinstance(sensitive_data, Mapping) else sensitive_data
        self.executor: Literal["inprocess", "subprocess"] = executor
        self.launch = launch
        self.launch_browser = launch_browser
        #: Whether each cell's ``browser_state`` is read after it (the agent fills it from its own observation).
        self.record_browser_state = record_browser_state
        #: Files the tools may read, injected into tools that declare ``available_file_paths``.
        self.available_file_paths = tuple(available_file_paths)
        self.notebook = notebook if notebook is not None else NotebookSession()
        self.notebook.masker = self.masker
        self.notebook.tools = self.tools
        #: The persistent globals of the cells (the same dict as ``notebook.namespace``).
        self.namespace: dict[str, Any] = self.notebook.namespace
        #: Results of the tools called during the last :meth:`run`.
        self.tool_results: list[Any] = []
        #: Images produced during the last :meth:`run`.
        self.images: list[CellImage] = []
        #: The snapshot taken for the last cell's browser state (reuse it instead of observing again).
        self.last_snapshot: Snapshot[AsyncBrowser] | None = None
        self._owns_browser = False
        self._started = False
        self._closed = False
        self._sources: dict[str, str] = {}
        self._lock: asyncio.Lock | None = None
        self._saved_capture: tuple[AsyncBrowser, AsyncCapture] | None = None
        self._sub: SubprocessExecutor | None = None

    # -- lifecycle --------------------------------------------------------------------------------------

    async def start(self) -> CodeSession:
        """Launch the browser when needed (and the child process of the subprocess executor), fill the namespace."""
        if self._closed:
            raise RuntimeError("this CodeSession is closed")
        if self._started:
            return self
        if self.executor == "subprocess":
            # Imported on use: the subprocess executor's child side runs a CodeSession itself.
            self._sub = importlib.import_module("agentbrowser.code.subproc").SubprocessExecutor(self)
            await self._sub.start()
            self._started = True
            return self
        if self.browser is None and self.launch_browser:
            self.browser = await AsyncBrowser.launch(self.launch)
            self._owns_browser = True
        if self.browser is not None:
            page = self.browser.page
            if not isinstance(page.capture, _RecordingCapture):
                self._saved_capture = (self.browser, page.capture)
                page.capture = _RecordingCapture(self.browser)
        self._fill_namespace()
        self._started = True
        return self

    def _fill_namespace(self) -> None:
        ns = self.namespace
        ns.setdefault("__name__", "__notebook__")
        ns.update(
            {
                "browser": self.browser,
                "page": self.browser.page if self.browser is not None else None,
                "Wait": Wait,
                "SnapshotSpec": SnapshotSpec,
                "asyncio": asyncio,
                "json": json,
                "re": re,
                "Path": Path,
                "show": self._show,
            }
        )
        self.namespace.update(self._bind_tools(self.tools))

    def _bind_tools(self, tools: Tools) -> dict[str, Callable[..., Any]]:
        """The tools as async functions bound to this session (the built-in ``done`` sets the ``_task_*`` keys)."""
        ctx = ToolContext(
            browser=self.browser,
            namespace=self.namespace,
            sensitive=self.masker,
            record=self._record,
            available_file_paths=self.available_file_paths,
        )
        return dict(tools.bind(ctx))

    def _record(self, record: Any) -> None:
        self.tool_results.append(record)

    def _wrap_done(self, tool_done: Callable[..., Awaitable[Any]]) -> Callable[..., Awaitable[Any]]:
        ns = self.namespace

        async def done(*args: Any, **kwargs: Any) -> Any:
            """Finish the task (the registry's ``done`` tool); sets ``_task_done`` and friends in the namespace."""
            result = await tool_done(*args, **kwargs)
            ns["_task_done"] = bool(getattr(result, "is_done", True))
            ns["_task_result"] = getattr(result, "extracted_content", None)
            ns["_task_success"] = getattr(result, "success", None)
            ns["_task_attachments"] = [str(Path(p).resolve()) for p in (getattr(result, "attachments", None) or ())]
            return result

        return done

    def _show(self, image: Any) -> None:
        """Add an image output to the running cell: a Screenshot, CellImage, ImageContent, bytes or an image path."""
        if _RUN.get() is None:
            raise RuntimeError("show() works inside a cell")
        if not _note(image):
            kind = type(image).__name__
            raise TypeError(f"show() takes a Screenshot, CellImage, ImageContent, bytes or a path, got {kind}")

    async def close(self) -> None:
        """Stop the child process, restore the page's capture, close the browser this session launched."""
        if self._closed:
            return
        self._closed = True
        if self._sub is not None:
            await self._sub.close()
        if self._saved_capture is not None:
            browser, original = self._saved_capture
            browser.page.capture = original
            self._saved_capture = None
        if self._owns_browser and self.browser is not None:
            await self.browser.close()

    async def __aenter__(self) -> CodeSession:
        return await self.start()

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    def __repr__(self) -> str:
        return f"<CodeSession {self.executor} cells={len(self.notebook.cells)} {'closed' if self._closed else 'open'}>"

    # -- running ----------------------------------------------------------------------------------------

    async def run(self, source: str, *, timeout_s: float | None = None) -> CodeCell:
        """Run one cell (appended to ``notebook``); never raises for the cell's own errors."""
        if not isinstance(source, str):
            raise TypeError(f"source must be a str, got {type(source).__name__}")
        timeout = self.cell_timeout_s if timeout_s is None else float(timeout_s)
        if not timeout > 0:
            raise ValueError(f"timeout_s must be positive, got {timeout_s!r}")
        if self._lock is None:
            self._lock = asyncio.Lock()
        async with self._lock:
            await self.start()
            cell = self.notebook.add_cell(source)
            cell.execution_count = self.notebook.increment_execution_count()
            self.tool_results = []
            self.images = []
            if self._sub is not None:
                await self._sub.run(cell, timeout)
            else:
                await self.execute(cell, timeout)
            return cell

    async def execute(
        self, cell: CodeCell, timeout_s: float, *, on_ran: Callable[[], None] | None = None
    ) -> CodeCell:
        """Run ``cell`` in this process and fill its fields (``run`` without the notebook bookkeeping);
        ``on_ran`` is called when the cell's code ended, before the browser state is collected."""
        started = time.perf_counter()
        cell.status = ExecutionStatus.RUNNING
        filename = f"<cell {cell.execution_count}>"
        self._sources[filename] = cell.source
        linecache.cache[filename] = (len(cell.source), None, cell.source.splitlines(True), filename)
        run = _CellRun(CellStreams(self.max_output_chars))
        outcome = _Outcome()
        try:
            body, expr = _compile(cell.source, filename)
        except SyntaxError as exc:
            outcome.exc = exc
        else:
            await self._drive(body, expr, run, outcome, timeout_s)
        run.streams.closed = True
        if on_ran is not None:
            on_ran()
        self._fill_cell(cell, run, outcome, filename, timeout_s)
        if self.record_browser_state:
            cell.browser_state = await self.browser_state()
        cell.duration_s = time.perf_counter() - started
        self.images = list(run.images)
        return cell

    async def _drive(
        self, body: CodeType, expr: CodeType | None, run: _CellRun, outcome: _Outcome, timeout_s: float
    ) -> None:
        dog = _Watchdog(asyncio.get_running_loop(), timeout_s)
        task = asyncio.create_task(self._runner(body, expr, run, outcome, dog))
        try:
            done, _ = await asyncio.wait({task}, timeout=timeout_s)
            if not done:
                outcome.timed_out = True
                task.cancel()
                done, _ = await asyncio.wait({task}, timeout=CANCEL_GRACE_S)
                outcome.abandoned = not done
        except asyncio.CancelledError:
            task.cancel()
            dog.finish()
            raise
        finally:
            if not task.done():
                dog.finish()
        if dog.fired:
            outcome.timed_out = True
        if task.done() and not task.cancelled():
            late = task.exception()
            if late is not None and outcome.exc is None:
                outcome.exc = late
            if isinstance(late, CellTimeout):
                outcome.timed_out = True

    async def _runner(
        self, body: CodeType, expr: CodeType | None, run: _CellRun, outcome: _Outcome, dog: _Watchdog
    ) -> None:
        token = _RUN.set(run)
        try:
            with capture(run.streams):
                try:
                    value = eval(body, self.namespace)  # noqa: S307 - running the cell is the point
                    if inspect.iscoroutine(value):
                        await value
                    if expr is not None:
                        value = eval(expr, self.namespace)  # noqa: S307
                        if inspect.iscoroutine(value):
                            value = await value
                        outcome.value = value
                        outcome.has_value = True
                except BaseException as exc:  # noqa: BLE001 - SystemExit and KeyboardInterrupt must not end the host
                    outcome.exc = exc
        finally:
            dog.finish()
            _RUN.reset(token)

    def _mask(self, text: str) -> str:
        return self.masker.mask(text) if self.masker is not None else text

    def _fill_cell(self, cell: CodeCell, run: _CellRun, outcome: _Outcome, filename: str, timeout_s: float) -> None:
        limit = self.max_output_chars
        mask = self._mask
        value = outcome.value if outcome.exc is None else None
        if outcome.has_value and outcome.exc is None and value is not None:
            _note_value = _RUN.set(run)
            try:
                _note(value)
            except OSError:
                pass
            finally:
                _RUN.reset(_note_value)
            cell.result = bound_text(mask(_safe_repr(value)), limit).text
        else:
            cell.result = None
        streams = run.streams
        cell.stdout = streams.stdout.render(limit, mask=mask).text
        cell.stderr = streams.stderr.render(limit, mask=mask).text
        suffix = ""
        if cell.result is not None:
            sep = "\n" if streams.combined.total and not streams.combined.ends_with_newline() else ""
            suffix = f"{sep}Out: {cell.result}"
        combined = streams.combined.render(limit, suffix=suffix, mask=mask)
        cell.output = combined.text or None
        cell.output_truncated = combined.truncated
        cell.original_output_chars = combined.original_chars
        cell.images = tuple(run.images)
        cell.timed_out = outcome.timed_out
        exc = outcome.exc
        if outcome.timed_out:
            info = _cell_error(exc, filename, self._sources) if exc is not None else None
            how = "interrupted" if isinstance(exc, CellTimeout) else "cancelled"
            evalue = f"the cell did not finish within {timeout_s:g} s ({how})"
            if outcome.abandoned:
                evalue += "; it ignored the cancellation and may still be running"
            cell.error_info = CellError(
                ename="TimeoutError",
                evalue=evalue,
                lineno=info.lineno if info else None,
                line=info.line if info else None,
                traceback=(*(info.traceback[:-1] if info else ()), f"TimeoutError: {evalue}\n"),
            )
        elif exc is not None:
            cell.error_info = _cell_error(exc, filename, self._sources)
        else:
            cell.error_info = None
        if cell.error_info is not None:
            e = cell.error_info
            cell.error_info = CellError(
                ename=e.ename,
                evalue=mask(e.evalue),
                lineno=e.lineno,
                line=mask(e.line) if e.line is not None else None,
                traceback=tuple(bound_text(mask(t), limit).text for t in e.traceback),
            )
            cell.error = bound_text(_error_text(cell.error_info), limit).text
            cell.status = ExecutionStatus.ERROR
        else:
            cell.error = None
            cell.status = ExecutionStatus.SUCCESS
        for record in self.tool_results:
            for item in getattr(getattr(record, "result", None), "images", None) or ():
                image = _tool_image(item)
                if image is not None:
                    run.add_image(image, f"tool:{image.name}:{len(image.data)}")
        cell.images = tuple(run.images)

    async def browser_state(self) -> str | None:
        """URL, title, active tab and a bounded snapshot summary of the session's browser (None without one)."""
        browser = self.browser
        if browser is None:
            return None
        if browser.closed:
            return "Browser: closed"
        lines: list[str] = []
        try:
            async with asyncio.timeout(BROWSER_STATE_TIMEOUT_S):
                lines.append(f"URL: {await browser.page.url()}")
                lines.append(f"Title: {await browser.page.title()}")
                tabs = await browser.tabs.list()
                active = next((t for t in tabs if t.active), None)
                lines.append(f"Tab: {active.id if active else '?'} ({len(tabs)} tab{'s' if len(tabs) != 1 else ''})")
                snap = await browser.page.observe()
                self.last_snapshot = snap
                roles: dict[str, int] = {}
                for ref in snap.refs.values():
                    roles[ref.role] = roles.get(ref.role, 0) + 1
                counts = ", ".join(f"{r} {n}" for r, n in sorted(roles.items(), key=lambda kv: (-kv[1], kv[0])))
                lines.append(f"Snapshot: {len(snap.refs)} refs" + (f" ({counts})" if counts else ""))
                lines.append(_first_lines(snap.text, BROWSER_STATE_CHARS - sum(len(x) + 1 for x in lines)))
        except Exception as exc:  # noqa: BLE001 - the state is a report; its failure is part of it
            lines.append(f"(browser state incomplete: {type(exc).__name__}: {_exc_text(exc)[:200]})")
        return bound_text(self._mask("\n".join(lines)), BROWSER_STATE_CHARS).text


def _first_lines(text: str, budget: int) -> str:
    """The first whole lines of ``text`` that fit ``budget`` characters, with a count of the rest."""
    rows = text.splitlines()
    kept: list[str] = []
    used = 0
    for i, row in enumerate(rows):
        if used + len(row) + 1 > budget - 40:
            kept.append(f"[... {len(rows) - i} more lines]")
            break
        kept.append(row)
        used += len(row) + 1
    return "\n".join(kept)


def _tool_image(item: Any) -> CellImage | None:
    """A CellImage from one ``ActionResult.images`` entry (``{"data": bytes|base64, "media_type"?, "name"?}``)."""
    if isinstance(item, CellImage):
        return item
    if not isinstance(item, Mapping):
        return None
    data = item.get("data")
    if isinstance(data, str):
        try:
            data = base64.b64decode(data, validate=False)
        except ValueError:
            return None
    if not isinstance(data, (bytes, bytearray)):
        return None
    media = item.get("media_type") or item.get("mime_type") or _sniff(bytes(data))
    return CellImage(data=bytes(data), media_type=str(media), name=str(item.get("name") or "tool-image"))
