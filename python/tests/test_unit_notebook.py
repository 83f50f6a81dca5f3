"""The notebook models (seed 000), their history, and the .ipynb/.py exports of a hand-built session."""

from __future__ import annotations

import ast
import base64
import dataclasses
import json
import re
import warnings
from dataclasses import dataclass
from pathlib import Path

import nbformat
import pytest
from agentbrowser.code import export
from agentbrowser.code.notebook import (
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
    UsageTotal,
    new_id,
)

NB_ID = re.compile(r"[a-zA-Z0-9_-]{1,64}")
PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg=="
)


# -- models -----------------------------------------------------------------------------------


def test_code_cell_has_the_seed_fields_and_defaults() -> None:
    cell = CodeCell(source="print(1)")
    seed = ["id", "cell_type", "source", "output", "execution_count", "status", "error", "browser_state"]
    names = [f.name for f in dataclasses.fields(CodeCell)]
    assert set(seed) <= set(names)
    assert (cell.cell_type, cell.output, cell.execution_count, cell.status, cell.error, cell.browser_state) == (
        CellType.CODE,
        None,
        None,
        ExecutionStatus.PENDING,
        None,
        None,
    )
    # Additive fields.
    assert (cell.stdout, cell.stderr, cell.result, cell.error_info, cell.images) == ("", "", None, None, ())
    assert (cell.duration_s, cell.timed_out, cell.output_truncated, cell.original_output_chars) == (
        0.0,
        False,
        False,
        0,
    )
    assert NB_ID.fullmatch(cell.id) and cell.id != CodeCell(source="").id


def test_enums_have_the_seed_values_and_accept_them() -> None:
    assert [s.value for s in ExecutionStatus] == ["pending", "running", "success", "error"]
    assert [t.value for t in CellType] == ["code", "markdown"]
    assert ExecutionStatus.SUCCESS == "success" and CellType.MARKDOWN == "markdown"
    cell = CodeCell(source="# hi", cell_type="markdown", status="error")  # type: ignore[arg-type]
    assert cell.cell_type is CellType.MARKDOWN and cell.status is ExecutionStatus.ERROR
    with pytest.raises(ValueError):
        CodeCell(source="", status="done")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        CodeCell(source="", colour="red")  # type: ignore[call-arg]  # unknown keys refused, like extra='forbid'


def test_notebook_session_seed_fields_and_helpers() -> None:
    namespace: dict[str, object] = {}
    session = NotebookSession(namespace=namespace)
    assert session.namespace is namespace  # the run's globals, the same dict
    assert session.cells == [] and session.current_execution_count == 0 and NB_ID.fullmatch(session.id)
    assert session.get_latest_cell() is None and session.get_cell("nope") is None
    first = session.add_cell("a = 1")
    note = session.add_cell("# Notes", CellType.MARKDOWN)
    assert session.cells == [first, note] and first.status is ExecutionStatus.PENDING
    assert note.cell_type is CellType.MARKDOWN
    assert session.get_cell(first.id) is first and session.get_latest_cell() is note
    assert session.increment_execution_count() == 1 and session.increment_execution_count() == 2
    assert session.current_execution_count == 2
    namespace.update(_task_done=True, _task_result="ok", _task_success=True, _task_attachments=[])
    assert session.namespace.get("_task_done") is True and session.namespace["_task_result"] == "ok"
    assert isinstance(session.history, CodeAgentHistoryList) and session.history.number_of_steps() == 0
    assert session.history is session.history


def test_cell_error_summary_is_the_error_text() -> None:
    err = CellError("NameError", "name 'x' is not defined", 3, "  print(x)", ("Traceback", "NameError: ..."))
    assert err.summary() == "NameError: name 'x' is not defined (line 3: print(x))"
    assert CellError("KeyboardInterrupt", "").summary() == "KeyboardInterrupt"
    assert CellError("E", "v", 2).summary() == "E: v (line 2)"
    assert len({new_id() for _ in range(100)}) == 100


@dataclass(frozen=True)
class _Tokens:
    """Token counts shaped like agentbrowser.llm.Usage."""

    prompt_tokens: int
    completion_tokens: int
    total_tokens: int
    cached_tokens: int | None = None


@dataclass(frozen=True)
class _Verdict:
    verdict: bool
    reasoning: str | None = None


