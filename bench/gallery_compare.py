#!/usr/bin/env python3
"""The component gallery run four ways: agentbrowser (CLI and MCP) beside two reference engines,
agent-browser 0.41.2 and Playwright for Python (issue 34).

    scripts/setup.sh && bench/gallery_peers.sh    # once: the build, then the two references
    python3 bench/gallery_compare.py              # every task of gallery/tasks.py on the four engines
    python3 bench/gallery_compare.py --engines agent-browser,playwright --tasks bootstrap
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

``--smoke`` needs no gallery: it serves a page of its own (a label around a checkbox, a CSS switch,
a select, a text field, a pointer-sortable list, a delayed message, a far paragraph) and checks
that each reference's claims match the page's state, step by step.
"""

from __future__ import annotations

import argparse
import datetime
import http.server
import json
import platform
import shlex
import subprocess
import sys
import threading
from collections.abc import Callable
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


def verdict(claimed: bool, happened: bool) -> Verdict:
    """The verdict of a claim against what the app shows."""
    if claimed:
        return "success" if happened else "false_success"
    return "false_failure" if happened else "honest_failure"


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
                    v = verdict(out.ok, bool(engine.eval(shows)))
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
    """A fresh engine (its own browser) by its table name."""
    if name == "agent-browser":
        from gallery.engines.agent_browser import AgentBrowserEngine

        return AgentBrowserEngine()
    if name == "playwright":
        from gallery.engines.playwright_engine import PlaywrightEngine

        return PlaywrightEngine()
    raise SystemExit(f"unknown engine {name!r}: one of {', '.join(ENGINES)}")


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
    """What ran: the commit, agentbrowser, the references, Chromium, Python."""
    from gallery.engines import agent_browser, playwright_engine

    try:
        ab_peer = first_line([str(agent_browser.binary()), "--version"])
    except FileNotFoundError:
        ab_peer = None
    pw = first_line([str(playwright_engine.VENV_PYTHON), "-c", "import importlib.metadata as m; print(m.version('playwright'))"])
    commit = first_line(["git", "-C", str(REPO), "rev-parse", "--short", "HEAD"])
    dirty = subprocess.run(["git", "--no-optional-locks", "-C", str(REPO), "status", "--porcelain", "--untracked-files=no"], capture_output=True, text=True).stdout
    return {
        "commit": f"{commit}+dirty" if commit and dirty.strip() else commit,
        "agentbrowser": first_line([str(REPO / "target" / "release" / "agentbrowser"), "--version"]),
        "agent-browser": ab_peer,
        "playwright": f"playwright {pw}" if pw else None,
        "chromium": first_line([CHROMIUM, "--version"]),
        "python": platform.python_version(),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--engines", default=",".join(ENGINES), help=f"comma-separated, of {', '.join(ENGINES)}")
    parser.add_argument("--smoke", action="store_true", help="the references alone on this script's own page")
    args = parser.parse_args()
    engines = [e.strip() for e in args.engines.split(",") if e.strip()]
    if unknown := [e for e in engines if e not in ENGINES]:
        parser.error(f"unknown engine(s) {', '.join(unknown)}: the engines are {', '.join(ENGINES)}")
    if args.smoke:
        return smoke([e for e in engines if e in REFERENCES])
    raise SystemExit("the full run needs gallery/runner.py and gallery/tasks.py")


if __name__ == "__main__":
    sys.exit(main())
