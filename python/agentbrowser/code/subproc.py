"""The subprocess executor: ``CodeSession(executor="subprocess")`` runs cells in a child Python process.

The child (``python -m agentbrowser.code.subproc``) joins the same browser session with
``AsyncBrowser.connect(session=...)`` and holds its own namespace; parent and child speak
JSON lines over the child's stdin and a private duplicate of its stdout (the child's fd 1
is pointed at stderr, so nothing a cell prints can corrupt the protocol).

Messages: parent -> child ``init`` (session, or ``socket``: the path of a socket serving the
daemon protocol, which the MCP server's ``browser_run_python`` gives; limits, tool names, and
``browser_state``: whether each cell reads the browser state, default true), ``run`` (source,
execution_count, timeout_s), ``tool_result``; child -> parent ``ready``/``fatal``, ``tool``
(a call of a parent tool: the tools run in the parent, against the parent's browser), ``ran``
(the cell's code ended), ``cell`` (the CodeCell's fields, images as base64, the ``_task_*``
keys).  The child applies the same soft timeouts as the in-process executor; when it does
not report ``ran`` within the timeout plus :data:`HARD_GRACE_S` (a blocking C call, a
crash), the parent kills it, starts a new one and says so in the cell's error: the
variables of earlier cells are gone then.
"""

from __future__ import annotations

import asyncio
import base64
import dataclasses
import json
import os
import sys
import threading
import uuid
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, TextIO

from .._atransport import connect_socket_async
from ..aio import AsyncBrowser
from ..options import LaunchOptions
from ..tools import ActionResult, ToolError, Tools
from .cells import CodeSession
from .notebook import CellError, CellImage, CodeCell, ExecutionStatus

__all__ = ["HARD_GRACE_S", "SubprocessExecutor", "cell_from_json", "cell_to_json", "main"]

#: How long after a cell's timeout the parent waits for the child before killing it, in seconds.
HARD_GRACE_S = 3.0
#: How long the child may take to start and join the browser, in seconds.
START_TIMEOUT_S = 60.0
#: How long the child may take to report a cell after its code ended (the browser state), in seconds.
REPORT_TIMEOUT_S = 20.0
_LINE_LIMIT = 256 * 1024 * 1024
_TASK_KEYS = ("_task_done", "_task_result", "_task_success", "_task_attachments")


def _jsonable(value: Any) -> Any:
    """``value`` as JSON data: dataclasses as dicts, sequences as lists, bytes as base64, others as repr."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _jsonable(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, Mapping):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    if isinstance(value, (bytes, bytearray)):
        return base64.b64encode(bytes(value)).decode()
    return repr(value)


def cell_to_json(cell: CodeCell) -> dict[str, Any]:
    """A cell's executed fields as JSON data (images base64)."""
    info = cell.error_info
    return {
        "output": cell.output,
        "status": cell.status.value,
        "error": cell.error,
        "browser_state": cell.browser_state,
        "stdout": cell.stdout,
        "stderr": cell.stderr,
        "result": cell.result,
        "error_info": None
        if info is None
        else {
            "ename": info.ename,
            "evalue": info.evalue,
            "lineno": info.lineno,
            "line": info.line,
            "traceback": list(info.traceback),
        },
        "images": [
            {"data": base64.b64encode(i.data).decode(), "media_type": i.media_type, "name": i.name} for i in cell.images
        ],
        "duration_s": cell.duration_s,
        "timed_out": cell.timed_out,
        "output_truncated": cell.output_truncated,
        "original_output_chars": cell.original_output_chars,
    }


def cell_from_json(cell: CodeCell, data: Mapping[str, Any], mask: Callable[[str], str]) -> CodeCell:
    """Fill ``cell`` from :func:`cell_to_json` data, every text through ``mask``."""

    def m(text: Any) -> str | None:
        return None if text is None else mask(str(text))

    cell.output = m(data.get("output"))
    cell.status = ExecutionStatus(data.get("status", "error"))
    cell.error = m(data.get("error"))
    cell.browser_state = m(data.get("browser_state"))
    cell.stdout = m(data.get("stdout")) or ""
    cell.stderr = m(data.get("stderr")) or ""
    cell.result = m(data.get("result"))
    info = data.get("error_info")
    cell.error_info = (
        None
        if info is None
        else CellError(
            ename=str(info["ename"]),
            evalue=mask(str(info["evalue"])),
            lineno=info.get("lineno"),
            line=m(info.get("line")),
            traceback=tuple(mask(str(t)) for t in info.get("traceback") or ()),
        )
    )
    cell.images = tuple(
        CellImage(data=base64.b64decode(i["data"]), media_type=str(i["media_type"]), name=str(i["name"]))
        for i in data.get("images") or ()
    )
    cell.duration_s = float(data.get("duration_s") or 0.0)
    cell.timed_out = bool(data.get("timed_out"))
    cell.output_truncated = bool(data.get("output_truncated"))
    cell.original_output_chars = int(data.get("original_output_chars") or 0)
    return cell


