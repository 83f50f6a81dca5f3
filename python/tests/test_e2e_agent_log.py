"""End-to-end: what the code agent sends its model, made visible and made smaller (issue 35).

`agentbrowser agent --log PATH -v` on real Chromium against the test pages on 127.0.0.1 (conftest's /form), its model a
scripted server on 127.0.0.1 behind the official `openai` client (real HTTP): the log holds
every request and response with usage and no secret; -v prints each step's observation size
and cell; the notebook keeps the model's words as a markdown cell before each cell and replays
without the model. The prompt cost is measured with bench/agent_overhead.py's task, from the
token counts the scripted server computes from the real request bodies.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import nbformat
import pytest
from agentbrowser import llm
from agentbrowser.code.agent import CodeAgent
from agentbrowser.llm import ChatAnthropic, ScriptedModelServer
from conftest import REPO

SECRET = "Hunter2-Pa55-H5"
API_KEY = "sk-test-H5-0123456789abcdefXYZ"
ANTHROPIC_KEY = "sk-ant-test-H5-9876543210zyx"


def reply(words: str, code: str) -> str:
    return f"{words}\n```python\n{code}\n```"


#: The model's words and cells of the run (the words of step 1 hold the secret's real value, as a
#: model echoing it would: the log must mask it in the response body too).
STEPS: list[tuple[str, str]] = [
    (
        f"I will type the password ({SECRET}) into the Name box through its placeholder.",
        "await observe()\nsnap = await page.observe()\nbox = snap.one(role='textbox', name='Name')\n"
        "await fill(box.id, '<secret>password</secret>')\nprint('filled', box.id)",
    ),
    (
        "Now I submit the form and read what the page says.",
        "await snap.one(role='button', name='Submit').click()\n"
        "result = await page.evaluate(\"document.getElementById('result').textContent\")\nprint(result)",
    ),
    ("The page confirms the submission, so I am done.", "await done(result, success=True)"),
]
VERDICT = json.dumps(
    {
        "reasoning": "submitted",
        "verdict": True,
        "failure_reason": "",
        "impossible_task": False,
        "reached_captcha": False,
    }
)


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("OPENAI_API_KEY", "ANTHROPIC_API_KEY")}
    env["PYTHONPATH"] = str(REPO / "python") + os.pathsep + env.get("PYTHONPATH", "")
    env.update(extra)
    return env


@dataclass
class CliRun:
    """One `agentbrowser agent --log ... -v` run: the process, the files it wrote, what the model server got."""

    done: subprocess.CompletedProcess[str]
    log: Path
    notebook: Path
    secrets: Path
    requests: list[dict[str, Any]]


@pytest.fixture(scope="module")
def cli_run(agentbrowser_bin: Path, server: str, tmp_path_factory: pytest.TempPathFactory) -> CliRun:
    tmp = tmp_path_factory.mktemp("agent-log")
    secrets = tmp / "secrets.json"
    secrets.write_text(json.dumps({"password": SECRET}))
    log, notebook = tmp / "calls.jsonl", tmp / "run.ipynb"
    with ScriptedModelServer([reply(w, c) for w, c in STEPS] + [VERDICT]) as model:
        done = subprocess.run(
            [
                str(agentbrowser_bin),
                "agent",
                f"Open {server}/form, enter the password as the name and submit.",
                "--base-url",
                model.base_url,
                "--model",
                "scripted-gpt",
                "--no-vision",
                "--secrets",
                str(secrets),
                "--notebook",
                str(notebook),
                "--log",
                str(log),
                "-v",
            ],
            env=_env(OPENAI_API_KEY=API_KEY),
            capture_output=True,
            text=True,
            timeout=240,
        )
        requests = list(model.requests)
    return CliRun(done, log, notebook, secrets, requests)


def _ok(run: CliRun) -> None:
    assert run.done.returncode == 0, run.done.stdout + run.done.stderr


def _lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def _observation(request: dict[str, Any]) -> str:
    """The observation the request carried: the last text part of its last user message."""
    last = request["messages"][-1]
    assert last["role"] == "user"
    parts = [p["text"] for p in last["content"] if p.get("type") == "text"]
    return parts[-1].lstrip("\n")


# -- --log ------------------------------------------------------------------------------------


def test_log_has_every_request_and_response_with_usage_and_no_secret(cli_run: CliRun) -> None:
    _ok(cli_run)
    text = cli_run.log.read_text()
    # No secret value anywhere: not the run's secret, not the API key.
    assert SECRET not in text and API_KEY not in text
    lines = _lines(cli_run.log)
    requests = [line for line in lines if line["event"] == "request"]
    responses = [line for line in lines if line["event"] == "response"]
    # One line per request and one per response: three steps and the judge.
    assert len(cli_run.requests) == 4 and len(requests) == 4 and len(responses) == 4
    assert [(r.get("step"), r["purpose"]) for r in requests] == [(1, "step"), (2, "step"), (3, "step"), (None, "judge")]
    for request, sent in zip(requests, cli_run.requests, strict=True):
        # The body is what the model server received, byte for byte in JSON terms.
        assert request["body"] == sent
        assert request["method"] == "POST" and request["url"].endswith("/chat/completions")
        headers = {k.lower(): v for k, v in request["headers"].items()}
        assert headers["authorization"] == "[masked]"
    for request, response in zip(requests, responses, strict=True):
        assert response["call"] == request["call"] and response["status"] == 200
        usage = response["usage"]
        assert usage["prompt_tokens"] == response["body"]["usage"]["prompt_tokens"] > 0
        assert usage["completion_tokens"] > 0
    # The model's echo of the secret is in the log as its placeholder.
    first_reply = responses[0]["body"]["choices"][0]["message"]["content"]
    assert "(<secret>password</secret>)" in first_reply
    # The page showed the secret after the submit: the observation in the third request has the placeholder.
    assert "Submitted <secret>password</secret>" in json.dumps(requests[2]["body"])
    assert "result (success=True): Submitted <secret>password</secret>" in cli_run.done.stdout
    # The CLI's total is the log's responses summed.
    total = sum(r["usage"]["prompt_tokens"] for r in responses)
    assert f"tokens: {total} prompt" in cli_run.done.stdout
    assert f"model log: {cli_run.log.resolve()}" in cli_run.done.stdout


def test_log_to_a_missing_directory_is_refused_naming_it(agentbrowser_bin: Path, tmp_path: Path) -> None:
    missing = tmp_path / "no-such-dir" / "calls.jsonl"
    done = subprocess.run(
        [str(agentbrowser_bin), "agent", "do something", "--base-url", "http://127.0.0.1:9/v1", "--log", str(missing)],
        env=_env(),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert f"--log {missing}: the directory {missing.parent} does not exist" in done.stderr


# -- -v ---------------------------------------------------------------------------------------


def test_verbose_prints_each_steps_observation_size_words_and_cell(cli_run: CliRun) -> None:
    _ok(cli_run)
    err = cli_run.done.stderr
    heads = re.findall(
        r"^== step (\d+)/\d+: observation ([\d,]+) chars \((\w+) snapshot\); prompt ([\d,]+) tokens", err, re.M
    )
    assert [int(h[0]) for h in heads] == [1, 2, 3]
    for (number, chars, _kind, prompt), request in zip(heads, cli_run.requests, strict=False):
        # The size printed is the size of the observation the model got in that step's request.
        assert int(chars.replace(",", "")) == len(_observation(request)), number
        assert int(prompt.replace(",", "")) > 0
    assert [h[2] for h in heads][0] == "full"
    blocks = err.split("== step ")[1:]
    for block, (words, code) in zip(blocks, STEPS, strict=True):
        model, cell = block.split("-- model:\n", 1)[1].split("-- cell:\n", 1)
        assert model.strip() == words.replace(SECRET, "<secret>password</secret>")
        assert cell.rstrip("\n") == "\n".join("  " + line for line in code.splitlines())
    assert SECRET not in err and API_KEY not in err


# -- the notebook ----------------------------------------------------------------------------


def test_notebook_has_the_models_words_before_each_cell_and_replays(agentbrowser_bin: Path, cli_run: CliRun) -> None:
    _ok(cli_run)
    nb = nbformat.read(cli_run.notebook, as_version=4)
    nbformat.validate(nb)
    cells = list(nb.cells)
    for number, (words, code) in enumerate(STEPS, 1):
        at = next(i for i, c in enumerate(cells) if c.cell_type == "code" and c.source == code)
        before = cells[at - 1]
        assert before.cell_type == "markdown", number
        assert before.source.startswith(f"**Step {number}**")
        assert words.replace(SECRET, "<secret>password</secret>") in before.source
        assert code not in before.source  # the cell is not repeated in the words
    assert SECRET not in cli_run.notebook.read_text()
    replay = subprocess.run(
        [
            str(agentbrowser_bin),
            "notebook",
            "replay",
            str(cli_run.notebook),
            "--secrets",
            str(cli_run.secrets),
            "--json",
        ],
        env=_env(),
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert replay.returncode == 0, replay.stdout + replay.stderr
    data = json.loads(replay.stdout.strip().splitlines()[-1])["data"]
    assert data["divergences"] == [] and data["task_done"] and data["task_success"] is True
    assert data["task_result"] == "Submitted <secret>password</secret>"
    assert [c["source"] for c in data["cells"]][-3:] == [code for _, code in STEPS]


# -- the prompt's cost -----------------------------------------------------------------------


def test_prompt_tokens_after_step_one_at_most_30_percent_of_the_baseline(agentbrowser_bin: Path) -> None:
    sys.path.insert(0, str(REPO / "bench"))
    import agent_overhead
    import pages

    steps = 5
    baseline = agent_overhead.baseline(steps)
    assert baseline is not None and len(baseline) == steps + 1
    requests: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory() as tmp:
        pages.write_pages(Path(tmp))
        httpd, url = agent_overhead.serve(Path(tmp))
        try:
            result = asyncio.run(agent_overhead.measure(url, steps, requests_out=requests))
        finally:
            httpd.shutdown()
    tokens = result["prompt_tokens"]
    assert len(tokens) == len(baseline) == len(requests)
    for number, (now, before) in enumerate(zip(tokens, baseline, strict=True), 1):
        if number > 1:
            assert now <= 0.30 * before, f"step {number}: {now} prompt tokens, baseline {before}"
    # What a step resends is what the step before sent, byte for byte, but for the last message (the
    # previous result and observation), from step 3 on (step 2 drops step 1's SDK reference).
    for number in range(3, len(requests) + 1):
        before, now = requests[number - 2]["messages"], requests[number - 1]["messages"]
        assert now[: len(before) - 1] == before[:-1], number
        assert now[0] == requests[0]["messages"][0]  # one system prompt for the whole run


# -- Anthropic's prompt cache and the log through the Python API ----------------------------


def test_anthropic_requests_mark_the_cache_and_the_log_masks_its_key(
    agentbrowser_bin: Path, server: str, tmp_path: Path
) -> None:
    log_path = tmp_path / "anthropic.jsonl"
    replies = [reply(w, c) for w, c in STEPS]

    async def main() -> tuple[list[dict[str, Any]], Any]:
        with ScriptedModelServer(replies) as model:
            claude = ChatAnthropic("scripted-claude", base_url=model.base_url, api_key=ANTHROPIC_KEY, max_retries=0)
            with llm.ModelLog(log_path) as log:
                agent = CodeAgent(
                    f"Open {server}/form, enter the password as the name and submit.",
                    claude,
                    use_judge=False,
                    use_vision=False,
                    sensitive_data={"password": SECRET},
                    model_log=log,
                )
                session = await agent.run()
            return list(model.requests), session

    requests, session = asyncio.run(main())
    assert session.namespace["_task_success"] is True
    for number, body in enumerate(requests, 1):
        assert body["system"][-1]["cache_control"] == {"type": "ephemeral"}
        marked = [
            (m["role"], i) for m in body["messages"] for i, block in enumerate(m["content"]) if "cache_control" in block
        ]
        if number == 1:
            assert marked == []  # nothing repeated yet but the system prompt
        else:
            # One breakpoint at the end of the last assistant turn: what the next request repeats.
            last_assistant = [m for m in body["messages"] if m["role"] == "assistant"][-1]
            assert marked == [("assistant", len(last_assistant["content"]) - 1)]
    text = log_path.read_text()
    assert ANTHROPIC_KEY not in text and SECRET not in text
    lines = _lines(log_path)
    assert sum(line["event"] == "request" for line in lines) == len(requests) == 3
    for line in lines:
        if line["event"] == "request":
            # The key goes as x-api-key or Authorization, depending on the anthropic package's version.
            credentials = [v for k, v in line["headers"].items() if k.lower() in ("x-api-key", "authorization")]
            assert credentials and all(v == "[masked]" for v in credentials)
        else:
            assert line["usage"]["prompt_tokens"] > 0


def test_a_cell_shows_again_the_sdk_reference_later_steps_leave_out(agentbrowser_bin: Path, server: str) -> None:
    replies = [
        reply(
            "I need the signatures of page.find again.",
            "from agentbrowser.code.prompt import sdk_help\nprint(sdk_help('page.find'))",
        ),
        reply("Found it.", "await done('ok')"),
    ]

    async def main() -> list[dict[str, Any]]:
        with ScriptedModelServer(replies) as model:
            agent = CodeAgent(
                f"Open {server}/form and look up page.find.",
                llm.ChatOpenAI("scripted-gpt", base_url=model.base_url, api_key="test-key", max_retries=0),
                use_judge=False,
                use_vision=False,
            )
            await agent.run()
            return list(model.requests)

    requests = asyncio.run(main())
    first, second = (json.dumps(r) for r in requests)
    # Step 1 carries the whole reference; step 2 says it is left out and how to see it again...
    assert "page.find.role(role: str" in first and "await page.open(url: str" in first
    assert "is not repeated" in second and "await page.open(url: str" not in second
    # ...and the cell's output (a real import: the notebook replays it) brings back the part asked for.
    result = "\n".join(p["text"] for p in requests[1]["messages"][-1]["content"] if p.get("type") == "text")
    assert "page.find.role(role: str" in result and "page.find.css(selector: str)" in result
