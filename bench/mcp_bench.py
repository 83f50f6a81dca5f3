#!/usr/bin/env python3
"""`agentbrowser mcp`: what a tool call costs over the same command on the daemon socket, and how
big `browser_snapshot`'s answer is on the 5k page next to @playwright/mcp's.

    python3 bench/mcp_bench.py [--bin BINARY] [--reps N] [--json-out FILE]      # make bench-mcp

Overhead. One CLI session's daemon (`agentbrowser --session S open form.html`) serves both sides:
  socket  a JSON line `{"action": ...}` written to the daemon's Unix socket, its answer read back
  mcp     a `tools/call` JSON-RPC line written to `agentbrowser --session S mcp` over stdio (which
          sends the same command to the same daemon), its result read back
  inproc  the same `tools/call` to `agentbrowser mcp` with its own browser in the process (no
          socket in between), on its own Chromium
Both clients are raw lines from this process (no SDK), so the difference is the server's own
cost: parsing the call, the tool's translation, the presenter, the answer's bound. Pairs:
`browser_tabs {action: list}` / `tab_list` (one CDP call) and `browser_snapshot` / `snapshot`
with the same size budget on form.html. Rounds alternate the sides; medians over N rounds.

Answer size. `browser_snapshot` on large-5k.html through the official MCP Python client: ours
(default options: interactive elements, bounded to 32000 bytes of snapshot) and @playwright/mcp's
(`make bench-peers` installs it into bench/peers; it runs Debian's /usr/bin/chromium). Bytes of the
text content; tokens estimated as bytes / 4.
"""

from __future__ import annotations

import argparse
import asyncio
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
import pages  # noqa: E402

PEER_MCP = REPO / "bench" / "peers" / "node_modules" / ".bin" / "playwright-mcp"


def default_bin() -> Path:
    for p in (REPO / "target" / "release" / "agentbrowser", REPO / "target" / "debug" / "agentbrowser"):
        if p.exists():
            return p
    raise SystemExit("no agentbrowser binary: scripts/build-release.sh")


