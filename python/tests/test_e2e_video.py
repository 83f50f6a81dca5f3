"""End-to-end: video recording from the SDK (sync and async) on real Chromium and ffmpeg: the
file has the asked size and codec, as many frames as the answer says, a chapter card; a stop
without a start and a second start are errors with their codes."""

from __future__ import annotations

import asyncio
import json
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
