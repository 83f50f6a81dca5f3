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
import re
import subprocess
import sys
import threading
import warnings
from collections.abc import Callable, Iterator
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, cast

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


# -- a replay that diverges stops there (issue 35) ------------------------------------------------

BANNER = (
    '<div id="banner"><p>We use cookies.</p>'
    "<button onclick=\"document.getElementById('banner').remove()\">Accept cookies</button></div>"
)


def _shop(banner: str) -> str:
    return (
        "<!doctype html><html><head><meta charset=utf-8><title>Shop</title></head><body>"
        f'{banner}<form action="/saved.html"><label>Name <input name="name"></label>'
        "<button>Save</button></form></body></html>"
    )


class _LoggedFiles(SimpleHTTPRequestHandler):
    """Serves a directory and logs every path asked for: the shop's back end, whose state is what it was sent."""

    def do_GET(self) -> None:  # noqa: N802 (http.server API)
        cast(Any, self.server).asked.append(self.path)
        super().do_GET()

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002
        pass


# Cell 4 accepts a cookie banner the page had when the run was recorded; cell 5 saves a name
# to the server (the app's state), cell 6 reads the page that answers.
def _shop_cells(base: str) -> list[str]:
    return [
        f'await page.open("{base}/shop.html")',
        'title = await page.evaluate("document.title")\nprint(title)',
        "snap = await page.observe()",
        'await snap.one(role="button", name="Accept cookies").click()',
        'snap = await page.observe()\nawait snap.one(role="textbox", name="Name").fill("Ada")\n'
        'await snap.one(role="button", name="Save").click(wait=Wait.url("saved.html"))',
        'print(await page.evaluate("document.title"))',
    ]


@pytest.fixture
def shop(agentbrowser_bin: Path, require: Callable[..., None], tmp_path: Path) -> Iterator[tuple[Path, list[str]]]:
    """A notebook recorded against the shop with its banner, then the banner gone: (notebook, paths the server got)."""
    require("snapshot", "click", "fill", "eval")
    site = tmp_path / "site"
    site.mkdir()
    (site / "shop.html").write_text(_shop(BANNER))
    (site / "saved.html").write_text("<!doctype html><title>Saved</title><p>Saved.</p>")
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), partial(_LoggedFiles, directory=str(site)))
    httpd.daemon_threads = True
    asked: list[str] = []
    cast(Any, httpd).asked = asked
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{httpd.server_address[1]}"

    async def record() -> NotebookSession:
        async with CodeSession() as code:
            for source in _shop_cells(base):
                await code.run(source)
            return code.notebook

    recorded = asyncio.run(record())
    assert [(c.status, c.error) for c in recorded.cells] == [(ExecutionStatus.SUCCESS, None)] * 6
    assert "/saved.html?name=Ada" in asked and recorded.cells[5].stdout == "Saved\n"
    path = recorded.to_ipynb(tmp_path / "shop.ipynb")
    (site / "shop.html").write_text(_shop(""))  # the site changed: no banner any more
    asked.clear()
    yield path, asked
    httpd.shutdown()
    httpd.server_close()


def _cli(binary: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(binary), *args], env=_env(), capture_output=True, text=True, timeout=300, check=False)


def test_cli_replay_stops_at_the_first_divergence(shop: tuple[Path, list[str]], agentbrowser_bin: Path) -> None:
    path, asked = shop
    done = _cli(agentbrowser_bin, "notebook", "replay", str(path))
    assert done.returncode == 1, (done.stdout, done.stderr)
    assert "/shop.html" in asked  # the replay ran, against the real page
    assert not any(p.startswith("/saved.html") for p in asked), asked  # cell 5 never saved anything
    out = done.stdout
    assert "cell 3: success | snap = await page.observe()" in out
    assert "cell 4: error LookupError" in out and "cell 5:" not in out and "cell 6:" not in out
    assert re.search(
        r"DIVERGED at cell 4 \(In \[4\], id [0-9a-f]{32}\): it succeeded when recorded and failed now", out
    )
    assert "  expected: success (recorded output: Out: ActionResult(" in out
    assert re.search(r"  got:      error: LookupError: .*Accept cookies", out), out
    assert "stopped at the first divergence: cells 5-6 not run" in out and "--keep-going" in out
    assert out.rstrip().endswith("replayed 4 of 6 cells: stopped at cell 4, which diverged from the recording")


