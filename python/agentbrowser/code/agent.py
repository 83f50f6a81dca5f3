"""The code agent: a model writes one Python cell per step, the cell runs against the live
browser through :class:`~agentbrowser.code.CodeSession`, and the run comes back as a
:class:`~agentbrowser.code.NotebookSession` whose ``namespace`` is the run's globals.

One step: the observation (ephemeral: only the current one is ever sent), one model call, one
fenced ```python cell taken from the reply (the text around it is kept as a note, a markdown
cell before the cell in the exported notebook, not in ``cells``) (a reply without one is never executed: the model
gets a format reminder and the step counts as a failure), the cell run, its result message
(``Cell k/N``, ``Error:`` with type, message and line, bounded ``Output:``, tool results,
images).  The message history is rebuilt from the agent's own step records every step, so
older steps can show a tool's ``long_term_memory`` instead of content meant to be seen once.

What each step resends is kept small and stable, so providers' prompt caches hit: the system
prompt (rules, tools, the SDK's method index) never changes during a run; the whole SDK
reference goes with the task in step 1 only; a past turn is rendered the same way in every
later request, and once there are many, the oldest are condensed to one line each, a block at
a time (so the prefix changes only when a block is condensed).  ``model_log`` writes every
request and response to the model (:class:`~agentbrowser.llm.ModelLog`, secrets masked).
The run stops on ``done()``, ``max_steps`` or ``max_failures`` consecutive failures (a partial
result names the variables collected); the judge runs once after ``done()``.
"""

from __future__ import annotations

import asyncio
import base64
import binascii
import contextlib
import dataclasses
import inspect
import keyword
import logging
import os
import re
import sys
import tempfile
import time
import uuid
import warnings
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from ..aio import AsyncBrowser
from ..errors import BrowserError
from ..llm import (
    AssistantMessage,
    ChatCompletion,
    ChatModel,
    ImagePart,
    Message,
    ModelLog,
    SystemMessage,
    TextPart,
    Usage,
    UserMessage,
    model_call,
)
from ..options import LaunchOptions
from ..tools import ActionResult, JudgementResult, ToolCallRecord, Tools
from .cells import CodeSession
from .judge import judge_run
from .notebook import (
    CellImage,
    CodeAgentHistoryList,
    CodeAgentResult,
    CodeAgentState,
    CodeAgentStep,
    CodeCell,
    ExecutionStatus,
    NotebookSession,
)
from .observe import Observation, Observer, PageState, cut
from .prompt import build_system_prompt, sdk_reference_message, sdk_reference_note
from .secrets import SensitiveData

__all__ = ["CodeAgent", "ParsedReply", "StepTiming", "StopReason", "parse_reply"]

log = logging.getLogger("agentbrowser.code.agent")

#: Why a run ended.
StopReason = Literal["done", "max_steps", "max_failures", "model_error"]

_PYTHON_TAGS = frozenset({"python", "py", "python3"})
_JS_TAGS = frozenset({"js", "javascript"})
_OPEN = re.compile(r"^(?P<indent>[ \t]*)(?P<ticks>`{3,})[ \t]*(?P<tag>[^\s`]*)(?:[ \t]+(?P<name>[^\s`]+))?[ \t]*$")
_URL = re.compile(r"https?://[^\s<>\"'`)\]]+")
_FORMAT_REMINDER = (
    "Format: your reply had no ```python code block, so nothing ran. Reply with exactly one "
    "```python block (optionally after a few lines of reasoning)."
)
_HISTORY_REPLY_CHARS = 8_000
_HISTORY_OUTPUT_CHARS = 2_000
_TOOL_LINE_CHARS = 2_000
_TRACEBACK_CHARS = 2_000
#: Past turns shown whole: at least this many; once twice as many have piled up, the oldest are
#: condensed to a line each, this many at a time (so the request's prefix changes only then).
_FULL_TURNS = 4
#: At most this many condensed lines (the oldest go first, and the block says so).
_CONDENSED_LINES = 40
_CONDENSED_CODE_CHARS = 60
_CONDENSED_OUTCOME_CHARS = 60


@dataclass(frozen=True, slots=True)
class ParsedReply:
    """The fenced blocks of one model reply: the ```python cells, named ```js blocks, what was
    ignored (unnamed js blocks, blocks with other tags, an unclosed fence), and ``text``: the
    reply without its first ```python block (the model's words around the cell)."""

    python: tuple[str, ...]
    js: tuple[tuple[str, str], ...]
    ignored: tuple[str, ...]
    unclosed: str | None
    text: str = ""


