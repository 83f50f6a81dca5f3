"""End-to-end: CodeSession cells against real Chromium (in-process and subprocess executors)."""

from __future__ import annotations

import asyncio
import os
import uuid
from pathlib import Path

from agentbrowser import AsyncBrowser, LaunchOptions
from agentbrowser.aio import AsyncCapture
from agentbrowser.code import CodeSession, ExecutionStatus
from conftest import eventually

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def test_cells_observe_and_click_a_ref_with_browser_state(agentbrowser_bin: Path, server: str) -> None:
    async def main() -> None:
        async with CodeSession(launch=LaunchOptions(timeout_ms=20000)) as session:
            assert session.browser is not None and session.namespace["page"] is session.browser.page
            first = await session.run(
                f"await page.open({server + '/'!r})\nsnap = await page.observe()\nprint(snap.text)"
            )
            assert first.status is ExecutionStatus.SUCCESS, first.error
            assert 'button "Press me"' in first.stdout
            state = first.browser_state
            assert state is not None and len(state) <= 2000
            assert f"URL: {server}/" in state and "Title: Home" in state and "Tab: t1 (1 tab)" in state
            assert "Snapshot: 4 refs (link 2, button 1, heading 1)" in state and 'button "Press me"' in state
            # The ref from cell 1 is still valid after the browser state's own snapshot.
            second = await session.run(
                "r = await snap.one(role='button', name='Press me').click()\n"
                "await page.evaluate(\"document.getElementById('out').textContent\")"
            )
            assert second.status is ExecutionStatus.SUCCESS, second.error
            assert second.result == "'clicked'" and "Out: 'clicked'" in (second.output or "")
            third = await session.run("await snap.one(role='link', name='Form').click()\nawait page.title()")
            assert third.result == "'Form'", third.error
            assert third.browser_state is not None and "Title: Form" in third.browser_state
            browser = session.browser
        assert browser.closed  # launched by the session, closed by it

    asyncio.run(main())


def test_a_failing_browser_call_reports_the_line_and_keeps_going(agentbrowser_bin: Path, server: str) -> None:
    async def main() -> None:
        async with CodeSession() as session:
            cell = await session.run(
                f"await page.open({server + '/form'!r})\nopened = True\nsnap = await page.observe()\n"
                "snap.one(role='button', name='No such button')"
            )
            assert cell.status is ExecutionStatus.ERROR and cell.error_info is not None
            assert cell.error_info.lineno == 4 and "No such button" in (cell.error or "")
            assert session.namespace["opened"] is True
            assert cell.browser_state is not None and "Title: Form" in cell.browser_state
            again = await session.run("await page.title()")
            assert again.result == "'Form'"

    asyncio.run(main())


def test_cell_timeout_on_a_slow_page_then_the_browser_still_works(agentbrowser_bin: Path, server: str) -> None:
    async def main() -> None:
        async with CodeSession(cell_timeout_s=60) as session:
            await session.run(f"await page.open({server + '/a'!r})")
            slow = await session.run(f"await page.open({server + '/slow?ms=4000'!r})", timeout_s=0.5)
            assert slow.timed_out and slow.error is not None and slow.error.startswith("TimeoutError: ")
            assert slow.browser_state is not None and "URL:" in slow.browser_state
            after = await session.run(f"await page.open({server + '/b'!r})\nawait page.title()")
            assert after.status is ExecutionStatus.SUCCESS and after.result == "'Page B'", after.error

    asyncio.run(main())


def test_screenshots_become_image_outputs(agentbrowser_bin: Path, server: str, tmp_path: Path) -> None:
    async def main() -> None:
        async with CodeSession() as session:
            await session.run(f"await page.open({server + '/capture'!r})")
            path = str(tmp_path / "one.png")
            taken = await session.run(f"shot = await page.capture.screenshot({path!r})\nprint(shot.width)")
            assert taken.status is ExecutionStatus.SUCCESS, taken.error
            assert len(taken.images) == 1 and taken.images[0].data.startswith(PNG_MAGIC)
            assert taken.images[0].media_type == "image/png" and taken.images[0].name == "one.png"
            assert session.images == list(taken.images)
            # As the last expression (taken in this cell too: one image, not two).
            last = await session.run("await page.capture.screenshot()")
            assert len(last.images) == 1 and last.result is not None and last.result.startswith("Screenshot(")
            # An older screenshot passed to show(), and one returned as the last expression.
            shown = await session.run("show(shot)\nshot")
            assert len(shown.images) == 1 and shown.images[0].name == "one.png"
            none = await session.run("x = 1")
            assert none.images == () and session.images == []
            jpeg = await session.run("await page.capture.screenshot(format='jpeg')\nNone")
            assert len(jpeg.images) == 1 and jpeg.images[0].media_type == "image/jpeg"

    asyncio.run(main())


