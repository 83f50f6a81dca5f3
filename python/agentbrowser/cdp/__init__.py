"""Direct Chrome DevTools Protocol access beside the engine (``browser.cdp``), and its errors.

``browser.cdp`` needs the optional WebSocket client (``pip install 'agentbrowser-engine[cdp]'``); without
it, its first use raises ImportError with that hint.  The errors import without it.
"""

from __future__ import annotations

from collections.abc import Callable

from . import errors as _errors
from ._async import AsyncCDP as AsyncCDP
from ._async import AsyncExecutionContext as AsyncExecutionContext
from ._async import AsyncFrame as AsyncFrame
from ._async import AsyncFrames as AsyncFrames
from ._async import AsyncTarget as AsyncTarget
from ._client import AsyncCDPClient as AsyncCDPClient
from ._client import CDPClient as CDPClient
from ._page_session import AsyncCDPPageSession as AsyncCDPPageSession
from ._page_session import CDPPageSession as CDPPageSession
from ._sync import CDP as CDP
from ._sync import ExecutionContext as ExecutionContext
from ._sync import Frame as Frame
from ._sync import Frames as Frames
from ._sync import Target as Target
from .errors import *  # noqa: F403 (the error classes, as errors.__all__ lists them)
from .transport import AsyncCDPTransport as AsyncCDPTransport
from .transport import AsyncConnect as AsyncConnect
from .transport import AsyncWebSocket as AsyncWebSocket
from .transport import SyncCDPTransport as SyncCDPTransport
from .transport import SyncConnect as SyncConnect
from .transport import SyncWebSocket as SyncWebSocket

#: pyagentbrowser's names: its controller is ``browser.cdp`` here, its target handle a Target.
CDPController = CDP
AsyncCDPController = AsyncCDP
CDPTarget = Target
AsyncCDPTarget = AsyncTarget
#: A filter of execution contexts (``predicate=`` of ``contexts``/``context``).
ContextPredicate = Callable[[ExecutionContext], bool]
AsyncContextPredicate = Callable[[AsyncExecutionContext], bool]

#: The error classes (every one a CDPError), as the errors module lists them.
__all__ = _errors.__all__
