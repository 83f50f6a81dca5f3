"""browser-use's code-agent surface exists here: every name, parameter and default of its
``CodeAgent``/``NotebookSession``/``CodeCell`` (0.12.2) and ``Tools``/``ActionResult``/
``JudgementResult`` (0.13.0), except the documented exceptions of python/tools/peer_code_api.py.

The wheels are read by AST from target/peer-wheels/ (downloaded with ``pip download --no-deps``
when missing: the one network use, bounded by a timeout, failing with what to do).
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

REPO = Path(__file__).resolve().parents[2]


def _tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("peer_code_api", REPO / "python" / "tools" / "peer_code_api.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["peer_code_api"] = module
    spec.loader.exec_module(module)
    return module


def test_every_name_of_browser_use_code_agent_exists_here_or_is_an_exception() -> None:
    tool = _tool()
    gaps = dict(tool.diff(tool.theirs(), tool.ours()))
    unlisted = {key: what for key, what in gaps.items() if key not in tool.EXCEPTIONS}
    assert not unlisted, "missing here and not in peer_code_api.EXCEPTIONS:\n" + "\n".join(
        f"  {k}: {w}" for k, w in sorted(unlisted.items())
    )
    stale = sorted(set(tool.EXCEPTIONS) - set(gaps))
    assert not stale, f"exceptions that are no longer gaps (remove them from EXCEPTIONS): {stale}"


def test_every_exception_says_why() -> None:
    tool = _tool()
    for key, reason in tool.EXCEPTIONS.items():
        assert isinstance(reason, str) and len(reason) > 10, key


def test_the_peer_surface_is_the_one_the_seeds_document() -> None:
    tool = _tool()
    their = tool.theirs()
    assert {"id", "cells", "current_execution_count", "namespace", "get_cell", "get_latest_cell"} <= set(
        their["NotebookSession"]
    )
    assert {"extracted_content", "long_term_memory", "error", "is_done", "success", "attachments", "images",
            "metadata", "judgement", "include_extracted_content_only_once", "include_in_memory"} <= set(
        their["ActionResult"]
    )
    assert their["CodeAgent"]["max_steps"].default == "100"
    assert set(their["ExecutionStatus"]) == {"PENDING", "RUNNING", "SUCCESS", "ERROR"}
