#!/usr/bin/env python3
"""Sessions per machine with the browsers on a grid, and the attach latency through the grid.

    python3 bench/grid_density.py [--bin BINARY] [--sizes 1,10,25] [--json-out FILE]   # make bench-grid

The grid is the open-source Browserless server (npm @browserless.io/browserless, pinned in
package.json; started by python/tests/grid/browserless.mjs on 127.0.0.1 with Debian's Chromium,
offline), which gives every WebSocket connection a fresh browser and wants a token. For each size
N the script starts N CLI sessions, each attached with `--cdp ws://127.0.0.1:PORT/?token=…`, and
reports per session:

  attach     time of the session's first command (`open` of a local page: the daemon starts,
             attaches, the grid starts a browser, the page loads), median over the N sessions
  daemon     the daemon's RSS and PSS (smaps_rollup), median; the browser is the grid's, not here

The reference, measured in the same run: the same first command attached to a plain local
Chromium (`--cdp ws://127.0.0.1:PORT/devtools/browser/…`, started by this script, shared by the
sessions), and a session that launches its own Chromium (daemon + browser tree PSS), i.e. what a
session costs on this machine without a grid. Ratios are grid / reference.

On one machine the grid's browsers run here too: the figures separate the daemon (what stays on
the agent's machine) from the browsers (what the grid carries).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import secrets
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from procs import MARK, memory_kib, sweep, tree_pss_kib  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
GRID_SCRIPT = REPO / "python" / "tests" / "grid" / "browserless.mjs"
PAGE = b"<!doctype html><title>Grid bench</title><h1>hello</h1><button>Go</button>"
#: Below this much available memory (KiB) no further size starts.
MIN_AVAILABLE_KIB = 3 * 1024 * 1024


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def available_kib() -> int:
    for line in Path("/proc/meminfo").read_text().splitlines():
        if line.startswith("MemAvailable:"):
            return int(line.split()[1])
    return 0


class Page(BaseHTTPRequestHandler):
    def do_GET(self) -> None:  # noqa: N802 (http.server API)
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(PAGE)))
        self.end_headers()
        self.wfile.write(PAGE)

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002
        pass


class Cli:
    """CLI sessions in a private socket directory, marked with the run's id."""

    def __init__(self, binary: str, run_id: str, sockets: Path) -> None:
        self.binary = binary
        self.env = {**os.environ, MARK: run_id, "AGENTBROWSER_SOCKET_DIR": str(sockets)}
        for k in ("AGENTBROWSER_CDP", "AGENTBROWSER_CDP_HEADERS"):
            self.env.pop(k, None)

    def run(self, session: str, *args: str, timeout: float = 120) -> dict[str, Any]:
        done = subprocess.run(
            [self.binary, "--session", session, "--json", *args],
            capture_output=True,
            text=True,
            timeout=timeout,
            env=self.env,
        )
        try:
            out: dict[str, Any] = json.loads(done.stdout)
        except ValueError as exc:
            raise RuntimeError(f"{args}: no JSON answer: {done.stdout!r} {done.stderr!r}") from exc
        if not out.get("success"):
            raise RuntimeError(f"{args}: {out.get('code')}: {out.get('error')}")
        return out

    def first_command(self, session: str, cdp: str | None, url: str) -> float:
        """Seconds of a fresh session's first command (`open url`), attached to `cdp` or launching."""
        attach = ["--cdp", cdp] if cdp else []
        t0 = time.perf_counter()
        self.run(session, *attach, "open", url)
        return time.perf_counter() - t0

    def daemon_pid(self, session: str) -> int:
        pid: int = self.run(session, "status")["data"]["pid"]
        return pid

    def close(self, session: str) -> None:
        subprocess.run([self.binary, "--session", session, "close"], capture_output=True, timeout=60, env=self.env)


class Browserless:
    """The grid, in its own process group."""

    def __init__(self, run_id: str, scratch: Path, concurrent: int) -> None:
        if not (REPO / "node_modules" / "@browserless.io" / "browserless").is_dir():
            raise SystemExit("node_modules/@browserless.io/browserless is missing: run scripts/setup.sh (npm ci)")
        self.token = secrets.token_hex(12)
        self.port = free_port()
        env = {
            **os.environ,
            MARK: run_id,
            "PORT": str(self.port),
            "TOKEN": self.token,
            "GRID_DIR": str(scratch / "grid"),
            "CONCURRENT": str(concurrent),
            "QUEUED": str(concurrent),
            "DEBUG": "-*",
        }
        self.proc = subprocess.Popen(
            ["node", str(GRID_SCRIPT)], cwd=REPO, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
        )
        ready = threading.Event()
        log: list[str] = []

        def read() -> None:
            assert self.proc.stdout is not None
            for line in self.proc.stdout:
                log.append(line)
                if line.startswith("READY"):
                    ready.set()

        threading.Thread(target=read, daemon=True).start()
        if not ready.wait(120):
            self.proc.kill()
            raise SystemExit("Browserless did not start within 120 s:\n" + "".join(log[-30:]))

    def url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/?token={self.token}"

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(20)
        except subprocess.TimeoutExpired:
            self.proc.kill()


