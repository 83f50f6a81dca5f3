"""End-to-end: snapshots, refs, waits, evidence and their errors, sync and async."""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from agentbrowser import (
    ActionResult,
    ActionTransitionError,
    AsyncBrowser,
    AsyncStaleRefError,
    Browser,
    BrowserError,
    Dialog,
    Ref,
    Snapshot,
    SnapshotDiff,
    SnapshotSpec,
    StaleRefError,
    Wait,
    WaitResult,
)

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def browser(agentbrowser_bin: Path, require: Callable[..., None]) -> Iterator[Browser]:
    require("snapshot", "click", "fill", "diff", "wait", "press")
    with Browser.launch(timeout_ms=20000) as b:
        yield b


def form(browser: Browser, server: str) -> Snapshot[Browser]:
    browser.page.open(f"{server}/form")
    return browser.page.observe()


def test_observe_snapshot(browser: Browser, server: str) -> None:
    snap = form(browser, server)
    assert isinstance(snap, Snapshot)
    assert snap.origin == snap.url == f"{server}/form"
    assert snap.spec == SnapshotSpec() and isinstance(snap.generation, int)
    assert "Submit" in snap.text and snap.raw["refs"]
    submit = snap.one(role="button", name="Submit")
    assert isinstance(submit, Ref) and submit.browser is browser and submit.snapshot is snap
    assert submit.selector == f"@{submit.id}" and snap.ref(submit.selector) is submit
    assert f"[ref={submit.id}]" in snap.text or submit.id in snap.text
    assert len(snap.all(role="button")) >= 3
    with pytest.raises(KeyError):
        snap.ref("e99999")
    with pytest.raises(LookupError) as err:
        snap.one(role="button", name="Nonexistent")
    assert "Nonexistent" in str(err.value) and "Submit" in str(err.value)
    with pytest.raises(LookupError, match="refs match"):
        snap.one(role="button")
    later = snap.refresh()
    assert later.generation > snap.generation and later.spec == snap.spec
    spec = SnapshotSpec(selector="h1", interactive=False, compact=True, max_depth=3)
    heading = browser.page.observe(spec)
    assert heading.spec == spec and "Sign up" in heading.text


def test_fill_type_select_check(browser: Browser, server: str) -> None:
    snap = form(browser, server)
    name = snap.one(role="textbox", name="Name")
    filled = name.fill("Ada")
    assert isinstance(filled, ActionResult) and filled.action == "fill" and filled.target is name
    assert isinstance(filled.before, Snapshot) and isinstance(filled.after, Snapshot)
    assert isinstance(filled.diff, SnapshotDiff)
    assert name.input_value() == "Ada"
    name.type(" Lovelace")
    assert name.input_value() == "Ada Lovelace"
    name.clear()
    assert name.input_value() == ""
    color = snap.one(role="combobox", name="Color")
    color.select("blue")
    assert color.input_value() == "blue"
    agree = snap.one(role="checkbox", name="Agree")
    assert agree.is_checked() is False
    checked = agree.check()
    assert agree.is_checked() is True and checked.changed
    agree.uncheck()
    assert agree.is_checked() is False


def test_click_with_wait_and_reads(browser: Browser, server: str) -> None:
    snap = form(browser, server)
    snap.one(role="textbox", name="Name").fill("Grace")
    submit = snap.one(role="button", name="Submit")
    result = submit.click(wait=Wait.text("Submitted Grace", timeout_ms=5000))
    assert result.action == "click" and result.target is submit
    assert browser.page.evaluate("document.getElementById('result').textContent") == "Submitted Grace"
    assert submit.text() == "Submit" and submit.inner_text() == "Submit"
    assert submit.is_visible() is True and submit.is_enabled() is True
    assert snap.one(role="button", name="Disabled").is_enabled() is False
    home = snap.one(role="link", name="Back home")
    assert home.attribute("href") == "/" and home.attribute("data-kind") == "nav"
    assert home.attribute("no-such-attribute") is None
    assert len(repr(result)) < 300


def test_dialogs_in_the_evidence(browser: Browser, server: str) -> None:
    browser.page.open(f"{server}/dialogs")
    snap = browser.page.observe()
    result = snap.one(role="button", name="Alert").click()
    assert result.dialogs == (Dialog(type="alert", message="saved", url=f"{server}/dialogs", accepted=True),)
    # A confirm waits for the agent: the result reports it open; dismissing it answers the page.
    result = snap.one(role="button", name="Confirm").click()
    assert result.dialogs == ()
    assert result.open_dialog is not None and (result.open_dialog.type, result.open_dialog.message) == ("confirm", "sure?")
    assert browser.dialogs.dismiss().dialog.message == "sure?"
    assert browser.page.evaluate("document.getElementById('o').textContent") == "no"
    assert snap.one(role="button", name="Alert").focus().dialogs == ()


