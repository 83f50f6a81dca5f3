"""mypy --strict passes on the package and on typed usage of sync and async refs."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path


REPO = Path(__file__).resolve().parents[2]


def test_mypy_strict() -> None:
    assert importlib.util.find_spec("mypy") is not None, "mypy is not installed (scripts/requirements-dev.txt)"
    env = {**os.environ, "MYPYPATH": str(REPO / "python")}
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "mypy",
            "--strict",
            "--no-incremental",
            "python/agentbrowser",
            "python/tests/typing_usage.py",
        ],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
