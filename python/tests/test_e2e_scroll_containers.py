"""End-to-end: ``page.scroll`` on an app shell (html and body fixed, a ``<main>`` that scrolls)
scrolls the ``<main>`` and says so in ``ScrollResult.scrolled``; read from the page."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from agentbrowser import Browser, ScrollPosition
from conftest import PAGES

pytestmark = pytest.mark.e2e

PAGES["/scroll-shell"] = """<!doctype html><title>Shell</title>
<style>
  html, body { height: 100%; margin: 0; overflow: hidden; }
  body { display: flex; flex-direction: column; }
  header { height: 60px; }
  main { flex: 1; overflow: auto; }
  main p { height: 400px; margin: 0; }
</style>
<header>App</header><main id="content"><p>1</p><p>2</p><p>3</p><p id="row">4</p></main>"""


@pytest.fixture(scope="module")
def browser(agentbrowser_bin: Path, require: Callable[..., None]) -> Iterator[Browser]:
    require("scroll")
    with Browser.launch(timeout_ms=20000) as b:
        yield b


def test_an_app_shell_scrolls_its_main(browser: Browser, server: str) -> None:
    page = browser.page
    page.open(f"{server}/scroll-shell")
    r = page.scroll.down(250)
    assert (r.container, r.scrolled, r.moved) == ("document", "main#content", True)
    assert (r.before, r.after) == (ScrollPosition(0, 0), ScrollPosition(0, 250))
    assert page.evaluate("[document.getElementById('content').scrollTop, scrollY]") == [250, 0]
    # An element inside the shell: its scrolling ancestor moves.
    r = page.scroll.up(50, selector="#row")
    assert (r.container, r.scrolled, r.moved) == ("#row", "main#content", True)
    assert page.evaluate("document.getElementById('content').scrollTop") == 200