def _history() -> CodeAgentHistoryList:
    return CodeAgentHistoryList(
        steps=[
            CodeAgentStep(
                1,
                "await page.open(url)",
                "```python\nawait page.open(url)\n```",
                cell_id="c1",
                result=CodeAgentResult(extracted_content="opened"),
                state=CodeAgentState(url="http://x/a", title="A", screenshot=PNG),
                usage=_Tokens(100, 10, 110),
                started_at=10.0,
                ended_at=11.5,
            ),
            CodeAgentStep(
                2,
                "print(y)",
                result=CodeAgentResult(error="NameError: name 'y' is not defined (line 1: print(y))"),
                state=CodeAgentState(url="http://x/a", title="A"),
                usage=_Tokens(120, 5, 125, cached_tokens=64),
                started_at=11.5,
                ended_at=12.0,
            ),
            CodeAgentStep(
                3,
                "done('42')",
                result=CodeAgentResult(extracted_content="42", is_done=True, success=True),
                state=CodeAgentState(url="http://x/b", title="B", screenshot=PNG),
                started_at=12.0,
                ended_at=12.25,
            ),
        ]
    )


def test_history_helpers() -> None:
    history = _history()
    assert history.number_of_steps() == 3
    assert history.final_result() == "42" and history.is_done() and history.is_successful() is True
    assert history.errors() == [None, "NameError: name 'y' is not defined (line 1: print(y))", None]
    assert history.has_errors()
    assert history.urls() == ["http://x/a", "http://x/a", "http://x/b"]
    assert history.screenshots() == [PNG, None, PNG]
    assert history.screenshots(n_last=2) == [None, PNG]
    assert history.screenshots(return_none_if_not_screenshot=False) == [PNG, PNG]
    assert history.screenshots(n_last=0) == []
    assert history.model_outputs() == ["await page.open(url)", "print(y)", "done('42')"]
    assert history.extracted_content() == ["opened", "42"]
    assert history.total_duration_seconds() == pytest.approx(2.25)
    assert history.usage() == UsageTotal(prompt_tokens=220, completion_tokens=15, total_tokens=235, cached_tokens=64)
    assert history.judgement is None
    history.judgement = _Verdict(True, "found 42")
    assert history.judgement.verdict is True
    history.usage_total = _Tokens(300, 20, 320)
    assert history.usage() == _Tokens(300, 20, 320)  # the agent's total (with the judge) wins


def test_history_of_an_unfinished_run() -> None:
    empty = CodeAgentHistoryList()
    assert empty.final_result() is None and not empty.is_done() and empty.is_successful() is None
    assert empty.errors() == [] and not empty.has_errors() and empty.usage() is None
    assert empty.total_duration_seconds() == 0
    running = CodeAgentHistoryList(steps=[CodeAgentStep(1, "x = 1", result=CodeAgentResult(extracted_content="1"))])
    assert not running.is_done() and running.is_successful() is None and running.final_result() == "1"
    assert running.usage() is None


# -- a hand-built session -----------------------------------------------------------------------


class _Masker:
    """Hides one secret value like SensitiveData.mask does."""

    def mask(self, text: str) -> str:
        return text.replace("hunter2", "<secret>password</secret>")

    def names(self) -> list[str]:
        return ["password"]


MULTILINE = 'doc = """first line\n    indented second\n\nafter a blank"""\nprint(doc)\ndoc'


def _session() -> NotebookSession:
    session = NotebookSession()

    def ran(source: str, **fields: object) -> CodeCell:
        cell = session.add_cell(source)
        cell.execution_count = session.increment_execution_count()
        cell.status = ExecutionStatus.SUCCESS
        for key, value in fields.items():
            setattr(cell, key, value)
        return cell

    ran("print(1)\nprint(2)", stdout="1\n2\n", browser_state="url: http://127.0.0.1/form\ntitle: Form")
    ran(
        MULTILINE,
        stdout="first line\n    indented second\n\nafter a blank\n",
        result="'first line\\n    indented second\\n\\nafter a blank'",
    )
    error = CellError(
        "NameError",
        "name 'y' is not defined",
        2,
        "print(y)",
        (
            "Traceback (most recent call last):\n  Cell 3, line 2, in <cell>\n    print(y)",
            "NameError: name 'y' is not defined",
        ),
    )
    ran(
        'print("before the error")\nprint(y)',
        stdout="before the error\n",
        stderr="a warning\n",
        status=ExecutionStatus.ERROR,
        error=error.summary(),
        error_info=error,
    )
    session.add_cell("## Logged in\nThe form is *filled*.", CellType.MARKDOWN)
    ran(
        "shot = await page.capture.screenshot()\nshow(shot)",
        images=(CellImage(PNG, "image/png", "shot.png"), CellImage(b"\xff\xd8jpeg", "image/jpeg", "photo.jpg")),
    )
    ran(
        'await fill(ref, "hunter2")\nprint("typed hunter2")',
        stdout="typed hunter2\n",
        browser_state="url: http://127.0.0.1/login?pw=hunter2",
    )
    ran(
        "await asyncio.sleep(999)",
        status=ExecutionStatus.ERROR,
        error="TimeoutError: cell timed out after 1 s",
        timed_out=True,
    )
    return session


