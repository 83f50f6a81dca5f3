"""Errors of Python-owned direct Chrome DevTools Protocol workflows.

All inherit from :class:`CDPError`, itself an :class:`~agentbrowser.AgentBrowserError`.
"""

from __future__ import annotations

from .errors import AgentBrowserError

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
    """A protocol method returned an error; ``method``, ``code`` and ``data`` describe it."""

    def __init__(
        self, message: str, *, method: str | None = None, code: int | None = None, data: object = None
    ) -> None:
        super().__init__(message)
        self.method = method
        self.code = code
        self.data = data


class CDPTimeoutError(CDPError, TimeoutError):
    """A method did not receive a response in time."""


class CDPTargetNotFoundError(CDPError, LookupError):
    """No target matched the strict criteria."""


class CDPFrameNotFoundError(CDPError, LookupError):
    """No frame matched the strict criteria."""


class CDPContextNotFoundError(CDPError, LookupError):
    """No execution context matched the strict criteria."""


class CDPTargetAmbiguityError(CDPError, LookupError):
    """Several targets matched the strict criteria."""


class CDPFrameAmbiguityError(CDPError, LookupError):
    """Several frames matched the strict criteria."""


class CDPContextAmbiguityError(CDPError, LookupError):
    """Several execution contexts matched the strict criteria."""


class CDPStaleObjectError(CDPError):
    """A cached frame or execution context expired after a page transition."""


class CDPEvaluationError(CDPError):
    """JavaScript threw in the selected context."""