def test_browser_state_is_bounded_on_a_big_page_and_masked(agentbrowser_bin: Path, server: str) -> None:
    async def main() -> None:
        async with CodeSession(sensitive_data={"label": "Press me"}) as session:
            big = await session.run(f"await page.open({server + '/many'!r})")
            state = big.browser_state
            assert state is not None and len(state) <= 2000
            assert "Snapshot: 400 refs (button 400)" in state and "more lines]" in state
            home = await session.run(f"await page.open({server + '/'!r})\nawait page.title()")
            assert home.browser_state is not None and "Press me" not in home.browser_state
            assert 'button "<secret>label</secret>"' in home.browser_state

    asyncio.run(main())


def test_a_given_browser_is_used_and_left_open(agentbrowser_bin: Path, server: str) -> None:
    async def main() -> None:
        async with await AsyncBrowser.launch() as browser:
            original = browser.page.capture
            async with CodeSession(browser) as session:
                assert session.namespace["browser"] is browser
                cell = await session.run(f"await page.open({server + '/a'!r})\nawait page.capture.screenshot()")
                assert len(cell.images) == 1
            assert not browser.closed and browser.page.capture is original
            assert isinstance(browser.page.capture, AsyncCapture)
            assert await browser.page.title() == "Page A"

    asyncio.run(main())


def test_subprocess_executor_joins_the_same_browser(agentbrowser_bin: Path, server: str) -> None:
    async def main() -> None:
        async with CodeSession(executor="subprocess") as session:
            parent = session.browser
            assert parent is not None and parent.session is not None
            first = await session.run(
                f"import os\nawait page.open({server + '/'!r})\nsnap = await page.observe()\n"
                "await snap.one(role='button', name='Press me').click()\n"
                "print(os.getpid())\nawait page.evaluate(\"document.getElementById('out').textContent\")"
            )
            assert first.status is ExecutionStatus.SUCCESS, first.error
            assert first.result == "'clicked'" and first.stdout.strip() != str(os.getpid())
            assert first.browser_state is not None and "Title: Home" in first.browser_state
            # The parent's client sees the page the child opened: one browser session.
            assert await parent.page.title() == "Home"
            shot = await session.run("await page.capture.screenshot()")
            assert len(shot.images) == 1 and shot.images[0].data.startswith(PNG_MAGIC)
            hang = await session.run("import time\ntime.sleep(60)", timeout_s=1.0)
            assert hang.timed_out and hang.error is not None and "killed its child process" in hang.error
            assert hang.browser_state is not None and "Title: Home" in hang.browser_state
            after = await session.run("snap")
            assert after.error is not None and after.error.startswith("NameError")
            again = await session.run(f"await page.open({server + '/b'!r})\nawait page.title()")
            assert again.result == "'Page B'", again.error
            name = parent.session
        assert parent.closed
        # The session the executor started is ended: its daemon's socket goes away.
        sock = Path(os.environ["AGENTBROWSER_SOCKET_DIR"]) / f"{name}.sock"
        assert eventually(lambda: not sock.exists())

    asyncio.run(main())


def test_subprocess_executor_with_a_connected_browser(agentbrowser_bin: Path, server: str) -> None:
    async def main() -> None:
        name = f"cells-{uuid.uuid4().hex[:8]}"
        browser = await AsyncBrowser.connect(session=name)
        try:
            await browser.page.open(f"{server}/form")
            async with CodeSession(browser, executor="subprocess") as session:
                cell = await session.run("await page.title()")
                assert cell.result == "'Form'", cell.error
            assert not browser.closed and await browser.page.title() == "Form"
        finally:
            await browser.close(end_session=True)
        launched = await AsyncBrowser.launch()
        try:
            session = CodeSession(launched, executor="subprocess")
            try:
                await session.start()
            except ValueError as exc:
                assert "session name" in str(exc)
            else:
                raise AssertionError("a launched browser cannot be joined by a child process")
        finally:
            await launched.close()

    asyncio.run(main())