def _read(path: Path) -> nbformat.NotebookNode:
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a MissingIDFieldWarning (or any other) fails the test
        nb = nbformat.read(str(path), as_version=4)
        nbformat.validate(nb)
    return nb


def test_ipynb_is_valid_nbformat_45_with_ids(tmp_path: Path) -> None:
    session = _session()
    path = session.to_ipynb(tmp_path / "run.ipynb")
    assert path == tmp_path / "run.ipynb"
    nb = _read(path)
    assert (nb.nbformat, nb.nbformat_minor) == (4, 5)
    assert nb.metadata.kernelspec.name == "python3" and nb.metadata.kernelspec.language == "python"
    assert nb.metadata.language_info.name == "python"
    assert nb.metadata.agentbrowser.session_id == session.id
    ids = [c.id for c in nb.cells]
    assert all(NB_ID.fullmatch(i) for i in ids) and len(set(ids)) == len(ids)
    assert ids[1:] == [c.id for c in session.cells]  # the cells keep their own (valid) ids
    assert [c.cell_type for c in nb.cells] == ["code", "code", "code", "code", "markdown", "code", "code", "code"]
    # Raw JSON: source and text are newline-terminated line lists ("1\n2\n" stays two lines).
    raw = json.loads(path.read_text())
    assert raw["cells"][1]["source"] == ["print(1)\n", "print(2)"]
    assert raw["cells"][1]["outputs"][0] == {"output_type": "stream", "name": "stdout", "text": ["1\n", "2\n"]}
    assert raw["cells"][2]["source"] == [
        'doc = """first line\n',
        "    indented second\n",
        "\n",
        'after a blank"""\n',
        "print(doc)\n",
        "doc",
    ]
    for cell, recorded in zip(nb.cells[1:], session.cells, strict=True):
        assert cell.source == recorded.source  # joined back exactly


def test_setup_cell_rebuilds_the_namespace(tmp_path: Path) -> None:
    nb = _read(_session().to_ipynb(tmp_path / "run.ipynb"))
    setup = nb.cells[0]
    assert setup.cell_type == "code" and setup.id == export.SETUP_CELL_ID and setup.outputs == []
    assert setup.metadata.agentbrowser.role == "setup"
    assert "from agentbrowser.code import CodeSession" in setup.source
    assert "await _agentbrowser_session.start()" in setup.source
    assert "globals().update(_agentbrowser_session.namespace)" in setup.source
    compile(setup.source, "setup", "exec", flags=ast.PyCF_ALLOW_TOP_LEVEL_AWAIT)


def test_outputs_are_real_streams_results_errors_and_images(tmp_path: Path) -> None:
    nb = _read(_session().to_ipynb(tmp_path / "run.ipynb"))
    first, multi, failed, note, shot, secret, timed = nb.cells[1:]
    assert [o.output_type for o in first.outputs] == ["stream"]
    assert first.outputs[0].text == "1\n2\n"
    # The browser state is in the metadata, never in stdout.
    assert first.metadata.agentbrowser.browser_state == "url: http://127.0.0.1/form\ntitle: Form"
    assert all("127.0.0.1" not in o.get("text", "") for c in nb.cells for o in c.get("outputs", []))
    assert first.metadata.agentbrowser.status == "success" and "tags" not in first.metadata
    result = multi.outputs[-1]
    assert result.output_type == "execute_result" and result.execution_count == 2 == multi.execution_count
    assert result.data["text/plain"] == "'first line\\n    indented second\\n\\nafter a blank'"
    assert [o.output_type for o in failed.outputs] == ["stream", "stream", "error"]
    assert [o.name for o in failed.outputs[:2]] == ["stdout", "stderr"]
    assert failed.outputs[0].text == "before the error\n"  # output printed before the exception is kept
    err = failed.outputs[2]
    assert (err.ename, err.evalue) == ("NameError", "name 'y' is not defined")
    assert isinstance(err.traceback, list) and err.traceback[-1] == "NameError: name 'y' is not defined"
    assert failed.metadata.tags == ["raises-exception"]
    assert failed.metadata.agentbrowser.status == "error" and failed.metadata.agentbrowser.lineno == 2
    assert failed.metadata.agentbrowser.error == "NameError: name 'y' is not defined (line 2: print(y))"
    assert note.source == "## Logged in\nThe form is *filled*." and "outputs" not in note
    png, jpeg = shot.outputs
    assert png.output_type == "display_data" and base64.b64decode(png.data["image/png"]) == PNG
    assert base64.b64decode(jpeg.data["image/jpeg"]) == b"\xff\xd8jpeg"
    # An error without error_info (a timeout) is still a real error output, tagged.
    assert timed.outputs[-1].output_type == "error" and timed.outputs[-1].ename == "TimeoutError"
    assert timed.metadata.tags == ["raises-exception"] and timed.metadata.agentbrowser.timed_out is True


