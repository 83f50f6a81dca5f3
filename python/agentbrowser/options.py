"""Launch options, session options and attach targets, validated when built.

Every constraint (JSON type, range, length, pattern) comes from the engine's protocol schema
through the generated ``_wire_types.OPTION_RULES``: the ``launch`` parameters for the browser
fields, the schema's ``clientOptions`` for the request timeout and the session name.  What is
only Python's (a path-like for a path, a ``(width, height)`` tuple, seconds for a timeout) is
converted first, then checked by the field's rule.  Wrong types raise TypeError, bad values
ValueError; both name the field.
"""

from __future__ import annotations

import dataclasses
import os
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from ._rules import Rule
from ._wire_types import OPTION_RULES
from .models.routes import ProxyConfig
from .restore import RestoreOptions

__all__ = [
    "LaunchOptions",
    "SessionOptions",
    "RestoreOptions",
    "CDPTarget",
    "DashboardOptions",
    "SESSION_NAME",
    "merge_options",
]

_LAUNCH = OPTION_RULES["LaunchParams"]
_CLIENT = OPTION_RULES["clientOptions"]

#: What a session name may be (the schema's ``clientOptions.session`` pattern).
SESSION_NAME = re.compile(_CLIENT["session"].pattern or "")
#: The longest request timeout the protocol accepts, in milliseconds (24 hours).
MAX_TIMEOUT_MS = int(_CLIENT["timeout"].maximum or 0)
#: The largest window side the protocol accepts, in pixels.
MAX_WINDOW_SIDE = int(_LAUNCH["windowWidth"].maximum or 0)
#: The engine's default per-command deadline when no timeout is chosen, in milliseconds.
DEFAULT_TIMEOUT_MS = 30_000


def _required(rule: Rule) -> Rule:
    """``rule`` without null: the Python field has a value (a bool, a sequence)."""
    return dataclasses.replace(rule, nullable=False)


def _path(label: str, value: object, rule: Rule, *, absolute: bool = False) -> str | None:
    """A str or path-like as a str (made absolute when ``absolute``), checked by ``rule``."""
    if value is None:
        return None
    if not isinstance(value, (str, os.PathLike)):
        raise TypeError(f"{label} must be a str or path, got {type(value).__name__}")
    text = os.fspath(value)
    if not isinstance(text, str):
        raise TypeError(f"{label} must be a str path, got bytes")
    rule.check(label, text)
    return os.path.abspath(text) if absolute else text


def _seconds_to_ms(label: str, value: object) -> int | None:
    """A timeout in seconds as milliseconds, in the range of the request ``timeout``."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"{label} must be a number of seconds or None, got {type(value).__name__}")
    if value != value:  # NaN
        raise ValueError(f"{label} must be a number of seconds, got nan")
    _CLIENT["timeout"].check_range(label, value, scale=1000, unit=" seconds")
    return round(value * 1000)


def _domains(label: str, value: object) -> tuple[str, ...] | None:
    """Allowed domains as a tuple of patterns (a str is split at commas); the engine checks
    each pattern's syntax."""
    if value is None:
        return None
    if isinstance(value, str):
        value = [part for part in value.split(",")]
    if not isinstance(value, Sequence) or isinstance(value, bytes):
        raise TypeError(f"{label} must be a sequence of host patterns or a comma-separated str, got {type(value).__name__}")
    out: list[str] = []
    for item in value:
        if not isinstance(item, str):
            raise TypeError(f"{label} must hold str host patterns, got {type(item).__name__}")
        out.extend(p.strip() for p in item.split(",") if p.strip())
    if not out:
        raise ValueError(f"{label} is empty; give at least one host such as 'example.com' (None: every host)")
    _LAUNCH["allowedDomains"].check(label, out)
    return tuple(out)


def _domain_conflicts(opts: LaunchOptions) -> None:
    """ValueError when allowed domains are combined with what would defeat them."""
    if opts.allowed_domains is None:
        return
    for field, set_ in (
        ("cdp_url", opts.cdp_url is not None),
        ("cdp_port", opts.cdp_port is not None),
        ("profile", opts.profile is not None),
        ("proxy", opts.proxy is not None),
    ):
        if set_:
            raise ValueError(
                f"allowed_domains cannot be combined with LaunchOptions.{field}: an attached browser, a persistent "
                "profile or a proxy would defeat them"
            )


_HEADER_NAME = re.compile(r"^[!#$%&'*+\-.^_`|~0-9A-Za-z]{1,256}$")