def parse_reply(text: str) -> ParsedReply:
    """Every fenced block of ``text`` (fences of 3+ backticks; a block closes at a line of at
    least as many backticks; ```python / ```py / ```python3 are cells, ```js NAME are strings)."""
    lines = text.split("\n")
    python: list[str] = []
    js: list[tuple[str, str]] = []
    ignored: list[str] = []
    unclosed: str | None = None
    cell_lines: tuple[int, int] | None = None
    i = 0
    while i < len(lines):
        opened = _OPEN.match(lines[i])
        if not opened:
            i += 1
            continue
        ticks, tag = opened.group("ticks"), opened.group("tag").lower()
        indent, name = len(opened.group("indent")), opened.group("name")
        closer = re.compile(rf"^[ \t]*`{{{len(ticks)},}}[ \t]*$")
        end = next((j for j in range(i + 1, len(lines)) if closer.match(lines[j])), None)
        if end is None:
            unclosed = tag or "(untagged)"
            break
        body = "\n".join(_dedent(line, indent) for line in lines[i + 1 : end])
        if tag in _PYTHON_TAGS:
            python.append(body)
            cell_lines = cell_lines or (i, end)
        elif tag in _JS_TAGS and name:
            js.append((name, body))
        elif tag in _JS_TAGS:
            ignored.append("an unnamed ```js block (name it: ```js NAME)")
        else:
            ignored.append(f"a ```{tag or ''} block" + ("" if tag else " without a language tag"))
        i = end + 1
    around = lines if cell_lines is None else lines[: cell_lines[0]] + lines[cell_lines[1] + 1 :]
    return ParsedReply(tuple(python), tuple(js), tuple(ignored), unclosed, "\n".join(around).strip())


def _dedent(line: str, indent: int) -> str:
    strip = 0
    while strip < indent and strip < len(line) and line[strip] in " \t":
        strip += 1
    return line[strip:]


@dataclass(frozen=True, slots=True)
class StepTiming:
    """Where one step's time went (seconds): page state, snapshot, screenshot, the model call,
    the cell, the whole step; ``overhead_s`` is the loop's own share (the rest)."""

    number: int
    state_s: float
    snapshot_s: float
    screenshot_s: float
    model_s: float
    cell_s: float
    total_s: float
    observation_chars: int
    snapshot_kind: str

    @property
    def overhead_s(self) -> float:
        """The step without the model call, the snapshot and the screenshot."""
        return self.total_s - self.model_s - self.snapshot_s - self.screenshot_s


@dataclass(slots=True)
class _Turn:
    """What the agent keeps of one step to rebuild the messages: the reply and its result."""

    number: int
    reply: str
    cell: CodeCell | None
    notes: list[str]
    failures: int
    tool_results: list[ToolCallRecord] = field(default_factory=list)
    images: list[CellImage] = field(default_factory=list)
    format_failure: bool = False