def test_secrets_are_masked_everywhere(tmp_path: Path) -> None:
    session = _session()
    session.masker = _Masker()
    ipynb = session.to_ipynb(tmp_path / "run.ipynb")
    script = session.to_script(tmp_path / "run.py")
    for path in (ipynb, script):
        text = path.read_text()
        assert "hunter2" not in text, path
        assert "<secret>password</secret>" in text
    nb = _read(ipynb)
    cell = nb.cells[6]
    assert cell.source == 'await fill(ref, "<secret>password</secret>")\nprint("typed <secret>password</secret>")'
    assert cell.outputs[0].text == "typed <secret>password</secret>\n"
    assert cell.metadata.agentbrowser.browser_state.endswith("pw=<secret>password</secret>")
    assert nb.metadata.agentbrowser.secrets == ["password"]
    assert "AGENTBROWSER_SECRETS" in nb.cells[0].source
    # An explicit masker works on a session without one.
    plain = _session()
    assert "hunter2" not in json.dumps(export.ipynb_dict(plain, masker=_Masker()))
    assert "hunter2" in json.dumps(export.ipynb_dict(plain))


def test_invalid_and_duplicate_ids_are_made_valid(tmp_path: Path) -> None:
    session = NotebookSession()
    for cell_id in (
        "018f6c2e-7c1a-7e3b-9b1e-0f6d2a9c1b4e",
        "has space/and:colon",
        "dup",
        "dup",
        "x" * 80,
        "",
        "agentbrowser-setup",
    ):
        session.cells.append(CodeCell(source="1", id=cell_id))
    nb = _read(session.to_ipynb(tmp_path / "ids.ipynb"))
    ids = [c.id for c in nb.cells]
    assert len(set(ids)) == len(ids) and all(NB_ID.fullmatch(i) for i in ids)
    assert ids[1] == "018f6c2e-7c1a-7e3b-9b1e-0f6d2a9c1b4e"  # a uuid7 string is already valid
    assert ids[3] == "dup" and ids[4] != "dup"
    assert [c.metadata.agentbrowser.cell_id for c in nb.cells[1:]] == [c.id for c in session.cells]


def test_lines_are_newline_terminated_and_lossless() -> None:
    for text in ("", "a", "a\n", "1\n2\n", "\n\n", "a\r\nb", "no newline\nat end"):
        parts = export.lines(text)
        assert "".join(parts) == text
        assert all(p.endswith("\n") for p in parts[:-1])
    assert export.lines("1\n2\n") == ["1\n", "2\n"]


TRICKY = [
    MULTILINE,
    "s = '''single triple'''\nt = \"\"\"double triple\"\"\"\nprint(s, t)",
    'path = "C:\\\\new\\\\table"\nregex = r"\\d+\\s"\nprint(path, regex)',
    "x = 1  # a comment ending in a backslash \\",
    "print('tab\there')\nif True:\n\tpass",
    "msg = 'caf\u00e9 \u2014 \U0001f600'\nprint(msg)",
    "js = '''\nconst a = `x ${y}`;\n'''\nprint(js)",
    "weird = 'carriage\\r'\r\nprint(weird)\r\n",  # CRLF line ends: written with repr()
    "await page.open(url)\nawait asyncio.sleep(0)",
    "",
]


def test_script_keeps_every_source_exactly_and_compiles(tmp_path: Path) -> None:
    session = NotebookSession()
    for source in TRICKY:
        cell = session.add_cell(source)
        cell.status = ExecutionStatus.SUCCESS
        cell.execution_count = session.increment_execution_count()
    session.add_cell("## a note", CellType.MARKDOWN)
    path = session.to_script(tmp_path / "run.py")
    text = path.read_text()
    compile(text, str(path), "exec")
    cells, values = export.load_cells_literal(text)
    assert [c["source"] for c in cells] == [*TRICKY, "## a note"]
    assert [c["recorded_status"] for c in cells] == ["success"] * len(TRICKY) + ["pending"]
    assert values["SESSION_ID"] == session.id and values["TOOLS"] == []
    # Sources are readable raw triple-quoted literals where they read back exactly (never re-indented).
    assert 'r\'\'\'doc = """first line\n    indented second\n\nafter a blank"""' in text
    assert "asyncio.run(main(sys.argv[1:]))" in text and '_agentbrowser_session.run(spec["source"])' in text
    # Each cell is compiled as top-level-await code by the code session, so each must compile so.
    for source in TRICKY:
        compile(source, "<cell>", "exec", flags=ast.PyCF_ALLOW_TOP_LEVEL_AWAIT)


