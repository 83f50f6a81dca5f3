"""End-to-end on real Chromium: pyagentbrowser's launch fields agentbrowser honours (issue 37).

``extensions`` loads unpacked extensions (their content scripts run in the page),
``webmcp=False`` turns Chromium's WebMCP off (no native ``modelContext``; the session finds no backend),
``hide_scrollbars=True`` hides the scrollbars of an overflowing page, and the executable
``ensure_installed()`` finds is one a launch runs; ``browser.cdp`` evaluates in an
extension's content-script world (``extension_id=``), and takes pyagentbrowser's controller
calls (``cdp.frames()``, ``frame``, ``contexts``, ``invalidate``).
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from agentbrowser import AsyncBrowser, Browser, LaunchOptions, ensure_installed
from conftest import eventually

OVERFLOW = "data:text/html,<body style='margin:0'><div style='height:5000px'>tall</div></body>"
GUTTER = "window.innerWidth - document.documentElement.clientWidth"


def extension(tmp_path: Path, name: str, script: str) -> Path:
    """An unpacked extension whose content script ``script`` runs at document start in every page."""
    d = tmp_path / name
    d.mkdir()
    manifest = {
        "manifest_version": 3,
        "name": name,
        "version": "1.0",
        "content_scripts": [{"matches": ["<all_urls>"], "js": ["content.js"], "run_at": "document_start"}],
    }
    (d / "manifest.json").write_text(json.dumps(manifest))
    (d / "content.js").write_text(script)
    return d


def marking_extension(tmp_path: Path) -> Path:
    """An extension whose content script marks every page's root element."""
    return extension(tmp_path, "marker", "document.documentElement.dataset.marked = 'yes';")


def test_extensions_load_and_their_content_scripts_run(server: str, tmp_path: Path) -> None:
    with Browser.launch(LaunchOptions(extensions=[marking_extension(tmp_path)])) as browser:
        browser.page.open(f"{server}/form")
        assert browser.page.evaluate("document.documentElement.dataset.marked || null") == "yes"
    with Browser.launch() as browser:
        browser.page.open(f"{server}/form")
        assert browser.page.evaluate("document.documentElement.dataset.marked || null") is None


NATIVE_WEBMCP = "!!Object.getOwnPropertyDescriptor(Document.prototype, 'modelContext')"


def test_webmcp_false_turns_chromiums_webmcp_off(server: str) -> None:
    with Browser.launch(LaunchOptions(webmcp=False)) as browser:
        browser.page.open(f"{server}/form")
        assert browser.page.evaluate(NATIVE_WEBMCP) is False
        assert browser.page.webmcp.list() == ()
        assert browser.status().raw.get("webmcp") == "none"
    with Browser.launch() as browser:
        browser.page.open(f"{server}/form")
        assert browser.page.evaluate(NATIVE_WEBMCP) is True
        browser.page.webmcp.list()
        assert browser.status().raw.get("webmcp") == "native"


def test_hide_scrollbars_leaves_no_gutter() -> None:
    with Browser.launch(LaunchOptions(hide_scrollbars=True)) as browser:
        browser.page.open(OVERFLOW)
        assert browser.page.evaluate(GUTTER) == 0
    with Browser.launch(LaunchOptions(hide_scrollbars=False)) as browser:
        browser.page.open(OVERFLOW)
        assert browser.page.evaluate(GUTTER) > 0


def test_ensure_installed_finds_the_chromium_a_launch_runs(server: str) -> None:
    found = ensure_installed()
    assert found.executable_path.is_file() and found.installed is False
    with Browser.launch(LaunchOptions(executable_path=found.executable_path)) as browser:
        browser.page.open(f"{server}/form")
        version = browser.status().browser_version or ""
        assert found.version is None or found.version.split(".")[0] in version


def isolated_extension(tmp_path: Path) -> Path:
    """An extension whose content script keeps a value in its own world (invisible to the page)."""
    return extension(tmp_path, "isolated", "window.__world = 'extension';")


def test_cdp_evaluates_in_an_extensions_content_script_world(server: str, tmp_path: Path) -> None:
    with Browser.launch(LaunchOptions(extensions=[isolated_extension(tmp_path)])) as browser:
        browser.page.open(f"{server}/form")
        cdp = browser.cdp
        worlds = [c for c in cdp.contexts() if c.origin.startswith("chrome-extension://")]
        assert len(worlds) == 1
        ext = worlds[0].origin.removeprefix("chrome-extension://")
        assert cdp.evaluate("window.__world ?? null") is None
        assert cdp.evaluate("window.__world", extension_id=ext) == "extension"
        main = cdp.frames()[0]
        assert main == cdp.frames.list()[0]
        assert main.evaluate("window.__world", extension_id=ext) == "extension"
        assert main.context(extension_id=ext).origin == f"chrome-extension://{ext}"
        assert [c.origin for c in cdp.contexts(frame=main, extension_id=ext)] == [f"chrome-extension://{ext}"]
        assert cdp.active().evaluate("window.__world", extension_id=ext) == "extension"
        assert cdp.contexts(extension_id="nope") == ()
        cdp.invalidate()
        assert cdp.evaluate("1 + 1") == 2