class CodeAgent:
    """A browser agent whose model writes Python cells; ``await run()`` returns the notebook.

    ``llm`` is any :class:`~agentbrowser.llm.ChatModel` (``ChatOpenAI``, ``ChatAnthropic``);
    ``browser`` an :class:`~agentbrowser.aio.AsyncBrowser` (never closed by the agent; without
    one the agent launches its own and closes it after the run unless ``keep_alive``);
    ``tools`` a :class:`~agentbrowser.tools.Tools` registry (default: the built-ins);
    ``sensitive_data`` values the model only sees as ``<secret>name</secret>`` placeholders;
    ``on_step(step)`` is called (and awaited when it returns an awaitable) after every step.
    When the task names exactly one URL, the run first opens it in a cell of its own.
    ``model_log`` (a path or a :class:`~agentbrowser.llm.ModelLog`) records every request to the
    model and its response, secrets masked; ``sdk_reference="every_step"`` resends the whole SDK
    reference each step (default ``"once"``: step 1 only, the index stays in the system prompt).
    ``trace`` (a path ending in ``.zip``) records a trace of the run (docs/trace.md): started when
    the run begins, written there when it ends, also when it fails.
    """

    def __init__(
        self,
        task: str,
        llm: ChatModel | None = None,
        browser: AsyncBrowser | None = None,
        tools: Tools | None = None,
        max_steps: int = 100,
        max_failures: int = 8,
        use_judge: bool = True,
        judge_llm: ChatModel | None = None,
        sensitive_data: SensitiveData | Mapping[str, Any] | None = None,
        use_vision: bool = True,
        cell_timeout_s: float = 120.0,
        max_output_chars: int = 10_000,
        snapshot_budget_chars: int = 16_000,
        on_step: Callable[[CodeAgentStep], Awaitable[None] | None] | None = None,
        executor: Literal["inprocess", "subprocess"] = "inprocess",
        *,
        launch: LaunchOptions | None = None,
        keep_alive: bool = False,
        open_task_url: bool = True,
        max_tokens: int | None = None,
        model_log: ModelLog | str | os.PathLike[str] | None = None,
        sdk_reference: Literal["once", "every_step"] = "once",
        trace: str | os.PathLike[str] | None = None,
        browser_session: AsyncBrowser | None = None,
        controller: Tools | None = None,
        page_extraction_llm: ChatModel | None = None,
        file_system: Any = None,
        available_file_paths: list[str] | None = None,
        max_validations: int = 0,
        calculate_cost: bool = False,
        demo_mode: bool | None = None,
        **kwargs: Any,
    ) -> None:
        if not isinstance(task, str) or not task.strip():
            raise ValueError("CodeAgent needs a non-empty task")
        if llm is None:
            raise ValueError(
                "CodeAgent needs a model: llm=ChatOpenAI('gpt-4.1-mini') or ChatAnthropic(...) from agentbrowser.llm "
                "(browser-use's default, ChatBrowserUse, is its own cloud model; agentbrowser has no default model)"
            )
        if browser is not None and browser_session is not None:
            raise ValueError('Cannot specify both "browser" and "browser_session" (aliases): pass browser=')
        if tools is not None and controller is not None:
            raise ValueError('Cannot specify both "controller" and "tools" (aliases): pass tools=')
        if kwargs:
            warnings.warn(
                f"CodeAgent ignores these browser-use arguments: {', '.join(sorted(kwargs))}",
                stacklevel=2,
            )
        browser = browser if browser is not None else browser_session
        tools = tools if tools is not None else controller
        if max_steps < 1:
            raise ValueError(f"max_steps must be >= 1, got {max_steps}")
        if max_failures < 1:
            raise ValueError(f"max_failures must be >= 1, got {max_failures}")
        if sdk_reference not in ("once", "every_step"):
            raise ValueError(f"sdk_reference must be 'once' or 'every_step', got {sdk_reference!r}")
        if trace is not None and not os.fspath(trace).lower().endswith(".zip"):
            raise ValueError(f"trace must be a path ending in .zip (a trace is a ZIP file), got {os.fspath(trace)!r}")
        #: Where the run's trace is written (absolute), or None.
        self.trace: str | None = None if trace is None else os.path.abspath(os.fspath(trace))
        self.task = task
        self.llm = llm
        self.browser = browser
        self.tools = tools if tools is not None else Tools()
        self.max_steps = max_steps
        self.max_failures = max_failures
        self.use_judge = use_judge
        self.judge_llm = judge_llm
        self.sensitive: SensitiveData | None = (
            sensitive_data
            if isinstance(sensitive_data, SensitiveData) or sensitive_data is None
            else SensitiveData(sensitive_data)
        )
        self.use_vision = use_vision
        self.cell_timeout_s = cell_timeout_s
        self.max_output_chars = max_output_chars
        self.snapshot_budget_chars = snapshot_budget_chars
        self.on_step = on_step
        self.executor: Literal["inprocess", "subprocess"] = executor
        self.launch = launch
        self.keep_alive = keep_alive
        self.open_task_url = open_task_url
        self.max_tokens = max_tokens
        self.model_log = model_log
        self.sdk_reference = sdk_reference
        # browser-use's arguments kept for scripts that read them back; see docs/code-mode.md
        # ("From browser-use") for what each does here.
        self.page_extraction_llm = page_extraction_llm
        self.file_system = file_system
        self.available_file_paths = list(available_file_paths or [])
        self.max_validations = max_validations
        self.calculate_cost = calculate_cost
        self.demo_mode = demo_mode
        #: The run's id (the notebook's id once it ran).
        self.id = uuid.uuid4().hex
        #: The run's notebook: empty before :meth:`run`, the returned one after.
        self.session = NotebookSession(id=self.id)
        #: The run's globals (``session.namespace``): every variable the cells assigned, ``_task_*``.
        self.namespace: dict[str, Any] = self.session.namespace
        #: The steps of the run so far (``session.history.steps``).
        self.complete_history: list[CodeAgentStep] = self.session.history.steps
        #: Where screenshots_paths() writes the screenshots of the run (made on first use).
        self.agent_directory = Path(tempfile.gettempdir()) / f"agentbrowser_code_agent_{self.id}"
        #: Why the run ended (None before it has).
        self.stop_reason: StopReason | None = None
        #: Every tool call of the run, in order (the last ``done`` carries the judge's verdict).
        self.tool_results: list[ToolCallRecord] = []
        #: Where each step's time went.
        self.timings: list[StepTiming] = []
        #: The system prompt of the run (set when it starts).
        self.system_prompt: str | None = None
        #: Why the judge gave no verdict, when it ran and failed.
        self.judge_error: str | None = None
        self._session: CodeSession | None = None
        self._opened: str | None = None
        self._ran = False
        self._owned_browser: AsyncBrowser | None = None
        self._log: ModelLog | None = None
        self._reference = sdk_reference_message()

    # -- public ----------------------------------------------------------------------------

    def mask(self, text: str) -> str:
        """``text`` with every sensitive value replaced by its placeholder."""
        return self.sensitive.mask(text) if self.sensitive is not None and text else text

    def run_sync(self) -> NotebookSession:
        """:meth:`run` from synchronous code (not from inside a running event loop)."""
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            return asyncio.run(self.run())
        raise RuntimeError("CodeAgent.run_sync() was called inside a running event loop: use `await agent.run()`")

    async def run(self, max_steps: int | None = None) -> NotebookSession:
        """Run the task to ``done()`` or a limit and return the notebook (``namespace`` = the run's globals).

        ``max_steps`` overrides the constructor's for this run (browser-use's ``run(max_steps=)``).
        """
        if self._ran:
            raise RuntimeError("a CodeAgent runs once; make a new one for another run")
        if max_steps is not None:
            if max_steps < 1:
                raise ValueError(f"max_steps must be >= 1, got {max_steps}")
            self.max_steps = max_steps
        self._ran = True
        owned_log = self._open_log()
        owned = self.browser is None
        try:
            browser = self.browser if self.browser is not None else await self._launch()
        except BaseException:
            if owned_log:
                self._close_log()
            raise
        session: CodeSession | None = None
        traced = False
        try:
            if self.trace is not None:
                await browser.trace_start()
                traced = True
            session = CodeSession(
                browser,
                record_browser_state=False,  # filled from the observation after the cell: one snapshot a step
                tools=self.tools,
                cell_timeout_s=self.cell_timeout_s,
                max_output_chars=self.max_output_chars,
                sensitive_data=self.sensitive,
                executor=self.executor,
                launch=self.launch,
                notebook=self.session,
                available_file_paths=self.available_file_paths,
            )
            self._session = session
            await session.start()
            with tempfile.TemporaryDirectory(prefix="agentbrowser-agent-") as tmp:
                return await self._run(session, browser, Path(tmp))
        finally:
            failing = sys.exc_info()[0] is not None
            if owned_log:
                self._close_log()
            if session is not None:
                await session.close()
            if traced and self.trace is not None:
                if failing:
                    # The run's own error is what the caller sees; the trace is written if it can be.
                    with contextlib.suppress(BrowserError, TimeoutError, RuntimeError):
                        await browser.trace_stop(path=self.trace)
                else:
                    await browser.trace_stop(path=self.trace)
            if owned and not self.keep_alive:
                with contextlib.suppress(BrowserError, TimeoutError, RuntimeError):
                    await browser.close(end_session=True)
            elif owned:
                self.browser = browser
                self._owned_browser = browser

    @property
    def history(self) -> CodeAgentHistoryList:
        """The run's steps, verdict and usage: ``session.history`` (browser-use's ``agent.history``)."""
        return self.session.history

    @property
    def usage_summary(self) -> Any:
        """The run's token usage (``session.history.usage()``), None before a model call."""
        return self.history.usage()

    def screenshot_paths(self, n_last: int | None = None) -> list[str | None]:
        """The screenshots after each step (the last ``n_last``) written as PNG files under
        ``agent_directory``; None for a step without one (browser-use's ``screenshot_paths``)."""
        out: list[str | None] = []
        steps = self.history.steps if n_last is None else self.history.steps[-n_last:] if n_last > 0 else []
        for step in steps:
            if step.state.screenshot is None:
                out.append(None)
                continue
            path = self.agent_directory / f"step_{step.number}.png"
            if not path.exists():
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_bytes(step.state.screenshot)
            out.append(str(path))
        return out

    async def close(self) -> None:
        """Close the browser the agent launched and kept (``keep_alive=True``); a given browser stays open."""
        if self._owned_browser is not None:
            browser, self._owned_browser = self._owned_browser, None
            with contextlib.suppress(BrowserError, TimeoutError, RuntimeError):
                await browser.close(end_session=True)
            if self.browser is browser:
                self.browser = None

    async def __aenter__(self) -> CodeAgent:
        return self

    async def __aexit__(self, exc_type: type[BaseException] | None, exc_val: BaseException | None, exc_tb: Any) -> None:
        await self.close()

    def _open_log(self) -> bool:
        """Hook the model log onto the models; True when the agent opened it (and closes it)."""
        if self.model_log is None:
            return False
        opened = not isinstance(self.model_log, ModelLog)
        log = ModelLog(self.model_log, mask=self.mask) if not isinstance(self.model_log, ModelLog) else self.model_log
        log.add_mask(self.mask)
        try:
            for model in (self.llm, self.judge_llm):
                if model is not None:
                    log.attach(model)
        except TypeError:
            if opened:
                log.close()
            raise
        self._log = log
        return opened

    def _close_log(self) -> None:
        if self._log is not None:
            self._log.close()

    async def _launch(self) -> AsyncBrowser:
        """The agent's own browser: launched, or for the subprocess executor (whose child joins the
        browser by session name) a private CLI session's daemon."""
        if self.executor != "subprocess":
            return await AsyncBrowser.launch(self.launch)
        return await AsyncBrowser.connect(session=f"code-agent-{os.getpid()}-{uuid.uuid4().hex[:8]}")

    # -- the loop ---------------------------------------------------------------------------

    async def _run(self, session: CodeSession, browser: AsyncBrowser, tmp: Path) -> NotebookSession:
        notebook = session.notebook
        notebook.tools = self.tools
        notebook.masker = session.masker
        notebook.metadata["task"] = self.mask(self.task)
        ns = session.namespace
        baseline = frozenset(ns) | {"__builtins__"}
        observer = Observer(
            browser,
            snapshot_budget_chars=self.snapshot_budget_chars,
            use_vision=self.use_vision,
            mask=self.mask,
            screenshot_dir=tmp,
        )
        self.system_prompt = build_system_prompt(
            tools=self.tools,
            namespace=ns,
            max_steps=self.max_steps,
            max_failures=self.max_failures,
            use_vision=self.use_vision,
            secret_names=self.sensitive.names() if self.sensitive is not None else (),
        )
        waiting: list[CodeCell] = []  # cells whose browser_state the next observation fills
        urls = sorted({u.rstrip(".,;:!?") for u in _URL.findall(self.task)})
        if self.open_task_url and len(urls) == 1:
            waiting.append(await session.run(f"await page.open({urls[0]!r})"))
            self._opened = urls[0]
        turns: list[_Turn] = []
        failures = 0
        state: PageState | None = None
        for number in range(1, self.max_steps + 1):
            t0 = time.perf_counter()
            started = time.time()
            obs = await observer.observe(ns, baseline, state=state)
            self._fill_browser_state(waiting, obs)
            messages = self._messages(turns, obs, number, failures)
            t1 = time.perf_counter()
            try:
                completion = await self._invoke(messages, number)
            except Exception as exc:  # the adapter retried already: end the run, keep what it did
                t2 = time.perf_counter()
                message = f"model call failed: {type(exc).__name__}: {self.mask(str(exc))}"
                log.warning("step %d: %s", number, message)
                step = CodeAgentStep(
                    number=number,
                    model_output="",
                    result=CodeAgentResult(error=message),
                    state=CodeAgentState(url=obs.state.url, title=obs.state.title, screenshot=obs.screenshot),
                    started_at=started,
                    ended_at=time.time(),
                )
                self.stop_reason = "model_error"
                self._timing(number, obs, t2 - t1, 0.0, time.perf_counter() - t0)
                await self._record(notebook, step)
                break
            t2 = time.perf_counter()
            reply = self.mask(completion.text or "")
            parsed = parse_reply(reply)
            turn = _Turn(number=number, reply=reply, cell=None, notes=[], failures=failures)
            notebook.add_note(self._reply_markdown(number, parsed))
            cell_s = 0.0
            error: str | None
            if not parsed.python:
                turn.format_failure = True
                failures += 1
                if parsed.unclosed is not None:
                    turn.notes.append(f"Your ```{parsed.unclosed} block was not closed (was the reply cut short?).")
                error = "format: the reply had no ```python code block; nothing ran"
            else:
                c0 = time.perf_counter()
                turn.notes += await self._define_js(session, parsed, baseline, waiting)
                if len(parsed.python) > 1:
                    turn.notes.append(
                        f"Only the first of your {len(parsed.python)} ```python blocks ran: send one block per reply."
                    )
                turn.notes += [f"Ignored {what}." for what in parsed.ignored]
                cell = await session.run(parsed.python[0])
                cell_s = time.perf_counter() - c0
                waiting.append(cell)
                turn.cell = cell
                turn.tool_results = list(session.tool_results)
                turn.images = self._images(session)
                self.tool_results += turn.tool_results
                failures = failures + 1 if cell.status == ExecutionStatus.ERROR else 0
                error = self.mask(cell.error) if cell.error else None
            turn.failures = failures
            turns.append(turn)
            s0 = time.perf_counter()
            try:
                state = await observer.state()  # the step's end state, reused by the next observation
            except (BrowserError, RuntimeError, OSError):  # a cell may have closed the browser
                state = None
            state_s = time.perf_counter() - s0
            done = bool(ns.get("_task_done"))
            result = CodeAgentResult(
                extracted_content=self.mask(str(ns.get("_task_result") or ""))
                if done
                else (self.mask(turn.cell.output) if turn.cell is not None and turn.cell.output else None),
                error=error,
                is_done=done,
                success=bool(ns.get("_task_success")) if done else None,
            )
            step = CodeAgentStep(
                number=number,
                model_output=parsed.python[0] if parsed.python else "",
                full_response=reply,
                cell_id=turn.cell.id if turn.cell is not None else None,
                result=result,
                state=CodeAgentState(
                    url=state.url if state else obs.state.url,
                    title=state.title if state else obs.state.title,
                    screenshot=obs.screenshot,
                ),
                usage=completion.usage,
                started_at=started,
                ended_at=time.time(),
            )
            self._timing(number, obs, t2 - t1, cell_s, time.perf_counter() - t0, state_s)
            if done:
                self.stop_reason = "done"
            elif failures >= self.max_failures:
                self.stop_reason = "max_failures"
            elif number == self.max_steps:
                self.stop_reason = "max_steps"
            if self.stop_reason in ("max_failures", "max_steps"):
                step = dataclasses.replace(
                    step, result=dataclasses.replace(step.result, extracted_content=self._partial(ns, baseline, number))
                )
            await self._record(notebook, step)
            if self.stop_reason is not None:
                break
        if waiting:
            final = await observer.observe(ns, baseline, state=state)
            self._fill_browser_state(waiting, final)
        if self.stop_reason == "done" and self.use_judge:
            await self._judge(notebook)
        return notebook

    async def _invoke(self, messages: Sequence[Message], number: int) -> ChatCompletion:
        with model_call(step=number, purpose="step"):
            try:
                return await self.llm.ainvoke(self._masked(messages), max_tokens=self.max_tokens)
            except Exception as exc:
                self._log_error(exc)
                raise

    def _log_error(self, exc: BaseException, **labels: Any) -> None:
        """An ``error`` line in the model log for a call that failed (a transport failure has no response line)."""
        if self._log is not None:
            self._log.write("error", **labels, error=f"{type(exc).__name__}: {self.mask(str(exc))}")

    def _reply_markdown(self, number: int, parsed: ParsedReply) -> str:
        """The markdown cell that goes before a step's cell: the model's words around it."""
        head = f"**Step {number}**"
        if not parsed.python:
            return f"{head}: the model's reply had no ```python block, so nothing ran.\n\n{parsed.text}".rstrip()
        if not parsed.text:
            return f"{head}: the model's reply held only the cell below."
        return f"{head} (the model's reply; its cell follows)\n\n{parsed.text}"

    def _masked(self, messages: Sequence[Message]) -> list[Message]:
        """Every text of ``messages`` masked once more, whatever produced it (nothing leaves unmasked)."""
        if self.sensitive is None:
            return list(messages)
        out: list[Message] = []
        for m in messages:
            if isinstance(m, SystemMessage):
                out.append(SystemMessage(self.mask(m.content)))
            elif isinstance(m, AssistantMessage):
                out.append(AssistantMessage(self.mask(m.content)))
            elif isinstance(m.content, str):
                out.append(UserMessage(self.mask(m.content)))
            else:
                parts = tuple(TextPart(self.mask(p.text)) if isinstance(p, TextPart) else p for p in m.content)
                out.append(UserMessage(parts))
        return out

    async def _record(self, notebook: NotebookSession, step: CodeAgentStep) -> None:
        notebook.history.steps.append(step)
        if self.on_step is not None:
            outcome = self.on_step(step)
            if inspect.isawaitable(outcome):
                await outcome

    def _timing(
        self, number: int, obs: Observation, model: float, cell: float, total: float, state: float = 0.0
    ) -> None:
        self.timings.append(
            StepTiming(
                number=number,
                state_s=obs.state_s + state,
                snapshot_s=obs.snapshot_s,
                screenshot_s=obs.screenshot_s,
                model_s=model,
                cell_s=cell,
                total_s=total,
                observation_chars=len(obs.text),
                snapshot_kind=obs.snapshot_kind,
            )
        )

    def _fill_browser_state(self, cells: list[CodeCell], obs: Observation) -> None:
        for cell in cells:
            if cell.browser_state is None:
                cell.browser_state = obs.browser_state(self.mask)
        cells.clear()

    async def _define_js(
        self, session: CodeSession, parsed: ParsedReply, baseline: frozenset[str], waiting: list[CodeCell]
    ) -> list[str]:
        """Each named ```js block becomes a string variable, in a cell of its own (so the notebook
        and its replay define it too)."""
        notes: list[str] = []
        for name, body in parsed.js:
            if not name.isidentifier() or keyword.iskeyword(name) or name.startswith("_") or name in baseline:
                notes.append(f"Ignored ```js {name}: the name must be a new identifier (not one of the namespace's).")
                continue
            cell = await session.run(f"{name} = {body!r}")
            waiting.append(cell)
            notes.append(f"Defined the string variable {name} ({len(body)} chars of JavaScript).")
        return notes

    def _images(self, session: CodeSession) -> list[CellImage]:
        images = list(session.images)
        seen = {img.data for img in images}
        for record in session.tool_results:
            for entry in record.result.images or ():
                try:
                    data = base64.b64decode(str(entry.get("data", "")), validate=True)
                except (binascii.Error, ValueError):
                    continue
                if data and data not in seen:
                    seen.add(data)
                    images.append(
                        CellImage(
                            data=data,
                            media_type=str(entry.get("media_type") or "image/png"),
                            name=str(entry.get("name") or f"{record.name}.png"),
                        )
                    )
        return images

    def _partial(self, ns: Mapping[str, Any], baseline: frozenset[str], number: int) -> str:
        reason = (
            f"reached the step limit ({self.max_steps} steps)"
            if self.stop_reason == "max_steps"
            else f"{self.max_failures} consecutive failures"
        )
        collected = [
            f"{name} ({type(value).__name__}, {len(value)} items)"
            for name, value in ns.items()
            if not name.startswith("_")
            and name not in baseline
            and isinstance(value, (list, dict, tuple, set))
            and len(value) > 0
        ]
        names = [n for n in ns if not n.startswith("_") and n not in baseline]
        text = f"Task incomplete: stopped after step {number}, {reason}; done() was not called."
        if collected:
            text += " Collected data: " + ", ".join(collected) + "."
        if names:
            text += " Variables: " + ", ".join(names[:50]) + ("…" if len(names) > 50 else "") + "."
        return self.mask(text)

    async def _judge(self, notebook: NotebookSession) -> None:
        llm = self.judge_llm if self.judge_llm is not None else self.llm
        history = notebook.history
        try:
            with model_call(purpose="judge"):
                verdict, usage = await judge_run(
                    llm,
                    task=self.mask(self.task),
                    steps=history.steps,
                    final_result=history.final_result(),
                    screenshots=[s for s in history.screenshots(n_last=3) if s is not None] if self.use_vision else [],
                    mask=self.mask,
                )
        except Exception as exc:  # the run's own result stands without a verdict
            self._log_error(exc, purpose="judge")
            self.judge_error = f"{type(exc).__name__}: {self.mask(str(exc))}"
            log.warning("the judge gave no verdict: %s", self.judge_error)
            return
        if usage is not None:
            steps = [s.usage for s in history.steps if isinstance(s.usage, Usage)]
            history.usage_total = Usage.total([*steps, usage])  # the judge's tokens count too
        self._attach(history, verdict)

    def _attach(self, history: Any, verdict: JudgementResult) -> None:
        history.judgement = verdict
        for i in range(len(self.tool_results) - 1, -1, -1):
            record = self.tool_results[i]
            if record.result.is_done:
                self.tool_results[i] = dataclasses.replace(
                    record, result=dataclasses.replace(record.result, judgement=verdict)
                )
                break

    # -- messages ---------------------------------------------------------------------------

    def _messages(self, turns: Sequence[_Turn], obs: Observation, number: int, failures: int) -> list[Message]:
        """This step's request: the system prompt, the task (with the SDK reference in step 1), the
        condensed oldest turns, the others whole, then this step's warnings and observation.  Every
        part before the last turn's result is byte-identical to what the previous step sent, except
        at a step that condenses a block of turns (and at step 2, which drops the reference)."""
        assert self.system_prompt is not None
        messages: list[Message] = [SystemMessage(self.system_prompt)]
        task = f"<task>\n{self.mask(self.task)}\n</task>"
        if self._opened is not None:
            task += f"\n(The task's URL {self.mask(self._opened)} was opened before step 1.)"
        if not turns or self.sdk_reference == "every_step":
            task += "\n\n" + self._reference
        else:
            task += "\n\n" + sdk_reference_note(len(self._reference))
        condensed = _condensed_count(len(turns))
        if condensed:
            task += "\n\n" + self._condensed(turns[:condensed])
        pending: list[TextPart | ImagePart] = [TextPart(task)]
        for i, turn in enumerate(turns[condensed:], condensed):
            messages.append(UserMessage(tuple(pending)))
            messages.append(AssistantMessage(cut(turn.reply, _HISTORY_REPLY_CHARS) or "(empty reply)"))
            pending = self._result_parts(turn, latest=i == len(turns) - 1)
        pending += [TextPart(w) for w in self._warnings(number, failures)]
        pending.append(TextPart("\n" + obs.text))
        if obs.screenshot is not None:
            pending.append(ImagePart(obs.screenshot, "image/png"))
        messages.append(UserMessage(tuple(pending)))
        return messages

    def _condensed(self, turns: Sequence[_Turn]) -> str:
        """One line per turn: its cell's first line and how it ended (bounded, and saying so)."""
        shown = turns[-_CONDENSED_LINES:]
        head = (
            f"## Steps {turns[0].number}-{turns[-1].number}, condensed (one line each: the cell's first line and "
            "how it ended; their replies and results are no longer shown"
        )
        if len(shown) < len(turns):
            head += f"; steps {turns[0].number}-{shown[0].number - 1} are left out"
        lines = [head + ")"]
        for turn in shown:
            lines.append(self.mask(f"Step {turn.number}: {self._outcome(turn)}"))
        return "\n".join(lines)

    def _outcome(self, turn: _Turn) -> str:
        cell = turn.cell
        if cell is None:
            return "no ```python block, nothing ran"
        first = next((line.strip() for line in cell.source.splitlines() if line.strip()), "")
        code = f"`{_clip(first, _CONDENSED_CODE_CHARS)}`"
        if cell.error:
            return f"{code} -> error: {_clip(self._error_text(cell), _CONDENSED_OUTCOME_CHARS)}"
        out = next((line.strip() for line in (cell.output or "").splitlines() if line.strip()), "")
        return f"{code} -> ok" + (f": {_clip(out, _CONDENSED_OUTCOME_CHARS)}" if out else "")

    def _warnings(self, number: int, failures: int) -> list[str]:
        out = []
        left = self.max_steps - number + 1
        if left == 1:
            out.append(
                "WARNING: this is your LAST step. Call `await done(text, success=...)` in this cell with what you "
                "have (success=False and the partial data if the task is not complete)."
            )
        elif left == 2:
            out.append("WARNING: 2 steps left, this one included. Finish now, or call done() in the next step.")
        if failures == self.max_failures - 1:
            out.append(
                f"WARNING: {failures} consecutive failures; one more ends the run. Make this cell simple and safe, "
                "or call `await done(text, success=False)` with what you have."
            )
        return out

    def _result_parts(self, turn: _Turn, *, latest: bool) -> list[TextPart | ImagePart]:
        head = f"Cell {turn.number}/{self.max_steps}"
        if turn.failures:
            head += f" | consecutive failures: {turn.failures}/{self.max_failures}"
        lines = [head]
        if turn.format_failure:
            lines.append(_FORMAT_REMINDER)
        lines += turn.notes
        cell = turn.cell
        images: list[TextPart | ImagePart] = []
        if cell is not None:
            limit = self.max_output_chars if latest else _HISTORY_OUTPUT_CHARS
            if cell.error:
                lines.append(f"Error: {self._error_text(cell)}")
                trace = "".join(cell.error_info.traceback) if cell.error_info is not None else ""
                if latest and trace.count('  File "') > 1:  # more than the failing line itself
                    lines.append(cut(self.mask(trace).rstrip(), _TRACEBACK_CHARS))
            if cell.output:
                lines.append("Output:\n" + cut(self.mask(cell.output.rstrip("\n")), limit))
            if cell.stderr:
                lines.append("Stderr:\n" + cut(self.mask(cell.stderr.rstrip("\n")), limit // 2))
            if not cell.error and not cell.output and not cell.stderr:
                lines.append("Executed (no output).")
            if turn.tool_results:
                lines.append("Tool results:")
                lines += [self._tool_line(rec, latest) for rec in turn.tool_results]
            if turn.images:
                names = ", ".join(img.name or "image" for img in turn.images)
                if latest:
                    lines.append(f"Images ({len(turn.images)}, attached): {names}")
                    images = [ImagePart(img.data, img.media_type) for img in turn.images]
                else:
                    lines.append(f"Images ({len(turn.images)}) were shown at that step: {names}")
        return [TextPart("\n".join(lines)), *images]

    def _error_text(self, cell: CodeCell) -> str:
        info = cell.error_info
        if info is None:
            return self.mask(cell.error or "")
        where = ""
        if info.lineno is not None:
            where = f" (line {info.lineno}" + (f": {info.line.strip()}" if info.line else "") + ")"
        text = f"{info.ename}: {info.evalue}{where}"
        if cell.timed_out and "timeout" not in text.lower():
            text += f" [the cell was stopped at its {self.cell_timeout_s:g} s timeout]"
        return self.mask(text)

    def _tool_line(self, record: ToolCallRecord, latest: bool) -> str:
        result: ActionResult = record.result
        args = ", ".join(f"{k}={_short(v)}" for k, v in record.args.items())
        if result.error:
            text = f"error: {result.error}"
        elif latest:
            text = result.extracted_content or result.long_term_memory or "ok"
        elif result.long_term_memory:
            text = result.long_term_memory
        elif result.include_extracted_content_only_once:
            text = "[its content was shown once and is not repeated]"
        else:
            text = result.extracted_content or "ok"
        return self.mask(f"- {record.name}({args}) -> {cut(text, _TOOL_LINE_CHARS)}")


def _condensed_count(turns: int) -> int:
    """How many of the oldest turns a request condenses: none below twice ``_FULL_TURNS``, then
    whole blocks of ``_FULL_TURNS``, so that between ``_FULL_TURNS`` and twice as many stay whole."""
    if turns < 2 * _FULL_TURNS:
        return 0
    return (turns - _FULL_TURNS) // _FULL_TURNS * _FULL_TURNS


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _short(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."
