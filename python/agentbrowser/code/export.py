"""Export a :class:`~agentbrowser.code.notebook.NotebookSession` as an ``.ipynb`` notebook or a ``.py`` script.

Both re-run without a model against a fresh browser.  The notebook is nbformat 4.5 JSON
written with the standard library (``nbformat`` is only needed to validate it): cell ids,
newline-terminated ``source``/``text`` line lists, ``stream`` stdout/stderr, the last
expression as ``execute_result``, real ``error`` outputs, images as ``display_data``, the
browser state in cell metadata (never in stdout), ``raises-exception`` tags on cells that
failed, and a first cell that rebuilds the namespace through ``CodeSession``.  The script
keeps every cell's source exactly (a string literal run by ``CodeSession.run``, never
re-indented).  Everything written goes through the session's masker when it has one.
"""

from __future__ import annotations

import ast
import base64
import importlib
import inspect
import json
import os
import pprint
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .._version import __version__
from .notebook import CellError, CellImage, CellType, CodeCell, ExecutionStatus, Masker, NotebookSession

__all__ = [
    "NBFORMAT",
    "NBFORMAT_MINOR",
    "RecordedTools",
    "SETUP_CELL_ID",
    "ToolRecord",
    "cell_error",
    "ipynb_dict",
    "lines",
    "load_cells_literal",
    "record_tools",
    "script_text",
    "setup_source",
    "to_ipynb",
    "to_script",
]

NBFORMAT = 4
NBFORMAT_MINOR = 5
#: The id of the notebook's first cell, the one that rebuilds the namespace.
SETUP_CELL_ID = "agentbrowser-setup"

