"""A custom tool in an importable module, for the notebook replay tests (exports re-import it by name)."""

from __future__ import annotations

from typing import Any

from agentbrowser.tools import Tools

tools = Tools()


@tools.action("The text of the page's #result paragraph.")
async def result_text(page: Any) -> str:
    """What the form's submit button wrote."""
    return str(await page.evaluate("document.getElementById('result').textContent"))
