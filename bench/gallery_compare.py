#!/usr/bin/env python3
"""The component gallery run four ways: agentbrowser (CLI and MCP) beside two reference engines,
agent-browser 0.41.2 and Playwright for Python (issue 34).

    scripts/setup.sh && bench/gallery_peers.sh    # once: the build, then the two references
    python3 bench/gallery_compare.py              # every task of gallery/tasks.py on the four engines
    python3 bench/gallery_compare.py --engines agent-browser,playwright --tasks bootstrap
    python3 bench/gallery_compare.py --repeat 3   # each task three times: flaky verdicts show as 2/3, 1/3
    python3 bench/gallery_compare.py --smoke      # the references alone on a small page of this file

Every task of ``gallery/tasks.py`` runs through ``gallery/runner.py`` (which serves the bundled
pages on 127.0.0.1, runs the task's steps on an engine and reads the outcome from the app's own
state) on each engine in turn, one browser per engine. Each verdict is one of: **success** (the
engine claimed success and the app shows it), **honest failure** (the engine reported an error
and the app does not show the effect), **false success** (claimed, not there: the worst) and
**false failure** (reported an error although the effect happened). A reference that crashes or
hangs on a step has answered an error: an honest failure unless its answers claimed success.

Writes ``bench/out/gallery.json`` (every verdict with the engine's error and the step's time) and
the section between the ``gallery-compare`` markers in ``docs/gallery.md`` (the table task x
engine, totals per library and engine, the date, versions and command), and prints the table.
``--no-docs`` leaves the docs alone (a partial run never writes them unless ``--docs`` is given).
agentbrowser's binaries (``target/release/agentbrowser`` and ``agentbrowser-engine``) are copied
aside when the run starts, so that a rebuild meanwhile cannot mix two builds in one table
(``AGENTBROWSER_BIN`` set by the caller is used as it is).

``--smoke`` needs no gallery: it serves a page of its own (a label around a checkbox, a CSS switch,
a select, a text field, a pointer-sortable list, a delayed message, a far paragraph) and checks
that each reference's claims match the page's state, step by step.
"""

from __future__ import annotations

import argparse
import datetime
import http.server
import json
import os
import platform
import shlex
import shutil
import subprocess
import sys
import tempfile
import threading
from collections.abc import Callable
from dataclasses import asdict
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from gallery.engine_api import Outcome, Target, Verdict  # noqa: E402

OUT = REPO / "bench" / "out" / "gallery.json"
DOC = REPO / "docs" / "gallery.md"
START, END = "<!-- gallery-compare:start -->", "<!-- gallery-compare:end -->"
CHROMIUM = "/usr/bin/chromium"
VERDICTS: tuple[Verdict, ...] = ("success", "honest_failure", "false_success", "false_failure")
MARK = {"success": "success", "honest_failure": "honest failure", "false_success": "**FALSE SUCCESS**", "false_failure": "false failure"}


# -- the smoke check: the references on a page of this file -------------------------------------

SMOKE_PAGE = """<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Smoke</title><style>
.sw input{opacity:0;width:0;height:0;position:absolute}.sw span{display:inline-block;width:40px;height:20px;background:#ccc}
.sw input:checked+span{background:#2a7} li{padding:8px;border:1px solid #999;margin:2px;list-style:none;user-select:none;touch-action:none}
</style></head><body><h1>Smoke page</h1>
<label><input type="checkbox" id="news"> Subscribe to newsletter</label>
<label class="sw"><input type="checkbox" id="dark" role="switch"><span></span> Dark mode</label>
<label for="fruit">Fruit</label><select id="fruit"><option>Apple</option><option>Banana</option><option>Cherry</option></select>
<label for="name">Name</label><input id="name" type="text">
<button id="save" onclick="setTimeout(()=>{document.getElementById('toast').textContent='Saved!'},300)">Save</button>
<div id="toast" role="status"></div>
<ul id="list"><li>One</li><li>Two</li><li>Three</li></ul>
<script>
const list=document.getElementById('list');let held=null;
list.addEventListener('pointerdown',e=>{if(e.target.tagName==='LI'){held=e.target;list.setPointerCapture(e.pointerId);}});
list.addEventListener('pointermove',e=>{if(!held)return;const over=document.elementsFromPoint(e.clientX,e.clientY).find(x=>x.tagName==='LI'&&x!==held);
 if(over){const r=over.getBoundingClientRect();list.insertBefore(held,e.clientY<r.top+r.height/2?over:over.nextSibling);}});
list.addEventListener('pointerup',()=>{held=null});
</script><div style="height:3000px"></div><p id="far">Far paragraph</p></body></html>"""

