"""Code mode: Python cells against a live browser, recorded as a notebook.

:class:`CodeAgent` runs a model's cells to ``done()`` (``await agent.run() -> NotebookSession``);
:class:`CodeSession` runs cells (``await session.run(source) -> CodeCell``); the models are in
:mod:`agentbrowser.code.notebook`, the ``.ipynb``/``.py`` exports in
:mod:`agentbrowser.code.export` and the replay without a model in :mod:`agentbrowser.code.replay`.
Names are imported lazily, so ``import agentbrowser.code`` stays cheap.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .agent import CodeAgent, StepTiming
    from .cells import CodeSession, Masker
    from .export import to_ipynb, to_script
    from .notebook import (
        CellError,
        CellImage,
        CellType,
        CodeAgentHistoryList,
        CodeAgentResult,
        CodeAgentState,
        CodeAgentStep,
        CodeAgentStepMetadata,
        CodeCell,
        ExecutionStatus,
        NotebookSession,
    )
    from .replay import ReplayDivergence, load_ipynb, load_script, replay_file
    from .secrets import SensitiveData
    from .subproc import SubprocessExecutor

_LAZY: dict[str, str] = {
    "CellError": "notebook",
    "CellImage": "notebook",
    "CellType": "notebook",
    "CodeAgent": "agent",
    "CodeAgentHistoryList": "notebook",
    "CodeAgentResult": "notebook",
    "CodeAgentState": "notebook",
    "CodeAgentStep": "notebook",
    "CodeAgentStepMetadata": "notebook",
    "CodeCell": "notebook",
    "CodeSession": "cells",
    "ExecutionStatus": "notebook",
    "Masker": "cells",
    "NotebookSession": "notebook",
    "ReplayDivergence": "replay",
    "SensitiveData": "secrets",
    "StepTiming": "agent",
    "SubprocessExecutor": "subproc",
    "load_ipynb": "replay",
    "load_script": "replay",
    "replay_file": "replay",
    "to_ipynb": "export",
    "to_script": "export",
}


def __getattr__(name: str) -> object:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'agentbrowser.code' has no attribute {name!r}")
    return getattr(importlib.import_module(f"agentbrowser.code.{module}"), name)


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))


__all__ = [
    "CellError",
    "CellImage",
    "CellType",
    "CodeAgent",
    "CodeAgentHistoryList",
    "CodeAgentResult",
    "CodeAgentState",
    "CodeAgentStep",
    "CodeAgentStepMetadata",
    "CodeCell",
    "CodeSession",
    "ExecutionStatus",
    "Masker",
    "NotebookSession",
    "ReplayDivergence",
    "SensitiveData",
    "StepTiming",
    "SubprocessExecutor",
    "load_ipynb",
    "load_script",
    "replay_file",
    "to_ipynb",
    "to_script",
]
