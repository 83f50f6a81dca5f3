#!/usr/bin/env python3
"""The in-page snapshot script of this checkout against another revision's, in one headless Chromium.

    python3 bench/snapshot_script.py compare [--rev main]     # identical answers on every fixture?
    python3 bench/snapshot_script.py time [--rev main] [--reps 20] [--pages large-5k.html,large-1k.html]

`compare` loads every fidelity fixture (crates/engine/tests/fixtures/fidelity) and the bench's large
pages, installs both scripts in two isolated worlds of the page, and runs `__ab.snapshot` with seven
option sets (interactive, full, compact, budgets, urls with a depth, a selector): text, refs, frames,
omitted counts and the next ref must be the same (exit status 1 when any differs). `time` runs both
scripts and the CDP floor's one-pass walk (bench/floor, in the page's main world like the floor)
round-robin and reports, per page and view, the medians of the script's own time in the page
(`performance.now()`), the CDP round trip (Runtime.evaluate, the answer returned by value) and the
renderer main thread's CPU time over the call (/proc/<tid>/schedstat): on a loaded machine the CPU
time is the figure that still compares. No engine, daemon or Rust is involved: this isolates the
page script and its answer's transfer.
"""

from __future__ import annotations

import argparse
import asyncio
import difflib
import http.server
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any

import websockets

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "bench"))
import pages  # noqa: E402

FIXTURES = REPO / "crates" / "engine" / "tests" / "fixtures" / "fidelity"
SCRIPT_DIR = "crates/engine/src/js/snapshot"
OPTION_SETS: list[dict[str, Any]] = [
    {"interactive": True},
    {"interactive": False},
    {"interactive": False, "compact": True},
    {"interactive": True, "maxBytes": 3000},
    {"interactive": False, "maxBytes": 5000},
    {"interactive": True, "urls": True, "maxDepth": 3},
    {"interactive": False, "selector": "body > *:nth-child(2)"},
]


def script_here() -> str:
    return "".join(p.read_text() for p in sorted((REPO / SCRIPT_DIR).glob("*.js")))


def script_at(rev: str) -> str:
    names = subprocess.check_output(["git", "-C", str(REPO), "ls-tree", "--name-only", rev, SCRIPT_DIR + "/"], text=True).split()
    return "".join(subprocess.check_output(["git", "-C", str(REPO), "show", f"{rev}:{n}"], text=True) for n in sorted(names))


def floor_walk() -> str:
    src = (REPO / "bench" / "floor" / "src" / "main.rs").read_text()
    m = re.search(r'const SNAPSHOT_JS: &str = r#"(.*?)"#;', src, re.S)
    if not m:
        raise SystemExit("the floor's SNAPSHOT_JS was not found")
    return m.group(1)


def unpack(answer: dict[str, Any]) -> dict[str, Any]:
    """The page's answer as one structure: the one-string form (head line, ref lines, text) is split."""
    v = answer.get("value")
    if not isinstance(v, str):
        return answer
    head, rest = v.split("\n", 1)
    h = json.loads(head)
    refs = []
    for _ in range(h.pop("refs")):
        line, rest = rest.split("\n", 1)
        refs.append(line.split("\t", 2))
    return dict(answer, value=dict(h, text=rest, refs=refs))