def _cdp_headers(label: str, value: object) -> Mapping[str, str] | None:
    """The attach endpoint's extra headers, checked and frozen (errors name the header, never
    its value; the engine checks the rest)."""
    if value is None:
        return None
    if not isinstance(value, Mapping):
        raise TypeError(f"{label} must be a mapping of header names to str values, got {type(value).__name__}")
    out: dict[str, str] = {}
    for name, v in value.items():
        if not isinstance(name, str) or not _HEADER_NAME.match(name):
            raise ValueError(f"{label}: {name!r} is not an HTTP header name")
        if not isinstance(v, str):
            raise TypeError(f"{label}: header {name!r} has a {type(v).__name__} value; header values are str")
        if any(c in v for c in "\r\n\0"):
            raise ValueError(f"{label}: the value of header {name!r} holds a line break or NUL")
        out[name] = v
    return MappingProxyType(out)


def _check_cdp_url(label: str, url: object) -> None:
    """The attach URL's scheme checked, its query values and password hidden in the error."""
    if isinstance(url, str) and not re.match(r"^(wss?|https?)://", url):
        raise ValueError(
            f"{label} must be a ws://, wss://, http:// or https:// URL, got {_redact(url)!r}"
        )
    _LAUNCH["cdpUrl"].check(label, url)


def _check_policy(opts: Any, owner: str) -> None:
    """Checks and normalizes the action policy fields of ``opts`` (a LaunchOptions or a
    SessionOptions): the file made absolute, the confirm actions a tuple of names."""
    policy = _path(f"{owner}.action_policy", opts.action_policy, _LAUNCH["actionPolicy"], absolute=True)
    object.__setattr__(opts, "action_policy", policy)
    names: Any = opts.confirm_actions
    if isinstance(names, (str, bytes)) or not isinstance(names, Sequence):
        raise TypeError(f"{owner}.confirm_actions must be a sequence of action names, got {type(names).__name__}")
    names = tuple(names)
    _LAUNCH["confirmActions"].check(f"{owner}.confirm_actions", names)
    for n in names:
        if not n.strip():
            raise ValueError(f"{owner}.confirm_actions holds an empty name; give actions, kinds or categories")
    object.__setattr__(opts, "confirm_actions", names)


def _check_restore(label: str, value: object) -> None:
    if value is not None and not isinstance(value, RestoreOptions):
        raise TypeError(f"{label} must be a RestoreOptions or None, got {type(value).__name__}")


@dataclass(frozen=True, slots=True)
class DashboardOptions:
    """The session's live dashboard (``SessionOptions.dashboard``): when the Browser starts, an
    ``agentbrowser dashboard`` process serves the session's live view on 127.0.0.1 at ``port``
    (None or 0: a free one); ``control`` lets the page send the session commands (default
    read-only); ``cli_version`` is pyagentbrowser's pin of the CLI it downloads: checked, not
    used (the dashboard is this package's binary). ``browser.dashboard.status()`` gives its URL; ``browser.dashboard.stop()`` ends it."""

    port: int | None = None
    cli_version: str | None = None
    control: bool = False

    def __post_init__(self) -> None:
        if self.port is not None:
            if isinstance(self.port, bool) or not isinstance(self.port, int):
                raise TypeError(f"DashboardOptions.port must be an int or None, got {type(self.port).__name__}")
            if not 0 <= self.port <= 65535:
                raise ValueError(f"DashboardOptions.port must be within 0..65535, got {self.port}")
        if self.cli_version is not None:
            if not isinstance(self.cli_version, str):
                raise TypeError(f"DashboardOptions.cli_version must be a str or None, got {type(self.cli_version).__name__}")
            if not self.cli_version.strip():
                raise ValueError("DashboardOptions.cli_version must not be empty")
        _flag("DashboardOptions.control", self.control)


#: The engines ``LaunchOptions.engine`` accepts: agentbrowser drives Chromium.
CHROME_ENGINES = ("chrome", "chromium")


def _flag(label: str, value: object) -> None:
    """TypeError unless ``value`` is a bool or None."""
    if value is not None and not isinstance(value, bool):
        raise TypeError(f"{label} must be a bool or None, got {type(value).__name__}")


def _extensions(value: object) -> tuple[str, ...]:
    """Unpacked extension directories, made absolute; each must hold a ``manifest.json``."""
    if isinstance(value, (str, bytes, os.PathLike)) or not isinstance(value, Sequence):
        raise TypeError(f"LaunchOptions.extensions must be a sequence of directories, got {type(value).__name__}")
    out = []
    for item in value:
        path = _path("LaunchOptions.extensions", item, _LAUNCH["executablePath"], absolute=True)
        if path is None:
            raise TypeError("LaunchOptions.extensions must hold directories, got None")
        if "," in path:
            raise ValueError(f"LaunchOptions.extensions: {path!r} holds a comma, which Chromium's flag cannot carry")
        if not os.path.isfile(os.path.join(path, "manifest.json")):
            raise ValueError(f"LaunchOptions.extensions: {path!r} is not an unpacked extension (no manifest.json)")
        out.append(path)
    return tuple(out)


