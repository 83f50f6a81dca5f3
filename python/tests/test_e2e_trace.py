"""End-to-end: traces (docs/trace.md) from the SDK (sync and async), from the MCP tools through the
official MCP client, and from the code agent (``CodeAgent(trace=...)``) with a scripted model
server, on real Chromium: each ZIP file holds the commands as steps with the element an action
acted on, and what the page logged; a stop without a start and a second start are errors."""

from __future__ import annotations

import asyncio
import json
import os
import zipfile
from pathlib import Path
from typing import Any

import pytest
from agentbrowser import Browser, BrowserError, LaunchOptions
from agentbrowser.aio import AsyncBrowser
from agentbrowser.code.agent import CodeAgent
from agentbrowser.llm import ChatOpenAI, ScriptedModelServer
from conftest import PAGES, _page
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

PAGES["/trace-page"] = _page(
    "Traced",
    "<button onclick=\"console.log('pressed ' + 7); this.textContent = 'Done'\">Press</button>",
)


def read_trace(path: Path) -> tuple[dict[str, Any], list[dict[str, Any]], list[dict[str, Any]]]:
    """The manifest, steps and events of a trace file."""
    with zipfile.ZipFile(path) as z:
        manifest = json.loads(z.read("trace.json"))
        steps = [json.loads(line) for line in z.read("steps.jsonl").decode().splitlines()]
        events = [json.loads(line) for line in z.read("events.jsonl").decode().splitlines()]
    return manifest, steps, events


def check_click(steps: list[dict[str, Any]], events: list[dict[str, Any]]) -> None:
    """The click on the button is a step with its target, box and point; its log is an event in it."""
    click = next(s for s in steps if s["command"] == "click")
    assert click["ok"] is True
    assert click["target"]["role"] == "button" and click["target"]["name"] == "Press"
    box, point = click["target"]["box"], click["target"]["point"]
    assert box["x"] < point["x"] < box["x"] + box["width"]
    assert box["y"] < point["y"] < box["y"] + box["height"]
    log = next(e for e in events if e["kind"] == "console" and e["text"] == "pressed 7")
    assert click["t"] <= log["t"] <= click["end"]


def test_trace_from_the_sdk(agentbrowser_bin: Path, server: str, tmp_path: Path) -> None:
    with Browser.launch(LaunchOptions(timeout_ms=20000)) as b:
        with pytest.raises(BrowserError) as none:
            b.trace_stop(path=str(tmp_path / "none.zip"))
        assert none.value.code == "trace_not_started"
        started = b.trace_start()
        assert started.screenshots is False and started.snapshots is False
        with pytest.raises(BrowserError) as again:
            b.trace_start()
        assert again.value.code == "trace_already_started"
        b.page.open(f"{server}/trace-page")
        b.page.observe().one(role="button", name="Press").click()
        out = tmp_path / "sdk.zip"
        stopped = b.trace_stop(path=str(out))
        assert stopped.path == str(out) and stopped.bytes == out.stat().st_size
        manifest, steps, events = read_trace(out)
        assert stopped.counts.steps == len(steps) == manifest["counts"]["steps"]
        assert [s["command"] for s in steps][0] == "open"
        check_click(steps, events)
        with pytest.raises(ValueError, match=".zip"):
            b.trace_stop(path=str(tmp_path / "t.json"))


def test_trace_with_snapshots_from_the_sdk(agentbrowser_bin: Path, server: str, tmp_path: Path) -> None:
    """``snapshots=True``: every step records the page after it, read-only: the refs of the
    agent's own snapshot still press the right button after the recorder took one."""
    with Browser.launch(LaunchOptions(timeout_ms=20000)) as b:
        started = b.trace_start(snapshots=True)
        assert started.snapshots is True
        b.page.open(f"{server}/trace-page")
        seen = b.page.observe()
        button = seen.one(role="button", name="Press")
        # The recorder takes the page after this eval when the click comes (it added a button).
        b.page.evaluate("document.body.prepend(Object.assign(document.createElement('button'), {textContent: 'Other'}))")
        button.click()
        assert b.page.evaluate("document.querySelector('button:not(:first-child)').textContent") == "Done"
        out = tmp_path / "snapshots.zip"
        b.trace_stop(path=str(out))
        assert b.page.observe().generation == seen.generation + 2, "the snapshot and the click's after"
    manifest, steps, events = read_trace(out)
    assert manifest["options"]["snapshots"] is True
    assert [s["command"] for s in steps] == ["open", "snapshot", "eval", "click", "eval"]
    assert steps[1]["snapshot"] == steps[1]["answer"]["text"] == seen.text
    assert 'button "Other"' in steps[2]["snapshot"] and 'button "Press"' in steps[2]["snapshot"]
    assert 'button "Done"' in steps[3]["snapshot"] and steps[4]["snapshot"] == steps[3]["snapshot"]
    check_click(steps, events)


