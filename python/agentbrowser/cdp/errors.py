"""Errors of Python-owned direct Chrome DevTools Protocol workflows (``browser.cdp``).

All inherit from :class:`CDPError`, itself an :class:`~agentbrowser.AgentBrowserError`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..errors import AgentBrowserError

__all__ = [
    "CDPError",
    "CDPClosedError",
    "CDPProtocolError",
    "CDPTimeoutError",
    "CDPTargetNotFoundError",
    "CDPFrameNotFoundError",
    "CDPContextNotFoundError",
    "CDPTargetAmbiguityError",
    "CDPFrameAmbiguityError",
    "CDPContextAmbiguityError",
    "CDPStaleObjectError",
    "CDPEvaluationError",
]


class CDPError(AgentBrowserError):
    """Base error for Python-owned direct protocol workflows."""


class CDPClosedError(CDPError):
    """The client or controller is closed."""


class CDPProtocolError(CDPError):
    """A protocol method returned an error: ``method`` and the protocol's ``error`` object
    (``code``, ``message``, optional ``data``)."""

    def __init__(self, method: str, error: Mapping[str, Any]) -> None:
        self.method = method
        self.error: Mapping[str, Any] = dict(error)
        code = self.error.get("code")
        self.code: int | None = code if isinstance(code, int) else None
        self.data: object = self.error.get("data")
        message = str(self.error.get("message", "unknown error"))
        detail = f": {self.data}" if self.data else ""
        super().__init__(f"{method} failed: {message}{detail} (code {self.code})")


class CDPTimeoutError(CDPError, TimeoutError):
    """A method did not receive a response in time: ``method`` and ``timeout`` (seconds)."""

    def __init__(self, method: str, timeout: float) -> None:
        self.method = method
        self.timeout = timeout
        super().__init__(f"{method} got no answer within {timeout:g} s")


class _CDPLookupError(CDPError, LookupError):
    """Strict criteria matched no object or several: ``criteria`` and the bounded
    ``candidates`` (descriptions of the objects there were, or of those that matched)."""

    def __init__(self, message: str, *, criteria: Mapping[str, Any], candidates: tuple[str, ...] = ()) -> None:
        self.criteria: Mapping[str, Any] = dict(criteria)
        self.candidates = candidates
        listed = "; ".join(candidates) if candidates else "none"
        super().__init__(f"{message} (candidates: {listed})")


class CDPTargetNotFoundError(_CDPLookupError):
    """No target matched the strict criteria."""


class CDPFrameNotFoundError(_CDPLookupError):
    """No frame matched the strict criteria."""


class CDPContextNotFoundError(_CDPLookupError):
    """No execution context matched the strict criteria."""


class CDPTargetAmbiguityError(_CDPLookupError):
    """Several targets matched the strict criteria."""


class CDPFrameAmbiguityError(_CDPLookupError):
    """Several frames matched the strict criteria."""


class CDPContextAmbiguityError(_CDPLookupError):
    """Several execution contexts matched the strict criteria."""


class CDPStaleObjectError(CDPError):
    """A cached frame or execution context expired after a page transition."""


class CDPEvaluationError(CDPError):
    """JavaScript threw in the selected context: ``details`` is the protocol's exceptionDetails."""

    def __init__(self, details: Mapping[str, Any]) -> None:
        self.details: Mapping[str, Any] = dict(details)
        exc = self.details.get("exception")
        text = exc.get("description") if isinstance(exc, Mapping) else None
        super().__init__(str(text or self.details.get("text") or "JavaScript threw"))
