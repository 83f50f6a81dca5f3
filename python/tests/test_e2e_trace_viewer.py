"""End-to-end: ``agentbrowser trace show PATH.zip`` (issue 38), used as a person would, in a real
browser that agentbrowser drives. A real run recorded with ``trace start --screenshots`` ...
``trace stop`` is shown step by step: the selected step's frame, the target's box drawn where its
box maps onto the frame, its snapshot diff, the requests of its window; the keyboard moves between
steps, the search box filters them and ``#step=N`` opens one. Traces written here from Python per
docs/trace.md show the edge cases (no frames, a dropped frame, a failed step, a cut answer, no
steps), and the CLI refuses a bad file naming what was wrong. The server answers only under its
token and only to its own Host."""

from __future__ import annotations

import http.client
import json
import os
import select
import subprocess
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from agentbrowser import Browser
from conftest import PAGES, _page

pytestmark = pytest.mark.e2e

PAGES["/trace-shop"] = _page(
    "Trace shop",
    "<h1>Shop</h1><label>Name <input id='name'></label>"
    "<button id='add' style='margin:40px 0 0 120px;width:140px;height:40px' onclick=\""
    "document.getElementById('n').textContent = 'Added ' + (++window.n);"
    "fetch('/headers?from=add').then(r => { window.unread = r; console.log('cart saved', r.status);"
    "document.getElementById('saved').textContent = 'Saved' })\">"
    "Add to cart</button>"
    "<p id='n'></p><p id='saved'></p><script>window.n = 0</script>",
)

LOADED = "document.body.dataset.loaded === 'true'"


