"""Replay a code-mode run without a model: the recorded cells again, in order, in a fresh :class:`CodeSession`.

``await session.replay(browser)`` (or :func:`replay`) re-runs a :class:`NotebookSession`;
:func:`replay_file` re-runs an exported ``.ipynb`` or ``.py``, which :func:`load_ipynb` and
:func:`load_script` read back into a session.  A cell that succeeded when recorded and
fails now is a divergence: by default the replay stops there and raises
:class:`ReplayDivergence`, as ``agentbrowser notebook replay`` and an exported script stop
(the cells after it would run against a page in the wrong state); with
``stop_on_divergence=False`` (the CLI's ``--keep-going``) it runs on.  Either way the new
session's ``metadata["divergences"]`` lists each one (:func:`divergence_record`).  A cell
that failed when recorded may fail again.  Cells are named by their number among the code
cells (``cell 4``), which is Jupyter's ``In [4]`` for a run whose cells all ran.
"""

from __future__ import annotations

import base64
import importlib
import json
import os
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from ..aio import AsyncBrowser
from ..tools import Tools
from .cells import CodeSession
from .export import SETUP_CELL_ID, RecordedTools, ToolRecord, load_cells_literal
from .notebook import CellError, CellImage, CellType, CodeCell, ExecutionStatus, NotebookSession

__all__ = [
    "ReplayDivergence",
    "describe_divergence",
    "divergence_record",
    "load_file",
    "load_ipynb",
    "load_script",
    "rebuild_tools",
    "replay",
    "replay_file",
]

#: How much of a recorded output a divergence quotes (its first line, cut to this many characters).
QUOTE_CHARS = 200


def _quote(text: str | None) -> str | None:
    """The first non-empty line of ``text``, cut to :data:`QUOTE_CHARS` (None for no text)."""
    first = next((line.strip() for line in (text or "").splitlines() if line.strip()), "")
    if not first:
        return None
    return first if len(first) <= QUOTE_CHARS else first[: QUOTE_CHARS - 3] + "..."


def divergence_record(number: int, index: int, original: CodeCell, replayed: CodeCell) -> dict[str, Any]:
    """What ``metadata["divergences"]`` holds for one diverged cell: which cell, what was expected, what happened.

    ``cell`` is its number among the code cells, ``index`` its position in ``cells``;
    ``expected`` is the recorded status and output (first line), ``got`` the status and error now.
    """
    return {
        "cell": number,
        "index": index,
        "cell_id": original.id,
        "execution_count": original.execution_count,
        "expected": {"status": str(ExecutionStatus(original.status)), "output": _quote(original.output)},
        "got": {"status": str(replayed.status), "error": replayed.error},
        "error": replayed.error,
    }


class ReplayDivergence(Exception):
    """A cell that succeeded when recorded failed on replay, and the replay stopped there.

    ``number`` is the cell's number among the code cells, ``index`` its position in the
    session's ``cells``; ``original`` and ``replayed`` are the two cells, ``session`` the partial
    replay (its last cell is the diverged one) and ``record`` the :func:`divergence_record`.
    """

    def __init__(
        self, index: int, original: CodeCell, replayed: CodeCell, session: NotebookSession, number: int | None = None
    ) -> None:
        self.index = index
        self.number = number if number is not None else index + 1
        self.original = original
        self.replayed = replayed
        self.session = session
        self.record = divergence_record(self.number, index, original, replayed)
        super().__init__(describe_divergence(self.record))


def describe_divergence(record: Mapping[str, Any]) -> str:
    """One line naming the diverged cell, what the recording expected and what happened now."""
    count = record.get("execution_count")
    label = f"In [{count}], id {record['cell_id']}" if count else f"id {record['cell_id']}"
    where = f"cell {record['cell']} ({label})"
    expected = record["expected"]
    recorded = f", output {expected['output']!r}" if expected.get("output") else ""
    return (
        f"replay diverged at {where}: expected {expected['status']} as recorded{recorded}; "
        f"got {record['got']['status']}: {record['got']['error']}"
    )


