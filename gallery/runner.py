"""Runs gallery tasks on engines and judges each one from the app's own state.

The gallery (target/gallery, built by gallery/build.mjs) is served on 127.0.0.1, and a second
time on another port as a second origin for the cross-origin frame. For each task the runner opens
the page, waits until the app says it is ready, reads the task's check (it must be false), runs the
steps, reads the check again, and classifies: the engine claimed ok for every step and the check
holds (success), claimed an error and it does not (honest_failure), claimed ok and it does not
(false_success), claimed an error although it holds (false_failure).

    python3 -m gallery.runner [--engine agentbrowser-cli,agentbrowser-mcp] [--only ID,...] [--out DIR]
"""

from __future__ import annotations

import argparse
import importlib
import inspect
import json
import subprocess
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from gallery.engine_api import Engine, Outcome, Verdict
from gallery.tasks import TASKS, Task

REPO = Path(__file__).resolve().parents[1]
BUNDLE = REPO / "target" / "gallery"

#: Engine name -> "module:Class" (the class's ``name`` attribute is the engine's name).
ENGINES: dict[str, str] = {
    "agentbrowser-cli": "gallery.engines.agentbrowser_cli:AgentbrowserCli",
    "agentbrowser-mcp": "gallery.engines.agentbrowser_mcp:AgentbrowserMcp",
    "agent-browser": "gallery.engines.agent_browser",
    "playwright": "gallery.engines.playwright_engine",
}


def build() -> None:
    """Bundles the gallery (a no-op when it is up to date); raises with esbuild's output on failure."""
    done = subprocess.run(["node", str(REPO / "gallery" / "build.mjs")], capture_output=True, text=True, timeout=300)
    if done.returncode != 0:
        raise RuntimeError(f"gallery build failed:\n{done.stdout}{done.stderr}")


class _Quiet(SimpleHTTPRequestHandler):
    """Serves files without a log line per request."""

    def log_message(self, format: str, *args: Any) -> None:
        pass


@contextmanager
def serve(directory: Path = BUNDLE) -> Iterator[str]:
    """Serves ``directory`` on 127.0.0.1 at a free port; yields the origin."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), partial(_Quiet, directory=str(directory)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


@dataclass
class StepResult:
    """One step as the engine answered it."""

    step: str
    ok: bool
    error: str | None
    seconds: float


@dataclass
class Result:
    """One task on one engine: what the engine claimed, what the app showed, the verdict."""

    task: str
    library: str
    engine: str
    verdict: Verdict
    claimed_ok: bool
    before: bool
    after: bool
    steps: list[StepResult] = field(default_factory=list)
    seconds: float = 0.0
    #: Why the task could not be judged as written (the page never got ready, the check was
    #: already true before the steps): such a result is never a success.
    problem: str | None = None

    def failure(self) -> str:
        """A one-paragraph account of a result that is not a success."""
        lines = [f"{self.task} on {self.engine}: {self.verdict} (check before={self.before}, after={self.after})"]
        lines += [f"  {s.step}: {'ok' if s.ok else 'ERROR ' + str(s.error)}" for s in self.steps]
        if self.problem:
            lines.append(f"  problem: {self.problem}")
        return "\n".join(lines)


def classify(claimed_ok: bool, happened: bool) -> Verdict:
    """The verdict from the engine's claim and the app's state."""
    if claimed_ok:
        return "success" if happened else "false_success"
    return "false_failure" if happened else "honest_failure"


def _truth(engine: Engine, js: str) -> bool:
    """Whether ``js`` holds in the page; a read that fails (the page crashed, the engine broke)
    does not hold."""
    try:
        return bool(engine.eval(f"!!({js})"))
    except Exception:  # an unreadable state is never a success
        return False


def _step(engine: Engine, op: str, *args: Any) -> Outcome:
    """One step; an engine that raises has answered an error."""
    start = time.monotonic()
    try:
        out: Outcome = getattr(engine, op)(*args)
    except Exception as e:  # a crash of the engine is its answer
        return Outcome(False, f"the engine raised {type(e).__name__}: {e}", time.monotonic() - start)
    return out if out.seconds else Outcome(out.ok, out.error, time.monotonic() - start)


def _eventually(cond: Callable[[], bool], seconds: float) -> bool:
    """Whether ``cond`` holds within ``seconds`` (asked every 50 ms, once more at the end)."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if cond():
            return True
        time.sleep(0.05)
    return cond()