ITEMS = "[...document.querySelectorAll('li')].map(l => l.textContent).join()"
# (what, the step, the page's state that shows it happened)
SMOKE_STEPS: list[tuple[str, Callable[[Any], Outcome], str]] = [
    ("check a checkbox by role", lambda e: e.check(Target(role="checkbox", name="Subscribe to newsletter")), "document.getElementById('news').checked"),
    ("click its label's text", lambda e: e.click(Target(text="Subscribe to newsletter")), "!document.getElementById('news').checked"),
    ("check a CSS switch", lambda e: e.check(Target(role="switch", name="Dark mode")), "document.getElementById('dark').checked"),
    ("select an option", lambda e: e.select(Target(role="combobox", name="Fruit"), "Cherry"), "document.getElementById('fruit').value === 'Cherry'"),
    ("fill a value starting with -", lambda e: e.fill(Target(role="textbox", name="Name"), "-5"), "document.getElementById('name').value === '-5'"),
    ("type after it", lambda e: e.type_text("x"), "document.getElementById('name').value === '-5x'"),
    ("click a button", lambda e: e.click(Target(role="button", name="Save")), "true"),
    ("wait for its message", lambda e: e.wait_text("Saved!"), "document.getElementById('toast').textContent === 'Saved!'"),
    ("wait for a missing text", lambda e: e.wait_text("Never shown", 1.0), "false"),
    ("drag Three onto One", lambda e: e.drag(Target(text="Three"), Target(text="One")), f"{ITEMS}.startsWith('Three') || {ITEMS} === 'One,Three,Two'"),
    ("scroll down 500", lambda e: e.scroll("down", 500), "scrollY >= 400"),
    ("scroll a paragraph into view", lambda e: e.scroll_into_view(Target(text="Far paragraph")), "document.getElementById('far').getBoundingClientRect().bottom <= innerHeight"),
    ("click a missing button", lambda e: e.click(Target(role="button", name="Missing")), "false"),
]


class SmokeHandler(http.server.BaseHTTPRequestHandler):
    """Answers every GET with the smoke page."""

    def do_GET(self) -> None:
        body = SMOKE_PAGE.encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: Any) -> None:
        pass


def smoke(engines: list[str]) -> int:
    """Runs the smoke steps on each reference; 1 when a verdict is a false success or failure."""
    from gallery import runner

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), SmokeHandler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/"
    bad = 0
    try:
        for name in engines:
            engine = make_engine(name)
            try:
                opened = engine.open(url)
                print(f"== {name}: open {'ok' if opened.ok else opened.error}")
                for what, act, shows in SMOKE_STEPS:
                    out = act(engine)
                    v = runner.classify(out.ok, bool(engine.eval(shows)))
                    bad += v in ("false_success", "false_failure")
                    print(f"  {what:32} {MARK[v]:18} {(out.error or '').splitlines()[0][:90] if out.error else ''}")
            finally:
                engine.close()
    finally:
        server.shutdown()
    return 1 if bad else 0


# -- engines ------------------------------------------------------------------------------------

ENGINES = ("agentbrowser-cli", "agentbrowser-mcp", "agent-browser", "playwright")
REFERENCES = ("agent-browser", "playwright")


def make_engine(name: str) -> Any:
    """A fresh engine (its own browser) by its table name, as the runner loads it."""
    from gallery import runner

    return runner.load_engine(name)


