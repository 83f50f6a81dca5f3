#!/usr/bin/env python3
"""A Python contender for the benchmark, driven by JSON lines on stdin (one answer a line on stdout).

    python3 bench/pyworker.py sdk SESSION      # the agentbrowser SDK, joined to the CLI's session
    python3 bench/pyworker.py playwright       # Playwright for Python on /usr/bin/chromium
    bench/peers/pyab/bin/python bench/pyworker.py pyab   # pyagentbrowser 0.39.0 (its own venv)

Each contender runs in its own process so that its timings are taken next to the calls, in
the same way for both, and a crash or a hang of one cannot take the orchestrator down.

ops: start, cold {url}, open {url}, snapshot {interactive}, prepare_form, click {reset, readback},
fill {fields, readback}, titles {n}, eval {expr, n}, read, pids, stop. Answers carry ``ok`` and
``ms`` (or ``samples``); an action the engine does not have yet answers ``na``.
"""

from __future__ import annotations

import json
import os
import re
import sys
import time
from typing import Any

CHROMIUM = os.environ.get("BENCH_CHROMIUM", "/usr/bin/chromium")
FLAGS = [
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-gpu",
]
# Form fields as (role, accessible name); the orchestrator sends the values.
FORM_REFS = {"submit": ("button", "Sign in"), "name": ("textbox", "Full name"),
             "email": ("textbox", "Email"), "password": ("textbox", "Password")}


class NotAvailable(Exception):
    """The engine does not have this action yet."""


def ms_since(t0: float) -> float:
    return (time.perf_counter() - t0) * 1000.0


class Sdk:
    """The agentbrowser Python SDK over the session's socket (``Browser.connect``)."""

    def __init__(self, session: str) -> None:
        import agentbrowser

        self.ab: Any = agentbrowser
        self.session = session
        self.browser: Any = None
        self.refs: dict[str, Any] = {}

    def start(self) -> dict[str, Any]:
        t0 = time.perf_counter()
        self.browser = self.ab.Browser.connect(session=self.session)
        return {"ms": ms_since(t0)}

    def cold(self, url: str) -> float:
        t0 = time.perf_counter()
        browser = self.ab.Browser.launch(executable_path=CHROMIUM)
        try:
            browser.page.open(url)
            return ms_since(t0)
        finally:
            browser.close()

    def open(self, url: str) -> None:
        self.browser.page.open(url)

    def snapshot(self, interactive: bool) -> tuple[str, int]:
        snap = self.browser.page.observe(self.ab.SnapshotSpec(interactive=interactive))
        return snap.text, len(snap.refs)

    def prepare_form(self) -> None:
        snap = self.browser.page.observe(self.ab.SnapshotSpec(interactive=True))
        self.refs = {k: snap.one(role=role, name=name) for k, (role, name) in FORM_REFS.items()}

    def click(self, readback: str) -> Any:
        self.refs["submit"].click()
        return self.browser.page.evaluate(readback)

    def fill(self, fields: dict[str, str], readback: str) -> Any:
        for key, value in fields.items():
            self.refs[key].fill(value)
        self.refs["submit"].click()
        return self.browser.page.evaluate(readback)

    def title(self) -> str:
        return str(self.browser.page.title())

    def evaluate(self, expr: str) -> Any:
        return self.browser.page.evaluate(expr)

    def read(self) -> str:
        return str(self.browser.page.read(max_chars=0).content)

    def pids(self) -> dict[str, Any]:
        status = self.browser.status()
        raw = getattr(status, "raw", {}) or {}
        return {"engine": raw.get("pid"), "browser": (raw.get("browser") or {}).get("pid")}

    def stop(self) -> None:
        if self.browser is not None:
            self.browser.close(end_session=False)
            self.browser = None


class Playwright:
    """Playwright for Python, launched on Debian's Chromium (never ``playwright install``)."""

    def __init__(self) -> None:
        from playwright.sync_api import sync_playwright

        self.sync_playwright: Any = sync_playwright
        self.pw: Any = None
        self.browser: Any = None
        self.page: Any = None
        self.refs: dict[str, Any] = {}

    def _launch(self) -> tuple[Any, Any, Any]:
        pw = self.sync_playwright().start()
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        return pw, browser, browser.new_page()

    def start(self) -> dict[str, Any]:
        t0 = time.perf_counter()
        self.pw, self.browser, self.page = self._launch()
        return {"ms": ms_since(t0)}

    def cold(self, url: str) -> float:
        t0 = time.perf_counter()
        pw, browser, page = self._launch()
        try:
            page.goto(url)
            return ms_since(t0)
        finally:
            browser.close()
            pw.stop()

    def open(self, url: str) -> None:
        self.page.goto(url)

    def snapshot(self, interactive: bool) -> tuple[str, int]:
        # The AI mode is Playwright's snapshot for agents (with refs); the default mode is the full tree.
        text = str(self.page.aria_snapshot(mode="ai" if interactive else "default"))
        return text, text.count("[ref=")

    def prepare_form(self) -> None:
        text = str(self.page.aria_snapshot(mode="ai"))
        self.refs = {}
        for key, (role, name) in FORM_REFS.items():
            found = re.search(rf'{role} "{re.escape(name)}"[^\n]*\[ref=([A-Za-z0-9]+)\]', text)
            if not found:
                raise RuntimeError(f"no {role} {name!r} in Playwright's AI snapshot of {self.page.url}: {text[:300]!r}")
            self.refs[key] = self.page.locator(f"aria-ref={found.group(1)}")

    def click(self, readback: str) -> Any:
        self.refs["submit"].click()
        return self.page.evaluate(readback)

    def fill(self, fields: dict[str, str], readback: str) -> Any:
        for key, value in fields.items():
            self.refs[key].fill(value)
        self.refs["submit"].click()
        return self.page.evaluate(readback)

    def title(self) -> str:
        return str(self.page.title())

    def evaluate(self, expr: str) -> Any:
        return self.page.evaluate(expr)

    def pids(self) -> dict[str, Any]:
        return {"engine": None, "browser": None, "worker": os.getpid()}

    def stop(self) -> None:
        if self.browser is not None:
            self.browser.close()
            self.pw.stop()
            self.browser = None


