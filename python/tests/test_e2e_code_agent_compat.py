"""End-to-end: browser-use's ``CodeAgent``/``Tools`` arguments on real Chromium (issue 37), with
a page on 127.0.0.1 and a scripted model server behind the official ``openai`` client:
``browser_session=``, ``controller=``, ``Tools(output_model=)`` (the structured ``done``),
``@tools.registry.action(allowed_domains=)``, ``async with agent``, ``run(max_steps=)``,
``agent.history`` and its helpers, ``agent.screenshot_paths()`` and ``close()`` of a kept browser."""

from __future__ import annotations

import asyncio
import dataclasses
import json
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from typing import Any

import pytest
from agentbrowser import AsyncBrowser
from agentbrowser.code import CodeAgent
from agentbrowser.llm import ChatOpenAI, ScriptedModelServer
from agentbrowser.tools import ActionResult, Tools
from local_http import serve

PAGE = (
    "<!doctype html><html><head><meta charset=utf-8><title>Prices</title></head><body>"
    "<p id=pro>Pro 14 costs $1499</p></body></html>"
)
VERDICT = json.dumps(
    {"reasoning": "ok", "verdict": True, "failure_reason": "", "impossible_task": False, "reached_captcha": False}
)


class _Page(BaseHTTPRequestHandler):
    def do_GET(self) -> None:  # noqa: N802 (http.server API)
        data = PAGE.encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002
        pass


@pytest.fixture(scope="module")
def site() -> Iterator[str]:
    yield from serve(_Page)


@dataclasses.dataclass
class Price:
    name: str
    price: int


def _cell(code: str) -> str:
    return f"Next.\n```python\n{code}\n```"


def test_browser_use_arguments_drive_a_real_run(site: str, tmp_path: Path) -> None:
    tools = Tools(output_model=Price)

    @tools.registry.action("Read the price of a product on this shop's page", allowed_domains=["127.0.0.1"])
    async def price_of(name: str, page_url: str, page: Any) -> ActionResult:
        text = await page.evaluate("document.getElementById('pro').textContent")
        return ActionResult(extracted_content=f"{text} (on {page_url})", long_term_memory=f"price of {name} read")

    @tools.action("List the files the task may read")
    async def list_files(available_file_paths: list[str], has_sensitive_data: bool) -> str:
        return f"files={available_file_paths} secrets={has_sensitive_data}"

    replies = [
        _cell("print(await list_files())"),
        _cell("info = await price_of('Pro 14')\nprint(info)"),
        _cell("await done(data={'name': 'Pro 14', 'price': 1499})"),
        VERDICT,
    ]

    async def main() -> None:
        browser = await AsyncBrowser.launch()
        try:
            with ScriptedModelServer(replies) as server:
                llm = ChatOpenAI(model="scripted", base_url=server.base_url, api_key="test")
                async with CodeAgent(
                    task=f"Read the price of the Pro 14 on {site}/ and report it",
                    llm=llm,
                    browser_session=browser,
                    controller=tools,
                    max_steps=20,
                    available_file_paths=[str(tmp_path / "notes.txt")],
                ) as agent:
                    session = await agent.run(max_steps=5)
                    assert agent.max_steps == 5 and session is agent.session
                    assert session.namespace is agent.namespace
                    assert f"files=['{tmp_path / 'notes.txt'}'] secrets=False" in (session.cells[1].output or "")
                    assert "Pro 14 costs $1499 (on http://127.0.0.1" in (session.cells[2].output or "")
                    assert session.namespace["_task_data"] == Price("Pro 14", 1499)
                    assert json.loads(session.namespace["_task_result"]) == {"name": "Pro 14", "price": 1499}
                    history = agent.history
                    assert history.is_done() and history.is_successful() is True and len(history) == 3
                    assert history.action_names() == ["execute_code"] * 3
                    assert "price_of('Pro 14')" in history.model_actions()[1]["execute_code"]["code"]
                    paths = [p for p in agent.screenshot_paths() if p is not None]
                    assert paths and all(Path(p).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" for p in paths)
                    assert history.steps[0].state.get_screenshot()
                    history.save_to_file(tmp_path / "history.json")
                    saved = json.loads((tmp_path / "history.json").read_text())
                    assert saved["judgement"]["verdict"] is True and len(saved["history"]) == 3
            assert not browser.closed  # a given browser is never closed by the agent
        finally:
            await browser.close()

    asyncio.run(main())


def test_close_ends_the_browser_an_agent_kept(site: str) -> None:
    async def main() -> None:
        with ScriptedModelServer([_cell("print(await page.title())")], loop_last=True) as server:
            llm = ChatOpenAI(model="scripted", base_url=server.base_url, api_key="test")
            async with CodeAgent(f"Read the title of {site}/", llm, keep_alive=True, use_judge=False) as agent:
                session = await agent.run(max_steps=1)
                assert agent.stop_reason == "max_steps" and len(agent.history) == 1
                assert "Prices" in (session.cells[-1].output or "")
                kept = agent.browser
                assert kept is not None and not kept.closed
            assert kept.closed and agent.browser is None

    asyncio.run(main())
