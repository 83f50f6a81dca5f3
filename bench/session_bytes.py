#!/usr/bin/env python3
"""Bytes an agent reads across one scripted 10-step session on the 5k-element page, observing the
page four ways: full snapshots, evidence diffs (whole or delta evidence), delta snapshots.

    python3 bench/session_bytes.py [--bin BINARY] [--json-out FILE]      # make bench-session

The session (bench/pages.py's session-5k.html: the 5k page with a filter form under its heading):

     1 open the page            2 observe (the first look)
     3 fill Search "widget"     4 observe
     5 fill Quantity "3"        6 observe
     7 click Apply              8 observe
     9 read the status line    10 observe (nothing changed)

How each strategy observes:

  full      actions with --no-evidence; every observe is `snapshot` (the whole text)
  evidence  actions with evidence (the default): an observe after an action is that action's own
            output (its diff), so it sends nothing; step 2 is `snapshot`, step 10 is `diff`
  evidence delta   as evidence, the actions with --delta: their before and after snapshots as
            delta snapshots (what --json carries shrinks; the human text is the same diff), and
            step 10 is `snapshot --delta`
  delta     actions with --no-evidence; step 2 and every observe is `snapshot --delta`

  agent-browser delta   the peer (agent-browser 0.41.2, installed by `make bench-peers`; skipped
            when it is not), the same steps with its own `snapshot -i --delta` (its interactive
            snapshot, like ours by default) as every observe; it reads the status line by its
            CSS selector `#status` (its interactive snapshot gives the status no ref)

Each strategy runs twice in a fresh session: once printing the CLI's human text (what an agent
driving the CLI reads) and once with --json (what a client of the JSON protocol reads: the
agentbrowser SDK, `batch`, or an MCP bridge). Bytes are counted on stdout. The page, the steps and
the refs are fixed, so the counts do not vary between runs (no repetitions are needed); the script
checks that the status line really reads "Showing 3 results for widget".
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Callable

REPO = Path(__file__).resolve().parents[1]
STEPS = (
    "open",
    "observe",
    "fill Search",
    "observe",
    "fill Quantity",
    "observe",
    "click Apply",
    "observe",
    "read status",
    "observe",
)
STRATEGIES = ("full", "evidence", "evidence delta", "delta")
PEER = "agent-browser delta"
PEER_BIN = REPO / "bench" / "peers" / "node_modules" / ".bin" / "agent-browser"
CHROMIUM = os.environ.get("BENCH_CHROMIUM", "/usr/bin/chromium")
# The offline flags of the benchmark's peers (bench/bench.py PEER_FLAGS).
PEER_FLAGS = "--no-sandbox,--disable-background-networking,--disable-component-update,--disable-sync,--no-first-run,--disable-gpu"

EXPECTED_STATUS = "Showing 3 results for widget"


class Session:
    """One CLI session in its own socket directory; every command's stdout is counted."""

    def __init__(self, binary: Path, sockets: Path, name: str, json_mode: bool) -> None:
        self.binary, self.name, self.json_mode = binary, name, json_mode
        self.env = {**os.environ, "AGENTBROWSER_SOCKET_DIR": str(sockets), "AGENTBROWSER_SESSION": name}

    def run(self, *args: str) -> str:
        argv = [str(self.binary), *(["--json"] if self.json_mode else []), *args]
        p = subprocess.run(argv, env=self.env, capture_output=True, text=True, timeout=120)
        if p.returncode != 0:
            raise SystemExit(f"{' '.join(argv)} failed ({p.returncode}): {p.stdout[-500:]} {p.stderr[-500:]}")
        return p.stdout

    def close(self) -> None:
        subprocess.run([str(self.binary), "close"], env=self.env, capture_output=True, timeout=60)


