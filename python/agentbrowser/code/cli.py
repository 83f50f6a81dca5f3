"""``python -m agentbrowser.code``: the code agent and notebook replay from a shell.

    python -m agentbrowser.code agent "task" [--model M] [--base-url URL] [--provider openai|anthropic]
                                        [--max-steps N] [--notebook out.ipynb] [--script out.py] ...
    python -m agentbrowser.code notebook replay out.ipynb

The agent prints one line per step, the final result and the notebook's path.  It needs a
model: ``OPENAI_API_KEY`` / ``ANTHROPIC_API_KEY``, or ``--base-url`` for an OpenAI-compatible
server (vLLM, Ollama, LM Studio, ...), or ``--scripted FILE``, which serves the recorded replies
in FILE from a scripted model server on 127.0.0.1 (no real model; the demo uses it).
``agentbrowser agent ...`` and ``agentbrowser notebook ...`` run this module.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TextIO

from ..aio import AsyncBrowser
from ..llm import ChatModel, ScriptedModelServer, make_model
from ..options import LaunchOptions
from .agent import CodeAgent
from .notebook import CodeAgentStep, ExecutionStatus, NotebookSession
from .replay import replay_file

__all__ = ["DEFAULT_MODELS", "main"]

#: The model each provider uses when ``--model`` is not given.
DEFAULT_MODELS: dict[str, str] = {"openai": "gpt-4.1-mini", "anthropic": "claude-sonnet-4-5"}
_KEYS = {"openai": "OPENAI_API_KEY", "anthropic": "ANTHROPIC_API_KEY"}
_OTHER = {"openai": "anthropic", "anthropic": "openai"}


def _parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(
        prog="agentbrowser",
        description="Code mode: a model writes Python cells against a live browser; the run is a notebook.",
    )
    sub = top.add_subparsers(dest="front", required=True)
    agent = sub.add_parser("agent", help="run the code agent on a task")
    agent.add_argument("task", help="what to do, in words (a single URL in it is opened first)")
    agent.add_argument("--model", help="model name (default: gpt-4.1-mini for openai, claude-sonnet-4-5 for anthropic)")
    agent.add_argument(
        "--base-url", help="an OpenAI-compatible (or Anthropic) endpoint, e.g. http://127.0.0.1:11434/v1"
    )
    agent.add_argument("--provider", choices=("openai", "anthropic"), help="API flavour (default: from the key set)")
    agent.add_argument("--max-steps", type=int, default=100, metavar="N", help="step limit (default 100)")
    agent.add_argument(
        "--max-failures", type=int, default=8, metavar="N", help="consecutive failures allowed (default 8)"
    )
    agent.add_argument("--notebook", metavar="PATH", help="write the run as a notebook here (default: a temp file)")
    agent.add_argument("--script", metavar="PATH", help="also write the run as a Python script")
    agent.add_argument(
        "--scripted", metavar="FILE", help="replay recorded model replies (a JSON list) instead of a model"
    )
    agent.add_argument("--secrets", metavar="FILE", help="JSON of sensitive data ({name: value} or {url-glob: {...}})")
    agent.add_argument("--cell-timeout", type=float, default=120.0, metavar="S", help="per-cell timeout (default 120)")
    agent.add_argument("--no-judge", action="store_true", help="skip the judge after done()")
    agent.add_argument("--no-vision", action="store_true", help="send no screenshots to the model")
    agent.add_argument("--headed", action="store_true", help="show the browser window")
    notebook = sub.add_parser("notebook", help="notebooks of code mode")
    nb_sub = notebook.add_subparsers(dest="notebook_command", required=True)
    replay = nb_sub.add_parser(
        "replay", help="re-run a notebook (.ipynb or .py export) against a fresh browser, no model"
    )
    replay.add_argument("path", help="the .ipynb (or .py) a run wrote")
    replay.add_argument("--timeout", type=float, default=None, metavar="S", help="per-cell timeout")
    replay.add_argument("--secrets", metavar="FILE", help="JSON of the sensitive data the run used")
    replay.add_argument("--headed", action="store_true", help="show the browser window")
    return top


def main(argv: Sequence[str] | None = None, *, out: TextIO | None = None) -> int:
    """Run the command line; returns the exit status (0: done and successful / replay matched)."""
    stream = out if out is not None else sys.stdout
    args = _parser().parse_args(argv)
    try:
        if args.front == "agent":
            return asyncio.run(_agent(args, stream))
        return asyncio.run(_replay(args, stream))
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130


def _refuse(message: str) -> int:
    print(f"error: {message}", file=sys.stderr)
    return 2


def _provider(args: argparse.Namespace) -> str:
    if args.provider:
        return str(args.provider)
    if not os.environ.get("OPENAI_API_KEY") and os.environ.get("ANTHROPIC_API_KEY"):
        return "anthropic"
    return "openai"


async def _agent(args: argparse.Namespace, out: TextIO) -> int:
    provider = _provider(args)
    if args.max_steps < 1 or args.max_failures < 1:
        return _refuse("--max-steps and --max-failures must be at least 1")
    server: ScriptedModelServer | None = None
    base_url: str | None = args.base_url
    api_key = os.environ.get(_KEYS[provider])
    if args.scripted:
        path = Path(args.scripted)
        if not path.is_file():
            return _refuse(f"--scripted {path}: no such file")
        server = ScriptedModelServer.from_file(path)
        base_url = server.start()
        api_key = "scripted"
        print(
            f"model: recorded replies from {path} served by a scripted model server at {base_url} (no real model)",
            file=out,
            flush=True,
        )
    elif not api_key and not base_url:
        return _refuse(
            f"no model to talk to: set {_KEYS[provider]} (or {_KEYS[_OTHER[provider]]} with --provider), "
            "pass --base-url URL for an OpenAI-compatible server (vLLM, Ollama, LM Studio), "
            "or --scripted FILE to replay recorded replies"
        )
    secrets: Any = None
    if args.secrets:
        try:
            secrets = json.loads(Path(args.secrets).read_text())
        except (OSError, ValueError) as exc:
            return _refuse(f"--secrets {args.secrets}: {exc}")
    model_name = args.model or ("scripted" if server is not None else DEFAULT_MODELS[provider])
    try:
        llm: ChatModel = make_model(provider, model_name, base_url=base_url, api_key=api_key or "none")
        if server is None:
            print(f"model: {provider} {model_name}{f' at {base_url}' if base_url else ''}", file=out, flush=True)
        agent = CodeAgent(
            args.task,
            llm,
            max_steps=args.max_steps,
            max_failures=args.max_failures,
            use_judge=not args.no_judge,
            sensitive_data=secrets,
            use_vision=not args.no_vision,
            cell_timeout_s=args.cell_timeout,
            on_step=lambda step: _progress(step, agent, out),
            launch=LaunchOptions(headless=not args.headed),
        )
        session = await agent.run()
    except ImportError as exc:
        return _refuse(str(exc))
    finally:
        if server is not None:
            server.stop()
    return _report(agent, session, args, out)


def _progress(step: CodeAgentStep, agent: CodeAgent, out: TextIO) -> None:
    code = next((line.strip() for line in step.model_output.splitlines() if line.strip()), "")
    if len(code) > 70:
        code = code[:67] + "..."
    seconds = f"{step.duration_seconds:.1f} s"
    if step.result.error:
        status = f"error: {step.result.error.splitlines()[0][:120]}"
    elif step.result.is_done:
        status = f"done (success={step.result.success})"
    else:
        status = "ok"
    line = f"step {step.number}/{agent.max_steps} [{seconds}] {status}" + (f" | {code}" if code else "")
    print(agent.mask(line), file=out, flush=True)


def _report(agent: CodeAgent, session: NotebookSession, args: argparse.Namespace, out: TextIO) -> int:
    ns = session.namespace
    history = session.history
    if ns.get("_task_done"):
        print(f"result (success={bool(ns.get('_task_success'))}): {agent.mask(str(ns.get('_task_result')))}", file=out)
        for path in ns.get("_task_attachments") or ():
            print(f"attachment: {path}", file=out)
    else:
        errors = [e for e in history.errors() if e]
        print(f"stopped ({agent.stop_reason}): {history.final_result() or (errors[-1] if errors else '')}", file=out)
    if history.judgement is not None:
        j = history.judgement
        why = getattr(j, "reasoning", None) or getattr(j, "failure_reason", None) or ""
        print(agent.mask(f"judge: verdict={j.verdict}{f' ({why})' if why else ''}"), file=out)
    elif agent.judge_error:
        print(f"judge: no verdict ({agent.judge_error})", file=out)
    notebook = Path(args.notebook) if args.notebook else _default_notebook(session)
    try:
        written = session.to_ipynb(notebook)
        print(f"notebook: {written.resolve()}", file=out)
    except ImportError as exc:
        print(f"notebook: not written ({exc})", file=out)
    if args.script:
        print(f"script: {session.to_script(Path(args.script)).resolve()}", file=out)
    usage = history.usage()
    if usage is not None:
        print(
            f"tokens: {usage.prompt_tokens} prompt + {usage.completion_tokens} completion over "
            f"{history.number_of_steps()} steps, {history.total_duration_seconds():.1f} s",
            file=out,
        )
    return 0 if ns.get("_task_done") and ns.get("_task_success") else 1


def _default_notebook(session: NotebookSession) -> Path:
    folder = Path(tempfile.gettempdir()) / "agentbrowser-notebooks"
    folder.mkdir(parents=True, exist_ok=True)
    return folder / f"run-{time.strftime('%Y%m%d-%H%M%S')}-{session.id[:8]}.ipynb"


async def _replay(args: argparse.Namespace, out: TextIO) -> int:
    path = Path(args.path)
    if not path.is_file():
        return _refuse(f"{path}: no such notebook")
    secrets: Any = None
    if args.secrets:
        try:
            secrets = json.loads(Path(args.secrets).read_text())
        except (OSError, ValueError) as exc:
            return _refuse(f"--secrets {args.secrets}: {exc}")
    print(f"replaying {path} against a fresh browser (no model)", file=out, flush=True)
    async with await AsyncBrowser.launch(LaunchOptions(headless=not args.headed)) as browser:
        session = await replay_file(
            path, browser, timeout_s=args.timeout, stop_on_divergence=False, sensitive_data=secrets
        )
        for cell in session.cells:
            first = next((line.strip() for line in cell.source.splitlines() if line.strip()), "")
            detail = f" {cell.error.splitlines()[0][:120]}" if cell.error else ""
            print(f"cell {cell.execution_count}: {ExecutionStatus(cell.status).value}{detail} | {first[:70]}", file=out)
        url = await browser.page.url()
    ns = session.namespace
    if ns.get("_task_done"):
        print(
            f"result (success={bool(ns.get('_task_success'))}): {session.mask(str(ns.get('_task_result')))}", file=out
        )
    print(f"page: {url}", file=out)
    diverged = session.metadata.get("divergences") or []
    for d in diverged:
        print(
            f"diverged: cell {d.get('index', 0) + 1} succeeded when recorded and failed now: {d.get('error')}", file=out
        )
    print(
        f"replayed {len(session.cells)} cells: "
        + (f"{len(diverged)} diverged from the recording" if diverged else "every cell as recorded"),
        file=out,
    )
    return 1 if diverged else 0
