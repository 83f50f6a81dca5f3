#!/usr/bin/env python3
"""The code agent's own cost per step, without the model call and without the snapshot, the
size of what it shows the model per step, and the prompt tokens it sends per step, on the
5k-element page.

    python3 bench/agent_overhead.py [--bin BINARY] [--steps N] [--json-out FILE]      # make bench-agent

A real CodeAgent (in process, no screenshots, no judge) runs N + 1 steps on bench/pages.py's
session-5k.html (the 5k-element page with a filter form) served on 127.0.0.1. Its model is a
ScriptedModelServer (real HTTP on 127.0.0.1 through the official `openai` client). Step k's cell
sets the page's Search box to a new value with one `page.evaluate` (so every observation after
the first has a one-line snapshot change to show); the last step calls done().

CodeAgent.timings splits every step into: page state (URL, title, tabs, read after the cell and
reused by the next observation), snapshot (the engine's
capture, delta), screenshot (none here), model call (request to reply through the client), cell
(the code's run through CodeSession, its one evaluate included) and total. The loop's overhead is
total - model call - snapshot - screenshot: building the observation text (diff, variables), the
messages, parsing the reply, running the cell, its result message and the bookkeeping. Medians
over the N steps after the first (the first shows the whole snapshot, the others its diff);
target: at most 20 ms. Observation size: characters of the observation text (the first step, then
the median of the others), tokens estimated as characters / 4.

Prompt tokens per step: what the scripted server counted from each real request body (every
text's characters / 4, 85 per image), beside the same task's numbers before issue 35's change
(bench/agent_prompt_baseline.json, commit 3002111: a ~29.5 KB system prompt with the whole SDK
reference in every request). Target: every step after the first at most 30% of the baseline's
same step. "Repeated prefix": the tokens at the start of a request that are byte-identical to
the previous request (whole messages), which a provider's prompt cache can serve.
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import http.server
import json
import os
import statistics
import sys
import tempfile
import threading
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "bench"))
sys.path.insert(0, str(REPO / "python"))
import pages  # noqa: E402
from agentbrowser.code.agent import CodeAgent  # noqa: E402
from agentbrowser.llm import ChatOpenAI, ScriptedModelServer, approx_tokens  # noqa: E402

TARGET_MS = 20.0
#: Steps after the first: at most this share of the baseline's prompt tokens (issue 35).
TARGET_PROMPT_SHARE = 0.30
BASELINE = Path(__file__).resolve().parent / "agent_prompt_baseline.json"


def default_bin() -> Path:
    for p in (REPO / "target" / "release" / "agentbrowser", REPO / "target" / "debug" / "agentbrowser"):
        if p.exists():
            return p
    raise SystemExit("no agentbrowser binary: scripts/build-release.sh")


def serve(directory: Path) -> tuple[http.server.ThreadingHTTPServer, str]:
    handler = functools.partial(_Quiet, directory=str(directory))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    return httpd, f"http://127.0.0.1:{httpd.server_address[1]}"


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
        pass


def replies(steps: int) -> list[str]:
    out = []
    for k in range(1, steps + 1):
        out.append(
            f"Step {k}: set the search box.\n```python\n"
            f"value = await page.evaluate(\"(() => {{ const i = document.querySelector('input'); "
            f"i.value = 'widget {k}'; return i.value }})()\")\nvalue\n```"
        )
    out.append("```python\nawait done(f'last value: {value}')\n```")
    return out


async def measure(url: str, steps: int, requests_out: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """Run the task; the measurements (``requests_out`` receives every request body the model server got)."""
    with ScriptedModelServer(replies(steps)) as server:
        llm = ChatOpenAI("scripted", base_url=server.start(), api_key="bench")
        agent = CodeAgent(
            f"Open {url}/session-5k.html and set the search box, step by step.",
            llm,
            max_steps=steps + 1,
            use_judge=False,
            use_vision=False,
        )
        session = await agent.run()
        requests = list(server.requests)
    if requests_out is not None:
        requests_out.extend(requests)
    if not session.namespace.get("_task_done"):
        raise SystemExit(f"the run did not finish: {agent.stop_reason} {session.history.final_result()}")
    timed = agent.timings[1:steps]  # steps 2..N: observations showing a diff; the done step left out

    def median_ms(key: str) -> float:
        return round(statistics.median(getattr(t, key) for t in timed) * 1000, 3)

    result = {
        "steps": len(timed),
        "median_ms": {
            k: median_ms(k) for k in ("total_s", "model_s", "snapshot_s", "screenshot_s", "state_s", "cell_s")
        },
        "overhead_ms": round(statistics.median(t.overhead_s for t in timed) * 1000, 3),
        "overhead_without_cell_ms": round(statistics.median(t.overhead_s - t.cell_s for t in timed) * 1000, 3),
        "observation_chars": {
            "first": agent.timings[0].observation_chars,
            "first_kind": agent.timings[0].snapshot_kind,
            "later_median": statistics.median(t.observation_chars for t in timed),
            "later_max": max(t.observation_chars for t in timed),
            "later_kinds": sorted({t.snapshot_kind for t in timed}),
        },
        "snapshot_budget_chars": agent.snapshot_budget_chars,
        # What the scripted server counted from each real request body (characters / 4, per step).
        "prompt_tokens": [s.usage.prompt_tokens if s.usage is not None else None for s in session.history.steps],
        "request_chars": [len(json.dumps(r, separators=(",", ":"))) for r in requests],
        "repeated_prefix_tokens": repeated_prefixes(requests),
        "system_prompt_chars": len(agent.system_prompt or ""),
    }
    return result


def _message_tokens(message: dict[str, Any]) -> int:
    content = message.get("content")
    if isinstance(content, str):
        return approx_tokens(content)
    return sum(approx_tokens(p.get("text", "")) if p.get("type") == "text" else 85 for p in content or [])


def repeated_prefixes(requests: list[dict[str, Any]]) -> list[int]:
    """For each request, the tokens of its leading messages identical to the previous request's (0 for the first)."""
    out = [0]
    for before, now in zip(requests, requests[1:], strict=False):
        same = 0
        for a, b in zip(before["messages"], now["messages"], strict=False):
            if a != b:
                break
            same += _message_tokens(b)
        out.append(same)
    return out


