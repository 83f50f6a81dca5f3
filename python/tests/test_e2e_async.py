"""End-to-end: the asyncio client (non-blocking, concurrent callers, cancellation)."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest
from agentbrowser import (
    AsyncBrowser,
    BrowserError,
    BrowserResponse,
    CloseResult,
    LaunchOptions,
    Navigation,
    SessionStatus,
    TabCloseResult,
    TabInfo,
    TabSwitchResult,
)


def run(coro: object) -> None:
    asyncio.run(coro)  # type: ignore[arg-type]


def test_async_basics(agentbrowser_bin: Path, server: str) -> None:
    async def main() -> None:
        async with await AsyncBrowser.launch(LaunchOptions(timeout_ms=20000)) as browser:
            nav = await browser.page.open(f"{server}/")
            assert isinstance(nav, Navigation) and nav.title == "Home"
            assert await browser.page.title() == "Home"
            assert await browser.page.url() == f"{server}/"
            assert await browser.page.evaluate("6 * 7") == 42
            await browser.page.open(f"{server}/form")
            assert (await browser.page.back()).title == "Home"
            assert (await browser.page.forward()).title == "Form"
            assert (await browser.page.reload()).title == "Form"
            with pytest.raises(BrowserError) as err:
                await browser.page.evaluate("throw new Error('async kaboom')")
            assert err.value.code == "js_error"
            st = await browser.status()
            assert isinstance(st, SessionStatus) and st.browser_launched and st.pid == browser.pid
            assert browser.launch_result is not None and browser.launch_result.pid == st.browser_pid
            assert browser.launch_data["browserVersion"] == browser.launch_result.browser_version
            resp = await browser.native.execute("url")
            assert isinstance(resp, BrowserResponse) and resp.success and resp.data == {"url": f"{server}/form"}
            bad = await browser.native.execute("tab_switch", tab="t99")
            assert not bad.success and bad.code == "tab_not_found"
            tabs = await browser.tabs.list()
            assert all(isinstance(t, TabInfo) for t in tabs)
            new = await browser.tabs.new(f"{server}/")
            assert new.active
            switched = await browser.tabs.switch(tabs[0].id)
            assert isinstance(switched, TabSwitchResult) and switched.id == tabs[0].id
            closed = await browser.tabs.close(new)
            assert isinstance(closed, TabCloseResult) and closed.id == new.id and closed.title == "Home"
            assert "AsyncBrowser" in repr(browser) and len(repr(browser)) < 200
        assert browser.closed
        result = await browser.close()
        assert isinstance(result, CloseResult) and result.closed
        with pytest.raises(RuntimeError):
            await browser.page.title()

    run(main())


def test_async_does_not_block_event_loop(agentbrowser_bin: Path, server: str) -> None:
    """Another coroutine keeps running while a slow page loads."""

    async def main() -> None:
        async with await AsyncBrowser.launch() as browser:
            ticks = 0
            stop = asyncio.Event()

            async def ticker() -> None:
                nonlocal ticks
                while not stop.is_set():
                    ticks += 1
                    await asyncio.sleep(0.01)

            task = asyncio.create_task(ticker())
            started = time.monotonic()
            nav = await browser.page.open(f"{server}/slow?ms=1500")
            elapsed = time.monotonic() - started
            stop.set()
            await task
            assert nav.title == "Slow" and elapsed >= 1.4
            # ~150 ticks if the loop ran freely; a blocked loop would give about 1.
            assert ticks >= 50, ticks

    run(main())


def test_async_concurrent_callers_and_cancellation(agentbrowser_bin: Path, server: str) -> None:
    async def main() -> None:
        async with await AsyncBrowser.launch() as browser:
            await browser.page.open(f"{server}/")
            values = await asyncio.gather(*(browser.page.evaluate(f"{i} * 2") for i in range(40)))
            assert values == [i * 2 for i in range(40)]
            title, url, n = await asyncio.gather(
                browser.page.title(), browser.page.url(), browser.page.evaluate("'x'.repeat(3)")
            )
            assert (title, url, n) == ("Home", f"{server}/", "xxx")

            # Cancel a slow navigation while it is in flight: the connection stays usable
            # and its late answer goes to nobody.
            slow = asyncio.create_task(browser.page.open(f"{server}/slow?ms=800"))
            await asyncio.sleep(0.2)
            slow.cancel()
            with pytest.raises(asyncio.CancelledError):
                await slow
            assert await browser.page.evaluate("40 + 2") == 42
            assert await browser.page.title() in ("Home", "Slow")
            await asyncio.sleep(1.0)
            assert await browser.page.title() == "Slow"

            # wait_for timeout cancels one call; others continue.
            with pytest.raises(TimeoutError):
                await asyncio.wait_for(browser.page.open(f"{server}/slow?ms=600"), 0.1)
            assert await browser.page.evaluate("1") == 1

    run(main())


def test_async_close_idempotent_concurrent(agentbrowser_bin: Path) -> None:
    async def main() -> None:
        browser = await AsyncBrowser.launch()
        first, second = await asyncio.gather(browser.close(), browser.close())
        assert first.closed and second is first
        assert await browser.close() is first
        with pytest.raises(RuntimeError):
            await browser.status()

    run(main())