def local_chromium(run_id: str, scratch: Path) -> tuple[subprocess.Popen[str], str]:
    """A plain Chromium with --remote-debugging-port=0 and its ws:// URL."""
    exe = shutil.which("chromium") or "/usr/bin/chromium"
    flags = [
        "--headless", "--no-sandbox", "--remote-debugging-port=0", f"--user-data-dir={scratch / 'ref-profile'}",
        "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run",
        "--disable-gpu", "--no-default-browser-check", "--disable-default-apps", "--disable-breakpad",
        "--metrics-recording-only", "--password-store=basic", "--use-mock-keychain", "about:blank",
    ]
    proc = subprocess.Popen(
        [exe, *flags], env={**os.environ, MARK: run_id}, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True
    )
    assert proc.stderr is not None
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        line = proc.stderr.readline()
        m = re.match(r"DevTools listening on (ws://\S+)", line)
        if m:
            threading.Thread(target=lambda: [None for _ in proc.stderr or ()], daemon=True).start()
            return proc, m.group(1)
    proc.kill()
    raise SystemExit("the reference Chromium printed no DevTools URL within 60 s")


def median(xs: list[float]) -> float:
    return statistics.median(xs) if xs else float("nan")


def measure(cli: Cli, cdp: str, prefix: str, n: int, url: str) -> dict[str, Any]:
    """N sessions attached to `cdp`, started one after another: first-command times and daemon memory."""
    sessions = [f"{prefix}{i}" for i in range(n)]
    times, rss, pss = [], [], []
    try:
        for s in sessions:
            times.append(cli.first_command(s, cdp, url))
        for s in sessions:
            r, p = memory_kib(cli.daemon_pid(s))
            rss.append(r)
            pss.append(p)
    finally:
        for s in sessions:
            cli.close(s)
    return {
        "n": n,
        "attach_ms_median": median(times) * 1000,
        "attach_ms": [t * 1000 for t in times],
        "daemon_rss_kib_median": median([float(x) for x in rss]),
        "daemon_pss_kib_median": median([float(x) for x in pss]),
        "daemon_pss_kib_total": sum(pss),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bin", default=str(REPO / "target" / "release" / "agentbrowser"))
    ap.add_argument("--sizes", default="1,10,25")
    ap.add_argument("--json-out")
    args = ap.parse_args()
    sizes = [int(x) for x in args.sizes.split(",")]
    run_id = secrets.token_hex(6)
    scratch = Path(tempfile.mkdtemp(prefix="ab-grid-bench-"))
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Page)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{httpd.server_address[1]}/"
    cli = Cli(args.bin, run_id, scratch / "sockets")
    grid = Browserless(run_id, scratch, max(sizes) + 2)
    ref_proc, ref_ws = local_chromium(run_id, scratch)
    results: dict[str, Any] = {"binary": args.bin, "sizes": {}}
    try:
        # Reference 1: attach to the local plain Chromium (same number of sessions as the smallest size... and 10).
        results["local_attach"] = measure(cli, ref_ws, "ref", min(10, max(sizes)), url)
        # Reference 2: a session that launches its own Chromium (daemon + browser on this machine).
        launch_ms = cli.first_command("own", None, url) * 1000
        daemon = cli.daemon_pid("own")
        own_pss, procs = tree_pss_kib(daemon)
        results["own_browser"] = {"first_command_ms": launch_ms, "tree_pss_kib": own_pss, "processes": procs,
                                  "daemon_pss_kib": memory_kib(daemon)[1]}
        cli.close("own")
        for n in sizes:
            if available_kib() < MIN_AVAILABLE_KIB:
                print(f"stopping before N={n}: less than {MIN_AVAILABLE_KIB // 1024} MiB available", file=sys.stderr)
                break
            results["sizes"][str(n)] = measure(cli, grid.url(), f"g{n}-", n, url)
            print(f"N={n} done", file=sys.stderr)
    finally:
        grid.stop()
        ref_proc.kill()
        httpd.shutdown()
        left = sweep(run_id)
        shutil.rmtree(scratch, ignore_errors=True)
        if left:
            print(f"swept {len(left)} leftover processes", file=sys.stderr)
    ref = results["local_attach"]
    own = results["own_browser"]
    lines = [
        f"binary: {args.bin}",
        f"reference: attach to a local ws:// Chromium, {ref['n']} sessions: first command median "
        f"{ref['attach_ms_median']:.0f} ms, daemon RSS {ref['daemon_rss_kib_median'] / 1024:.1f} MiB, "
        f"PSS {ref['daemon_pss_kib_median'] / 1024:.1f} MiB",
        f"reference: a session launching its own Chromium: first command {own['first_command_ms']:.0f} ms, "
        f"daemon + browser PSS {own['tree_pss_kib'] / 1024:.1f} MiB ({own['processes']} processes), daemon alone "
        f"{own['daemon_pss_kib'] / 1024:.1f} MiB",
        "",
        "| sessions on the grid | attach (first command) median | ratio to local attach | daemon RSS / session | daemon PSS / session | PSS of all daemons | PSS per session vs own browser |",
        "|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for n, r in results["sizes"].items():
        lines.append(
            f"| {n} | {r['attach_ms_median']:.0f} ms | {r['attach_ms_median'] / ref['attach_ms_median']:.2f}x | "
            f"{r['daemon_rss_kib_median'] / 1024:.1f} MiB | {r['daemon_pss_kib_median'] / 1024:.1f} MiB | "
            f"{r['daemon_pss_kib_total'] / 1024:.1f} MiB | {r['daemon_pss_kib_median'] / own['tree_pss_kib']:.3f}x |"
        )
    print("\n".join(lines))
    if args.json_out:
        Path(args.json_out).write_text(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