def _peer_fields(opts: LaunchOptions) -> None:
    """Checks pyagentbrowser's launch fields: the ones the engine can honour are kept (and become
    Chromium flags in ``to_wire``), the others raise ValueError naming the field."""
    if opts.engine is not None:
        if not isinstance(opts.engine, str):
            raise TypeError(f"LaunchOptions.engine must be a str or None, got {type(opts.engine).__name__}")
        if opts.engine.strip().lower() not in CHROME_ENGINES:
            raise ValueError(
                f"LaunchOptions.engine={opts.engine!r} is not supported: agentbrowser drives Chromium "
                "(engine 'chrome'); lightpanda and obscura are not available"
            )
    if opts.provider is not None:
        raise ValueError(
            f"LaunchOptions.provider={opts.provider!r} is not supported: agentbrowser launches a local Chromium "
            "or attaches to one; Browser.attach(CDPTarget(url=...)) joins a remote browser or grid"
        )
    if opts.storage_state is not None:
        _path("LaunchOptions.storage_state", opts.storage_state, _LAUNCH["executablePath"])
        raise ValueError(
            "LaunchOptions.storage_state is not supported yet (issue 37): launch, then load the file with "
            "browser.state.load(path)"
        )
    object.__setattr__(opts, "extensions", _extensions(opts.extensions))
    for name in ("hide_scrollbars", "webgpu", "webmcp", "no_xvfb"):
        _flag(f"LaunchOptions.{name}", getattr(opts, name))
    if opts.webgpu:
        raise ValueError("LaunchOptions.webgpu=True is not supported: the engine launches Chromium without a GPU")
    if opts.extensions and any(a.startswith(("--load-extension=", "--disable-extensions-except=")) for a in opts.args):
        raise ValueError("LaunchOptions.extensions and --load-extension in args exclude each other: give one")


def _peer_args(opts: LaunchOptions) -> list[str]:
    """``args`` with the Chromium flags of pyagentbrowser's launch fields."""
    args = list(opts.args)
    if opts.extensions:
        joined = ",".join(os.fspath(e) for e in opts.extensions)
        args += [f"--load-extension={joined}", f"--disable-extensions-except={joined}"]
    if opts.hide_scrollbars:
        args.append("--hide-scrollbars")
    if opts.webmcp is False:
        # One --disable-features switch: Chromium reads only the last one.
        at = next((i for i, a in enumerate(args) if a.startswith("--disable-features=")), None)
        if at is None:
            args.append("--disable-features=WebMCP")
        elif "WebMCP" not in args[at].partition("=")[2].split(","):
            args[at] += ",WebMCP"
    return args