class Guarded:
    """An engine whose exceptions become answers: a step that raises (a crash, a broken pipe) is
    an error the engine answered, so an honest failure; a state read that raises reads as
    nothing (the check does not hold) and is noted, so a claimed step whose effect cannot be
    read is never counted a success."""

    def __init__(self, engine: Any) -> None:
        self.engine = engine
        self.name: str = engine.name
        #: The state reads that failed since the last :meth:`take_read_errors`.
        self.read_errors: list[str] = []

    def __getattr__(self, op: str) -> Callable[..., Outcome]:
        method = getattr(self.engine, op)

        def step(*args: Any) -> Outcome:
            try:
                out: Outcome = method(*args)
                return out
            except Exception as exc:  # noqa: BLE001 - any crash of the engine is its answer
                return Outcome(ok=False, error=f"the engine raised {type(exc).__name__}: {exc}"[:500])

        return step

    def eval(self, js: str) -> Any:
        """The engine's value of ``js``, or None when the read fails (noted)."""
        try:
            return self.engine.eval(js)
        except Exception as exc:  # noqa: BLE001 - an unreadable state is not a success
            self.read_errors.append(f"{type(exc).__name__}: {exc}"[:300])
            return None

    def take_read_errors(self) -> list[str]:
        """The failed reads so far, forgotten."""
        errors, self.read_errors = self.read_errors, []
        return errors

    def close(self) -> None:
        """Closes the engine; a failure to close is printed, not raised."""
        try:
            self.engine.close()
        except Exception as exc:  # noqa: BLE001
            print(f"  ({self.name} failed to close: {exc})", file=sys.stderr)


def agentbrowser_binary() -> Path:
    """The agentbrowser client the gallery's own engines run (``AGENTBROWSER_BIN``, else the build's)."""
    return Path(os.environ.get("AGENTBROWSER_BIN") or REPO / "target" / "release" / "agentbrowser")


def freeze_agentbrowser(into: Path) -> None:
    """Copies the build's client and engine binaries into ``into`` and points the gallery's
    engines there (``AGENTBROWSER_BIN``): a rebuild in the working tree during the run (other
    work shares target/) cannot mix two builds in one table. Nothing when ``AGENTBROWSER_BIN``
    is already set or there is no build (the engines then say so)."""
    release = REPO / "target" / "release"
    if os.environ.get("AGENTBROWSER_BIN") or not (release / "agentbrowser").is_file():
        return
    for name in ("agentbrowser", "agentbrowser-engine"):
        if (release / name).is_file():
            shutil.copy2(release / name, into / name)
    os.environ["AGENTBROWSER_BIN"] = str(into / "agentbrowser")


def run(engines: list[str], only: set[str] | None, repeat: int) -> dict[str, Any]:
    """Every chosen task on every chosen engine through the gallery's runner, ``repeat`` times
    (each engine's rounds one after another, in one browser)."""
    from gallery import runner, tasks

    chosen = [t for t in tasks.TASKS if only is None or t.id in only or t.library in only]
    if not chosen:
        raise SystemExit(f"--tasks {','.join(sorted(only or ()))}: no such task id or library")
    runner.build()
    results: list[dict[str, Any]] = []
    skipped: dict[str, str] = {}
    with runner.serve() as origin, runner.serve() as other:
        for name in engines:
            if name.startswith("agentbrowser") and not agentbrowser_binary().is_file():
                skipped[name] = f"no agentbrowser build at {agentbrowser_binary()} (run scripts/setup.sh)"
                print(f"== {name}: not run ({skipped[name]})", flush=True)
                continue
            try:
                engine = Guarded(make_engine(name))
            except Exception as exc:  # noqa: BLE001 - an engine that cannot start is reported, not run
                skipped[name] = f"{type(exc).__name__}: {exc}"
                print(f"== {name}: not run ({skipped[name]})", flush=True)
                continue
            try:
                for round_ in range(1, repeat + 1):
                    print(f"== {name}" + (f", round {round_} of {repeat}" if repeat > 1 else ""), flush=True)
                    for task in chosen:
                        r = runner.run_task(engine, task, origin, other)
                        if errors := engine.take_read_errors():
                            note = f"{len(errors)} state read(s) failed, the first: {errors[0]}"
                            r.problem = f"{r.problem}; {note}" if r.problem else note
                        results.append({**asdict(r), "round": round_})
                        why = "" if r.verdict == "success" else f"  {first_error(asdict(r))}"
                        print(f"  {r.task:30} {MARK[r.verdict]:18} {r.seconds:5.1f} s{why}", flush=True)
            finally:
                engine.close()
    return {
        "tasks": [{"id": t.id, "library": t.library, "goal": t.goal, "steps": [str(s) for s in t.steps]} for t in chosen],
        "engines": [e for e in engines if e not in skipped],
        "skipped": skipped,
        "repeat": repeat,
        "results": results,
        "libraries": tasks.library_versions(),
    }