def _resolve(module: str, qualname: str) -> Any:
    found: Any = importlib.import_module(module)
    for part in qualname.split("."):
        found = getattr(found, part)
    return found


def rebuild_tools(
    base: Tools | None,
    specs: Iterable[ToolRecord],
    *,
    builtins: Sequence[str] | None = None,
    not_importable: Sequence[str] = (),
) -> Tools:
    """A ``Tools`` registry with the recorded built-ins and custom tools, the latter re-imported by ``module:qualname``.

    ``base`` (a registry you made, e.g. with the tools that were defined in ``__main__``) is
    added to, else a fresh ``Tools()`` holding the ``builtins`` named (all when None); a
    recorded tool ``base`` already has is kept as it is.  Raises RuntimeError naming the
    ``not_importable`` tools that ``base`` lacks: they must be defined before replay.
    """
    if base is not None:
        tools = base
    elif builtins is None:
        tools = Tools()
    elif not builtins:
        tools = Tools(builtins=False)
    else:
        tools = Tools(exclude=[n for n in Tools().names() if n not in set(builtins)])
    missing = [name for name in not_importable if name not in tools.names()]
    if missing:
        raise RuntimeError(
            f"the tools {', '.join(missing)} were defined in __main__ (or inside a function) when the run was "
            "recorded and cannot be imported: define them on a Tools() registry before replay and pass it"
        )
    for spec in specs:
        name = str(spec["name"])
        if name in tools.names():
            if base is not None:
                continue
            tools.remove(name)  # a custom tool that replaced a built-in of the same name
        fn = _resolve(str(spec["module"]), str(spec["qualname"]))
        model_ref = spec.get("param_model")
        model = _resolve(*str(model_ref).split(":", 1)) if model_ref else None
        domains = spec.get("domains")
        timeout_s = spec.get("timeout_s")
        tools.action(
            str(spec.get("description") or name),
            param_model=model,
            domains=list(domains) if domains else None,
            name=name,
            timeout_s=float(timeout_s) if timeout_s is not None else None,
        )(fn)
    return tools


def _recorded_registry(session: NotebookSession) -> Tools | None:
    recorded = RecordedTools.from_metadata(session.metadata)
    if not recorded.registry:
        return None
    builtins = list(recorded.builtins) if "builtin_tools" in session.metadata else None
    return rebuild_tools(None, recorded.importable, builtins=builtins, not_importable=recorded.not_importable)


