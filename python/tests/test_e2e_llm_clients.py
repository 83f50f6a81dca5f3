"""End-to-end: ChatOpenAI and ChatAnthropic through the official ``openai`` and ``anthropic``
clients, over real HTTP, against ScriptedModelServer on 127.0.0.1."""

from __future__ import annotations

import asyncio
import base64
import json
import subprocess
import sys
import urllib.error
import urllib.request
from collections.abc import Awaitable
from pathlib import Path
from typing import Any, TypeVar

import pytest
from agentbrowser.llm import (
    AssistantMessage,
    ChatAnthropic,
    ChatModel,
    ChatOpenAI,
    ImagePart,
    ModelError,
    ScriptedError,
    ScriptedModelServer,
    SystemMessage,
    TextPart,
    Usage,
    UserMessage,
    approx_tokens,
    make_model,
)

T = TypeVar("T")

# A real 1x1 PNG.
PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="
)
JUDGEMENT_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"verdict": {"type": "boolean"}, "reasoning": {"type": "string"}},
    "required": ["verdict", "reasoning"],
    "additionalProperties": False,
}


def run(coro: Awaitable[T]) -> T:
    async def main() -> T:
        return await coro

    return asyncio.run(main())


def openai_model(server: ScriptedModelServer) -> ChatOpenAI:
    return ChatOpenAI("scripted-gpt", base_url=server.base_url, api_key="test-key", max_retries=0)


def anthropic_model(server: ScriptedModelServer) -> ChatAnthropic:
    return ChatAnthropic("scripted-claude", base_url=server.base_url, api_key="test-key", max_retries=0)


def test_openai_text_images_usage() -> None:
    with ScriptedModelServer(["```python\nprint('hi')\n```"], cached_tokens=7) as server:
        model = openai_model(server)
        assert isinstance(model, ChatModel) and model.provider == "openai"
        messages = [
            SystemMessage("You write Python."),
            UserMessage("Task: say hi"),
            AssistantMessage("ok"),
            UserMessage((TextPart("Here is the page"), ImagePart(PNG, "image/png"))),
        ]
        got = run(model.ainvoke(messages, max_tokens=300))
        assert got.text == "```python\nprint('hi')\n```"
        assert got.stop_reason == "stop"
        (body,) = server.requests
        assert server.paths == ["/v1/chat/completions"]
        assert body["model"] == "scripted-gpt" and body["temperature"] == 0.2 and body["max_tokens"] == 300
        assert [m["role"] for m in body["messages"]] == ["system", "user", "assistant", "user"]
        assert body["messages"][0]["content"] == "You write Python."
        text_part, image_part = body["messages"][3]["content"]
        assert text_part == {"type": "text", "text": "Here is the page"}
        assert image_part["type"] == "image_url"
        url = image_part["image_url"]["url"]
        assert url.startswith("data:image/png;base64,") and base64.b64decode(url.split(",", 1)[1]) == PNG
        # The usage the server reported, through the client.
        raw_usage = got.raw["usage"]
        assert got.usage == Usage(
            prompt_tokens=raw_usage["prompt_tokens"],
            completion_tokens=approx_tokens(got.text),
            total_tokens=raw_usage["prompt_tokens"] + approx_tokens(got.text),
            cached_tokens=7,
        )
        assert got.usage.prompt_tokens > 85  # the image counts


def test_anthropic_text_images_usage_system() -> None:
    with ScriptedModelServer(["Sure."], cached_tokens=4) as server:
        model = anthropic_model(server)
        assert isinstance(model, ChatModel) and model.provider == "anthropic"
        got = run(
            model.ainvoke(
                [
                    SystemMessage("Be brief."),
                    SystemMessage("Use Python."),
                    UserMessage("first"),
                    UserMessage((TextPart("look"), ImagePart(PNG))),
                ],
                stop=["```\n"],
            )
        )
        assert got.text == "Sure." and got.stop_reason == "end_turn"
        (body,) = server.requests
        assert server.paths == ["/v1/messages"]
        # The system prompt is one block marked for Anthropic's prompt cache.
        assert body["system"] == [
            {"type": "text", "text": "Be brief.\n\nUse Python.", "cache_control": {"type": "ephemeral"}}
        ]
        assert body["max_tokens"] == 4096
        assert body["stop_sequences"] == ["```\n"]
        assert "temperature" not in body
        # The two user turns are merged into one; the image is a base64 block.
        (turn,) = body["messages"]
        assert turn["role"] == "user"
        assert turn["content"][:2] == [{"type": "text", "text": "first"}, {"type": "text", "text": "look"}]
        image = turn["content"][2]
        assert image["type"] == "image" and image["source"]["type"] == "base64"
        assert image["source"]["media_type"] == "image/png" and base64.b64decode(image["source"]["data"]) == PNG
        raw_usage = got.raw["usage"]
        assert raw_usage["cache_read_input_tokens"] == 4
        prompt = raw_usage["input_tokens"] + 4
        assert got.usage == Usage(prompt, approx_tokens("Sure."), prompt + approx_tokens("Sure."), cached_tokens=4)


