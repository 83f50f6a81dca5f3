"""The ten-line example of docs/python.md runs as written."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def test_ten_line_example_runs(agentbrowser_bin: Path, require: Callable[..., None]) -> None:
    require("snapshot", "fill", "click")
    doc = (REPO / "docs" / "python.md").read_text()
    section = doc.split("## Ten lines", 1)[1]
    code = re.search(r"```python\n(.*?)```", section, re.S)
    assert code is not None
    lines = code.group(1).strip().splitlines()
    assert len(lines) <= 10
    env = {**os.environ, "PYTHONPATH": str(REPO / "python")}
    done = subprocess.run([sys.executable, "-c", code.group(1)], env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "Greet" in done.stdout and "Hi Ada" in done.stdout