def run_task(engine: Engine, task: Task, origin: str, other: str, settle_s: float = 3.0) -> Result:
    """Runs ``task`` on ``engine`` against the gallery at ``origin`` (``other``: the second origin)."""
    start = time.monotonic()
    result = Result(task.id, task.library, engine.name, "honest_failure", False, False, False)
    opened = _step(engine, "open", origin + task.page.replace("{other}", other))
    result.steps.append(StepResult(f"open({task.page!r})", opened.ok, opened.error, opened.seconds))
    if not opened.ok:
        result.seconds = time.monotonic() - start
        return result
    if not _eventually(lambda: _truth(engine, "window.__ready === true"), 15.0):
        result.problem = "the page did not get ready (window.__ready) within 15 s"
        result.seconds = time.monotonic() - start
        return result
    result.before = _truth(engine, task.check)
    claimed = True
    for step in task.steps:
        out = _step(engine, step.op, *step.args)
        result.steps.append(StepResult(str(step), out.ok, out.error, out.seconds))
        if not out.ok:
            claimed = False
            break
    check = partial(_truth, engine, task.check)
    result.after = _eventually(check, settle_s) if task.settle else check()
    result.claimed_ok = claimed
    result.verdict = classify(claimed, result.after and not result.before)
    if result.before:
        result.problem = "the check was already true before the steps"
    result.seconds = time.monotonic() - start
    return result


def load_engine(name: str, spec: str | None = None) -> Engine:
    """A new engine by name (see ENGINES), or by ``module:Class``."""
    spec = spec or ENGINES.get(name) or name
    module_name, _, class_name = spec.partition(":")
    module = importlib.import_module(module_name)
    if class_name:
        cls = getattr(module, class_name)
    else:
        found = [
            c
            for _, c in inspect.getmembers(module, inspect.isclass)
            if c.__module__ == module.__name__ and getattr(c, "name", None) == name
        ]
        if not found:
            raise ValueError(f"{module_name} has no engine class whose name is {name!r}")
        cls = found[0]
    engine: Engine = cls()
    return engine


def run_all(engine: Engine, tasks: list[Task], origin: str, other: str) -> list[Result]:
    """Every task on one engine, in order."""
    return [run_task(engine, t, origin, other) for t in tasks]


def markdown(results: list[Result]) -> str:
    """A task x engine table of verdicts, and each engine's totals."""
    engines = list(dict.fromkeys(r.engine for r in results))
    cell = {(r.task, r.engine): r.verdict.replace("_", " ") for r in results}
    tasks = list(dict.fromkeys((r.library, r.task) for r in results))
    lines = ["| library | task | " + " | ".join(engines) + " |", "|---|---|" + "---|" * len(engines)]
    lines += [f"| {lib} | {t} | " + " | ".join(cell.get((t, e), "") for e in engines) + " |" for lib, t in tasks]
    lines += ["", "| engine | success | honest failure | false success | false failure |", "|---|---|---|---|---|"]
    for e in engines:
        mine = [r.verdict for r in results if r.engine == e]
        counts = [mine.count(v) for v in ("success", "honest_failure", "false_success", "false_failure")]
        lines.append(f"| {e} | " + " | ".join(map(str, counts)) + " |")
    return "\n".join(lines) + "\n"


def write(results: list[Result], out: Path) -> None:
    """``out``/results.json (every step) and ``out``/results.md (the table)."""
    out.mkdir(parents=True, exist_ok=True)
    (out / "results.json").write_text(json.dumps([asdict(r) for r in results], indent=1))
    (out / "results.md").write_text(markdown(results))


def main() -> None:
    """Command line: run the chosen tasks on the chosen engines and write the results."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument(
        "--engine",
        default="agentbrowser-cli,agentbrowser-mcp",
        help=f"comma-separated: {', '.join(ENGINES)} (or module:Class)",
    )
    parser.add_argument("--only", help="comma-separated task ids or libraries")
    parser.add_argument("--out", type=Path, default=REPO / "target" / "gallery-results")
    args = parser.parse_args()
    tasks = TASKS
    if args.only:
        wanted = set(args.only.split(","))
        tasks = [t for t in TASKS if t.id in wanted or t.library in wanted]
        if not tasks:
            parser.error(f"--only {args.only}: no such task id or library")
    build()
    results: list[Result] = []
    with serve() as origin, serve() as other:
        for name in args.engine.split(","):
            engine = load_engine(name)
            try:
                for task in tasks:
                    r = run_task(engine, task, origin, other)
                    results.append(r)
                    print(f"{r.engine:18} {r.task:30} {r.verdict:15} {r.seconds:5.1f} s", flush=True)
                    if r.verdict != "success":
                        print(r.failure(), flush=True)
            finally:
                engine.close()
    write(results, args.out)
    print(f"results: {args.out / 'results.md'}")


if __name__ == "__main__":
    main()