def test_structured_output_in_both() -> None:
    answer = json.dumps({"verdict": True, "reasoning": "the page shows it"})
    with ScriptedModelServer([answer, answer, "not json at all"]) as server:
        oa = run(
            openai_model(server).ainvoke([UserMessage("judge")], json_schema=JUDGEMENT_SCHEMA, schema_name="judgement")
        )
        assert json.loads(oa.text) == {"verdict": True, "reasoning": "the page shows it"}
        assert server.requests[0]["response_format"] == {
            "type": "json_schema",
            "json_schema": {"name": "judgement", "schema": JUDGEMENT_SCHEMA, "strict": True},
        }
        an = run(
            anthropic_model(server).ainvoke(
                [UserMessage("judge")], json_schema=JUDGEMENT_SCHEMA, schema_name="judgement"
            )
        )
        assert json.loads(an.text) == {"verdict": True, "reasoning": "the page shows it"}
        assert an.stop_reason == "tool_use"
        body = server.requests[1]
        assert body["tool_choice"] == {"type": "tool", "name": "judgement"}
        assert body["tools"][0]["name"] == "judgement" and body["tools"][0]["input_schema"] == JUDGEMENT_SCHEMA
        # A model that answers text instead of the tool: the text comes back (the caller parses JSON from it).
        fallback = run(anthropic_model(server).ainvoke([UserMessage("judge")], json_schema=JUDGEMENT_SCHEMA))
        assert fallback.text == "not json at all" and fallback.stop_reason == "end_turn"


def test_stop_sequences_cut_the_reply() -> None:
    reply = "```python\nx = 1\n```\nand some chatter"
    with ScriptedModelServer([reply, reply]) as server:
        oa = run(openai_model(server).ainvoke([UserMessage("go")], stop=["```\n"]))
        assert server.requests[0]["stop"] == ["```\n"]
        assert oa.text == "```python\nx = 1\n"
        an = run(anthropic_model(server).ainvoke([UserMessage("go")], stop=["```\n"]))
        assert an.text == "```python\nx = 1\n" and an.stop_reason == "stop_sequence"


def test_errors_are_surfaced() -> None:
    with ScriptedModelServer(
        ["one", ScriptedError(429, "slow down"), ScriptedError(400, "bad request here")]
    ) as server:
        oa = openai_model(server)
        an = anthropic_model(server)
        assert run(oa.ainvoke([UserMessage("1")])).text == "one"
        with pytest.raises(ModelError) as err:
            run(oa.ainvoke([UserMessage("2")]))
        assert err.value.status_code == 429 and "slow down" in str(err.value) and err.value.provider == "openai"
        with pytest.raises(ModelError) as err:
            run(an.ainvoke([UserMessage("3")]))
        assert err.value.status_code == 400 and "bad request here" in str(err.value)
        assert err.value.provider == "anthropic"
        # Out of replies: HTTP 500 saying so, in both formats.
        for model in (oa, an):
            with pytest.raises(ModelError) as err:
                run(model.ainvoke([UserMessage("more")]))
            assert err.value.status_code == 500 and "no scripted reply left" in str(err.value)
        assert len(server.requests) == 5
        gone = server.base_url
    # A server that is not there: a connection error, surfaced as ModelError too.
    with pytest.raises(ModelError, match="openai chat.completions failed"):
        run(ChatOpenAI("m", base_url=gone, api_key="k", max_retries=0, timeout_s=5).ainvoke([UserMessage("x")]))


def test_dynamic_replies_loop_last_from_file_health(tmp_path: Path) -> None:
    def echo(request: dict[str, Any]) -> str:
        return "echo: " + request["messages"][-1]["content"]

    with ScriptedModelServer([echo, "last"], loop_last=True) as server:
        model = openai_model(server)
        assert run(model.ainvoke([UserMessage("ping")])).text == "echo: ping"
        assert run(model.ainvoke([UserMessage("x")])).text == "last"
        assert run(model.ainvoke([UserMessage("y")])).text == "last"
        with urllib.request.urlopen(f"{server.url}/health", timeout=5) as resp:
            assert json.load(resp) == {"status": "ok", "replies_left": 0, "requests": 3}
        with pytest.raises(urllib.error.HTTPError) as http_err:
            urllib.request.urlopen(f"{server.url}/nowhere", timeout=5)
        assert http_err.value.code == 404
    replies = tmp_path / "replies.json"
    replies.write_text(json.dumps(["first", {"text": "second"}]))
    with ScriptedModelServer.from_file(replies) as server:
        assert server.base_url.startswith("http://127.0.0.1:") and server.base_url.endswith("/v1")
        an = anthropic_model(server)
        assert [run(an.ainvoke([UserMessage("a")])).text, run(an.ainvoke([UserMessage("b")])).text] == [
            "first",
            "second",
        ]
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"not": "a list"}))
    with pytest.raises(ValueError, match="JSON list"):
        ScriptedModelServer.from_file(bad)


def test_make_model_and_import_hints() -> None:
    with ScriptedModelServer(["a", "b"]) as server:
        oa = make_model("openai", "m", base_url=server.base_url)  # a local server: no key needed
        an = make_model("anthropic", "m", base_url=server.base_url)
        assert isinstance(oa, ChatOpenAI) and isinstance(an, ChatAnthropic)
        assert run(oa.ainvoke([UserMessage("x")])).text == "a"
        assert run(an.ainvoke([UserMessage("x")])).text == "b"
    with pytest.raises(ValueError, match="unknown model provider 'gemini'; known: openai, anthropic"):
        make_model("gemini", "m")
    # Without the optional package, the error says which extra to install.
    code = (
        "import sys; sys.modules['{pkg}'] = None\n"
        "from agentbrowser.llm import {cls}\n"
        "try:\n    {cls}('m', api_key='k')\nexcept ImportError as e:\n    print(e)\n"
    )
    root = Path(__file__).resolve().parents[1]
    for pkg, cls, extra in (("openai", "ChatOpenAI", "[openai]"), ("anthropic", "ChatAnthropic", "[anthropic]")):
        done = subprocess.run(
            [sys.executable, "-c", code.format(pkg=pkg, cls=cls)],
            cwd=root,
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
        assert f"pip install 'agentbrowser-engine{extra}'" in done.stdout, done.stderr
