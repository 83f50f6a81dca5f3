"""Network: the active tab's request log and one request in full.

:class:`RequestLog` is an immutable sequence of :class:`NetworkRequest` that also says which tab
was read, how many requests matched, whether the list was cut at ``limit`` (``truncated``), how
many fell out of the tab's bounded log before the read (``dropped``) and whether the read cleared
it. :class:`RequestDetail` holds one request's headers and response body.
"""

from __future__ import annotations

import base64
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, overload

from .. import _wire_types as w
from ._bounded import Bounded, clip_repr

#: What a HAR recording keeps of the response bodies.
HarContentMode = Literal["text", "all", "none"]

#: Every HAR content mode.
HAR_CONTENT_MODES: tuple[HarContentMode, ...] = ("text", "all", "none")

#: The resource types ``requests(resource_type=...)`` accepts.
RESOURCE_TYPES: tuple[str, ...] = (
    "document",
    "stylesheet",
    "image",
    "media",
    "font",
    "script",
    "texttrack",
    "xhr",
    "fetch",
    "prefetch",
    "eventsource",
    "websocket",
    "manifest",
    "signedexchange",
    "ping",
    "cspviolationreport",
    "preflight",
    "fedcm",
    "other",
)


@dataclass(frozen=True, slots=True, repr=False)
class NetworkRequest(Bounded):
    """One request of the log (a redirect is one entry per hop): its ``id`` (for
    :meth:`~agentbrowser.Network.request_detail`), URL, method, lowercase ``resource_type`` and
    HTTP ``status`` (None before the response or when it failed).

    ``raw`` holds the whole native entry: ``state`` (``pending``, ``finished``, ``failed``,
    ``redirected``), ``error``, ``source`` (``kind`` page|iframe|worker|popup, ``tab``,
    ``frameId``), ``mimeType``, ``startedAt``, ``durationMs``, ``encodedBytes``, ``fromCache``
    and ``redirectedFrom``.
    """

    id: str
    url: str
    method: str
    resource_type: str
    status: int | None
    raw: Mapping[str, Any] = field(repr=False, compare=False)

    @classmethod
    def from_wire(cls, wire: w.NetworkRequestEntry, raw: Mapping[str, Any]) -> NetworkRequest:
        """Build from the decoded entry ``raw``."""
        return cls(
            id=wire.id,
            url=wire.url,
            method=wire.method,
            resource_type=wire.resource_type,
            status=wire.status,
            raw=raw,
        )


@dataclass(frozen=True, slots=True, repr=False)
class RequestLog:
    """The requests of one read, oldest first: a sequence of :class:`NetworkRequest`.

    ``matched`` counts the requests that passed the filters (more than listed when
    ``truncated``); ``dropped`` counts those that fell out of the log (it keeps the newest 1000
    per tab) before this read.
    """

    requests: tuple[NetworkRequest, ...]
    tab: str
    matched: int
    truncated: bool
    dropped: int
    cleared: bool
    raw: Mapping[str, Any] = field(compare=False)

    @classmethod
    def from_wire(cls, wire: w.NetworkRequestsOutput, raw: Mapping[str, Any]) -> RequestLog:
        """Build from the decoded ``network_requests`` data ``raw``."""
        requests = tuple(
            NetworkRequest.from_wire(r, d) for r, d in zip(wire.requests, raw["requests"], strict=True)
        )
        return cls(
            requests=requests,
            tab=wire.tab,
            matched=wire.matched,
            truncated=wire.truncated,
            dropped=wire.dropped,
            cleared=wire.cleared,
            raw=raw,
        )

    def __len__(self) -> int:
        return len(self.requests)

    def __iter__(self) -> Iterator[NetworkRequest]:
        return iter(self.requests)

    @overload
    def __getitem__(self, i: int) -> NetworkRequest: ...
    @overload
    def __getitem__(self, i: slice) -> tuple[NetworkRequest, ...]: ...
    def __getitem__(self, i: int | slice) -> NetworkRequest | tuple[NetworkRequest, ...]:
        return self.requests[i]

    def __repr__(self) -> str:
        return (
            f"RequestLog(tab={self.tab!r}, requests={clip_repr(self.requests)}, matched={self.matched}, "
            f"truncated={self.truncated}, dropped={self.dropped}, cleared={self.cleared})"
        )


@dataclass(frozen=True, slots=True, repr=False)
class RequestDetail(Bounded):
    """One request in full: its headers and the response ``body`` fetched from Chromium
    (``str`` for text, ``bytes`` for binary; None when there is none: ``raw["bodyUnavailable"]``
    says why, for example Chromium no longer keeps it).

    The body is bounded (``max_bytes``): ``raw["body"]["truncated"]`` says whether it was cut and
    ``raw["body"]["size"]`` is the whole body's size. ``raw`` also holds ``postData``,
    ``statusText``, ``remoteAddress``, ``protocol`` and the log's entry (``request``).
    """

    id: str
    url: str
    method: str
    status: int | None
    request_headers: Mapping[str, str]
    response_headers: Mapping[str, str]
    body: str | bytes | None
    raw: Mapping[str, Any] = field(repr=False, compare=False)

    @classmethod
    def from_wire(cls, wire: w.RequestDetailOutput, raw: Mapping[str, Any]) -> RequestDetail:
        """Build from the decoded ``network_request`` data ``raw``."""
        body: str | bytes | None = None
        if wire.body is not None:
            body = base64.b64decode(wire.body.text) if wire.body.encoding == "base64" else wire.body.text
        return cls(
            id=wire.request.id,
            url=wire.request.url,
            method=wire.request.method,
            status=wire.request.status,
            request_headers=dict(wire.request_headers),
            response_headers=dict(wire.response_headers),
            body=body,
            raw=raw,
        )
