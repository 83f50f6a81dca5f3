#!/usr/bin/env python3
"""What the snapshot's reach costs by itself: the CDP calls the engine makes before each frame's walk
(crates/engine/src/reach.rs), timed against a headless Chromium on the bench pages.

    python3 bench/reach_cost.py [--reps N]     # large-5k.html and reach-5k.html

Per page: the median of `Runtime.evaluate(document)` + `DOM.describeNode(depth -1, pierce)` and
`DOMDebugger.getEventListeners(depth -1, pierce)` (run concurrently, as the engine does), and the
number of closed shadow roots and click-like listener elements found. Then the listener search alone
as the engine makes it before every snapshot (through a kept handle on the document that is in no
object group), beside the same call through a handle in an object group (the engine before 9ef8b07):
Chromium then wraps every listener's handler function into that group, two handles a listener, and
the answer grows. Needs the `websockets` package.
"""

from __future__ import annotations

import asyncio
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
import pages  # noqa: E402
from cdp import Cdp  # noqa: E402
from cdp import page as cdp_page  # noqa: E402

CLICK = {"click", "mousedown", "mouseup", "pointerdown", "pointerup", "touchstart"}


def closed_roots(node: dict) -> int:
    n = sum(1 for r in node.get("shadowRoots", []) if r.get("shadowRootType") == "closed")
    for r in node.get("shadowRoots", []):
        n += closed_roots(r)
    for c in node.get("children", []):
        n += closed_roots(c)
    return n


async def listener_search(cdp: "Cdp", reps: int) -> dict[str, tuple[float, int]]:
    """Median time and answer size of `getEventListeners` through an ungrouped and a grouped handle."""
    handles = {
        "no object group (the engine)": (await cdp.call("Runtime.evaluate", {"expression": "document"}))["result"]["objectId"],
        "in an object group (before 9ef8b07)": (
            await cdp.call("Runtime.evaluate", {"expression": "document", "objectGroup": "kept"})
        )["result"]["objectId"],
    }
    times: dict[str, list[float]] = {k: [] for k in handles}
    size: dict[str, int] = {}
    for _ in range(reps):
        for k, oid in handles.items():
            t0 = time.perf_counter()
            r = await cdp.call("DOMDebugger.getEventListeners", {"objectId": oid, "depth": -1, "pierce": True})
            times[k].append((time.perf_counter() - t0) * 1000)
            size[k] = len(json.dumps(r))
    await cdp.call("Runtime.releaseObjectGroup", {"objectGroup": "kept"})
    return {k: (statistics.median(v), size[k]) for k, v in times.items()}


async def measure(url: str, reps: int) -> tuple[float, int, int, dict[str, tuple[float, int]]]:
    async with cdp_page(url) as cdp:
        times, roots, clickable = [], 0, 0
        for _ in range(reps):
            t0 = time.perf_counter()
            doc = await cdp.call("Runtime.evaluate", {"expression": "document", "objectGroup": "g"})
            oid = doc["result"]["objectId"]
            tree, listeners = await asyncio.gather(
                cdp.call("DOM.describeNode", {"objectId": oid, "depth": -1, "pierce": True}),
                cdp.call("DOMDebugger.getEventListeners", {"objectId": oid, "depth": -1, "pierce": True}),
            )
            times.append((time.perf_counter() - t0) * 1000)
            await cdp.call("Runtime.releaseObjectGroup", {"objectGroup": "g"})
            roots = closed_roots(tree["node"])
            clickable = len({x["backendNodeId"] for x in listeners["listeners"] if x["type"] in CLICK})
        search = await listener_search(cdp, reps)
        return statistics.median(times), roots, clickable, search


def main(argv: list[str]) -> int:
    reps = int(argv[argv.index("--reps") + 1]) if "--reps" in argv else 15
    with tempfile.TemporaryDirectory() as d:
        pages.write_pages(Path(d))
        for name in ("large-5k.html", "reach-5k.html"):
            ms, roots, clickable, search = asyncio.run(measure(Path(d, name).as_uri(), reps))
            print(f"{name}: reach CDP calls median {ms:.2f} ms ({reps} reps); closed roots {roots}, listener elements {clickable}")
            for how, (lms, size) in search.items():
                print(f"  listener search alone, handle {how}: median {lms:.2f} ms, answer {size} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