class PyAb:
    """pyagentbrowser (the agent-browser engine in-process), launched on Debian's Chromium; only
    ``open`` and ``read`` are measured."""

    def __init__(self) -> None:
        import agentbrowser

        if not hasattr(agentbrowser, "ReadMode") or not hasattr(agentbrowser, "SessionOptions"):
            raise ImportError(f"`agentbrowser` at {agentbrowser.__file__} is not pyagentbrowser")
        self.ab: Any = agentbrowser
        self.browser: Any = None

    def start(self) -> dict[str, Any]:
        t0 = time.perf_counter()
        options = self.ab.LaunchOptions(headless=True, executable_path=CHROMIUM, args=[*FLAGS, "--no-sandbox"])
        self.browser = self.ab.Browser.launch(options)
        self.browser.page.open("about:blank")
        return {"ms": ms_since(t0)}

    def open(self, url: str) -> None:
        self.browser.page.open(url)

    def read(self) -> str:
        return str(self.browser.page.read().content)

    def pids(self) -> dict[str, Any]:
        return {"engine": os.getpid(), "browser": None}

    def stop(self) -> None:
        if self.browser is not None:
            self.browser.close()
            self.browser = None


def handle(c: Any, req: dict[str, Any]) -> dict[str, Any]:
    op = req["op"]
    if op == "start":
        return c.start()
    if op == "cold":
        return {"ms": c.cold(req["url"])}
    if op == "open":
        t0 = time.perf_counter()
        c.open(req["url"])
        return {"ms": ms_since(t0)}
    if op == "snapshot":
        t0 = time.perf_counter()
        text, refs = c.snapshot(bool(req.get("interactive", True)))
        return {"ms": ms_since(t0), "bytes": len(text.encode()), "refs": refs}
    if op == "prepare_form":
        c.prepare_form()
        return {}
    if op == "click":
        c.evaluate(req["reset"])
        t0 = time.perf_counter()
        value = c.click(req["readback"])
        return {"ms": ms_since(t0), "value": value}
    if op == "fill":
        c.evaluate(req["reset"])
        t0 = time.perf_counter()
        value = c.fill(dict(req["fields"]), req["readback"])
        return {"ms": ms_since(t0), "value": value}
    if op == "titles":
        n = int(req.get("n", 50))
        t0 = time.perf_counter()
        for _ in range(n):
            c.title()
        return {"ms": ms_since(t0)}
    if op == "eval":
        samples = []
        value = None
        for _ in range(int(req.get("n", 1))):
            t0 = time.perf_counter()
            value = c.evaluate(req["expr"])
            samples.append(ms_since(t0))
        return {"samples": samples, "value": value}
    if op == "read":
        t0 = time.perf_counter()
        content = c.read()
        return {"ms": ms_since(t0), "content": content}
    if op == "pids":
        return c.pids()
    if op == "stop":
        c.stop()
        return {}
    raise ValueError(f"unknown op {op!r}")


def main(argv: list[str]) -> int:
    kind = argv[1] if len(argv) > 1 else ""
    try:
        contender: Sdk | Playwright | PyAb = (
            Sdk(argv[2]) if kind == "sdk" else PyAb() if kind == "pyab" else Playwright()
        )
    except ImportError as exc:
        print(json.dumps({"ok": False, "missing": str(exc)}), flush=True)
        return 0
    print(json.dumps({"ok": True, "ready": kind, "pid": os.getpid()}), flush=True)
    try:
        for line in sys.stdin:
            if not line.strip():
                continue
            try:
                answer = handle(contender, json.loads(line))
                answer["ok"] = True
            except Exception as exc:  # reported to the orchestrator, which decides
                code = getattr(exc, "code", None)
                if code == "unknown_action":
                    answer = {"ok": False, "na": f"{type(exc).__name__}: {exc}"[:300]}
                else:
                    answer = {"ok": False, "error": f"{type(exc).__name__}: {exc}"[:2000], "code": code}
            print(json.dumps(answer), flush=True)
    finally:
        try:
            contender.stop()
        except Exception:
            pass
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
