"""End-to-end: the sync Browser, Page, Tabs, Native and session models against real Chromium."""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from agentbrowser import (
    Browser,
    BrowserError,
    BrowserInstallError,
    BrowserResponse,
    CloseResult,
    LaunchOptions,
    LaunchResult,
    NativeParseError,
    Navigation,
    SessionStatus,
    TabCloseResult,
    TabInfo,
    TabSwitchResult,
)


@pytest.fixture(scope="module")
def browser(agentbrowser_bin: Path) -> Iterator[Browser]:
    with Browser.launch(LaunchOptions(timeout_ms=20000)) as b:
        yield b


def test_navigation_title_url_evaluate(browser: Browser, server: str) -> None:
    nav = browser.page.open(f"{server}/")
    assert isinstance(nav, Navigation)
    assert nav.url == f"{server}/" and nav.title == "Home" and nav.status == 200
    assert browser.page.title() == "Home"
    assert browser.page.url() == f"{server}/"
    assert browser.page.evaluate("1 + 2") == 3
    assert browser.page.evaluate("({a: [1, 'x', null], b: true})") == {"a": [1, "x", None], "b": True}
    assert browser.page.evaluate("Promise.resolve('later')") == "later"
    assert browser.page.evaluate("document.querySelector('h1').textContent") == "Home"


def test_history(browser: Browser, server: str) -> None:
    browser.page.open(f"{server}/", wait_until="domcontentloaded")
    browser.page.open(f"{server}/form", "load")
    back = browser.page.back()
    assert isinstance(back, Navigation) and back.url == f"{server}/" and back.title == "Home"
    fwd = browser.page.forward(wait_until="load")
    assert fwd.url == f"{server}/form" and fwd.title == "Form"
    browser.page.evaluate("document.title = 'Changed'")
    assert browser.page.title() == "Changed"
    reloaded = browser.page.reload()
    assert reloaded.title == "Form"
    with pytest.raises(ValueError, match="wait_until"):
        browser.page.open(f"{server}/", wait_until="idle")
    # pyagentbrowser's "none" (return before the page loads) has no navigation here: refused
    # before anything is sent, the page stays where it was.
    with pytest.raises(ValueError, match="wait_until='none'.*domcontentloaded"):
        browser.page.open(f"{server}/", wait_until="none")  # type: ignore[arg-type]
    assert browser.page.title() == "Form"


def test_object_results_back_to_back(browser: Browser, server: str) -> None:
    """Each eval's object result is read before anything frees it: the engine used to release
    the whole result group in the background after each eval, which could free the next eval's
    result before it was read ("Could not find object with given id")."""
    browser.page.open(f"{server}/")
    got = [browser.page.evaluate(f"({{n: {i}, list: [{i}]}})") for i in range(300)]
    assert got == [{"n": i, "list": [i]} for i in range(300)]


def test_a_filled_page_has_focus_as_the_front_window_does(browser: Browser, server: str) -> None:
    """A headless page's document is unfocused unless emulated, and editors that keep their own
    selection (CodeMirror: the gallery's codemirror-fill) ignore the select-all that fill relies
    on there: fill gives the page focus first, and a focused field gets its focus event."""
    browser.page.open(f"{server}/form")
    assert browser.page.evaluate("document.hasFocus()") is False
    browser.page.evaluate(
        "(() => { const i = document.createElement('input'); i.id = 'fx'; i.setAttribute('aria-label', 'Focus probe'); window.__focusEvents = 0;"
        " i.addEventListener('focus', () => window.__focusEvents++); document.body.append(i); return 1; })()"
    )
    browser.page.observe().one(role="textbox", name="Focus probe").fill("hello")
    assert browser.page.evaluate("[document.hasFocus(), window.__focusEvents, document.getElementById('fx').value]") == [
        True,
        1,
        "hello",
    ]


def test_js_error_and_navigation_error(browser: Browser, server: str) -> None:
    browser.page.open(f"{server}/")
    with pytest.raises(BrowserError) as err:
        browser.page.evaluate("throw new Error('kaboom')")
    assert err.value.code == "js_error" and "kaboom" in str(err.value) and err.value.action == "eval"
    assert isinstance(err.value.response, BrowserResponse) and err.value.response.success is False
    with pytest.raises(BrowserError) as nav:
        browser.page.open("http://127.0.0.1:9/unreachable")
    assert nav.value.code == "navigation_failed"


def test_tabs(browser: Browser, server: str) -> None:
    browser.page.open(f"{server}/")
    tabs = browser.tabs.list()
    assert tabs and all(isinstance(t, TabInfo) for t in tabs)
    first = next(t for t in tabs if t.active)
    new = browser.tabs.new(f"{server}/form")
    assert isinstance(new, TabInfo) and new.active and new.id != first.id and new.url == f"{server}/form"
    assert new.target_id
    assert browser.page.title() == "Form"
    switched = browser.tabs.switch(first)
    assert isinstance(switched, TabSwitchResult) and switched.id == first.id and switched.active
    assert switched.revived is False and switched.dialog_blocked is False
    assert browser.page.title() == "Home"
    closed = browser.tabs.close(new.id)
    assert isinstance(closed, TabCloseResult) and closed.closed and closed.id == new.id
    assert closed.url == f"{server}/form" and closed.title == "Form"
    assert [t.id for t in browser.tabs.list()] == [t.id for t in tabs]
    with pytest.raises(BrowserError) as err:
        browser.tabs.switch("t999")
    assert err.value.code == "tab_not_found"
    blank = browser.tabs.new()
    closed_active = browser.tabs.close()
    assert closed_active.id == blank.id and closed_active.active_tab is not None
    assert len(repr(closed_active)) < 500


