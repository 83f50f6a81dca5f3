"""End-to-end: agentbrowser.agent, the registry of named browsers kept alive across cells."""

from __future__ import annotations

import asyncio
import os
import signal
from pathlib import Path

import pytest
from agentbrowser import AsyncBrowser, CloseResult, LaunchOptions, SessionStatus, agent
from agentbrowser.agent import CloseAllError
from agentbrowser.code import CodeSession
from conftest import eventually


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:  # a zombie counts as gone
        return Path(f"/proc/{pid}/stat").read_text().split()[2] != "Z"
    except OSError:
        return False


def test_create_get_names_status_close(agentbrowser_bin: Path, server: str) -> None:
    async def main() -> None:
        try:
            shop = await agent.create("shop", options=LaunchOptions(timeout_ms=20000))
            default = await agent.create()
            assert isinstance(shop, AsyncBrowser) and agent.get("shop") is shop and agent.get("default") is default
            assert agent.names() == ("default", "shop")
            st = await agent.status("shop")
            assert isinstance(st, SessionStatus) and st.session == "shop" and st.browser_launched
            assert (await agent.status("default")).session == "default"
            custom = await agent.create("other", options=LaunchOptions(session="custom-id"))
            assert (await custom.status()).session == "custom-id"
            with pytest.raises(ValueError, match="already registered"):
                await agent.create("shop")
            with pytest.raises(KeyError):
                agent.get("missing")
            with pytest.raises(KeyError):
                await agent.close("missing")
            # The same browser across cells of a code session.
            async with CodeSession(launch_browser=False) as session:
                session.namespace["agent"] = agent
                await session.run(f"b = agent.get('shop')\nawait b.page.open({server + '/a'!r})")
                cell = await session.run("await agent.get('shop').page.title()")
                assert cell.result == "'Page A'", cell.error
            result = await agent.close("shop")
            assert isinstance(result, CloseResult) and result.closed and shop.closed
            assert agent.names() == ("default", "other")
            with pytest.raises(KeyError):
                agent.get("shop")
            # Closed behind the registry's back: get() and status() say so; create() replaces it.
            await default.close()
            with pytest.raises(RuntimeError, match="closed"):
                agent.get("default")
            with pytest.raises(RuntimeError, match="closed"):
                await agent.status("default")
            again = await agent.create("default")
            assert agent.get("default") is again and again is not default
            results = await agent.close_all()
            assert set(results) == {"default", "other"} and all(r.closed for r in results.values())
            assert agent.names() == () and await agent.close_all() == {}
        finally:
            if agent.names():
                await agent.close_all()

    asyncio.run(main())


@pytest.mark.parametrize("name", ["", "has space", "x" * 65, "dots.not.allowed", "é", 7])
def test_bad_names_are_value_errors(name: object) -> None:
    with pytest.raises(ValueError, match="1-64 characters"):
        asyncio.run(agent.create(name))  # type: ignore[arg-type]
    assert agent.names() == ()


def test_a_name_of_64_characters_is_fine(agentbrowser_bin: Path) -> None:
    async def main() -> None:
        name = "a-_9" * 16
        try:
            await agent.create(name)
            assert agent.names() == (name,)
        finally:
            await agent.close_all()

    asyncio.run(main())


def test_concurrent_creates_of_one_name(agentbrowser_bin: Path) -> None:
    async def main() -> None:
        try:
            outcomes = await asyncio.gather(agent.create("twin"), agent.create("twin"), return_exceptions=True)
            assert sum(isinstance(o, AsyncBrowser) for o in outcomes) == 1
            assert sum(isinstance(o, ValueError) for o in outcomes) == 1
            assert agent.names() == ("twin",)
        finally:
            await agent.close_all()

    asyncio.run(main())


def test_close_all_tries_every_browser_then_raises(agentbrowser_bin: Path) -> None:
    async def main() -> None:
        good = await agent.create("good")
        stuck = await agent.create("stuck")
        chromium = (await stuck.status()).browser_pid
        assert stuck.pid is not None and chromium is not None
        os.kill(stuck.pid, signal.SIGSTOP)  # the daemon cannot answer close any more
        try:
            with pytest.raises(CloseAllError) as err:
                await agent.close_all(timeout=2.0)
        finally:
            if _alive(stuck.pid):
                os.kill(stuck.pid, signal.SIGCONT)
        exc = err.value
        assert isinstance(exc, RuntimeError)
        assert set(exc.results) == {"good"} and exc.results["good"].closed and good.closed
        assert set(exc.errors) == {"stuck"} and isinstance(exc.errors["stuck"], TimeoutError)
        assert "1 of 2 browsers failed to close" in str(exc) and "stuck" in str(exc)
        assert agent.names() == () and stuck.closed
        assert eventually(lambda: not _alive(stuck.pid or 0))
        if not eventually(lambda: not _alive(chromium)):
            os.kill(chromium, signal.SIGKILL)  # the killed daemon's browser, started by this test
            pytest.fail("the killed daemon left its Chromium running")

    asyncio.run(main())


def test_close_all_error_carries_results_and_errors() -> None:
    exc = CloseAllError({"a": CloseResult(closed=True)}, {"b": TimeoutError("slow")})
    assert exc.results == {"a": CloseResult(closed=True)} and str(exc.errors["b"]) == "slow"
    assert "b: TimeoutError: slow" in str(exc)
