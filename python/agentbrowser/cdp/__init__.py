"""Direct Chrome DevTools Protocol access beside the engine (``browser.cdp``), and its errors.

``browser.cdp`` needs the optional WebSocket client (``pip install 'agentbrowser-engine[cdp]'``); without
it, its first use raises ImportError with that hint.  The errors import without it.
"""

from __future__ import annotations

from ._async import AsyncCDP as AsyncCDP
from ._async import AsyncExecutionContext as AsyncExecutionContext
from ._async import AsyncFrame as AsyncFrame
from ._async import AsyncFrames as AsyncFrames
from ._async import AsyncTarget as AsyncTarget
from ._client import AsyncCDPClient as AsyncCDPClient
from ._client import CDPClient as CDPClient
from ._sync import CDP as CDP
from ._sync import ExecutionContext as ExecutionContext
from ._sync import Frame as Frame
from ._sync import Frames as Frames
from ._sync import Target as Target
from . import errors as _errors
from .errors import *  # noqa: F403 (the error classes, as errors.__all__ lists them)

#: The error classes (every one a CDPError), as the errors module lists them.
__all__ = _errors.__all__
