"""End-to-end on real Chromium: pyagentbrowser's launch fields agentbrowser honours (issue 37).

``extensions`` loads unpacked extensions (their content scripts run in the page),
``webmcp=False`` turns Chromium's WebMCP off (no native ``modelContext``; the session finds no backend),
``hide_scrollbars=True`` hides the scrollbars of an overflowing page, and the executable
``ensure_installed()`` finds is one a launch runs.
"""

from __future__ import annotations

import json
from pathlib import Path

from agentbrowser import Browser, LaunchOptions, ensure_installed

OVERFLOW = "data:text/html,<body style='margin:0'><div style='height:5000px'>tall</div></body>"
GUTTER = "window.innerWidth - document.documentElement.clientWidth"


def marking_extension(tmp_path: Path) -> Path:
    """An extension whose content script marks every page's root element."""
    d = tmp_path / "marker"
    d.mkdir()
    manifest = {
        "manifest_version": 3,
        "name": "marker",
        "version": "1.0",
        "content_scripts": [{"matches": ["<all_urls>"], "js": ["mark.js"], "run_at": "document_start"}],
    }
    (d / "manifest.json").write_text(json.dumps(manifest))
    (d / "mark.js").write_text("document.documentElement.dataset.marked = 'yes';")
    return d


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
