"""Code mode: a model writes Python cells that run against the live browser; the run is a notebook."""

from __future__ import annotations

from .export import to_ipynb, to_script
from .notebook import (
    CellError,
    CellImage,
    CellType,
    CodeAgentHistoryList,
    CodeAgentResult,
    CodeAgentState,
    CodeAgentStep,
    CodeCell,
    ExecutionStatus,
    NotebookSession,
)

__all__ = [
    "CellError",
    "CellImage",
    "CellType",
    "CodeAgentHistoryList",
    "CodeAgentResult",
    "CodeAgentState",
    "CodeAgentStep",
    "CodeCell",
    "ExecutionStatus",
    "NotebookSession",
    "to_ipynb",
    "to_script",
]
