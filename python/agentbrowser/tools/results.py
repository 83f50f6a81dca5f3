"""What a tool returns: :class:`ActionResult` (with :class:`JudgementResult`), and :class:`ToolError`.

This :class:`ActionResult` is the *tool-result* type of code mode (seed 001, browser-use's
``ActionResult``): what a tool hands back to the agent (``extracted_content``, ``error``,
``is_done``/``success``, ``attachments``, ``images``...).  It is not the *evidence*
``agentbrowser.ActionResult`` of seed 003 (``action``, ``target``, ``before``, ``after``,
``diff`` of one ref mutation), which stays ``agentbrowser.ActionResult``; the built-in tools
turn that evidence into this result's ``extracted_content``.
"""

from __future__ import annotations

import base64
import mimetypes
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..code.pydantic_compat import ModelCompat

__all__ = ["ActionResult", "JudgementResult", "ToolError", "ToolImage", "SUCCESS_REQUIRES_DONE"]

#: The ValueError message of ``ActionResult(success=True)`` without ``is_done=True`` (seed 001).
SUCCESS_REQUIRES_DONE = (
    "success=True requires is_done=True: success=True can only be set when is_done=True. "
    "For regular actions that succeed, leave success as None. Use success=False only for actions that fail."
)


@dataclass(frozen=True, slots=True)
class JudgementResult(ModelCompat):
    """The judge's evaluation of a finished run (seed 001); it never changes the agent's own ``success``."""

    verdict: bool
    reasoning: str | None = None
    failure_reason: str | None = None
    impossible_task: bool = False
    reached_captcha: bool = False


@dataclass(frozen=True, slots=True)
class ActionResult(ModelCompat):
    """The result of one tool call (seed 001): every field and default of browser-use's ``ActionResult``.

    ``success=True`` is only allowed together with ``is_done=True`` (ValueError otherwise);
    ``success=False`` and ``error`` are allowed anywhere.  ``images`` are
    ``[{"name": "shot.png", "data": "<base64>"}]`` (an optional ``"media_type"`` key).
    ``str(result)`` is the extracted content, else the error, else ``""``.
    """

    is_done: bool | None = False
    success: bool | None = None
    judgement: JudgementResult | None = None
    error: str | None = None
    attachments: list[str] | None = None
    images: list[dict[str, Any]] | None = None
    long_term_memory: str | None = None
    extracted_content: str | None = None
    include_extracted_content_only_once: bool = False
    metadata: dict[str, Any] | None = None
    include_in_memory: bool = False

    def __post_init__(self) -> None:
        if self.success is True and self.is_done is not True:
            raise ValueError(SUCCESS_REQUIRES_DONE)

    def __str__(self) -> str:
        return self.extracted_content or self.error or ""


@dataclass(frozen=True, slots=True)
class ToolImage:
    """An image a tool produced (decoded from ``ActionResult.images``): bytes, media type, name."""

    data: bytes
    media_type: str = "image/png"
    name: str = "image.png"

    @classmethod
    def from_entry(cls, entry: Mapping[str, Any]) -> ToolImage:
        """Decode one ``{"name", "data" (base64), "media_type"?}`` entry of ``ActionResult.images``."""
        name = str(entry.get("name") or "image.png")
        data = entry.get("data")
        raw = data if isinstance(data, bytes) else base64.b64decode(str(data or ""), validate=False)
        media = entry.get("media_type") or mimetypes.guess_type(name)[0] or "image/png"
        return cls(data=raw, media_type=str(media), name=name)


class ToolError(Exception):
    """Raised by a code-mode tool function when its :class:`ActionResult` carries an ``error``."""

    def __init__(self, result: ActionResult) -> None:
        super().__init__(result.error or "tool failed")
        #: The failed tool's result.
        self.result = result
