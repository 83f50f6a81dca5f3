"""End-to-end: selector-state, JavaScript-predicate and ``ready`` waits, and ``fill`` on the
controls a user sets (date, color, range, contenteditable) and on React controlled inputs,
with the real React 18 build from npm (``node_modules/react``), sync and async."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from agentbrowser import AsyncBrowser, Browser, BrowserError, Wait
from local_http import serve_react

pytestmark = pytest.mark.e2e


APP_JS = r"""
const e = React.createElement;
function App() {
  const [name, setName] = React.useState('');
  const [shout, setShout] = React.useState('');
  const [color, setColor] = React.useState('red');
  const [agree, setAgree] = React.useState(false);
  const [day, setDay] = React.useState('');
  const [level, setLevel] = React.useState('20');
  const [renders, setRenders] = React.useState(0);
  return e('main', null,
    e('label', null, 'Name ', e('input', {id: 'name', value: name, onChange: (ev) => setName(ev.target.value)})),
    e('p', {id: 'name-echo'}, 'name=' + name),
    e('label', null, 'Shout ', e('input', {id: 'shout', value: shout, onChange: (ev) => setShout(ev.target.value.toUpperCase())})),
    e('p', {id: 'shout-echo'}, 'shout=' + shout),
    e('label', null, 'Colour ', e('select', {id: 'color', value: color, onChange: (ev) => setColor(ev.target.value)},
      e('option', {value: 'red'}, 'Red'), e('option', {value: 'green'}, 'Green'))),
    e('p', {id: 'color-echo'}, 'color=' + color),
    e('label', null, e('input', {id: 'agree', type: 'checkbox', checked: agree, onChange: (ev) => setAgree(ev.target.checked)}), ' Agree'),
    e('p', {id: 'agree-echo'}, 'agree=' + agree),
    e('label', null, 'Day ', e('input', {id: 'day', type: 'date', value: day, onChange: (ev) => setDay(ev.target.value)})),
    e('p', {id: 'day-echo'}, 'day=' + day),
    e('label', null, 'Level ', e('input', {id: 'level', type: 'range', min: 0, max: 100, step: 10, value: level, onChange: (ev) => setLevel(ev.target.value)})),
    e('p', {id: 'level-echo'}, 'level=' + level),
    e('button', {id: 'bump', onClick: () => setRenders((n) => n + 1)}, 'Re-render'),
    e('p', {id: 'renders'}, 'renders=' + renders));
}
setTimeout(() => ReactDOM.createRoot(document.getElementById('root')).render(e(App)), 200);
"""

PAGES: dict[str, tuple[str, bytes | Path]] = {
    "/react": (
        "text/html",
        b"<!doctype html><meta charset=utf-8><title>React app</title><div id=root></div>"
        b'<script src="/react.js"></script><script src="/react-dom.js"></script><script src="/app.js"></script>',
    ),
    "/app.js": ("text/javascript", APP_JS.encode()),
    "/editor": (
        "text/html",
        b"<!doctype html><meta charset=utf-8><title>Editor</title>"
        b'<div id="ed" contenteditable="true" style="min-height:20px">draft</div>'
        b'<input id="c" type="color" aria-label="Colour"><p id="log"></p>'
        b"<script>window.events = [];"
        b"const ed = document.getElementById('ed');"
        b"ed.addEventListener('beforeinput', (e) => window.events.push('beforeinput:' + e.inputType));"
        b"ed.addEventListener('input', () => window.events.push('input:' + ed.textContent));"
        b"document.getElementById('c').addEventListener('change', (e) => document.getElementById('log').textContent = 'color ' + e.target.value);"
        b"setTimeout(() => { const b = document.createElement('button'); b.id = 'late'; b.textContent = 'Late';"
        b" document.body.appendChild(b); window.lateReady = true; }, 300);</script>",
    ),
}


@pytest.fixture(scope="module")
def site() -> Iterator[str]:
    """A server for the React build from npm and the test apps."""
    yield from serve_react(PAGES)


@pytest.fixture(scope="module")
def browser(agentbrowser_bin: Path, require: Callable[..., None]) -> Iterator[Browser]:
    require("wait", "fill")
    with Browser.launch(timeout_ms=20000) as b:
        yield b


def text_of(b: Browser, sel: str) -> object:
    return b.page.evaluate(f"document.querySelector({sel!r}).textContent")


def value_of(b: Browser, sel: str) -> object:
    return b.page.evaluate(f"document.querySelector({sel!r}).value")


def test_react_controlled_inputs_keep_the_value(browser: Browser, site: str) -> None:
    page = browser.page
    page.open(f"{site}/react")
    # React renders 200 ms after load: wait for its input.
    assert page.wait_for_selector("#name", timeout_ms=5000).matched
    assert page.evaluate("React.version") == "18.3.1"
    name = page.find.css("#name")

    result = name.fill("Ada Lovelace")
    assert result.raw["value"] == "Ada Lovelace"
    assert text_of(browser, "#name-echo") == "name=Ada Lovelace"
    # A re-render (a state change elsewhere) keeps the value: React's state really holds it.
    page.find.css("#bump").click(wait=Wait.text("renders=1"))
    assert value_of(browser, "#name") == "Ada Lovelace"
    assert text_of(browser, "#name-echo") == "name=Ada Lovelace"

    name.clear()
    assert text_of(browser, "#name-echo") == "name="
    name.type("Bob")
    page.find.css("#bump").click(wait=Wait.text("renders=2"))
    assert value_of(browser, "#name") == "Bob"
    assert text_of(browser, "#name-echo") == "name=Bob"

    # A controlled input that transforms the value: the result says what the page holds.
    shouted = page.find.css("#shout").fill("hello")
    assert shouted.raw["value"] == "HELLO"
    assert value_of(browser, "#shout") == "HELLO"
    assert text_of(browser, "#shout-echo") == "shout=HELLO"

    # Controlled select and checkbox.
    page.find.css("#color").select("Green")
    assert text_of(browser, "#color-echo") == "color=green"
    page.find.css("#agree").check()
    assert text_of(browser, "#agree-echo") == "agree=true"
    # Controlled date and range inputs see the value through onChange.
    page.find.css("#day").fill("2024-05-06")
    assert text_of(browser, "#day-echo") == "day=2024-05-06"
    page.find.css("#level").fill("70")
    assert text_of(browser, "#level-echo") == "level=70"
    page.find.css("#bump").click(wait=Wait.text("renders=3"))
    assert value_of(browser, "#day") == "2024-05-06"
    assert value_of(browser, "#level") == "70"
    assert page.evaluate("document.getElementById('agree').checked") is True

    # A value the range refuses is an error naming the format; React's state is unchanged.
    with pytest.raises(BrowserError) as bad:
        page.find.css("#level").fill("75")
    assert bad.value.code == "invalid_argument"
    assert "steps of 10" in str(bad.value)
    assert text_of(browser, "#level-echo") == "level=70"


def test_waits_sync(browser: Browser, site: str) -> None:
    page = browser.page
    page.open(f"{site}/editor")
    assert page.ready(min_text_length=3).matched
    assert page.wait_for_selector("#late", state="attached").matched
    assert page.wait_for_function("() => window.lateReady === true").matched
    assert page.wait_for_selector(page.find.role("button", name="Late")).matched
    page.evaluate("document.getElementById('late').style.visibility = 'hidden'")
    assert page.wait_for_selector("#late", state="hidden").matched
    with pytest.raises(BrowserError) as timed_out:
        page.wait_for_selector("#late", timeout_ms=300)
    assert timed_out.value.code == "timeout"
    assert "1 matched, none visible" in str(timed_out.value)
    page.evaluate("setTimeout(() => document.getElementById('late').remove(), 200)")
    assert page.wait(Wait.selector("#late", state="detached", timeout_ms=5000)).matched
    with pytest.raises(BrowserError) as thrown:
        page.wait_for_function("() => { throw new TypeError('predicate broke') }")
    assert thrown.value.code == "js_error"
    assert "predicate broke" in str(thrown.value)
    with pytest.raises(BrowserError) as timed_out:
        page.wait_for_function("() => document.title === 'never'", timeout_ms=300)
    assert timed_out.value.code == "timeout"
    assert "it last returned false" in str(timed_out.value)
    with pytest.raises(ValueError, match="visible, hidden, attached, detached"):
        page.wait_for_selector("#ed", state="shown")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=">= 1"):
        page.ready(min_text_length=0)
    # Combined with `all`, and as the wait after an action.
    combo = Wait.all(Wait.ready(), Wait.selector("#ed"), Wait.function("document.title === 'Editor'"))
    assert page.wait(combo).matched
    page.find.css("#ed").fill("after", wait=Wait.function("() => window.events.length > 0"))


def test_fill_contenteditable_and_color(browser: Browser, site: str) -> None:
    page = browser.page
    page.open(f"{site}/editor")
    result = page.find.css("#ed").fill("Written by fill")
    assert result.raw["value"] == "Written by fill"
    assert text_of(browser, "#ed") == "Written by fill"
    events = page.evaluate("window.events")
    assert "beforeinput:insertText" in events and "input:Written by fill" in events
    page.find.css("#c").fill("#00AA11")
    assert value_of(browser, "#c") == "#00aa11"
    assert text_of(browser, "#log") == "color #00aa11"
    with pytest.raises(BrowserError) as bad:
        page.find.css("#c").fill("green")
    assert bad.value.code == "invalid_argument"
    assert "#rrggbb" in str(bad.value)


def test_waits_and_react_async(agentbrowser_bin: Path, site: str) -> None:
    async def main() -> None:
        async with await AsyncBrowser.launch(timeout_ms=20000) as b:
            page = b.page
            await page.open(f"{site}/react")
            assert (await page.wait_for_selector("#name")).matched
            assert (await page.ready(min_text_length=5)).matched
            await page.find.css("#shout").fill("quiet")
            assert (await page.wait_for_function("() => document.body.innerText.includes('shout=QUIET')")).matched
            assert await page.evaluate("document.getElementById('shout').value") == "QUIET"
            await page.find.css("#bump").click(wait=Wait.selector(page.find.text("renders=1")))
            assert await page.evaluate("document.getElementById('shout').value") == "QUIET"
            with pytest.raises(BrowserError) as thrown:
                await page.wait_for_function("() => nope()")
            assert thrown.value.code == "js_error"
            with pytest.raises(BrowserError) as timed_out:
                await page.wait_for_selector("#name", state="detached", timeout_ms=300)
            assert timed_out.value.code == "timeout"

    asyncio.run(main())
