"""`browser_run_python` (`agentbrowser mcp --caps code`), through the official MCP client: a cell
of code mode in a Python process of the connection's own, on the page the other tools act on;
its namespace kept across calls, its output bounded, a runaway cell stopped (interrupted, or
killed with its process) while the server stays up, the process killed with the connection."""

from __future__ import annotations

import asyncio
import os
import re
import sys
from pathlib import Path
from typing import Any

from conftest import PAGES, REPO, _page, eventually
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
from test_e2e_mcp_parity import call

PAGES["/run-python"] = _page(
    "Counter",
    "<button id='b'>Add</button>"
    "<script>let n = 0; document.getElementById('b').addEventListener('click', e => {"
    " e.target.textContent = ++n + ' clicks'; });</script>",
)


def env(python: str = sys.executable) -> dict[str, str]:
    """The server's environment: this Python, with the SDK of this checkout importable."""
    e = dict(os.environ)
    e["AGENTBROWSER_PYTHON"] = python
    e["PYTHONPATH"] = str(REPO / "python") + (os.pathsep + e["PYTHONPATH"] if e.get("PYTHONPATH") else "")
    return e


def mcp_server(bin_path: Path, cwd: Path, caps: str, environ: dict[str, str]) -> Any:
    params = StdioServerParameters(command=str(bin_path), args=["mcp", "--caps", caps], env=environ, cwd=str(cwd))
    return stdio_client(params)


async def failed(session: ClientSession, tool: str, **args: Any) -> str:
    result = await session.call_tool(tool, args)
    text = "\n".join(c.text for c in result.content if getattr(c, "type", "") == "text")
    assert result.is_error, f"{tool} should have failed:\n{text}"
    return text


def pid_of(text: str) -> int:
    m = re.search(r"Out: (\d+)", text)
    assert m, text
    return int(m.group(1))


def alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(") ")[1][0] != "Z"
    except OSError:
        return False


def test_run_python_drives_the_page_of_the_other_tools(agentbrowser_bin: Path, server: str, tmp_path: Path) -> None:
    async def main() -> int:
        async with (
            mcp_server(agentbrowser_bin, tmp_path, "code", env()) as (r, w),
            ClientSession(r, w) as session,
        ):
            await session.initialize()
            tools = {t.name: t for t in (await session.list_tools()).tools}
            assert tools["browser_run_python"].annotations.read_only_hint is False
            await call(session, "browser_navigate", url=f"{server}/run-python")
            # The cell's page is the page browser_navigate opened.
            assert "Out: 'Counter'" in await call(session, "browser_run_python", code="await page.title()")
            # It clicks; browser_snapshot shows it, and the answer says what changed.
            said = await call(session, "browser_run_python", code="await page.find.css('#b').click()\nprint('done')")
            assert "done" in said and "1 clicks" in said, said
            assert "1 clicks" in await call(session, "browser_snapshot")
            # The namespace stays across calls; printed text and the last value are answered.
            await call(session, "browser_run_python", code="x = 41")
            assert "Out: 42" in await call(session, "browser_run_python", code="print('hi')\nx + 1")
            # An exception is the tool's error with its traceback; what ran before it stays.
            err = await failed(session, "browser_run_python", code="y = 5\nprint('before')\n1 / 0")
            assert "ZeroDivisionError" in err and "before" in err and "python_error" in err, err
            assert "Out: 5" in await call(session, "browser_run_python", code="y")
            # Output is bounded and says so.
            big = await call(session, "browser_run_python", code="print('z' * 50000)")
            assert "output cut" in big and len(big) < 30000, big[-300:]
            # A cell from a file.
            (tmp_path / "cell.py").write_text("await page.evaluate('document.title.length')\n")
            assert "Out: 7" in await call(session, "browser_run_python", filename="cell.py")
            both = await failed(session, "browser_run_python", code="1", filename="cell.py")
            assert "exclude each other" in both
            # A Python loop past its timeout is interrupted: the process and its variables stay.
            first = pid_of(await call(session, "browser_run_python", code="import os\nos.getpid()"))
            loop = await failed(session, "browser_run_python", code="while True: pass", timeout=1)
            assert "timeout" in loop and "did not finish within 1 s" in loop, loop
            assert "Out: 42" in await call(session, "browser_run_python", code="x + 1")
            # A blocking call that ignores the interrupt: the process is killed, a new one starts.
            blocked = await failed(session, "browser_run_python", code="import time\ntime.sleep(60)", timeout=1)
            assert "was killed" in blocked and str(first) in blocked, blocked
            assert not alive(first)
            second = pid_of(await call(session, "browser_run_python", code="import os\nos.getpid()"))
            assert second != first
            assert "NameError" in await failed(session, "browser_run_python", code="x")
            # The new process drives the same page.
            assert "Out: '1 clicks'" in await call(
                session, "browser_run_python", code="await page.evaluate(\"document.getElementById('b').textContent\")"
            )
            # The server is still up for the other tools.
            assert '"1 clicks"' in await call(session, "browser_snapshot")
            return second

    pid = asyncio.run(main())
    # The connection ended: its Python process is gone.
    assert eventually(lambda: not alive(pid), 10), f"the Python process {pid} outlived its connection"


def test_run_python_is_in_the_code_group_only(agentbrowser_bin: Path, tmp_path: Path) -> None:
    async def main() -> None:
        async with mcp_server(agentbrowser_bin, tmp_path, "all", env()) as (r, w), ClientSession(r, w) as session:
            await session.initialize()
            assert "browser_run_python" not in {t.name for t in (await session.list_tools()).tools}
            said = await failed(session, "browser_run_python", code="1")
            assert "--caps code" in said, said

    asyncio.run(main())


def test_run_python_without_the_sdk_says_so(agentbrowser_bin: Path, server: str, tmp_path: Path) -> None:
    """A Python that cannot import the SDK: a clear error, and the server goes on."""
    bare = tmp_path / "bare-python"
    bare.write_text(f'#!/bin/sh\nexec {sys.executable} -I -S "$@"\n')
    bare.chmod(0o755)

    async def main() -> None:
        async with mcp_server(agentbrowser_bin, tmp_path, "code", env(str(bare))) as (r, w), ClientSession(r, w) as session:
            await session.initialize()
            said = await failed(session, "browser_run_python", code="1")
            assert "python_unavailable" in said and "No module named 'agentbrowser'" in said, said
            assert "AGENTBROWSER_PYTHON" in said
            await call(session, "browser_navigate", url=f"{server}/run-python")
            assert 'button "Add"' in await call(session, "browser_snapshot")

    asyncio.run(main())
