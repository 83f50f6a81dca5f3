"""End-to-end: direct CDP beside the engine (``browser.cdp``, ``cdp_url``), sync and async, on
real Chromium: raw calls, frames, targets and execution contexts by strict criteria, every
error class in the situation that causes it, and CDP calls interleaved with engine commands."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from agentbrowser import AsyncBrowser, Browser, BrowserError
from agentbrowser import cdp
from conftest import PAGES, REPO, _page, aeventually, eventually

pytestmark = pytest.mark.e2e

PAGES["/cdp-top"] = _page(
    "CDP top",
    "<h1>CDP top page</h1>"
    "<button onclick=\"document.title='engine clicked'\">Press</button>"
    "<iframe id='fa' name='alpha' src='/cdp-child?n=a'></iframe>"
    "<iframe id='fb' name='beta' src='/cdp-child?n=b'></iframe>",
)
PAGES["/cdp-child"] = _page("CDP child", "<p>child text</p>")
PAGES["/cdp-cross-top"] = _page(
    "CDP cross top",
    "<script>document.write(\"<iframe name='cross' src='http://localhost:\" + location.port + \"/cdp-child?n=x'></iframe>\")</script>",
)
PAGES["/cdp-other"] = _page("CDP other", "<h1>Other page reached by CDP</h1>")


@pytest.fixture(scope="module")
def browser(agentbrowser_bin: Path, require: Callable[..., None]) -> Iterator[Browser]:
    require("cdp_url", "tab_new")
    with Browser.launch(timeout_ms=20000) as b:
        yield b


def _top(b: Browser, server: str) -> None:
    b.page.open(f"{server}/cdp-top")
    assert eventually(lambda: len(b.cdp.frames.list()) == 3, 10)


def test_cdp_url_reports_the_running_browser_and_never_launches_one(agentbrowser_bin: Path) -> None:
    with Browser() as b:
        with pytest.raises(BrowserError) as exc:
            b.cdp_url()
        assert exc.value.code == "no_browser" and "never launches" in str(exc.value)
        assert b.status().browser_launched is False
        first = b.cdp_url(launch=True)
        assert first.ws_url.startswith("ws://127.0.0.1:") and "/devtools/browser/" in first.ws_url
        assert first.launched is True and first.attached is False and first.browser_version
        again = b.cdp_url()
        assert again.ws_url == first.ws_url and again.launched is False


def test_send_and_evaluate_interleave_with_engine_commands(browser: Browser, server: str) -> None:
    _top(browser, server)
    version = browser.cdp.send("Browser.getVersion")
    assert "Chrome" in version["product"]
    assert browser.cdp.evaluate("document.title") == "CDP top"
    # The engine acts; CDP sees what it did.
    browser.page.observe().one(role="button", name="Press").click()
    assert browser.cdp.evaluate("document.title") == "engine clicked"
    # CDP navigates; the engine sees the new page.
    tab = browser.cdp.active()
    browser.cdp.send("Page.navigate", {"url": f"{server}/cdp-other"}, session_id=tab.session_id)
    assert eventually(lambda: "Other page reached by CDP" in browser.page.observe().text, 10)
    assert browser.page.url() == f"{server}/cdp-other"
    # A promise is awaited; return_by_value=False gives the RemoteObject.
    assert browser.cdp.evaluate("new Promise(r => setTimeout(() => r(6 * 7), 10))") == 42
    remote = browser.cdp.evaluate("document.body", return_by_value=False)
    assert remote["type"] == "object" and remote["subtype"] == "node"


def test_frames_by_strict_criteria(browser: Browser, server: str) -> None:
    _top(browser, server)
    frames = browser.cdp.frames.list()
    assert frames[0].is_main and frames[0].url == f"{server}/cdp-top"
    assert {f.name for f in frames[1:]} == {"alpha", "beta"}
    alpha = browser.cdp.frames.get(name="alpha")
    assert alpha.url == f"{server}/cdp-child?n=a"
    assert browser.cdp.frames.get(selector="#fb").name == "beta"
    assert browser.cdp.frames.get(url="n=b").name == "beta"
    assert alpha.evaluate("location.search") == "?n=a"
    assert browser.cdp.evaluate("document.querySelector('p').textContent", frame=alpha) == "child text"
    with pytest.raises(cdp.CDPFrameAmbiguityError) as amb:
        browser.cdp.frames.get(url="cdp-child")
    assert len(amb.value.candidates) == 2 and all("cdp-child" in c for c in amb.value.candidates)
    with pytest.raises(cdp.CDPFrameNotFoundError) as missing:
        browser.cdp.frames.get(name="gamma")
    assert any("alpha" in c for c in missing.value.candidates)
    with pytest.raises(cdp.CDPFrameNotFoundError):
        browser.cdp.frames.get(selector="h1")  # matches, but owns no frame
    with pytest.raises(TypeError):
        browser.cdp.frames.get(name="alpha", url="*")


def test_frames_of_other_processes_are_reached_through_their_targets(browser: Browser, server: str) -> None:
    browser.page.open(f"{server}/cdp-cross-top")
    assert eventually(lambda: len(browser.cdp.frames.list()) == 2, 10)
    cross = browser.cdp.frames.get(name="cross")
    assert not cross.is_main and cross.url.startswith("http://localhost:")
    assert cross.session_id != browser.cdp.frames.list()[0].session_id  # its own target
    assert cross.context().origin.startswith("http://localhost:")
    assert cross.evaluate("document.querySelector('p').textContent") == "child text"
    assert browser.cdp.frames.get(selector="iframe").id == cross.id


def test_execution_contexts_by_strict_criteria(browser: Browser, server: str) -> None:
    _top(browser, server)
    main = browser.cdp.frames.list()[0]
    default = main.context()
    assert default.is_default and default.frame_id == main.id and default.origin == server
    assert browser.cdp.evaluate("1 + 1", context=default) == 2
    browser.cdp.send("Page.createIsolatedWorld", {"frameId": main.id, "worldName": "twin"}, session_id=main.session_id)
    browser.cdp.send("Page.createIsolatedWorld", {"frameId": main.id, "worldName": "solo"}, session_id=main.session_id)
    solo = main.context(name="solo")
    assert solo.type == "isolated" and not solo.is_default
    # An isolated world shares the DOM, not the page's globals.
    browser.cdp.evaluate("window.mark = 'page'", context=default)
    assert solo.evaluate("typeof window.mark") == "undefined"
    assert solo.evaluate("document.title") == "CDP top"
    with pytest.raises(cdp.CDPContextAmbiguityError) as amb:
        main.context(predicate=lambda c: c.type == "isolated" and c.name in ("twin", "solo"))
    assert len(amb.value.candidates) == 2 and any("twin" in c for c in amb.value.candidates)
    with pytest.raises(cdp.CDPContextNotFoundError) as missing:
        main.context(name="nowhere")
    assert any("solo" in c for c in missing.value.candidates)
    assert any(c.name == "solo" for c in main.contexts())
    assert [c.name for c in main.contexts(predicate=lambda c: c.name == "twin")] == ["twin"]


def test_cached_frame_and_context_go_stale_after_navigation(browser: Browser, server: str) -> None:
    _top(browser, server)
    main = browser.cdp.frames.list()[0]
    alpha = browser.cdp.frames.get(name="alpha")
    ctx = main.context()
    assert ctx.evaluate("1") == 1
    browser.page.open(f"{server}/cdp-other")  # an engine navigation
    with pytest.raises(cdp.CDPStaleObjectError):
        ctx.evaluate("1")
    with pytest.raises(cdp.CDPStaleObjectError):
        browser.cdp.evaluate("1", context=ctx)
    with pytest.raises(cdp.CDPStaleObjectError):
        main.evaluate("1")
    with pytest.raises(cdp.CDPStaleObjectError):
        alpha.contexts()
    # Looking up again works on the new document.
    assert browser.cdp.frames.list()[0].evaluate("document.title") == "CDP other"


def test_targets_by_label_url_and_id(browser: Browser, server: str) -> None:
    browser.page.open(f"{server}/cdp-top")
    tab = browser.tabs.new(f"{server}/cdp-other", label="second")
    try:
        second = browser.cdp.target(label="second")
        assert second.url == f"{server}/cdp-other" and second.target_id == tab.target_id
        assert second.evaluate("document.title") == "CDP other"
        assert browser.cdp.target(target_id=second.target_id).label == "second"
        assert browser.cdp.target(url="**/cdp-other").target_id == second.target_id
        assert [f.url for f in second.frames()] == [f"{server}/cdp-other"]
        assert any(c.is_default for c in second.contexts())
        with pytest.raises(cdp.CDPTargetAmbiguityError) as amb:
            browser.cdp.target(url=f"{server}/*")
        assert len(amb.value.candidates) == 2
        with pytest.raises(cdp.CDPTargetNotFoundError) as missing:
            browser.cdp.target(label="third")
        assert any("second" in c for c in missing.value.candidates)
        with pytest.raises(cdp.CDPTargetNotFoundError):
            browser.cdp.target(target_id="0" * 32)
    finally:
        browser.tabs.close(tab.id)

    def stale() -> bool:
        try:
            second.evaluate("1")
        except cdp.CDPStaleObjectError:
            return True
        return False

    assert eventually(stale, 10)


def test_protocol_timeout_and_javascript_errors(browser: Browser, server: str) -> None:
    browser.page.open(f"{server}/cdp-top")
    with pytest.raises(cdp.CDPProtocolError) as proto:
        browser.cdp.send("Nope.notAMethod")
    assert proto.value.method == "Nope.notAMethod" and proto.value.code == -32601
    with pytest.raises(cdp.CDPProtocolError) as bad:
        browser.cdp.send("Target.attachToTarget", {"targetId": "missing"})
    assert bad.value.error["message"]
    session = browser.cdp.active().session_id
    never = {"expression": "new Promise(() => {})", "awaitPromise": True}
    with pytest.raises(cdp.CDPTimeoutError) as late:
        browser.cdp.send("Runtime.evaluate", never, session_id=session, timeout=0.5)
    assert late.value.method == "Runtime.evaluate" and isinstance(late.value, TimeoutError)
    with pytest.raises(cdp.CDPEvaluationError) as js:
        browser.cdp.evaluate("throw new Error('boom from page')")
    assert "boom from page" in str(js.value) and js.value.details["exception"]["className"] == "Error"
    with pytest.raises(ValueError):
        browser.cdp.send("noDot")
    # The connection still serves after each failure.
    assert browser.cdp.evaluate("2 * 21") == 42


def test_use_after_close_raises_closed(agentbrowser_bin: Path, server: str) -> None:
    b = Browser.launch(timeout_ms=20000)
    b.page.open(f"{server}/cdp-other")
    ctl = b.cdp
    ctx = ctl.frames.list()[0].context()
    ctl.close()
    with pytest.raises(cdp.CDPClosedError):
        ctl.send("Browser.getVersion")
    with pytest.raises(cdp.CDPClosedError):
        ctx.evaluate("1")
    assert b.page.title() == "CDP other"  # the engine goes on
    b.close()
    with pytest.raises(cdp.CDPClosedError):
        b.cdp.evaluate("1")


def test_without_websockets_the_hint_names_the_extra(agentbrowser_bin: Path) -> None:
    code = (
        "import sys; sys.modules['websockets'] = None\n"
        "import agentbrowser\n"
        "b = agentbrowser.Browser()\n"
        "try:\n"
        "    b.cdp.send('Browser.getVersion')\n"
        "except ImportError as e:\n"
        "    print('IMPORT', e)\n"
        "print('STARTED', b.started)\n"
        "b.close()\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, cwd=REPO / "python"
    )
    assert "IMPORT" in done.stdout and "agentbrowser-engine[cdp]" in done.stdout, done.stderr
    assert "STARTED False" in done.stdout  # nothing was launched for it


def test_async_twin(agentbrowser_bin: Path, server: str) -> None:
    async def main() -> None:
        async with await AsyncBrowser.launch(timeout_ms=20000) as b:
            await b.page.open(f"{server}/cdp-top")
            assert "Chrome" in (await b.cdp.send("Browser.getVersion"))["product"]
            assert (await b.cdp_url()).ws_url.startswith("ws://")
            frames = await b.cdp.frames.list()
            assert len(frames) == 3
            alpha = await b.cdp.frames.get(name="alpha")
            assert await alpha.evaluate("location.search") == "?n=a"
            ctx = await frames[0].context()
            assert await b.cdp.evaluate("document.title", context=ctx) == "CDP top"
            with pytest.raises(cdp.CDPFrameAmbiguityError):
                await b.cdp.frames.get(url="cdp-child")
            with pytest.raises(cdp.CDPEvaluationError):
                await b.cdp.evaluate("null.x")
            with pytest.raises(cdp.CDPProtocolError):
                await b.cdp.send("Nope.notAMethod")
            tab = await b.cdp.active()
            await b.cdp.send("Page.navigate", {"url": f"{server}/cdp-other"}, session_id=tab.session_id)
            async def reached() -> bool:
                return "Other page reached by CDP" in (await b.page.observe()).text

            assert await aeventually(reached, 10), "the engine never saw the page CDP navigated to"
            assert await b.page.title() == "CDP other"
            with pytest.raises(cdp.CDPStaleObjectError):
                await ctx.evaluate("1")
            with pytest.raises(cdp.CDPTimeoutError):
                never = {"expression": "new Promise(() => {})", "awaitPromise": True}
                await b.cdp.send("Runtime.evaluate", never, session_id=tab.session_id, timeout=0.5)
            ctl = b.cdp
        with pytest.raises(cdp.CDPClosedError):
            await ctl.send("Browser.getVersion")

    asyncio.run(main())
