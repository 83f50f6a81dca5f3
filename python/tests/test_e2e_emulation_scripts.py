"""End-to-end: ``browser.emulation`` and ``browser.scripts`` (sync and async) on real Chromium.
Every setting is observed by the page (and the user agent by the server), in the tab it was set
in and in a tab opened afterwards; resets and errors too."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from agentbrowser import (
    AsyncBrowser,
    Browser,
    BrowserError,
    Device,
    EmulationSettings,
    Injection,
    LaunchOptions,
)

PAGE = (
    "<!doctype html><html><head><meta name='viewport' content='width=device-width'><title>Emu</title></head><body><p id='p'>hello</p>"
    "<script>window.seenInit = window.__init || 'none';</script></body></html>"
)


class _Site:
    """A page server that records the User-Agent of every request."""

    def __init__(self) -> None:
        self.agents: list[str] = []
        site = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802 (http.server API)
                site.agents.append(self.headers.get("User-Agent", ""))
                routes = {
                    "/": ("text/html", PAGE),
                    "/lib.js": ("text/javascript", "window.libLoaded = (window.libLoaded || 0) + 1;"),
                    "/red.css": ("text/css", "#p { color: rgb(255, 0, 0); }"),
                }
                if self.path.split("?")[0] not in routes:
                    self.send_error(404)
                    return
                kind, body = routes[self.path.split("?")[0]]
                data = body.encode()
                self.send_response(200)
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(data)))
                self.send_header("Cache-Control", "no-store")
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, format: str, *args: object) -> None:  # noqa: A002
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"


@pytest.fixture(scope="module")
def site() -> Iterator[_Site]:
    s = _Site()
    yield s
    s.httpd.shutdown()
    s.httpd.server_close()


@pytest.fixture()
def browser(agentbrowser_bin: Path) -> Iterator[Browser]:
    with Browser.launch(LaunchOptions(timeout_ms=20000)) as b:
        yield b


def _js(b: Browser, expr: str) -> Any:
    return b.page.evaluate(expr)


def test_viewport_device_and_media_reach_the_page_and_later_tabs(browser: Browser, site: _Site) -> None:
    browser.page.open(site.url + "/")
    before = _js(browser, "innerWidth")
    s = browser.emulation.viewport(640, 480, device_scale_factor=2)
    assert isinstance(s, EmulationSettings) and s.applied_tabs == 1
    assert s.viewport is not None and (s.viewport.width, s.viewport.height, s.viewport.device_scale_factor) == (640, 480, 2.0)
    assert _js(browser, "[innerWidth, innerHeight, devicePixelRatio]") == [640, 480, 2]
    browser.emulation.media(color_scheme="dark", reduced_motion="reduce", media="print")
    assert _js(browser, "[matchMedia('(prefers-color-scheme: dark)').matches, matchMedia('(prefers-reduced-motion: reduce)').matches, matchMedia('print').matches]") == [True, True, True]
    browser.tabs.new(site.url + "/")
    assert _js(browser, "[innerWidth, devicePixelRatio, matchMedia('(prefers-color-scheme: dark)').matches]") == [640, 2, True]
    devices = browser.emulation.devices()
    assert all(isinstance(d, Device) for d in devices) and any(d.name == "Pixel 8" for d in devices)
    s = browser.emulation.device("pixel-8")
    assert s.device == "Pixel 8" and s.touch
    assert _js(browser, "[innerWidth, navigator.maxTouchPoints > 0, navigator.userAgent.includes('Pixel 8')]") == [412, True, True]
    with pytest.raises(BrowserError) as err:
        browser.emulation.device("Pixel 99")
    assert err.value.code == "invalid_argument" and "Pixel 7" in str(err.value)
    browser.emulation.device(None)
    browser.emulation.viewport()
    s = browser.emulation.media()
    assert (s.viewport, s.device, s.color_scheme, s.media) == (None, None, None, None)
    assert _js(browser, "[innerWidth, matchMedia('print').matches, navigator.userAgent.includes('Pixel')]") == [before, False, False]
    with pytest.raises(ValueError):
        browser.emulation.viewport(640)
    with pytest.raises(ValueError):
        browser.emulation.media(color_scheme="blue")  # type: ignore[arg-type]


def test_user_agent_timezone_locale_reach_page_and_server(browser: Browser, site: _Site) -> None:
    browser.page.open(site.url + "/")
    browser.emulation.user_agent("EmuBot/2.0")
    browser.emulation.timezone("Asia/Tokyo")
    s = browser.emulation.locale("de-DE")
    assert (s.user_agent, s.timezone, s.locale) == ("EmuBot/2.0", "Asia/Tokyo", "de-DE")
    site.agents.clear()
    browser.page.reload()
    assert site.agents and all(a == "EmuBot/2.0" for a in site.agents)
    probe = "[navigator.userAgent, Intl.DateTimeFormat().resolvedOptions().timeZone, navigator.language, (1234.5).toLocaleString()]"
    assert _js(browser, probe) == ["EmuBot/2.0", "Asia/Tokyo", "de-DE", "1.234,5"]
    browser.tabs.new(site.url + "/")
    assert _js(browser, probe) == ["EmuBot/2.0", "Asia/Tokyo", "de-DE", "1.234,5"]
    with pytest.raises(BrowserError) as err:
        browser.emulation.timezone("Mars/Olympus")
    assert err.value.code == "invalid_argument" and "Mars/Olympus" in str(err.value)
    assert browser.emulation.settings().timezone == "Asia/Tokyo"
    browser.emulation.user_agent(None)
    browser.emulation.timezone(None)
    browser.emulation.locale(None)
    ua, tz, lang = _js(browser, "[navigator.userAgent, Intl.DateTimeFormat().resolvedOptions().timeZone, navigator.language]")
    assert ua != "EmuBot/2.0" and "Chrome" in ua and tz != "Asia/Tokyo" and lang != "de-DE"


def test_geolocation_permissions_offline(browser: Browser, site: _Site) -> None:
    browser.page.open(site.url + "/")
    s = browser.emulation.geolocation(48.85, 2.35, accuracy=5)
    assert s.geolocation is not None and s.geolocation.latitude == 48.85
    where = (
        "new Promise(r => navigator.geolocation.getCurrentPosition("
        "p => r([p.coords.latitude, p.coords.longitude, p.coords.accuracy]), e => r('error ' + e.code)))"
    )
    assert _js(browser, where) == [48.85, 2.35, 5]
    with pytest.raises(BrowserError) as err:
        browser.emulation.geolocation(95, 0)
    assert err.value.code == "invalid_argument" and "latitude" in str(err.value)
    browser.emulation.permissions(["notifications"])
    assert _js(browser, "Notification.permission") == "granted"
    with pytest.raises(BrowserError) as err:
        browser.emulation.permissions(["telepathy"])
    assert err.value.code == "invalid_argument" and "geolocation" in str(err.value)
    s = browser.emulation.permissions(None)
    assert s.permissions is None
    assert _js(browser, "Notification.permission") != "granted"
    fetch = "fetch('/lib.js?' + Math.random()).then(() => 'ok', e => 'failed')"
    assert browser.emulation.offline().offline is True
    assert _js(browser, fetch) == "failed"
    # A tab opened while offline is offline too: its page does not load.
    with pytest.raises(BrowserError) as err:
        browser.tabs.new(site.url + "/")
    assert err.value.code == "navigation_failed"
    assert browser.emulation.offline(False).offline is False
    browser.page.open(site.url + "/")
    assert _js(browser, fetch) == "ok"


def test_init_scripts_run_before_page_scripts_in_new_tabs_and_are_removed(
    browser: Browser, site: _Site, tmp_path: Path
) -> None:
    browser.page.open(site.url + "/")
    ident = browser.scripts.add_init("window.__init = 'inline';")
    assert ident == "init-script-1"
    f = tmp_path / "init.js"
    f.write_text("window.__fromFile = 42;")
    second = browser.scripts.add_init(path=f)
    assert second == "init-script-2"
    assert _js(browser, "window.seenInit") == "none"
    browser.page.reload()
    assert _js(browser, "[window.seenInit, window.__fromFile]") == ["inline", 42]
    browser.tabs.new(site.url + "/")
    assert _js(browser, "[window.seenInit, window.__fromFile]") == ["inline", 42]
    listed = browser.emulation.settings().init_scripts
    assert [s.id for s in listed] == [ident, second] and listed[1].path == str(f)
    assert browser.scripts.remove_init(ident) == (second,)
    browser.page.reload()
    assert _js(browser, "[window.seenInit, window.__fromFile]") == ["none", 42]
    with pytest.raises(BrowserError) as err:
        browser.scripts.remove_init("init-script-9")
    assert err.value.code == "not_found" and second in str(err.value)
    with pytest.raises(BrowserError) as err:
        browser.scripts.add_init(path=tmp_path / "missing.js")
    assert err.value.code == "invalid_argument" and "missing.js" in str(err.value)
    with pytest.raises(ValueError):
        browser.scripts.add_init()
    with pytest.raises(ValueError):
        browser.scripts.add_init("1", path=f)


def test_add_script_and_style_tell_the_truth(browser: Browser, site: _Site) -> None:
    browser.page.open(site.url + "/")
    r = browser.scripts.add("window.inlineRan = 7;")
    assert isinstance(r, Injection) and (r.kind, r.url, r.bytes) == ("script", None, 21)
    assert _js(browser, "window.inlineRan") == 7
    r = browser.scripts.add(url="/lib.js")
    assert r.url == site.url + "/lib.js" and _js(browser, "window.libLoaded") == 1
    with pytest.raises(BrowserError) as err:
        browser.scripts.add(url="/missing.js")
    assert err.value.code == "navigation_failed" and "missing.js" in str(err.value)
    with pytest.raises(BrowserError) as err:
        browser.scripts.add("throw new Error('kaboom')")
    assert err.value.code == "js_error" and "kaboom" in str(err.value)
    browser.scripts.add_style(url="/red.css")
    assert _js(browser, "getComputedStyle(document.getElementById('p')).color") == "rgb(255, 0, 0)"
    browser.scripts.add_style("#p { color: rgb(0, 128, 0) !important; }")
    assert _js(browser, "getComputedStyle(document.getElementById('p')).color") == "rgb(0, 128, 0)"
    with pytest.raises(BrowserError) as err:
        browser.scripts.add_style(url="/missing.css")
    assert err.value.code == "navigation_failed"
    with pytest.raises(ValueError):
        browser.scripts.add("1", url="/lib.js")


def test_launch_options_emulation(agentbrowser_bin: Path, site: _Site) -> None:
    opts = LaunchOptions(timeout_ms=20000, user_agent="LaunchBot/1", color_scheme="dark", viewport=(500, 400))
    with Browser.launch(opts) as b:
        b.page.open(site.url + "/")
        got = b.page.evaluate("[navigator.userAgent, matchMedia('(prefers-color-scheme: dark)').matches, innerWidth, innerHeight]")
        assert got == ["LaunchBot/1", True, 500, 400]
        s = b.emulation.settings()
        assert (s.user_agent, s.color_scheme) == ("LaunchBot/1", "dark")
    with pytest.raises(ValueError):
        LaunchOptions(color_scheme="purple")
    with pytest.raises(TypeError):
        LaunchOptions(viewport=(500, "400"))  # type: ignore[arg-type]


def test_async_emulation_and_scripts(agentbrowser_bin: Path, site: _Site) -> None:
    async def main() -> None:
        async with await AsyncBrowser.launch(LaunchOptions(timeout_ms=20000)) as b:
            await b.page.open(site.url + "/")
            s = await b.emulation.viewport(700, 500)
            assert s.viewport is not None and s.viewport.width == 700
            await b.emulation.timezone("America/New_York")
            ident = await b.scripts.add_init("window.__init = 'async';")
            await b.tabs.new(site.url + "/")
            got = await b.page.evaluate("[innerWidth, Intl.DateTimeFormat().resolvedOptions().timeZone, window.seenInit]")
            assert got == [700, "America/New_York", "async"]
            assert (await b.scripts.add(url="/lib.js")).url == site.url + "/lib.js"
            assert (await b.scripts.remove_init(ident)) == ()
            assert (await b.emulation.settings()).init_scripts == ()
            with pytest.raises(BrowserError):
                await b.scripts.add_style(url="/nope.css")

    asyncio.run(main())