def test_cdp_extension_worlds_through_the_async_client(server: str, tmp_path: Path) -> None:
    async def run() -> None:
        options = LaunchOptions(extensions=[isolated_extension(tmp_path)])
        async with await AsyncBrowser.launch(options) as browser:
            await browser.page.open(f"{server}/form")
            cdp = browser.cdp
            worlds = [c for c in await cdp.contexts() if c.origin.startswith("chrome-extension://")]
            ext = worlds[0].origin.removeprefix("chrome-extension://")
            assert await cdp.evaluate("window.__world", extension_id=ext) == "extension"
            frames = await cdp.frames()
            assert await frames[0].evaluate("window.__world", extension_id=ext) == "extension"
            assert (await cdp.frame(url=f"{server}/form")).id == frames[0].id
            cdp.invalidate()
            assert await cdp.evaluate("2 + 2") == 4

    asyncio.run(run())


def test_cdp_client_drain_events_waits_for_quiet(server: str) -> None:
    with Browser.launch() as browser:
        browser.page.open(f"{server}/form")
        client = browser.cdp.client
        client.pop_events()
        client.send("Target.setDiscoverTargets", {"discover": True})
        events = client.drain_events(timeout=0.2)
        assert any(e.get("method") == "Target.targetCreated" for e in events)
        assert client.drain_events() == []

        async def drain_async() -> list[str]:
            from agentbrowser.cdp import AsyncCDPClient

            other = await AsyncCDPClient.connect(client.url)
            try:
                await other.send("Target.setDiscoverTargets", {"discover": True})
                return [str(e.get("method")) for e in await other.drain_events(timeout=0.2)]
            finally:
                await other.close()

        assert "Target.targetCreated" in asyncio.run(drain_async())


def test_cdp_clients_take_a_socket_factory_and_async_opens_on_first_send(server: str) -> None:
    from agentbrowser.cdp import AsyncCDPClient, CDPClient
    from websockets.asyncio.client import connect as async_connect
    from websockets.sync.client import connect as sync_connect

    opened: list[str] = []

    def factory(url: str) -> Any:
        opened.append(url)
        return sync_connect(url, max_size=None).__enter__()

    with Browser.launch() as browser:
        browser.page.open(f"{server}/form")
        url = browser.cdp.url
        client = CDPClient(url, connect=factory)
        try:
            assert opened == [url]
            assert any(t["url"].endswith("/form") for t in client.send("Target.getTargets")["targetInfos"])
        finally:
            client.close()

        async def lazily() -> str:
            lazy = AsyncCDPClient(url, connect=lambda u: async_connect(u, max_size=None))
            try:
                version = await lazy.send("Browser.getVersion")
                return str(version["product"])
            finally:
                await lazy.close()

        assert "Chrom" in asyncio.run(lazily())


def test_page_sessions_on_a_transport_of_ones_own(server: str, tmp_path: Path) -> None:
    from agentbrowser.cdp import AsyncCDPClient, AsyncCDPPageSession, CDPClient, CDPPageSession, CDPStaleObjectError

    with Browser.launch(LaunchOptions(extensions=[isolated_extension(tmp_path)])) as browser:
        browser.page.open(f"{server}/form")
        url = browser.cdp.url
        client = CDPClient(url)
        try:
            page = next(t for t in client.send("Target.getTargets")["targetInfos"] if t["url"].endswith("/form"))
            attached = client.send("Target.attachToTarget", {"targetId": page["targetId"], "flatten": True})
            session = CDPPageSession(client, session_id=attached["sessionId"], target_id=page["targetId"])
            assert session.evaluate("location.pathname") == "/form"
            main = session.frames()[0]
            assert session.resolve_frame(main.id) == main and session.resolve_frame(None) == main
            world = [c for c in session.contexts() if c.origin.startswith("chrome-extension://")]
            ext = world[0].origin.removeprefix("chrome-extension://")
            assert session.evaluate("window.__world", extension_id=ext) == "extension"
            ctx = session.context()
            session.invalidate()
            assert ctx.evaluate("6 * 7") == 42  # the same document: its context lives on
            session.client.send("Page.navigate", {"url": f"{server}/a"}, session_id=session.session_id)

            def stale() -> bool:
                try:
                    ctx.evaluate("1")
                except CDPStaleObjectError:
                    return True
                return False

            assert eventually(stale)  # once the navigation has replaced the document
            assert session.evaluate("location.pathname") == "/a"
        finally:
            client.close()

        async def run() -> str:
            other = await AsyncCDPClient.connect(url)
            try:
                infos = (await other.send("Target.getTargets"))["targetInfos"]
                page = next(t for t in infos if t["url"].endswith("/a"))
                attached = await other.send("Target.attachToTarget", {"targetId": page["targetId"], "flatten": True})
                session = AsyncCDPPageSession(other, session_id=attached["sessionId"], target_id=page["targetId"])
                return str(await session.evaluate("location.pathname"))
            finally:
                await other.close()

        assert asyncio.run(run()) == "/a"