# -- the report ---------------------------------------------------------------------------------


def first_error(r: dict[str, Any]) -> str:
    """Why a result is not a success, in one line."""
    for s in r["steps"]:
        if not s["ok"]:
            return f"{s['step']}: {(str(s['error']) or '').strip().splitlines()[0][:140] if s['error'] else 'error'}"
    return str(r.get("problem") or "the app's state does not show it")


def verdict_cell(verdicts: list[str]) -> str:
    """One verdict, or how often each came when the rounds disagree ("success 1/2, FALSE SUCCESS 1/2")."""
    if len(set(verdicts)) == 1:
        return MARK[verdicts[0]]
    return ", ".join(f"{MARK[v]} {verdicts.count(v)}/{len(verdicts)}" for v in VERDICTS if v in verdicts)


def totals(results: list[dict[str, Any]], engine: str, library: str | None = None) -> dict[str, int]:
    """Verdict counts of one engine (in one library)."""
    mine = [r["verdict"] for r in results if r["engine"] == engine and (library is None or r["library"] == library)]
    return {v: mine.count(v) for v in VERDICTS}


def markdown(run: dict[str, Any]) -> str:
    """The section's body: provenance, the table task x engine, totals, and every non-success."""
    engines: list[str] = run["engines"]
    results: list[dict[str, Any]] = run["results"]
    repeat = int(run.get("repeat", 1))
    seen: dict[tuple[str, str], list[str]] = {}
    for r in results:
        seen.setdefault((r["task"], r["engine"]), []).append(r["verdict"])
    cell = {key: verdict_cell(verdicts) for key, verdicts in seen.items()}
    libraries = list(dict.fromkeys(t["library"] for t in run["tasks"]))
    v = run["versions"]
    lines = [
        f"Run on {run['date']} with `{run['command']}` (commit {v['commit']}; {v['agentbrowser']}, built {v['agentbrowser_built']}; "
        f"{v['agent-browser']}; {v['playwright']}; {v['chromium']}; {run['machine']}).",
        f"{len(run['tasks'])} tasks over {len(libraries)} libraries"
        + (f", each run {repeat} times (a cell shows how often each verdict came when they differ)" if repeat > 1 else "")
        + ". A verdict compares the engine's claim with the app's own state: "
        "**success** (claimed, and the app shows it), **honest failure** (an error, and the app does not show it), "
        "**FALSE SUCCESS** (claimed, and the app does not show it), **false failure** (an error, although the app shows it).",
        "",
    ]
    for name, why in run["skipped"].items():
        lines.append(f"- {name} did not run: {why}")
    if run["skipped"]:
        lines.append("")
    lines += ["| library | task | " + " | ".join(engines) + " |", "|---|---|" + "---|" * len(engines)]
    for t in run["tasks"]:
        lines.append(f"| {t['library']} | {t['id']} | " + " | ".join(cell.get((t["id"], e), "–") for e in engines) + " |")
    over = f", over the {repeat} rounds" if repeat > 1 else ""
    lines += ["", f"Totals per library (success / honest failure / false success / false failure{over}):", ""]
    lines += ["| library | " + " | ".join(engines) + " |", "|---|" + "---|" * len(engines)]
    for lib in [*libraries, None]:
        counts = [" / ".join(str(totals(results, e, lib)[k]) for k in VERDICTS) for e in engines]
        label = "**all**" if lib is None else lib
        lines.append(f"| {label} | " + " | ".join(f"**{c}**" if lib is None else c for c in counts) + " |")
    misses = [r for r in results if r["verdict"] != "success"]
    if misses:
        lines += ["", "Why each task that is not a success failed (the first failing step's error, or the runner's note):", ""]
        for r in misses:
            round_ = f" (round {r.get('round')})" if repeat > 1 else ""
            lines.append(f"- {r['engine']}, {r['task']}{round_}: {MARK[r['verdict']]}: {first_error(r)}".replace("|", "\\|"))
    return "\n".join(lines) + "\n"


