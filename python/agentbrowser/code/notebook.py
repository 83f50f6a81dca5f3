"""A code-mode run as a notebook: :class:`NotebookSession` of :class:`CodeCell` (seed 000), and its history.

The names, defaults and enum values are seed 000's (browser-use's ``code_use/views.py``);
the fields marked additive are ours.  ``NotebookSession.namespace`` is the run's globals
dict itself, so ``_task_done``, ``_task_result``, ``_task_success`` and
``_task_attachments`` are there after ``done()``.  ``to_ipynb``, ``to_script`` and
``replay`` are carried out by :mod:`agentbrowser.code.export` and
:mod:`agentbrowser.code.replay`.
"""

from __future__ import annotations

import base64
import dataclasses
import importlib
import json
import os
import uuid
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, cast

from .pydantic_compat import ModelCompat

if TYPE_CHECKING:
    from ..aio import AsyncBrowser

__all__ = [
    "CellError",
    "CellImage",
    "CellType",
    "CodeAgentHistoryList",
    "CodeAgentResult",
    "CodeAgentState",
    "CodeAgentStep",
    "CodeAgentStepMetadata",
    "CodeCell",
    "ExecutionStatus",
    "Judgement",
    "Masker",
    "NotebookSession",
    "UsageLike",
    "UsageTotal",
    "new_id",
]


def new_id() -> str:
    """A fresh unique id: 32 hex digits of a uuid4 (a valid nbformat cell id)."""
    return uuid.uuid4().hex


class CellType(StrEnum):
    """What a cell holds: code that runs, or markdown text; ``str()`` and f-strings give the plain value."""

    CODE = "code"
    MARKDOWN = "markdown"


class ExecutionStatus(StrEnum):
    """Where a cell's run stands: ``pending`` -> ``running`` -> ``success`` or ``error``.

    A ``str``: ``str(status)``, ``f"{status}"`` and ``json.dumps`` give the plain value
    (``success``), and it compares equal to it (``cell.status == "success"``), as seed 000 shows.
    """

    PENDING = "pending"
    RUNNING = "running"
    SUCCESS = "success"
    ERROR = "error"


class Masker(Protocol):
    """Anything with ``mask(text) -> text`` that hides secret values (``SensitiveData`` is one)."""

    def mask(self, text: str, /) -> str:
        """``text`` with every secret value replaced by its placeholder."""
        ...


class UsageLike(Protocol):
    """Token counts of model calls (``agentbrowser.llm.Usage`` is one)."""

    @property
    def prompt_tokens(self) -> int:
        """Tokens sent."""
        ...

    @property
    def completion_tokens(self) -> int:
        """Tokens generated."""
        ...

    @property
    def total_tokens(self) -> int:
        """Tokens sent and generated."""
        ...

    @property
    def cached_tokens(self) -> int | None:
        """Tokens served from the provider's prompt cache, when it says."""
        ...


class Judgement(Protocol):
    """The judge's verdict on a run (``agentbrowser.tools.JudgementResult`` is one)."""

    @property
    def verdict(self) -> bool:
        """Whether the judge found the task done as asked."""
        ...


@dataclass(frozen=True, slots=True)
class UsageTotal:
    """Summed token counts (what :meth:`CodeAgentHistoryList.usage` returns); ``cached_tokens`` None if none said."""

    prompt_tokens: int = 0
    completion_tokens: int = 0
    total_tokens: int = 0
    cached_tokens: int | None = None


@dataclass(frozen=True, slots=True)
class CellImage:
    """An image a cell produced (a screenshot, ``show(...)``): bytes, media type and a name."""

    data: bytes = field(repr=False)
    media_type: str = "image/png"
    name: str = ""


@dataclass(frozen=True, slots=True)
class CellError:
    """A cell's exception: type, message, the failing line of the cell, and the cell's traceback."""

    ename: str
    evalue: str
    lineno: int | None = None
    line: str | None = None
    traceback: tuple[str, ...] = ()

    def summary(self) -> str:
        """``"NameError: name 'x' is not defined (line 3: print(x))"``: the form of ``CodeCell.error``."""
        head = f"{self.ename}: {self.evalue}" if self.evalue else self.ename
        if self.lineno is None:
            return head
        return f"{head} (line {self.lineno}: {self.line.strip()})" if self.line else f"{head} (line {self.lineno})"


