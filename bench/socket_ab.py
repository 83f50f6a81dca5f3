#!/usr/bin/env python3
"""Two agentbrowser binaries side by side, set up the same way: each on a session of its own
(its daemon and Chromium, no other client), spoken to through the daemon's Unix socket, the
rows interleaved round by round so load changes hit both alike. A change's cost is the ratio of
the medians (this / baseline).

    python3 bench/socket_ab.py --baseline target/baseline/6b5a66a/agentbrowser [--rounds 15] [--n 50]

`bench/run.sh --baseline` makes the same like-for-like pair (`this / baseline`) over its own rows;
this script is the quick check of the five rows a command's cost shows in.

`--pace MS` leaves MS of idle time after each call (untimed), as an agent thinking between
commands does: work a command leaves running after its answer (a trace's screenshot) then
costs the next command nothing, as it does in use; back to back (the default) it does.

`--record WxH` runs this side with a video recording of that size (its screencast and ffmpeg).

`--trace` runs this side with a trace recording (`trace_start`, `--trace screenshots`: with
screencast frames, `--trace snapshots`: with the recorder's snapshot after every step) for the
whole run, written to a temporary file at the end and its counts
printed: with `--baseline` the same binary, the ratios are the trace's cost (issue 38; the trace
off, its rows must stay within 1.03):

    python3 bench/socket_ab.py --baseline target/release/agentbrowser --trace [screenshots|snapshots]

Rows (the form page of bench/pages.py, served on 127.0.0.1): `title`, `eval document.title`,
an interactive `snapshot`, `click` of the submit button (read back by the page's own welcome
text), `fill` of the email field (read back by its value). Prints medians in milliseconds per
call and the ratios.
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
import threading
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))
import pages  # noqa: E402

REPO = Path(__file__).resolve().parent.parent


class Daemon:
    """One binary's session, spoken to on its socket."""

    def __init__(self, binary: Path, session: str, url: str) -> None:
        self.binary, self.session = binary, session
        self.run("open", url)
        status = json.loads(self.run("status", "--json"))
        path = status["data"]["socket"]
        self.sock = socket.socket(socket.AF_UNIX)
        self.sock.connect(path)
        self.reader = self.sock.makefile("rb")
        self.next_id = 0
        snap = self.call({"action": "snapshot", "interactive": True})["data"]
        self.refs = {(r["role"], r.get("name")): ref for ref, r in snap["refs"].items()}

    def run(self, *args: str) -> str:
        done = subprocess.run(
            [str(self.binary), "--session", self.session, *args], capture_output=True, text=True, check=True
        )
        return done.stdout

    def call(self, line: dict[str, Any]) -> dict[str, Any]:
        self.next_id += 1
        self.sock.sendall((json.dumps({"id": self.next_id, **line}) + "\n").encode())
        answer: dict[str, Any] = json.loads(self.reader.readline())
        if not answer.get("success"):
            raise SystemExit(f"{self.binary}: {line['action']} failed: {answer}")
        return answer

    def timed(self, line: dict[str, Any]) -> tuple[float, dict[str, Any]]:
        start = time.perf_counter()
        answer = self.call(line)
        return (time.perf_counter() - start) * 1000, answer

    def close(self) -> None:
        self.sock.close()
        subprocess.run([str(self.binary), "--session", self.session, "close"], capture_output=True, check=False)


def rows(d: Daemon) -> dict[str, list[dict[str, Any]]]:
    """Each row's requests on this daemon (refs are its own)."""
    submit = d.refs[("button", "Sign in")]
    email = d.refs[("textbox", "Email")]
    return {
        "title": [{"action": "title"}],
        "eval document.title": [{"action": "eval", "script": "document.title"}],
        "snapshot (interactive, form)": [{"action": "snapshot", "interactive": True}],
        "click ref": [{"action": "click", "ref": submit}],
        "fill ref": [{"action": "fill", "ref": email, "value": "a@b.c"}],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--baseline", required=True, type=Path, help="the other agentbrowser binary")
    parser.add_argument("--binary", type=Path, default=REPO / "target/release/agentbrowser")
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--n", type=int, default=30, help="calls of each row per round")
    parser.add_argument(
        "--trace",
        nargs="?",
        const="on",
        choices=["on", "screenshots", "snapshots"],
        help="record a trace on this side during the run (screenshots: with screencast frames; "
        "snapshots: with the snapshot after every step)",
    )
    parser.add_argument(
        "--pace",
        type=float,
        default=0.0,
        metavar="MS",
        help="idle time after each call (an agent thinks between commands; untimed)",
    )
    parser.add_argument(
        "--record",
        metavar="WxH",
        help="record a video of this size on this side during the run (its screencast's cost)",
    )
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / "form.html").write_text(pages.FORM)
        handler = lambda *a: pages.QuietHandler(*a, directory=tmp)  # noqa: E731
        server = pages.http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        url = f"http://127.0.0.1:{server.server_address[1]}/form.html"
        tag = f"sab{os.getpid()}"
        sides = {"this": Daemon(args.binary, f"{tag}-this", url), "baseline": Daemon(args.baseline, f"{tag}-base", url)}
        try:
            if args.trace:
                sides["this"].call(
                    {
                        "action": "trace_start",
                        "screenshots": args.trace == "screenshots",
                        "snapshots": args.trace == "snapshots",
                    }
                )
            if args.record:
                video = str(Path(tmp) / "bench.webm")
                w, h = (int(n) for n in args.record.split("x"))
                size = {"width": w, "height": h}
                sides["this"].call({"action": "record_start", "path": video, "size": size})
            plans = {side: rows(d) for side, d in sides.items()}
            medians: dict[str, dict[str, list[float]]] = {row: {s: [] for s in sides} for row in plans["this"]}
            for _ in range(args.rounds):
                for row in medians:
                    for side, d in sides.items():
                        samples = []
                        for _ in range(args.n):
                            for line in plans[side][row]:
                                samples.append(d.timed(line)[0])
                                if args.pace:
                                    time.sleep(args.pace / 1000)
                        medians[row][side].append(statistics.median(samples))
            if args.trace:
                out = sides["this"].call({"action": "trace_stop", "path": str(Path(tmp) / "bench-trace.zip")})
                print(f"trace: {json.dumps(out['data'])}")
            if args.record:
                out = sides["this"].call({"action": "record_stop"})
                print(f"video: {json.dumps(out['data'])}")
        finally:
            for d in sides.values():
                d.close()
            server.shutdown()
    paced = f", {args.pace:g} ms apart" if args.pace else ""
    print(f"| row | this (ms) | baseline (ms) | this / baseline |  ({args.rounds} rounds x {args.n} calls{paced})")
    print("|---|---|---|---|")
    for row, by in medians.items():
        this, base = statistics.median(by["this"]), statistics.median(by["baseline"])
        print(f"| {row} | {this:.3f} | {base:.3f} | {this / base:.2f} |")


if __name__ == "__main__":
    main()
