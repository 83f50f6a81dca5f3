"""The contenders: agentbrowser four ways (CLI, batch, raw socket, Python SDK), the direct-CDP
floor, and the peers agent-browser (CLI and batch), Playwright for Python and pyagentbrowser
(for `read` only).

Every contender offers the same operations; each returns a dict with ``ms`` (or ``samples``)
and, for snapshots, ``bytes`` and ``refs``. ``Unsupported`` means the contender has no such
operation (the table shows "–"); ``NotAvailable`` means the engine does not have the action yet
(``unknown_action``; the table shows "n/a").
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import procs
from procs import BenchError, LineProc

READBACK = "document.getElementById('welcome').textContent"
RESET = (
    "(() => { document.getElementById('welcome').textContent = ''; "
    "for (const id of ['name', 'email', 'password']) document.getElementById(id).value = ''; return true; })()"
)
FIELDS = {"name": "Ada Lovelace", "email": "ada@example.com", "password": "correct horse"}
FORM_REFS = {
    "submit": ("button", "Sign in"),
    "name": ("textbox", "Full name"),
    "email": ("textbox", "Email"),
    "password": ("textbox", "Password"),
}
TITLE_EXPR = "document.title"
#: What every reader's Markdown of docs.html must hold: its heading and its 40 code blocks.
DOCS_HEADING, DOCS_FENCES = "Built-in Functions", 80


class Unsupported(Exception):
    """This contender has no such operation."""


class NotAvailable(Exception):
    """The engine does not have this action yet."""


def check_readback(value: Any, expect: str) -> None:
    if expect not in str(value):
        raise BenchError(f"read back {str(value)[:120]!r}, expected it to contain {expect!r}")


def check_read(content: Any) -> dict[str, Any]:
    """A read of docs.html must have its heading and every code block (40, fenced); returns its size."""
    text = str(content or "")
    if DOCS_HEADING not in text or text.count("```") < DOCS_FENCES:
        raise BenchError(f"the read lacks the heading or the 40 code blocks: {text[:160]!r} ({text.count('```')} fences)")
    return {"bytes": len(text.encode())}


def find_ref(refs: dict[str, Any], role: str, name: str) -> str:
    """The id of the ref with this role and name in a snapshot's ``refs`` map."""
    for ref_id, info in refs.items():
        if isinstance(info, dict) and info.get("role") == role and info.get("name") == name:
            return str(ref_id)
    raise BenchError(f"no {role} {name!r} among the snapshot's {len(refs)} refs")


class Contender:
    name = ""  # column key
    label = ""  # column title
    browser = ""  # the browser it drives; front ends of one engine share one
    own = True  # ours: a failure fails the run; a peer's failure is only reported
    skip: str | None = None  # why it does not run
    rows: frozenset[str] | None = None  # the only measurements it takes part in (None: every one)

    def open(self, url: str) -> dict[str, Any]:
        raise Unsupported

    def snapshot(self, interactive: bool) -> dict[str, Any]:
        raise Unsupported

    def prepare_form(self) -> None:
        pass

    def click(self, evidence: bool = True) -> dict[str, Any]:
        raise Unsupported

    def fill(self, evidence: bool = True) -> dict[str, Any]:
        """Fill the form's 3 fields, click submit, read back; ``evidence=False``: without evidence."""
        raise Unsupported

    def titles(self, n: int) -> dict[str, Any]:
        raise Unsupported

    def eval_title(self, n: int) -> dict[str, Any]:
        raise Unsupported

    def cold(self, url: str, rep: int) -> dict[str, Any]:
        raise Unsupported

    def screenshot(self, path: Path, annotate: bool) -> dict[str, Any]:
        """Capture the viewport (annotated with refs if asked) into `path`."""
        raise Unsupported

    def read(self) -> dict[str, Any]:
        """Read the active tab as Markdown (the whole of it)."""
        raise Unsupported

    def a11y(self) -> dict[str, Any]:
        """An axe-core accessibility audit of the active tab (every rule, every frame)."""
        raise Unsupported

    def engine_pids(self) -> tuple[int | None, int | None]:
        """(engine process, Chromium root process)."""
        return None, None

    def close(self) -> None:
        pass