@dataclass(slots=True)
class CodeCell(ModelCompat):
    """One cell of a run: its source and, once run, its output, status, error and the browser's state.

    Mutable: ``status`` moves ``pending`` -> ``running`` -> ``success`` | ``error``.  ``output``
    is the bounded combined stdout (with ``Out: repr`` of the last expression's value);
    ``stdout``, ``stderr``, ``result``, ``error_info``, ``images``, ``duration_s``,
    ``timed_out``, ``output_truncated`` and ``original_output_chars`` are additive.
    """

    source: str
    id: str = field(default_factory=new_id)
    cell_type: CellType = CellType.CODE
    output: str | None = None
    execution_count: int | None = None
    status: ExecutionStatus = ExecutionStatus.PENDING
    error: str | None = None
    browser_state: str | None = None
    stdout: str = ""
    stderr: str = ""
    result: str | None = None
    error_info: CellError | None = None
    images: tuple[CellImage, ...] = ()
    duration_s: float = 0.0
    timed_out: bool = False
    output_truncated: bool = False
    original_output_chars: int = 0

    def __post_init__(self) -> None:
        # Accept the enums' values ("code", "error") as browser-use's pydantic models did.
        self.cell_type = CellType(self.cell_type)
        self.status = ExecutionStatus(self.status)
        self.images = tuple(self.images)


@dataclass(frozen=True, slots=True)
class CodeAgentResult(ModelCompat):
    """What one agent step came to: its extracted content or error, and whether it called ``done()``."""

    extracted_content: str | None = None
    error: str | None = None
    is_done: bool = False
    success: bool | None = None


@dataclass(frozen=True, slots=True)
class CodeAgentState(ModelCompat):
    """The browser after a step: URL, title and the screenshot (PNG bytes) when one was taken."""

    url: str | None = None
    title: str | None = None
    screenshot: bytes | None = field(default=None, repr=False)
    #: A file holding the screenshot, when one was written (browser-use's field; the agent keeps bytes).
    screenshot_path: str | None = None

    def get_screenshot(self) -> str | None:
        """The screenshot as base64 (from ``screenshot``, else the file at ``screenshot_path``), None without one."""
        data = self.screenshot
        if data is None and self.screenshot_path:
            path = Path(self.screenshot_path)
            data = path.read_bytes() if path.is_file() else None
        return base64.b64encode(data).decode() if data is not None else None


@dataclass(frozen=True, slots=True)
class CodeAgentStepMetadata(ModelCompat):
    """A step's tokens and times (browser-use's ``CodeAgentHistory.metadata``): ``CodeAgentStep.metadata``."""

    step_start_time: float
    step_end_time: float
    input_tokens: int | None = None
    output_tokens: int | None = None

    @property
    def duration_seconds(self) -> float:
        """Wall time of the step."""
        return max(0.0, self.step_end_time - self.step_start_time)


@dataclass(frozen=True, slots=True)
class CodeAgentStep(ModelCompat):
    """One step of the agent: the model's code and reply, the cell it ran, the result, state and usage."""

    number: int
    model_output: str
    full_response: str = ""
    cell_id: str | None = None
    result: CodeAgentResult = field(default_factory=CodeAgentResult)
    state: CodeAgentState = field(default_factory=CodeAgentState)
    usage: UsageLike | None = None
    started_at: float = 0.0
    ended_at: float = 0.0

    @property
    def duration_seconds(self) -> float:
        """Wall time of the step (0 when its times were not recorded)."""
        return max(0.0, self.ended_at - self.started_at)

    @property
    def metadata(self) -> CodeAgentStepMetadata:
        """The step's tokens and times in browser-use's shape (``input_tokens`` are the prompt's)."""
        usage = self.usage
        return CodeAgentStepMetadata(
            step_start_time=self.started_at,
            step_end_time=self.ended_at,
            input_tokens=usage.prompt_tokens if usage is not None else None,
            output_tokens=usage.completion_tokens if usage is not None else None,
        )

    @property
    def screenshot_path(self) -> str | None:
        """``state.screenshot_path`` (browser-use's legacy field on the step)."""
        return self.state.screenshot_path