class _ChildGone(Exception):
    """The child process ended or stopped answering."""


class SubprocessExecutor:
    """The parent side: starts the child, sends it cells, answers its tool calls, kills it when a cell overruns."""

    def __init__(self, session: CodeSession) -> None:
        self.session = session
        #: The session name the child joins (None: the cells run without a browser).
        self.session_name: str | None = None
        self._proc: asyncio.subprocess.Process | None = None
        self._owns_browser = False
        self._tools: dict[str, Callable[..., Any]] = {}
        #: How many times a child was killed and replaced.
        self.restarts = 0

    @property
    def pid(self) -> int | None:
        """The running child's process id."""
        return self._proc.pid if self._proc is not None else None

    async def start(self) -> None:
        """Join or start the browser session, bind the tools, start the child."""
        s = self.session
        if s.browser is not None:
            if s.browser.session is None or s.browser.pid is not None:
                raise ValueError(
                    "the subprocess executor needs a browser its child can join by session name: "
                    "pass AsyncBrowser.connect(session=...) (a launched browser has no socket)"
                )
            self.session_name = s.browser.session
        elif s.launch_browser:
            opts = s.launch
            if opts is not None:
                extra = {
                    f.name
                    for f in dataclasses.fields(opts)
                    if f.name not in ("session", "timeout_ms") and getattr(opts, f.name) != f.default
                }
                if extra:
                    raise ValueError(
                        "the subprocess executor joins a session through the CLI daemon, which takes only "
                        f"LaunchOptions.session and timeout_ms; got {', '.join(sorted(extra))}"
                    )
            name = opts.session if opts is not None and opts.session else f"code-{uuid.uuid4().hex[:12]}"
            timeout_ms = opts.timeout_ms if opts is not None else 30000
            s.browser = await AsyncBrowser.connect(session=name, timeout_ms=timeout_ms)
            self._owns_browser = True
            self.session_name = name
        ns = s.namespace
        ns.setdefault("__name__", "__notebook__")
        ns["browser"] = s.browser
        ns["page"] = s.browser.page if s.browser is not None else None
        if s.tools is not None:
            self._tools = s._bind_tools(s.tools)
        await self._spawn()

    async def _spawn(self) -> None:
        env = dict(os.environ)
        root = str(Path(__file__).resolve().parents[2])
        env["PYTHONPATH"] = root + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
        self._proc = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "agentbrowser.code.subproc",
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            env=env,
            limit=_LINE_LIMIT,
            start_new_session=True,
        )
        s = self.session
        await self._send(
            {
                "type": "init",
                "session": self.session_name,
                "max_output_chars": s.max_output_chars,
                "cell_timeout_s": s.cell_timeout_s,
                "tools": sorted(n for n in self._tools if n != "done"),
                "tool_done": "done" in self._tools,
            }
        )
        try:
            msg = await self._read(START_TIMEOUT_S)
        except _ChildGone as exc:
            await self._kill()
            raise RuntimeError(f"the code-mode child process did not start: {exc}") from None
        if msg.get("type") != "ready":
            await self._kill()
            raise RuntimeError(f"the code-mode child process did not start: {msg.get('error', msg)}")

    async def _send(self, msg: Mapping[str, Any]) -> None:
        proc = self._proc
        if proc is None or proc.stdin is None:
            raise _ChildGone("no child process")
        try:
            proc.stdin.write((json.dumps(msg) + "\n").encode())
            await proc.stdin.drain()
        except (BrokenPipeError, ConnectionResetError) as exc:
            raise _ChildGone(f"the child's stdin closed ({exc})") from None

    async def _read(self, timeout_s: float) -> dict[str, Any]:
        proc = self._proc
        if proc is None or proc.stdout is None:
            raise _ChildGone("no child process")
        try:
            line = await asyncio.wait_for(proc.stdout.readline(), timeout_s)
        except TimeoutError:
            raise _ChildGone(f"no answer within {timeout_s:g} s") from None
        if not line:
            code = await proc.wait()
            raise _ChildGone(f"the child process exited with code {code}")
        data: dict[str, Any] = json.loads(line)
        return data

    async def run(self, cell: CodeCell, timeout_s: float) -> CodeCell:
        """Run ``cell`` in the child and fill its fields; a child that overruns is killed and replaced."""
        s = self.session
        cell.status = ExecutionStatus.RUNNING
        loop = asyncio.get_running_loop()
        started = loop.time()
        try:
            await self._send(
                {"type": "run", "source": cell.source, "execution_count": cell.execution_count, "timeout_s": timeout_s}
            )
            deadline = started + timeout_s + HARD_GRACE_S
            while True:
                msg = await self._read(max(0.0, deadline - loop.time()))
                if msg["type"] == "tool":
                    await self._answer_tool(msg)
                elif msg["type"] == "ran":
                    break
            msg = await self._read(REPORT_TIMEOUT_S)
            if msg.get("type") != "cell":
                raise _ChildGone(f"unexpected message {msg.get('type')!r}")
        except _ChildGone as exc:
            await self._lost(cell, str(exc), timeout_s, loop.time() - started)
            return cell
        cell_from_json(cell, msg["cell"], s._mask)
        for key, value in (msg.get("task") or {}).items():
            if key in _TASK_KEYS:
                s.namespace[key] = value
        s.images = list(cell.images)
        return cell

    async def _answer_tool(self, msg: Mapping[str, Any]) -> None:
        name = str(msg.get("name"))
        fn = self._tools.get(name)
        reply: dict[str, Any] = {"type": "tool_result", "id": msg.get("id")}
        if fn is None:
            reply.update(ok=False, error=f"NameError: no tool named {name!r}", result=None)
        else:
            try:
                result = await fn(*(msg.get("args") or ()), **(msg.get("kwargs") or {}))
                reply.update(ok=True, result=_jsonable(result))
            except Exception as exc:  # noqa: BLE001 - the tool's failure goes back to the cell
                payload = getattr(exc, "result", None)
                reply.update(
                    ok=False, error=f"{type(exc).__name__}: {exc}", etype=type(exc).__name__, result=_jsonable(payload)
                )
        await self._send(reply)

    async def _lost(self, cell: CodeCell, why: str, timeout_s: float, elapsed: float) -> None:
        """The child overran or died: kill it, start a new one, report it in the cell."""
        s = self.session
        pid = self.pid
        overran = elapsed >= timeout_s
        await self._kill()
        try:
            await self._spawn()
            self.restarts += 1
            restarted = "a new child process was started: variables of earlier cells are gone"
        except Exception as exc:  # noqa: BLE001 - reported in the cell
            restarted = f"starting a new child process failed ({exc})"
        if overran:
            evalue = (
                f"the cell did not finish within {timeout_s:g} s; the subprocess executor killed its child "
                f"process (pid {pid}) and {restarted}"
            )
            ename = "TimeoutError"
        else:
            evalue = f"the child process (pid {pid}) was lost ({why}); {restarted}"
            ename = "ChildProcessError"
        cell.timed_out = overran
        cell.error_info = CellError(ename=ename, evalue=s._mask(evalue), traceback=(f"{ename}: {s._mask(evalue)}\n",))
        cell.error = f"{ename}: {s._mask(evalue)}"
        cell.status = ExecutionStatus.ERROR
        cell.duration_s = elapsed
        cell.output = None
        cell.browser_state = await s.browser_state()

    async def _kill(self) -> None:
        proc, self._proc = self._proc, None
        if proc is None:
            return
        if proc.returncode is None:
            try:
                proc.kill()
            except ProcessLookupError:
                pass
        await proc.wait()

    async def close(self) -> None:
        """End the child (EOF on its stdin, then kill) and the browser session this executor started."""
        proc = self._proc
        if proc is not None:
            if proc.stdin is not None:
                proc.stdin.close()
            try:
                await asyncio.wait_for(proc.wait(), 10.0)
            except TimeoutError:
                pass
            await self._kill()
        browser = self.session.browser
        if self._owns_browser and browser is not None:
            await browser.close(end_session=True)