def test_script_records_errors_and_the_divergence_check(tmp_path: Path) -> None:
    text = _session().to_script(tmp_path / "run.py").read_text()
    cells, _ = export.load_cells_literal(text)
    failed = cells[2]
    assert failed["recorded_status"] == "error"
    assert failed["recorded_error"] == "NameError: name 'y' is not defined (line 2: print(y))"
    assert 'spec["recorded_status"] == "success"' in text and "REPLAY DIVERGED" in text


def test_load_cells_literal_refuses_other_files() -> None:
    with pytest.raises(ValueError, match="no CELLS"):
        export.load_cells_literal("print('hello')\n")


# -- tools recorded by name, and a notebook read back ---------------------------------------------


def test_custom_tools_are_recorded_by_module_and_qualname(tmp_path: Path) -> None:
    from agentbrowser.code.replay import rebuild_tools
    from agentbrowser.tools import Tools
    from notebook_tools import result_text

    tools = Tools(exclude=["tabs"])
    tools.action("The text of the page's #result paragraph.", domains=["http://127.0.0.1*"])(result_text)

    @tools.action("Defined here, so it cannot be imported back.")
    async def local_tool() -> str:
        return "local"

    session = _session()
    session.tools = tools
    nb = _read(session.to_ipynb(tmp_path / "run.ipynb"))
    meta = nb.metadata.agentbrowser
    assert [(t["name"], t["module"], t["qualname"]) for t in meta.tools] == [
        ("result_text", "notebook_tools", "result_text")
    ]
    assert meta.tools[0]["domains"] == ["http://127.0.0.1*"] and meta.tools_registry is True
    assert meta.tools_not_importable == ["local_tool"]
    assert "tabs" not in meta.builtin_tools and "navigate" in meta.builtin_tools
    setup = nb.cells[0].source
    assert "local_tool" in setup and "must be defined before replay" in setup
    assert "rebuild_tools(" in setup
    # The registry comes back from the records: the built-ins it had and the tool re-imported by name.
    with pytest.raises(RuntimeError, match="local_tool"):
        rebuild_tools(None, meta.tools, builtins=meta.builtin_tools, not_importable=meta.tools_not_importable)
    base = Tools(builtins=False)
    base.action("Defined again before replay.")(local_tool)
    again = rebuild_tools(base, meta.tools, not_importable=meta.tools_not_importable)
    assert set(again.names()) == {"local_tool", "result_text"}
    fresh = rebuild_tools(None, meta.tools, builtins=meta.builtin_tools)
    assert "tabs" not in fresh.names() and "navigate" in fresh.names()
    assert fresh.get("result_text").function is result_text and fresh.get("result_text").domains == (
        "http://127.0.0.1*",
    )
    text = session.to_script(tmp_path / "run.py").read_text()
    assert "local_tool" in text and "rebuild_tools(tools, TOOLS" in text
    compile(text, "run.py", "exec")


def test_load_ipynb_reads_the_export_back(tmp_path: Path) -> None:
    from agentbrowser.code.replay import load_ipynb, load_script

    session = _session()
    loaded = load_ipynb(session.to_ipynb(tmp_path / "run.ipynb"))
    assert loaded.id == session.id and loaded.current_execution_count == session.current_execution_count
    assert len(loaded.cells) == len(session.cells)  # the setup cell is left out
    for got, want in zip(loaded.cells, session.cells, strict=True):
        assert (got.id, got.cell_type, got.source, got.status, got.execution_count) == (
            want.id,
            want.cell_type,
            want.source,
            want.status,
            want.execution_count,
        )
        assert (got.stdout, got.stderr, got.result, got.error, got.browser_state, got.images) == (
            want.stdout,
            want.stderr,
            want.result,
            want.error,
            want.browser_state,
            want.images,
        )
        assert got.timed_out == want.timed_out
    assert loaded.cells[2].error_info == session.cells[2].error_info
    scripted = load_script(session.to_script(tmp_path / "run.py"))
    assert [(c.source, c.status, c.error) for c in scripted.cells] == [
        (c.source, c.status, c.error) for c in session.cells
    ]