@dataclass(frozen=True, slots=True)
class LaunchOptions:
    """How :meth:`Browser.launch` starts (or attaches to) Chromium.

    ``headless`` runs without a window; ``executable_path`` picks the Chromium binary
    (default: discovery); ``args`` adds Chromium flags; ``window_size`` is ``(width,
    height)`` in pixels (default: the window whose tabs' viewport is 1280x720 CSS pixels);
    ``timeout_ms`` is the default per-command timeout; ``session``
    names the session (its identity in ``status()``); ``cdp_url`` (``ws://…``, ``wss://…``,
    ``http(s)://host:port``; a query-string token is kept) or ``cdp_port`` (a DevTools port on
    127.0.0.1) attaches to a running browser instead of launching one (prefer
    :meth:`Browser.attach`); ``cdp_headers`` are extra HTTP headers for that endpoint (sent on
    discovery and the WebSocket upgrade; never shown, not in ``repr``); with an attach,
    ``ca_cert`` is what an ``https``/``wss`` endpoint's certificate is checked against;
    ``download_path`` is the directory downloads are saved in (made absolute; default a
    per-session directory under ``$TMPDIR``); ``auto_dialogs`` answers every JavaScript
    dialog at once (confirm and prompt dismissed) instead of leaving confirm and prompt open
    for ``browser.dialogs``; ``user_agent``, ``color_scheme`` (``dark``, ``light``,
    ``no-preference``) and ``viewport`` (``(width, height)`` in CSS pixels) are the emulation
    every tab starts with (like ``browser.emulation``). ``ignore_https_errors`` accepts every
    certificate error for the session; ``ca_cert`` is a PEM file of CA certificates the
    session's browser trusts (this session only; made absolute; needs NSS's ``certutil``);
    ``profile`` is a persistent Chromium profile directory (made absolute, created if missing,
    kept on close, refused with ``profile_in_use`` while another browser holds it).
    ``request_log=False`` turns the request log off for the session (page loads with many
    requests cost less; ``network.requests``, ``request_detail`` and ``har_start`` then raise
    ``content_unavailable``, and so do offline and throttling, which need Chromium's ``Network``
    domain; routes, headers and credentials still work).
    every tab starts with (like ``browser.emulation``); ``proxy`` (a :class:`ProxyConfig`, a
    URL or a mapping) is the proxy every request goes through (its credentials answer the
    proxy's challenges and never reach Chromium's command line). ``allowed_domains`` (host
    patterns such as ``"example.com"`` and ``"*.example.com"``, or one comma-separated str)
    limits every request of the session to those hosts (the engine refuses other URLs with
    ``domain_not_allowed``; see ``SessionOptions``); ``allow_file_access`` lets commands open
    ``file://`` URLs. ``content_boundaries`` and
    ``max_output`` are as in :class:`SessionOptions`.
    proxy's challenges and never reach Chromium's command line). ``action_policy``,
    ``confirm_actions`` and ``confirm_timeout_ms`` are the session's action policy (see
    :class:`SessionOptions`, where they usually go).

    Wrong types raise TypeError, bad values ValueError; both name the field.
    """

    headless: bool = True
    executable_path: str | os.PathLike[str] | None = None
    args: Sequence[str] = ()
    window_size: tuple[int, int] | None = None
    timeout_ms: int = DEFAULT_TIMEOUT_MS
    session: str | None = None
    cdp_url: str | None = None
    download_path: str | os.PathLike[str] | None = None
    auto_dialogs: bool = False
    cdp_port: int | None = None
    user_agent: str | None = None
    color_scheme: str | None = None
    viewport: tuple[int, int] | None = None
    ignore_https_errors: bool = False
    request_log: bool = True
    ca_cert: str | os.PathLike[str] | None = None
    profile: str | os.PathLike[str] | None = None
    proxy: ProxyConfig | str | Mapping[str, Any] | None = None
    allowed_domains: Sequence[str] | str | None = None
    allow_file_access: bool = False
    content_boundaries: bool = False
    max_output: int | None = None
    action_policy: str | os.PathLike[str] | None = None
    confirm_actions: Sequence[str] = ()
    confirm_timeout_ms: int | None = None
    #: The session's restore and autosave (set from ``SessionOptions.restore``).
    restore: RestoreOptions | None = None
    #: The session's live dashboard (set from ``SessionOptions.dashboard``).
    dashboard: DashboardOptions | None = None
    #: Extra HTTP headers for the attach endpoint (values are credentials: not in ``repr``).
    cdp_headers: Mapping[str, str] | None = field(default=None, repr=False)
    #: pyagentbrowser's browser engine: None, ``chrome`` or ``chromium`` (anything else: ValueError).
    engine: str | None = None
    #: pyagentbrowser's state file loaded at launch: not supported yet (ValueError).
    storage_state: str | os.PathLike[str] | None = None
    #: Unpacked extension directories to load (launch only; each with a ``manifest.json``).
    extensions: Sequence[str | os.PathLike[str]] = ()
    #: pyagentbrowser's cloud or iOS provider: not supported (ValueError).
    provider: str | None = None
    #: True: hide scrollbars (``--hide-scrollbars``); None/False: Chromium's default.
    hide_scrollbars: bool | None = None
    #: pyagentbrowser's WebGPU switch: True is not supported (ValueError; no GPU).
    webgpu: bool | None = None
    #: False: Chromium's WebMCP off (``--disable-features=WebMCP``); None/True: on.
    webmcp: bool | None = None
    #: pyagentbrowser's "no Xvfb for a headed browser": agentbrowser never starts Xvfb.
    no_xvfb: bool | None = None

    def __post_init__(self) -> None:
        _peer_fields(self)
        object.__setattr__(self, "cdp_headers", _cdp_headers("LaunchOptions.cdp_headers", self.cdp_headers))
        if self.cdp_headers is not None and not self.attaches:
            raise ValueError("LaunchOptions.cdp_headers go with cdp_url or cdp_port: they are sent to the attach endpoint")
        object.__setattr__(self, "allowed_domains", _domains("LaunchOptions.allowed_domains", self.allowed_domains))
        _required(_LAUNCH["allowFileAccess"]).check("LaunchOptions.allow_file_access", self.allow_file_access)
        _check_policy(self, "LaunchOptions")
        _check_restore("LaunchOptions.restore", self.restore)
        _required(_LAUNCH["autoDialogs"]).check("LaunchOptions.auto_dialogs", self.auto_dialogs)
        _required(_LAUNCH["contentBoundaries"]).check("LaunchOptions.content_boundaries", self.content_boundaries)
        _LAUNCH["maxOutput"].check("LaunchOptions.max_output", self.max_output)
        _required(_LAUNCH["headless"]).check("LaunchOptions.headless", self.headless)
        path = _path("LaunchOptions.executable_path", self.executable_path, _LAUNCH["executablePath"])
        object.__setattr__(self, "executable_path", path)
        args: Any = self.args
        if isinstance(args, Sequence) and not isinstance(args, (str, bytes)):
            args = tuple(args)
        _LAUNCH["args"].check("LaunchOptions.args", args)
        object.__setattr__(self, "args", args)
        if self.window_size is not None:
            size: Any = self.window_size
            if not isinstance(size, (tuple, list)) or len(size) != 2:
                raise TypeError("LaunchOptions.window_size must be a (width, height) tuple of ints or None")
            for axis, key, v in zip(("width", "height"), ("windowWidth", "windowHeight"), size, strict=True):
                _required(_LAUNCH[key]).check(f"LaunchOptions.window_size {axis}", v)
            object.__setattr__(self, "window_size", (size[0], size[1]))
        _CLIENT["timeout"].check("LaunchOptions.timeout_ms", self.timeout_ms)
        if self.session is not None:
            _CLIENT["session"].check("LaunchOptions.session", self.session)
        _check_cdp_url("LaunchOptions.cdp_url", self.cdp_url)
        _LAUNCH["cdpPort"].check("LaunchOptions.cdp_port", self.cdp_port)
        if self.cdp_url is not None and self.cdp_port is not None:
            raise ValueError("LaunchOptions.cdp_url and LaunchOptions.cdp_port exclude each other: give one")
        download = _path("LaunchOptions.download_path", self.download_path, _LAUNCH["downloadPath"], absolute=True)
        object.__setattr__(self, "download_path", download)
        _LAUNCH["userAgent"].check("LaunchOptions.user_agent", self.user_agent)
        _LAUNCH["colorScheme"].check("LaunchOptions.color_scheme", self.color_scheme)
        if self.viewport is not None:
            vp: Any = self.viewport
            if not isinstance(vp, (tuple, list)) or len(vp) != 2:
                raise TypeError("LaunchOptions.viewport must be a (width, height) tuple of ints or None")
            for axis, key, v in zip(("width", "height"), ("viewportWidth", "viewportHeight"), vp, strict=True):
                _required(_LAUNCH[key]).check(f"LaunchOptions.viewport {axis}", v)
            object.__setattr__(self, "viewport", (vp[0], vp[1]))
        _required(_LAUNCH["ignoreHttpsErrors"]).check("LaunchOptions.ignore_https_errors", self.ignore_https_errors)
        _required(_LAUNCH["requestLog"]).check("LaunchOptions.request_log", self.request_log)
        ca = _path("LaunchOptions.ca_cert", self.ca_cert, _LAUNCH["caCert"], absolute=True)
        object.__setattr__(self, "ca_cert", ca)
        profile = _path("LaunchOptions.profile", self.profile, _LAUNCH["profile"], absolute=True)
        object.__setattr__(self, "profile", profile)
        if self.proxy is not None:
            object.__setattr__(self, "proxy", ProxyConfig.of(self.proxy))
        _domain_conflicts(self)
        _LAUNCH["confirmTimeoutMs"].check("LaunchOptions.confirm_timeout_ms", self.confirm_timeout_ms)
        if self.attaches and self.no_xvfb:
            raise ValueError("LaunchOptions.no_xvfb only applies to a launched browser, not to an attached one")

    def __repr__(self) -> str:
        return _repr(self)

    @property
    def attaches(self) -> bool:
        """Whether these options attach to a running browser (``cdp_url`` or ``cdp_port``)."""
        return self.cdp_url is not None or self.cdp_port is not None

    def launch_only_fields(self) -> list[str]:
        """The fields set away from their defaults that only a launched browser uses."""
        fields = []
        if not self.headless:
            fields.append("headless")
        if self.executable_path is not None:
            fields.append("executable_path")
        if self.args:
            fields.append("args")
        if self.window_size is not None:
            fields.append("window_size")
        if self.ignore_https_errors:
            fields.append("ignore_https_errors")
        if self.profile is not None:
            fields.append("profile")
        if self.extensions:
            fields.append("extensions")
        if self.hide_scrollbars:
            fields.append("hide_scrollbars")
        if self.webmcp is False:
            fields.append("webmcp")
        if self.no_xvfb:
            fields.append("no_xvfb")
        return fields

    def to_wire(self) -> dict[str, Any]:
        """The ``launch`` action's parameters."""
        wire: dict[str, Any] = {"headless": self.headless}
        if self.executable_path is not None:
            wire["executablePath"] = os.fspath(self.executable_path)
        args = _peer_args(self)
        if args:
            wire["args"] = args
        if self.window_size is not None:
            wire["windowWidth"], wire["windowHeight"] = self.window_size
        if self.cdp_url is not None:
            wire["cdpUrl"] = self.cdp_url
        if self.cdp_port is not None:
            wire["cdpPort"] = self.cdp_port
        if self.cdp_headers is not None:
            wire["cdpHeaders"] = dict(self.cdp_headers)
        if self.download_path is not None:
            wire["downloadPath"] = os.fspath(self.download_path)
        if self.auto_dialogs:
            wire["autoDialogs"] = True
        if self.content_boundaries:
            wire["contentBoundaries"] = True
        if self.max_output is not None:
            wire["maxOutput"] = self.max_output
        if self.user_agent is not None:
            wire["userAgent"] = self.user_agent
        if self.color_scheme is not None:
            wire["colorScheme"] = self.color_scheme
        if self.viewport is not None:
            wire["viewportWidth"], wire["viewportHeight"] = self.viewport
        if self.ignore_https_errors:
            wire["ignoreHttpsErrors"] = True
        if not self.request_log:
            wire["requestLog"] = False
        if self.ca_cert is not None:
            wire["caCert"] = os.fspath(self.ca_cert)
        if self.profile is not None:
            wire["profile"] = os.fspath(self.profile)
        if isinstance(self.proxy, ProxyConfig):
            wire.update(self.proxy.to_wire())
        if self.allowed_domains is not None:
            wire["allowedDomains"] = list(self.allowed_domains)
        if self.allow_file_access:
            wire["allowFileAccess"] = True
        if self.action_policy is not None:
            wire["actionPolicy"] = os.fspath(self.action_policy)
        if self.confirm_actions:
            wire["confirmActions"] = list(self.confirm_actions)
        if self.confirm_timeout_ms is not None:
            wire["confirmTimeoutMs"] = self.confirm_timeout_ms
        return wire


