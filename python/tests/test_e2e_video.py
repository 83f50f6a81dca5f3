"""End-to-end: video recording from the SDK (sync and async) on real Chromium and ffmpeg: the
file has the asked size and codec, as many frames as the answer says, a chapter card, action
overlays over the clicked button (in the video only); a stop without a start and a second start
are errors with their codes."""

from __future__ import annotations

import asyncio
import json
import re
import subprocess
from pathlib import Path
from typing import Any

import pytest
from agentbrowser import Browser, BrowserError, LaunchOptions
from agentbrowser.aio import AsyncBrowser


def probe(path: Path) -> dict[str, Any]:
    """ffprobe's view of a video: its stream's codec, size and frames."""
    out = subprocess.run(
        [
            "ffprobe", "-v", "error", "-count_frames", "-of", "json", "-show_entries",
            "format=duration:stream=width,height,nb_read_frames,codec_name", str(path),
        ],
        check=True, capture_output=True, text=True,
    )
    data: dict[str, Any] = json.loads(out.stdout)
    return data


def box_colours(path: Path, box: tuple[int, int, int, int]) -> list[tuple[int, int, int]]:
    """The average colour of ``box`` (x, y, width, height in video pixels) in every frame, in order."""
    x, y, w, h = box
    out = subprocess.run(
        [
            "ffmpeg", "-v", "error", "-i", str(path), "-vf", f"crop={w}:{h}:{x}:{y},scale=1:1:flags=area",
            "-f", "rawvideo", "-pix_fmt", "rgb24", "-",
        ],
        check=True, capture_output=True,
    )
    raw = out.stdout
    return [(raw[i], raw[i + 1], raw[i + 2]) for i in range(0, len(raw), 3)]


def highlighted(c: tuple[int, int, int]) -> bool:
    """The overlay's magenta over the button: red and blue well above green."""
    return c[0] > c[1] + 50 and c[2] > c[1] + 20


# The first button's box and the viewport, in CSS pixels, as "x y width height innerWidth innerHeight".
BUTTON_BOX_JS = (
    "(() => { const b = document.querySelector('button').getBoundingClientRect();"
    " return [b.x, b.y, b.width, b.height, innerWidth, innerHeight].join(' '); })()"
)


def button_box(measured: str, width: int, height: int) -> tuple[int, int, int, int]:
    """The button's box (``BUTTON_BOX_JS``'s answer) in pixels of a ``width`` x ``height`` video (the
    viewport scaled to fit, centred), a little inside its edges."""
    x, y, w, h, vw, vh = (float(v) for v in measured.split())
    s = min(width / vw, height / vh)
    ox, oy = (width - vw * s) / 2, (height - vh * s) / 2
    return (int(ox + (x + 2) * s), int(oy + (y + 2) * s), max(2, int((w - 4) * s)), max(2, int((h - 4) * s)))


def test_video_from_the_sdk(agentbrowser_bin: Path, server: str, tmp_path: Path) -> None:
    with Browser.launch(LaunchOptions(timeout_ms=20000)) as b:
        with pytest.raises(BrowserError) as none:
            b.record_stop()
        assert none.value.code == "record_not_started"
        b.page.open(f"{server}/")
        out = tmp_path / "sdk.webm"
        started = b.record_start(str(out), fps=10, size={"width": 320, "height": 240})
        assert (started.width, started.height, started.fps) == (320, 240, 10)
        with pytest.raises(BrowserError) as again:
            b.record_start(str(out))
        assert again.value.code == "record_already_started"
        chapter = b.record_chapter("From Python", description="sync SDK", duration=300)
        assert chapter.title == "From Python" and chapter.duration_ms == 300
        b.page.evaluate("document.body.style.background = 'rgb(0, 0, 200)'; 1")
        stopped = b.record_stop()
        assert stopped.path == str(out) and stopped.bytes == out.stat().st_size
        stream = probe(out)["streams"][0]
        assert (stream["codec_name"], stream["width"], stream["height"]) == ("vp8", 320, 240)
        assert int(stream["nb_read_frames"]) == stopped.frames > 0
        with pytest.raises(ValueError, match="fps"):
            b.record_start(str(out), fps=0)


def test_action_overlays_from_the_sdk(agentbrowser_bin: Path, server: str, tmp_path: Path) -> None:
    """On before the recording, the click's button is highlighted in some frames of the video and not
    in its last ones (past the duration); the page gets no element; off ends it."""
    with Browser.launch(LaunchOptions(timeout_ms=20000)) as b:
        b.page.open(f"{server}/")
        with pytest.raises(ValueError, match="1 to 60000"):
            b.record_actions(True, duration=-5)
        with pytest.raises(ValueError, match="top-left"):
            b.record_actions(True, position="middle")
        on = b.record_actions(True, duration=400, position="bottom-right", cursor="none")
        assert (on.show, on.duration_ms, on.recording) == (True, 400, False)
        elements = b.page.evaluate("document.querySelectorAll('*').length")
        out = tmp_path / "actions.webm"
        b.record_start(str(out), fps=10, size={"width": 640, "height": 360})
        box = button_box(b.page.evaluate(BUTTON_BOX_JS), 640, 360)
        b.page.find.role("button", name="Press me").click()
        assert b.page.evaluate("document.getElementById('out').textContent") == "clicked"
        assert b.page.evaluate("document.querySelectorAll('*').length") == elements
        b.page.wait(ms=1200)
        off = b.record_actions(False)
        assert (off.show, off.recording) == (False, True)
        b.record_stop()
        colours = box_colours(out, box)
        marked = [i for i, c in enumerate(colours) if highlighted(c)]
        assert marked, f"the button is never highlighted: {colours}"
        # 400 ms at 10 fps: about four frames, one after the other, then the button's own colour in
        # the frames of the 800 ms and more that the recording ran on.
        assert marked == list(range(marked[0], marked[-1] + 1)) and len(marked) <= 6, colours
        assert len(colours) - 1 - marked[-1] >= 6, colours


