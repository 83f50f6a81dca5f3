#!/usr/bin/env python3
"""What a snapshot costs the daemon itself: its CPU time and page faults per command, beside another
binary's, on the bench's 5k-element page.

    python3 bench/daemon_cpu.py [--baseline BIN] [--reps 60] [--view full|interactive|both]

Each binary gets its own session (daemon and Chromium, launched by the binary); the snapshots go
to the daemons' sockets alternately (the order flips every round), three warm-up rounds first.
Per binary: medians of the wall time of a command on the socket, the daemon's CPU time over it
(all its threads, from /proc/<pid>/task/*/schedstat, so a loaded machine inflates it less than
the wall time) and its minor page faults (/proc/<pid>/stat), and the answer's size. BIN defaults to
the newest build in target/baseline/ (`bench/baseline.sh REV` makes one). Linux only.
"""

from __future__ import annotations

import argparse
import functools
import glob
import http.server
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "bench"))
import pages  # noqa: E402
import procs  # noqa: E402


def cpu_ns(pid: int) -> int:
    """CPU time of every thread of `pid` so far, in nanoseconds (a thread that ended meanwhile counts 0)."""
    total = 0
    for t in glob.glob(f"/proc/{pid}/task/*/schedstat"):
        try:
            total += int(Path(t).read_text().split()[0])
        except FileNotFoundError:
            pass
    return total


def minor_faults(pid: int) -> int:
    """Minor page faults of `pid` so far."""
    return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[7])


class Daemon:
    """One binary's session on the page, spoken to through its socket."""

    def __init__(self, binary: Path, session: str, url: str, sockets: Path) -> None:
        self.binary, self.session = binary, session
        env = dict(os.environ, AGENTBROWSER_SOCKET_DIR=str(sockets))
        self.env = env
        subprocess.run([str(binary), "--session", session, "open", url], check=True, capture_output=True, env=env)
        self.pid = int((sockets / f"{session}.pid").read_text().split()[0])
        self.sock = socket.socket(socket.AF_UNIX)
        self.sock.connect(str(sockets / f"{session}.sock"))
        self.io = self.sock.makefile("rwb")

    def snapshot(self, interactive: bool) -> tuple[float, float, int, int]:
        """Wall ms, daemon CPU ms, minor faults and answer bytes of one snapshot."""
        c0, f0, t0 = cpu_ns(self.pid), minor_faults(self.pid), time.perf_counter()
        self.io.write((json.dumps({"action": "snapshot", "interactive": interactive}) + "\n").encode())
        self.io.flush()
        line = self.io.readline()
        t1, c1, f1 = time.perf_counter(), cpu_ns(self.pid), minor_faults(self.pid)
        if not json.loads(line).get("success"):
            raise SystemExit(f"{self.binary}: the snapshot failed: {line[:300]!r}")
        return (t1 - t0) * 1000, (c1 - c0) / 1e6, f1 - f0, len(line)

    def close(self) -> None:
        self.sock.close()
        subprocess.run([str(self.binary), "--session", self.session, "close"], capture_output=True, env=self.env)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--baseline", type=Path, default=None)
    ap.add_argument("--reps", type=int, default=60)
    ap.add_argument("--view", choices=["full", "interactive", "both"], default="both")
    args = ap.parse_args()
    if args.reps < 1:
        raise SystemExit("--reps must be at least 1")
    binaries = procs.beside_baseline(args.baseline)
    views = {"full": [False], "interactive": [True], "both": [False, True]}[args.view]
    with tempfile.TemporaryDirectory(prefix="ab-daemon-cpu-") as tmp:
        root = Path(tmp, "pages")
        root.mkdir()
        pages.write_pages(root)
        handler = functools.partial(QuietHandler, directory=str(root))
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        url = f"http://127.0.0.1:{server.server_address[1]}/large-5k.html"
        sockets = Path(tmp, "sock")
        sockets.mkdir(mode=0o700)
        daemons: dict[str, Daemon] = {}
        try:
            for i, (k, b) in enumerate(binaries.items()):
                daemons[k] = Daemon(b, f"cpu{i}", url, sockets)
            for interactive in views:
                samples: dict[str, list[tuple[float, float, int, int]]] = {k: [] for k in daemons}
                for r in range(args.reps + 3):
                    order = list(daemons) if r % 2 == 0 else list(daemons)[::-1]
                    for k in order:
                        s = daemons[k].snapshot(interactive)
                        if r >= 3:
                            samples[k].append(s)
                view = "interactive" if interactive else "full"
                print(f"\nlarge-5k.html, {view} snapshot ({args.reps} rounds; medians)")
                print("| binary | wall ms | daemon CPU ms | minor faults | answer bytes |")
                print("|---|---:|---:|---:|---:|")
                for k, v in samples.items():
                    med: list[Any] = [statistics.median(x[i] for x in v) for i in range(4)]
                    print(f"| {k} | {med[0]:.2f} | {med[1]:.2f} | {med[2]:.0f} | {med[3]:.0f} |")
        finally:
            for d in daemons.values():
                d.close()
            server.shutdown()
    return 0


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    """Serves the pages without logging each request."""

    def log_message(self, *a: Any) -> None:
        pass


if __name__ == "__main__":
    sys.exit(main())