def baseline(steps: int) -> list[int] | None:
    """The prompt tokens per step of the same task before issue 35's change, when recorded for ``steps``."""
    data = json.loads(BASELINE.read_text())
    found = data["prompt_tokens"].get(str(steps))
    return list(found) if found is not None else None


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bin", type=Path, default=None)
    ap.add_argument("--steps", type=int, default=30)
    ap.add_argument("--json-out", type=Path, default=None)
    args = ap.parse_args()
    binary = args.bin or default_bin()
    os.environ["AGENTBROWSER_BIN"] = str(binary)
    with tempfile.TemporaryDirectory() as tmp:
        pages.write_pages(Path(tmp))
        httpd, url = serve(Path(tmp))
        try:
            result = asyncio.run(measure(url, args.steps))
        finally:
            httpd.shutdown()
    m, obs = result["median_ms"], result["observation_chars"]
    print(f"code agent on session-5k.html, {result['steps']} steps measured (binary {binary})")
    print(
        f"  per step (median ms): total {m['total_s']}, model call {m['model_s']}, snapshot {m['snapshot_s']}, "
        f"page state {m['state_s']}, cell {m['cell_s']}"
    )
    verdict = "met" if result["overhead_ms"] <= TARGET_MS else "MISSED"
    print(
        f"  loop overhead (total - model - snapshot): {result['overhead_ms']} ms "
        f"(target <= {TARGET_MS:g} ms: {verdict}); without the cell's run: {result['overhead_without_cell_ms']} ms, "
        f"of which page state {m['state_s']} ms"
    )
    print(
        f"  observation: first step {obs['first']:,} chars ({obs['first_kind']} snapshot, budget "
        f"{result['snapshot_budget_chars']:,}), later steps median {obs['later_median']:,} chars "
        f"(max {obs['later_max']:,}; {', '.join(obs['later_kinds'])}); ~tokens = chars / 4"
    )
    tokens = result["prompt_tokens"]
    print(
        f"  prompt tokens per step (the scripted server's count from the request bodies): {tokens} "
        f"(total {sum(t or 0 for t in tokens):,}; system prompt {result['system_prompt_chars']:,} chars)"
    )
    print(f"  repeated prefix per step (tokens a prompt cache can serve): {result['repeated_prefix_tokens']}")
    before = baseline(args.steps)
    if before is None:
        print(f"  no baseline recorded for --steps {args.steps} in {BASELINE.name} (recorded: 5, 30)")
    else:
        shares = [round(a / b, 3) for a, b in zip(tokens, before, strict=True)]
        worst = max(shares[1:])
        verdict = "met" if worst <= TARGET_PROMPT_SHARE else "MISSED"
        print(f"  before issue 35 (commit 3002111): {before} (total {sum(before):,})")
        print(
            f"  share of the baseline per step: {shares}; steps after the first at most {worst:.1%} "
            f"(target <= {TARGET_PROMPT_SHARE:.0%}: {verdict})"
        )
        result["baseline_prompt_tokens"] = before
        result["prompt_share_of_baseline"] = shares
    if args.json_out:
        args.json_out.write_text(json.dumps(result, indent=2) + "\n")


if __name__ == "__main__":
    main()