class PeerSession(Session):
    """One agent-browser session (its own socket directory and Chromium); stdout is counted."""

    def __init__(self, sockets: Path, name: str, json_mode: bool) -> None:
        super().__init__(PEER_BIN, sockets, name, json_mode)
        self.env = {
            **os.environ,
            "AGENT_BROWSER_SOCKET_DIR": str(sockets),
            "AGENT_BROWSER_EXECUTABLE_PATH": CHROMIUM,
            "AGENT_BROWSER_ARGS": PEER_FLAGS,
            "AGENT_BROWSER_IDLE_TIMEOUT_MS": "600000",
        }

    def run(self, *args: str) -> str:
        return super().run("--session", self.name, *args)

    def close(self) -> None:
        subprocess.run([str(self.binary), "--session", self.name, "close"], env=self.env, capture_output=True, timeout=60)


def peer_ref(out: str, role: str, name: str) -> str:
    """The ref of `role "name"` in agent-browser's snapshot (text or --json), as `@eN`."""
    if out.lstrip().startswith("{"):
        snap = (json.loads(out).get("data") or {}).get("snapshot") or {}
        refs = snap.get("refs") or {} if isinstance(snap, dict) else {}
        for rid, info in refs.items():
            if info.get("role") == role and info.get("name") == name:
                return "@" + str(rid)
        raise SystemExit(f"agent-browser: no {role} {name!r} in the answer")
    m = re.search(rf'- {re.escape(role)} "{re.escape(name)}" \[(?:[^\]\n]*, )?ref=(e\d+)\]', out)
    if not m:
        raise SystemExit(f"agent-browser: no {role} {name!r} in:\n{out[:2000]}")
    return "@" + m.group(1)


def play(
    s: Session,
    url: str,
    observe: Callable[[bool, bool], str],
    ref_of: Callable[[str, str, str], str],
    action_flags: list[str],
    read_status: Callable[[str], tuple[str, str]],
) -> list[int]:
    """The 10 steps in session `s`; the bytes of each. `observe(first, after_action)` answers an
    observation, `ref_of(answer, role, name)` a ref, `read_status(first)` the read's output and
    the status text it read."""
    sizes = [len(s.run("open", url))]
    first = observe(True, False)
    sizes.append(len(first))
    search = ref_of(first, "searchbox", "Search")
    qty = ref_of(first, "spinbutton", "Quantity")
    apply = ref_of(first, "button", "Apply")
    for action in (("fill", search, "widget"), ("fill", qty, "3"), ("click", apply)):
        sizes.append(len(s.run(*action, *action_flags)))
        sizes.append(len(observe(False, True)))
    read, got = read_status(first)
    if got != EXPECTED_STATUS:
        raise SystemExit(f"{s.name}: the status reads {got!r}, not {EXPECTED_STATUS!r}")
    sizes.append(len(read))
    sizes.append(len(observe(False, False)))
    return sizes


def run_peer(url: str, json_mode: bool) -> list[int]:
    """The session with agent-browser, observing with `snapshot -i --delta`; the bytes of each step."""
    sockets = Path(tempfile.mkdtemp(prefix="ab-session-bytes-peer-"))
    s = PeerSession(sockets, f"bytes-peer-{'json' if json_mode else 'text'}", json_mode)

    def read_status(_first: str) -> tuple[str, str]:
        read = s.run("get", "text", "#status")
        got = str((json.loads(read).get("data") or {}).get("text", "")) if json_mode else read.strip()
        return read, got

    try:
        return play(s, url, lambda _f, _a: s.run("snapshot", "-i", "--delta"), peer_ref, [], read_status)
    finally:
        s.close()
        shutil.rmtree(sockets, ignore_errors=True)


def find_ref(out: str, role: str, name: str) -> str:
    """The ref of the line `- role "name" [... ref=eN]` in a human or JSON answer."""
    text = out
    if out.lstrip().startswith("{"):
        data = json.loads(out)["data"]
        refs = data.get("refs") or {}
        for rid, info in refs.items():
            if info["role"] == role and info["name"] == name:
                return str(rid)
        raise SystemExit(f"no {role} {name!r} in the answer")
    m = re.search(rf'- {re.escape(role)}(?: "{re.escape(name)}")? \[(?:[^\]\n]*, )?ref=(e\d+)\]', text)
    if not m:
        raise SystemExit(f"no {role} {name!r} in:\n{text[:2000]}")
    return m.group(1)


