#!/usr/bin/env python3
"""agentbrowser benchmark: agentbrowser (CLI, batch, raw socket, Python SDK) against a direct-CDP
floor and, when installed, agent-browser and Playwright for Python, side by side in one run.

    bench/run.sh [--quick] [--reps N]      (make bench / make bench-quick)

Generates its pages, serves them on 127.0.0.1, measures every operation round-robin across the
contenders (the starting contender rotates each round, so drift in machine load hits all alike)
after a warm-up, and writes a Markdown table and the raw JSON to bench/out/. Timings are
reported, never asserted; the exit status is non-zero only when agentbrowser or the floor
failed (a peer's failure, or an action the engine does not have yet, is reported, not fatal).
"""

from __future__ import annotations

import argparse
import datetime
import functools
import json
import os
import platform
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import procs  # noqa: E402
import report  # noqa: E402
from contenders import (  # noqa: E402
    AbBatch,
    AbCli,
    AbSdk,
    AbBaseline,
    AbThis,
    AbNoLog,
    AbSocket,
    AgentBrowserBatch,
    AgentBrowserCli,
    CliBase,
    Contender,
    Floor,
    NotAvailable,
    Playwright,
    PYAB_PYTHON,
    PyAgentBrowser,
    Unsupported,
)
from procs import BenchError  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
AB_BIN = REPO / "target" / "release" / "agentbrowser"
FLOOR_BIN = REPO / "target" / "release" / "agentbrowser-bench-floor"
PEER_BIN_DIR = REPO / "bench" / "peers" / "node_modules" / "agent-browser" / "bin"
CHROMIUM = os.environ.get("BENCH_CHROMIUM", "/usr/bin/chromium")
PEER_FLAGS = [
    "--no-sandbox",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-gpu",
]


@dataclass
class Cell:
    """One contender's results for one measurement."""

    samples: list[float] = field(default_factory=list)
    bytes: int | None = None
    refs: int | None = None
    na: str | None = None
    error: str | None = None
    unsupported: bool = False

    def add(self, r: dict[str, Any]) -> None:
        self.samples.extend(r["samples"] if "samples" in r else [r["ms"]])
        self.bytes = r.get("bytes", self.bytes)
        self.refs = r.get("refs", self.refs)

    def summary(self) -> dict[str, Any]:
        out: dict[str, Any] = {"n": len(self.samples), "samples": [round(s, 4) for s in self.samples]}
        if self.samples:
            out |= {
                "median": statistics.median(self.samples),
                "min": min(self.samples),
                "max": max(self.samples),
            }
        for key in ("bytes", "refs", "na", "error"):
            if getattr(self, key) is not None:
                out[key] = getattr(self, key)
        return out


@dataclass
class Measurement:
    id: str
    title: str
    run: Callable[[Contender], dict[str, Any]]
    page: str | None = None  # loaded (untimed) in every browser first
    form: bool = False  # contenders look up the form's refs first (untimed)
    reps: int | None = None
    warmup: int | None = None


def machine() -> dict[str, Any]:
    def first(path: str, prefix: str) -> str:
        try:
            for line in Path(path).read_text().splitlines():
                if line.startswith(prefix):
                    return line.split(":", 1)[1].strip()
        except OSError:
            pass
        return "?"

    def version(argv: list[str]) -> str:
        """The last line a program prints, without its own name."""
        try:
            done = subprocess.run(argv, capture_output=True, text=True, timeout=30)
        except (OSError, subprocess.TimeoutExpired):
            return "?"
        lines = done.stdout.strip().splitlines()
        last = lines[-1] if lines else "?"
        name = Path(argv[0]).name.split("-linux")[0]
        return last.removeprefix(name).strip()

    try:
        import importlib.metadata

        pw = importlib.metadata.version("playwright")
    except Exception:
        pw = None
    git = version(["git", "-C", str(REPO), "rev-parse", "--short", "HEAD"])
    dirty = subprocess.run(["git", "--no-optional-locks", "-C", str(REPO), "status", "--porcelain"], capture_output=True, text=True).stdout
    return {
        "nproc": os.cpu_count(),
        "memory": f"{int(first('/proc/meminfo', 'MemTotal').split()[0]) / 2**20:.1f} GiB",
        "cpu": first("/proc/cpuinfo", "model name"),
        "kernel": platform.release(),
        "python": platform.python_version(),
        "chromium": version([CHROMIUM, "--version"]),
        "agentbrowser": version([str(AB_BIN), "--version"]),
        "agentbrowser_built": datetime.datetime.fromtimestamp(AB_BIN.stat().st_mtime).astimezone().isoformat(timespec="seconds"),
        "agent-browser": version([str(p), "--version"]) if (p := peer_binary()) else None,
        "playwright": pw,
        "commit": git + ("+dirty" if dirty.strip() else ""),
    }