_CELL_ID = re.compile(r"[a-zA-Z0-9_-]{1,64}")
_BINARY_TEXT = ("image/svg+xml",)
_KERNELSPEC = {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"}
_LANGUAGE_INFO = {
    "name": "python",
    "file_extension": ".py",
    "mimetype": "text/x-python",
    "pygments_lexer": "ipython3",
    "codemirror_mode": {"name": "ipython", "version": 3},
}

#: One custom tool as recorded in an export: ``name``, ``module``, ``qualname``,
#: ``description``, ``domains``, ``param_model`` (``module:qualname`` or None) and ``timeout_s``.
ToolRecord = dict[str, Any]


def lines(text: str) -> list[str]:
    """``text`` as nbformat's line list: every line keeps its ``\\n`` (``"1\\n2\\n"`` -> ``["1\\n", "2\\n"]``)."""
    parts = text.split("\n")
    out = [p + "\n" for p in parts[:-1]]
    if parts[-1]:
        out.append(parts[-1])
    return out


def _status(cell: CodeCell) -> ExecutionStatus:
    return ExecutionStatus(cell.status)  # tolerant of a plain "success" set after construction


def _kind(cell: CodeCell) -> CellType:
    return CellType(cell.cell_type)


def _masker(session: NotebookSession, masker: Masker | None) -> Callable[[str], str]:
    chosen = masker if masker is not None else session.masker
    return chosen.mask if chosen is not None else (lambda text: text)


def _cell_ids(cells: Iterable[CodeCell], taken: set[str]) -> list[str]:
    """A valid (1-64 of ``[a-zA-Z0-9-_]``), unique nbformat id for each cell, its own id when it is one."""
    out: list[str] = []
    for cell in cells:
        base = cell.id if _CELL_ID.fullmatch(cell.id) else (re.sub(r"[^a-zA-Z0-9_-]", "-", cell.id)[:64] or "cell")
        candidate, n = base, 1
        while candidate in taken:
            n += 1
            suffix = f"-{n}"
            candidate = base[: 64 - len(suffix)] + suffix
        taken.add(candidate)
        out.append(candidate)
    return out


def cell_error(cell: CodeCell) -> CellError | None:
    """The cell's error as a :class:`CellError` (parsed from ``error`` without ``error_info``), None if none."""
    if cell.error_info is not None:
        return cell.error_info
    if cell.error is None and _status(cell) is not ExecutionStatus.ERROR:
        return None
    text = cell.error or "the cell failed"
    head, sep, rest = text.partition(": ")
    if sep and re.fullmatch(r"[A-Za-z_][\w.]*", head):
        return CellError(ename=head, evalue=rest)
    return CellError(ename="Error", evalue=text)


def _image_data(image: CellImage) -> dict[str, Any]:
    media = image.media_type or "application/octet-stream"
    data: dict[str, Any] = {}
    if media.startswith("text/") or media in _BINARY_TEXT:
        data[media] = lines(image.data.decode("utf-8", "replace"))
    else:
        data[media] = base64.b64encode(image.data).decode("ascii")
    data["text/plain"] = [f"<image {image.name or media}, {len(image.data)} bytes>"]
    return data


def _outputs(cell: CodeCell, mask: Callable[[str], str]) -> list[dict[str, Any]]:
    outputs: list[dict[str, Any]] = []
    stdout = cell.stdout
    if not cell.stdout and not cell.stderr and cell.result is None and cell.output:
        stdout = cell.output  # a cell that only has the seed's combined output
    for name, text in (("stdout", stdout), ("stderr", cell.stderr)):
        if text:
            outputs.append({"output_type": "stream", "name": name, "text": lines(mask(text))})
    for image in cell.images:
        meta = {"agentbrowser": {"name": image.name}} if image.name else {}
        outputs.append({"output_type": "display_data", "data": _image_data(image), "metadata": meta})
    if cell.result is not None:
        outputs.append(
            {
                "output_type": "execute_result",
                "execution_count": cell.execution_count,
                "data": {"text/plain": lines(mask(cell.result))},
                "metadata": {},
            }
        )
    error = cell_error(cell)
    if error is not None:
        traceback = [mask(t) for t in error.traceback] or [mask(error.summary())]
        outputs.append(
            {"output_type": "error", "ename": mask(error.ename), "evalue": mask(error.evalue), "traceback": traceback}
        )
    return outputs


def _cell_metadata(cell: CodeCell, mask: Callable[[str], str]) -> dict[str, Any]:
    error = cell_error(cell)
    info: dict[str, Any] = {
        "cell_id": cell.id,
        "status": _status(cell).value,
        "browser_state": mask(cell.browser_state) if cell.browser_state is not None else None,
        "duration_s": round(cell.duration_s, 6),
        "timed_out": cell.timed_out,
    }
    if cell.error is not None:
        info["error"] = mask(cell.error)
    if error is not None:
        info["lineno"] = error.lineno
        info["line"] = mask(error.line) if error.line is not None else None
    if cell.output_truncated:
        info["output_truncated"] = True
        info["original_output_chars"] = cell.original_output_chars
    meta: dict[str, Any] = {"agentbrowser": info}
    if error is not None:
        meta["tags"] = ["raises-exception"]
    return meta


def _action_function(action: Any) -> Callable[..., Any] | None:
    for attr in ("function", "func", "fn", "handler", "callable"):
        fn = getattr(action, attr, None)
        if callable(fn):
            return fn  # type: ignore[no-any-return]
    return action if callable(action) else None


def _qualified(obj: Any) -> tuple[str, str] | None:
    """``(module, qualname)`` when ``obj`` can be imported back by that name, else None."""
    obj = inspect.unwrap(obj) if callable(obj) else obj
    module, qualname = getattr(obj, "__module__", None), getattr(obj, "__qualname__", None)
    if not isinstance(module, str) or not isinstance(qualname, str) or module == "__main__" or "<" in qualname:
        return None
    try:
        found: Any = importlib.import_module(module)
        for part in qualname.split("."):
            found = getattr(found, part)
    except Exception:  # noqa: BLE001 (any failure means: not importable)
        return None
    return (module, qualname) if (inspect.unwrap(found) if callable(found) else found) is obj else None


@dataclass(frozen=True, slots=True)
class RecordedTools:
    """The tool registry of a run as an export records it (``None`` registry: the run had no tools)."""

    #: Whether the run had a ``Tools`` registry (else its cells had only ``done`` and ``show``).
    registry: bool = False
    #: The built-in tools it had (a fresh ``Tools()`` gives them back; the others are excluded).
    builtins: tuple[str, ...] = ()
    #: The custom tools importable by ``module:qualname``.
    importable: tuple[ToolRecord, ...] = ()
    #: The names of the custom tools that cannot be imported (defined in ``__main__`` or a function).
    not_importable: tuple[str, ...] = ()

    def metadata(self) -> dict[str, Any]:
        """As the notebook metadata's ``agentbrowser`` keys."""
        return {
            "tools_registry": self.registry,
            "builtin_tools": list(self.builtins),
            "tools": [dict(t) for t in self.importable],
            "tools_not_importable": list(self.not_importable),
        }

    @classmethod
    def from_metadata(cls, meta: Mapping[str, Any]) -> RecordedTools:
        """Read back what :meth:`metadata` wrote (a notebook's metadata, or a script's constants)."""
        tools = [dict(t) for t in meta.get("tools") or []]
        others = tuple(str(n) for n in meta.get("tools_not_importable") or [])
        registry = bool(meta.get("tools_registry", bool(tools or others)))
        builtins = meta.get("builtin_tools")
        return cls(registry, tuple(str(n) for n in builtins or ()), tuple(tools), others)


def record_tools(tools: Any) -> RecordedTools:
    """What an export records of a ``Tools`` registry: its built-ins, and its custom tools by ``module:qualname``.

    A tool is built-in when its function is defined in ``agentbrowser``; a custom tool whose
    function cannot be imported back by name (``__main__``, a function's locals) is only named.
    """
    if tools is None:
        return RecordedTools()
    builtins: list[str] = []
    importable: list[ToolRecord] = []
    others: list[str] = []
    for name in tools.names():
        action = tools.get(name)
        fn = _action_function(action)
        module = getattr(inspect.unwrap(fn), "__module__", "") if fn is not None else ""
        if isinstance(module, str) and (module == "agentbrowser" or module.startswith("agentbrowser.")):
            builtins.append(str(name))
            continue
        where = _qualified(fn) if fn is not None else None
        if where is None:
            others.append(str(name))
            continue
        param_model = getattr(action, "param_model", None)
        model_where = _qualified(param_model) if param_model is not None else None
        domains = getattr(action, "domains", None)
        importable.append(
            {
                "name": str(name),
                "module": where[0],
                "qualname": where[1],
                "description": str(getattr(action, "description", "") or ""),
                "domains": list(domains) if domains else None,
                "param_model": f"{model_where[0]}:{model_where[1]}" if model_where else None,
                "timeout_s": getattr(action, "timeout_s", None),
            }
        )
    return RecordedTools(True, tuple(builtins), tuple(importable), tuple(others))


def _recorded_tools(session: NotebookSession, tools: Any) -> RecordedTools:
    registry = tools if tools is not None else session.tools
    if registry is not None:
        return record_tools(registry)
    return RecordedTools.from_metadata(session.metadata)


def _secret_names(session: NotebookSession, masker: Masker | None) -> list[str]:
    chosen = masker if masker is not None else session.masker
    names = getattr(chosen, "names", None)
    if callable(names):
        return sorted(str(n) for n in names())
    return [str(n) for n in session.metadata.get("secrets", [])]


def setup_source(recorded: RecordedTools, secrets: list[str], *, script: bool = False) -> list[str]:
    """The lines that build the code session ``_agentbrowser_session`` with the recorded tools (both exports use them).

    In a ``script`` they are the body of ``main()`` (indented) and read the recorded tools from
    its ``TOOLS``... constants; in a notebook they carry the records and pick up a ``tools``
    registry defined above them (for the tools that cannot be imported).
    """
    out: list[str] = []
    others = list(recorded.not_importable)
    if others:
        out += [
            "# These tools were defined in __main__ (or inside a function) when the run was recorded, so they",
            f"# cannot be imported: {', '.join(others)}. They must be defined before replay: register",
            "# them on a `tools = Tools()` registry (from agentbrowser.tools) defined "
            + ("here." if script else "in a cell above this one."),
        ]
    if script and others:
        out.append("tools = None  # <- that registry")
    if recorded.registry:
        base = ("tools" if script else 'globals().get("tools")') if others else "None"
        if script:
            args = "TOOLS, builtins=BUILTIN_TOOLS, not_importable=TOOLS_NOT_IMPORTABLE"
        else:
            specs = pprint.pformat([dict(t) for t in recorded.importable], width=96, sort_dicts=False)
            out.append(f"_agentbrowser_tool_records = {specs}")
            args = f"_agentbrowser_tool_records, builtins={list(recorded.builtins)!r}, not_importable={others!r}"
        out.append("from agentbrowser.code.replay import rebuild_tools")
        out.append(f"_agentbrowser_tools = rebuild_tools({base}, {args})")
    else:
        out.append("_agentbrowser_tools = None  # the run had no tool registry")
    if secrets:
        out += [
            f"# The run used secrets ({', '.join(secrets)}): the cells hold <secret>name</secret> placeholders that",
            "# the tools substitute; give their values as a JSON object in the environment variable",
            "# AGENTBROWSER_SECRETS.",
            "import json as _json, os as _os",
            '_agentbrowser_secrets = _json.loads(_os.environ.get("AGENTBROWSER_SECRETS", "null"))',
        ]
    else:
        out.append("_agentbrowser_secrets = None")
    out.append("_agentbrowser_session = CodeSession(tools=_agentbrowser_tools, sensitive_data=_agentbrowser_secrets)")
    out.append("await _agentbrowser_session.start()")
    return ["    " + line if script and line else line for line in out]


def _setup_cell_source(session: NotebookSession, tools: Any, masker: Masker | None) -> str:
    body = [
        "# agentbrowser: rebuilds the namespace the recorded cells ran in (browser, page, Wait, SnapshotSpec,",
        "# done, the tools...) against a fresh browser. No model is needed to run this notebook.",
        "from agentbrowser.code import CodeSession",
        "",
        *setup_source(_recorded_tools(session, tools), _secret_names(session, masker)),
        "globals().update(_agentbrowser_session.namespace)",
    ]
    return "\n".join(body)


def ipynb_dict(session: NotebookSession, *, masker: Masker | None = None, tools: Any = None) -> dict[str, Any]:
    """The notebook as nbformat 4.5 JSON data (what :func:`to_ipynb` writes)."""
    mask = _masker(session, masker)
    recorded = _recorded_tools(session, tools)
    shown = session.document_cells()
    ids = _cell_ids(shown, {SETUP_CELL_ID})
    cells: list[dict[str, Any]] = [
        {
            "cell_type": "code",
            "execution_count": None,
            "id": SETUP_CELL_ID,
            "metadata": {"agentbrowser": {"role": "setup"}},
            "outputs": [],
            "source": lines(_setup_cell_source(session, tools, masker)),
        }
    ]
    for cell, cell_id in zip(shown, ids, strict=True):
        if _kind(cell) is CellType.MARKDOWN:
            cells.append(
                {
                    "cell_type": "markdown",
                    "id": cell_id,
                    "metadata": {"agentbrowser": {"cell_id": cell.id}},
                    "source": lines(mask(cell.source)),
                }
            )
            continue
        cells.append(
            {
                "cell_type": "code",
                "execution_count": cell.execution_count,
                "id": cell_id,
                "metadata": _cell_metadata(cell, mask),
                "outputs": _outputs(cell, mask),
                "source": lines(mask(cell.source)),
            }
        )
    meta: dict[str, Any] = {
        "session_id": session.id,
        "exported_by": f"agentbrowser {__version__}",
        **recorded.metadata(),
        "secrets": _secret_names(session, masker),
    }
    for key in ("task",):
        if key in session.metadata:
            meta[key] = mask(str(session.metadata[key]))
    return {
        "cells": cells,
        "metadata": {"kernelspec": dict(_KERNELSPEC), "language_info": dict(_LANGUAGE_INFO), "agentbrowser": meta},
        "nbformat": NBFORMAT,
        "nbformat_minor": NBFORMAT_MINOR,
    }


def to_ipynb(
    session: NotebookSession, path: str | os.PathLike[str], *, masker: Masker | None = None, tools: Any = None
) -> Path:
    """Write ``session`` as an ``.ipynb`` file (UTF-8 JSON) and return its path."""
    target = Path(path)
    text = json.dumps(ipynb_dict(session, masker=masker, tools=tools), indent=1, ensure_ascii=False)
    target.write_text(text + "\n", encoding="utf-8")
    return target


def _literal(text: str) -> str:
    """A string literal for ``text``: a readable raw triple-quoted one when it reads back exactly, else ``repr``."""
    if all(ch.isprintable() or ch in "\n\t" for ch in text) and not text.endswith("\\"):
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:
            return repr(text)
        for quote in ("'''", '"""'):
            candidate = f"r{quote}{text}{quote}"
            if quote in text or text.endswith(quote[0]):
                continue
            try:
                if ast.literal_eval(candidate) == text:
                    return candidate
            except (SyntaxError, ValueError):
                continue
    return repr(text)


_SCRIPT_MAIN = '''


async def main(argv: list[str]) -> int:
    """Run every code cell in order; 1 when a cell that succeeded when recorded fails now."""
    keep_going = "--keep-going" in argv
{setup}
    diverged = 0
    number = 0  # cells are numbered among the code cells, as `agentbrowser notebook replay` numbers them
    try:
        for spec in CELLS:
            if spec["cell_type"] != "code":
                continue
            number += 1
            print(f"# cell {{number}} ({{spec['id']}})", file=sys.stderr, flush=True)
            cell = await _agentbrowser_session.run(spec["source"])
            if cell.stdout:
                sys.stdout.write(cell.stdout if cell.stdout.endswith("\\n") else cell.stdout + "\\n")
            if cell.stderr:
                sys.stderr.write(cell.stderr if cell.stderr.endswith("\\n") else cell.stderr + "\\n")
            for image in cell.images:
                print(f"[image {{image.name or image.media_type}}: {{len(image.data)}} bytes]")
            if cell.result is not None:
                print(f"Out[{{cell.execution_count}}]: {{cell.result}}")
            sys.stdout.flush()
            if cell.status.value == "error":
                print(f"Error: {{cell.error}}", file=sys.stderr, flush=True)
                if spec["recorded_status"] == "success":
                    diverged += 1
                    print(
                        f"REPLAY DIVERGED at cell {{number}} ({{spec['id']}}): it succeeded when recorded "
                        f"and failed now: {{cell.error}}",
                        file=sys.stderr,
                        flush=True,
                    )
                    if not keep_going:
                        return 1
    finally:
        await _agentbrowser_session.close()
    return 1 if diverged else 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main(sys.argv[1:])))
'''


def script_text(session: NotebookSession, *, masker: Masker | None = None, tools: Any = None) -> str:
    """The run as a Python script (what :func:`to_script` writes)."""
    mask = _masker(session, masker)
    recorded = _recorded_tools(session, tools)
    records = pprint.pformat([dict(t) for t in recorded.importable], width=96, sort_dicts=False)
    secrets = _secret_names(session, masker)
    head = [
        "#!/usr/bin/env python3",
        f'"""Replay of agentbrowser code-mode run {session.id}: {len(session.cells)} cells, no model.',
        "",
        "Run with `python this_file.py [--keep-going]`. Each cell's source is kept exactly and runs",
        "through agentbrowser.code.CodeSession against a fresh browser (top-level await allowed);",
        "the exit status is 1 when a cell that succeeded when recorded fails now.",
        '"""',
        "",
        "from __future__ import annotations",
        "",
        "import asyncio",
        "import sys",
        "from typing import Any",
        "",
        "from agentbrowser.code import CodeSession",
        "",
        f"SESSION_ID = {session.id!r}",
        f"TOOLS_REGISTRY = {recorded.registry!r}",
        f"BUILTIN_TOOLS: list[str] = {list(recorded.builtins)!r}",
        f"TOOLS: list[dict[str, Any]] = {records}",
        f"TOOLS_NOT_IMPORTABLE: list[str] = {list(recorded.not_importable)!r}",
        f"SECRETS: list[str] = {secrets!r}",
        "",
        "CELLS: list[dict[str, Any]] = [",
    ]
    for cell in session.document_cells():
        error = cell_error(cell)
        head += [
            "    {",
            f'        "id": {cell.id!r},',
            f'        "cell_type": {_kind(cell).value!r},',
            f'        "execution_count": {cell.execution_count!r},',
            f'        "recorded_status": {_status(cell).value!r},',
        ]
        if error is not None:
            head.append(f'        "recorded_error": {mask(error.summary())!r},')
        head.append(f'        "source": {_literal(mask(cell.source))},')
        head.append("    },")
    head.append("]")
    setup = setup_source(recorded, secrets, script=True)
    return "\n".join(head) + _SCRIPT_MAIN.format(setup="\n".join(setup))


def to_script(
    session: NotebookSession, path: str | os.PathLike[str], *, masker: Masker | None = None, tools: Any = None
) -> Path:
    """Write ``session`` as a runnable ``.py`` script and return its path."""
    target = Path(path)
    target.write_text(script_text(session, masker=masker, tools=tools), encoding="utf-8")
    return target


def load_cells_literal(text: str) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """The ``CELLS`` list and the other constants (``TOOLS``, ``SECRETS``, ``SESSION_ID``...) of an exported script."""
    tree = ast.parse(text)
    found: dict[str, Any] = {}
    names = {"CELLS", "TOOLS", "TOOLS_REGISTRY", "BUILTIN_TOOLS", "TOOLS_NOT_IMPORTABLE", "SECRETS", "SESSION_ID"}
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            target, value = node.targets[0], node.value
        elif isinstance(node, ast.AnnAssign) and node.value is not None:
            target, value = node.target, node.value
        else:
            continue
        if isinstance(target, ast.Name) and target.id in names:
            found[target.id] = ast.literal_eval(value)
    if "CELLS" not in found:
        raise ValueError("not an exported agentbrowser script: no CELLS list")
    cells = found.pop("CELLS")
    if not isinstance(cells, list) or not all(isinstance(c, Mapping) and "source" in c for c in cells):
        raise ValueError("CELLS must be a list of dicts with a 'source'")
    return [dict(c) for c in cells], found
