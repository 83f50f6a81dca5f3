"""Frozen result models shared by the sync and async clients, and their decoding.

Every model keeps the native mapping it was built from in ``raw``.  Models that hang
off a browser (:class:`Snapshot`, :class:`Ref`, :class:`ActionResult`) are generic in
the browser type: with a :class:`~agentbrowser.Browser` their operations return values,
with an :class:`~agentbrowser.AsyncBrowser` they return awaitables.

One module per kind of model: ``specs`` (inputs), ``session``, ``tabs``, ``results``
(page operations), ``reading`` (``read``), ``snapshot``, ``ref`` and ``action``.  This package re-exports them all;
the ``X as X`` imports re-export the helpers that ``agentbrowser.models`` held before the split.
"""

from __future__ import annotations

from ._bounded import clip as clip
from ._client import B as B
from .action import ActionResult
from .pending import AsyncPendingAction, PendingAction
from .audit import AccessibilityAudit, AccessibilityCounts, AccessibilityIssue, AccessibilityNode, Vital, Vitals
from .audit import VitalRating as VitalRating
from .diagnostics import CONSOLE_LEVELS as CONSOLE_LEVELS
from .diagnostics import ConsoleLevel as ConsoleLevel
from .diagnostics import ConsoleLog, ConsoleMessage, ErrorLog, PageError
from .diagnostics import LogLevel as LogLevel
from .diagnostics import logged_errors as logged_errors
from .react import ReactNode, ReactTree
from .react import ReactNodeKind as ReactNodeKind
from .capture import IMAGE_FORMATS as IMAGE_FORMATS
from .capture import ImageContent, Screenshot, ScreenshotAnnotation, ScreenshotBox, ScreenshotObservation
from .layout import SCROLL_DIRECTIONS as SCROLL_DIRECTIONS
from .network import HAR_CONTENT_MODES as HAR_CONTENT_MODES
from .network import HarContentMode as HarContentMode
from .network import NetworkRequest, RequestDetail, RequestLog
from .layout import BoundingBox, ElementGeometry, ScrollPosition, ScrollResult
from .locator import LOCATOR_KINDS as LOCATOR_KINDS
from .locator import Finder, Locator, LocatorActionResult
from .locator import AsyncQuery as AsyncQuery
from .locator import Query as Query
from .files import Download, FileChooser, UploadedFile
from .emulation import Device, EmulationSettings, Geolocation, InitScript, Injection, PermissionGrant, Viewport
from .emulation import NetworkThrottle
from .emulation import ColorScheme as ColorScheme
from .emulation import MediaType as MediaType
from .emulation import ReducedMotion as ReducedMotion
from .ref import Ref
from .ref import AsyncRef as AsyncRef
from .scope import DocumentScope
from .routes import ABORT_REASONS as ABORT_REASONS
from .routes import RESOURCE_TYPES as RESOURCE_TYPES
from .routes import ProxyConfig, Route, RouteResponse
from .routes import RouteAction as RouteAction
from .reading import DEFAULT_READ_MAX_CHARS as DEFAULT_READ_MAX_CHARS
from .reading import DEFAULT_READ_TIMEOUT_MS as DEFAULT_READ_TIMEOUT_MS
from .reading import LLMS_FILES as LLMS_FILES
from .reading import MAX_READ_TIMEOUT_MS as MAX_READ_TIMEOUT_MS
from .reading import READ_SOURCES as READ_SOURCES
from .reading import LlmsFile as LlmsFile
from .reading import ReadAttempt, ReadHeading, ReadMode, ReadResult
from .reading import ReadSource as ReadSource
from .results import Dialog, DialogResult, DialogStatus, Navigation, SnapshotDiff, WaitResult
from .session import RESTORE_STATUSES as RESTORE_STATUSES
from .session import SAVE_STATUSES as SAVE_STATUSES
from .session import BrowserResponse, CloseResult, LaunchResult, SessionStatus
from .boundary import ContentBoundary, OutputLimit
from .session import SessionId
from .devtools import DevToolsEndpoint
from .snapshot import DeltaKind as DeltaKind
from .snapshot import Snapshot, SnapshotChange, SnapshotDelta
from .snapshot import AsyncSnapshot as AsyncSnapshot
from .webmcp import WEBMCP_INVOCATION_STATUSES as WEBMCP_INVOCATION_STATUSES
from .webmcp import WebMCPInvocation, WebMCPTool
from .webmcp import WebMCPInvocationStatus as WebMCPInvocationStatus
from .specs import DEFAULT_MAX_BYTES as DEFAULT_MAX_BYTES
from .specs import LOAD_STATES as LOAD_STATES
from .specs import MOUSE_BUTTONS as MOUSE_BUTTONS
from .specs import LoadState as LoadState
from .specs import NAVIGATION_LOAD_STATES as NAVIGATION_LOAD_STATES
from .specs import NavigationLoadState as NavigationLoadState
from .specs import Modifier as Modifier
from .specs import MouseButton as MouseButton
from .specs import SELECTOR_STATES as SELECTOR_STATES
from .specs import SelectorState as SelectorState
from .specs import SnapshotSpec, Wait
from .tabs import FrameInfo, TabCloseResult, TabInfo, TabSwitchResult
from .state import SAME_SITE_VALUES as SAME_SITE_VALUES
from .state import SameSite as SameSite
from .state import StorageArea as StorageArea
from .state import Cookie, StateFile, StateListing
from .auth import AuthSubmit as AuthSubmit
from .auth import AuthEntry, AuthListing, AuthLogin

__all__ = [
    "ProxyConfig",
    "Route",
    "RouteResponse",
    "SnapshotSpec",
    "Snapshot",
    "SnapshotDelta",
    "SnapshotChange",
    "Ref",
    "DocumentScope",
    "Locator",
    "LocatorActionResult",
    "Finder",
    "Wait",
    "ActionResult",
    "PendingAction",
    "AsyncPendingAction",
    "UploadedFile",
    "FileChooser",
    "Download",
    "Cookie",
    "StateFile",
    "AuthEntry",
    "AuthListing",
    "AuthLogin",
    "StateListing",
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
    "TabInfo",
    "TabSwitchResult",
    "TabCloseResult",
    "FrameInfo",
    "Navigation",
    "WaitResult",
    "Dialog",
    "DialogResult",
    "DialogStatus",
    "BoundingBox",
    "ElementGeometry",
    "ScrollPosition",
    "ScrollResult",
    "ConsoleMessage",
    "ConsoleLog",
    "AccessibilityAudit",
    "AccessibilityCounts",
    "AccessibilityIssue",
    "AccessibilityNode",
    "Vital",
    "Vitals",
    "WebMCPInvocation",
    "WebMCPTool",
    "NetworkRequest",
    "RequestDetail",
    "RequestLog",
    "PageError",
    "ErrorLog",
    "ReactNode",
    "ReactTree",
    "Screenshot",
    "ScreenshotAnnotation",
    "ScreenshotBox",
    "ScreenshotObservation",
    "ImageContent",
    "ReadMode",
    "ReadResult",
    "ReadHeading",
    "ReadAttempt",
    "EmulationSettings",
    "Viewport",
    "Geolocation",
    "PermissionGrant",
    "InitScript",
    "Device",
    "Injection",
]

