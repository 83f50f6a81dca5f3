#!/usr/bin/env python3
"""Soak benchmark: 10,000 mixed actions through one daemon's socket; reports how the daemon's
memory grows after the first 1,000 actions and how latency drifts (p50/p99 per block of 1,000).

    python3 bench/soak.py [--actions N] [--binary PATH]      # or: make bench-soak

The mix (per round of 10): snapshot, fill ×2, check, select, click with evidence, eval, title,
get value, and every 5th round an open of the other page and back. Pages are the benchmark's own
(bench/pages.py), served on 127.0.0.1. The target of issue 9: RSS growth under 5% after the
first 1,000 actions. Timings are reported, never asserted.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "bench"))


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


class Daemon:
    """JSON lines over the session's Unix socket."""

    def __init__(self, binary: Path, session: str, env: dict[str, str], run_dir: Path, url: str) -> None:
        self.binary, self.session, self.env = binary, session, env
        subprocess.run([str(binary), "--session", session, "open", url], env=env, check=True, capture_output=True)
        self.sock = socket.socket(socket.AF_UNIX)
        self.sock.connect(str(run_dir / f"{session}.sock"))
        self.file = self.sock.makefile("rwb")
        self.pid = int(self.call({"action": "status"})["data"]["pid"])

    def call(self, req: dict[str, Any]) -> dict[str, Any]:
        self.file.write((json.dumps(req) + "\n").encode())
        self.file.flush()
        answer: dict[str, Any] = json.loads(self.file.readline())
        return answer

    def close(self) -> None:
        subprocess.run([str(self.binary), "--session", self.session, "close"], env=self.env, capture_output=True)


