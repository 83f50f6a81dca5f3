"""Renders a benchmark run (the JSON that bench.py writes) as Markdown: medians, ratios computed
pair by pair from the same run, spread, memory, and the targets of issues 2, 3 and 4.

    python3 bench/report.py bench/out/results-<stamp>.json     # re-render a saved run
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

COLUMNS = ["socket", "nolog", "this", "baseline", "batch", "cli", "sdk", "cdp", "ab-peer", "ab-peer-batch", "playwright", "pyab"]
LABELS = {
    "socket": "ab socket",
    "nolog": "ab socket, no request log",
    "this": "ab socket, own session",
    "baseline": "ab baseline socket",
    "batch": "ab batch",
    "cli": "ab CLI",
    "sdk": "ab SDK",
    "cdp": "CDP floor",
    "ab-peer": "agent-browser",
    "ab-peer-batch": "agent-browser batch",
    "playwright": "Playwright",
    "pyab": "pyagentbrowser",
}
# (numerator, denominator, column title): agentbrowser against the floor and against the peer of its kind.
ENGINES = {
    "agentbrowser": "agentbrowser daemon",
    "agentbrowser-baseline": "agentbrowser baseline daemon (--baseline)",
    "agentbrowser-this": "agentbrowser daemon on a session of its own, set up as the baseline's (--baseline)",
    "agentbrowser-nolog": "agentbrowser daemon launched with --no-request-log (open_5k)",
    "cdp": "CDP floor (Chromium only)",
    "agent-browser": "agent-browser daemon",
    "playwright": "Playwright driver (node)",
    "pyagentbrowser": "pyagentbrowser (in-process engine)",
}
RATIOS = [
    ("this", "baseline", "this / baseline (each on its own session)"),
    ("socket", "nolog", "ab socket / no request log"),
    ("socket", "cdp", "ab socket / CDP floor"),
    ("batch", "cdp", "ab batch / CDP floor"),
    ("cli", "ab-peer", "ab CLI / agent-browser"),
    ("batch", "ab-peer-batch", "ab batch / agent-browser batch"),
    ("sdk", "playwright", "ab SDK / Playwright"),
    ("sdk", "pyab", "ab SDK / pyagentbrowser"),
]


def fmt(v: float | None) -> str:
    if v is None:
        return "–"
    if v < 1:
        return f"{v:.3f}"
    if v < 10:
        return f"{v:.2f}"
    if v < 100:
        return f"{v:.1f}"
    return f"{v:.0f}"


def signed(v: float | None) -> str:
    return "–" if v is None else ("+" if v >= 0 else "-") + fmt(abs(v))


def kb(n: int) -> str:
    return f"{n / 1000:.1f} KB"


def cell_text(r: dict[str, Any] | None) -> str:
    if r is None:
        return "–"
    if "median" in r:
        text = fmt(r["median"])
        if "bytes" in r:
            text += f" ({kb(r['bytes'])}, {r['refs']} refs)" if r.get("refs") is not None else f" ({kb(r['bytes'])})"
        return text
    if "na" in r:
        return "n/a"
    if "error" in r:
        return "**failed**"
    return "–"


def median(results: dict[str, Any], mid: str, name: str) -> float | None:
    for m in results["measurements"]:
        if m["id"] == mid:
            r = m["results"].get(name) or {}
            value = r.get("median")
            return float(value) if value is not None else None
    return None


def field(results: dict[str, Any], mid: str, name: str, key: str) -> Any:
    for m in results["measurements"]:
        if m["id"] == mid:
            return (m["results"].get(name) or {}).get(key)
    return None


def table(header: list[str], rows: list[list[str]]) -> list[str]:
    out = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    out += ["| " + " | ".join(row) + " |" for row in rows]
    return out


def targets(results: dict[str, Any]) -> list[list[str]]:
    """[issue, target, measured, met] rows."""

    def diff(mid: str, a: str, b: str) -> float | None:
        x, y = median(results, mid, a), median(results, mid, b)
        return None if x is None or y is None else x - y

    def verdict(value: float | None, limit: float) -> str:
        return "not measured" if value is None else ("met" if value <= limit else "**not met**")

    def why(mid: str, name: str) -> str:
        na = field(results, mid, name, "na")
        err = field(results, mid, name, "error")
        return "n/a: engine has no such action yet" if na else ("failed" if err else "–")

    rows: list[list[str]] = []

    def add(issue: str, target: str, value: float | None, limit: float, shown: str, missing: str = "–") -> None:
        rows.append([issue, target, shown if value is not None else missing, verdict(value, limit)])

    d = diff("eval_title", "socket", "cdp")
    add("2", "`eval document.title` through the daemon socket ≤ 0.3 ms above direct CDP", d, 0.3,
        f"{signed(d)} ms ({fmt(median(results, 'eval_title', 'socket'))} vs {fmt(median(results, 'eval_title', 'cdp'))})")
    d = diff("eval_title", "cli", "cdp")
    add("2", "CLI ≤ 3 ms per invocation above direct CDP", d, 3.0,
        f"{signed(d)} ms ({fmt(median(results, 'eval_title', 'cli'))} per process; spawning /bin/true {fmt(median(results, 'spawn', 'cdp'))})")
    d = diff("cold", "cli", "cdp")
    add("2", "cold start ≤ 150 ms above plain Chromium start + navigate", d, 150.0,
        f"{signed(d)} ms ({fmt(median(results, 'cold', 'cli'))} vs {fmt(median(results, 'cold', 'cdp'))})")
    rss = ((results.get("memory", {}).get("form") or {}).get("agentbrowser") or {}).get("engine_rss_mib")
    add("2", "daemon RSS ≤ 20 MiB with one page open", rss, 20.0, f"{rss} MiB")
    v = median(results, "snap_5k", "socket")
    add("3", "interactive snapshot of the 5k page ≤ 150 ms (through the daemon)", v, 150.0, f"{fmt(v)} ms", why("snap_5k", "socket"))
    b = field(results, "snap_5k", "socket", "bytes")
    add("3", "its text ≤ 60 KB", None if b is None else b / 1000, 60.0, kb(b) if b is not None else "", why("snap_5k", "socket"))
    v = median(results, "snap_form", "socket")
    add("3", "interactive snapshot of the small form ≤ 10 ms", v, 10.0, f"{fmt(v)} ms", why("snap_form", "socket"))
    v = median(results, "click", "socket")
    add("3", "click a ref and read back a text ≤ 15 ms", v, 15.0, f"{fmt(v)} ms (evidence on; off: {fmt(median(results, 'click_noev', 'socket'))} ms)", why("click", "socket"))
    t1, t5, t20 = (median(results, f"snap_{k}", "socket") for k in ("1k", "5k", "20k"))
    growth = None if t5 is None or t20 is None else t20 / t5
    add("3", "cost grows linearly with page size (20k ≤ 5 × 5k, i.e. 4× the elements + 25%)", growth, 5.0,
        f"1k {fmt(t1)} / 5k {fmt(t5)} / 20k {fmt(t20)} ms (20k/5k = {fmt(growth)})", why("snap_20k", "socket"))
    t = median(results, "titles50", "sdk")
    per = None if t is None else t / 50
    add("4", "Python `page.title()` ≤ 1.0 ms per call", per, 1.0, f"{fmt(per)} ms", why("titles50", "sdk"))
    v, base = median(results, "click", "this"), median(results, "click", "baseline")
    ratio = None if v is None or base is None else v / base
    add("8", "click a ref and read back ≤ 1.1 × the baseline (previous commit, `--baseline`)", ratio, 1.1,
        f"{fmt(ratio)} × ({fmt(v)} vs {fmt(base)} ms)", "not measured (no --baseline)")
    v = median(results, "cover", "socket")
    add("8", "a stable cover reported in < 500 ms", None if v is None else v / 1000, 0.5,
        f"{fmt(v)} ms (baseline {fmt(median(results, 'cover', 'baseline'))} ms)", why("cover", "socket"))
    b = field(results, "snap_50k", "socket", "bytes")
    add("8", "50k-cell table: interactive snapshot bounded (≤ 100 KB + its last line)", None if b is None else b / 100_400, 1.0,
        f"{kb(b) if b is not None else ''} in {fmt(median(results, 'snap_50k', 'socket'))} ms "
        f"(baseline {kb(field(results, 'snap_50k', 'baseline', 'bytes') or 0)} in {fmt(median(results, 'snap_50k', 'baseline'))} ms)",
        why("snap_50k", "socket"))
    v, floor = median(results, "shot", "socket"), median(results, "shot", "cdp")
    ratio = None if v is None or floor is None else v / floor
    add("11", "screenshot of the viewport ≤ 1.1 × a direct `Page.captureScreenshot` (decoded, written)", ratio, 1.1,
        f"{fmt(ratio)} × ({fmt(v)} vs {fmt(floor)} ms)", why("shot", "socket"))
    v = median(results, "shot_annot", "socket")
    ratio = None if v is None or floor is None else v / floor
    add("11", "annotated screenshot ≤ 1.5 × the direct capture", ratio, 1.5,
        f"{fmt(ratio)} × ({fmt(v)} vs {fmt(floor)} ms; 1k page: {fmt(median(results, 'shot_annot_1k', 'socket'))} ms)",
        why("shot_annot", "socket"))
    v = median(results, "read_docs", "socket")
    add("11", "read of the active tab (docs page: 600 links, 40 code blocks) ≤ 100 ms", v, 100.0,
        f"{fmt(v)} ms (ab CLI {fmt(median(results, 'read_docs', 'cli'))}, SDK {fmt(median(results, 'read_docs', 'sdk'))}; "
        f"agent-browser {fmt(median(results, 'read_docs', 'ab-peer'))}, pyagentbrowser {fmt(median(results, 'read_docs', 'pyab'))}; "
        f"outerHTML alone {fmt(median(results, 'read_docs', 'cdp'))})", why("read_docs", "socket"))
    v, ref = median(results, "click_sel", "socket"), median(results, "click", "socket")
    ratio = None if v is None or ref is None else v / ref
    add("14", "click by CSS selector ≤ 1.1 × click by ref (same run, evidence on)", ratio, 1.1,
        f"{fmt(ratio)} × ({fmt(v)} vs {fmt(ref)} ms)", why("click_sel", "socket"))
    v = median(results, "find_5k", "socket")
    add("14", "locator resolution on the 5k page ≤ 10 ms", v, 10.0, f"{fmt(v)} ms", why("find_5k", "socket"))
    # The floor's fill has no evidence either way: its sample in the same row is the reference.
    v, floor = median(results, "fill_noev", "socket"), median(results, "fill_noev", "cdp")
    ratio = None if v is None or floor is None else v / floor
    ev = median(results, "fill", "socket")
    add("20", "fill 3 fields + submit + read back, evidence off ≤ 1.5 × the CDP floor", ratio, 1.5,
        f"{fmt(ratio)} × ({fmt(v)} vs {fmt(floor)} ms; evidence on {fmt(ev)} ms: "
        f"the evidence costs {signed(None if ev is None or v is None else ev - v)} ms)", why("fill_noev", "socket"))
    d = diff("eval_title", "cli", "cdp")
    add("20", "CLI ≤ 2 ms per invocation above direct CDP", d, 2.0,
        f"{signed(d)} ms ({fmt(median(results, 'eval_title', 'cli'))} per process; spawning /bin/true {fmt(median(results, 'spawn', 'cdp'))})")
    d = diff("cold", "cli", "cdp")
    add("20", "cold start ≤ 100 ms above plain Chromium start + navigate", d, 100.0,
        f"{signed(d)} ms ({fmt(median(results, 'cold', 'cli'))} vs {fmt(median(results, 'cold', 'cdp'))})")
    v, ref = median(results, "open_5k", "socket"), median(results, "open_5k", "nolog")
    ratio = None if v is None or ref is None else v / ref
    add("15", "load of the 5k page with the request log ≤ 1.05 × without it (`--no-request-log`)", ratio, 1.05,
        f"{fmt(ratio)} × ({fmt(v)} vs {fmt(ref)} ms)", why("open_5k", "nolog"))
    har = median(results, "open_5k_har", "socket")
    ratio = None if har is None or v is None else har / v
    add("15", "the same load while recording HAR ≤ 1.2 × without the recording", ratio, 1.2,
        f"{fmt(ratio)} × ({fmt(har)} vs {fmt(v)} ms)", why("open_5k_har", "socket"))
    route = median(results, "open_5k_route", "socket")
    ratio = None if route is None or v is None else route / v
    rows.append(["15", "the same load with one route that matches none of its requests (Fetch interception on)",
                 f"{fmt(ratio)} × ({fmt(route)} vs {fmt(v)} ms)" if ratio is not None else why("open_5k_route", "socket"),
                 "no target"])
    imp = results.get("import_ms")
    add("4", "`import agentbrowser` < 150 ms", imp, 150.0, f"{fmt(imp)} ms (-X importtime, cumulative)")
    return rows


def render(results: dict[str, Any]) -> str:
    meta = results["meta"]
    mach = meta["machine"]
    present = [c for c in COLUMNS if any(c in m["results"] for m in results["measurements"])]
    lines = [
        f"# agentbrowser benchmark, {meta['date']}",
        "",
        f"Command: `{meta['command']}` ({meta['mode']}: {meta['reps']} repetition(s) after {meta['warmup']} warm-up, "
        "contenders interleaved round-robin with a rotating start). Times in ms, medians.",
        "",
        f"Machine: {mach['nproc']} CPUs ({mach['cpu']}), {mach['memory']} memory, Linux {mach['kernel']}, Python {mach['python']}; "
        f"load average {meta['loadavg_start']} at start, {meta.get('loadavg_end', '?')} at end.",
        f"Versions: {mach['chromium']}; agentbrowser {mach['agentbrowser']} (commit {mach['commit']}, binary built {mach.get('agentbrowser_built', '?')}); "
        f"agent-browser {mach.get('agent-browser') or 'not installed'}; Playwright {mach.get('playwright') or 'not installed'}.",
    ]
    if meta.get("elements"):
        lines.append("Pages: " + ", ".join(f"{k} {v} elements" for k, v in meta["elements"].items()) + "; served on 127.0.0.1.")
    for name, why in results.get("skipped", {}).items():
        lines.append(f"Skipped {LABELS.get(name, name)}: {why}.")
    lines += ["", "## Medians", ""]
    rows = [[m["title"]] + [cell_text(m["results"].get(c)) for c in present] for m in results["measurements"]]
    lines += table(["measurement"] + [LABELS[c] for c in present], rows)
    lines += [
        "",
        "ab socket: JSON lines on the daemon's Unix socket, timed in native code (the floor's client). "
        "ab batch: one `agentbrowser batch` process, lines written and answers read one at a time. "
        "CLI columns: one process per command, timed natively; a row of several commands adds them. "
        "Snapshots: (text size, refs). n/a: the engine answers `unknown_action` (not built yet); "
        "–: not applicable to that contender.",
        "",
        "## Ratios (same run; below 1 means agentbrowser is faster)",
        "",
    ]
    ratio_cols = [r for r in RATIOS if r[0] in present and r[1] in present]
    rows = []
    for m in results["measurements"]:
        row = [m["title"]]
        for a, b, _ in ratio_cols:
            x, y = median(results, m["id"], a), median(results, m["id"], b)
            row.append(f"{x / y:.2f}" if x is not None and y else "–")
        if any(c != "–" for c in row[1:]):
            rows.append(row)
    lines += table(["measurement"] + [t for _, _, t in ratio_cols], rows)
    lines += ["", "## Targets (issues 2, 3, 4, 8, 11, 14)", ""]
    lines += table(["issue", "target", "measured (medians)", "status"], targets(results))
    lines += ["", "## Memory (MiB; engine = daemon, driver or client process; Chromium = PSS summed over its process tree)", ""]
    rows = []
    for state, per in results.get("memory", {}).items():
        for browser, r in per.items():
            rows.append([state, ENGINES.get(browser, browser), str(r.get("engine_rss_mib", "–")), str(r.get("engine_pss_mib", "–")),
                         f"{r.get('chromium_pss_mib', '–')} ({r.get('chromium_processes', '?')} processes)"])
    lines += table(["page", "engine", "engine RSS", "engine PSS", "Chromium PSS"], rows)
    lines += ["", "## Spread (median [min–max], samples)", ""]
    rows = []
    for m in results["measurements"]:
        row = [m["title"]]
        for c in present:
            r = m["results"].get(c)
            row.append(f"{fmt(r['median'])} [{fmt(r['min'])}–{fmt(r['max'])}] n={r['n']}" if r and "median" in r else cell_text(r))
        rows.append(row)
    lines += table(["measurement"] + [LABELS[c] for c in present], rows)
    notes = []
    for m in results["measurements"]:
        for c, r in m["results"].items():
            if "na" in r:
                notes.append(f"- n/a, {m['title']}, {LABELS.get(c, c)}: {r['na']}")
            elif "error" in r:
                notes.append(f"- failed, {m['title']}, {LABELS.get(c, c)}: {r['error']}")
    if notes:
        lines += ["", "## Not measured", ""] + notes
    return "\n".join(lines) + "\n"


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    print(render(json.loads(Path(argv[1]).read_text())), end="")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
