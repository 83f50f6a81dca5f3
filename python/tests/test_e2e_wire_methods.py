"""End-to-end: a command reaches Python without hand-written Python.

Every command of today's schema is sent by a hand-written module, so the checked-in generated
classes have no methods; here python/tools/gen_methods.py writes the module as it would if no
hand-written module sent ``input_value``, ``attribute`` (reads of a page, as a new ``options``
would be) and ``set_user_agent`` (of kind ``session``), and their generated methods run against
real Chromium through the sync and the async client: on the page (the active tab, or a page bound
to another tab), with a selector or a Locator, answering the decoded wire record; on the browser.
"""

from __future__ import annotations

import asyncio
import importlib.util
import json
from pathlib import Path
from types import ModuleType

import pytest
from agentbrowser import AsyncBrowser, Browser, BrowserError, LaunchOptions
from agentbrowser import _wire_types as w

REPO = Path(__file__).resolve().parents[2]
GENERATOR = REPO / "python" / "tools" / "gen_methods.py"
#: The commands the probe module treats as sent by no hand-written module.
UNSENT = frozenset({"input_value", "attribute", "set_user_agent"})


def probe() -> ModuleType:
    """The generated module for today's schema with :data:`UNSENT` left to it, loaded in the package."""
    spec = importlib.util.spec_from_file_location("gen_methods", GENERATOR)
    assert spec is not None and spec.loader is not None
    gen = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gen)
    schema = json.loads((REPO / "docs" / "protocol.schema.json").read_text())
    text = gen.render(schema, sent=frozenset(schema["commands"]) - UNSENT)
    module = ModuleType("agentbrowser._wire_methods_probe")
    module.__package__ = "agentbrowser"
    exec(compile(text, "_wire_methods_probe.py", "exec"), module.__dict__)
    assert [name for name in vars(module.PageCommands) if not name.startswith("_")] == ["input_value", "attribute"]
    assert [name for name in vars(module.BrowserCommands) if not name.startswith("_")] == ["set_user_agent"]
    return module


def test_generated_methods_through_the_sync_client(agentbrowser_bin: Path, server: str) -> None:
    gen = probe()
    page_cmds, browser_cmds = gen.PageCommands, gen.BrowserCommands
    with Browser.launch(LaunchOptions(timeout_ms=20000)) as browser:
        page = browser.page
        page.open(f"{server}/form")
        page.find.css("#name").fill("Ada")
        value = page_cmds.input_value(page, "#name")
        assert isinstance(value, w.ValueOutputString) and value.value == "Ada"
        kind = page_cmds.attribute(page, page.find.css("#home"), "data-kind")
        assert isinstance(kind, w.ValueOutputNullableString) and kind.value == "nav"
        assert page_cmds.attribute(page, "#home", "data-missing").value is None
        form = browser.tabs.list()[0]
        browser.tabs.new(f"{server}/")
        assert page_cmds.input_value(browser.tabs.get(id=form.id), "#name").value == "Ada"
        with pytest.raises(BrowserError) as err:
            page_cmds.input_value(page, "#name")  # the active tab is Home now: no such element
        assert err.value.code == "not_found"
        settings = browser_cmds.set_user_agent(browser, user_agent="GeneratedBot/1.0")
        assert isinstance(settings, w.SettingsOutput) and settings.emulation.user_agent == "GeneratedBot/1.0"
        page.reload()
        assert page.evaluate("navigator.userAgent") == "GeneratedBot/1.0"


def test_generated_methods_through_the_async_client(agentbrowser_bin: Path, server: str) -> None:
    gen = probe()
    page_cmds, browser_cmds = gen.AsyncPageCommands, gen.AsyncBrowserCommands

    async def main() -> None:
        async with await AsyncBrowser.launch(LaunchOptions(timeout_ms=20000)) as browser:
            page = browser.page
            await page.open(f"{server}/form")
            await page.find.css("#name").fill("Bo")
            value = await page_cmds.input_value(page, page.find.css("#name"))
            assert isinstance(value, w.ValueOutputString) and value.value == "Bo"
            assert (await page_cmds.attribute(page, "#home", "data-kind")).value == "nav"
            form = (await browser.tabs.list())[0]
            await browser.tabs.new(f"{server}/")
            bound = await browser.tabs.get(id=form.id)
            assert (await page_cmds.input_value(bound, "#name")).value == "Bo"
            settings = await browser_cmds.set_user_agent(browser, user_agent="GeneratedBot/2.0")
            assert settings.emulation.user_agent == "GeneratedBot/2.0"
            await page.reload()
            assert await page.evaluate("navigator.userAgent") == "GeneratedBot/2.0"

    asyncio.run(main())