class Floor(Contender):
    """The direct-CDP floor (bench/floor): raw CDP, no engine; it also times the others natively."""

    name, label, browser = "cdp", "CDP floor", "cdp"

    def __init__(self, binary: Path, chromium: str, workdir: Path) -> None:
        self.proc = LineProc([str(binary)], name="floor")
        self.chromium, self.workdir = chromium, workdir
        started = self.call({"op": "start", "exe": chromium, "dir": str(workdir)})
        self.pid, self.browser_pid = int(started["self"]), int(started["pid"])

    def call(self, req: dict[str, Any], timeout: float = 300.0) -> dict[str, Any]:
        answer = self.proc.request(req, timeout)
        if not answer.get("ok"):
            raise BenchError(f"floor {req.get('op')}: {answer.get('error')}")
        return answer

    def exec(self, argv: list[str], n: int = 1, stdin: str | None = None) -> dict[str, Any]:
        req: dict[str, Any] = {"op": "exec", "argv": argv, "n": n}
        if stdin is not None:
            req["stdin"] = stdin
        return self.call(req)

    def open(self, url: str) -> dict[str, Any]:
        return self.call({"op": "open", "url": url})

    def snapshot(self, interactive: bool) -> dict[str, Any]:
        r = self.call({"op": "snapshot", "interactive": interactive})
        return {"ms": r["ms"], "bytes": r["bytes"], "refs": r["refs"]}

    def axtree(self) -> dict[str, Any]:
        r = self.call({"op": "axtree"})
        return {"ms": r["ms"], "bytes": r["bytes"], "refs": r["nodes"]}

    def click(self, evidence: bool = True) -> dict[str, Any]:
        self.call({"op": "eval", "expr": RESET})
        r = self.call({"op": "click", "selector": "#submit", "readback": READBACK})
        check_readback(r["value"], "Welcome")
        return {"ms": r["ms"]}

    def fill(self, evidence: bool = True) -> dict[str, Any]:
        self.call({"op": "eval", "expr": RESET})
        fields = [[f"#{k}", v] for k, v in FIELDS.items()]
        r = self.call({"op": "fill", "fields": fields, "submit": "#submit", "readback": READBACK})
        check_readback(r["value"], FIELDS["email"])
        return {"ms": r["ms"]}

    def titles(self, n: int) -> dict[str, Any]:
        return {"ms": sum(self.call({"op": "eval", "expr": TITLE_EXPR, "n": n})["samples"])}

    def eval_title(self, n: int) -> dict[str, Any]:
        return {"samples": self.call({"op": "eval", "expr": TITLE_EXPR, "n": n})["samples"]}

    def spawn(self, n: int) -> dict[str, Any]:
        return {"samples": self.exec(["/bin/true"], n)["samples"]}

    def read(self) -> dict[str, Any]:
        """The reference for `read`: only the DOM's outerHTML out of the page (no extraction)."""
        r = self.call({"op": "eval", "expr": "document.documentElement.outerHTML", "n": 1})
        html = str(r.get("value") or "")
        if DOCS_HEADING not in html:
            raise BenchError(f"outerHTML without the heading: {html[:120]!r}")
        return {"ms": r["samples"][0], "bytes": len(html.encode())}

    def cold(self, url: str, rep: int) -> dict[str, Any]:
        return {"ms": self.call({"op": "cold", "exe": self.chromium, "dir": str(self.workdir), "url": url})["ms"]}

    def screenshot(self, path: Path, annotate: bool) -> dict[str, Any]:
        if annotate:
            raise Unsupported  # the floor has no refs; annotated rows compare with its plain capture
        r = self.call({"op": "shot", "path": str(path)})
        return {"ms": r["ms"], "bytes": r["bytes"], "refs": None}

    def engine_pids(self) -> tuple[int | None, int | None]:
        # The floor process is also the timing harness (it holds other contenders' answers), so
        # its own memory says nothing about an engine: only its Chromium is reported.
        return None, self.browser_pid

    def close(self) -> None:
        self.proc.close()