def percentile(xs: list[float], p: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, int(round(p / 100 * (len(s) - 1))))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--actions", type=int, default=10_000)
    parser.add_argument("--binary", default=str(REPO / "target" / "release" / "agentbrowser"))
    args = parser.parse_args()
    binary = Path(args.binary)
    tmp = Path(tempfile.mkdtemp(prefix="absoak-"))
    run_dir = tmp / "run"
    run_dir.mkdir(mode=0o700)
    env = dict(os.environ, AGENTBROWSER_SOCKET_DIR=str(run_dir), TMPDIR=str(tmp), AGENTBROWSER_IDLE_TIMEOUT="600000")
    server = subprocess.Popen([sys.executable, str(REPO / "bench" / "pages.py"), "serve", str(tmp / "pages")], stdout=subprocess.PIPE, text=True)
    daemon: Daemon | None = None
    try:
        assert server.stdout is not None
        base = f"http://127.0.0.1:{server.stdout.readline().strip()}/"
        daemon = Daemon(binary, f"soak{os.getpid()}", env, run_dir, base + "form.html")
        block = 1000
        samples: dict[str, list[float]] = {}
        per_block: list[list[float]] = []
        rss: list[tuple[int, int]] = [(0, rss_kib(daemon.pid))]
        failures: dict[str, int] = {}
        refs: dict[str, str] = {}
        current: list[float] = []
        n = 0
        rnd = 0

        def act(name: str, req: dict[str, Any]) -> dict[str, Any]:
            nonlocal n, current
            t = time.perf_counter()
            r = daemon.call(req) if daemon else {}
            ms = (time.perf_counter() - t) * 1000
            samples.setdefault(name, []).append(ms)
            current.append(ms)
            if not r.get("success"):
                failures[f"{name}: {r.get('code')}"] = failures.get(f"{name}: {r.get('code')}", 0) + 1
            n += 1
            if n % block == 0:
                per_block.append(current)
                current = []
                rss.append((n, rss_kib(daemon.pid) if daemon else 0))
            return r

        while n < args.actions:
            rnd += 1
            snap = act("snapshot", {"action": "snapshot"})
            for rid, meta in ((snap.get("data") or {}).get("refs") or {}).items():
                refs[f"{meta['role']}:{meta['name']}"] = rid
            act("fill", {"action": "fill", "ref": refs.get("textbox:Full name", "e1"), "value": f"Ada {rnd}"})
            act("fill", {"action": "fill", "ref": refs.get("textbox:Email", "e2"), "value": f"ada{rnd}@example.com"})
            act("check", {"action": "check" if rnd % 2 else "uncheck", "ref": refs.get("checkbox:Remember me", "e3")})
            act("select", {"action": "select", "ref": refs.get("combobox:Plan", "e4"), "value": ["Free", "Pro", "Team"][rnd % 3]})
            act("click", {"action": "click", "ref": refs.get("button:Sign in", "e5")})
            act("eval", {"action": "eval", "script": "document.getElementById('welcome').textContent"})
            act("title", {"action": "title"})
            act("value", {"action": "input_value", "ref": refs.get("textbox:Full name", "e1")})
            if rnd % 5 == 0:
                act("open", {"action": "open", "url": base + "other.html"})
                act("back", {"action": "back"})
            else:
                act("wait", {"action": "wait", "ms": 0})
        if len(current) >= block // 2 or not per_block:
            per_block.append(current)  # a short tail block would skew the drift
        base_rss = next((kib for i, kib in rss if i >= block), rss[-1][1])
        end_rss = rss[-1][1]
        growth = (end_rss - base_rss) / base_rss * 100 if base_rss else 0.0
        first, last = per_block[0], per_block[-1]
        result = {
            "date": datetime.datetime.now().astimezone().isoformat(timespec="seconds"),
            "actions": n,
            "rss_kib": rss,
            "rss_after_first_block_kib": base_rss,
            "rss_end_kib": end_rss,
            "rss_growth_pct": round(growth, 2),
            "p50_ms": [round(statistics.median(b), 3) for b in per_block],
            "p99_ms": [round(percentile(b, 99), 3) for b in per_block],
            "medians_by_action_ms": {k: round(statistics.median(v), 3) for k, v in samples.items()},
            "failures": failures,
            "loadavg": os.getloadavg(),
        }
        lines = [
            f"# Soak: {n} mixed actions through one daemon ({result['date']})",
            "",
            f"Daemon RSS: {rss[0][1]} KiB at start, {base_rss} KiB after {block} actions, {end_rss} KiB at the end: "
            f"growth {result['rss_growth_pct']}% after the first {block} (target < 5%: {'met' if growth < 5 else 'NOT met'}).",
            f"Latency per block of {block}: p50 {result['p50_ms'][0]} -> {result['p50_ms'][-1]} ms, "
            f"p99 {result['p99_ms'][0]} -> {result['p99_ms'][-1]} ms (first -> last block; "
            f"drift p50 {statistics.median(last) / statistics.median(first):.2f}x, p99 {percentile(last, 99) / percentile(first, 99):.2f}x).",
            "",
            "| block | RSS KiB | p50 ms | p99 ms |",
            "|---|---|---|---|",
        ]
        for i, (p50, p99) in enumerate(zip(result["p50_ms"], result["p99_ms"], strict=False)):
            lines.append(f"| {i + 1} | {rss[i + 1][1] if i + 1 < len(rss) else ''} | {p50} | {p99} |")
        lines += ["", "Medians by action (ms): " + ", ".join(f"{k} {v}" for k, v in result["medians_by_action_ms"].items())]
        lines.append("Failures: " + (", ".join(f"{k} ×{v}" for k, v in failures.items()) or "none"))
        text = "\n".join(lines) + "\n"
        print(text)
        out = REPO / "bench" / "out"
        out.mkdir(exist_ok=True)
        stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
        (out / f"soak-{stamp}.md").write_text(text)
        (out / f"soak-{stamp}.json").write_text(json.dumps(result, indent=1))
        print(f"written: bench/out/soak-{stamp}.md and .json")
        return 1 if failures else 0
    finally:
        if daemon:
            daemon.close()
        server.terminate()
        server.wait(5)
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