# -- the child ------------------------------------------------------------------------------------------------


class _Child:
    def __init__(self, proto: TextIO) -> None:
        self.proto = proto
        self.loop = asyncio.get_running_loop()
        self.inbox: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue()
        self.pending: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self.next_id = 0
        self.write_lock = threading.Lock()
        threading.Thread(target=self._reader, name="agentbrowser-child-stdin", daemon=True).start()

    def _reader(self) -> None:
        for line in sys.stdin:
            self.loop.call_soon_threadsafe(self._dispatch, json.loads(line))
        self.loop.call_soon_threadsafe(self.inbox.put_nowait, None)

    def _dispatch(self, msg: dict[str, Any]) -> None:
        if msg.get("type") == "tool_result":
            fut = self.pending.pop(int(msg["id"]), None)
            if fut is not None and not fut.done():
                fut.set_result(msg)
        else:
            self.inbox.put_nowait(msg)

    def send(self, msg: Mapping[str, Any]) -> None:
        with self.write_lock:
            self.proto.write(json.dumps(msg) + "\n")
            self.proto.flush()

    def tool(self, name: str) -> Callable[..., Any]:
        async def call(*args: Any, **kwargs: Any) -> Any:
            """A tool of the parent's registry, called over the pipe."""
            self.next_id += 1
            fut: asyncio.Future[dict[str, Any]] = self.loop.create_future()
            self.pending[self.next_id] = fut
            self.send({"type": "tool", "id": self.next_id, "name": name, "args": list(args), "kwargs": kwargs})
            reply = await fut
            return _tool_outcome(reply)

        call.__name__ = name
        return call