class AbJson(Contender):
    """agentbrowser spoken to in JSON lines (raw socket or batch); subclasses send them."""

    browser = "agentbrowser"
    refs: dict[str, str] = {}

    def send(self, lines: list[dict[str, Any]], n: int = 1) -> tuple[list[float], list[dict[str, Any]]]:
        raise NotImplementedError

    def run(self, lines: list[dict[str, Any]], n: int = 1) -> tuple[list[float], list[dict[str, Any]]]:
        samples, answers = self.send(lines, n)
        for a in answers:
            if not isinstance(a, dict):
                raise BenchError(f"not an envelope: {str(a)[:200]}")
            if a.get("code") == "unknown_action":
                raise NotAvailable(f"{a.get('action')}: unknown_action")
            if not a.get("success"):
                raise BenchError(f"{a.get('action')}: [{a.get('code')}] {a.get('error')}")
        return samples, answers

    def open(self, url: str) -> dict[str, Any]:
        return {"ms": self.run([{"action": "open", "url": url}])[0][0]}

    def open_recording_har(self, url: str, har: Path) -> dict[str, Any]:
        """``open`` timed while a HAR recording (content ``text``) runs; start and stop untimed."""
        self.run([{"action": "har_start", "content": "text"}])
        try:
            ms = self.run([{"action": "open", "url": url}])[0][0]
        finally:
            _, answers = self.run([{"action": "har_stop", "path": str(har)}])
        if not (answers[0].get("data") or {}).get("entries"):
            raise BenchError("the HAR recorded no entries")
        return {"ms": ms}

    def open_with_route(self, url: str) -> dict[str, Any]:
        """``open`` timed while one route that matches none of the page's requests is set (so
        Chromium pauses every request for the engine's Fetch handler); route and unroute untimed."""
        glob = "**/bench-no-such-resource.json"
        self.run([{"action": "network_route", "url": glob, "body": "{}", "contentType": "application/json"}])
        try:
            ms = self.run([{"action": "open", "url": url}])[0][0]
        finally:
            _, answers = self.run([{"action": "network_unroute", "url": glob}])
        if (answers[0].get("data") or {}).get("removed", [{}])[0].get("hits", 0) != 0:
            raise BenchError(f"the route matched a request of the page: {str(answers[0])[:200]}")
        return {"ms": ms}

    def snapshot(self, interactive: bool) -> dict[str, Any]:
        samples, answers = self.run([{"action": "snapshot", "interactive": interactive}])
        data = answers[0].get("data") or {}
        return {"ms": samples[0], "bytes": len(str(data.get("text", "")).encode()), "refs": len(data.get("refs") or {})}

    def prepare_form(self) -> None:
        _, answers = self.run([{"action": "snapshot", "interactive": True}])
        refs = (answers[0].get("data") or {}).get("refs") or {}
        self.refs = {k: find_ref(refs, role, name) for k, (role, name) in FORM_REFS.items()}

    def click(self, evidence: bool = True) -> dict[str, Any]:
        self.run([{"action": "eval", "script": RESET}])
        click: dict[str, Any] = {"action": "click", "ref": self.refs["submit"]}
        if not evidence:
            click["evidence"] = False
        samples, answers = self.run([click, {"action": "eval", "script": READBACK}])
        check_readback((answers[-1].get("data") or {}).get("result"), "Welcome")
        return {"ms": samples[0]}

    def click_target(self, target: Any) -> dict[str, Any]:
        """`click` with a selector or locator target instead of the ref (same evidence), then the read."""
        self.run([{"action": "eval", "script": RESET}])
        samples, answers = self.run([{"action": "click", "ref": target}, {"action": "eval", "script": READBACK}])
        if not answers[0].get("success"):
            raise BenchError(f"click {target!r} failed: {answers[0].get('error')}")
        check_readback((answers[-1].get("data") or {}).get("result"), "Welcome")
        return {"ms": samples[0]}

    def locate(self, locator: dict[str, Any], want: int) -> dict[str, Any]:
        """`find` with a locator: its resolution (the page-side search and the refs it hands out)."""
        samples, answers = self.run([{"action": "find", "target": {"find": locator}, "limit": 1}])
        count = (answers[0].get("data") or {}).get("count")
        if count != want:
            raise BenchError(f"find {locator!r} matched {count}, not {want}: {answers[0].get('error')}")
        return {"ms": samples[0]}

    def a11y(self) -> dict[str, Any]:
        samples, answers = self.run([{"action": "a11y"}])
        data = answers[0].get("data") or {}
        counts = data.get("counts") or {}
        if not counts.get("passes"):
            raise BenchError(f"a11y answered no passed rules: {str(data)[:200]}")
        return {"ms": samples[0], "violations": counts.get("violations")}

    def fill(self, evidence: bool = True) -> dict[str, Any]:
        self.run([{"action": "eval", "script": RESET}])
        off = {} if evidence else {"evidence": False}
        lines = [{"action": "fill", "ref": self.refs[k], "value": v, **off} for k, v in FIELDS.items()]
        lines += [{"action": "click", "ref": self.refs["submit"], **off}, {"action": "eval", "script": READBACK}]
        samples, answers = self.run(lines)
        check_readback((answers[-1].get("data") or {}).get("result"), FIELDS["email"])
        return {"ms": samples[0]}

    def titles(self, n: int) -> dict[str, Any]:
        return {"ms": sum(self.run([{"action": "title"}], n)[0])}

    def cover(self) -> dict[str, Any]:
        """Click a button under a stable cookie banner: time until ``element_covered``."""
        _, answers = self.send([{"action": "snapshot"}])
        refs = (answers[0].get("data") or {}).get("refs") or {}
        buy = find_ref(refs, "button", "Buy")
        samples, answers = self.send([{"action": "click", "ref": buy}])
        if answers[0].get("code") != "element_covered":
            raise BenchError(f"expected element_covered, got {str(answers[0])[:200]}")
        return {"ms": samples[0]}

    def eval_title(self, n: int) -> dict[str, Any]:
        return {"samples": self.run([{"action": "eval", "script": TITLE_EXPR}], n)[0]}

    def screenshot(self, path: Path, annotate: bool) -> dict[str, Any]:
        line: dict[str, Any] = {"action": "screenshot", "path": str(path)}
        if annotate:
            line["annotate"] = True
        samples, answers = self.run([line])
        data = answers[0].get("data") or {}
        if data.get("path") != str(path) or not path.is_file():
            raise BenchError(f"screenshot wrote no file: {str(answers[0])[:200]}")
        if annotate and not data.get("annotations"):
            raise BenchError(f"annotated screenshot without annotations: {str(answers[0])[:200]}")
        return {"ms": samples[0], "bytes": data.get("size"), "refs": len(data.get("annotations") or []) if annotate else None}

    def read(self) -> dict[str, Any]:
        samples, answers = self.run([{"action": "read", "maxChars": 0}])
        return {"ms": samples[0], **check_read((answers[0].get("data") or {}).get("content"))}

    def status(self) -> dict[str, Any]:
        data: dict[str, Any] = self.run([{"action": "status"}])[1][0].get("data") or {}
        return data

    def engine_pids(self) -> tuple[int | None, int | None]:
        data = self.status()
        return data.get("pid"), (data.get("browser") or {}).get("pid")


