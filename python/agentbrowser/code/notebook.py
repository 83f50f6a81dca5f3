"""Notebook models of code mode: :class:`CodeCell`, :class:`NotebookSession` and their enums.

A MINIMAL stand-in written by H1 so that the cell executor can be built and tested; H3's
full module (history models, export, replay) replaces this file at merge with the same
names, fields and types.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

__all__ = ["CellError", "CellImage", "CellType", "CodeCell", "ExecutionStatus", "NotebookSession", "new_id"]


def new_id() -> str:
    """A new unique id (uuid4 hex)."""
    return uuid.uuid4().hex


class CellType(str, Enum):
    """The kind of a cell."""

    CODE = "code"
    MARKDOWN = "markdown"


class ExecutionStatus(str, Enum):
    """Where a cell is in its life: pending, running, then success or error."""

    PENDING = "pending"
    RUNNING = "running"
    SUCCESS = "success"
    ERROR = "error"


@dataclass(frozen=True, slots=True)
class CellImage:
    """An image a cell produced (a screenshot, or what it passed to ``show()``)."""

    data: bytes = field(repr=False)
    media_type: str = "image/png"
    name: str = ""


@dataclass(frozen=True, slots=True)
class CellError:
    """A cell's error: exception name and value, failing line number and line, trimmed traceback."""

    ename: str
    evalue: str
    lineno: int | None = None
    line: str | None = None
    traceback: tuple[str, ...] = ()


@dataclass(slots=True)
class CodeCell:
    """One cell: its source and, once run, its output, status, error and the browser state after it."""

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


@dataclass(slots=True)
class NotebookSession:
    """A run as a notebook: its cells, the execution counter and the live namespace (the run's globals)."""

    id: str = field(default_factory=new_id)
    cells: list[CodeCell] = field(default_factory=list)
    current_execution_count: int = 0
    namespace: dict[str, Any] = field(default_factory=dict)

    def add_cell(self, source: str, cell_type: CellType = CellType.CODE) -> CodeCell:
        """Append a new pending cell."""
        cell = CodeCell(source=source, cell_type=cell_type)
        self.cells.append(cell)
        return cell

    def get_cell(self, cell_id: str) -> CodeCell | None:
        """The cell with this id, or None."""
        for cell in self.cells:
            if cell.id == cell_id:
                return cell
        return None

    def get_latest_cell(self) -> CodeCell | None:
        """The last cell, or None when there is none."""
        return self.cells[-1] if self.cells else None

    def increment_execution_count(self) -> int:
        """Advance the execution counter and return its new value."""
        self.current_execution_count += 1
        return self.current_execution_count
