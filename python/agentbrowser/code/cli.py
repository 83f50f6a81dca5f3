"""``python -m agentbrowser.code``: the code agent and notebook replay from a shell.

    python -m agentbrowser.code agent "task" [--model M] [--base-url URL] [--provider openai|anthropic]
                                        [--max-steps N] [--notebook out.ipynb] [--script out.py]
                                        [--log calls.jsonl] [-v] ...
    python -m agentbrowser.code notebook replay out.ipynb [--keep-going] [--json]

The agent prints one line per step, the final result and the notebook's path; ``-v`` adds, on
stderr, each step's observation size, prompt tokens, the model's words and its cell, and
``--log PATH`` writes every request to the model and its response as JSON lines (secrets
masked).  It needs a
model: ``OPENAI_API_KEY`` / ``ANTHROPIC_API_KEY``, or ``--base-url`` for an OpenAI-compatible
server (vLLM, Ollama, LM Studio, ...), or ``--scripted FILE``, which serves the recorded replies
in FILE from a scripted model server on 127.0.0.1 (no real model; the demo uses it).
``notebook replay`` stops at the first cell that succeeded when recorded and fails now
(``--keep-going`` runs the rest) and exits 1; see :data:`REPLAY_EXIT_STATUS`.
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
from .agent import CodeAgent, parse_reply
from .notebook import CodeAgentStep, NotebookSession
from .replay import ReplayDivergence, load_file, replay
from .replay_report import ACTION, build_report, report_envelope, report_lines

__all__ = ["DEFAULT_MODELS", "REPLAY_EXIT_STATUS", "main"]

#: The model each provider uses when ``--model`` is not given.
DEFAULT_MODELS: dict[str, str] = {"openai": "gpt-4.1-mini", "anthropic": "claude-sonnet-4-5"}
_KEYS = {"openai": "OPENAI_API_KEY", "anthropic": "ANTHROPIC_API_KEY"}
_OTHER = {"openai": "anthropic", "anthropic": "openai"}
#: What ``notebook replay`` exits with.
REPLAY_EXIT_STATUS = (
    "exit status: 0 every cell ran as recorded; 1 a cell that succeeded when recorded failed now "
    "(the replay stops there unless --keep-going); 2 bad input (no such notebook, not a notebook, bad --secrets)"
)


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
    agent.add_argument(
        "--log",
        metavar="PATH",
        help="write every request to the model and its response (with token usage) to PATH as JSON lines; "
        "API keys, authorization headers and the --secrets values are masked, image data left out",
    )
    agent.add_argument(
        "-v",
        "--verbose",
        action="store_true",
        help="print each step's observation size, prompt tokens, the model's words and its cell to stderr",
    )
    notebook = sub.add_parser("notebook", help="notebooks of code mode")
    nb_sub = notebook.add_subparsers(dest="notebook_command", required=True)
    replay = nb_sub.add_parser(
        "replay",
        help="re-run a notebook (.ipynb or .py export) against a fresh browser, no model",
        description="Re-run a notebook's code cells in order against a fresh browser, with no model. "
        "A cell that succeeded when recorded and fails now is a divergence: the replay stops there "
        "(the cells after it would act on a page in the wrong state) and names the cell, what the "
        "recording expected and what happened.",
        epilog=REPLAY_EXIT_STATUS,
    )
    replay.add_argument("path", help="the .ipynb (or .py) a run wrote")
    replay.add_argument("--timeout", type=float, default=None, metavar="S", help="per-cell timeout")
    replay.add_argument("--secrets", metavar="FILE", help="JSON of the sensitive data the run used")
    replay.add_argument("--headed", action="store_true", help="show the browser window")
    replay.add_argument(
        "--keep-going",
        action="store_true",
        help="run every cell even after one diverges (default: stop at the first divergence)",
    )
    replay.add_argument(
        "--json", action="store_true", help=f"print one JSON envelope (action {ACTION}) instead of text"
    )
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
    if args.log:
        folder = Path(args.log).resolve().parent
        if not folder.is_dir():
            return _refuse(f"--log {args.log}: the directory {folder} does not exist")
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
            on_step=lambda step: _progress(step, agent, out, sys.stderr if args.verbose else None),
            launch=LaunchOptions(headless=not args.headed),
            model_log=args.log,
        )
        session = await agent.run()
    except ImportError as exc:
        return _refuse(str(exc))
    except OSError as exc:
        if args.log and exc.filename is not None and Path(exc.filename) == Path(args.log):
            return _refuse(f"--log {args.log}: {exc.strerror}")
        raise
    finally:
        if server is not None:
            server.stop()
    if args.log:
        print(f"model log: {Path(args.log).resolve()}", file=out)
    return _report(agent, session, args, out)


def _progress(step: CodeAgentStep, agent: CodeAgent, out: TextIO, verbose: TextIO | None = None) -> None:
    if verbose is not None:
        _details(step, agent, verbose)
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


def _details(step: CodeAgentStep, agent: CodeAgent, err: TextIO) -> None:
    """``-v``: the step's observation size and prompt tokens, the model's words and its cell."""
    timing = next((t for t in agent.timings if t.number == step.number), None)
    seen = (
        f"observation {timing.observation_chars:,} chars ({timing.snapshot_kind} snapshot)"
        if timing is not None
        else "observation size unknown"
    )
    usage = step.usage
    if usage is not None:
        cached = f", {usage.cached_tokens:,} cached" if usage.cached_tokens else ""
        seen += f"; prompt {usage.prompt_tokens:,} tokens{cached}, reply {usage.completion_tokens:,} tokens"
    lines = [f"== step {step.number}/{agent.max_steps}: {seen}"]
    words = parse_reply(step.full_response).text
    if not step.full_response and step.result.error:
        lines += ["-- model:", f"  (no reply: {step.result.error})"]
    else:
        lines += ["-- model:", _indent(words) if words else "  (no words around the cell)"]
    lines += ["-- cell:", _indent(step.model_output) if step.model_output else "  (none: nothing ran)"]
    print(agent.mask("\n".join(lines)), file=err, flush=True)


def _indent(text: str) -> str:
    return "\n".join("  " + line for line in text.splitlines())


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
        return _refuse_replay(args, out, f"{path}: no such notebook (give the .ipynb or .py a run wrote)")
    secrets: Any = None
    if args.secrets:
        try:
            secrets = json.loads(Path(args.secrets).read_text())
        except (OSError, ValueError) as exc:
            return _refuse_replay(args, out, f"--secrets {args.secrets}: {exc}")
    try:
        recorded = load_file(path)
    except (OSError, ValueError, SyntaxError) as exc:
        return _refuse_replay(args, out, f"{path}: not a notebook or script a code-mode run wrote ({exc})")
    if not args.json:
        print(f"replaying {path} against a fresh browser (no model)", file=out, flush=True)
    stopped: ReplayDivergence | None = None
    async with await AsyncBrowser.launch(LaunchOptions(headless=not args.headed)) as browser:
        try:
            session = await replay(
                recorded,
                browser,
                timeout_s=args.timeout,
                stop_on_divergence=not args.keep_going,
                sensitive_data=secrets,
            )
        except ReplayDivergence as exc:
            stopped, session = exc, exc.session
        url = await browser.page.url()
    report = build_report(path, recorded, session, stopped, url)
    if args.json:
        print(json.dumps(report_envelope(report), ensure_ascii=False), file=out)
    else:
        for line in report_lines(report):
            print(session.mask(line), file=out)
    return 1 if report["divergences"] else 0


def _refuse_replay(args: argparse.Namespace, out: TextIO, message: str) -> int:
    if not args.json:
        return _refuse(message)
    answer = {"id": None, "action": ACTION, "success": False, "data": None, "error": message}
    print(json.dumps({**answer, "code": "invalid_argument", "warning": None}), file=out)
    return 2