class AbSocket(AbJson):
    """agentbrowser through the daemon's Unix socket, timed in native code by the floor."""

    name, label = "socket", "ab socket"

    def __init__(self, floor: Floor, socket: Path) -> None:
        self.floor, self.socket = floor, socket

    def send(self, lines: list[dict[str, Any]], n: int = 1) -> tuple[list[float], list[dict[str, Any]]]:
        r = self.floor.call({"op": "sock", "path": str(self.socket), "lines": [json.dumps(x) for x in lines], "n": n})
        return r["samples"], r["responses"]


class AbBaseline(AbSocket):
    """Another agentbrowser binary (``--baseline``, e.g. the previous commit) on its own daemon
    and Chromium, spoken to through its socket exactly like ``ab socket``."""

    name, label = "baseline", "ab baseline socket"
    browser = "agentbrowser-baseline"

    def __init__(self, floor: Floor, binary: Path, session: str, socket: Path, url: str) -> None:
        super().__init__(floor, socket)
        done = subprocess.run([str(binary), "--session", session, "open", url], capture_output=True, text=True, check=False)
        if done.returncode != 0:
            raise BenchError(f"the baseline daemon did not start: {done.stderr.strip()[:300]}")


class AbThis(AbBaseline):
    """This build on a session of its own, set up exactly as the ``--baseline`` one (its own daemon
    and Chromium, no other client): the numerator of ``this / baseline``, so the ratio compares
    like with like (``ab socket``'s session also serves the batch, CLI and SDK columns)."""

    name, label = "this", "ab socket, own session"
    browser = "agentbrowser-this"


