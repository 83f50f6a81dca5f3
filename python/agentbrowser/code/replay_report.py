"""What ``agentbrowser notebook replay`` answers: each cell's status, the divergence and what was not run.

:func:`build_report` turns a replay (finished, or stopped by :class:`ReplayDivergence`) into
one JSON-ready dict; :func:`report_lines` writes it as text and :func:`report_envelope` as
the CLI's JSON envelope (action ``notebook_replay``; a divergence is ``success: false`` with
code ``replay_diverged``).  Cells are numbered among the code cells, as the replay numbers them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from .notebook import CellType, ExecutionStatus, NotebookSession
from .replay import ReplayDivergence, describe_divergence

__all__ = ["ACTION", "DIVERGED_CODE", "build_report", "report_envelope", "report_lines"]

#: The ``action`` of the JSON envelope.
ACTION = "notebook_replay"
#: The envelope's ``code`` when a cell diverged (the exit status is 1).
DIVERGED_CODE = "replay_diverged"


def _code_cells(session: NotebookSession) -> list[Any]:
    return [c for c in session.cells if CellType(c.cell_type) is CellType.CODE]


def _first_line(text: str) -> str:
    return next((line.strip() for line in text.splitlines() if line.strip()), "")


def _span(numbers: Sequence[int]) -> str:
    if not numbers:
        return ""
    return f"cell {numbers[0]}" if len(numbers) == 1 else f"cells {numbers[0]}-{numbers[-1]}"


def build_report(
    path: Path,
    recorded: NotebookSession,
    replayed: NotebookSession,
    stopped: ReplayDivergence | None,
    page_url: str | None,
) -> dict[str, Any]:
    """The replay as data: ``cells`` run (number, the notebook's cell id, status now and recorded, error, output),
    ``divergences``, ``stopped_at`` (None when every cell ran), ``not_run`` (cell numbers), ``page`` and the
    ``done()`` result."""
    originals = _code_cells(recorded)
    ran = _code_cells(replayed)
    cells = [
        {
            "cell": number,
            "id": original.id,
            "execution_count": cell.execution_count,
            "status": str(cell.status),
            "recorded_status": str(ExecutionStatus(original.status)),
            "error": cell.error,
            "output": cell.output,
            "source": cell.source,
        }
        for number, (cell, original) in enumerate(zip(ran, originals, strict=False), 1)
    ]
    ns = replayed.namespace
    return {
        "path": str(path),
        "cells": cells,
        "divergences": list(replayed.metadata.get("divergences") or []),
        "stopped_at": stopped.number if stopped is not None else None,
        "not_run": list(range(len(ran) + 1, len(originals) + 1)),
        "page": page_url,
        "task_done": bool(ns.get("_task_done")),
        "task_success": ns.get("_task_success") if ns.get("_task_done") else None,
        "task_result": replayed.mask(str(ns.get("_task_result"))) if ns.get("_task_done") else None,
    }


def report_lines(report: Mapping[str, Any]) -> list[str]:
    """The report as the CLI's text: a line per cell, each divergence (expected / got), what was not run, the page."""
    lines: list[str] = []
    for cell in report["cells"]:
        detail = f" {cell['error'].splitlines()[0][:120]}" if cell["error"] else ""
        lines.append(f"cell {cell['cell']}: {cell['status']}{detail} | {_first_line(cell['source'])[:70]}")
    for d in report["divergences"]:
        count = d.get("execution_count")
        label = f"In [{count}], id {d['cell_id']}" if count else f"id {d['cell_id']}"
        lines.append(f"DIVERGED at cell {d['cell']} ({label}): it succeeded when recorded and failed now")
        recorded = f" (recorded output: {d['expected']['output']})" if d["expected"].get("output") else ""
        lines.append(f"  expected: {d['expected']['status']}{recorded}")
        lines.append(f"  got:      {d['got']['status']}: {d['got']['error']}")
    not_run = report["not_run"]
    if report["stopped_at"] is not None and not_run:
        lines.append(
            f"stopped at the first divergence: {_span(not_run)} not run "
            "(the page is not in the recorded state; --keep-going runs them anyway)"
        )
    if report["task_done"]:
        lines.append(f"result (success={bool(report['task_success'])}): {report['task_result']}")
    lines.append(f"page: {report['page']}")
    total = len(report["cells"]) + len(not_run)
    diverged = report["divergences"]
    if report["stopped_at"] is not None:
        lines.append(
            f"replayed {len(report['cells'])} of {total} cells: stopped at cell {report['stopped_at']}, "
            "which diverged from the recording"
        )
    elif diverged:
        which = ", ".join(str(d["cell"]) for d in diverged)
        lines.append(f"replayed {total} cells: {len(diverged)} diverged from the recording (cell {which})")
    else:
        lines.append(f"replayed {total} cells: every cell as recorded")
    return lines


def report_envelope(report: Mapping[str, Any]) -> dict[str, Any]:
    """The report in the CLI's JSON envelope: ``success`` false with ``replay_diverged`` when a cell diverged."""
    diverged = report["divergences"]
    return {
        "id": None,
        "action": ACTION,
        "success": not diverged,
        "data": dict(report),
        "error": describe_divergence(diverged[0]) if diverged else None,
        "code": DIVERGED_CODE if diverged else None,
        "warning": None,
    }
