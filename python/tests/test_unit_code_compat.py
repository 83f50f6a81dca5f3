"""browser-use's names on our code-mode models and registry (issue 37): pydantic-style methods,
the ``Tools`` arguments, the structured ``done``, the history helpers and the ``CodeAgent``
arguments.  No browser: the end-to-end port is python/tests/test_e2e_code_agent_port.py."""

from __future__ import annotations

import asyncio
import base64
import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest
from agentbrowser.code import CodeAgent, CodeCell, ExecutionStatus, NotebookSession
from agentbrowser.code.notebook import CodeAgentHistoryList, CodeAgentResult, CodeAgentState, CodeAgentStep
from agentbrowser.llm import ChatOpenAI
from agentbrowser.tools import ActionResult, JudgementResult, ToolContext, Tools


def test_action_result_has_pydantic_methods() -> None:
    result = ActionResult.model_validate(
        {"is_done": True, "success": True, "extracted_content": "ok", "judgement": {"verdict": True}}
    )
    assert result.judgement == JudgementResult(verdict=True)
    assert result.model_dump(exclude_none=True)["judgement"]["verdict"] is True
    assert json.loads(result.model_dump_json())["extracted_content"] == "ok"
    assert result.model_copy(update={"error": "e"}).error == "e"
    with pytest.raises(ValueError, match="success=True"):
        result.model_copy(update={"is_done": False})
    with pytest.raises(ValueError, match="no field"):
        ActionResult.model_validate({"extracted": "typo"})


def test_notebook_round_trips_through_model_dump() -> None:
    cell = CodeCell.model_validate({"source": "x = 1", "status": "success", "output": "1"})
    assert cell.status is ExecutionStatus.SUCCESS
    session = NotebookSession(cells=[cell])
    again = NotebookSession.model_validate(json.loads(session.model_dump_json()))
    assert again.cells[0].status == "success" and again.cells[0].source == "x = 1" and again.id == session.id


def test_tools_takes_browser_use_arguments() -> None:
    tools = Tools(exclude_actions=["screenshot"], display_files_in_done_text=False)
    assert "screenshot" not in tools and tools.display_files_in_done_text is False
    tools.exclude_action("read")
    assert "read" not in tools
    tools.exclude_action("no_such_tool")  # no error, as in browser-use

    @tools.registry.action("Say hi", allowed_domains=["127.0.0.1"], terminates_sequence=True)
    async def hi(name: str) -> str:
        return f"hi {name}"

    assert tools.get("hi").domains == ("127.0.0.1",)
    with pytest.raises(ValueError, match="aliases"):
        tools.action("x", domains=["a"], allowed_domains=["b"])
    with pytest.warns(UserWarning, match="ref"):
        tools.set_coordinate_clicking(True)
    assert tools.get_output_model() is None


@dataclasses.dataclass
class Product:
    name: str
    price: float


def test_structured_done_validates_data_with_the_output_model() -> None:
    tools = Tools(output_model=Product)
    assert tools.get_output_model() is Product
    ns: dict[str, Any] = {}
    ctx = ToolContext(browser=None, namespace=ns)
    bad = asyncio.run(tools.act("done", (), {"data": {"name": "Pen"}}, ctx))
    assert bad.error and "Product" in bad.error and "_task_done" not in ns
    good = asyncio.run(tools.act("done", (), {"data": {"name": "Pen", "price": 2.5}}, ctx))
    assert good.is_done and json.loads(good.extracted_content or "") == {"name": "Pen", "price": 2.5}
    assert ns["_task_done"] is True and ns["_task_data"] == Product("Pen", 2.5)


def test_history_helpers_of_browser_use(tmp_path: Path) -> None:
    history = CodeAgentHistoryList()
    history.add_item(
        CodeAgentStep(number=1, model_output="x = 1", full_response="r", state=CodeAgentState(screenshot=b"png"))
    )
    history.add_item(CodeAgentStep(number=2, model_output="await done('ok')", result=CodeAgentResult("ok", is_done=True)))
    assert len(history) == 2 and history.history is history.steps
    assert history.action_names() == ["execute_code", "execute_code"]
    assert history.last_action() == {"execute_code": {"code": "await done('ok')", "full_response": ""}}
    assert history.action_history()[1][0]["result"]["is_done"] is True
    assert history.model_thoughts() == ["x = 1", "await done('ok')"]
    assert history.model_actions_filtered() == [] and history.screenshot_paths() == [None, None]
    assert history.steps[0].state.get_screenshot() == base64.b64encode(b"png").decode()
    path = tmp_path / "h" / "history.json"
    history.save_to_file(path)
    saved = json.loads(path.read_text())
    assert [h["model_output"] for h in saved["history"]] == ["x = 1", "await done('ok')"]


def test_code_agent_takes_browser_use_arguments() -> None:
    llm = ChatOpenAI("m", base_url="http://127.0.0.1:9/v1", api_key="k")
    with pytest.raises(ValueError, match="needs a model"):
        CodeAgent("task")
    with pytest.raises(ValueError, match="both"):
        CodeAgent("task", llm, tools=Tools(), controller=Tools())
    tools = Tools()
    with pytest.warns(UserWarning, match="generate_gif"):
        agent = CodeAgent(
            task="task",
            llm=llm,
            controller=tools,
            page_extraction_llm=llm,
            available_file_paths=["a.txt"],
            max_validations=1,
            calculate_cost=True,
            demo_mode=False,
            generate_gif=True,
        )
    assert agent.tools is tools and agent.available_file_paths == ["a.txt"]
    assert agent.session.namespace is agent.namespace and agent.history is agent.session.history
    assert agent.usage_summary is None and agent.screenshot_paths() == []


def test_controller_is_tools_as_in_browser_use() -> None:
    from agentbrowser.tools import Controller

    assert Controller is Tools


def test_a_step_has_browser_use_metadata() -> None:
    from agentbrowser.code import CodeAgentStepMetadata
    from agentbrowser.llm import Usage

    step = CodeAgentStep(
        number=1, model_output="x = 1", usage=Usage(prompt_tokens=10, completion_tokens=3, total_tokens=13),
        started_at=100.0, ended_at=101.5, state=CodeAgentState(screenshot_path="/tmp/s.png"),
    )
    assert step.metadata == CodeAgentStepMetadata(100.0, 101.5, input_tokens=10, output_tokens=3)
    assert step.metadata.duration_seconds == 1.5 and step.screenshot_path == "/tmp/s.png"
    assert step.model_dump(mode="json")["usage"]["prompt_tokens"] == 10


def test_browser_use_injected_parameters() -> None:
    tools = Tools(builtins=False)

    @tools.action("Files and secrets")
    async def files(available_file_paths: list[str], has_sensitive_data: bool) -> str:
        return f"{available_file_paths} {has_sensitive_data}"

    ctx = ToolContext(browser=None, available_file_paths=("/tmp/a.txt",))
    assert asyncio.run(tools.act("files", (), {}, ctx)).extracted_content == "['/tmp/a.txt'] False"
    assert "available_file_paths" not in tools.prompt_description()
    with pytest.raises(ValueError, match="browser_session is browser-use's injected"):

        @tools.action("Title")
        async def title(browser_session: Any) -> str:
            return ""
