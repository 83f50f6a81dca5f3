"""End-to-end: CSS selectors, XPath and live locators (``page.find``), sync and async."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from agentbrowser import (
    ActionResult,
    AmbiguousTargetError,
    AsyncBrowser,
    Browser,
    BrowserError,
    Locator,
    LocatorActionResult,
    Ref,
)

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def browser(agentbrowser_bin: Path, require: Callable[..., None]) -> Iterator[Browser]:
    require("click", "fill", "find")
    with Browser.launch(timeout_ms=20000) as b:
        yield b


def clicks(b: Browser) -> list[str]:
    out = b.page.evaluate("window.clicks")
    assert isinstance(out, list)
    return out


def test_selectors_and_xpath(browser: Browser, server: str) -> None:
    page = browser.page
    page.open(f"{server}/targets")
    result = page.find.css("#save").click()
    assert isinstance(result, ActionResult)
    assert result.after is not None and result.diff is not None
    assert result.raw["target"]["name"] == "Save"
    assert clicks(browser) == ["save"]
    page.find.xpath("//input[@id='email']").fill("a@b.c")
    assert page.evaluate("document.getElementById('email').value") == "a@b.c"
    assert page.find.xpath("xpath=//img").attribute("alt") == "Company logo"
    assert page.find.css("#email").input_value() == "a@b.c"
    assert page.find.css("button.row").count() == 2
    with pytest.raises(AmbiguousTargetError) as amb:
        page.find.css("button.row").click()
    assert amb.value.code == "ambiguous_target"
    assert amb.value.count == 2
    assert [c["name"] for c in amb.value.candidates] == ["Delete", "Delete"]
    assert clicks(browser) == ["save"], "an ambiguous target clicks nothing"
    with pytest.raises(BrowserError) as missing:
        page.find.css("#nothing").click()
    assert missing.value.code == "not_found"
    assert "#nothing" in str(missing.value)
    with pytest.raises(BrowserError) as bad:
        page.find.css("a[[").click()
    assert bad.value.code == "invalid_argument"
    # A selector or XPath picks one of several matches with first/last/nth (`>> nth=N`).
    rows = page.find.css("button.row")
    assert rows.last().target == "css=button.row >> nth=-1"
    rows.last().click()
    rows.first().click()
    page.find.xpath("//button[@class='row']").nth(1).click()
    assert clicks(browser) == ["save", "row2", "row1", "row2"]
    assert rows.nth(0).count() == 1
    assert rows.nth(0).last().target == "css=button.row >> nth=-1", "a new pick replaces the old"
    with pytest.raises(BrowserError) as past:
        rows.nth(5).click()
    assert past.value.code == "not_found"
    assert "matches 2 elements" in str(past.value)
    with pytest.raises(ValueError):
        Locator(target="e3", browser=browser).first()


def test_locators(browser: Browser, server: str) -> None:
    page = browser.page
    page.open(f"{server}/targets")
    page.find.role("button", name="save").click()
    assert clicks(browser) == ["save"]
    page.find.label("Email").fill("x@y.z")
    assert page.evaluate("document.getElementById('email').value") == "x@y.z"
    page.find.placeholder("YOU@example").fill("p@q.r")
    assert page.find.label("email").input_value() == "p@q.r"
    assert page.find.alt("logo").attribute("width") == "10"
    assert page.find.title("The logo", exact=True).attribute("alt") == "Company logo"
    page.find.testid("save-btn").click()
    page.find.label("Agree").check()
    assert page.find.label("Agree").is_checked() is True
    rows = page.find.text("Delete")
    assert rows.count() == 2
    with pytest.raises(AmbiguousTargetError):
        rows.click()
    rows.last().click()
    rows.first().click()
    rows.nth(-2).click()
    assert clicks(browser) == ["save", "save", "row2", "row1", "row1"]
    every = page.find.role("button", name="Delete").all()
    assert len(every) == 2 and all(isinstance(loc, Locator) for loc in every)
    assert every[1].text() == "Delete"
    # A locator re-resolves on every call: built before the element exists, it finds it later.
    late = page.find.role("button", name="Late")
    assert late.count() == 0
    with pytest.raises(BrowserError) as missing:
        late.click()
    assert missing.value.code == "not_found"
    page.evaluate(
        "document.getElementById('dyn').innerHTML = "
        '"<button onclick=\\"window.clicks.push(\'late\')\\">Late one</button>"; 1'
    )
    late.click()
    assert clicks(browser)[-1] == "late"
    with pytest.raises(ValueError):
        page.find.role("")
    with pytest.raises(TypeError):
        page.find.text("x", exact="yes")  # type: ignore[arg-type]


def test_async_locators(agentbrowser_bin: Path, server: str, require: Callable[..., None]) -> None:
    require("find")

    async def main() -> None:
        async with await AsyncBrowser.launch() as b:
            page = b.page
            await page.open(f"{server}/targets")
            result = await page.find.role("button", name="Save", exact=True).click()
            assert result.raw["target"]["role"] == "button"
            await page.find.label("Email").fill("async@x.y")
            assert await page.find.css("#email").input_value() == "async@x.y"
            assert await page.find.text("Delete").count() == 2
            with pytest.raises(AmbiguousTargetError):
                await page.find.text("Delete").click()
            await page.find.text("Delete").nth(1).click()
            refs = await page.find.css("button.row").all()
            assert len(refs) == 2
            assert await refs[0].text() == "Delete"
            assert await page.evaluate("window.clicks") == ["save", "row2"]
            await page.find.css("button.row").first().click()
            await page.find.xpath("//button[@class='row']").last().click()
            assert await page.evaluate("window.clicks") == ["save", "row2", "row1", "row2"]
            # Mutations answer a LocatorActionResult that chains (awaited at each step).
            hovered = await page.find.role("button", name="Save", exact=True).hover()
            assert isinstance(hovered, LocatorActionResult) and hovered.action == "hover"
            clicked = await hovered.click()
            assert clicked.action == "click" and clicked.diff is not None
            assert await clicked.text() == "Save"
            await (await (await page.find.text("Delete").first().hover()).click()).click()
            assert (await page.evaluate("window.clicks"))[4:] == ["save", "row1", "row1"]

    asyncio.run(main())


def test_locator_results_chain_and_keep_their_evidence(browser: Browser, server: str) -> None:
    # pyagentbrowser's Query methods return the query (``find.role(...).hover().click()``); ours
    # return a LocatorActionResult: the action's evidence, and the locator's calls again.
    page = browser.page
    page.open(f"{server}/targets")
    save = page.find.role("button", name="Save", exact=True)
    hovered = save.hover()
    assert isinstance(hovered, LocatorActionResult) and isinstance(hovered, ActionResult)
    assert hovered.action == "hover" and hovered.locator is save and hovered.target is None
    clicked = hovered.click()
    assert clicked.action == "click" and clicked.after is not None and clicked.diff is not None
    assert repr(clicked).startswith("LocatorActionResult(action='click', target=")
    assert clicks(browser) == ["save"]
    assert clicked.click().text() == "Save" and clicks(browser) == ["save", "save"]
    # Each chained call resolves the locator again: a picked match stays picked.
    page.find.text("Delete").last().hover().click().click()
    assert clicks(browser) == ["save", "save", "row2", "row2"]
    filled = page.find.label("Email").fill("one@x.y").clear().type("two@x.y")
    assert filled.action == "type" and filled.input_value() == "two@x.y"
    assert page.evaluate("document.getElementById('email').value") == "two@x.y"
    checked = page.find.label("Agree").check()
    assert checked.is_checked() is True and checked.uncheck().is_checked() is False
    # A ref's mutation answers a plain ActionResult (as pyagentbrowser's Ref does).
    ref = page.observe().one(role="button", name="Save")
    assert isinstance(ref, Ref) and type(ref.click()) is ActionResult
    # A chained call on a locator that no longer matches raises, as the locator would.
    page.evaluate("document.getElementById('save').remove(); 1")
    with pytest.raises(BrowserError) as gone:
        clicked.click()
    assert gone.value.code == "not_found"

