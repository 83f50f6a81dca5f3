"""Tools for code mode: the registry (:class:`Tools`), the tool-result type and the built-in tools.

>>> from agentbrowser.tools import ActionResult, Tools
>>> tools = Tools()
>>> @tools.action("Say hello to someone")
... async def hello(name: str) -> ActionResult:
...     return ActionResult(extracted_content=f"Hello {name}")

:class:`ActionResult` here is the *tool-result* type (seed 001); the *evidence* of one ref
mutation stays ``agentbrowser.ActionResult`` (seed 003).
"""

from __future__ import annotations

from .builtin import BUILTINS, Builtin, bound_text
from .domains import url_matches, url_matches_any
from .registry import DEFAULT_TIMEOUT_S, INJECTED, RegisteredAction, ToolCallRecord, ToolContext, ToolParam, Tools
from .results import SUCCESS_REQUIRES_DONE, ActionResult, JudgementResult, ToolError, ToolImage

#: browser-use's older name of :class:`Tools` (``from browser_use import Controller``).
Controller = Tools

__all__ = [
    "ActionResult",
    "BUILTINS",
    "Builtin",
    "Controller",
    "DEFAULT_TIMEOUT_S",
    "INJECTED",
    "JudgementResult",
    "RegisteredAction",
    "SUCCESS_REQUIRES_DONE",
    "ToolCallRecord",
    "ToolContext",
    "ToolError",
    "ToolImage",
    "ToolParam",
    "Tools",
    "bound_text",
    "url_matches",
    "url_matches_any",
]