async def replay(
    session: NotebookSession,
    browser: AsyncBrowser | None = None,
    *,
    tools: Tools | None = None,
    timeout_s: float | None = None,
    stop_on_divergence: bool = True,
    sensitive_data: Any = None,
) -> NotebookSession:
    """Run ``session``'s code cells in order in a fresh ``CodeSession``; returns the replay's session.

    ``browser`` None launches a browser for the replay and closes it at the end; a browser
    you pass stays open (inspect the page after).  ``tools`` defaults to the run's registry,
    else the tools a loaded notebook recorded; ``sensitive_data`` to the run's masker when
    it holds the values (a ``SensitiveData``).  Markdown cells are copied.

    A cell that succeeded when recorded and fails now stops the replay (the rest would run
    against a page in the wrong state): :class:`ReplayDivergence` is raised, its ``session``
    the partial replay (``metadata["stopped_at"]`` the cell's number).  With
    ``stop_on_divergence=False`` every cell runs; ``metadata["divergences"]`` lists them.
    """
    registry = tools if tools is not None else session.tools if session.tools is not None else None
    if registry is None:
        registry = _recorded_registry(session)
    secrets = sensitive_data
    if secrets is None and session.masker is not None and hasattr(session.masker, "substitute"):
        secrets = session.masker
    code = CodeSession(browser, tools=registry, sensitive_data=secrets)
    out = code.notebook
    out.tools = registry
    out.masker = code.masker if code.masker is not None else session.masker
    out.metadata["replay_of"] = session.id
    divergences: list[dict[str, Any]] = []
    out.metadata["divergences"] = divergences
    try:
        await code.start()
        number = 0
        notes = sorted(session.notes, key=lambda n: n[0])
        for index, cell in enumerate(session.cells):
            out.notes += [(len(out.cells), note) for before, note in notes if before == index]
            if CellType(cell.cell_type) is CellType.MARKDOWN:
                out.cells.append(CodeCell(source=cell.source, id=cell.id, cell_type=CellType.MARKDOWN))
                continue
            number += 1
            running = code.run(cell.source) if timeout_s is None else code.run(cell.source, timeout_s=timeout_s)
            replayed = await running
            if ExecutionStatus(cell.status) is ExecutionStatus.SUCCESS and replayed.status is ExecutionStatus.ERROR:
                divergence = ReplayDivergence(index, cell, replayed, out, number)
                divergences.append(divergence.record)
                if stop_on_divergence:
                    out.metadata["stopped_at"] = number
                    raise divergence
        out.notes += [(len(out.cells), note) for before, note in notes if before >= len(session.cells)]
    finally:
        await code.close()
    return out


def _text(value: Any) -> str:
    if isinstance(value, list):
        return "".join(str(v) for v in value)
    return "" if value is None else str(value)


def _image(output: Mapping[str, Any]) -> CellImage | None:
    data: Mapping[str, Any] = output.get("data") or {}
    meta: Mapping[str, Any] = (output.get("metadata") or {}).get("agentbrowser") or {}
    for media, value in data.items():
        if media == "text/plain" or not (media.startswith("image/") or media == "application/pdf"):
            continue
        if media == "image/svg+xml":
            raw = _text(value).encode("utf-8")
        else:
            raw = base64.b64decode(_text(value).replace("\n", ""))
        return CellImage(data=raw, media_type=media, name=str(meta.get("name") or ""))
    return None


def _code_cell(raw: Mapping[str, Any]) -> CodeCell:
    meta: Mapping[str, Any] = (raw.get("metadata") or {}).get("agentbrowser") or {}
    stdout, stderr, result = "", "", None
    images: list[CellImage] = []
    error: CellError | None = None
    for output in raw.get("outputs") or []:
        kind = output.get("output_type")
        if kind == "stream":
            if output.get("name") == "stderr":
                stderr += _text(output.get("text"))
            else:
                stdout += _text(output.get("text"))
        elif kind == "execute_result":
            result = _text((output.get("data") or {}).get("text/plain"))
        elif kind == "display_data":
            image = _image(output)
            if image is not None:
                images.append(image)
        elif kind == "error":
            lineno = meta.get("lineno")
            error = CellError(
                ename=str(output.get("ename", "Error")),
                evalue=str(output.get("evalue", "")),
                lineno=int(lineno) if isinstance(lineno, int) else None,
                line=meta.get("line"),
                traceback=tuple(str(t) for t in output.get("traceback") or ()),
            )
    count = raw.get("execution_count")
    status = meta.get("status")
    if status is None:
        status = "error" if error is not None else "success" if count is not None else "pending"
    combined = stdout + (f"Out: {result}" if result is not None else "")
    return CodeCell(
        source=_text(raw.get("source")),
        id=str(meta.get("cell_id") or raw.get("id") or "") or CodeCell(source="").id,
        output=combined or None,
        execution_count=count if isinstance(count, int) else None,
        status=ExecutionStatus(status),
        error=meta.get("error") or (error.summary() if error is not None else None),
        browser_state=meta.get("browser_state"),
        stdout=stdout,
        stderr=stderr,
        result=result,
        error_info=error,
        images=tuple(images),
        duration_s=float(meta.get("duration_s") or 0.0),
        timed_out=bool(meta.get("timed_out", False)),
        output_truncated=bool(meta.get("output_truncated", False)),
        original_output_chars=int(meta.get("original_output_chars") or 0),
    )