def run_strategy(binary: Path, url: str, strategy: str, json_mode: bool) -> list[int]:
    """Runs the session with one strategy; returns the bytes read at each step."""
    sockets = Path(tempfile.mkdtemp(prefix="ab-session-bytes-"))
    s = Session(binary, sockets, f"bytes-{strategy.replace(' ', '-')}-{'json' if json_mode else 'text'}", json_mode)
    flags = {"evidence": [], "evidence delta": ["--delta"]}.get(strategy, ["--no-evidence"])

    def observe(first: bool, after_action: bool) -> str:
        if strategy == "delta":
            return s.run("snapshot", "--delta")
        if strategy == "full" or first:
            return s.run("snapshot")
        if after_action:
            return ""  # the action's own output (its diff) was the observation
        if strategy == "evidence delta":
            return s.run("snapshot", "--delta")
        return s.run("diff")

    def read_status(first: str) -> tuple[str, str]:
        read = s.run("get", "text", find_ref(first, "status", ""))
        return read, json.loads(read)["data"]["value"] if json_mode else read.strip()

    try:
        return play(s, url, observe, find_ref, flags, read_status)
    finally:
        s.close()
        shutil.rmtree(sockets, ignore_errors=True)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    release, debug = (REPO / "target" / kind / "agentbrowser" for kind in ("release", "debug"))
    ap.add_argument(
        "--bin", type=Path, default=release if release.exists() or not debug.exists() else debug,
        help="the agentbrowser binary (default target/release, else target/debug; the bytes do not depend on it)",
    )
    ap.add_argument("--json-out", type=Path, help="write every step's bytes as JSON here")
    args = ap.parse_args()
    if not args.bin.exists():
        print(f"{args.bin} does not exist (cargo build --release, or pass --bin)", file=sys.stderr)
        return 2
    pages = Path(tempfile.mkdtemp(prefix="ab-session-pages-"))
    server = subprocess.Popen(
        [sys.executable, str(REPO / "bench" / "pages.py"), "serve", str(pages)], stdout=subprocess.PIPE, text=True
    )
    try:
        assert server.stdout is not None
        port = server.stdout.readline().strip()
        if not port.isdigit():
            raise SystemExit("the page server did not start")
        url = f"http://127.0.0.1:{port}/session-5k.html"
        results: dict[str, dict[str, list[int]]] = {}
        for strategy in STRATEGIES:
            results[strategy] = {
                mode: run_strategy(args.bin, url, strategy, mode == "json") for mode in ("text", "json")
            }
        if PEER_BIN.exists():
            results[PEER] = {mode: run_peer(url, mode == "json") for mode in ("text", "json")}
        else:
            print(f"({PEER_BIN} is not installed: `make bench-peers`; its column is left out)\n")
        shown = tuple(results)
    finally:
        server.terminate()
        server.wait(timeout=10)
        shutil.rmtree(pages, ignore_errors=True)

    print("Bytes an agent reads across the 10-step session on session-5k.html (stdout of each command)\n")
    print("| step | " + " | ".join(f"{st} text | {st} JSON" for st in shown) + " |")
    print("|---|" + "---:|" * (2 * len(shown)))
    for i, step in enumerate(STEPS):
        cells = [f"{results[st][mode][i]:,}" for st in shown for mode in ("text", "json")]
        print(f"| {i + 1} {step} | " + " | ".join(cells) + " |")
    totals = {st: {mode: sum(results[st][mode]) for mode in ("text", "json")} for st in shown}
    cells = [f"**{totals[st][mode]:,}**" for st in shown for mode in ("text", "json")]
    print("| total | " + " | ".join(cells) + " |")
    print()
    for mode in ("text", "json"):
        full = totals["full"][mode]
        ratios = ", ".join(f"{st} {totals[st][mode] / full:.3f}" for st in shown)
        print(f"{mode}: against full snapshots: {ratios}")
    if PEER in totals:
        for mode in ("text", "json"):
            ours = ", ".join(f"{st} {totals[st][mode] / totals[PEER][mode]:.3f}" for st in STRATEGIES)
            print(f"{mode}: ours / agent-browser's --delta: {ours}")
    if args.json_out:
        args.json_out.write_text(json.dumps({"steps": STEPS, "bytes": results}, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