class Viewer:
    """``agentbrowser trace show PATH --no-open`` as a subprocess; ``url`` is the URL it printed."""

    def __init__(self, binary: Path, trace: Path) -> None:
        self.proc = subprocess.Popen(
            [str(binary), "trace", "show", str(trace), "--no-open"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        assert self.proc.stdout is not None
        ready, _, _ = select.select([self.proc.stdout], [], [], 20)
        line = self.proc.stdout.readline() if ready else ""
        if not line:
            self.close()
            err = self.proc.stderr.read() if self.proc.stderr else ""
            pytest.fail(f"trace show printed no URL; stderr: {err}")
        self.url: str = json.loads(line)["url"]

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(timeout=10)

    def __enter__(self) -> Viewer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def write_trace(
    path: Path,
    steps: list[dict[str, Any]],
    events: list[dict[str, Any]],
    frames: dict[int, bytes],
    **manifest: Any,
) -> Path:
    """A trace file per docs/trace.md: ``trace.json`` (``manifest`` over the defaults),
    ``steps.jsonl``, ``events.jsonl`` and ``frames/NNNNNN.jpeg``."""
    man: dict[str, Any] = {
        "format": "agentbrowser-trace",
        "version": 1,
        "session": "handmade",
        "agentbrowser": "0.1.0",
        "browser": "Chrome/142",
        "startedAt": 1796623200000.0,
        "endedAt": 1796623205000.0,
        "options": {"screenshots": bool(frames), "snapshots": False},
        "counts": {"steps": len(steps), "events": len(events), "frames": len(frames)},
        "dropped": {"steps": 0, "events": 0, "frames": 0, "answerBytes": 0},
        "bounds": {"maxBytes": 104857600, "maxAnswerBytes": 65536, "maxSteps": 10000, "maxEvents": 100000},
    }
    man.update(manifest)
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("trace.json", json.dumps(man))
        z.writestr("steps.jsonl", "".join(json.dumps(s) + "\n" for s in steps))
        z.writestr("events.jsonl", "".join(json.dumps(e) + "\n" for e in events))
        for seq, data in frames.items():
            z.writestr(f"frames/{seq:06d}.jpeg", data, compress_type=zipfile.ZIP_STORED)
    return path


def read_trace(path: Path) -> tuple[dict[str, Any], list[dict[str, Any]], list[dict[str, Any]]]:
    """The manifest, steps and events of a trace file."""
    with zipfile.ZipFile(path) as z:
        man = json.loads(z.read("trace.json"))
        steps = [json.loads(x) for x in z.read("steps.jsonl").decode().splitlines() if x.strip()]
        events = [json.loads(x) for x in z.read("events.jsonl").decode().splitlines() if x.strip()]
    return man, steps, events


def window(steps: list[dict[str, Any]], n: int) -> tuple[float, float]:
    """Step ``n``'s event window as docs/trace.md's Viewer section states it: from its ``t`` to
    the next step's ``t`` (by ``t``); the first step's starts at 0, the last's has no end."""
    by_t = sorted(steps, key=lambda s: (s["t"], s["step"]))
    i = next(i for i, s in enumerate(by_t) if s["step"] == n)
    start = min(0.0, by_t[0]["t"]) if i == 0 else by_t[i]["t"]
    end = by_t[i + 1]["t"] if i + 1 < len(by_t) else float("inf")
    return start, end


def shown(b: Browser) -> dict[str, Any]:
    """What the viewer shows now."""
    result: dict[str, Any] = b.page.evaluate(
        """(() => {
          const img = document.querySelector('#screenshot img');
          const box = document.querySelector('#target-box');
          const r = (e) => { const q = e.getBoundingClientRect(); return [q.x, q.y, q.width, q.height]; };
          const all = (sel) => [...document.querySelectorAll(sel)];
          const shownText = (sel) => {
            const e = document.querySelector(sel);
            return e.hidden ? null : e.textContent;
          };
          return {
            selected: document.body.dataset.selected,
            hash: location.hash,
            visible: all('#steps li.step').filter(li => !li.hidden).map(li => Number(li.dataset.step)),
            entry: img ? img.dataset.entry : null,
            imgLoaded: img ? img.complete && img.naturalWidth > 0 : false,
            imgRect: img ? r(img) : null,
            natural: img ? [img.naturalWidth, img.naturalHeight] : null,
            box: box && {x: +box.dataset.x, y: +box.dataset.y, w: +box.dataset.w, h: +box.dataset.h, rect: r(box)},
            diff: document.querySelector('#diff').textContent,
            network: all('#network tbody tr[data-url]').map(tr => tr.dataset.url),
            console: all('#console tbody tr[data-t]').map(tr => tr.querySelector('.text').textContent),
            error: shownText('#error'),
            dropped: shownText('#dropped'),
            frameDropped: !!document.querySelector('#frame-dropped'),
            shotText: document.querySelector('#shot-body').textContent,
            answerCut: document.querySelector('#answer-cut')?.textContent ?? null,
            noSteps: shownText('#no-steps'),
            recorded: shownText('#step-snapshot') === null ? null : document.querySelector('#step-snapshot pre').textContent,
            recordedBefore: shownText('#step-snapshot-before') === null ? null
              : document.querySelector('#step-snapshot-before pre').textContent,
          };
        })()"""
    )
    return result


def click_step(b: Browser, n: int) -> None:
    b.page.evaluate(f"document.querySelector('#steps li[data-step=\"{n}\"]').click()")
    b.page.wait_for_function(f"document.body.dataset.selected === '{n}'")


def cli(binary: Path, *args: str, session: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    out = subprocess.run([str(binary), "--session", session, *args], capture_output=True, text=True, timeout=60)
    if check:
        assert out.returncode == 0, (args, out.stdout, out.stderr)
    return out


@pytest.fixture
def recorded(agentbrowser_bin: Path, server: str, tmp_path: Path) -> Iterator[Path]:
    """A trace of a real run (with screenshots and snapshots): open, snapshot, click, fill, a fetch
    and a console.log."""
    session = f"trace-viewer-{os.getpid()}"
    path = tmp_path / "run.zip"
    try:
        cli(agentbrowser_bin, "open", "about:blank", session=session)
        cli(agentbrowser_bin, "trace", "start", "--screenshots", "--snapshots", session=session)
        cli(agentbrowser_bin, "open", f"{server}/trace-shop", session=session)  # step 1
        snap = json.loads(cli(agentbrowser_bin, "--json", "snapshot", session=session).stdout)  # step 2
        refs = snap["data"]["refs"]
        add = next(r for r, v in refs.items() if v["name"] == "Add to cart")
        name = next(r for r, v in refs.items() if v["role"] == "textbox")
        # The click waits for what the page does after its console message, so the message is in
        # the click's window whatever the machine's load.
        cli(agentbrowser_bin, "click", add, "--wait-text", "Saved", session=session)  # step 3
        cli(agentbrowser_bin, "fill", name, "Grace Hopper", session=session)  # step 4
        cli(  # step 5
            agentbrowser_bin,
            "eval",
            "fetch('/headers?from=eval').then(r => { console.log('eval fetched', r.status); return r.status })",
            session=session,
        )
        cli(agentbrowser_bin, "trace", "stop", str(path), session=session)
        yield path
    finally:
        cli(agentbrowser_bin, "close", session=session, check=False)


def test_a_real_run_is_shown_step_by_step(agentbrowser_bin: Path, recorded: Path) -> None:
    man, steps, events = read_trace(recorded)
    assert [s["command"] for s in steps] == ["open", "snapshot", "click", "fill", "eval"]
    click = steps[2]
    frames = {e["seq"]: e for e in events if e["kind"] == "frame"}
    with Viewer(agentbrowser_bin, recorded) as viewer, Browser.launch(timeout_ms=20000) as b:
        b.page.open(viewer.url)
        b.page.wait_for_function(LOADED)
        assert shown(b)["selected"] == "1"
        # The recorded snapshots (--snapshots): the blank page before the first step, the shop
        # after it.
        now = shown(b)
        assert now["recordedBefore"] == steps[0]["snapshotBefore"] == "(no interactive elements)"
        assert now["recorded"] == steps[0]["snapshot"] and 'button "Add to cart"' in now["recorded"]

        # Step 3, the click: its frameAfter, its diff, the requests of its window.
        click_step(b, 3)
        b.page.wait_for_function("document.querySelector('#screenshot img')?.complete")
        now = shown(b)
        assert now["hash"] == "#step=3"
        assert now["entry"] == f"frames/{click['frameAfter']:06d}.jpeg"
        assert now["imgLoaded"]
        assert now["diff"].strip() == click["diff"].strip()
        start, end = window(steps, 3)
        expected = [
            e["entry"]["request"]["url"] for e in events if e["kind"] == "request" and start <= e["t"] < end
        ]
        assert any("from=add" in u for u in expected), expected
        # The page keeps the fetch's response but never reads its body, so the request never
        # completes: written at the stop, with its response as far as it came and no end.
        add_fetch = next(e for e in events if e["kind"] == "request" and "from=add" in e["entry"]["request"]["url"])
        assert add_fetch["entry"]["response"]["status"] == 200, add_fetch
        assert add_fetch["end"] is None, add_fetch
        assert now["network"] == expected
        assert "cart saved 200" in now["console"]

        # Before: frameBefore, with the target's box mapped from viewport CSS px onto the image.
        b.page.evaluate("document.querySelector('#shot-before').click()")
        b.page.wait_for_function(
            "!!document.querySelector('#target-box') && document.querySelector('#screenshot img').complete"
        )
        now = shown(b)
        assert now["entry"] == f"frames/{click['frameBefore']:06d}.jpeg"
        frame = frames[click["frameBefore"]]
        sx = frame["width"] / frame["viewport"]["width"]
        sy = frame["height"] / frame["viewport"]["height"]
        box = click["target"]["box"]
        assert now["box"]["x"] == pytest.approx(box["x"] * sx, abs=0.1)
        assert now["box"]["y"] == pytest.approx(box["y"] * sy, abs=0.1)
        assert now["box"]["w"] == pytest.approx(box["width"] * sx, abs=0.1)
        # Drawn there: the overlay's rectangle over the displayed image, at the image's scale.
        ix, iy, iw, ih = now["imgRect"]
        scale = iw / frame["width"]
        bx, by, bw, bh = now["box"]["rect"]
        assert bx - ix == pytest.approx(box["x"] * sx * scale, abs=1.5)
        assert by - iy == pytest.approx(box["y"] * sy * scale, abs=1.5)
        assert bw == pytest.approx(box["width"] * sx * scale, abs=1.5)
        assert bh == pytest.approx(box["height"] * sy * scale, abs=1.5)

        # The keyboard: ArrowDown moves to step 4.
        b.page.press("ArrowDown")
        b.page.wait_for_function("document.body.dataset.selected === '4'")
        assert shown(b)["hash"] == "#step=4"

        # Search: the typed name is in step 4's parameters only; Escape clears the filter.
        b.page.observe().one(role="searchbox").fill("Grace Hopper")
        b.page.wait_for_function("document.querySelectorAll('#steps li.step:not([hidden])').length < 5")
        visible = shown(b)["visible"]
        assert 4 in visible and not {1, 2, 3} & set(visible), visible
        b.page.press("Escape")
        b.page.wait_for_function("document.querySelectorAll('#steps li.step:not([hidden])').length === 5")

        # Step 5, the eval: no diff, its recorded snapshot (taken at the stop) on demand.
        click_step(b, 5)
        now = shown(b)
        assert "Its recorded snapshot is below" in now["diff"]
        assert now["recorded"] == steps[4]["snapshot"]
        assert 'textbox "Name"' in now["recorded"] and "Grace Hopper" in now["recorded"]
        assert now["recordedBefore"] is None

        # A deep link opens that step.
        b.page.open(viewer.url + "#step=2")
        b.page.wait_for_function(LOADED)
        assert shown(b)["selected"] == "2"
        assert man["counts"]["steps"] == 5


def _jpeg(b: Browser, tmp_path: Path, name: str) -> bytes:
    """A real JPEG: a screenshot of the current page."""
    path = tmp_path / f"{name}.jpeg"
    b.page.capture.screenshot(path, format="jpeg", quality=60)
    return path.read_bytes()


def test_edge_cases_of_hand_written_traces(agentbrowser_bin: Path, server: str, tmp_path: Path) -> None:
    with Browser.launch(timeout_ms=20000) as b:
        b.page.open(f"{server}/trace-shop")
        shot = _jpeg(b, tmp_path, "shop")
        viewport = b.page.evaluate("[innerWidth, innerHeight]")
        frame = {"kind": "frame", "tab": "t1", "width": viewport[0], "height": viewport[1],
                 "viewport": {"width": viewport[0], "height": viewport[1]}, "scroll": {"x": 0, "y": 0}}
        steps = [
            {"step": 1, "command": "open", "params": {"url": f"{server}/trace-shop"}, "t": 10.0, "end": 90.0,
             "ok": True, "answer": {"url": f"{server}/trace-shop"}, "answerBytes": 40, "answerTruncated": False,
             "frameBefore": 1, "frameAfter": 2},
            {"step": 2, "command": "click", "params": {"target": "e9"}, "t": 100.0, "end": 110.0, "ok": False,
             "error": {"code": "unknown_ref", "message": "unknown ref `e9`: no snapshot of this tab issued it"},
             "frameBefore": 2, "frameAfter": 3},
            {"step": 3, "command": "eval", "params": {"script": "big()"}, "t": 200.0, "end": 260.0, "ok": True,
             "answer": {"truncated": '{"result": ["row 0", "row 1"'}, "answerBytes": 90000, "answerTruncated": True,
             "warnings": ["the page logged an error"], "frameBefore": 3, "frameAfter": 3},
        ]
        events = [
            {"t": 5.0, "seq": 1, "file": "frames/000001.jpeg", **frame},
            {"t": 95.0, "seq": 2, "file": "frames/000002.jpeg", **frame},
            {"t": 150.0, "kind": "console", "tab": "t1", "level": "error", "text": "boom", "url": "", "line": 0},
            {"t": 205.0, "kind": "pageError", "tab": "t1", "message": "Uncaught Error: big", "stack": "at big"},
        ]
        # Frame 3 was dropped by the size bound: steps 2 and 3 name it, the file does not hold it.
        dropped = write_trace(tmp_path / "dropped.zip", steps, events, {1: shot, 2: shot},
                              dropped={"steps": 0, "events": 0, "frames": 3, "answerBytes": 24464})
        with Viewer(agentbrowser_bin, dropped) as viewer:
            b.page.open(viewer.url + "#step=2")
            b.page.wait_for_function(LOADED)
            b.page.wait_for_function("!!document.querySelector('#frame-dropped')")
            now = shown(b)
            assert now["selected"] == "2"
            assert now["frameDropped"] and "dropped" in now["shotText"]
            assert now["error"] is not None and "unknown_ref" in now["error"] and "no snapshot" in now["error"]
            assert now["dropped"] is not None and "3 frames dropped by the size bound" in now["dropped"]
            assert now["console"] == ["boom"]
            assert b.page.evaluate("document.querySelector('li[data-step=\"2\"] .badge').textContent") == "unknown_ref"
            click_step(b, 3)
            now = shown(b)
            assert now["answerCut"] is not None and "90,000 bytes" in now["answerCut"]
            assert b.page.evaluate("document.querySelector('#warnings').textContent") == "the page logged an error"
            assert b.page.evaluate("document.querySelector('#page-events tr[data-kind=pageError] .text').textContent") \
                .startswith("Uncaught Error: big")
            # Step 1's frame is there.
            click_step(b, 1)
            b.page.wait_for_function("document.querySelector('#screenshot img')?.complete")
            assert shown(b)["entry"] == "frames/000002.jpeg" and shown(b)["imgLoaded"]

        # Without --screenshots: no frames, and the viewer says so.
        bare = [{k: v for k, v in s.items() if not k.startswith("frame")} for s in steps]
        plain = write_trace(tmp_path / "plain.zip", bare, events[2:], {})
        with Viewer(agentbrowser_bin, plain) as viewer:
            b.page.open(viewer.url)
            b.page.wait_for_function(LOADED)
            now = shown(b)
            assert now["entry"] is None and "without --screenshots" in now["shotText"]
            assert now["dropped"] is None
            assert b.page.evaluate("document.querySelectorAll('#steps .thumb').length") == 0

        # No steps at all.
        empty = write_trace(tmp_path / "empty.zip", [], [], {})
        with Viewer(agentbrowser_bin, empty) as viewer:
            b.page.open(viewer.url)
            b.page.wait_for_function(LOADED)
            assert shown(b)["noSteps"] == "This trace has no steps."


def test_the_server_answers_only_under_its_token_and_to_its_own_host(agentbrowser_bin: Path, tmp_path: Path) -> None:
    trace = write_trace(tmp_path / "t.zip", [], [], {})
    with Viewer(agentbrowser_bin, trace) as viewer:
        host, rest = viewer.url.removeprefix("http://").split("/", 1)
        port = int(host.split(":")[1])
        assert host == f"127.0.0.1:{port}" and len(rest.strip("/")) == 32

        def get(path: str, host_header: str = host) -> tuple[int, dict[str, str], bytes]:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
            conn.request("GET", path, headers={"Host": host_header})
            r = conn.getresponse()
            out = (r.status, {k.lower(): v for k, v in r.getheaders()}, r.read())
            conn.close()
            return out

        status, headers, body = get(f"/{rest}trace/trace.json")
        assert status == 200 and json.loads(body)["format"] == "agentbrowser-trace"
        assert headers["content-type"] == "application/json" and headers["cache-control"] == "no-store"
        status, headers, _ = get(f"/{rest}viewer.js")
        assert status == 200 and headers["content-type"].startswith("text/javascript")
        assert get(f"/{rest}trace/steps.jsonl")[0] == 200
        assert get(f"/{rest}trace/frames/000001.jpeg")[0] == 404
        assert get("/trace/trace.json")[0] == 404
        assert get("/0123456789abcdef0123456789abcdef/trace/trace.json")[0] == 404
        assert get(f"/{rest}trace/trace.json", host_header=f"evil.example:{port}")[0] == 403
        assert get(f"/{rest}trace/trace.json", host_header=f"localhost:{port}")[0] == 200
    assert viewer.proc.returncode == 0


def test_a_bad_file_is_refused_naming_what_was_wrong(agentbrowser_bin: Path, tmp_path: Path) -> None:
    def refused(path: Path) -> str:
        out = subprocess.run([str(agentbrowser_bin), "trace", "show", str(path), "--no-open"],
                             capture_output=True, text=True, timeout=30)
        assert out.returncode != 0 and out.stdout == "", out
        return out.stderr

    assert "no trace file at" in refused(tmp_path / "missing.zip")
    (tmp_path / "notes.txt").write_text("not a zip")
    assert "is not a ZIP file" in refused(tmp_path / "notes.txt")
    with zipfile.ZipFile(tmp_path / "other.zip", "w") as z:
        z.writestr("hello.txt", "hi")
    assert "without trace.json" in refused(tmp_path / "other.zip")
    har = write_trace(tmp_path / "har.zip", [], [], {}, format="har")
    assert 'format is "har"' in refused(har)
    newer = write_trace(tmp_path / "newer.zip", [], [], {}, version=2)
    assert "version 2" in refused(newer) and "newer agentbrowser" in refused(newer)
    # With --json: an envelope naming the code.
    out = subprocess.run([str(agentbrowser_bin), "--json", "trace", "show", str(newer), "--no-open"],
                         capture_output=True, text=True, timeout=30)
    envelope = json.loads(out.stdout)
    assert (envelope["success"], envelope["code"], envelope["action"]) == (False, "invalid_argument", "trace_show")