def load_ipynb(path: str | os.PathLike[str]) -> NotebookSession:
    """Read an ``.ipynb`` (ours or any nbformat 4 notebook) into a session; our setup cell is left out."""
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    if not isinstance(data, Mapping) or data.get("nbformat") != 4 or not isinstance(data.get("cells"), list):
        raise ValueError(f"{path}: not an nbformat 4 notebook")
    recorded: dict[str, Any] = dict((data.get("metadata") or {}).get("agentbrowser") or {})
    session = NotebookSession(id=str(recorded.get("session_id") or NotebookSession().id))
    session.metadata.update(recorded)
    session.metadata["source_path"] = str(path)
    for raw in data["cells"]:
        meta = (raw.get("metadata") or {}).get("agentbrowser") or {}
        if meta.get("role") == "setup" or raw.get("id") == SETUP_CELL_ID:
            continue
        if raw.get("cell_type") == "markdown":
            cell_id = str(meta.get("cell_id") or raw.get("id") or "") or CodeCell(source="").id
            session.cells.append(CodeCell(source=_text(raw.get("source")), id=cell_id, cell_type=CellType.MARKDOWN))
        elif raw.get("cell_type") == "code":
            session.cells.append(_code_cell(raw))
    counts = [c.execution_count for c in session.cells if c.execution_count is not None]
    session.current_execution_count = max(counts, default=0)
    return session


def load_script(path: str | os.PathLike[str]) -> NotebookSession:
    """Read a script written by ``to_script`` back into a session (sources, recorded status and errors)."""
    cells, values = load_cells_literal(Path(path).read_text(encoding="utf-8"))
    session = NotebookSession(id=str(values.get("SESSION_ID") or NotebookSession().id))
    session.metadata.update(
        tools_registry=bool(values.get("TOOLS_REGISTRY", False)),
        builtin_tools=list(values.get("BUILTIN_TOOLS") or []),
        tools=list(values.get("TOOLS") or []),
        tools_not_importable=list(values.get("TOOLS_NOT_IMPORTABLE") or []),
        secrets=list(values.get("SECRETS") or []),
        source_path=str(path),
    )
    for spec in cells:
        count = spec.get("execution_count")
        session.cells.append(
            CodeCell(
                source=str(spec["source"]),
                id=str(spec.get("id") or "") or CodeCell(source="").id,
                cell_type=CellType(spec.get("cell_type", "code")),
                execution_count=count if isinstance(count, int) else None,
                status=ExecutionStatus(spec.get("recorded_status", "pending")),
                error=spec.get("recorded_error"),
            )
        )
    counts = [c.execution_count for c in session.cells if c.execution_count is not None]
    session.current_execution_count = max(counts, default=0)
    return session


def load_file(path: str | os.PathLike[str]) -> NotebookSession:
    """Read an exported ``.ipynb`` or ``.py`` into a session, told apart by their content (ValueError if neither)."""
    text = Path(path).read_text(encoding="utf-8")
    return load_ipynb(path) if text.lstrip().startswith("{") else load_script(path)


async def replay_file(
    path: str | os.PathLike[str],
    browser: AsyncBrowser | None = None,
    *,
    tools: Tools | None = None,
    timeout_s: float | None = None,
    stop_on_divergence: bool = True,
    sensitive_data: Any = None,
) -> NotebookSession:
    """Replay an exported ``.ipynb`` or ``.py`` (see :func:`replay`), told apart by their content."""
    return await replay(
        load_file(path),
        browser,
        tools=tools,
        timeout_s=timeout_s,
        stop_on_divergence=stop_on_divergence,
        sensitive_data=sensitive_data,
    )