#: The section's opening, before each run's results: how the comparison is made.
INTRO = """The same tasks on agentbrowser (its CLI and its MCP server, the gallery's own engines) and on two
reference engines, each with its own Debian Chromium (`/usr/bin/chromium`, headless,
`--no-sandbox`), through the same runner and the same checks of the app's state:

    scripts/setup.sh && bench/gallery_peers.sh    # once: the build, then the two references (npm, PyPI)
    python3 bench/gallery_compare.py              # writes bench/out/gallery.json and this section
    python3 bench/gallery_compare.py --repeat 2   # every task twice: a verdict that varies shows 1/2
    python3 bench/gallery_compare.py --smoke      # the references alone on a page of the script's own

- **agent-browser 0.41.2** (npm, into `target/peers/agent-browser/`; its native binary ships in the
  package, no download): one `agent-browser --json` process per step, as an agent in a shell uses
  it. A target named by role and name is looked up in `snapshot -i` (then the full snapshot; again
  until it is there, for up to 10 s) and acted on as `@eN`; a text target through `find text
  ... --exact` (an XPath selector for the actions `find` lacks, or when it finds nothing); `check`,
  `select`, `drag`, `scroll`, `scrollintoview`, `keyboard type`, `press`, `wait --text`; default
  timeout 10 s (`AGENT_BROWSER_DEFAULT_TIMEOUT`). agent-browser makes a popup its active tab, so
  each task's `open` first closes the tabs an earlier task left.
- **Playwright for Python** (PyPI, in the virtualenv `target/peers/playwright-venv/`, run in a
  worker process; never its own browsers): `get_by_role(role, name=...)` (the whole name in any
  case; a named `generic` by `get_by_label`), `get_by_text(text, exact=True)`, in the frame that
  holds the element, with `click`, `fill`, `check`/`uncheck`, `select_option(label=...)`, `hover`,
  `drag_to` (its defaults), `mouse.wheel` with the pointer in the middle of the viewport,
  `scroll_into_view_if_needed`, `keyboard`, and `get_by_text(text).first.wait_for()` on the page;
  default timeout 10 s.

Steps run back to back, without an agent's pause to think between them. A step whose engine
crashes or hangs (60 s) answers an error: an honest failure, unless every answer claimed
success; a state the runner cannot read never makes a success.

"""


def write_docs(body: str) -> str:
    """Writes the Comparison section of docs/gallery.md: between its markers when they are there,
    else in place of the section's placeholder, else at the end (the file is created when there
    is none); says what it did."""
    section = f"## Comparison\n\n{START}\n{INTRO}{body}{END}\n"
    if not DOC.exists():
        DOC.write_text(f"# The component-library gallery\n\n{section}")
        return f"created {DOC.relative_to(REPO)}"
    text = DOC.read_text()
    if START in text and END in text:
        head, rest = text.split(START, 1)
        tail = rest.split(END, 1)[1]
        DOC.write_text(f"{head}{START}\n{INTRO}{body}{END}{tail}")
        return f"replaced the comparison in {DOC.relative_to(REPO)}"
    heading = "\n## Comparison\n"
    if heading in text:
        head, rest = text.split(heading, 1)
        after = rest.split("\n## ", 1)
        tail = "\n## " + after[1] if len(after) > 1 else ""
        DOC.write_text(f"{head}\n{section}{tail}")
        return f"filled the Comparison section of {DOC.relative_to(REPO)}"
    DOC.write_text(text.rstrip("\n") + f"\n\n{section}")
    return f"appended the comparison to {DOC.relative_to(REPO)}"


# -- versions -----------------------------------------------------------------------------------