@dataclass(frozen=True, slots=True)
class SessionOptions:
    """How a session behaves, whichever browser it drives (launched, attached or lazy).

    ``session_id`` names the session (1-64 of letters, digits, ``_`` and ``-``; its identity
    in ``status()``); ``timeout`` is the default per-command deadline in **seconds** (None:
    the engine's 30 s; it wins over ``LaunchOptions.timeout_ms``); ``auto_dialogs`` answers
    every JavaScript dialog at once (confirm and prompt dismissed) instead of leaving confirm
    and prompt open for ``browser.dialogs``; ``download_path`` is the directory downloads are
    saved in (made absolute); ``restore`` (a :class:`RestoreOptions`) loads the session's
    state file when its browser starts and saves it on close and every autosave interval.
    ``allowed_domains`` (host patterns: ``"example.com"`` that host,
    ``"*.example.com"`` its subdomains, an IP address; a sequence or one comma-separated str)
    limits every request of the session to those hosts, enforced in the browser (navigations,
    subresources, fetch, WebSocket, workers, popups; WebRTC limited to the proxy, which refuses
    it) and before commands run (a URL elsewhere raises BrowserError with code
    ``domain_not_allowed``); it cannot be combined with an attach, a persistent profile or a
    proxy (ValueError). ``allow_file_access`` lets commands open ``file://`` URLs (refused
    otherwise). ``content_boundaries`` marks every answer of page content with
    the session's random nonce and the page's origin (``BrowserResponse.boundary``,
    ``browser.content_boundary``; marker words in page text are neutralised);
    ``max_output`` (at least 200 characters) cuts the longest strings of a larger answer and
    says how much (``BrowserResponse.limit`` and its warning).

    The action policy: ``action_policy`` is a JSON policy file (made absolute; ``default``
    allow|deny and ``allow``, ``deny``, ``confirm`` lists of actions, kinds and categories,
    optionally scoped to domains; an invalid file fails the launch with ``policy_invalid``);
    ``confirm_actions`` names actions, kinds or categories that always pause; a paused call
    raises :class:`~agentbrowser.ConfirmationRequired` whose ``pending`` confirms or denies
    it; ``confirm_timeout`` (seconds, default 60) is how long it waits before it counts as
    denied.

    Wrong types raise TypeError, bad values ValueError; both name the field.
    """

    session_id: str | None = None
    timeout: float | None = None
    auto_dialogs: bool = False
    download_path: str | os.PathLike[str] | None = None
    allowed_domains: Sequence[str] | str | None = None
    allow_file_access: bool = False
    content_boundaries: bool = False
    max_output: int | None = None
    action_policy: str | os.PathLike[str] | None = None
    confirm_actions: Sequence[str] = ()
    confirm_timeout: float | None = None
    restore: RestoreOptions | None = None
    #: pyagentbrowser's session namespace: not supported (ValueError when set).
    namespace: str | None = None
    #: pyagentbrowser's strict binding to one tab: None/False (the session follows the active
    #: tab) are what agentbrowser does; True is not supported (ValueError).
    pin_tab: bool | None = None
    #: The session's live dashboard (:class:`DashboardOptions`), started with the Browser.
    dashboard: DashboardOptions | None = None

    def __post_init__(self) -> None:
        if self.namespace is not None:
            raise ValueError(
                f"SessionOptions.namespace={self.namespace!r} is not supported: a launched Browser's session is "
                "private to it; name a shared one with SessionOptions.session_id or Browser.connect(session=...)"
            )
        _flag("SessionOptions.pin_tab", self.pin_tab)
        if self.pin_tab:
            raise ValueError(
                "SessionOptions.pin_tab=True is not supported: the session follows its active tab "
                "(select one with browser.tabs.switch)"
            )
        if self.dashboard is not None:
            if not isinstance(self.dashboard, DashboardOptions):
                raise TypeError(f"SessionOptions.dashboard must be DashboardOptions or None, got {type(self.dashboard).__name__}")
        object.__setattr__(self, "allowed_domains", _domains("SessionOptions.allowed_domains", self.allowed_domains))
        _required(_LAUNCH["allowFileAccess"]).check("SessionOptions.allow_file_access", self.allow_file_access)
        _required(_LAUNCH["contentBoundaries"]).check("SessionOptions.content_boundaries", self.content_boundaries)
        _LAUNCH["maxOutput"].check("SessionOptions.max_output", self.max_output)
        _check_policy(self, "SessionOptions")
        if self.confirm_timeout is not None:
            ms = _seconds_to_ms("SessionOptions.confirm_timeout", self.confirm_timeout)
            _LAUNCH["confirmTimeoutMs"].check("SessionOptions.confirm_timeout (in ms)", ms)
        _check_restore("SessionOptions.restore", self.restore)
        if self.session_id is not None:
            _CLIENT["session"].check("SessionOptions.session_id", self.session_id)
        _seconds_to_ms("SessionOptions.timeout", self.timeout)
        _required(_LAUNCH["autoDialogs"]).check("SessionOptions.auto_dialogs", self.auto_dialogs)
        download = _path("SessionOptions.download_path", self.download_path, _LAUNCH["downloadPath"], absolute=True)
        object.__setattr__(self, "download_path", download)

    @property
    def timeout_ms(self) -> int | None:
        """``timeout`` in milliseconds (None: not chosen)."""
        return _seconds_to_ms("SessionOptions.timeout", self.timeout)

    @property
    def confirm_timeout_ms(self) -> int | None:
        """``confirm_timeout`` in milliseconds (None: the engine's 60 s)."""
        return _seconds_to_ms("SessionOptions.confirm_timeout", self.confirm_timeout)