def test_trace_async(agentbrowser_bin: Path, server: str, tmp_path: Path) -> None:
    async def main() -> None:
        async with await AsyncBrowser.launch(LaunchOptions(timeout_ms=20000)) as b:
            await b.trace_start()
            await b.page.open(f"{server}/trace-page")
            button = (await b.page.observe()).one(role="button", name="Press")
            await button.click()
            stopped = await b.trace_stop(path=str(tmp_path / "async.zip"))
            _, steps, events = read_trace(Path(stopped.path))
            check_click(steps, events)

    asyncio.run(main())


def test_trace_from_the_mcp_tools(agentbrowser_bin: Path, server: str, tmp_path: Path) -> None:
    async def main() -> None:
        params = StdioServerParameters(
            command=str(agentbrowser_bin), args=["mcp", "--caps", "devtools"], env=dict(os.environ), cwd=str(tmp_path)
        )
        async with stdio_client(params) as (r, w), ClientSession(r, w) as session:
            await session.initialize()
            tools = {t.name: t for t in (await session.list_tools()).tools}
            assert tools["browser_start_tracing"].input_schema.get("required", []) == []
            assert tools["browser_stop_tracing"].input_schema.get("required", []) == []
            started = await session.call_tool("browser_start_tracing", {"snapshots": True})
            assert not started.is_error, started
            assert "snapshots" in "".join(getattr(c, "text", "") for c in started.content), started
            await session.call_tool("browser_navigate", {"url": f"{server}/trace-page"})
            snap = await session.call_tool("browser_snapshot", {})
            text = "".join(getattr(c, "text", "") for c in snap.content)
            ref = text.split('button "Press" [ref=')[1].split("]")[0]
            clicked = await session.call_tool("browser_click", {"element": "Press button", "target": ref})
            assert not clicked.is_error, clicked
            stopped = await session.call_tool("browser_stop_tracing", {})
            assert not stopped.is_error, stopped
            answer = "".join(getattr(c, "text", "") for c in stopped.content)
            written = list(tmp_path.glob("trace-*.zip"))
            assert len(written) == 1 and str(written[0]) in answer, answer
            _, steps, events = read_trace(written[0])
            assert [s["command"] for s in steps if s["command"] in ("open", "click")] == ["open", "click"], steps
            check_click(steps, events)
            # With snapshots: every step in a tab records the page after it (the first, before
            # the browser started, has none); the click's shows it done.
            in_tab = [s for s in steps if "tab" in s]
            assert len(in_tab) >= len(steps) - 1 and all(isinstance(s.get("snapshot"), str) for s in in_tab), steps
            click = next(s for s in steps if s["command"] == "click")
            assert 'button "Done"' in click["snapshot"], click
            again = await session.call_tool("browser_stop_tracing", {})
            assert again.is_error and "trace_not_started" in "".join(getattr(c, "text", "") for c in again.content)

    asyncio.run(main())


def test_code_agent_writes_its_trace_also_when_the_run_fails(
    agentbrowser_bin: Path, server: str, tmp_path: Path
) -> None:
    done = 'await (await page.observe()).one(role="button", name="Press").click()\ndone("pressed")'
    verdict = json.dumps(
        {
            "reasoning": "it did the task",
            "verdict": True,
            "failure_reason": "",
            "impossible_task": False,
            "reached_captcha": False,
        }
    )

    async def run(replies: list[str], trace: Path, on_step: Any = None) -> None:
        with ScriptedModelServer(replies) as model:
            llm = ChatOpenAI("scripted-model", base_url=model.start(), api_key="test-key", max_retries=0)
            agent = CodeAgent(
                f"Press the button on {server}/trace-page",
                llm,
                trace=trace,
                use_vision=False,
                on_step=on_step,
                launch=LaunchOptions(timeout_ms=20000),
            )
            await agent.run()

    good = tmp_path / "run.zip"
    asyncio.run(run([f"Press it.\n```python\n{done}\n```", verdict], good))
    _, steps, events = read_trace(good)
    assert steps[0]["command"] == "open"
    check_click(steps, events)

    # The caller's step hook raises: the run fails with its error, and the trace is still written.
    def stop(step: Any) -> None:
        raise RuntimeError("the caller stops the run")

    failed = tmp_path / "failed.zip"
    with pytest.raises(RuntimeError, match="the caller stops the run"):
        asyncio.run(run([f"Press it.\n```python\n{done}\n```", verdict], failed, on_step=stop))
    _, steps, events = read_trace(failed)
    check_click(steps, events)

    with pytest.raises(ValueError, match=".zip"):
        CodeAgent("x", ChatOpenAI("m", base_url="http://127.0.0.1:9", api_key="k"), trace="t.json")
