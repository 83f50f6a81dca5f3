#!/usr/bin/env python3
"""What a trace still costs at the floor: the DevTools calls `trace start --screenshots` makes after
each step (crates/engine/src/capture/still.rs), timed on a headless Chromium with no agentbrowser in
between, beside the frame interval of the page's compositor.

    python3 bench/still_floor.py [--reps N]

Rows (medians of N, default 20):
- `rAF round trip`: an evaluation awaiting the page's next animation frame: the compositor's frame
  interval as a command sees it;
- `cast frame WxH`: `Page.startScreencast` to its first frame (the still) at each size;
- `captureScreenshot`: `Page.captureScreenshot` (JPEG 60, optimizeForSpeed), the alternative;
- `change + still`: a click handler's DOM change, then a still (what a traced click adds).
The ratio column is the row over the rAF round trip: a still costs about one frame of the page's,
whatever its size, so it is wall time, not CPU.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from cdp import Cdp  # noqa: E402
from cdp import page as cdp_page  # noqa: E402

PAGE = "data:text/html," + "<h1>Still</h1><button onclick='this.textContent=Math.random()'>Change</button>" + "<p>text</p>" * 50
FRAME = "new Promise(r => requestAnimationFrame(() => r(1)))"


async def still(cdp: Cdp, width: int, height: int) -> float:
    """Milliseconds from `startScreencast` to its first frame (then stopped and acked)."""
    cdp.drain()
    t0 = time.perf_counter()
    await cdp.call("Page.startScreencast", {"format": "jpeg", "quality": 60, "maxWidth": width, "maxHeight": height})
    frame = await cdp.event("Page.screencastFrame")
    ms = (time.perf_counter() - t0) * 1000
    await cdp.call("Page.stopScreencast")
    await cdp.call("Page.screencastFrameAck", {"sessionId": frame["sessionId"]})
    return ms


async def timed(call) -> float:  # type: ignore[no-untyped-def]
    t0 = time.perf_counter()
    await call()
    return (time.perf_counter() - t0) * 1000


async def measure(reps: int) -> list[tuple[str, float]]:
    async with cdp_page(PAGE) as cdp:
        await cdp.call("Page.enable")
        evaluate = lambda expr: cdp.call("Runtime.evaluate", {"expression": expr, "awaitPromise": True})  # noqa: E731
        rows = [("rAF round trip", statistics.median([await timed(lambda: evaluate(FRAME)) for _ in range(reps)]))]
        for w, h in [(800, 600), (400, 300), (1280, 720)]:
            rows.append((f"cast frame {w}x{h}", statistics.median([await still(cdp, w, h) for _ in range(reps)])))
        shot = lambda: cdp.call("Page.captureScreenshot", {"format": "jpeg", "quality": 60, "optimizeForSpeed": True})  # noqa: E731
        rows.append(("captureScreenshot", statistics.median([await timed(shot) for _ in range(reps)])))
        changed = []
        for _ in range(reps):
            t0 = time.perf_counter()
            await evaluate("document.querySelector('button').click()")
            await still(cdp, 800, 600)
            changed.append((time.perf_counter() - t0) * 1000)
        rows.append(("change + still 800x600", statistics.median(changed)))
        return rows


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reps", type=int, default=20, help="timed calls per row (default 20)")
    args = ap.parse_args()
    if args.reps < 1:
        ap.error(f"--reps {args.reps}: use 1 or more")
    rows = asyncio.run(measure(args.reps))
    frame = rows[0][1]
    print(f"| row | median (ms) | / rAF round trip |  ({args.reps} reps)")
    print("|---|---|---|")
    for name, ms in rows:
        print(f"| {name} | {ms:.2f} | {ms / frame:.2f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
