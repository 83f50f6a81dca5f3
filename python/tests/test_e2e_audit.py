"""End-to-end: the axe-core accessibility audit (every frame, shadow roots, refs, filters) and
the page's Web Vitals, sync, async and over MCP."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from conftest import PAGES, _page, aeventually, eventually
from agentbrowser import (
    AccessibilityAudit,
    AccessibilityCounts,
    AccessibilityIssue,
    AccessibilityNode,
    AsyncBrowser,
    Browser,
    BrowserError,
    Vital,
    Vitals,
)

pytestmark = pytest.mark.e2e

# The cross-origin frame is served by the same server under `localhost` (another site).
PAGES["/audit"] = (
    "<!doctype html><html lang='en'><head><title>Audit</title></head><body><main><h1>Audit</h1>"
    "<img src='/none.png' id='noalt'><input type='text' id='nolabel'>"
    "<p id='faint' style='color:#c8c8c8;background:#fff'>Faint text</p><div id='host'></div>"
    "<iframe id='same' title='Same' src='/audit-frame'></iframe><iframe id='cross' title='Cross'></iframe></main>"
    "<script>document.getElementById('host').attachShadow({mode: 'open'}).innerHTML = \"<img id='shadowimg'>\";"
    "document.getElementById('cross').src = 'http://localhost:' + location.port + '/audit-frame';</script>"
    "</body></html>"
)
PAGES["/audit-frame"] = (
    "<!doctype html><html lang='en'><head><title>Frame</title></head><body><main>"
    "<img id='frameimg'><input type='text' id='frameinput'></main></body></html>"
)
PAGES["/shift"] = _page(
    "Shift",
    "<h1>Layout shift</h1><div id='push'></div><p id='moved'>This paragraph moves down.</p>"
    "<script>requestAnimationFrame(() => setTimeout(() => { const d = document.getElementById('push');"
    " d.style.height = '300px'; d.textContent = 'pushed'; }, 200));</script>",
)

IMAGE_TARGETS = [("#noalt",), (("#host", "#shadowimg"),), ("#same", "#frameimg"), ("#cross", "#frameimg")]


@pytest.fixture(scope="module")
def browser(agentbrowser_bin: Path, require: Callable[..., None]) -> Iterator[Browser]:
    require("a11y", "vitals", "snapshot")
    with Browser.launch(timeout_ms=30000) as b:
        yield b


def _issue(audit: AccessibilityAudit, rule: str) -> AccessibilityIssue:
    found = [i for i in audit.violations if i.id == rule]
    assert found, f"no {rule} in {[i.id for i in audit.violations]}"
    return found[0]


def _open_audit(browser: Browser, server: str) -> None:
    browser.page.open(f"{server}/audit")
    assert eventually(lambda: len(browser.page.frames.tree()) == 2, 10), browser.page.frames.tree()


def test_accessibility_audit(browser: Browser, server: str) -> None:
    _open_audit(browser, server)
    snap = browser.page.observe()
    audit = browser.diagnostics.accessibility()
    assert isinstance(audit, AccessibilityAudit) and isinstance(audit.counts, AccessibilityCounts)
    assert audit.axe_version == "4.14.1" and audit.url == f"{server}/audit"
    assert audit.raw["frames"] == 3
    images = _issue(audit, "image-alt")
    assert [n.target for n in images.nodes] == IMAGE_TARGETS
    assert images.node_count == 4 and images.impact == "critical" and "wcag2a" in images.tags
    assert "image-alt" in images.help_url and images.help
    node = images.nodes[0]
    assert isinstance(node, AccessibilityNode) and node.html.startswith("<img") and "alt" in (node.failure_summary or "")
    labels = _issue(audit, "label")
    assert [n.target for n in labels.nodes] == [("#nolabel",), ("#same", "#frameinput"), ("#cross", "#frameinput")]
    refs = [n.ref for n in labels.nodes]
    assert all(r is not None and r in snap.refs for r in refs), refs
    assert [snap.refs[r].attribute("id") for r in refs if r] == ["nolabel", "frameinput", "frameinput"]
    assert audit.counts.violations == len(audit.violations) and audit.counts.passes > 5
    assert len(repr(audit)) < 600

    aa = browser.diagnostics.accessibility(tags=["wcag2aa"])
    assert [i.id for i in aa.violations] == ["color-contrast"]
    part = browser.diagnostics.accessibility(selector="#same", tags=("wcag2a",), max_nodes=1)
    assert [n.target for n in _issue(part, "image-alt").nodes] == [("#same", "#frameimg")]
    with pytest.raises(BrowserError) as bad:
        browser.diagnostics.accessibility(tags=["wcag99zz"])
    assert bad.value.code == "invalid_argument" and "wcag2aa" in str(bad.value)
    with pytest.raises(ValueError):
        browser.diagnostics.accessibility(tags=["wcag2a,wcag2aa"])
    with pytest.raises(ValueError):
        browser.diagnostics.accessibility(max_nodes=0)
    with pytest.raises(BrowserError) as missing:
        browser.diagnostics.accessibility(selector="#nothing-here")
    assert missing.value.code == "not_found"


def test_vitals(browser: Browser, server: str) -> None:
    browser.page.open(f"{server}/shift")
    assert eventually(lambda: (browser.diagnostics.vitals().cls.value or 0) > 0, 10)
    v = browser.diagnostics.vitals()
    assert isinstance(v, Vitals) and isinstance(v.cls, Vital)
    assert v.url == f"{server}/shift" and v.cls.unit == "score" and v.cls.rating in ("good", "needs-improvement", "poor")
    assert v.fcp.value is not None and v.fcp.value >= 0 and v.fcp.unit == "ms" and v.fcp.rating is not None
    assert v.ttfb.value is not None and v.ttfb.value >= 0
    assert v.inp.value is None and "interaction" in (v.inp.reason or "")
    assert (v.lcp.good, v.lcp.poor) == (2500.0, 4000.0)
    assert v.raw["raw"]["shifts"][0]["sources"] == ["p#moved"]
    assert v.settled is True and v.settle_waited_ms == v.raw["settle"]["waitedMs"]


def test_async_audit_and_vitals(agentbrowser_bin: Path, server: str) -> None:
    async def main() -> None:
        async with await AsyncBrowser.launch(timeout_ms=30000) as b:
            audit = await b.diagnostics.accessibility(f"{server}/audit", tags=["wcag2a"])
            assert audit.url == f"{server}/audit"

            async def framed() -> bool:
                a = await b.diagnostics.accessibility(tags=["wcag2a"])
                return [n.target for n in _issue(a, "image-alt").nodes] == IMAGE_TARGETS

            assert await aeventually(framed, 10)
            v = await b.diagnostics.vitals(f"{server}/shift")
            assert v.url == f"{server}/shift" and v.ttfb.value is not None

    asyncio.run(main())