class Rpc:
    """A raw JSON-RPC client of `agentbrowser ... mcp` over stdio."""

    def __init__(self, argv: list[str], env: dict[str, str]) -> None:
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env)
        self.next = 0
        self.request("initialize", {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "bench", "version": "1"}})
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})

    def send(self, msg: dict[str, Any]) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps(msg).encode() + b"\n")
        self.proc.stdin.flush()

    def request(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        self.next += 1
        self.send({"jsonrpc": "2.0", "id": self.next, "method": method, "params": params})
        assert self.proc.stdout is not None
        while True:
            msg = json.loads(self.proc.stdout.readline())
            if msg.get("id") == self.next:
                return msg

    def call(self, tool: str, args: dict[str, Any]) -> str:
        r = self.request("tools/call", {"name": tool, "arguments": args})["result"]
        assert not r.get("isError"), r
        return str(r["content"][0]["text"])

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.wait(timeout=30)


class Socket:
    """JSON lines on a session daemon's Unix socket."""

    def __init__(self, path: Path) -> None:
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.connect(str(path))
        self.file = self.sock.makefile("rb")

    def send(self, request: dict[str, Any]) -> dict[str, Any]:
        self.sock.sendall(json.dumps(request).encode() + b"\n")
        answer: dict[str, Any] = json.loads(self.file.readline())
        assert answer["success"], answer
        return answer


def timed(f: Any) -> float:
    t = time.perf_counter_ns()
    f()
    return (time.perf_counter_ns() - t) / 1e6


def overhead(binary: Path, base: str, reps: int, env: dict[str, str]) -> list[dict[str, Any]]:
    session = "bench-mcp"
    cli = [str(binary), "--session", session]
    subprocess.run([*cli, "open", f"{base}/form.html"], check=True, capture_output=True, env=env)
    sock = Socket(Path(env["AGENTBROWSER_SOCKET_DIR"]) / f"{session}.sock")
    shared = Rpc([*cli, "mcp"], env)
    own = Rpc([str(binary), "mcp"], env)
    own.call("browser_navigate", {"url": f"{base}/form.html"})
    pairs = [
        ("browser_tabs list / tab_list", ("browser_tabs", {"action": "list"}), {"action": "tab_list"}),
        (
            "browser_snapshot / snapshot",
            ("browser_snapshot", {}),
            {"action": "snapshot", "maxBytes": 32000},
        ),
    ]
    rows = []
    try:
        for label, (tool, args), command in pairs:
            samples: dict[str, list[float]] = {"socket": [], "mcp": [], "inproc": []}
            for i in range(reps + 5):
                order = ["socket", "mcp", "inproc"]
                order = order[i % 3 :] + order[: i % 3]
                for side in order:
                    if side == "socket":
                        ms = timed(lambda: sock.send(command))
                    elif side == "mcp":
                        ms = timed(lambda: shared.call(tool, args))
                    else:
                        ms = timed(lambda: own.call(tool, args))
                    if i >= 5:  # warm-up rounds are not counted
                        samples[side].append(ms)
            med = {k: statistics.median(v) for k, v in samples.items()}
            rows.append(
                {
                    "pair": label,
                    "socket_ms": med["socket"],
                    "mcp_ms": med["mcp"],
                    "inproc_ms": med["inproc"],
                    "overhead_ms": med["mcp"] - med["socket"],
                    "overhead_inproc_ms": med["inproc"] - med["socket"],
                    "reps": reps,
                }
            )
    finally:
        shared.close()
        own.close()
        subprocess.run([*cli, "close"], capture_output=True, env=env)
    return rows


async def snapshot_size(argv: list[str], url: str, cwd: Path, env: dict[str, str]) -> dict[str, Any]:
    from mcp.client.session import ClientSession
    from mcp.client.stdio import StdioServerParameters, stdio_client

    params = StdioServerParameters(command=argv[0], args=argv[1:], cwd=str(cwd), env=env)
    async with stdio_client(params) as (r, w), ClientSession(r, w) as s:
        await s.initialize()
        nav = await s.call_tool("browser_navigate", {"url": url})
        assert not nav.is_error, nav
        snap = await s.call_tool("browser_snapshot", {})
        assert not snap.is_error, snap
        text = "\n".join(c.text for c in snap.content if c.type == "text")
        nav_text = "\n".join(c.text for c in nav.content if c.type == "text")
        await s.call_tool("browser_close", {})
    return {"snapshot_bytes": len(text.encode()), "navigate_bytes": len(nav_text.encode()), "cut": "... cut" in text or "truncated" in text}


def sizes(binary: Path, base: str, env: dict[str, str], work: Path) -> dict[str, Any]:
    url = f"{base}/large-5k.html"
    out: dict[str, Any] = {"agentbrowser": asyncio.run(snapshot_size([str(binary), "mcp"], url, work, env))}
    if PEER_MCP.exists():
        argv = [str(PEER_MCP), "--headless", "--isolated", "--no-sandbox", "--executable-path", "/usr/bin/chromium", "--output-dir", str(work)]
        try:
            out["playwright_mcp"] = asyncio.run(snapshot_size(argv, url, work, env))
        except Exception as e:  # a peer's failure is reported, not fatal
            out["playwright_mcp"] = {"error": f"{type(e).__name__}: {e}"}
    else:
        out["playwright_mcp"] = {"error": f"{PEER_MCP} is missing: run `make bench-peers`"}
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bin", type=Path, default=None)
    ap.add_argument("--reps", type=int, default=200)
    ap.add_argument("--json-out", type=Path, default=None)
    a = ap.parse_args()
    binary = (a.bin or default_bin()).resolve()
    work = Path(tempfile.mkdtemp(prefix="ab-mcp-bench-"))
    env = dict(os.environ, AGENTBROWSER_SOCKET_DIR=str(work / "sock"))
    (work / "sock").mkdir(mode=0o700)
    server = subprocess.Popen([sys.executable, str(REPO / "bench" / "pages.py"), "serve", str(work / "pages")], stdout=subprocess.PIPE, text=True)
    try:
        assert server.stdout is not None
        base = f"http://127.0.0.1:{server.stdout.readline().strip()}"
        rows = overhead(binary, base, a.reps, env)
        size = sizes(binary, base, env, work)
    finally:
        server.terminate()
        server.wait(timeout=10)
        shutil.rmtree(work, ignore_errors=True)
    print(f"binary: {binary}\n")
    print("| pair | socket | mcp (--session, via the daemon) | overhead | mcp (own browser, in process) | vs socket |")
    print("|---|---|---|---|---|---|")
    for r in rows:
        print(
            f"| {r['pair']} | {r['socket_ms']:.3f} ms | {r['mcp_ms']:.3f} ms | {r['overhead_ms']:+.3f} ms "
            f"| {r['inproc_ms']:.3f} ms | {r['overhead_inproc_ms']:+.3f} ms |"
        )
    print(f"\nmedians of {a.reps} rounds (after 5 warm-up rounds)\n")
    print("| browser_snapshot on large-5k.html | snapshot answer | navigate answer |")
    print("|---|---|---|")
    for who, s in size.items():
        if "error" in s:
            print(f"| {who} | not measured: {s['error']} | |")
        else:
            note = " (cut at the budget, with a hint)" if s["cut"] else ""
            print(
                f"| {who} | {s['snapshot_bytes']} bytes, ~{s['snapshot_bytes'] // 4} tokens{note} "
                f"| {s['navigate_bytes']} bytes, ~{s['navigate_bytes'] // 4} tokens |"
            )
    if a.json_out:
        a.json_out.write_text(json.dumps({"overhead": rows, "sizes": size}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