def test_video_async(agentbrowser_bin: Path, server: str, tmp_path: Path) -> None:
    async def main() -> None:
        async with await AsyncBrowser.launch(LaunchOptions(timeout_ms=20000)) as b:
            await b.page.open(f"{server}/")
            started = await b.record_start(str(tmp_path / "a.mp4"))
            assert started.fps == 25 and max(started.width, started.height) == 800
            await b.page.evaluate("document.title = 'recorded'")
            stopped = await b.record_stop()
            stream = probe(Path(stopped.path))["streams"][0]
            assert stream["codec_name"] == "h264"
            assert (stream["width"], stream["height"]) == (started.width, started.height)

    asyncio.run(main())


def test_video_tools_over_mcp(agentbrowser_bin: Path, server: str, tmp_path: Path) -> None:
    """Playwright MCP's video tools through the official MCP client: the file lands under the
    server's working directory with the asked size, and the chapter is answered."""
    from test_e2e_mcp_parity import call, ours

    async def main() -> None:
        async with ours(agentbrowser_bin, tmp_path) as session:
            await call(session, "browser_navigate", url=f"{server}/")
            started = await call(
                session, "browser_start_video", filename="mcp.webm", size={"width": 320, "height": 240}, fps=10
            )
            assert "320x240" in started and "10 fps" in started, started
            chapter = await call(session, "browser_video_chapter", title="Over MCP", duration=200)
            assert "Over MCP" in chapter, chapter
            stopped = await call(session, "browser_stop_video")
            assert str(tmp_path / "mcp.webm") in stopped, stopped
        stream = probe(tmp_path / "mcp.webm")["streams"][0]
        assert (stream["width"], stream["height"]) == (320, 240)

    asyncio.run(main())


def test_action_overlay_tools_over_mcp(agentbrowser_bin: Path, server: str, tmp_path: Path) -> None:
    """browser_video_show_actions / browser_video_hide_actions through the official MCP client: bad
    arguments are refused naming what is allowed (a CSS `style` is not silently dropped), the clicked
    button is highlighted in the video, and the cursor of browser_start_video is taken."""
    from test_e2e_mcp_parity import call, ours, ref_of

    async def refused(session: Any, tool: str, **args: Any) -> str:
        result = await session.call_tool(tool, args)
        text = "\n".join(c.text for c in result.content if getattr(c, "type", "") == "text")
        assert result.is_error, f"{tool} {args} should fail: {text}"
        return text

    async def main() -> None:
        async with ours(agentbrowser_bin, tmp_path) as session:
            await call(session, "browser_navigate", url=f"{server}/")
            text = await refused(session, "browser_video_show_actions", style={"highlight": "outline: 2px solid red"})
            assert "invalid_argument" in text and "style" in text and "duration" in text, text
            text = await refused(session, "browser_video_show_actions", position="middle")
            assert "invalid_argument" in text and "bottom-right" in text, text
            text = await refused(session, "browser_video_show_actions", duration=-5)
            assert "invalid_argument" in text and "1 to 60000" in text, text
            shown = await call(session, "browser_video_show_actions", duration=500, position="top-left", style={})
            assert "top-left" in shown and "next video" in shown, shown
            started = await call(
                session, "browser_start_video", filename="acts.webm", size={"width": 640, "height": 360},
                fps=10, cursor=True,
            )
            assert "640x360" in started, started
            measured = await call(session, "browser_evaluate", function=f"() => {BUTTON_BOX_JS}")
            found = re.search(r'"([\d.]+(?: [\d.]+){5})"', measured)
            assert found, measured
            box = button_box(found.group(1), 640, 360)
            snap = await call(session, "browser_snapshot")

            await call(session, "browser_click", target=ref_of(snap, "button", "Press me"), element="Press me")
            await call(session, "browser_wait_for", time=1.2)
            hidden = await call(session, "browser_video_hide_actions")
            assert "no longer" in hidden, hidden
            await call(session, "browser_click", target=ref_of(snap, "button", "Press me"), element="Press me")
            await call(session, "browser_wait_for", time=1)
            await call(session, "browser_stop_video")
        colours = box_colours(tmp_path / "acts.webm", box)
        marked = [i for i, c in enumerate(colours) if highlighted(c)]
        assert marked and len(marked) <= 7, colours
        # The second click, after hide, is not annotated: nothing in the last second and a half.
        assert marked[-1] < len(colours) - 15, colours

    asyncio.run(main())