@dataclass(slots=True)
class CodeAgentHistoryList(ModelCompat):
    """The agent's steps (filled by ``CodeAgent``), the judge's verdict and the run's token usage.

    ``usage_total`` is set by the agent when it also counts calls outside the steps (the judge);
    :meth:`usage` returns it, else the steps' usage summed.
    """

    steps: list[CodeAgentStep] = field(default_factory=list)
    judgement: Judgement | None = None
    usage_total: UsageLike | None = None

    @property
    def history(self) -> list[CodeAgentStep]:
        """The steps (browser-use's name for them)."""
        return self.steps

    def __len__(self) -> int:
        return len(self.steps)

    def add_item(self, history_item: CodeAgentStep) -> None:
        """Append one step."""
        self.steps.append(history_item)

    def action_results(self) -> list[CodeAgentResult]:
        """Every step's result."""
        return [s.result for s in self.steps]

    def _execute_code(self, step: CodeAgentStep, full: bool = True) -> dict[str, Any]:
        code: dict[str, Any] = {"code": step.model_output}
        if full:
            code["full_response"] = step.full_response
        return {"execute_code": code}

    def last_action(self) -> dict[str, Any] | None:
        """The last step's code as ``{"execute_code": {"code", "full_response"}}``, None without steps."""
        return self._execute_code(self.steps[-1]) if self.steps else None

    def model_actions(self) -> list[dict[str, Any]]:
        """Each step's code as ``{"execute_code": {"code", "full_response"}}`` (a cell is one action)."""
        return [self._execute_code(s) for s in self.steps if s.model_output]

    def action_names(self) -> list[str]:
        """``"execute_code"`` once per step that ran code."""
        return [next(iter(a)) for a in self.model_actions()]

    def model_thoughts(self) -> list[str]:
        """The code of each step (a code agent's thoughts are its cells)."""
        return [s.model_output for s in self.steps if s.model_output]

    def action_history(self) -> list[list[dict[str, Any]]]:
        """Per step, its code and result: ``[[{"execute_code": {"code"}, "result": {...}}], ...]``."""
        out: list[list[dict[str, Any]]] = []
        for s in self.steps:
            result = {k: getattr(s.result, k) for k in ("extracted_content", "is_done", "success", "error")}
            out.append([self._execute_code(s, full=False) | {"result": result}] if s.model_output else [])
        return out

    def model_actions_filtered(self, include: list[str] | None = None) -> list[dict[str, Any]]:
        """Always empty, as in browser-use: a code agent has no named actions to filter."""
        return []

    def screenshot_paths(self, n_last: int | None = None, return_none_if_not_screenshot: bool = True) -> list[str | None]:
        """Each step's ``state.screenshot_path`` (None: the agent keeps screenshots as bytes, see
        :meth:`screenshots`; ``CodeAgent.screenshot_paths()`` writes them to files)."""
        steps = self.steps if n_last is None else self.steps[-n_last:] if n_last > 0 else []
        paths = [s.state.screenshot_path for s in steps]
        return paths if return_none_if_not_screenshot else [p for p in paths if p is not None]

    def model_dump(
        self,
        *,
        mode: str = "python",
        include: Any = None,
        exclude: Any = None,
        exclude_none: bool = False,
    ) -> dict[str, Any]:
        """``{"history": [step...], "usage": ..., "judgement": ...}`` (browser-use's shape, plus the verdict)."""
        usage = self.usage()
        judgement = self.judgement
        full = {
            "history": [s.model_dump(mode=mode, exclude_none=exclude_none) for s in self.steps],
            "usage": ModelCompat.model_dump(usage, mode=mode) if isinstance(usage, ModelCompat) else _plain(usage, mode),
            "judgement": _plain(judgement, mode),
        }
        keep = None if include is None else set(include)
        drop = set(exclude or ())
        return {k: v for k, v in full.items() if (keep is None or k in keep) and k not in drop}

    def save_to_file(self, filepath: str | os.PathLike[str], sensitive_data: Mapping[str, Any] | None = None) -> None:
        """Write :meth:`model_dump` as JSON to ``filepath`` (secret values of ``sensitive_data`` masked)."""
        text = json.dumps(self.model_dump(mode="json"), indent=2, ensure_ascii=False)
        if sensitive_data:
            text = _module("secrets").SensitiveData(sensitive_data).mask(text)
        path = Path(filepath)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")

    def final_result(self) -> str | None:
        """The last step's extracted content (the ``done()`` text when the run finished), None without steps."""
        return self.steps[-1].result.extracted_content if self.steps else None

    def is_done(self) -> bool:
        """Whether the last step called ``done()``."""
        return bool(self.steps) and self.steps[-1].result.is_done

    def is_successful(self) -> bool | None:
        """The ``success`` the agent reported with ``done()``; None when the run did not finish."""
        return self.steps[-1].result.success if self.is_done() else None

    def errors(self) -> list[str | None]:
        """Each step's error, None for a step without one (one item per step)."""
        return [s.result.error for s in self.steps]

    def has_errors(self) -> bool:
        """Whether any step had an error."""
        return any(e is not None for e in self.errors())

    def urls(self) -> list[str | None]:
        """The page URL after each step."""
        return [s.state.url for s in self.steps]

    def screenshots(self, n_last: int | None = None, return_none_if_not_screenshot: bool = True) -> list[bytes | None]:
        """The screenshots after each step (of the last ``n_last`` steps), None or left out where none was taken."""
        steps = self.steps if n_last is None else self.steps[-n_last:] if n_last > 0 else []
        shots = [s.state.screenshot for s in steps]
        return shots if return_none_if_not_screenshot else [s for s in shots if s is not None]

    def model_outputs(self) -> list[str]:
        """The code of each step, as the model wrote it."""
        return [s.model_output for s in self.steps]

    def extracted_content(self) -> list[str]:
        """Every step's extracted content that is not None."""
        return [c for c in (s.result.extracted_content for s in self.steps) if c is not None]

    def number_of_steps(self) -> int:
        """How many steps ran."""
        return len(self.steps)

    def total_duration_seconds(self) -> float:
        """The steps' wall time summed."""
        return sum(s.duration_seconds for s in self.steps)

    def usage(self) -> UsageLike | None:
        """The run's tokens: ``usage_total`` when set, else the steps' usage summed; None when none was recorded."""
        if self.usage_total is not None:
            return self.usage_total
        counted = [s.usage for s in self.steps if s.usage is not None]
        if not counted:
            return None
        cached = [u.cached_tokens for u in counted if u.cached_tokens is not None]
        return UsageTotal(
            prompt_tokens=sum(u.prompt_tokens for u in counted),
            completion_tokens=sum(u.completion_tokens for u in counted),
            total_tokens=sum(u.total_tokens for u in counted),
            cached_tokens=sum(cached) if cached else None,
        )