class AbNoLog(AbJson):
    """The same agentbrowser binary on its own daemon and Chromium launched with
    ``--no-request-log``, spoken to through its socket like ``ab socket``: the reference the
    request log's cost is a ratio to (``open_5k`` only)."""

    name, label = "nolog", "ab socket, no request log"
    browser = "agentbrowser-nolog"
    rows = frozenset({"open_5k"})

    def __init__(self, floor: Floor, binary: Path, session: str, socket: Path, url: str) -> None:
        self.floor, self.socket = floor, socket
        argv = [str(binary), "--session", session, "--no-request-log", "open", url]
        done = subprocess.run(argv, capture_output=True, text=True, check=False)
        if done.returncode != 0:
            raise BenchError(f"the no-request-log daemon did not start: {done.stderr.strip()[:300]}")

    def send(self, lines: list[dict[str, Any]], n: int = 1) -> tuple[list[float], list[dict[str, Any]]]:
        r = self.floor.call({"op": "sock", "path": str(self.socket), "lines": [json.dumps(x) for x in lines], "n": n})
        return r["samples"], r["responses"]


class AbBatch(AbJson):
    """One ``agentbrowser batch`` process: JSON lines written to its stdin, envelopes read back."""

    name, label = "batch", "ab batch"

    def __init__(self, binary: Path, session: str) -> None:
        self.proc = LineProc([str(binary), "--session", session, "batch"], name="agentbrowser batch")

    def send(self, lines: list[dict[str, Any]], n: int = 1) -> tuple[list[float], list[dict[str, Any]]]:
        encoded = [json.dumps(x).encode() + b"\n" for x in lines]
        samples: list[float] = []
        answers: list[dict[str, Any]] = []
        self.proc.arm(300)
        try:
            for _ in range(n):
                answers = []
                t0 = time.perf_counter()
                for line in encoded:
                    self.proc.write(line)
                    answers.append(json.loads(self.proc.readline()))
                samples.append((time.perf_counter() - t0) * 1000)
        finally:
            self.proc.disarm()
        return samples, answers

    def close(self) -> None:
        self.proc.close()


class CliBase(Contender):
    """A CLI run once per command; each invocation is timed natively by the floor."""

    refs: dict[str, str] = {}

    def __init__(self, floor: Floor, binary: Path, session: str) -> None:
        self.floor, self.binary, self.session = floor, binary, session

    def argv(self, *args: str, session: str | None = None) -> list[str]:
        return [str(self.binary), "--session", session or self.session, *args]

    def exec(self, *args: str, n: int = 1, session: str | None = None) -> tuple[float, str]:
        r = self.floor.exec(self.argv(*args, session=session), n)
        out = f"{r['stdout']}{r['stderr']}"
        if r["status"] != 0:
            self.unavailable(r, args)
            raise BenchError(f"`{' '.join(args[:3])[:80]}` exited {r['status']}: {out.strip()[-400:]}")
        return sum(r["samples"]), str(r["stdout"])

    def unavailable(self, r: dict[str, Any], args: tuple[str, ...]) -> None:
        pass

    def json_data(self, stdout: str) -> dict[str, Any]:
        try:
            data: dict[str, Any] = json.loads(stdout).get("data") or {}
        except (ValueError, AttributeError) as exc:
            raise BenchError(f"not a JSON answer: {stdout[:200]!r}") from exc
        return data

    def open(self, url: str) -> dict[str, Any]:
        return {"ms": self.exec("open", url)[0]}

    def titles(self, n: int) -> dict[str, Any]:
        return {"ms": self.exec(*self.title_args(), n=n)[0]}

    def eval_title(self, n: int) -> dict[str, Any]:
        r = self.floor.exec(self.argv("eval", TITLE_EXPR), n)
        if r["status"] != 0:
            raise BenchError(f"eval exited {r['status']}: {r['stderr'][-300:]}")
        return {"samples": r["samples"]}

    def title_args(self) -> list[str]:
        return ["title"]

    def no_evidence(self, evidence: bool) -> list[str]:
        """The arguments that turn an action's evidence off (none: this CLI cannot)."""
        if not evidence:
            raise Unsupported
        return []

    def click(self, evidence: bool = True) -> dict[str, Any]:
        if not evidence:
            raise Unsupported
        self.exec("eval", RESET)
        ms_click, _ = self.exec("click", self.refs["submit"])
        ms_read, out = self.exec("eval", READBACK)
        check_readback(out, "Welcome")
        return {"ms": ms_click + ms_read}

    def fill(self, evidence: bool = True) -> dict[str, Any]:
        off = self.no_evidence(evidence)
        self.exec("eval", RESET)
        total = sum(self.exec("fill", self.refs[k], v, *off)[0] for k, v in FIELDS.items())
        total += self.exec("click", self.refs["submit"], *off)[0]
        ms_read, out = self.exec("eval", READBACK)
        check_readback(out, FIELDS["email"])
        return {"ms": total + ms_read}


