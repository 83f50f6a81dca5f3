"""End-to-end: the built-in tools against real Chromium (AsyncBrowser.launch) and the test pages:
refs from the tools' last snapshot, the engine's evidence in results, stale refs refused."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from agentbrowser import LaunchOptions, Snapshot
from agentbrowser.aio import AsyncBrowser
from agentbrowser.code import SensitiveData
from agentbrowser.tools import ActionResult, ToolCallRecord, ToolContext, ToolError, Tools

pytestmark = pytest.mark.e2e

Scenario = Callable[[AsyncBrowser, ToolContext, dict[str, Any], list[ToolCallRecord]], Awaitable[None]]


def with_browser(scenario: Scenario, *, tools: Tools | None = None, sensitive: SensitiveData | None = None) -> None:
    async def main() -> None:
        async with await AsyncBrowser.launch(LaunchOptions(timeout_ms=20000)) as browser:
            records: list[ToolCallRecord] = []
            ctx = ToolContext(browser=browser, namespace={}, sensitive=sensitive, record=records.append)
            ns = (tools or Tools()).bind(ctx)
            await scenario(browser, ctx, ns, records)

    asyncio.run(main())


def ref_of(ctx: ToolContext, role: str, name: str) -> str:
    snap = ctx.namespace["_snapshot"]
    assert isinstance(snap, Snapshot)
    return snap.one(role=role, name=name).id


def test_observe_then_click_changes_the_page(agentbrowser_bin: Path, server: str) -> None:
    async def scenario(browser: AsyncBrowser, ctx: ToolContext, ns: dict[str, Any], records: list[ToolCallRecord]) -> None:
        nav = await ns["navigate"](f"{server}/")
        assert isinstance(nav, ActionResult) and nav.error is None
        assert nav.extracted_content is not None and nav.extracted_content.startswith(f"Navigated to {server}/ (title 'Home'")
        seen = await ns["observe"]()
        assert 'button "Press me"' in (seen.extracted_content or "") and seen.include_extracted_content_only_once
        first = ctx.namespace["_snapshot"]
        press = ref_of(ctx, "button", "Press me")
        clicked = await ns["click"](press)
        text = clicked.extracted_content or ""
        assert text.startswith(f"Clicked @{press} button 'Press me'.") and "The snapshot changed" in text
        assert f'+- button "Press me" [focused, ref={press}]' in text  # the engine's diff
        assert await browser.page.evaluate("document.getElementById('out').textContent") == "clicked"
        # The action's `after` snapshot is now the tools' snapshot.
        after = ctx.namespace["_snapshot"]
        assert after is not first and after.generation > first.generation
        assert [r.name for r in records] == ["navigate", "observe", "click"]
        assert records[-1].args == {"ref": press}

    with_browser(scenario)


def test_fill_and_select(agentbrowser_bin: Path, server: str) -> None:
    async def scenario(browser: AsyncBrowser, ctx: ToolContext, ns: dict[str, Any], records: list[ToolCallRecord]) -> None:
        await ns["navigate"](f"{server}/form")
        filled = await ns["fill"](ref_of(ctx, "textbox", "Name"), "Ada")
        assert (filled.extracted_content or "").startswith("Filled 'Ada' into @")
        selected = await ns["select"](ref_of(ctx, "combobox", "Color"), "blue")
        assert "Selected 'blue' in" in (selected.extracted_content or "")
        await ns["click"](ref_of(ctx, "button", "Submit"))
        assert await browser.page.evaluate("document.getElementById('name').value") == "Ada"
        assert await browser.page.evaluate("document.getElementById('color').value") == "blue"
        assert await browser.page.evaluate("document.getElementById('result').textContent") == "Submitted Ada"

    with_browser(scenario)


def test_a_stale_ref_is_an_error_and_touches_nothing(agentbrowser_bin: Path, server: str) -> None:
    async def scenario(browser: AsyncBrowser, ctx: ToolContext, ns: dict[str, Any], records: list[ToolCallRecord]) -> None:
        await ns["navigate"](f"{server}/a")
        go = ref_of(ctx, "button", "Go")
        # The page navigates behind the tools' back: the engine finds the ref stale.
        await browser.page.open(f"{server}/form")
        with pytest.raises(ToolError) as err:
            await ns["click"](go)
        assert err.value.result.error is not None
        assert err.value.result.error.startswith(f"click: ref '{go}' is stale (")
        assert "nothing was done" in err.value.result.error
        assert await browser.page.url() == f"{server}/form"
        assert await browser.page.evaluate("document.getElementById('result').textContent") == ""
        # After the tools' own navigation the old id is not in their snapshot: refused, never retargeted.
        await ns["navigate"](f"{server}/b")
        with pytest.raises(ToolError) as err:
            await ns["click"](go)
        assert err.value.result.error == (
            f"click: ref '{go}' is not in the last snapshot (of {server}/b, 2 refs); it is stale or unknown "
            "and was not used. Call observe() and use a ref from it"
        )
        with pytest.raises(ToolError, match="fill: ref 'e999' is not in the last snapshot"):
            await ns["fill"]("e999", "x")
        assert await browser.page.url() == f"{server}/b"

    with_browser(scenario)


def test_read_screenshot_tabs(agentbrowser_bin: Path, server: str) -> None:
    async def scenario(browser: AsyncBrowser, ctx: ToolContext, ns: dict[str, Any], records: list[ToolCallRecord]) -> None:
        await ns["navigate"](f"{server}/form")
        page = await ns["read"]()
        assert (page.extracted_content or "").startswith(f"Read {server}/form (")
        assert "Sign up" in (page.extracted_content or "")
        remote = await ns["read"](f"{server}/b")
        assert "Arrived at B" in (remote.extracted_content or "")
        shot = await ns["screenshot"]()
        assert shot.images is not None and len(shot.images) == 1
        (image,) = records[-1].images
        assert image.data.startswith(b"\x89PNG\r\n\x1a\n") and image.media_type == "image/png"
        assert shot.metadata is not None and Path(shot.metadata["path"]).read_bytes() == image.data
        new = await browser.tabs.new(f"{server}/b")
        listed = await ns["tabs"]()
        assert (listed.extracted_content or "").startswith("2 tabs:")
        assert f"* {new.id} {server}/b 'Page B'" in (listed.extracted_content or "")
        first = next(t for t in await browser.tabs.list() if t.id != new.id)
        switched = await ns["switch_tab"](first.id)
        assert (switched.extracted_content or "").startswith(f"Switched to {first.id} {server}/form")
        assert ctx.namespace["_snapshot"].url == f"{server}/form"
        await ns["fill"](ref_of(ctx, "textbox", "Name"), "back in tab one")
        assert await browser.page.evaluate("document.getElementById('name').value") == "back in tab one"

    with_browser(scenario)


def test_done_sets_the_namespace_and_checks_files(agentbrowser_bin: Path, server: str, tmp_path: Path) -> None:
    report = tmp_path / "report.md"
    report.write_text("# found\n")

    async def scenario(browser: AsyncBrowser, ctx: ToolContext, ns: dict[str, Any], records: list[ToolCallRecord]) -> None:
        await ns["navigate"](f"{server}/b")
        with pytest.raises(ToolError) as err:
            await ns["done"]("B reached", files_to_display=[str(tmp_path / "nope.md")])
        assert err.value.result.error is not None and "done: file not found: " in err.value.result.error
        assert "nope.md" in err.value.result.error and "_task_done" not in ctx.namespace
        result = await ns["done"]("Arrived at B", success=True, files_to_display=[str(report)])
        assert result.is_done is True and result.success is True and result.extracted_content == "Arrived at B"
        assert result.attachments == [str(report.resolve())]
        assert {k: ctx.namespace[k] for k in ("_task_done", "_task_result", "_task_success", "_task_attachments")} == {
            "_task_done": True,
            "_task_result": "Arrived at B",
            "_task_success": True,
            "_task_attachments": [str(report.resolve())],
        }

    with_browser(scenario)


def test_injection_and_domains_on_a_real_page(agentbrowser_bin: Path, server: str) -> None:
    tools = Tools()
    seen: dict[str, Any] = {}

    @tools.action("Reads the title through the injected page", domains=["http://127.0.0.1:*"])
    async def title_here(browser: AsyncBrowser, page: Any, page_url: str) -> str:
        seen.update(browser=browser, page=page, url=page_url)
        return await page.title()

    @tools.action("Only for example.com", domains=["*.example.com"])
    async def elsewhere() -> str:
        return "never"

    async def scenario(browser: AsyncBrowser, ctx: ToolContext, ns: dict[str, Any], records: list[ToolCallRecord]) -> None:
        await ns["navigate"](f"{server}/form")
        assert (await ns["title_here"]()).extracted_content == "Form"
        assert seen == {"browser": browser, "page": browser.page, "url": f"{server}/form"}
        with pytest.raises(ToolError) as err:
            await ns["elsewhere"]()
        assert err.value.result.error == (
            f"elsewhere is not allowed on this page ({server}/form): it runs only on pages matching *.example.com"
        )
        described = tools.prompt_description(await browser.page.url())
        assert "async title_here() -> ActionResult" in described and "elsewhere" not in described

    with_browser(scenario, tools=tools)


def test_secrets_filled_on_their_domain_and_masked(agentbrowser_bin: Path, server: str) -> None:
    secrets = SensitiveData({"http://127.0.0.1:*": {"name": "Ada Lovelace"}, "https://*.bank.com": {"pin": "PIN-4242-QX"}})

    async def scenario(browser: AsyncBrowser, ctx: ToolContext, ns: dict[str, Any], records: list[ToolCallRecord]) -> None:
        await ns["navigate"](f"{server}/form")
        box = ref_of(ctx, "textbox", "Name")
        filled = await ns["fill"](box, "<secret>name</secret>")
        assert await browser.page.evaluate("document.getElementById('name').value") == "Ada Lovelace"
        assert "Ada Lovelace" not in (filled.extracted_content or "")
        assert "<secret>name</secret>" in (filled.extracted_content or "")
        assert records[-1].args == {"ref": box, "value": "<secret>name</secret>"}
        seen = await ns["observe"]()
        assert "Ada Lovelace" not in (seen.extracted_content or "")
        with pytest.raises(ToolError) as err:
            await ns["fill"](box, "<secret>pin</secret>")
        assert err.value.result.error == (
            f"fill: secret pin is not available on this page ({server}/form); available here: name"
        )
        assert await browser.page.evaluate("document.getElementById('name').value") == "Ada Lovelace"
        for secret in ("Ada Lovelace", "PIN-4242-QX"):
            leaks = [record for record in records if secret in repr(record)]
            assert not leaks, f"{secret!r} recorded in {leaks!r}"

    with_browser(scenario, sensitive=secrets)