def _plain(value: Any, mode: str) -> Any:
    """A usage or verdict object as a dict (a dataclass's fields), None as None."""
    if value is None:
        return None
    if isinstance(value, ModelCompat):
        return value.model_dump(mode=mode)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: getattr(value, f.name) for f in dataclasses.fields(value)}
    return value if mode != "json" else repr(value)


def _module(name: str) -> Any:
    # export.py and replay.py sit above these models (a replay runs a CodeSession, which
    # builds them), so they are loaded when first used, as agentbrowser.code loads its names.
    return importlib.import_module(f"agentbrowser.code.{name}")


@dataclass(slots=True)
class NotebookSession(ModelCompat):
    """A run: its cells in order, the execution counter, the run's globals and the agent's history.

    ``masker`` (an object with ``mask(text)``, e.g. the run's ``SensitiveData``) hides secrets
    in everything exported; ``tools`` is the run's ``Tools`` registry (its custom tools are
    recorded in exports); ``metadata`` holds what a loaded notebook recorded (additive fields).
    """

    id: str = field(default_factory=new_id)
    cells: list[CodeCell] = field(default_factory=list)
    current_execution_count: int = 0
    namespace: dict[str, Any] = field(default_factory=dict, repr=False)
    masker: Masker | None = field(default=None, repr=False, compare=False)
    tools: Any = field(default=None, repr=False, compare=False)
    metadata: dict[str, Any] = field(default_factory=dict, repr=False)
    notes: list[tuple[int, CodeCell]] = field(default_factory=list, repr=False)
    _history: CodeAgentHistoryList = field(default_factory=CodeAgentHistoryList, init=False, repr=False, compare=False)

    @property
    def history(self) -> CodeAgentHistoryList:
        """The agent's steps, judgement and usage (empty for a session no agent drove)."""
        return self._history

    def add_cell(self, source: str, cell_type: CellType | str = CellType.CODE) -> CodeCell:
        """Append a new pending cell holding ``source`` and return it."""
        cell = CodeCell(source=source, cell_type=CellType(cell_type))
        self.cells.append(cell)
        return cell

    def add_note(self, text: str) -> CodeCell:
        """Keep ``text`` as a markdown note before the next cell (in exports), outside ``cells``; return it.

        ``cells`` holds what ran (seed 000: "all executed code cells"); notes such as the model's
        words at each step go in the notebook a run exports, each before the cell it preceded.
        """
        note = CodeCell(source=text, cell_type=CellType.MARKDOWN)
        self.notes.append((len(self.cells), note))
        return note

    def document_cells(self) -> list[CodeCell]:
        """The cells as the exported notebook shows them: ``cells`` with each note before the cell it preceded."""
        notes = sorted(self.notes, key=lambda n: n[0])
        out: list[CodeCell] = []
        taken = 0
        for index, cell in enumerate(self.cells):
            while taken < len(notes) and notes[taken][0] <= index:
                out.append(notes[taken][1])
                taken += 1
            out.append(cell)
        out.extend(note for _, note in notes[taken:])
        return out

    def get_cell(self, cell_id: str) -> CodeCell | None:
        """The cell with id ``cell_id``, None when there is none."""
        return next((c for c in self.cells if c.id == cell_id), None)

    def get_latest_cell(self) -> CodeCell | None:
        """The most recently added cell, None when there are none."""
        return self.cells[-1] if self.cells else None

    def increment_execution_count(self) -> int:
        """Count one more execution and return the new count (the next cell's ``execution_count``)."""
        self.current_execution_count += 1
        return self.current_execution_count

    def mask(self, text: str) -> str:
        """``text`` through the masker (unchanged without one)."""
        return self.masker.mask(text) if self.masker is not None else text

    def to_ipynb(self, path: str | os.PathLike[str]) -> Path:
        """Write the run as an nbformat 4.5 notebook whose first cell rebuilds the namespace; returns the path."""
        return cast(Path, _module("export").to_ipynb(self, path))

    def to_script(self, path: str | os.PathLike[str]) -> Path:
        """Write the run as a Python script that re-runs the cells against a fresh browser; returns the path."""
        return cast(Path, _module("export").to_script(self, path))

    async def replay(
        self,
        browser: AsyncBrowser | None = None,
        *,
        tools: Any = None,
        timeout_s: float | None = None,
        stop_on_divergence: bool = True,
        sensitive_data: Mapping[str, Any] | Any = None,
    ) -> NotebookSession:
        """Re-run the code cells in order, with no model, in a fresh code session; returns the new session.

        ``browser`` None launches one for the replay and closes it at the end (pass your own
        to inspect the page after).  A cell that succeeded when recorded and fails now raises
        ``ReplayDivergence`` unless ``stop_on_divergence`` is False; cells that failed when
        recorded may fail again.  ``tools`` defaults to the run's registry, else the tools
        recorded in a loaded notebook.
        """
        replayed = await _module("replay").replay(
            self,
            browser,
            tools=tools,
            timeout_s=timeout_s,
            stop_on_divergence=stop_on_divergence,
            sensitive_data=sensitive_data,
        )
        return cast(NotebookSession, replayed)