def _tool_outcome(reply: Mapping[str, Any]) -> Any:
    result = reply.get("result")
    obj: Any = ActionResult(**result) if isinstance(result, Mapping) else result
    if reply.get("ok"):
        return obj
    if reply.get("etype") == "ToolError" and isinstance(obj, ActionResult):
        raise ToolError(obj)
    raise RuntimeError(str(reply.get("error")))


async def _join_socket(path: Path) -> AsyncBrowser:
    """A browser on the daemon protocol served at ``path``: the MCP server's ``browser_run_python``
    serves its connection's browser there, so the cells drive the page its other tools act on."""
    transport = await connect_socket_async(path)
    browser = AsyncBrowser()
    browser._bind(transport, None, LaunchOptions())
    return browser


async def _child_main(proto: TextIO) -> int:
    child = _Child(proto)
    init = await child.inbox.get()
    if init is None or init.get("type") != "init":
        return 2
    browser: AsyncBrowser | None = None
    try:
        if init.get("socket"):
            browser = await _join_socket(Path(str(init["socket"])))
        elif init.get("session"):
            browser = await AsyncBrowser.connect(session=str(init["session"]))
        session = CodeSession(
            browser,
            launch_browser=False,
            tools=Tools(builtins=False),
            cell_timeout_s=float(init["cell_timeout_s"]),
            max_output_chars=int(init["max_output_chars"]),
            record_browser_state=bool(init.get("browser_state", True)),
        )
        await session.start()
        for name in init.get("tools") or ():
            session.namespace[name] = child.tool(name)
        if init.get("tool_done"):
            session.namespace["done"] = session._wrap_done(child.tool("done"))
    except Exception as exc:  # noqa: BLE001 - reported to the parent
        child.send({"type": "fatal", "error": f"{type(exc).__name__}: {exc}"})
        return 1
    child.send({"type": "ready", "pid": os.getpid()})
    try:
        while True:
            msg = await child.inbox.get()
            if msg is None or msg.get("type") == "close":
                break
            if msg.get("type") != "run":
                continue
            cell = CodeCell(source=str(msg["source"]), execution_count=msg.get("execution_count"))
            await session.execute(cell, float(msg["timeout_s"]), on_ran=lambda: child.send({"type": "ran"}))
            task = {k: _jsonable(session.namespace[k]) for k in _TASK_KEYS if k in session.namespace}
            child.send({"type": "cell", "cell": cell_to_json(cell), "task": task})
    finally:
        if browser is not None and not browser.closed:
            await browser.close()
    return 0


def main() -> int:
    """The child's entry point: the protocol on a private copy of stdout, fd 1 pointed at stderr."""
    proto = os.fdopen(os.dup(1), "w", encoding="utf-8", buffering=1)
    os.dup2(2, 1)
    return asyncio.run(_child_main(proto))


if __name__ == "__main__":
    raise SystemExit(main())