def peer_binary() -> Path | None:
    arch = {"x86_64": "x64", "aarch64": "arm64"}.get(platform.machine(), platform.machine())
    path = PEER_BIN_DIR / f"agent-browser-linux-{arch}"
    return path if path.is_file() else None


def loadavg() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


def mib(kib: int) -> float:
    return round(kib / 1024, 1)


class Run:
    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.quick: bool = args.quick
        self.reps: int = args.reps or (1 if self.quick else 15)
        self.warmup: int = 0 if self.quick else 2
        self.run_id = f"{os.getpid()}x{int(time.time())}"
        self.session = f"bench{os.getpid()}"
        self.tmp = Path(tempfile.mkdtemp(prefix="abbench-"))
        self.contenders: list[Contender] = []
        self.floor: Floor | None = None
        self.server: subprocess.Popen[str] | None = None
        self.base = ""
        self.results: dict[str, Any] = {"measurements": [], "memory": {}, "skipped": {}, "notes": []}
        self.failed = False
        self.cold_counter = iter(range(10**6))

    def log(self, msg: str) -> None:
        print(msg, file=sys.stderr, flush=True)

    # -- setup -------------------------------------------------------------------------------

    def environment(self) -> None:
        for sub in ("tmp", "ab", "peer", "pages"):
            (self.tmp / sub).mkdir(mode=0o700)
        py = str(REPO / "python")
        os.environ.update(
            {
                procs.MARK: self.run_id,
                "TMPDIR": str(self.tmp / "tmp"),
                "AGENTBROWSER_SOCKET_DIR": str(self.tmp / "ab"),
                "AGENTBROWSER_EXECUTABLE_PATH": CHROMIUM,
                "AGENTBROWSER_IDLE_TIMEOUT": "1200000",
                "AGENTBROWSER_BIN": str(AB_BIN),
                "AGENT_BROWSER_SOCKET_DIR": str(self.tmp / "peer"),
                "AGENT_BROWSER_EXECUTABLE_PATH": CHROMIUM,
                "AGENT_BROWSER_ARGS": ",".join(PEER_FLAGS),
                "AGENT_BROWSER_IDLE_TIMEOUT_MS": "1200000",
                "BENCH_CHROMIUM": CHROMIUM,
                "PYTHONPATH": py + (os.pathsep + os.environ["PYTHONPATH"] if os.environ.get("PYTHONPATH") else ""),
            }
        )

    def serve(self) -> None:
        self.server = subprocess.Popen(
            [sys.executable, str(REPO / "bench" / "pages.py"), "serve", str(self.tmp / "pages")],
            stdout=subprocess.PIPE,
            text=True,
        )
        assert self.server.stdout is not None
        port = self.server.stdout.readline().strip()
        if not port.isdigit():
            raise BenchError("the page server did not start")
        self.base = f"http://127.0.0.1:{port}/"

    def url(self, page: str) -> str:
        return self.base + page

    def start(self) -> None:
        self.environment()
        self.results["meta"] = {
            "date": datetime.datetime.now().astimezone().isoformat(timespec="seconds"),
            "command": " ".join(["bench/run.sh", *sys.argv[1:]]),
            "mode": "quick" if self.quick else "full",
            "reps": self.reps,
            "warmup": self.warmup,
            "machine": machine(),
            "loadavg_start": loadavg(),
        }
        self.serve()
        form = self.url("form.html")
        self.log(f"pages on {self.base}; run directory {self.tmp}")

        self.floor = floor = Floor(FLOOR_BIN, CHROMIUM, self.tmp / "tmp")
        floor.open(form)
        cli = AbCli(floor, AB_BIN, self.session)
        cli.open(form)  # starts the session's daemon and its Chromium
        socket = AbSocket(floor, self.tmp / "ab" / f"{self.session}.sock")
        batch = AbBatch(AB_BIN, self.session)
        self.contenders = [socket, batch, cli]
        if self.args.baseline:
            base, this = f"{self.session}-base", f"{self.session}-this"
            self.contenders.append(
                AbBaseline(floor, Path(self.args.baseline), base, self.tmp / "ab" / f"{base}.sock", form)
            )
            self.contenders.append(AbThis(floor, AB_BIN, this, self.tmp / "ab" / f"{this}.sock", form))
        if self.selected("open_5k"):
            nolog = f"{self.session}-nolog"
            self.contenders.append(AbNoLog(floor, AB_BIN, nolog, self.tmp / "ab" / f"{nolog}.sock", form))
        sdk = AbSdk(["sdk", self.session])
        self.add_optional(sdk, "agentbrowser Python SDK")
        self.contenders.append(floor)

        peer = None if self.args.no_peers else peer_binary()
        if self.args.no_peers:
            self.skip("ab-peer", "agent-browser", "--no-peers")
            self.skip("playwright", "Playwright", "--no-peers")
            self.skip("pyab", "pyagentbrowser", "--no-peers")
            return
        if peer is None:
            self.skip("ab-peer", "agent-browser", "not installed (run `make bench-peers`)")
        else:
            ab_cli = AgentBrowserCli(floor, peer, self.session)
            try:
                ab_cli.open(form)
                self.contenders += [ab_cli, AgentBrowserBatch(floor, peer, self.session)]
            except BenchError as exc:
                self.skip("ab-peer", "agent-browser", f"failed to start: {exc}")
        try:
            self.add_optional(Playwright(["playwright"]), "Playwright")
        except (BenchError, ValueError) as exc:
            self.skip("playwright", "Playwright", f"failed to start: {exc}")
        if not PYAB_PYTHON.is_file():
            self.skip("pyab", "pyagentbrowser", "not installed (run `make bench-peers`)")
        else:
            try:
                self.add_optional(PyAgentBrowser(["pyab"]), "pyagentbrowser")
            except (BenchError, ValueError) as exc:
                self.skip("pyab", "pyagentbrowser", f"failed to start: {exc}")

    def add_optional(self, c: Contender, what: str) -> None:
        if c.skip:
            self.skip(c.name, what, c.skip)
        else:
            self.contenders.append(c)

    def skip(self, name: str, what: str, why: str) -> None:
        self.results["skipped"][name] = why
        self.log(f"skipping {what}: {why}")

    # -- measuring ---------------------------------------------------------------------------

    def loaders(self) -> dict[str, Contender]:
        """One contender per browser to load pages with (front ends of one engine share a tab)."""
        out: dict[str, Contender] = {}
        for c in self.contenders:
            if c.browser not in out and type(c).open is not Contender.open:
                out[c.browser] = c
        return out

    def measure(self, m: Measurement) -> None:
        reps = m.reps or self.reps
        warmup = self.warmup if m.warmup is None else m.warmup
        cells: dict[str, Cell] = {}
        if m.page:
            for browser, loader in self.loaders().items():
                try:
                    loader.open(self.url(m.page))
                except Exception as exc:  # noqa: BLE001 - recorded for every contender of that browser
                    for c in self.contenders:
                        if c.browser == browser:
                            cells[c.name] = Cell(error=f"loading {m.page}: {exc}")
                            self.failed |= c.own
        active = []
        for c in self.contenders:
            if c.name not in cells:
                cells[c.name] = Cell()
                if not m.form or self.attempt(c, cells[c.name], c.prepare_form) is not None:
                    active.append(c)
        self.log(f"== {m.title} ({warmup} warm-up, {reps} reps)")
        for rnd in range(warmup + reps):
            k = rnd % max(1, len(active))
            for c in active[k:] + active[:k]:
                cell = cells[c.name]
                if c.rows is not None and m.id not in c.rows:
                    cell.unsupported = True
                if cell.error or cell.na or cell.unsupported:
                    continue
                result = self.attempt(c, cell, functools.partial(m.run, c))
                if result is not None and rnd >= warmup:
                    cell.add(result)
        cells = {n: cell for n, cell in cells.items() if not cell.unsupported}
        for name, cell in cells.items():
            if cell.samples:
                refs = f", {cell.refs} refs" if cell.refs is not None else ""
                extra = f" ({cell.bytes} bytes{refs})" if cell.bytes is not None else ""
                self.log(f"   {name:14} median {statistics.median(cell.samples):10.3f} ms{extra}")
            else:
                self.log(f"   {name:14} {'n/a: ' + str(cell.na) if cell.na else 'FAILED: ' + str(cell.error)}")
        self.results["measurements"].append(
            {"id": m.id, "title": m.title, "results": {n: cell.summary() for n, cell in cells.items()}}
        )

    def attempt(self, c: Contender, cell: Cell, fn: Callable[[], Any]) -> Any:
        """Runs ``fn``; returns its result ({} for None), or None after recording why it did not run."""
        try:
            result = fn()
            return {} if result is None else result
        except Unsupported:
            cell.unsupported = True
        except NotAvailable as exc:
            cell.na = str(exc)
        except Exception as exc:  # noqa: BLE001 - any failure of a contender is recorded, not raised
            cell.error = f"{type(exc).__name__}: {exc}"[:500]
            self.failed |= c.own
        return None

    def memory(self, label: str) -> None:
        seen: dict[str, Any] = {}
        for c in self.contenders:
            if c.browser in seen:
                continue
            try:
                engine, browser = c.engine_pids()
            except Exception as exc:  # noqa: BLE001
                self.log(f"   memory of {c.label}: {exc}")
                continue
            if engine is None and browser is None:
                continue
            row: dict[str, Any] = {}
            if engine:
                rss, pss = procs.memory_kib(engine)
                row |= {"engine_rss_mib": mib(rss), "engine_pss_mib": mib(pss)}
            if browser:
                pss, count = procs.tree_pss_kib(browser)
                row |= {"chromium_pss_mib": mib(pss), "chromium_processes": count}
            seen[c.browser] = row
            self.log(f"   memory {label} {c.browser}: {row}")
        self.results["memory"][label] = seen

    def element_counts(self) -> None:
        counts = {}
        for page in ("large-1k.html", "large-5k.html", "large-20k.html"):
            assert self.floor is not None
            self.floor.open(self.url(page))
            counts[page] = self.floor.call({"op": "eval", "expr": "document.querySelectorAll('*').length"})["value"]
        self.results["meta"]["elements"] = counts

    def measurements(self) -> list[Measurement]:
        burst = 5 if self.quick else 20  # calls a round for the one-call rows
        cold_reps = min(self.reps, 10)
        form = self.url("form.html")

        def only(classes: tuple[type, ...], fn: Callable[[Any], dict[str, Any]]) -> Callable[[Contender], dict[str, Any]]:
            def run(c: Contender) -> dict[str, Any]:
                if not isinstance(c, classes):
                    raise Unsupported
                return fn(c)

            return run

        def eval_title(c: Contender) -> dict[str, Any]:
            return c.eval_title(max(1, burst // 4) if isinstance(c, CliBase) else burst)

        def snap(interactive: bool) -> Callable[[Contender], dict[str, Any]]:
            return lambda c: c.snapshot(interactive)

        def shot(annotate: bool) -> Callable[[Contender], dict[str, Any]]:
            path = self.tmp / "tmp" / f"shot{'-annotated' if annotate else ''}.png"
            return only((Floor, AbSocket), lambda c: c.screenshot(path.with_stem(f"{path.stem}-{c.name}"), annotate))

        M = Measurement
        return [
            M("open", "open form.html (navigate + load)", lambda c: c.open(form)),
            M("open_5k", "open large-5k.html (navigate + load; request log on; compare: ab socket, no request log)", lambda c: c.open(self.url("large-5k.html"))),
            M("open_5k_har", "open large-5k.html while recording HAR (compare: open_5k)", only((AbSocket,), lambda c: c.open_recording_har(self.url("large-5k.html"), self.tmp / "tmp" / f"bench-{c.name}.har")), page="form.html"),
            M("open_5k_route", "open large-5k.html with one route that matches none of its requests (Fetch interception on; compare: open_5k)", only((AbSocket,), lambda c: c.open_with_route(self.url("large-5k.html"))), page="form.html"),
            M("eval_title", "eval document.title, one call", eval_title, page="form.html"),
            M("spawn", "spawn /bin/true (process floor of the CLI rows)", only((Floor,), lambda f: f.spawn(burst))),
            M("titles50", "50 × title", lambda c: c.titles(50)),
            M("snap_form", "interactive snapshot, login form", snap(True), page="form.html"),
            M("click", "click ref + read welcome text", lambda c: c.click(), page="form.html", form=True),
            M("click_noev", "click ref + read, evidence off", only((AbSocket, AbBatch), lambda c: c.click(evidence=False)), page="form.html", form=True),
            M("click_sel", "click CSS selector + read welcome text (compare: click)", only((AbSocket, AbBatch), lambda c: c.click_target("#submit")), page="form.html", form=True),
            M("find_5k", "locator resolution: find role button name 'Button 77', 5k elements", only((AbSocket,), lambda c: c.locate({"by": "role", "value": "button", "name": "Button 77", "exact": True}, 1)), page="large-5k.html"),
            M("fill", "fill 3 fields + submit + read back", lambda c: c.fill(), page="form.html", form=True),
            M("fill_noev", "fill 3 fields + submit + read back, evidence off", lambda c: c.fill(evidence=False), page="form.html", form=True),
            M("snap_1k", "interactive snapshot, 1k elements", snap(True), page="large-1k.html"),
            M("snap_20k", "interactive snapshot, 20k elements", snap(True), page="large-20k.html", reps=max(1, self.reps * 2 // 3)),
            M("snap_5k", "interactive snapshot, 5k elements", snap(True), page="large-5k.html"),
            M("snap_5k_full", "full snapshot, 5k elements", snap(False), page="large-5k.html"),
            M("snap_5k_reach", "interactive snapshot, 5k elements + 50 closed shadow roots + 100 listener-only clickables", snap(True), page="reach-5k.html"),
            M("snap_50k", "interactive snapshot, 50k-cell table (bounded)", only((AbSocket,), lambda c: c.snapshot(True)), page="table-50k.html", reps=max(1, self.reps // 3)),
            M("cover", "click under a stable cover until element_covered", only((AbSocket,), lambda c: c.cover()), page="cover.html", reps=max(1, self.reps // 5), warmup=0),
            M("a11y_5k", "axe-core accessibility audit (every rule, every frame), 5k elements", lambda c: c.a11y(), page="large-5k.html", reps=max(1, self.reps // 3), warmup=min(1, self.warmup)),
            M("axtree_5k", "Accessibility.getFullAXTree, 5k (reference)", only((Floor,), lambda f: f.axtree()), page="large-5k.html", reps=max(1, self.reps // 3), warmup=min(1, self.warmup)),
            M("shot", "screenshot of the viewport (PNG file), form", shot(False), page="form.html"),
            M("shot_annot", "annotated screenshot of the viewport, form", shot(True), page="form.html"),
            M("shot_annot_1k", "annotated screenshot of the viewport, 1k elements", shot(True), page="large-1k.html"),
            M("read_docs", "read the active tab as Markdown: docs page, 600 links, 40 code blocks (CDP floor: outerHTML only)", lambda c: c.read(), page="docs.html"),
            M("cold", "cold start: launch + open form", lambda c: c.cold(form, next(self.cold_counter)), reps=cold_reps, warmup=min(1, self.warmup)),
        ]

    def selected(self, mid: str) -> bool:
        """Whether measurement ``mid`` runs (``--only`` lists it, or there is no ``--only``)."""
        return not self.args.only or mid in self.args.only.split(",")

    def run(self) -> None:
        self.start()
        self.element_counts()
        only = set(self.args.only.split(",")) if self.args.only else None
        for m in self.measurements():
            if only is not None and m.id not in only:
                continue
            if m.id == "eval_title":
                self.memory("form")  # the issue-2 figure: the daemon with one small page open
            if m.id == "cold":
                self.memory("large-5k")  # every browser has the 5k page loaded now
            self.measure(m)
        self.results["meta"]["loadavg_end"] = loadavg()
        self.results["contenders"] = {c.name: {"label": c.label, "browser": c.browser, "own": c.own} for c in self.contenders}
        self.results["import_ms"] = import_time(3 if self.quick else 10)

    # -- teardown ----------------------------------------------------------------------------

    def cleanup(self) -> None:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        for c in reversed(self.contenders):
            if c is self.floor:
                continue
            try:
                c.close()
            except Exception as exc:  # noqa: BLE001
                self.log(f"closing {c.label}: {exc}")
        env = dict(os.environ)
        for sock in (self.tmp / "ab").glob("*.sock"):
            subprocess.run([str(AB_BIN), "--session", sock.stem, "close"], env=env, capture_output=True, timeout=30, check=False)
        peer = peer_binary()
        if peer:
            for sock in (self.tmp / "peer").glob("*.sock"):
                subprocess.run([str(peer), "--session", sock.stem, "close"], env=env, capture_output=True, timeout=30, check=False)
        if self.floor:
            self.floor.close()
        if self.server:
            self.server.terminate()
            try:
                self.server.wait(5)
            except subprocess.TimeoutExpired:
                self.server.kill()
        left = procs.sweep(self.run_id)
        if left:
            self.log(f"killed {len(left)} leftover process(es) of this run")
        shutil.rmtree(self.tmp, ignore_errors=True)


def import_time(n: int) -> float | None:
    """Median ``import agentbrowser`` time in a fresh interpreter (-X importtime, cumulative), ms.

    Measured with bytecode, as an installed package imports: ``PYTHONDONTWRITEBYTECODE`` is dropped
    and the bytecode goes to a scratch ``PYTHONPYCACHEPREFIX`` (written by one import before the
    samples); without it every import compiles the sources (about 0.5 s).
    """
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    cache = tempfile.mkdtemp(prefix="ab-import-pycache-")
    env["PYTHONPYCACHEPREFIX"] = cache
    subprocess.run([sys.executable, "-c", "import agentbrowser"], env=env, capture_output=True, check=False)
    samples = []
    for _ in range(n):
        done = subprocess.run([sys.executable, "-X", "importtime", "-c", "import agentbrowser"], env=env, capture_output=True, text=True, check=False)
        for line in done.stderr.splitlines():
            parts = [p.strip() for p in line.split("|")]
            if len(parts) == 3 and parts[2] == "agentbrowser":
                samples.append(int(parts[1]) / 1000)
    shutil.rmtree(cache, ignore_errors=True)
    return statistics.median(samples) if samples else None


def main() -> int:
    parser = argparse.ArgumentParser(description="agentbrowser benchmark (see bench/README.md)")
    parser.add_argument("--quick", action="store_true", help="one repetition, for CI")
    parser.add_argument("--reps", type=int, default=0, help="repetitions per measurement (default 15; quick 1)")
    parser.add_argument("--no-peers", action="store_true", help="leave out agent-browser and Playwright")
    parser.add_argument("--only", metavar="IDS", help="run only these measurements (comma-separated ids, e.g. click,click_noev)")
    parser.add_argument("--baseline", metavar="BIN", help="another agentbrowser binary (e.g. the previous commit's) measured beside this one")
    args = parser.parse_args()
    for path, hint in ((AB_BIN, "scripts/build-release.sh"), (FLOOR_BIN, "cargo build --release -p agentbrowser-bench-floor")):
        if not path.is_file():
            print(f"missing {path}: run `{hint}` (bench/run.sh does)", file=sys.stderr)
            return 2

    def terminate(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, terminate)
    signal.signal(signal.SIGHUP, terminate)
    run = Run(args)
    try:
        run.run()
    except KeyboardInterrupt:
        run.log("interrupted; cleaning up")
        run.cleanup()
        return 130
    except BaseException:
        run.cleanup()
        raise
    run.cleanup()
    out_dir = REPO / "bench" / "out"
    out_dir.mkdir(exist_ok=True)
    stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
    markdown = report.render(run.results)
    (out_dir / f"results-{stamp}.json").write_text(json.dumps(run.results, indent=1) + "\n")
    (out_dir / f"results-{stamp}.md").write_text(markdown)
    print(markdown)
    print(f"written: bench/out/results-{stamp}.md and .json", file=sys.stderr)
    if run.failed:
        print("FAILED: agentbrowser or the floor failed a measurement (see the table)", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
