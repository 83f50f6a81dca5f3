"""Request interception models: :class:`RouteResponse` (the answer a route gives),
:class:`Route` (a route of the session with its hits), and :class:`ProxyConfig` (the proxy
set at launch)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from .. import _wire_types as w

#: What a route does with the requests it matches.
RouteAction = Literal["fulfill", "abort", "continue"]
#: Network errors a route can abort with (Chromium's names, lower case).
ABORT_REASONS: tuple[str, ...] = (
    "failed", "aborted", "timedout", "accessdenied", "connectionclosed", "connectionreset",
    "connectionrefused", "connectionaborted", "connectionfailed", "namenotresolved",
    "internetdisconnected", "addressunreachable", "blockedbyclient", "blockedbyresponse",
)
#: Resource types a route can be limited to.
RESOURCE_TYPES: tuple[str, ...] = (
    "document", "stylesheet", "image", "media", "font", "script", "texttrack", "xhr", "fetch",
    "prefetch", "eventsource", "websocket", "manifest", "signedexchange", "ping",
    "cspviolationreport", "preflight", "other",
)


@dataclass(frozen=True, slots=True)
class RouteResponse:
    """The answer a route gives instead of the network: ``status`` (default 200), ``body``
    (str or bytes), ``content_type`` and response ``headers``."""

    status: int | None = None
    body: str | bytes | None = None
    content_type: str | None = None
    headers: Mapping[str, str] | None = None

    def __post_init__(self) -> None:
        if self.status is not None and (isinstance(self.status, bool) or not isinstance(self.status, int)):
            raise TypeError(f"RouteResponse.status must be an int or None, got {type(self.status).__name__}")
        if self.status is not None and not 100 <= self.status <= 599:
            raise ValueError(f"RouteResponse.status must be an HTTP status (100 to 599), got {self.status}")
        if self.body is not None and not isinstance(self.body, (str, bytes)):
            raise TypeError(f"RouteResponse.body must be str, bytes or None, got {type(self.body).__name__}")
        if self.content_type is not None and not isinstance(self.content_type, str):
            raise TypeError("RouteResponse.content_type must be a str or None")
        if self.headers is not None:
            if not isinstance(self.headers, Mapping) or not all(
                isinstance(k, str) and isinstance(v, str) for k, v in self.headers.items()
            ):
                raise TypeError("RouteResponse.headers must be a mapping of str to str or None")
            object.__setattr__(self, "headers", dict(self.headers))

    @classmethod
    def of(cls, value: RouteResponse | Mapping[str, Any]) -> RouteResponse:
        """A RouteResponse from itself or a mapping with its field names."""
        if isinstance(value, RouteResponse):
            return value
        if isinstance(value, Mapping):
            unknown = set(value) - {"status", "body", "content_type", "headers"}
            if unknown:
                raise ValueError(
                    f"response has unknown keys {sorted(unknown)}; allowed: status, body, content_type, headers"
                )
            return cls(**dict(value))
        raise TypeError(f"response must be a RouteResponse or a mapping, got {type(value).__name__}")

    def as_command_value(self) -> dict[str, Any]:
        """pyagentbrowser's command form: ``status``, ``body``, ``contentType`` and ``headers``,
        the ones set."""
        value = {"status": self.status, "body": self.body, "contentType": self.content_type, "headers": self.headers}
        return {k: dict(v) if isinstance(v, Mapping) else v for k, v in value.items() if v is not None}


@dataclass(frozen=True, slots=True)
class Route:
    """A route of the session: its URL glob, what it does, its filter and how often it matched."""

    url: str
    action: RouteAction
    status: int | None
    abort: str | None
    content_type: str | None
    body_bytes: int | None
    header_names: tuple[str, ...]
    resource_types: tuple[str, ...]
    hits: int
    times: int | None
    remaining: int | None
    raw: Mapping[str, Any] = field(repr=False, compare=False)
    #: Names of the request headers a continuing route takes out.
    removed_header_names: tuple[str, ...] = ()

    @classmethod
    def from_wire(cls, wire: w.RouteInfo, raw: Mapping[str, Any]) -> Route:
        """Build from the decoded wire object and its mapping."""
        return cls(
            url=wire.url,
            action=wire.action,
            status=wire.status,
            abort=wire.abort,
            content_type=wire.content_type,
            body_bytes=wire.body_bytes,
            header_names=tuple(wire.header_names),
            resource_types=tuple(wire.resource_types),
            hits=wire.hits,
            times=wire.times,
            remaining=wire.remaining,
            removed_header_names=tuple(wire.removed_header_names or ()),
            raw=raw,
        )


@dataclass(frozen=True, slots=True)
class ProxyConfig:
    """The proxy every request goes through, set at launch: ``server`` is
    ``scheme://host:port`` (http, https or socks5; ``user:pass@`` in it counts as the
    credentials), ``bypass`` a comma-separated host list, ``username``/``password`` answer the
    proxy's authentication challenges (never on Chromium's command line)."""

    server: str
    bypass: str | None = None
    username: str | None = None
    password: str | None = field(default=None, repr=False)

    def __post_init__(self) -> None:
        if not isinstance(self.server, str) or "://" not in self.server:
            raise ValueError(
                f"ProxyConfig.server must be a URL scheme://host:port (http, https or socks5), got {self.server!r}"
            )
        for name in ("bypass", "username", "password"):
            v = getattr(self, name)
            if v is not None and not isinstance(v, str):
                raise TypeError(f"ProxyConfig.{name} must be a str or None, got {type(v).__name__}")
        if isinstance(self.bypass, str) and any(c in self.bypass for c in " \r\n"):
            raise ValueError("ProxyConfig.bypass is a comma-separated host list without spaces")

    @classmethod
    def of(cls, value: ProxyConfig | str | Mapping[str, Any]) -> ProxyConfig:
        """A ProxyConfig from itself, a server URL or a mapping with its field names."""
        if isinstance(value, ProxyConfig):
            return value
        if isinstance(value, str):
            return cls(value)
        if isinstance(value, Mapping):
            return cls(**dict(value))
        raise TypeError(f"proxy must be a ProxyConfig, a URL or a mapping, got {type(value).__name__}")

    def as_command_value(self) -> dict[str, Any]:
        """pyagentbrowser's command form: ``server``, ``bypass``, ``username`` and ``password``,
        the ones set (``to_wire`` is the ``launch`` parameters)."""
        value = {"server": self.server, "bypass": self.bypass, "username": self.username, "password": self.password}
        return {k: v for k, v in value.items() if v is not None}

    def to_wire(self) -> dict[str, Any]:
        """The ``launch`` action's proxy parameters."""
        wire: dict[str, Any] = {"proxyServer": self.server}
        for key, v in (("proxyBypass", self.bypass), ("proxyUsername", self.username), ("proxyPassword", self.password)):
            if v is not None:
                wire[key] = v
        return wire
