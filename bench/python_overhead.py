#!/usr/bin/env python3
"""Python SDK overhead: median ``page.title()`` round trip and median ``import agentbrowser`` time.

Usage (from the repository root; uses $AGENTBROWSER_BIN, else
target/release/agentbrowser, else target/debug/agentbrowser):

    python bench/python_overhead.py [--calls 2000] [--imports 15]

It reports, in the same run:
  * the median of ``page.title()`` over N calls (target <= 1.0 ms), next to the median
    of the bare native round trip (``browser.native.execute("title")``) and of a raw
    JSON line written to ``agentbrowser serve --stdio`` by hand, so the SDK's own share
    is visible;
  * the median import time of ``agentbrowser`` in a fresh interpreter (target < 150 ms),
    as ``python -c 'import agentbrowser'`` minus ``python -c pass``, bytecode precompiled
    as an installed package would have it.
Timings are reported, never asserted.
"""

from __future__ import annotations

import argparse
import compileall
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "python"))
if "AGENTBROWSER_BIN" not in os.environ:
    _release = REPO / "target" / "release" / "agentbrowser"
    _debug = REPO / "target" / "debug" / "agentbrowser"
    os.environ["AGENTBROWSER_BIN"] = str(_release if _release.exists() else _debug)

PAGE = "data:text/html,<title>bench</title><p>hello</p>"


def ms(values: list[float]) -> str:
    return f"{statistics.median(values) * 1000:.3f} ms"


def bench_calls(n: int) -> dict[str, float]:
    from agentbrowser import Browser

    results: dict[str, float] = {}
    with Browser.launch() as browser:
        browser.page.open(PAGE)
        for _ in range(50):  # warm up
            browser.page.title()
        title, native = [], []
        for _ in range(n):  # interleaved, so drift in machine load hits both alike
            t0 = time.perf_counter()
            browser.page.title()
            t1 = time.perf_counter()
            browser.native.execute("title")
            t2 = time.perf_counter()
            title.append(t1 - t0)
            native.append(t2 - t1)
        results["title"] = statistics.median(title)
        results["native"] = statistics.median(native)

    # Reference: the same request written by hand to the daemon, no SDK at all.
    proc = subprocess.Popen(
        [os.environ["AGENTBROWSER_BIN"], "serve", "--stdio"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        bufsize=0,
    )
    assert proc.stdin is not None and proc.stdout is not None
    rfile = proc.stdout

    def raw(obj: dict[str, object]) -> None:
        proc.stdin.write(json.dumps(obj).encode() + b"\n")  # type: ignore[union-attr]
        rfile.readline()

    raw({"id": 0, "action": "open", "url": PAGE})
    for i in range(50):
        raw({"id": i, "action": "title"})
    samples = []
    for i in range(n):
        t0 = time.perf_counter()
        raw({"id": i, "action": "title"})
        samples.append(time.perf_counter() - t0)
    results["raw"] = statistics.median(samples)
    proc.stdin.close()
    proc.wait(30)
    return results


def bench_sdk_cpu(n: int) -> float:
    """Seconds of Python work per ``page.title()`` with an instant in-process transport."""
    from agentbrowser import Browser, LaunchOptions

    answer = json.dumps({"id": 1, "action": "title", "success": True, "data": {"title": "bench"}})

    class Instant:
        def next_id(self) -> int:
            return 1

        def request(self, payload: dict[str, object], deadline_s: float) -> dict[str, object]:
            json.dumps(payload)
            return json.loads(answer)  # type: ignore[no-any-return]

        def close(self) -> None:
            pass

    browser = Browser(Instant(), options=LaunchOptions(), process=None, session=None)  # type: ignore[arg-type]
    for _ in range(1000):
        browser.page.title()
    samples = []
    for _ in range(5):
        t0 = time.perf_counter()
        for _ in range(n):
            browser.page.title()
        samples.append((time.perf_counter() - t0) / n)
    return statistics.median(samples)


def bench_import(n: int) -> tuple[float, float, float]:
    """Median import time: by ``-X importtime`` (cumulative, in-process) and by wall clock minus ``pass``."""
    compileall.compile_dir(str(REPO / "python" / "agentbrowser"), quiet=1)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPATH"] = str(REPO / "python")

    def run(code: str) -> float:
        t0 = time.perf_counter()
        subprocess.run([sys.executable, "-c", code], env=env, check=True)
        return time.perf_counter() - t0

    def importtime() -> float:
        done = subprocess.run(
            [sys.executable, "-X", "importtime", "-c", "import agentbrowser"],
            env=env,
            check=True,
            capture_output=True,
            text=True,
        )
        for line in done.stderr.splitlines():
            parts = [p.strip() for p in line.split("|")]
            if len(parts) == 3 and parts[2] == "agentbrowser":
                return int(parts[1]) / 1e6
        raise RuntimeError("no importtime line for agentbrowser")

    run("import agentbrowser")
    measured = [importtime() for _ in range(n)]
    base = [run("pass") for _ in range(n)]
    full = [run("import agentbrowser") for _ in range(n)]
    wall = statistics.median(full) - statistics.median(base)
    return statistics.median(measured), wall, statistics.median(base)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=2000)
    parser.add_argument("--imports", type=int, default=15)
    args = parser.parse_args()

    print(f"binary: {os.environ['AGENTBROWSER_BIN']}")
    imp, wall, base = bench_import(args.imports)
    print(f"import agentbrowser:  median {imp * 1000:.1f} ms over {args.imports} runs (-X importtime; target < 150 ms)")
    print(f"  wall clock: {wall * 1000:.1f} ms more than `python -c pass` ({base * 1000:.1f} ms)")
    r = bench_calls(args.calls)
    print(f"page.title():         median {r['title'] * 1000:.3f} ms over {args.calls} calls (target <= 1.0 ms)")
    print(f"native.execute:       median {r['native'] * 1000:.3f} ms")
    print(f"raw JSON line (no SDK): median {r['raw'] * 1000:.3f} ms")
    print(
        f"SDK share of title(): {(r['title'] - r['raw']) * 1000:.3f} ms (ratio title/raw {r['title'] / r['raw']:.2f})"
    )
    cpu = bench_sdk_cpu(args.calls)
    print(f"SDK Python work per title() (instant transport, no I/O): {cpu * 1e6:.1f} us")


if __name__ == "__main__":
    main()