@dataclass(frozen=True, slots=True)
class CDPTarget:
    """A running Chromium to attach to over the DevTools protocol: exactly one of ``url``
    (``ws://``/``wss://`` WebSocket, or ``http(s)://host:port`` asked for ``/json/version``; a
    query-string token is kept and sent on) and ``port`` (1-65535, on 127.0.0.1); ``headers``
    are extra HTTP headers for the endpoint, such as ``{"Authorization": "Bearer TOKEN"}``
    (values never shown, not in ``repr``). The session holds one connection to it."""

    url: str | None = None
    port: int | None = None
    headers: Mapping[str, str] | None = field(default=None, repr=False)
    #: pyagentbrowser's endpoint discovery switch: agentbrowser connects to exactly ``url`` or
    #: ``port`` and discovers nothing, whichever its value (a bool).
    auto_connect: bool = True

    def __post_init__(self) -> None:
        if not isinstance(self.auto_connect, bool):
            raise TypeError(f"CDPTarget.auto_connect must be a bool, got {type(self.auto_connect).__name__}")
        object.__setattr__(self, "headers", _cdp_headers("CDPTarget.headers", self.headers))
        _check_cdp_url("CDPTarget.url", self.url)
        _LAUNCH["cdpPort"].check("CDPTarget.port", self.port)
        if (self.url is None) == (self.port is None):
            raise ValueError("CDPTarget takes exactly one of url and port")

    def __str__(self) -> str:
        return _redact(self.url) if self.url is not None else f"127.0.0.1:{self.port}"

    def __repr__(self) -> str:
        return _repr(self)


