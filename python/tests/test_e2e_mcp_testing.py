"""Playwright MCP's testing group on real pages: the verify tools look in every frame of the tab
(a same-origin iframe and a cross-origin one, out of process) and count visible elements only; a
list's items are texts of visible elements inside it; `browser_generate_locator` answers a locator
that Playwright itself (playwright-core from node_modules, on the same Chromium) resolves to
exactly the intended element, also in an iframe and where two buttons share a name."""

from __future__ import annotations

import asyncio
import json
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

from conftest import PAGES, REPO, _page
from mcp.client.session import ClientSession
from test_e2e_mcp_parity import CHROMIUM, call, ours, ref_of

PAGES["/testing-top"] = _page(
    "Testing",
    "<h1>Top heading</h1>"
    "<p style='display:none'>Hidden words</p><p style='visibility:hidden'>Invisible words</p>"
    "<ul id='fruits' aria-label='Fruits'><li>Apple</li><li>Banana split</li>"
    "<li style='display:none'>Cherry</li></ul><p>Durian</p>"
    "<section id='first'><button id='save-1'>Save</button></section>"
    "<section id='second'><button id='save-2'>Save</button></section>"
    "<button id='tid' data-testid='checkout'>Pay now</button>"
    "<label>Email <input id='email'></label><label>Email address <input id='email2'></label>"
    "<input id='find' placeholder='Search the shop'>"
    "<iframe name='same' src='/testing-same' style='width:300px;height:120px'></iframe>"
    "<iframe id='cross' style='width:300px;height:120px'></iframe>"
    # Another site (localhost, not 127.0.0.1): Chromium runs the frame in a process of its own.
    "<script>document.getElementById('cross').src = 'http://localhost:' + location.port + '/testing-cross';</script>",
)
PAGES["/testing-same"] = _page("Same", "<p>Same words</p><button id='in-same'>Inside same</button>")
PAGES["/testing-cross"] = _page(
    "Cross", "<p>Cross words</p><p style='display:none'>Cross hidden</p><button id='in-cross'>Inside cross</button>"
)


async def failure(session: ClientSession, tool: str, **args: Any) -> str:
    result = await session.call_tool(tool, args)
    text = "\n".join(c.text for c in result.content if getattr(c, "type", "") == "text")
    assert result.is_error, f"{tool} succeeded:\n{text}"
    return text


async def loaded(session: ClientSession, server: str) -> str:
    """The page with both iframes shown in the snapshot."""
    await call(session, "browser_navigate", url=f"{server}/testing-top")
    await call(session, "browser_wait_for", text="Inside cross")
    snap = await call(session, "browser_snapshot")
    assert "Inside same" in snap and "Inside cross" in snap, snap
    return snap


def test_verify_tools_look_in_every_frame_and_at_visible_elements(
    agentbrowser_bin: Path, server: str, tmp_path: Path
) -> None:
    async def main() -> None:
        async with ours(agentbrowser_bin, tmp_path) as session:
            await loaded(session, server)
            for text in ["Top heading", "Same words", "Cross words"]:
                assert await call(session, "browser_verify_text_visible", text=text) == "### Result\nDone\n"
            for text in ["Hidden words", "Invisible words", "Cross hidden", "Nowhere at all"]:
                assert "Text not found" in await failure(session, "browser_verify_text_visible", text=text)
            for name in ["Inside same", "Inside cross", "Pay now"]:
                await call(session, "browser_verify_element_visible", role="button", accessibleName=name)
            missing = await failure(session, "browser_verify_element_visible", role="button", accessibleName="Nope")
            assert 'Element with role "button" and accessible name "Nope" not found' in missing
            # Looking in every frame did not move the session into one: the page's own title.
            assert "Testing" in await call(session, "browser_evaluate", function="() => document.title")

    asyncio.run(main())


def test_verify_list_checks_each_item_inside_the_list(agentbrowser_bin: Path, server: str, tmp_path: Path) -> None:
    async def main() -> None:
        async with ours(agentbrowser_bin, tmp_path) as session:
            snap = await loaded(session, server)
            fruits = "#fruits"
            # Items are case-insensitive substrings of an element's text, as Playwright's getByText.
            await call(session, "browser_verify_list_visible", element="Fruits", target=fruits, items=["apple", "Banana"])
            await call(session, "browser_verify_list_visible", element="Fruits", target="#fruits", items=["Apple"])
            # A hidden item, and text outside the list, are not items of it; the first missing is named.
            for items, named in [(["Apple", "Cherry"], "Cherry"), (["Durian", "Apple"], "Durian")]:
                said = await failure(
                    session, "browser_verify_list_visible", element="Fruits", target=fruits, items=items
                )
                assert f'Item "{named}" not found' in said, said
            # A stale ref is an error, not a verdict on another element.
            apple = re.search(r"- listitem \[ref=(e\d+)\]: Apple", snap)
            assert apple, snap
            await call(session, "browser_evaluate", function="() => { document.getElementById('fruits').remove() }")
            said = await failure(
                session, "browser_verify_list_visible", element="Fruits", target=apple.group(1), items=["Apple"]
            )
            assert "stale" in said, said

    asyncio.run(main())


