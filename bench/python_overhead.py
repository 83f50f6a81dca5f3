#!/usr/bin/env python3
"""Python SDK overhead: median ``page.title()`` round trip and median ``import agentbrowser`` time.

Usage (from the repository root; uses $AGENTBROWSER_BIN, else
target/release/agentbrowser, else target/debug/agentbrowser):

    python bench/python_overhead.py [--calls 2000] [--imports 15] [--baseline HEAD~1] [--imports-only]

It reports, in the same run:
  * the median of ``page.title()`` over N calls (target <= 1.0 ms), next to the median
    of the bare native round trip (``browser.native.execute("title")``) and of a raw
    JSON line written to ``agentbrowser serve --stdio`` by hand, so the SDK's own share
    is visible;
  * the median import times of ``import agentbrowser`` (target <= 100 ms) and of
    ``from agentbrowser import Browser`` in fresh interpreters, by ``-X importtime`` and as wall
    clock minus ``python -c pass``, bytecode precompiled as an installed package would have it;
    with ``--baseline REV`` the same for commit REV's ``python/``, alternated round by round.
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
import tempfile
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

    browser = Browser()
    browser._bind(Instant(), None, LaunchOptions())  # type: ignore[arg-type]
    for _ in range(1000):
        browser.page.title()
    samples = []
    for _ in range(5):
        t0 = time.perf_counter()
        for _ in range(n):
            browser.page.title()
        samples.append((time.perf_counter() - t0) / n)
    return statistics.median(samples)


#: What a program's first line costs: the package alone, then the client most programs take.
IMPORTS = ("import agentbrowser", "from agentbrowser import Browser")


def python_tree(rev: str | None) -> Path:
    """The ``python/`` directory of this checkout (``rev`` None) or of commit ``rev``, compiled."""
    if rev is None:
        root = REPO / "python"
    else:
        root = Path(tempfile.mkdtemp(prefix="ab-import-")) / "python"
        root.parent.mkdir(exist_ok=True)
        archive = subprocess.run(["git", "archive", rev, "python"], cwd=REPO, check=True, capture_output=True).stdout
        subprocess.run(["tar", "x", "-C", str(root.parent)], input=archive, check=True)
    compileall.compile_dir(str(root / "agentbrowser"), quiet=1)
    return root


def bench_import(n: int, baseline: str | None) -> None:
    """Median import times of this tree (and of ``baseline``'s, alternated round by round):
    ``-X importtime``'s cumulative figure for the package, and wall clock minus ``python -c pass``."""
    trees = {"this tree": python_tree(None)}
    if baseline is not None:
        short = _short(baseline)
        trees[baseline if short == baseline else f"{baseline} ({short})"] = python_tree(baseline)

    def env_for(root: Path) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        env["PYTHONPATH"] = str(root)
        return env

    def wall(code: str, root: Path) -> float:
        t0 = time.perf_counter()
        subprocess.run([sys.executable, "-c", code], env=env_for(root), check=True)
        return time.perf_counter() - t0

    def importtime(code: str, root: Path) -> float:
        done = subprocess.run(
            [sys.executable, "-X", "importtime", "-c", code], env=env_for(root), check=True, capture_output=True, text=True
        )
        total = 0
        for line in done.stderr.splitlines():
            parts = [p.strip() for p in line.split("|")]
            # Top-level entries (no indentation) that belong to the package: the package and what
            # its lazy attributes imported.
            if len(parts) == 3 and parts[2].startswith("agentbrowser") and line.split("|")[2][1:2] != " ":
                total += int(parts[1])
        return total / 1e6

    samples: dict[tuple[str, str, str], list[float]] = {}
    for root in trees.values():
        wall("import agentbrowser", root)  # warm the file cache
    for _ in range(n):
        for name, root in trees.items():
            samples.setdefault((name, "pass", "wall"), []).append(wall("pass", root))
            for code in IMPORTS:
                samples.setdefault((name, code, "wall"), []).append(wall(code, root))
                samples.setdefault((name, code, "importtime"), []).append(importtime(code, root))
    med = {k: statistics.median(v) for k, v in samples.items()}
    print(f"imports: medians of {n} fresh interpreters a row (python -c pass: {med[('this tree', 'pass', 'wall')] * 1000:.1f} ms)")
    print("| statement | tree | -X importtime | wall minus pass |")
    print("|---|---|---|---|")
    for code in IMPORTS:
        for name in trees:
            it = med[(name, code, "importtime")] * 1000
            w = (med[(name, code, "wall")] - med[(name, "pass", "wall")]) * 1000
            print(f"| `{code}` | {name} | {it:.1f} ms | {w:.1f} ms |")
    if baseline is not None:
        base = next(name for name in trees if name != "this tree")
        for code in IMPORTS:
            ratio = med[("this tree", code, "importtime")] / med[(base, code, "importtime")]
            print(f"`{code}`: this tree / {base} = {ratio:.2f}x (-X importtime; target for the package: <= 100 ms)")


def _short(rev: str) -> str:
    return subprocess.run(["git", "rev-parse", "--short", rev], cwd=REPO, capture_output=True, text=True).stdout.strip()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=2000)
    parser.add_argument("--imports", type=int, default=15)
    parser.add_argument("--baseline", metavar="REV", help="also time the imports of commit REV's python/ (e.g. HEAD~1)")
    parser.add_argument("--imports-only", action="store_true", help="only the import times (no browser)")
    args = parser.parse_args()

    bench_import(args.imports, args.baseline)
    if args.imports_only:
        return
    print(f"binary: {os.environ['AGENTBROWSER_BIN']}")
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
