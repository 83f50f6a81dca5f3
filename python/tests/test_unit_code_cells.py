"""Cell execution semantics of agentbrowser.code.CodeSession without a browser (launch_browser=False)."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path
from typing import Any

import pytest
from agentbrowser.code import CellImage, CodeCell, CodeSession, ExecutionStatus, NotebookSession
from agentbrowser.code.streams import HeadTail, bound_text
from agentbrowser.tools import Tools

PNG = b"\x89PNG\r\n\x1a\n" + b"\0" * 32


def run_cells(*sources: str, **options: Any) -> tuple[list[CodeCell], dict[str, Any]]:
    """Run ``sources`` in one fresh browserless session; the cells and the final namespace."""

    async def main() -> tuple[list[CodeCell], dict[str, Any]]:
        async with CodeSession(launch_browser=False, **options) as session:
            cells = [await session.run(src) for src in sources]
            return cells, session.namespace

    return asyncio.run(main())


def test_top_level_await_keeps_multiline_strings_exactly() -> None:
    src = 'await asyncio.sleep(0)\ntext = """first\n    indented\nlast"""\nx = await asyncio.sleep(0, result=41) + 1\n'
    (cell,), ns = run_cells(src)
    assert cell.status is ExecutionStatus.SUCCESS and cell.error is None
    assert ns["text"] == "first\n    indented\nlast"
    assert ns["x"] == 42


def test_variables_assigned_before_an_error_persist_in_sync_and_await_cells() -> None:
    cells, ns = run_cells(
        "a = 1\nb = a + 1\nraise ValueError('boom')\nc = 3",
        "await asyncio.sleep(0)\nd = 4\nprint(missing)\ne = 5",
        "a + b + d",
    )
    assert [c.status for c in cells] == [ExecutionStatus.ERROR, ExecutionStatus.ERROR, ExecutionStatus.SUCCESS]
    assert ns["a"] == 1 and ns["b"] == 2 and ns["d"] == 4 and "c" not in ns and "e" not in ns
    assert cells[2].result == "7"


def test_output_before_an_exception_is_kept_and_streams_are_separate() -> None:
    src = "import sys\nprint('step one')\nprint('careful', file=sys.stderr)\nprint('step two')\n1/0"
    (cell,), _ = run_cells(src)
    assert cell.status is ExecutionStatus.ERROR
    assert cell.stdout == "step one\nstep two\n"
    assert cell.stderr == "careful\n"
    assert cell.output == "step one\ncareful\nstep two\n"
    assert cell.error == "ZeroDivisionError: division by zero (line 5: 1/0)"


def test_capture_is_per_cell_and_concurrent_writers_pass_through(capsys: pytest.CaptureFixture[str]) -> None:
    async def main() -> CodeCell:
        async with CodeSession(launch_browser=False) as session:
            started = asyncio.Event()
            stop = asyncio.Event()

            async def chatter() -> None:
                started.set()
                while not stop.is_set():
                    print("from another task")
                    await asyncio.sleep(0.01)

            def thread_print() -> None:
                print("from a thread")

            other = asyncio.create_task(chatter())
            await started.wait()
            session.namespace["thread_print"] = thread_print
            cell = await session.run(
                "for i in range(5):\n    print('cell line', i)\n    await asyncio.sleep(0.02)\n"
                "t = __import__('threading').Thread(target=thread_print)\nt.start(); t.join()\n"
                "await asyncio.to_thread(print, 'to_thread belongs to the cell')"
            )
            stop.set()
            await other
            return cell

    cell = asyncio.run(main())
    assert cell.stdout.count("cell line") == 5 and "to_thread belongs to the cell" in cell.stdout
    assert "from another task" not in cell.stdout and "from a thread" not in cell.stdout
    outside = capsys.readouterr().out
    assert "from another task" in outside and "from a thread" in outside
    assert "cell line" not in outside


def test_last_expression_value_like_jupyter() -> None:
    cells, _ = run_cells("print('hi')\n{'a': [1, 2]}", "x = 5", "None", "print('no newline', end='')\n3", "5;")
    assert cells[0].result == "{'a': [1, 2]}" and cells[0].output == "hi\nOut: {'a': [1, 2]}"
    assert cells[1].result is None and cells[1].output is None
    assert cells[2].result is None and cells[2].output is None
    assert cells[3].output == "no newline\nOut: 3"
    assert cells[4].result is None


def test_errors_name_type_message_line_and_trim_the_traceback() -> None:
    cells, _ = run_cells(
        "def helper(v):\n    return v['missing']\n",
        "x = 1\ny = helper({})\n",
        "print(undefined_name)",
    )
    info = cells[1].error_info
    assert info is not None and info.ename == "KeyError" and info.evalue == "'missing'"
    assert info.lineno == 2 and info.line == "y = helper({})"
    assert cells[1].error == "KeyError: 'missing' (line 2: y = helper({}))"
    tb = "".join(info.traceback)
    assert '"<cell 2>", line 2' in tb and '"<cell 1>", line 2, in helper' in tb and "return v['missing']" in tb
    assert "cells.py" not in tb and "asyncio" not in tb
    assert cells[2].error == "NameError: name 'undefined_name' is not defined (line 1: print(undefined_name))"
    assert cells[2].status is ExecutionStatus.ERROR


def test_syntax_error_reports_line_and_offending_text() -> None:
    (cell,), ns = run_cells("ok = 1\nvalue = = 2\n")
    assert cell.status is ExecutionStatus.ERROR and "ok" not in ns
    assert cell.error_info is not None and cell.error_info.ename == "SyntaxError"
    assert cell.error_info.lineno == 2 and cell.error_info.line == "value = = 2"
    assert cell.error is not None and cell.error.startswith("SyntaxError: ") and "(line 2: value = = 2)" in cell.error
    assert '"<cell 1>", line 2' in "".join(cell.error_info.traceback)


def test_timeout_cancels_an_awaiting_cell_and_keeps_earlier_assignments() -> None:
    cells, ns = run_cells("before = 'kept'\nawait asyncio.sleep(60)\nafter = 1", "before", cell_timeout_s=0.5)
    cell = cells[0]
    assert cell.timed_out and cell.status is ExecutionStatus.ERROR
    assert cell.error_info is not None and cell.error_info.ename == "TimeoutError"
    assert cell.error is not None and "did not finish within 0.5 s" in cell.error and "line 2" in cell.error
    assert ns["before"] == "kept" and "after" not in ns
    assert cells[1].status is ExecutionStatus.SUCCESS and cells[1].result == "'kept'"


def test_timeout_interrupts_a_pure_python_busy_loop_even_when_it_catches_exception() -> None:
    src = "n = 0\nwhile True:\n    try:\n        n += 1\n    except Exception:\n        pass\n"
    cells, ns = run_cells(src, "n > 0", cell_timeout_s=0.5)
    assert cells[0].timed_out and cells[0].error is not None and "(interrupted)" in cells[0].error
    assert cells[1].result == "True"


def test_run_timeout_argument_overrides_the_default() -> None:
    async def main() -> CodeCell:
        async with CodeSession(launch_browser=False, cell_timeout_s=60) as session:
            return await session.run("await asyncio.sleep(30)", timeout_s=0.3)

    assert asyncio.run(main()).timed_out


def test_keyboard_interrupt_and_system_exit_are_errors_not_host_exits() -> None:
    cells, _ = run_cells("raise KeyboardInterrupt", "import sys\nsys.exit(3)", "'still alive'")
    assert cells[0].error == "KeyboardInterrupt (line 1: raise KeyboardInterrupt)"
    assert cells[1].error == "SystemExit: 3 (line 2: sys.exit(3))"
    assert cells[2].result == "'still alive'"


def test_output_is_bounded_with_head_tail_and_original_size() -> None:
    src = "print('HEAD' + 'x' * 60000 + 'TAIL')"
    (cell,), _ = run_cells(src, max_output_chars=1000)
    assert cell.output is not None and cell.output_truncated and cell.original_output_chars == 60009
    assert cell.output.startswith("HEAD") and cell.output.rstrip().endswith("TAIL")
    assert "chars cut of 60009 ...]" in cell.output and len(cell.output) < 1100
    assert len(cell.stdout) < 1100
    (small,), _ = run_cells("print('short')", max_output_chars=1000)
    assert not small.output_truncated and small.original_output_chars == 6


def test_bounded_text_helpers() -> None:
    b = bound_text("a" * 10 + "b" * 10, 10)
    assert b.truncated and b.original_chars == 20 and b.text.startswith("aaaaa") and b.text.endswith("bbbbb")
    assert "[... 10 chars cut of 20 ...]" in b.text
    sink = HeadTail(8)
    for part in ("0123", "4567", "89ab", "cdef"):
        sink.write(part)
    r = sink.render(8, suffix="!")
    assert r.truncated and r.original_chars == 17 and r.text.startswith("0123") and r.text.endswith("def!")


def test_every_text_field_is_masked() -> None:
    secrets = {"password": "hunter2-secret"}
    cells, _ = run_cells(
        "pw = 'hunter2-secret'\nprint('the password is', pw)\npw",
        "raise ValueError('bad hunter2-secret')",
        sensitive_data=secrets,
    )
    first, second = cells
    evalue = second.error_info.evalue if second.error_info else None
    for text in (first.stdout, first.output, first.result, second.error, evalue):
        assert text and "hunter2-secret" not in text and "<secret>password</secret>" in text
    assert "hunter2-secret" not in "".join(second.error_info.traceback if second.error_info else ())


def test_sensitive_data_must_be_a_mapping() -> None:
    with pytest.raises(TypeError, match="sensitive_data must be a SensitiveData or a mapping"):
        CodeSession(launch_browser=False, sensitive_data="classified")  # type: ignore[arg-type]


def test_done_sets_task_keys(tmp_path: Path) -> None:
    report = tmp_path / "report.txt"
    report.write_text("x")
    _, ns = run_cells(f"r = await done('all good', files_to_display=[{str(report)!r}])")
    assert ns["_task_done"] is True and ns["_task_result"] == "all good" and ns["_task_success"] is True
    assert ns["_task_attachments"] == [str(report.resolve())] and str(ns["r"]) == "all good"
    _, ns = run_cells("await done('gave up', success=False)")
    assert ns["_task_done"] is True and ns["_task_success"] is False and ns["_task_attachments"] == []


def test_show_adds_image_outputs() -> None:
    async def with_cellimage() -> tuple[CodeCell, list[CellImage]]:
        async with CodeSession(launch_browser=False) as session:
            session.namespace.update(CellImage=CellImage, png=PNG)
            cell = await session.run("show(png)\nshow(CellImage(data=png, name='second'))")
            return cell, session.images

    cell, images = asyncio.run(with_cellimage())
    assert len(cell.images) == 2 and cell.images[0].data == PNG and cell.images[0].media_type == "image/png"
    assert cell.images[1].name == "second" and images == list(cell.images)
    (bad,), _ = run_cells("show(42)")
    assert bad.error is not None and bad.error.startswith("TypeError: show() takes")


def test_namespace_notebook_and_counts() -> None:
    notebook = NotebookSession()

    async def main() -> CodeSession:
        async with CodeSession(launch_browser=False, notebook=notebook) as session:
            await session.run("x = 1")
            await session.run("x += 1")
            return session

    session = asyncio.run(main())
    ns = session.namespace
    assert ns is notebook.namespace
    for key in ("browser", "page", "Wait", "SnapshotSpec", "done", "show", "asyncio", "json", "re", "Path"):
        assert key in ns, key
    assert ns["browser"] is None and ns["x"] == 2
    assert [c.execution_count for c in notebook.cells] == [1, 2] and notebook.current_execution_count == 2
    assert len({c.id for c in notebook.cells}) == 2 and notebook.get_latest_cell() is notebook.cells[-1]
    assert notebook.get_cell(notebook.cells[0].id) is notebook.cells[0]
    assert all(c.browser_state is None and c.duration_s > 0 for c in notebook.cells)


def test_classes_and_functions_defined_in_cells_work() -> None:
    cells, ns = run_cells(
        "from dataclasses import dataclass\n@dataclass\nclass Item:\n    name: str\n    price: float\n",
        "items = [Item('a', 1.5), Item('b', 2.0)]\nsum(i.price for i in items)",
        "async def twice(v):\n    await asyncio.sleep(0)\n    return v * 2\nawait twice(21)",
    )
    assert [c.status for c in cells] == [ExecutionStatus.SUCCESS] * 3
    assert cells[1].result == "3.5" and cells[2].result == "42"


def add_tools() -> Tools:
    """A real registry: the built-ins (``done``) plus ``add`` and a tool that always fails."""
    tools = Tools()

    @tools.action("Add two numbers")
    async def add(a: int, b: int) -> str:
        return str(a + b)

    @tools.action("Always fails")
    async def fail() -> str:
        raise RuntimeError("tool broke")

    return tools


def test_tools_are_bound_and_their_calls_recorded() -> None:
    async def main() -> tuple[list[CodeCell], list[Any], list[Any]]:
        async with CodeSession(launch_browser=False, tools=add_tools()) as session:
            one = await session.run("total = str(await add(2, 3))\ntotal")
            first = list(session.tool_results)
            two = await session.run("await fail()")
            return [one, two], first, session.tool_results

    (one, two), first, last = asyncio.run(main())
    assert one.result == "'5'"
    assert [(r.name, dict(r.args), str(r.result)) for r in first] == [("add", {"a": 2, "b": 3}, "5")]
    assert two.error is not None and two.error.startswith("ToolError: ") and "tool broke" in two.error
    assert two.error.endswith("(line 1: await fail())")
    assert [r.name for r in last] == ["fail"]  # only the last run's records
    (cell,), _ = run_cells("str(await add(1, 1))", tools=add_tools())
    assert cell.result == "'2'"


def test_subprocess_executor_keeps_its_own_namespace_and_survives_hangs_and_crashes() -> None:
    async def main() -> tuple[list[CodeCell], CodeSession]:
        async with CodeSession(
            launch_browser=False, executor="subprocess", cell_timeout_s=1.0, tools=add_tools()
        ) as session:
            cells = [
                await session.run("import os\nx = 1\nprint('in child', os.getpid() != PARENT)\nx + 1".replace(
                    "PARENT", str(__import__("os").getpid()))),
                await session.run("x * 10"),
                await session.run("y = str(await add(20, 22))\ny"),
                await session.run("import time\nprint('before the hang')\ntime.sleep(60)"),
                await session.run("x"),
                await session.run("await asyncio.sleep(60)"),
                await session.run("import os\nos._exit(7)"),
                await session.run("await done('finished in the child')\n'ok'"),
                await session.run("while True:\n    pass"),
            ]
            return cells, session

    cells, session = asyncio.run(main())
    assert cells[0].output == "in child True\nOut: 2" and cells[1].result == "10"
    assert cells[2].result == "'42'"
    hang = cells[3]
    assert hang.timed_out and hang.error is not None and hang.error.startswith("TimeoutError: ")
    assert "killed its child process" in hang.error and "variables of earlier cells are gone" in hang.error
    assert cells[4].error is not None and cells[4].error.startswith("NameError")
    assert cells[5].timed_out and cells[5].error is not None and "(cancelled)" in cells[5].error
    assert cells[6].error is not None and "exited with code 7" in cells[6].error and not cells[6].timed_out
    assert cells[7].result == "'ok'" and session.namespace["_task_done"] is True
    assert session.namespace["_task_result"] == "finished in the child"
    assert cells[8].timed_out and cells[8].error is not None and "(interrupted)" in cells[8].error


def test_bad_arguments() -> None:
    with pytest.raises(ValueError, match="executor"):
        CodeSession(executor="thread")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="cell_timeout_s"):
        CodeSession(cell_timeout_s=0)
    with pytest.raises(ValueError, match="max_output_chars"):
        CodeSession(max_output_chars=10)

    async def main() -> None:
        async with CodeSession(launch_browser=False) as session:
            with pytest.raises(TypeError):
                await session.run(b"x = 1")  # type: ignore[arg-type]
            with pytest.raises(ValueError):
                await session.run("x = 1", timeout_s=0)

    asyncio.run(main())


def test_threads_outside_cells_are_untouched_while_no_cell_runs(capsys: pytest.CaptureFixture[str]) -> None:
    run_cells("print('inside')")
    t = threading.Thread(target=print, args=("after the session",))
    t.start()
    t.join()
    assert "after the session" in capsys.readouterr().out
