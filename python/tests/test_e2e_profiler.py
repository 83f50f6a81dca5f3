"""End-to-end: the profiler from the SDK (sync and async) on real Chromium: the file is Chrome
trace event JSON that holds the page's own ``performance.mark``, as many events as the answer
says; a stop without a start, a second start and bad categories are errors with their codes."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from agentbrowser import Browser, BrowserError, LaunchOptions
from agentbrowser.aio import AsyncBrowser


def trace_events(path: Path) -> list[dict[str, Any]]:
    """The events of a profile file (it must be JSON with ``traceEvents``)."""
    data = json.loads(path.read_text())
    events: list[dict[str, Any]] = data["traceEvents"]
    return events


def test_profile_from_the_sdk(agentbrowser_bin: Path, server: str, tmp_path: Path) -> None:
    with Browser.launch(LaunchOptions(timeout_ms=20000)) as b:
        with pytest.raises(BrowserError) as none:
            b.profiler_stop(path=str(tmp_path / "none.json"))
        assert none.value.code == "profiler_not_started"
        b.page.open(f"{server}/")
        started = b.profiler_start()
        assert "blink.user_timing" in started.categories
        with pytest.raises(BrowserError) as again:
            b.profiler_start()
        assert again.value.code == "profiler_already_started"
        b.page.evaluate("performance.mark('sdk-mark'); 1")
        out = tmp_path / "p.json"
        stopped = b.profiler_stop(path=str(out))
        assert stopped.path == str(out) and not stopped.data_lost
        events = trace_events(out)
        assert stopped.events == len(events) and stopped.bytes == out.stat().st_size
        assert any(e.get("name") == "sdk-mark" for e in events)
        assert any("devtools.timeline" in str(e.get("cat", "")).split(",") for e in events)
        with pytest.raises(ValueError, match="categories"):
            b.profiler_start(categories=["no spaces"])


def test_profile_async(agentbrowser_bin: Path, server: str, tmp_path: Path) -> None:
    async def main() -> None:
        async with await AsyncBrowser.launch(LaunchOptions(timeout_ms=20000)) as b:
            await b.page.open(f"{server}/")
            started = await b.profiler_start(categories=["blink.user_timing"])
            assert list(started.categories) == ["blink.user_timing"]
            await b.page.evaluate("performance.mark('async-mark'); 1")
            stopped = await b.profiler_stop(path=str(tmp_path / "a.json"))
            names = {e.get("name") for e in trace_events(Path(stopped.path))}
            assert "async-mark" in names

    asyncio.run(main())