def test_hover_focus_tap_scroll(browser: Browser, server: str) -> None:
    snap = form(browser, server)
    hover = snap.one(role="textbox", name="Hover box")
    hover.hover()
    assert hover.input_value() == "hovered"
    focus = snap.one(role="textbox", name="Focus box")
    focus.focus()
    assert focus.input_value() == "focused"
    assert isinstance(snap.one(role="button", name="Tap me").tap(), ActionResult)
    far = snap.one(role="button", name="Far away")
    far.scroll_into_view()
    assert browser.page.evaluate("window.scrollY") > 1000
    assert isinstance(far.click(button="left", click_count=2), ActionResult)
    with pytest.raises(ValueError, match="button"):
        far.click(button="side")
    with pytest.raises(ValueError, match="click_count"):
        far.click(click_count=0)
    with pytest.raises(ValueError, match="1, 2 or 3"):
        far.click(click_count=4)


def test_press_wait_and_diff(browser: Browser, server: str) -> None:
    browser.page.open(f"{server}/keys")
    snap = browser.page.observe()
    snap.one(role="textbox", name="Key box").focus()
    pressed = browser.page.press("Enter", wait=Wait.text("enter pressed", timeout_ms=3000))
    assert isinstance(pressed, ActionResult) and pressed.action == "press" and pressed.target is None
    waited = browser.page.wait(Wait.text("enter pressed"))
    assert isinstance(waited, WaitResult) and waited.matched and waited.elapsed_ms >= 0
    assert browser.page.wait(ms=50).elapsed_ms >= 40
    assert browser.page.wait(Wait.all(Wait.loaded(), Wait.url("**/keys"))).matched
    with pytest.raises(ValueError):
        browser.page.wait()
    with pytest.raises(ValueError, match="exactly one"):  # as the protocol's `wait` allows
        browser.page.wait(Wait.text("enter pressed"), ms=10)
    with pytest.raises(BrowserError) as err:
        browser.page.wait(Wait.text("never appears", timeout_ms=200))
    assert err.value.code == "timeout"
    browser.page.open(f"{server}/delayed-text")
    before = browser.page.observe(SnapshotSpec(interactive=False))
    before.one(role="button", name="Later").click(wait=Wait.text("ready now", timeout_ms=3000))
    diff = before.diff()
    assert isinstance(diff, SnapshotDiff) and diff.changed and diff.added >= 1 and "ready now" in diff.diff


def test_stale_ref_after_script_navigation(browser: Browser, server: str) -> None:
    browser.page.open(f"{server}/a")
    snap = browser.page.observe()
    go = snap.one(role="button", name="Go")
    browser.page.evaluate("location.href = '/b'")
    browser.page.wait(Wait.url("**/b"))
    with pytest.raises(StaleRefError) as err:
        go.click()
    assert err.value.code == "stale_ref" and err.value.ref is go and err.value.action == "click"
    fresh = err.value.refresh()
    assert fresh.name == "Go" and fresh.role == "button" and fresh.snapshot.origin == f"{server}/b"
    assert fresh.snapshot.generation > snap.generation
    assert isinstance(fresh.click(), ActionResult)
    again = fresh.refresh()
    assert again.name == "Go" and again.snapshot is not fresh.snapshot


def test_unknown_ref(browser: Browser, server: str) -> None:
    snap = form(browser, server)
    ghost = dataclasses.replace(snap.one(role="button", name="Submit"), id="e987654", selector="@e987654")
    with pytest.raises(StaleRefError) as err:
        ghost.click()
    assert err.value.code == "unknown_ref"
    raw = browser.native.execute("click", ref="e987654")
    assert not raw.success and raw.code == "unknown_ref"


def test_transition_error_stage(browser: Browser, server: str) -> None:
    snap = form(browser, server)
    submit = snap.one(role="button", name="Submit")
    with pytest.raises(ActionTransitionError) as err:
        submit.click(wait=Wait.text("this text never appears", timeout_ms=300))
    e = err.value
    assert e.stage == "wait" and e.action == "click" and e.target is submit
    assert isinstance(e.before, Snapshot)
    assert isinstance(e.cause, BrowserError) and e.cause.code == "timeout"
    # The click itself happened.
    assert browser.page.evaluate("document.getElementById('result').textContent").startswith("Submitted")


def test_bounded_reprs_on_large_page(browser: Browser, server: str) -> None:
    browser.page.open(f"{server}/many")
    snap = browser.page.observe()
    assert len(snap.refs) >= 400 and len(snap.text) > 10_000
    assert len(repr(snap)) < 400
    result = snap.one(role="button", name="Button number 7 with a fairly long accessible name").click()
    assert len(repr(result)) < 300 and len(repr(result.diff)) < 300
    assert len(snap._repr_markdown_()) < 7000 and len(snap._repr_html_()) < 12_000
    with pytest.raises(LookupError) as err:
        snap.one(contains="Button number")
    assert len(str(err.value)) < 1500


