"""agentbrowser: a browser engine for AI agents, driven from Python.

>>> from agentbrowser import Browser
>>> with Browser.launch() as browser:
...     browser.page.open("https://example.com")
...     snapshot = browser.page.observe()
...     snapshot.one(role="link").click()

``AsyncBrowser`` (in :mod:`agentbrowser.aio`) mirrors ``Browser`` with awaitables; it is
imported lazily so that ``import agentbrowser`` stays fast.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import cdp
from ._version import __version__
from .browser import (
    Browser,
    Capture,
    Clipboard,
    Diagnostics,
    Dialogs,
    Emulation,
    Keyboard,
    Mouse,
    Native,
    Network,
    Page,
    Scripts,
    Scroll,
    Tabs,
)
from .browser import Frame, Frames
from .browser import Auth, Cookies, State, Storage
from .browser import Network
from .webmcp import AsyncWebMCP, WebMCP
from .models import ProxyConfig, Route, RouteResponse
from .errors import (
    ActionTransitionError,
    AgentBrowserError,
    AmbiguousTargetError,
    AsyncStaleRefError,
    BrowserError,
    BrowserInstallError,
    ConfirmationRequired,
    DialogOpenError,
    FrameLookupError,
    NativeParseError,
    RestoreSaveError,
    StateDecryptError,
    AuthVaultError,
    StaleRefError,
)
from .models import (
    Device,
    EmulationSettings,
    Geolocation,
    InitScript,
    Injection,
    PermissionGrant,
    Viewport,
    ActionResult,
    PendingAction,
    AsyncPendingAction,
    Dialog,
    DialogResult,
    DialogStatus,
    BoundingBox,
    ElementGeometry,
    ScrollPosition,
    ScrollResult,
    BrowserResponse,
    ContentBoundary,
    OutputLimit,
    CloseResult,
    ConsoleLog,
    ConsoleMessage,
    AccessibilityAudit,
    AccessibilityCounts,
    AccessibilityIssue,
    AccessibilityNode,
    Vital,
    Vitals,
    VitalRating,
    WebMCPInvocation,
    WebMCPInvocationStatus,
    WebMCPTool,
    Download,
    ErrorLog,
    FileChooser,
    LaunchResult,
    Navigation,
    PageError,
    ReadAttempt,
    ReadHeading,
    ReadMode,
    ReadResult,
    Ref,
    Locator,
    Finder,
    Screenshot,
    ScreenshotAnnotation,
    ScreenshotBox,
    ScreenshotObservation,
    ImageContent,
    SessionStatus,
    SessionId,
    DevToolsEndpoint,
    NetworkThrottle,
    Snapshot,
    SnapshotChange,
    SnapshotDelta,
    SnapshotDiff,
    SnapshotSpec,
    FrameInfo,
    TabCloseResult,
    TabInfo,
    TabSwitchResult,
    UploadedFile,
    Wait,
    WaitResult,
)
from .models.state import Cookie, StateFile, StateListing
from .models.auth import AuthEntry, AuthListing, AuthLogin
from .models import NetworkRequest, RequestDetail, RequestLog
from .options import CDPTarget, LaunchOptions, SessionOptions
from .restore import RestoreOptions
from ._session_id import session_id

if TYPE_CHECKING:
    from .aio import (
        AsyncBrowser,
        AsyncCapture,
        AsyncClipboard,
        AsyncCookies,
        AsyncState,
        AsyncAuth,
        AsyncStorage,
        AsyncDiagnostics,
        AsyncDialogs,
        AsyncEmulation,
        AsyncFrame,
        AsyncFrames,
        AsyncKeyboard,
        AsyncMouse,
        AsyncNative,
        AsyncNetwork,
        AsyncPage,
        AsyncScripts,
        AsyncScroll,
        AsyncTabs,
    )

#: The async classes, imported from :mod:`agentbrowser.aio` on first use.
_ASYNC = frozenset(
    {"AsyncBrowser", "AsyncPage", "AsyncCapture", "AsyncTabs", "AsyncNative", "AsyncDiagnostics"}
    | {"AsyncDialogs", "AsyncKeyboard", "AsyncMouse"}
    | {"AsyncEmulation", "AsyncScripts"}
    | {"AsyncScroll", "AsyncClipboard"}
    | {"AsyncFrame", "AsyncFrames"}
    | {"AsyncCookies", "AsyncStorage", "AsyncState"}
    | {"AsyncAuth"}
    | {"AsyncNetwork"}
)


def __getattr__(name: str) -> object:
    if name in _ASYNC:
        from . import aio

        return getattr(aio, name)
    raise AttributeError(f"module 'agentbrowser' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | _ASYNC)


__all__ = [
    "__version__",
    "cdp",
    "Browser",
    "Page",
    "Capture",
    "Tabs",
    "Native",
    "Diagnostics",
    "Network",
    "AsyncNetwork",
    "NetworkRequest",
    "RequestDetail",
    "RequestLog",
    "Dialogs",
    "Keyboard",
    "Mouse",
    "Scroll",
    "Clipboard",
    "Cookies",
    "Storage",
    "State",
    "Cookie",
    "StateDecryptError",
    "StateFile",
    "StateListing",
    "Auth",
    "AsyncAuth",
    "AuthEntry",
    "AuthListing",
    "AuthLogin",
    "AuthVaultError",
    "ProxyConfig",
    "Route",
    "RouteResponse",
    "Frame",
    "Frames",
    "FrameInfo",
    "FrameLookupError",
    "AsyncFrame",
    "AsyncFrames",
    "AsyncBrowser",
    "AsyncPage",
    "AsyncCapture",
    "AsyncTabs",
    "AsyncNative",
    "AsyncDiagnostics",
    "AsyncDialogs",
    "AsyncKeyboard",
    "AsyncMouse",
    "AsyncScroll",
    "AsyncClipboard",
    "AsyncCookies",
    "AsyncStorage",
    "AsyncState",
    "LaunchOptions",
    "RestoreOptions",
    "SessionOptions",
    "CDPTarget",
    "SnapshotSpec",
    "UploadedFile",
    "FileChooser",
    "Download",
    "Snapshot",
    "SnapshotDelta",
    "SnapshotChange",
    "Ref",
    "Locator",
    "Finder",
    "Wait",
    "ActionResult",
    "PendingAction",
    "AsyncPendingAction",
    "SnapshotDiff",
    "BrowserResponse",
    "ContentBoundary",
    "OutputLimit",
    "CloseResult",
    "LaunchResult",
    "SessionStatus",
    "SessionId",
    "DevToolsEndpoint",
    "NetworkThrottle",
    "session_id",
    "TabInfo",
    "TabSwitchResult",
    "TabCloseResult",
    "Navigation",
    "WaitResult",
    "Dialog",
    "DialogStatus",
    "DialogResult",
    "BoundingBox",
    "ElementGeometry",
    "ScrollPosition",
    "ScrollResult",
    "DialogOpenError",
    "ConsoleMessage",
    "ConsoleLog",
    "AccessibilityAudit",
    "AccessibilityCounts",
    "AccessibilityIssue",
    "AccessibilityNode",
    "Vital",
    "Vitals",
    "VitalRating",
    "WebMCPInvocation",
    "WebMCPInvocationStatus",
    "WebMCPTool",
    "WebMCP",
    "AsyncWebMCP",
    "PageError",
    "ErrorLog",
    "Screenshot",
    "ScreenshotAnnotation",
    "ScreenshotBox",
    "ScreenshotObservation",
    "ImageContent",
    "ReadMode",
    "ReadResult",
    "ReadHeading",
    "ReadAttempt",
    "Emulation",
    "Scripts",
    "AsyncEmulation",
    "AsyncScripts",
    "EmulationSettings",
    "Viewport",
    "Geolocation",
    "PermissionGrant",
    "InitScript",
    "Device",
    "Injection",
    "AgentBrowserError",
    "BrowserError",
    "ConfirmationRequired",
    "StaleRefError",
    "AmbiguousTargetError",
    "AsyncStaleRefError",
    "ActionTransitionError",
    "NativeParseError",
    "BrowserInstallError",
    "RestoreSaveError",
]
