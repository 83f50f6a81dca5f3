"""Record a code session against the test pages, export it, and run it again with no model.

The cells fill a form, click, read a value into a variable, fail once on purpose, keep a
multi-line string and call a custom tool.  The exported ``.ipynb`` is validated by nbformat
and executed by nbclient in a real ipykernel, the ``.py`` runs in a subprocess, and
``replay``/``replay_file`` re-run the session; each compares the final values and the page.
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import nbclient
import nbformat
import pytest
from agentbrowser.aio import AsyncBrowser
from agentbrowser.code import CodeSession
from agentbrowser.code.notebook import ExecutionStatus, NotebookSession
from agentbrowser.code.replay import ReplayDivergence, load_ipynb, load_script, replay_file
from conftest import REPO
from notebook_tools import tools as custom_tools

pytestmark = pytest.mark.e2e

TESTS = Path(__file__).resolve().parent
NOTE = "line one\n    line two\n\nline four"
RESULT_JS = "document.getElementById('result').textContent"


def _cells(base: str) -> list[str]:
    return [
        f'url = "{base}/form"\nnav = await page.open(url)\nprint(nav.title)',
        'snap = await page.observe()\nawait snap.one(role="textbox", name="Name").fill("Ada")\n'
        'await snap.one(role="button", name="Submit").click()',
        f'result = await page.evaluate("{RESULT_JS}")\nprint(result)\nresult',
        'print("before the error")\nmissing_name + 1',
        'note = """line one\n    line two\n\nline four"""\nprint(note)',
        "checked = str(await result_text())\nprint(checked)",
        'await done(f"the form says {result}")',
    ]


def _tools() -> Any:
    from agentbrowser.tools import Tools

    registry = Tools()
    registry.action("The text of the page's #result paragraph.")(custom_tools.get("result_text").function)
    return registry


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(REPO / "python"), str(TESTS), env.get("PYTHONPATH", "")])
    return env


async def _record(base: str) -> NotebookSession:
    async with CodeSession(tools=_tools()) as code:
        for source in _cells(base):
            await code.run(source)
        code.notebook.tools = code.tools
        return code.notebook


def _values(namespace: dict[str, Any]) -> dict[str, Any]:
    return {k: namespace.get(k) for k in ("url", "result", "note", "checked", "_task_done", "_task_result")}


def _check_recorded(session: NotebookSession, base: str) -> None:
    statuses = [c.status for c in session.cells]
    assert statuses == [ExecutionStatus.SUCCESS] * 3 + [ExecutionStatus.ERROR] + [ExecutionStatus.SUCCESS] * 3, [
        (c.status, c.error) for c in session.cells
    ]
    assert _values(session.namespace) == {
        "url": f"{base}/form",
        "result": "Submitted Ada",
        "note": NOTE,
        "checked": "Submitted Ada",
        "_task_done": True,
        "_task_result": "the form says Submitted Ada",
    }


@pytest.fixture
def recorded(server: str, agentbrowser_bin: Path, require: Callable[..., None], tmp_path: Path) -> NotebookSession:
    require("snapshot", "fill", "click", "eval")
    session = asyncio.run(_record(server))
    _check_recorded(session, server)
    return session


def test_ipynb_is_valid_and_runs_in_nbclient(recorded: NotebookSession, server: str, tmp_path: Path) -> None:
    path = recorded.to_ipynb(tmp_path / "run.ipynb")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        nb = nbformat.read(str(path), as_version=4)
        nbformat.validate(nb)
    assert nb.metadata.agentbrowser.tools[0]["module"] == "notebook_tools"
    assert nb.metadata.agentbrowser.tools[0]["qualname"] == "result_text"
    assert "navigate" in nb.metadata.agentbrowser.builtin_tools
    assert nb.cells[4].metadata.tags == ["raises-exception"]
    assert nb.cells[4].outputs[-1].ename == "NameError"
    # Compare the kernel's final values and page with the recorded run's.
    probe = "import json\nprint(json.dumps({k: globals().get(k) for k in ('url', 'result', 'note', 'checked')}))"
    nb.cells.append(nbformat.v4.new_code_cell(probe))
    nb.cells.append(nbformat.v4.new_code_cell(f'print(await page.evaluate("{RESULT_JS}"))\nprint(await page.url())'))
    client = nbclient.NotebookClient(
        nb, kernel_name="python3", timeout=120, resources={"metadata": {"path": str(tmp_path)}}
    )
    saved = dict(os.environ)
    os.environ.update(_env())  # the kernel inherits this process's environment
    try:
        client.execute()
    finally:
        os.environ.clear()
        os.environ.update(saved)
    texts = ["".join(o.get("text", "") for o in c.outputs if o.output_type == "stream") for c in nb.cells]
    assert texts[1] == "Form\n" and texts[3] == "Submitted Ada\n"
    assert nb.cells[3].outputs[-1].data["text/plain"] == "'Submitted Ada'"
    assert texts[4] == "before the error\n" and nb.cells[4].outputs[-1].ename == "NameError"
    assert texts[5] == NOTE + "\n" and texts[6] == "Submitted Ada\n"
    assert json.loads(texts[-2]) == {k: v for k, v in _values(recorded.namespace).items() if not k.startswith("_")}
    assert texts[-1] == f"Submitted Ada\n{server}/form\n"


def test_script_runs_and_prints_the_same(recorded: NotebookSession, server: str, tmp_path: Path) -> None:
    path = recorded.to_script(tmp_path / "run.py")
    done = subprocess.run(
        [sys.executable, str(path)], env=_env(), capture_output=True, text=True, timeout=300, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("Form\n")
    assert "Submitted Ada\nOut[3]: 'Submitted Ada'\n" in done.stdout
    assert "before the error\n" in done.stdout and "NameError" in done.stderr
    assert NOTE + "\n" in done.stdout and done.stdout.count("Submitted Ada") >= 3
    assert load_script(path).cells[4].source == _cells(server)[4]


def test_script_fails_loudly_on_divergence(recorded: NotebookSession, tmp_path: Path) -> None:
    recorded.cells[2].source = 'raise RuntimeError("not what was recorded")'
    path = recorded.to_script(tmp_path / "diverged.py")
    done = subprocess.run(
        [sys.executable, str(path)], env=_env(), capture_output=True, text=True, timeout=300, check=False
    )
    assert done.returncode == 1
    assert "REPLAY DIVERGED at cell 3" in done.stderr and "not what was recorded" in done.stderr
    assert "Submitted Ada" not in done.stdout  # it stopped there


def test_replay_gives_the_same_values_and_page(recorded: NotebookSession, server: str) -> None:
    async def replay_and_look() -> tuple[NotebookSession, str, str]:
        async with await AsyncBrowser.launch() as browser:
            again = await recorded.replay(browser)
            return again, await browser.page.evaluate(RESULT_JS), await browser.page.url()

    again, text, url = asyncio.run(replay_and_look())
    assert (text, url) == ("Submitted Ada", f"{server}/form")  # the page state of the replay
    assert again is not recorded and again.metadata["replay_of"] == recorded.id
    _check_recorded(again, server)
    assert [c.source for c in again.cells] == [c.source for c in recorded.cells]
    assert [c.stdout for c in again.cells] == [c.stdout for c in recorded.cells]


def test_replay_files(recorded: NotebookSession, server: str, tmp_path: Path) -> None:
    ipynb = recorded.to_ipynb(tmp_path / "run.ipynb")
    script = recorded.to_script(tmp_path / "run.py")
    loaded = load_ipynb(ipynb)
    assert [c.source for c in loaded.cells] == [c.source for c in recorded.cells]
    assert [c.status for c in loaded.cells] == [c.status for c in recorded.cells]
    assert loaded.cells[2].result == "'Submitted Ada'" and loaded.cells[3].error_info is not None
    for path in (ipynb, script):
        again = asyncio.run(replay_file(path))  # the custom tool comes back from its module
        _check_recorded(again, server)


def test_replay_divergence(recorded: NotebookSession, server: str) -> None:
    recorded.cells[2].source = 'raise RuntimeError("not what was recorded")'
    with pytest.raises(ReplayDivergence) as caught:
        asyncio.run(recorded.replay())
    err = caught.value
    assert err.index == 2 and err.original is recorded.cells[2]
    assert err.replayed.status is ExecutionStatus.ERROR and "not what was recorded" in (err.replayed.error or "")
    assert len(err.session.cells) == 3
    again = asyncio.run(recorded.replay(stop_on_divergence=False))
    assert len(again.cells) == len(recorded.cells)
    assert [d["index"] for d in again.metadata["divergences"]] == [2, 6]  # the done() cell needs `result` too
