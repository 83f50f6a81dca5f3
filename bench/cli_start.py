#!/usr/bin/env python3
"""What one CLI call costs beyond its daemon's answer: this build's `agentbrowser` client beside
another binary's, against one daemon, with `/bin/true` as the process floor.

    python3 bench/cli_start.py [--baseline BIN] [--reps 500]

One session (this build's daemon and Chromium) on a small page. Each round, in a rotating order:
`/bin/true`, `agentbrowser --json title` with this build's client and with BIN's (default: the
newest build in target/baseline/; `bench/baseline.sh REV` makes one), and the same request on a
kept socket connection (the daemon's own answer, no process). Per command: medians of the wall
time (spawn to exit, as a shell or an agent's tool runner sees it), the process's CPU time and its
minor page faults (from wait4's rusage). Linux only.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Callable

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "bench"))
import procs  # noqa: E402

PAGE = "data:text/html,<title>CLI start</title><p>one line</p>"


def run_once(argv: list[str], env: dict[str, str]) -> tuple[float, float, int]:
    """Wall ms, CPU ms (user + system) and minor page faults of one process."""
    t0 = time.perf_counter()
    p = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    _, status, usage = os.wait4(p.pid, 0)
    wall = (time.perf_counter() - t0) * 1000
    p.returncode = os.waitstatus_to_exitcode(status)
    if p.returncode != 0:
        raise SystemExit(f"{argv[0]} exited with {p.returncode}")
    return wall, (usage.ru_utime + usage.ru_stime) * 1000, usage.ru_minflt


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--baseline", type=Path, default=None)
    ap.add_argument("--reps", type=int, default=500)
    args = ap.parse_args()
    if args.reps < 1:
        raise SystemExit("--reps must be at least 1")
    clients = procs.beside_baseline(args.baseline)
    ab = clients["this build"]
    with tempfile.TemporaryDirectory(prefix="ab-cli-start-") as tmp:
        sockets = Path(tmp, "sock")
        sockets.mkdir(mode=0o700)
        env = dict(os.environ, AGENTBROWSER_SOCKET_DIR=str(sockets), AGENTBROWSER_SESSION="clistart")
        subprocess.run([str(ab), "open", PAGE], check=True, capture_output=True, env=env)
        sock = socket.socket(socket.AF_UNIX)
        sock.connect(str(sockets / "clistart.sock"))
        io = sock.makefile("rwb")

        def kept() -> tuple[float, float, int]:
            t0 = time.perf_counter()
            io.write(b'{"action":"title","id":1}\n')
            io.flush()
            line = io.readline()
            if not json.loads(line).get("success"):
                raise SystemExit(f"title failed: {line[:200]!r}")
            return (time.perf_counter() - t0) * 1000, 0.0, 0

        def process(argv: list[str]) -> Callable[[], tuple[float, float, int]]:
            return lambda: run_once(argv, env)

        commands = {"/bin/true": process(["/bin/true"])}
        for name, b in clients.items():
            commands[f"{name}: agentbrowser --json title"] = process([str(b), "--json", "title"])
        commands["kept socket: title (no process)"] = kept
        samples: dict[str, list[tuple[float, float, int]]] = {k: [] for k in commands}
        names = list(commands)
        try:
            for r in range(args.reps + 5):
                shift = r % len(names)
                for k in names[shift:] + names[:shift]:
                    s = commands[k]()
                    if r >= 5:
                        samples[k].append(s)
        finally:
            sock.close()
            subprocess.run([str(ab), "close"], capture_output=True, env=env)
    print(f"\nOne CLI call against a warm daemon ({args.reps} rounds, rotating order; medians)")
    print("| command | wall ms | process CPU ms | minor faults |")
    print("|---|---:|---:|---:|")
    med = {k: [statistics.median(x[i] for x in v) for i in range(3)] for k, v in samples.items()}
    for k, (wall, cpu, faults) in med.items():
        print(f"| {k} | {wall:.3f} | {cpu:.3f} | {faults:.0f} |")
    floor = med["/bin/true"][0] + med["kept socket: title (no process)"][0]
    for name in clients:
        wall = med[f"{name}: agentbrowser --json title"][0]
        print(f"{name}: {wall - floor:+.3f} ms over /bin/true plus the kept-socket answer")
    return 0


if __name__ == "__main__":
    sys.exit(main())