def first_line(argv: list[str]) -> str | None:
    """The first line a command prints, or None when it cannot run."""
    try:
        p = subprocess.run(argv, capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return None
    lines = (p.stdout or p.stderr).strip().splitlines()
    return lines[0] if p.returncode == 0 and lines else None


def versions() -> dict[str, str | None]:
    """What ran: the commit, agentbrowser (and when its binary was built), the references,
    Chromium, Python."""
    from gallery.engines import agent_browser, playwright_engine

    try:
        ab_peer = first_line([str(agent_browser.binary()), "--version"])
    except FileNotFoundError:
        ab_peer = None
    pw = first_line([str(playwright_engine.VENV_PYTHON), "-c", "import importlib.metadata as m; print(m.version('playwright'))"])
    commit = first_line(["git", "-C", str(REPO), "rev-parse", "--short", "HEAD"])
    dirty = subprocess.run(["git", "--no-optional-locks", "-C", str(REPO), "status", "--porcelain", "--untracked-files=no"], capture_output=True, text=True).stdout
    ab_bin = agentbrowser_binary()
    built = datetime.datetime.fromtimestamp(ab_bin.stat().st_mtime).astimezone().isoformat(timespec="minutes") if ab_bin.exists() else None
    return {
        "commit": f"{commit}+dirty" if commit and dirty.strip() else commit,
        "agentbrowser": first_line([str(ab_bin), "--version"]),
        "agentbrowser_built": built,
        "agent-browser": ab_peer,
        "playwright": f"Playwright for Python {pw}" if pw else None,
        "chromium": first_line([CHROMIUM, "--version"]),
        "python": platform.python_version(),
    }


def machine() -> str:
    """Cores and memory, for the record."""
    mem = next((line.split()[1] for line in Path("/proc/meminfo").read_text().splitlines() if line.startswith("MemTotal")), "0")
    return f"{os.cpu_count()} cores, {int(mem) / 2**20:.1f} GiB"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--engines", default=",".join(ENGINES), help=f"comma-separated, of {', '.join(ENGINES)}")
    parser.add_argument("--tasks", help="comma-separated task ids or libraries (default: every task)")
    parser.add_argument("--repeat", type=int, default=1, metavar="N", help="run every task N times on each engine (default 1)")
    parser.add_argument("--smoke", action="store_true", help="the references alone on this script's own page")
    docs = parser.add_mutually_exclusive_group()
    docs.add_argument("--docs", action="store_true", help="write docs/gallery.md even for a partial run")
    docs.add_argument("--no-docs", action="store_true", help="leave docs/gallery.md alone")
    args = parser.parse_args()
    engines = [e.strip() for e in args.engines.split(",") if e.strip()]
    if args.repeat < 1:
        parser.error(f"--repeat {args.repeat}: the number of rounds must be at least 1")
    if unknown := [e for e in engines if e not in ENGINES]:
        parser.error(f"unknown engine(s) {', '.join(unknown)}: the engines are {', '.join(ENGINES)}")
    if args.smoke:
        return smoke([e for e in engines if e in REFERENCES])
    only = {t.strip() for t in args.tasks.split(",") if t.strip()} if args.tasks else None
    started = datetime.datetime.now().astimezone()
    with tempfile.TemporaryDirectory(prefix="gallery-compare-") as frozen:
        if any(e.startswith("agentbrowser") for e in engines):
            freeze_agentbrowser(Path(frozen))
        result = run(engines, only, args.repeat)
        ran_with = versions()
    result = {
        "date": started.strftime("%Y-%m-%d %H:%M %Z"),
        "command": shlex.join(["python3", "bench/gallery_compare.py", *sys.argv[1:]]),
        "versions": ran_with,
        "machine": machine(),
        "minutes": round((datetime.datetime.now().astimezone() - started).total_seconds() / 60, 1),
        **result,
    }
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(result, indent=1) + "\n")
    body = markdown(result)
    print("\n" + body)
    print(f"wrote {OUT.relative_to(REPO)}")
    full = only is None and engines == list(ENGINES)
    if args.docs or (full and not args.no_docs):
        print(write_docs(body))
    return 0


if __name__ == "__main__":
    sys.exit(main())
