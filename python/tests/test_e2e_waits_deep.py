"""End-to-end: the SDK's text and ``ready`` waits see text inside an open shadow root (a toast a
web component renders later) and inside a same-origin iframe, as the snapshot does; a text that
never comes still raises the timeout."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from agentbrowser import Browser, BrowserError, Wait
from conftest import PAGES

pytestmark = pytest.mark.e2e

PAGES["/deep-toasts"] = """<!doctype html><meta charset=utf-8><title>Toasts</title>
<x-toaster></x-toaster><button id="save" onclick="save()">Save</button>
<iframe id="inner" src="/deep-inner"></iframe>
<script>
customElements.define('x-toaster', class extends HTMLElement {
  constructor() { super(); this.attachShadow({mode: 'open'}); }
  show(text) { const p = document.createElement('p'); p.textContent = text; this.shadowRoot.appendChild(p); }
});
function save() {
  setTimeout(() => {
    document.querySelector('x-toaster').show('Profile saved');
    document.getElementById('inner').contentDocument.body.insertAdjacentHTML('beforeend', '<p>Frame updated</p>');
  }, 300);
}
</script>"""
PAGES["/deep-inner"] = "<!doctype html><p>inner</p>"


@pytest.fixture(scope="module")
def browser(agentbrowser_bin: Path, require: Callable[..., None]) -> Iterator[Browser]:
    require("wait")
    with Browser.launch(timeout_ms=20000) as b:
        yield b


def test_text_waits_see_shadow_roots_and_frames(browser: Browser, server: str) -> None:
    page = browser.page
    page.open(f"{server}/deep-toasts")
    toast = "document.querySelector('x-toaster').shadowRoot.textContent"
    assert page.evaluate(toast) == ""
    page.find.css("#save").click(wait=Wait.text("Profile saved", timeout_ms=5000))
    # The page's own state: the toast is in the component's shadow root.
    assert page.evaluate(toast) == "Profile saved"
    assert page.wait(Wait.text("Frame updated", timeout_ms=5000)).matched
    assert "Frame updated" in page.evaluate("document.getElementById('inner').contentDocument.body.innerText")
    # Text that never comes: the timeout, naming the text.
    with pytest.raises(BrowserError) as err:
        page.wait(Wait.text("Never shown", timeout_ms=800))
    assert err.value.code == "timeout"
    assert "Never shown" in str(err.value)