def _repr(obj: Any) -> str:
    """The dataclass repr with the attach URL redacted (its fields with ``repr=False`` left out)."""
    parts = []
    for f in dataclasses.fields(obj):
        if not f.repr:
            continue
        value = getattr(obj, f.name)
        if f.name in ("url", "cdp_url") and isinstance(value, str):
            value = _redact(value)
        parts.append(f"{f.name}={value!r}")
    return f"{type(obj).__name__}({', '.join(parts)})"


def _redact(url: str) -> str:
    """``url`` with every query-string value and a password as ``***`` (as the engine shows it)."""
    base, _, query = url.partition("#")[0].partition("?")
    scheme, sep, rest = base.partition("://")
    if sep:
        authority, slash, path = rest.partition("/")
        if "@" in authority:
            user, _, host = authority.rpartition("@")
            name, colon, _ = user.partition(":")
            authority = f"{name}:***@{host}" if colon else f"{user}@{host}"
        base = f"{scheme}://{authority}{slash}{path}"
    if not query:
        return base
    pairs = [f"{p.partition('=')[0]}=***" if "=" in p else "***" for p in query.split("&") if p]
    return base + "?" + "&".join(pairs)


def merge_options(
    launch: LaunchOptions | None,
    session: SessionOptions | None,
    target: CDPTarget | None = None,
) -> LaunchOptions:
    """One LaunchOptions from a launch's options, the session's and an attach target.

    The session's fields win where it sets them; two different values for the same thing
    (a session name, a download directory, two attach targets) are a ValueError naming both.
    """
    if launch is not None and not isinstance(launch, LaunchOptions):
        raise TypeError(f"launch must be a LaunchOptions or None, got {type(launch).__name__}")
    if session is not None and not isinstance(session, SessionOptions):
        raise TypeError(f"session must be a SessionOptions or None, got {type(session).__name__}")
    if target is not None and not isinstance(target, CDPTarget):
        raise TypeError(f"target must be a CDPTarget, got {type(target).__name__}")
    opts = launch or LaunchOptions()
    changes: dict[str, Any] = {}
    if target is not None:
        if opts.attaches:
            raise ValueError("attach() takes its target as CDPTarget: LaunchOptions.cdp_url/cdp_port must be unset")
        unused = opts.launch_only_fields()
        if unused:
            raise ValueError(
                f"LaunchOptions.{', LaunchOptions.'.join(unused)} only apply to a launched browser, "
                "not to one attach() joins"
            )
        changes["cdp_url"], changes["cdp_port"] = target.url, target.port
        changes["cdp_headers"] = target.headers
    if session is not None:
        for mine, theirs, value in (
            ("session_id", "session", session.session_id),
            ("download_path", "download_path", session.download_path),
        ):
            if value is None:
                continue
            current = getattr(opts, theirs)
            if current is not None and current != value:
                raise ValueError(
                    f"SessionOptions.{mine}={value!r} and LaunchOptions.{theirs}={current!r} differ: give one"
                )
            changes[theirs] = value
        if session.allowed_domains is not None:
            if opts.allowed_domains is not None and opts.allowed_domains != session.allowed_domains:
                raise ValueError(
                    f"SessionOptions.allowed_domains={list(session.allowed_domains)!r} and "
                    f"LaunchOptions.allowed_domains={list(opts.allowed_domains)!r} differ: give one"
                )
            changes["allowed_domains"] = session.allowed_domains
        if session.allow_file_access:
            changes["allow_file_access"] = True
        if session.auto_dialogs:
            changes["auto_dialogs"] = True
        if session.content_boundaries:
            changes["content_boundaries"] = True
        if session.max_output is not None:
            changes["max_output"] = session.max_output
        if session.restore is not None:
            changes["restore"] = session.restore
        if session.dashboard is not None:
            changes["dashboard"] = session.dashboard
        if session.timeout_ms is not None:
            changes["timeout_ms"] = session.timeout_ms
        policy_fields: tuple[tuple[str, object], ...] = (
            ("action_policy", session.action_policy),
            ("confirm_timeout_ms", session.confirm_timeout_ms),
        )
        for name, given in policy_fields:
            if given is None:
                continue
            current = getattr(opts, name)
            if current is not None and current != given:
                raise ValueError(f"SessionOptions and LaunchOptions.{name}={current!r} differ: give one")
            changes[name] = given
        if session.confirm_actions:
            changes["confirm_actions"] = tuple(dict.fromkeys((*opts.confirm_actions, *session.confirm_actions)))
    return dataclasses.replace(opts, **changes) if changes else opts
