"""Transport behaviour against a fake daemon that answers out of order (no Chromium needed)."""

from __future__ import annotations

import asyncio
import threading
import time
from pathlib import Path

import pytest
from agentbrowser import AsyncBrowser, Browser, BrowserError, _ops

FAKE = Path(__file__).parent / "fake" / "agentbrowser"


@pytest.fixture(autouse=True)
def fake_binary(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AGENTBROWSER_BIN", str(FAKE))


def test_sync_answers_matched_by_id_and_late_answers_dropped(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_ops, "GRACE_MS", 900)  # client deadline: 100 + 900 ms
    with Browser.launch(timeout_ms=100) as b:
        assert b.page.evaluate("plain") == "plain"
        started = time.monotonic()
        with pytest.raises(BrowserError) as err:
            b.page.evaluate("sleep:1300:late")
        assert err.value.code == "timeout" and time.monotonic() - started < 1.3
        # The late answer (at ~1.3 s) arrives while this call waits; it is dropped, not returned.
        assert b.page.evaluate("sleep:600:mine") == "mine"
        assert b.page.evaluate("junk") == "after junk"


def test_sync_threads_share_a_browser() -> None:
    with Browser.launch() as b:
        out: dict[int, object] = {}

        def work(i: int) -> None:
            out[i] = b.page.evaluate(f"sleep:{(7 - i) * 20}:{i}")

        threads = [threading.Thread(target=work, args=(i,)) for i in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(10)
        assert out == {i: str(i) for i in range(8)}


def test_sync_daemon_crash_reports_stderr() -> None:
    b = Browser.launch()
    with pytest.raises(BrowserError) as err:
        b.page.evaluate("crash")
    assert err.value.code == "browser_closed"
    assert "code 3" in str(err.value) and "crashed on purpose" in str(err.value)
    with pytest.raises(BrowserError, match="crashed on purpose"):
        b.page.title()
    result = b.close()
    assert result.closed and b.close() is result


def test_async_out_of_order_answers() -> None:
    async def main() -> None:
        async with await AsyncBrowser.launch() as b:
            # Answers come back in reverse order of the requests.
            values = await asyncio.gather(*(b.page.evaluate(f"sleep:{(9 - i) * 30}:{i}") for i in range(10)))
            assert values == [str(i) for i in range(10)]
            assert await b.page.evaluate("junk") == "after junk"

    asyncio.run(main())


def test_async_cancellation_keeps_connection(monkeypatch: pytest.MonkeyPatch) -> None:
    async def main() -> None:
        async with await AsyncBrowser.launch() as b:
            slow = asyncio.create_task(b.page.evaluate("sleep:300:cancelled"))
            await asyncio.sleep(0.05)
            slow.cancel()
            with pytest.raises(asyncio.CancelledError):
                await slow
            assert await b.page.evaluate("sleep:400:second") == "second"
            assert not b._t._pending  # nothing left waiting

    asyncio.run(main())


def test_async_daemon_crash_fails_pending_calls() -> None:
    async def main() -> None:
        b = await AsyncBrowser.launch()
        pending = asyncio.create_task(b.page.evaluate("sleep:5000:never"))
        await asyncio.sleep(0.05)
        with pytest.raises(BrowserError) as err:
            await b.page.evaluate("crash")
        assert err.value.code == "browser_closed" and "crashed on purpose" in str(err.value)
        with pytest.raises(BrowserError, match="crashed on purpose"):
            await pending
        assert (await b.close()).closed

    asyncio.run(main())


def test_async_client_deadline(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_ops, "GRACE_MS", 900)  # client deadline: 100 + 900 ms

    async def main() -> None:
        async with await AsyncBrowser.launch(timeout_ms=100) as b:
            with pytest.raises(BrowserError) as err:
                await b.page.evaluate("sleep:1300:late")
            assert err.value.code == "timeout"
            assert await b.page.evaluate("sleep:600:next") == "next"
            assert not b._t._pending

    asyncio.run(main())


def test_sync_close_from_another_thread_wakes_waiter() -> None:
    b = Browser.launch()
    errors: list[BaseException] = []

    def wait_long() -> None:
        try:
            b.page.evaluate("sleep:5000:never")
        except BaseException as exc:  # noqa: BLE001
            errors.append(exc)

    t = threading.Thread(target=wait_long)
    t.start()
    time.sleep(0.1)
    started = time.monotonic()
    assert b.close(end_session=False).closed
    t.join(5)
    assert not t.is_alive() and time.monotonic() - started < 3
    assert len(errors) == 1 and isinstance(errors[0], BrowserError) and errors[0].code == "browser_closed"
    with pytest.raises(RuntimeError):
        b.page.title()


def test_async_close_timeout_kills_daemon() -> None:
    async def main() -> None:
        b = await AsyncBrowser.launch()
        assert await b.page.evaluate("stubborn") == "stubborn"
        pid = b.pid
        started = time.monotonic()
        with pytest.raises(TimeoutError):
            await b.close(timeout=0.5)
        assert time.monotonic() - started < 3
        assert b.closed and b._process is not None and b._process.proc.returncode is not None
        assert (await b.close()).closed
        with pytest.raises(RuntimeError):
            await b.page.title()
        assert pid is not None

    asyncio.run(main())


def test_sync_close_of_stubborn_daemon_kills_it() -> None:
    b = Browser.launch()
    b.page.evaluate("stubborn")
    started = time.monotonic()
    with pytest.raises(TimeoutError):
        b.close(timeout=0.5)  # the close action gets no answer in time: the daemon is killed
    assert b.closed and b._process is not None and b._process.proc.returncode is not None
    assert time.monotonic() - started < 3
    assert b.close().closed