class AbCli(CliBase):
    """``agentbrowser`` once per command against the warm daemon of the session."""

    name, label, browser = "cli", "ab CLI", "agentbrowser"

    def no_evidence(self, evidence: bool) -> list[str]:
        return [] if evidence else ["--no-evidence"]

    def unavailable(self, r: dict[str, Any], args: tuple[str, ...]) -> None:
        out = f"{r['stdout']}{r['stderr']}"
        if "unknown_action" in out or (r["status"] == 2 and "unrecognized subcommand" in out):
            raise NotAvailable(f"`agentbrowser {args[0]}`: {out.strip().splitlines()[0][:160]}")

    def snapshot(self, interactive: bool) -> dict[str, Any]:
        ms, out = self.exec("--json", "snapshot", *([] if interactive else ["--full"]))
        data = self.json_data(out)
        return {"ms": ms, "bytes": len(str(data.get("text", "")).encode()), "refs": len(data.get("refs") or {})}

    def prepare_form(self) -> None:
        _, out = self.exec("--json", "snapshot")
        refs = self.json_data(out).get("refs") or {}
        self.refs = {k: find_ref(refs, role, name) for k, (role, name) in FORM_REFS.items()}

    def read(self) -> dict[str, Any]:
        ms, out = self.exec("--json", "read", "--max-chars", "0")
        return {"ms": ms, **check_read(self.json_data(out).get("content"))}

    def a11y(self) -> dict[str, Any]:
        ms, out = self.exec("--json", "a11y")
        if not (self.json_data(out).get("counts") or {}).get("passes"):
            raise BenchError(f"a11y answered no passed rules: {out[:200]!r}")
        return {"ms": ms}

    def cold(self, url: str, rep: int) -> dict[str, Any]:
        session = f"{self.session}c{rep}"
        try:
            r = self.floor.exec(self.argv("open", url, session=session))
            if r["status"] != 0:
                raise BenchError(f"cold open exited {r['status']}: {r['stderr'][-300:]}")
            return {"ms": r["samples"][0]}
        finally:
            self.floor.exec(self.argv("close", session=session))