def test_cli_replay_keep_going_runs_the_rest(shop: tuple[Path, list[str]], agentbrowser_bin: Path) -> None:
    path, asked = shop
    done = _cli(agentbrowser_bin, "notebook", "replay", str(path), "--keep-going")
    assert done.returncode == 1, (done.stdout, done.stderr)
    assert "/saved.html?name=Ada" in asked  # cell 5 ran and saved, on a page in another state
    out = done.stdout
    assert "cell 4: error LookupError" in out and "cell 5: success" in out
    assert 'cell 6: success | print(await page.evaluate("document.title"))' in out
    assert "DIVERGED at cell 4 (In [4]" in out and "not run" not in out
    assert out.rstrip().endswith("replayed 6 cells: 1 diverged from the recording (cell 4)")


def test_cli_replay_json_names_the_cell_and_the_divergence(
    shop: tuple[Path, list[str]], agentbrowser_bin: Path
) -> None:
    path, asked = shop
    done = _cli(agentbrowser_bin, "--json", "notebook", "replay", str(path))  # the global flag reaches the replay
    assert done.returncode == 1, (done.stdout, done.stderr)
    assert not any(p.startswith("/saved.html") for p in asked), asked
    answer = json.loads(done.stdout)
    assert (answer["action"], answer["success"], answer["code"]) == ("notebook_replay", False, "replay_diverged")
    assert answer["error"].startswith("replay diverged at cell 4 (In [4], id ")
    assert "expected success as recorded" in answer["error"] and "got error: LookupError" in answer["error"]
    data = answer["data"]
    assert data["stopped_at"] == 4 and data["not_run"] == [5, 6]
    assert [(c["cell"], c["status"], c["recorded_status"]) for c in data["cells"]] == [
        (1, "success", "success"),
        (2, "success", "success"),
        (3, "success", "success"),
        (4, "error", "success"),
    ]
    (diverged,) = data["divergences"]
    assert diverged["cell"] == 4 and diverged["cell_id"] == data["cells"][3]["id"]
    assert diverged["expected"] == {"status": "success", "output": diverged["expected"]["output"]}
    assert diverged["expected"]["output"].startswith("Out: ActionResult(")
    assert diverged["got"]["status"] == "error" and "Accept cookies" in diverged["got"]["error"]
    assert data["page"].endswith("/shop.html")
    kept = json.loads(_cli(agentbrowser_bin, "notebook", "replay", str(path), "--keep-going", "--json").stdout)
    assert kept["code"] == "replay_diverged" and kept["data"]["stopped_at"] is None and kept["data"]["not_run"] == []
    assert [c["status"] for c in kept["data"]["cells"]] == ["success"] * 3 + ["error", "success", "success"]
    assert kept["data"]["page"].endswith("/saved.html?name=Ada")


def test_python_replay_stops_there_too(shop: tuple[Path, list[str]]) -> None:
    path, asked = shop
    with pytest.raises(ReplayDivergence) as caught:
        asyncio.run(replay_file(path))
    assert caught.value.number == 4 and caught.value.session.metadata["stopped_at"] == 4
    assert str(caught.value).startswith("replay diverged at cell 4 (In [4], id ")
    assert not any(p.startswith("/saved.html") for p in asked), asked


def test_cli_replay_refuses_what_is_not_a_notebook(agentbrowser_bin: Path, tmp_path: Path) -> None:
    missing = tmp_path / "nope.ipynb"
    done = _cli(agentbrowser_bin, "notebook", "replay", str(missing))
    assert done.returncode == 2 and f"error: {missing}: no such notebook" in done.stderr and done.stdout == ""
    junk = tmp_path / "junk.py"
    junk.write_text("print('not an export')\n")
    done = _cli(agentbrowser_bin, "--json", "notebook", "replay", str(junk))
    assert done.returncode == 2, (done.stdout, done.stderr)
    answer = json.loads(done.stdout)
    assert (answer["action"], answer["success"], answer["code"]) == ("notebook_replay", False, "invalid_argument")
    assert answer["error"].startswith(f"{junk}: not a notebook or script a code-mode run wrote (not an exported")