class Handler(http.server.SimpleHTTPRequestHandler):
    """The fixtures, and the bench's large pages by name."""

    def __init__(self, *a: Any, **k: Any) -> None:
        super().__init__(*a, directory=str(FIXTURES), **k)

    def do_GET(self) -> None:  # noqa: N802
        name = self.path.lstrip("/")
        if name in pages.LARGE or name == "session-5k.html":
            body = pages.large_page(pages.LARGE.get(name, 1.0), form=name.startswith("session"))[0].encode()
            self.send_response(200)
            self.send_header("content-type", "text/html; charset=utf-8")
            self.send_header("content-length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return
        super().do_GET()

    def log_message(self, *a: Any) -> None:
        pass


class Browser:
    """A headless Chromium and a CDP connection to its page."""

    async def __aenter__(self) -> "Browser":
        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.base = f"http://127.0.0.1:{self.server.server_address[1]}/"
        self.profile = tempfile.mkdtemp(prefix="ab-snapshot-script-")
        self.proc = subprocess.Popen(
            [os.environ.get("BENCH_CHROMIUM", "/usr/bin/chromium"), "--headless", "--no-sandbox", "--disable-gpu",
             "--no-first-run", "--disable-background-networking", "--remote-debugging-port=0",
             f"--user-data-dir={self.profile}", "about:blank"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        port_file = Path(self.profile) / "DevToolsActivePort"
        deadline = time.monotonic() + 30
        while not (port_file.exists() and len(port_file.read_text().split("\n")) >= 2):
            if time.monotonic() > deadline:
                raise SystemExit("Chromium did not start")
            await asyncio.sleep(0.05)
        port = port_file.read_text().split("\n")[0]
        targets = json.load(urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list", timeout=10))
        url = next(t["webSocketDebuggerUrl"] for t in targets if t["type"] == "page")
        self.ws = await websockets.connect(url, max_size=None)
        self.next_id = 0
        await self.call("Page.enable")
        return self

    async def __aexit__(self, *exc: Any) -> None:
        await self.ws.close()
        self.proc.kill()
        self.proc.wait()
        self.server.shutdown()
        shutil.rmtree(self.profile, ignore_errors=True)

    async def call(self, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
        self.next_id += 1
        me = self.next_id
        await self.ws.send(json.dumps({"id": me, "method": method, "params": params or {}}))
        while True:
            m = json.loads(await asyncio.wait_for(self.ws.recv(), 120))
            if m.get("id") == me:
                if "error" in m:
                    raise RuntimeError(f"{method}: {m['error']}")
                return dict(m["result"])

    async def eval(self, expr: str, context: int | None) -> Any:
        p: dict[str, Any] = {"expression": expr, "returnByValue": True}
        if context is not None:
            p["contextId"] = context
        r = await self.call("Runtime.evaluate", p)
        if "exceptionDetails" in r:
            raise RuntimeError(str(r["exceptionDetails"])[:500])
        return r["result"].get("value")

    async def load(self, name: str, scripts: dict[str, str]) -> dict[str, int]:
        """Opens a page (waits for its load) and installs each script in its own isolated world."""
        await self.call("Page.navigate", {"url": self.base + name})
        # Page.navigate answers once the new document is committed: wait in it for its load event.
        loaded = self.call("Runtime.evaluate", {
            "expression": "document.readyState === 'complete' || new Promise(r => addEventListener('load', () => r(true)))",
            "awaitPromise": True, "returnByValue": True,
        })
        try:
            await asyncio.wait_for(loaded, 30)
        except asyncio.TimeoutError:
            raise SystemExit(f"{name} did not load") from None
        frame = (await self.call("Page.getFrameTree"))["frameTree"]["frame"]["id"]
        worlds = {}
        for tag, src in scripts.items():
            ctx = (await self.call("Page.createIsolatedWorld", {"frameId": frame, "worldName": tag}))["executionContextId"]
            await self.eval(f"globalThis.__ab = ({src}); 0", ctx)
            worlds[tag] = ctx
        return worlds

    def renderer_cpu_ns(self) -> int:
        """CPU time of the renderers' main threads so far."""
        total = 0
        for pid in os.listdir("/proc"):
            if not pid.isdigit():
                continue
            try:
                cmd = Path(f"/proc/{pid}/cmdline").read_text()
                if "--type=renderer" in cmd and self.profile in cmd:
                    total += int(Path(f"/proc/{pid}/task/{pid}/schedstat").read_text().split()[0])
            except OSError:
                continue
        return total


async def compare(rev: str) -> int:
    scripts = {"old": script_at(rev), "new": script_here()}
    names = sorted(p.name for p in FIXTURES.glob("*.html") if not p.name.startswith("_"))
    names += ["large-1k.html", "large-5k.html", "session-5k.html"]
    same = differ = 0
    async with Browser() as b:
        for name in names:
            worlds = await b.load(name, scripts)
            for opts in OPTION_SETS:
                got = {}
                for tag, ctx in worlds.items():
                    o = json.dumps(dict(opts, nextRef=1, pierced=True))
                    got[tag] = unpack(json.loads(await b.eval(f"JSON.stringify(__ab.snapshot({o}))", ctx)))
                    if isinstance(got[tag].get("value"), dict):
                        got[tag]["value"].pop("docToken", None)
                if got["old"] == got["new"]:
                    same += 1
                    continue
                differ += 1
                print(f"DIFFERENT: {name} {opts}")
                a, c = got["old"].get("value"), got["new"].get("value")
                if isinstance(a, dict) and isinstance(c, dict):
                    for k in a:
                        if a[k] != c.get(k) and k == "text":
                            for line in list(difflib.unified_diff(a[k].split("\n"), c[k].split("\n"), lineterm="", n=1))[:20]:
                                print("   ", line)
                        elif a[k] != c.get(k):
                            print(f"    {k}: {str(a[k])[:200]} -> {str(c.get(k))[:200]}")
    print(f"{same} of {same + differ} answers identical ({rev} and this checkout)")
    return 0 if differ == 0 else 1


async def timing(rev: str, reps: int, page_names: list[str]) -> int:
    scripts = {rev: script_at(rev), "this checkout": script_here()}
    walk = floor_walk()
    async with Browser() as b:
        for name in page_names:
            worlds: dict[str, int | None] = dict(await b.load(name, scripts))
            worlds["CDP floor walk"] = None
            for interactive in (True, False):
                flag = "true" if interactive else "false"
                samples: dict[str, list[tuple[float, float, float]]] = {k: [] for k in worlds}
                for r in range(reps + 2):
                    order = list(worlds)[r % len(worlds):] + list(worlds)[: r % len(worlds)]
                    for k in order:
                        if worlds[k] is None:
                            call = f"({walk})({flag})"
                        else:
                            call = f"__ab.snapshot({{interactive: {flag}, maxBytes: 100000, nextRef: 1}})"
                        expr = f"(() => {{ const t = performance.now(); const v = {call}; return [performance.now() - t, v]; }})()"
                        c0, t0 = b.renderer_cpu_ns(), time.perf_counter()
                        v = await b.eval(expr, worlds[k])
                        t1, c1 = time.perf_counter(), b.renderer_cpu_ns()
                        if r >= 2:  # two warm-up rounds
                            samples[k].append((v[0], (t1 - t0) * 1000, (c1 - c0) / 1e6))
                med = {k: [statistics.median(s[i] for s in v) for i in range(3)] for k, v in samples.items()}
                floor = med["CDP floor walk"]
                print(f"\n{name}, {'interactive' if interactive else 'full'} ({reps} rounds; ms, medians; ratio to the floor walk)")
                print("| script | in the page | round trip | renderer CPU |")
                print("|---|---:|---:|---:|")
                for k, (inpage, rt, cpu) in med.items():
                    print(f"| {k} | {inpage:.2f} | {rt:.2f} ({rt / floor[1]:.2f}x) | {cpu:.2f} ({cpu / floor[2]:.2f}x) |")
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("mode", choices=("compare", "time"))
    ap.add_argument("--rev", default="main", help="the revision to compare with (default main)")
    ap.add_argument("--reps", type=int, default=20, help="time: rounds after two warm-up rounds (default 20)")
    ap.add_argument("--pages", default="large-5k.html,large-1k.html", help="time: bench pages (default large-5k.html,large-1k.html)")
    args = ap.parse_args()
    if args.mode == "compare":
        return asyncio.run(compare(args.rev))
    return asyncio.run(timing(args.rev, args.reps, args.pages.split(",")))


if __name__ == "__main__":
    sys.exit(main())