class AgentBrowserCli(CliBase):
    """agent-browser 0.41.2 (npm), its native binary once per command, daemon warm."""

    name, label, browser, own = "ab-peer", "agent-browser", "agent-browser", False

    def title_args(self) -> list[str]:
        return ["get", "title"]

    def snapshot(self, interactive: bool) -> dict[str, Any]:
        ms, out = self.exec("--json", "snapshot", *(["-i"] if interactive else []))
        data = self.json_data(out)
        return {"ms": ms, "bytes": len(str(data.get("snapshot", "")).encode()), "refs": len(data.get("refs") or {})}

    def prepare_form(self) -> None:
        _, out = self.exec("--json", "snapshot", "-i")
        refs = self.json_data(out).get("refs") or {}
        self.refs = {k: "@" + find_ref(refs, role, name) for k, (role, name) in FORM_REFS.items()}

    def read(self) -> dict[str, Any]:
        ms, out = self.exec("--json", "read")
        return {"ms": ms, **check_read(self.json_data(out).get("content"))}

    def a11y(self) -> dict[str, Any]:
        ms, out = self.exec("--json", "a11y")
        data = self.json_data(out)
        if not isinstance(data, dict) or not data:
            raise BenchError(f"a11y printed no audit: {out[:200]!r}")
        return {"ms": ms}

    def cold(self, url: str, rep: int) -> dict[str, Any]:
        session = f"{self.session}c{rep}"
        try:
            r = self.floor.exec(self.argv("open", url, session=session))
            if r["status"] != 0:
                raise BenchError(f"cold open exited {r['status']}: {r['stderr'][-300:]}")
            return {"ms": r["samples"][0]}
        finally:
            self.floor.exec(self.argv("close", session=session))

    def engine_pids(self) -> tuple[int | None, int | None]:
        sock_dir = Path(os.environ.get("AGENT_BROWSER_SOCKET_DIR", ""))
        try:
            pid = int((sock_dir / f"{self.session}.pid").read_text().strip())
        except (OSError, ValueError):
            return None, None
        return pid, procs.find_child(pid, "chromium")

    def close(self) -> None:
        self.floor.exec(self.argv("close"))


class AgentBrowserBatch(AgentBrowserCli):
    """agent-browser's ``batch``: the commands of one measurement in one process (JSON on stdin)."""

    name, label = "ab-peer-batch", "agent-browser batch"

    def batch(self, commands: list[list[str]]) -> tuple[float, list[Any]]:
        r = self.floor.exec(self.argv("--json", "batch", "--bail"), stdin=json.dumps(commands))
        if r["status"] != 0:
            raise BenchError(f"batch exited {r['status']}: {(r['stdout'] + r['stderr'])[-400:]}")
        try:
            results = json.loads(r["stdout"])
        except ValueError as exc:
            raise BenchError(f"batch printed no JSON: {r['stdout'][:200]!r}") from exc
        return r["samples"][0], results

    def open(self, url: str) -> dict[str, Any]:
        raise Unsupported

    def snapshot(self, interactive: bool) -> dict[str, Any]:
        raise Unsupported

    def cold(self, url: str, rep: int) -> dict[str, Any]:
        raise Unsupported

    def eval_title(self, n: int) -> dict[str, Any]:
        raise Unsupported

    def click(self, evidence: bool = True) -> dict[str, Any]:
        if not evidence:
            raise Unsupported
        self.exec("eval", RESET)
        ms, results = self.batch([["click", self.refs["submit"]], ["eval", READBACK]])
        check_readback(json.dumps(results[-1]), "Welcome")
        return {"ms": ms}

    def fill(self, evidence: bool = True) -> dict[str, Any]:
        if not evidence:
            raise Unsupported
        self.exec("eval", RESET)
        commands = [["fill", self.refs[k], v] for k, v in FIELDS.items()]
        commands += [["click", self.refs["submit"]], ["eval", READBACK]]
        ms, results = self.batch(commands)
        check_readback(json.dumps(results[-1]), FIELDS["email"])
        return {"ms": ms}

    def titles(self, n: int) -> dict[str, Any]:
        return {"ms": self.batch([["get", "title"]] * n)[0]}

    def read(self) -> dict[str, Any]:
        raise Unsupported

    def close(self) -> None:
        pass  # the CLI contender closes the shared daemon