def test_async_refs(agentbrowser_bin: Path, server: str, require: Callable[..., None]) -> None:
    require("snapshot", "click", "fill")

    async def main() -> None:
        async with await AsyncBrowser.launch() as browser:
            await browser.page.open(f"{server}/form")
            snap = await browser.page.observe()
            assert snap.browser is browser
            name = snap.one(role="textbox", name="Name")
            result = await name.fill("Async")
            assert isinstance(result, ActionResult) and await name.input_value() == "Async"
            assert await snap.one(role="button", name="Submit").is_enabled()
            assert await snap.one(role="link", name="Back home").attribute("href") == "/"
            assert (await snap.refresh()).generation > snap.generation
            assert isinstance(await snap.diff(), SnapshotDiff)
            pressed = await browser.page.press("Tab")
            assert pressed.target is None
            assert (await browser.page.wait(ms=10)).matched
            await browser.page.open(f"{server}/a")
            go = (await browser.page.observe()).one(role="button", name="Go")
            await browser.page.evaluate("location.href = '/b'")
            await browser.page.wait(Wait.url("**/b"))
            with pytest.raises(AsyncStaleRefError) as err:
                await go.click()
            fresh = await err.value.refresh()
            assert fresh.snapshot.origin == f"{server}/b" and fresh.name == "Go"
            refreshed = await fresh.refresh()
            assert refreshed.name == "Go"
            with pytest.raises(ActionTransitionError) as terr:
                await refreshed.click(wait=Wait.text("nope never", timeout_ms=200))
            assert terr.value.stage == "wait"

    asyncio.run(main())


def test_refs_are_bound_to_their_tab(browser: Browser, server: str) -> None:
    first = form(browser, server)
    assert first.tab is not None
    submit = first.one(role="button", name="Submit")
    tab = browser.tabs.new(f"{server}/a")
    other = browser.page.observe()
    assert other.tab == tab.id and not set(other.refs) & set(first.refs)
    with pytest.raises(StaleRefError) as err:
        submit.click()
    assert err.value.code == "stale_ref" and f"tab switch {first.tab}" in str(err.value)
    browser.tabs.switch(first.tab)
    assert browser.page.evaluate("document.getElementById('result').textContent") == ""
    submit.click()
    assert browser.page.evaluate("document.getElementById('result').textContent").startswith("Submitted")
    browser.tabs.close(tab.id)


def test_a_relabelled_element_is_stale(browser: Browser, server: str) -> None:
    snap = form(browser, server)
    submit = snap.one(role="button", name="Submit")
    browser.page.evaluate("document.getElementById('submit').textContent = 'Delete account'")
    with pytest.raises(StaleRefError, match='was button "Submit", now button "Delete account"'):
        submit.click()
    assert browser.page.evaluate("document.getElementById('result').textContent") == ""


def test_snapshot_budget(browser: Browser, server: str) -> None:
    browser.page.open(f"{server}/many")
    small = browser.page.observe(SnapshotSpec(max_bytes=2000))
    assert small.truncated and len(small.text.encode()) < 2000 + 400
    assert small.omitted and small.omitted[0][0] == "button" and small.omitted[0][1] > 300
    assert "truncated at 2000 bytes" in small.text.splitlines()[-1]
    assert all(f"ref={rid}]" in small.text for rid in small.refs)
    whole = browser.page.observe(SnapshotSpec(max_bytes=0))
    assert not whole.truncated and whole.omitted == () and len(whole.refs) == 400
    assert small.refresh().spec.max_bytes == 2000
    with pytest.raises(ValueError, match="max_bytes"):
        SnapshotSpec(max_bytes=-1)


def test_html_and_count(browser: Browser, server: str) -> None:
    snap = form(browser, server)
    assert browser.page.count("button") >= 3
    assert browser.page.count("video") == 0
    assert browser.page.html("#result") == ""
    submit = snap.one(role="button", name="Submit")
    assert browser.page.html(submit.id) == "Submit"
    assert browser.page.html("#submit", outer=True).startswith('<button id="submit"')
    assert len(browser.page.html("body", max_bytes=30)) == 30
    with pytest.raises(BrowserError) as err:
        browser.page.count("li[")
    assert err.value.code == "invalid_argument"
    with pytest.raises(ValueError):
        browser.page.html("body", max_bytes=-1)


def test_evaluate_is_bounded_and_describes_what_json_cannot_carry(browser: Browser, server: str) -> None:
    browser.page.open(f"{server}/form")
    assert browser.page.evaluate("NaN") == {"unserializable": "NaN"}
    with pytest.raises(BrowserError) as err:
        browser.page.evaluate("'x'.repeat(2e6)")
    assert err.value.code == "result_too_large"
    assert len(browser.page.evaluate("'y'.repeat(2e6)", max_bytes=3_000_000)) == 2_000_000
