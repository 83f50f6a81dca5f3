"""Process helpers for the benchmark: line-protocol children, memory from /proc, and the sweep
that leaves nothing behind.

Every process a run starts inherits ``AGENTBROWSER_BENCH_RUN=<id>`` in its environment (daemons,
the Chromiums they launch, peers' daemons and drivers). ``sweep`` kills whatever still carries
the run's id at the end, so a failure or Ctrl-C cannot leave a browser behind, and nothing of
anyone else's is touched.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import threading
import time
from pathlib import Path
from typing import Any

MARK = "AGENTBROWSER_BENCH_RUN"


class BenchError(Exception):
    """A contender failed or broke its protocol."""


class LineProc:
    """A child speaking JSON (or plain) lines on stdin/stdout, with a watchdog per request."""

    def __init__(self, argv: list[str], *, name: str, env: dict[str, str] | None = None) -> None:
        self.name = name
        self.proc = subprocess.Popen(
            argv,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env=env,
        )
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.stdin = self.proc.stdin
        self.stdout = self.proc.stdout
        self._deadline = 0.0
        self._lock = threading.Lock()
        threading.Thread(target=self._watch, daemon=True).start()

    def _watch(self) -> None:
        while self.proc.poll() is None:
            time.sleep(0.25)
            with self._lock:
                late = self._deadline and time.monotonic() > self._deadline
            if late:
                self.proc.kill()

    def arm(self, timeout: float) -> None:
        with self._lock:
            self._deadline = time.monotonic() + timeout

    def disarm(self) -> None:
        with self._lock:
            self._deadline = 0.0

    def write(self, data: bytes) -> None:
        try:
            self.stdin.write(data)
            self.stdin.flush()
        except (BrokenPipeError, ValueError) as exc:
            raise BenchError(f"{self.name} is gone: {exc}") from exc

    def readline(self) -> bytes:
        line = self.stdout.readline()
        if not line:
            raise BenchError(f"{self.name} closed its output (exit status {self.proc.poll()})")
        return line

    def request(self, obj: dict[str, Any], timeout: float = 300.0) -> dict[str, Any]:
        """Sends one JSON request and reads one JSON answer."""
        self.arm(timeout)
        try:
            self.write(json.dumps(obj).encode() + b"\n")
            answer: dict[str, Any] = json.loads(self.readline())
            return answer
        finally:
            self.disarm()

    def close(self, timeout: float = 15.0) -> None:
        try:
            self.stdin.close()
        except OSError:
            pass
        try:
            self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(5)


def read_proc(pid: int, name: str) -> str:
    try:
        return Path(f"/proc/{pid}/{name}").read_text()
    except OSError:
        return ""


def pids() -> list[int]:
    return [int(p) for p in os.listdir("/proc") if p.isdigit()]


def stat(pid: int) -> tuple[str, int, int] | None:
    """(comm, ppid, pgid) of a process."""
    text = read_proc(pid, "stat")
    if not text:
        return None
    comm = text[text.index("(") + 1 : text.rindex(")")]
    fields = text[text.rindex(")") + 2 :].split()
    return comm, int(fields[1]), int(fields[2])


def descendants(root: int) -> list[int]:
    """``root``, every process below it, and every process of its group when it leads one."""
    table = {p: s for p in pids() if (s := stat(p)) is not None}
    found = {root}
    changed = True
    while changed:
        changed = False
        for pid, (_, ppid, pgid) in table.items():
            if pid not in found and (ppid in found or pgid == root):
                found.add(pid)
                changed = True
    return sorted(p for p in found if p in table)


def find_child(parent: int, comm: str) -> int | None:
    """The top descendant of ``parent`` whose name starts with ``comm`` (not one below another such)."""
    for pid in descendants(parent):
        s = stat(pid)
        if s and s[0].startswith(comm) and pid != parent:
            parent_stat = stat(s[1])
            if not parent_stat or not parent_stat[0].startswith(comm):
                return pid
    return None


def memory_kib(pid: int) -> tuple[int, int]:
    """(RSS, PSS) in KiB from /proc/<pid>/smaps_rollup; (0, 0) when the process is gone."""
    rss = pss = 0
    for line in read_proc(pid, "smaps_rollup").splitlines():
        if line.startswith("Rss:"):
            rss = int(line.split()[1])
        elif line.startswith("Pss:"):
            pss = int(line.split()[1])
    return rss, pss


def tree_pss_kib(root: int) -> tuple[int, int]:
    """(summed PSS in KiB, process count) of a process tree."""
    tree = descendants(root)
    return sum(memory_kib(p)[1] for p in tree), len(tree)


def marked(run_id: str) -> list[int]:
    """Processes (other than this one) whose environment carries this run's id."""
    needle = f"{MARK}={run_id}".encode()
    me = os.getpid()
    found = []
    for pid in pids():
        if pid == me:
            continue
        try:
            env = Path(f"/proc/{pid}/environ").read_bytes()
        except OSError:
            continue
        if needle in env.split(b"\0"):
            found.append(pid)
    return found


def sweep(run_id: str, timeout: float = 5.0) -> list[int]:
    """Kills every process this run left; returns the pids that were still there."""
    left = marked(run_id)
    deadline = time.monotonic() + timeout
    remaining = left
    while remaining and time.monotonic() < deadline:
        for pid in remaining:
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        time.sleep(0.1)
        remaining = marked(run_id)  # zombies have an empty environment and do not match
    return left


def beside_baseline(baseline: Path | None) -> dict[str, Path]:
    """This build's `agentbrowser` and a baseline's by label, for the side-by-side scripts: the
    baseline given, else the newest build in target/baseline/ (`bench/baseline.sh REV` makes one),
    else none. Exits naming the build command when a binary is missing."""
    repo = Path(__file__).resolve().parents[1]
    binaries = {"this build": repo / "target" / "release" / "agentbrowser"}
    if baseline is None:
        found = sorted(repo.glob("target/baseline/*/agentbrowser"), key=lambda p: p.stat().st_mtime)
        baseline = found[-1] if found else None
    if baseline is not None:
        binaries["baseline " + baseline.parent.name] = baseline
    for b in binaries.values():
        if not os.access(b, os.X_OK):
            raise SystemExit(f"{b} is not an executable (build it: scripts/build-release.sh, or bench/baseline.sh REV)")
    return binaries