class PyWorker(Contender):
    """A Python contender in its own process (bench/pyworker.py), timed next to its calls."""

    kind = ""

    #: The interpreter of the worker, and its environment (None: this one's).
    python = sys.executable
    env: dict[str, str] | None = None
    #: The ops this worker measures (None: all); others are Unsupported ("–").
    supported: frozenset[str] | None = None

    def __init__(self, worker_args: list[str]) -> None:
        self.worker_args = worker_args
        self.proc = self.spawn()
        hello = json.loads(self.proc.readline())
        if not hello.get("ok"):
            self.skip = f"not importable ({hello.get('missing')})"
            self.proc.close()
            return
        self.worker_pid = int(hello["pid"])
        self.call({"op": "start"}, timeout=120)

    def spawn(self) -> LineProc:
        script = Path(__file__).resolve().parent / "pyworker.py"
        return LineProc([self.python, str(script), *self.worker_args], name=f"{self.kind} worker", env=self.env)

    def call(self, req: dict[str, Any], timeout: float = 300.0, proc: LineProc | None = None) -> dict[str, Any]:
        if self.supported is not None and req["op"] not in self.supported:
            raise Unsupported
        answer = (proc or self.proc).request(req, timeout)
        if answer.get("na"):
            raise NotAvailable(str(answer["na"]))
        if not answer.get("ok"):
            raise BenchError(f"{self.kind} {req.get('op')}: {answer.get('error')}")
        return answer

    def open(self, url: str) -> dict[str, Any]:
        return {"ms": self.call({"op": "open", "url": url})["ms"]}

    def snapshot(self, interactive: bool) -> dict[str, Any]:
        r = self.call({"op": "snapshot", "interactive": interactive})
        return {"ms": r["ms"], "bytes": r["bytes"], "refs": r["refs"]}

    def prepare_form(self) -> None:
        self.call({"op": "prepare_form"})

    def click(self, evidence: bool = True) -> dict[str, Any]:
        if not evidence:
            raise Unsupported
        r = self.call({"op": "click", "reset": RESET, "readback": READBACK})
        check_readback(r["value"], "Welcome")
        return {"ms": r["ms"]}

    def fill(self, evidence: bool = True) -> dict[str, Any]:
        if not evidence:
            raise Unsupported
        r = self.call({"op": "fill", "reset": RESET, "fields": FIELDS, "readback": READBACK})
        check_readback(r["value"], FIELDS["email"])
        return {"ms": r["ms"]}

    def titles(self, n: int) -> dict[str, Any]:
        return {"ms": self.call({"op": "titles", "n": n})["ms"]}

    def eval_title(self, n: int) -> dict[str, Any]:
        return {"samples": self.call({"op": "eval", "expr": TITLE_EXPR, "n": n})["samples"]}

    def read(self) -> dict[str, Any]:
        r = self.call({"op": "read"})
        return {"ms": r["ms"], **check_read(r["content"])}

    def cold(self, url: str, rep: int) -> dict[str, Any]:
        """In a fresh worker process, so that nothing is warm; its start-up and imports are not timed."""
        if self.supported is not None and "cold" not in self.supported:
            raise Unsupported
        proc = self.spawn()
        try:
            json.loads(proc.readline())
            return {"ms": self.call({"op": "cold", "url": url}, timeout=120, proc=proc)["ms"]}
        finally:
            proc.close()

    def close(self) -> None:
        if self.skip is None:
            try:
                self.call({"op": "stop"}, timeout=30)
            except (BenchError, NotAvailable, ValueError):
                pass
            self.proc.close()


class AbSdk(PyWorker):
    """The agentbrowser Python SDK (``Browser.connect`` to the CLI's session)."""

    name, label, browser, kind = "sdk", "ab SDK", "agentbrowser", "sdk"


class Playwright(PyWorker):
    """Playwright for Python on Debian's Chromium."""

    name, label, browser, own, kind = "playwright", "Playwright", "playwright", False, "playwright"

    def read(self) -> dict[str, Any]:
        raise Unsupported  # Playwright has no reader of a page as Markdown

    def engine_pids(self) -> tuple[int | None, int | None]:
        driver = procs.find_child(self.worker_pid, "node")
        return driver, procs.find_child(driver, "chromium") if driver else None


#: pyagentbrowser's own virtual environment (its import name is ``agentbrowser`` too).
PYAB_PYTHON = Path(__file__).resolve().parent / "peers" / "pyab" / "bin" / "python"


class PyAgentBrowser(PyWorker):
    """pyagentbrowser 0.39.0 (PyPI; the agent-browser engine in-process) in its own virtual
    environment, with its own Chromium: measured for `read` only."""

    name, label, browser, own, kind = "pyab", "pyagentbrowser", "pyagentbrowser", False, "pyab"
    python = str(PYAB_PYTHON)
    supported = frozenset({"start", "open", "read", "stop"})

    def __init__(self, worker_args: list[str]) -> None:
        # Without our PYTHONPATH, so that `import agentbrowser` is pyagentbrowser's.
        self.env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
        super().__init__(worker_args)