# Resolves each locator with Playwright itself: how many elements it matches, and the id of the first.
PLAYWRIGHT_CHECK = """
const { chromium } = require(process.argv[1]);
(async () => {
  const [url, codes] = [process.argv[2], JSON.parse(process.argv[3])];
  const browser = await chromium.launch({ executablePath: process.argv[4], args: ['--no-sandbox'] });
  const page = await browser.newPage();
  await page.goto(url);
  await page.frameLocator('#cross').getByText('Inside cross').waitFor();
  const out = [];
  for (const code of codes) {
    const loc = new Function('page', 'return page.' + code)(page);
    const count = await loc.count();
    out.push([count, count ? await loc.first().evaluate((e) => e.id) : null]);
  }
  console.log(JSON.stringify(out));
  await browser.close();
})().catch((e) => { console.error(e); process.exit(1); });
"""


def playwright_resolves(url: str, codes: list[str]) -> list[list[Any]]:
    node = shutil.which("node")
    assert node, "node is not installed (scripts/setup.sh)"
    core = REPO / "node_modules" / "playwright-core"
    assert core.is_dir(), f"{core} missing: run `npm ci` (scripts/setup.sh)"
    out = subprocess.run(
        [node, "-e", PLAYWRIGHT_CHECK, str(core), url, json.dumps(codes), CHROMIUM],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 0, out.stderr
    result: list[list[Any]] = json.loads(out.stdout)
    return result


def test_generated_locators_are_unique_and_point_at_the_element(
    agentbrowser_bin: Path, server: str, tmp_path: Path
) -> None:
    # (role, name in the snapshot, id of the element, the locator expected)
    cases = [
        ("button", "Pay now", "tid", "getByTestId('checkout')"),
        ("textbox", "Email", "email", "getByRole('textbox', { name: 'Email', exact: true })"),
        ("textbox", "Email address", "email2", "getByRole('textbox', { name: 'Email address' })"),
        ("heading", "Top heading", None, "getByRole('heading', { name: 'Top heading' })"),
        ("button", "Inside same", "in-same", "locator('iframe[name=\"same\"]').contentFrame().getByRole('button', { name: 'Inside same' })"),
    ]

    async def main() -> tuple[list[str], list[str], str, str]:
        async with ours(agentbrowser_bin, tmp_path) as session:
            snap = await loaded(session, server)
            got = []
            for role, name, _, _ in cases:
                got.append(await generate(session, ref_of(snap, role, name)))
            # Two buttons named Save: each gets a locator of its own.
            saves = [await generate(session, sel) for sel in ["#save-1", "#save-2"]]
            cross = await generate(session, ref_of(snap, "button", "Inside cross"))
            # A stale ref is an error and nothing is generated for another element.
            await call(session, "browser_evaluate", function="() => { document.getElementById('tid').remove() }")
            stale = await failure(
                session, "browser_generate_locator", element="Pay", target=ref_of(snap, "button", "Pay now")
            )
            return got, saves, cross, stale

    got, saves, cross, stale = asyncio.run(main())
    assert got == [c[3] for c in cases]
    assert saves == ["getByRole('button', { name: 'Save' }).first()", "getByRole('button', { name: 'Save' }).nth(1)"]
    # The cross-origin frame's <iframe> has no name: its src (an absolute URL) locates it.
    assert cross.startswith("locator('iframe[src=\"http://localhost:") and cross.endswith(
        "/testing-cross\"]').contentFrame().getByRole('button', { name: 'Inside cross' })"
    ), cross
    assert "stale" in stale, stale
    codes = got + saves + [cross]
    ids = [c[2] for c in cases] + ["save-1", "save-2", "in-cross"]
    resolved = playwright_resolves(f"{server}/testing-top", codes)
    for code, want, (count, found) in zip(codes, ids, resolved, strict=True):
        assert count == 1 or code.endswith(("first()", "nth(1)")), (code, count)
        if want is not None:
            assert found == want, (code, found)


async def generate(session: ClientSession, target: str) -> str:
    said = await call(session, "browser_generate_locator", element="it", target=target)
    assert said.startswith("### Result\n"), said
    return said.removeprefix("### Result\n").strip()