def test_status(browser: Browser) -> None:
    st = browser.status()
    assert isinstance(st, SessionStatus)
    assert st.engine == "agentbrowser" and st.browser_launched and st.pages >= 1
    assert st.compatible and st.pid == browser.pid and isinstance(st.browser_pid, int)
    assert st.restore_status == "not_configured" and st.save_status == "not_configured"
    assert st.raw["browser"]["launched"] is True
    launched = browser.launch_result
    assert isinstance(launched, LaunchResult) and launched.launched and not launched.attached
    assert launched.pid == st.browser_pid and launched.browser_version and launched.ws_url.startswith("ws://")
    assert browser.launch_data is launched.raw and browser.launch_data["wsUrl"] == launched.ws_url


def test_native_execute(browser: Browser, server: str) -> None:
    browser.page.open(f"{server}/")
    ok = browser.native.execute("title")
    assert isinstance(ok, BrowserResponse) and ok.success and ok.data == {"title": "Home"} and ok.action == "title"
    assert ok.raw["success"] is True
    bad = browser.native.execute("eval", script="throw new Error('nope')")
    assert not bad.success and bad.code == "js_error" and "nope" in (bad.error or "")
    unknown = browser.native.execute("no_such_action")
    assert not unknown.success and unknown.code == "unknown_action"
    invalid = browser.native.execute("open")
    assert not invalid.success and invalid.code == "invalid_argument"


def test_parse_error_on_real_payload(browser: Browser, server: str) -> None:
    browser.page.open(f"{server}/")
    data = browser.native.execute("title").data
    with pytest.raises(NativeParseError) as err:
        TabInfo.from_raw(data)
    assert err.value.field == "id" and err.value.model == "TabInfo"


def test_thread_safety(browser: Browser, server: str) -> None:
    """Threads sharing one Browser each get their own answers."""
    browser.page.open(f"{server}/")
    errors: list[BaseException] = []
    results: dict[int, list[object]] = {}

    def work(n: int) -> None:
        try:
            results[n] = [browser.page.evaluate(f"{n} * 1000 + {i}") for i in range(25)]
        except BaseException as exc:  # noqa: BLE001
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(n,)) for n in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert not errors
    for n in range(8):
        assert results[n] == [n * 1000 + i for i in range(25)]


def test_bounded_browser_repr(browser: Browser) -> None:
    text = repr(browser)
    assert "Browser" in text and "launched" in text and len(text) < 200
    assert len(repr(browser.page)) < 300 and len(repr(browser.tabs)) < 300


def test_close_is_idempotent_and_final(agentbrowser_bin: Path, server: str) -> None:
    b = Browser.launch(headless=True)
    b.page.open(f"{server}/")
    pid = b.pid
    assert pid is not None
    result = b.close()
    assert isinstance(result, CloseResult) and result.closed
    assert result.restore_status == "not_configured" and result.save_status == "not_configured"
    assert result.state_path is None and result.save_error is None
    assert b.close() is result and b.closed
    assert len(repr(result)) < 300 and "closed" in repr(b)
    with pytest.raises(RuntimeError):
        b.page.title()
    with pytest.raises(RuntimeError):
        b.status()
    with pytest.raises(RuntimeError):
        b.tabs.list()
    assert not os.path.exists(f"/proc/{pid}") or _is_zombie(pid)


def test_context_manager_closes(agentbrowser_bin: Path) -> None:
    with Browser.launch() as b:
        b.page.open("about:blank")
    assert b.closed
    with pytest.raises(RuntimeError):
        b.page.url()


def test_launch_validation_and_install_errors(agentbrowser_bin: Path, tmp_path: Path) -> None:
    with pytest.raises(TypeError, match="headless"):
        Browser.launch(headless="no")
    with pytest.raises(ValueError, match="timeout_ms"):
        Browser.launch(timeout_ms=-1)
    with pytest.raises(TypeError):
        Browser.launch(LaunchOptions(), headless=False)
    with pytest.raises(BrowserInstallError):
        Browser.launch(executable_path=str(tmp_path / "no-such-chromium"))


def test_install_error_without_binary(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("AGENTBROWSER_BIN", str(tmp_path / "missing" / "agentbrowser"))
    with pytest.raises(BrowserInstallError, match="AGENTBROWSER_BIN"):
        Browser.launch()
    with pytest.raises(BrowserInstallError):
        Browser.connect(session="nobinary")


def _is_zombie(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(")")[-1].split()[0] == "Z"
    except OSError:
        return True


def test_daemon_death_is_reported(agentbrowser_bin: Path, server: str) -> None:
    import signal

    b = Browser.launch()
    b.page.open(f"{server}/")
    assert b.pid is not None
    os.kill(b.pid, signal.SIGKILL)
    with pytest.raises(BrowserError) as err:
        b.page.title()
    assert err.value.code == "browser_closed" and "daemon" in str(err.value)
    assert b.close().closed


def test_click_with_modifiers(browser: Browser) -> None:
    page = browser.page
    page.open(
        "data:text/html,<button onclick=\"document.getElementById('o').textContent=[event.shiftKey&&'shift',"
        "event.ctrlKey&&'ctrl',event.altKey&&'alt'].filter(Boolean).join('+')||'plain'\">Press</button><p id=o></p>"
    )
    button = page.observe().one(role="button", name="Press")
    button.click(modifiers=["Shift", "ControlOrMeta"])
    assert page.evaluate("document.getElementById('o').textContent") == "shift+ctrl"
    button.click()
    assert page.evaluate("document.getElementById('o').textContent") == "plain"
    with pytest.raises(ValueError, match="modifiers"):
        button.click(modifiers=["Hyper"])  # type: ignore[list-item]
