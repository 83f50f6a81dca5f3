"""Emulation and scripts: the session's :class:`EmulationSettings` (what every tab gets, also
tabs opened later), the :class:`Device` table, and what :meth:`Scripts.add` and
:meth:`Scripts.add_style` added (:class:`Injection`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from .. import _wire_types as w

#: ``prefers-color-scheme`` values.
ColorScheme = Literal["dark", "light", "no-preference"]
#: ``prefers-reduced-motion`` values.
ReducedMotion = Literal["reduce", "no-preference"]
#: CSS media types.
MediaType = Literal["screen", "print"]
#: Every value of each media setting, for checks before a call.
COLOR_SCHEMES: tuple[ColorScheme, ...] = ("dark", "light", "no-preference")
REDUCED_MOTIONS: tuple[ReducedMotion, ...] = ("reduce", "no-preference")
MEDIA_TYPES: tuple[MediaType, ...] = ("screen", "print")


@dataclass(frozen=True, slots=True)
class Viewport:
    """An emulated viewport in CSS pixels."""

    width: int
    height: int
    device_scale_factor: float
    mobile: bool

    @classmethod
    def from_wire(cls, wire: w.Viewport) -> Viewport:
        """Build from the decoded wire object."""
        return cls(wire.width, wire.height, wire.device_scale_factor, wire.mobile)


@dataclass(frozen=True, slots=True)
class Geolocation:
    """An emulated position (degrees, accuracy in meters)."""

    latitude: float
    longitude: float
    accuracy: float

    @classmethod
    def from_wire(cls, wire: w.Geolocation) -> Geolocation:
        """Build from the decoded wire object."""
        return cls(wire.latitude, wire.longitude, wire.accuracy)


@dataclass(frozen=True, slots=True)
class PermissionGrant:
    """Permissions granted (``origin`` None: every origin)."""

    permissions: tuple[str, ...]
    origin: str | None

    @classmethod
    def from_wire(cls, wire: w.PermissionGrant) -> PermissionGrant:
        """Build from the decoded wire object."""
        return cls(tuple(wire.permissions), wire.origin)


@dataclass(frozen=True, slots=True)
class InitScript:
    """An init script of the session: its id, size, the file it came from (None: inline) and its first line."""

    id: str
    bytes: int
    path: str | None
    preview: str

    @classmethod
    def from_wire(cls, wire: w.InitScript) -> InitScript:
        """Build from the decoded wire object."""
        return cls(wire.id, wire.bytes, wire.path, wire.preview)


@dataclass(frozen=True, slots=True)
class NetworkThrottle:
    """The network throttling of every tab: the added latency in milliseconds, the largest
    download and upload rates in kilobits per second (None: unlimited) and the preset it came
    from (``slow-3g``, ``fast-3g``, ``fast-4g``; None: given as values)."""

    latency_ms: int
    download_kbps: int | None
    upload_kbps: int | None
    preset: str | None

    @classmethod
    def from_wire(cls, wire: w.Throttle) -> NetworkThrottle:
        """Build from the decoded wire object."""
        return cls(wire.latency_ms, wire.download_kbps, wire.upload_kbps, wire.preset)


@dataclass(frozen=True, slots=True)
class EmulationSettings:
    """The session's emulation (None or False: not emulated) and init scripts; ``applied_tabs``
    is how many open tabs a change was applied to at once (None for ``settings()``)."""

    viewport: Viewport | None
    device: str | None
    touch: bool
    user_agent: str | None
    color_scheme: ColorScheme | None
    reduced_motion: ReducedMotion | None
    media: MediaType | None
    timezone: str | None
    locale: str | None
    geolocation: Geolocation | None
    permissions: PermissionGrant | None
    offline: bool
    init_scripts: tuple[InitScript, ...]
    applied_tabs: int | None
    throttle: NetworkThrottle | None = None

    @classmethod
    def from_wire(cls, wire: w.SettingsOutput) -> EmulationSettings:
        """Build from the decoded ``settings`` / ``set_*`` data."""
        e = wire.emulation
        return cls(
            viewport=Viewport.from_wire(e.viewport) if e.viewport is not None else None,
            device=e.device,
            touch=e.touch,
            user_agent=e.user_agent,
            color_scheme=e.color_scheme,
            reduced_motion=e.reduced_motion,
            media=e.media,
            timezone=e.timezone,
            locale=e.locale,
            geolocation=Geolocation.from_wire(e.geolocation) if e.geolocation is not None else None,
            permissions=PermissionGrant.from_wire(e.permissions) if e.permissions is not None else None,
            offline=e.offline,
            init_scripts=tuple(InitScript.from_wire(s) for s in wire.init_scripts),
            applied_tabs=wire.applied_tabs,
            throttle=NetworkThrottle.from_wire(e.throttle) if e.throttle is not None else None,
        )


@dataclass(frozen=True, slots=True)
class Device:
    """A device of the ``emulation.device()`` table (``user_agent`` None: the browser's is kept)."""

    name: str
    width: int
    height: int
    device_scale_factor: float
    mobile: bool
    touch: bool
    user_agent: str | None

    @classmethod
    def from_wire(cls, wire: w.DeviceInfo) -> Device:
        """Build from the decoded wire object."""
        return cls(
            wire.name, wire.width, wire.height, wire.device_scale_factor, wire.mobile, wire.touch, wire.user_agent
        )


@dataclass(frozen=True, slots=True)
class Injection:
    """What ``scripts.add`` or ``scripts.add_style`` added to the active page: ``kind``
    (``"script"`` or ``"style"``), its tab, the absolute URL loaded (None: inline) and the
    inline source's size (None: a URL)."""

    kind: str
    tab: str
    url: str | None
    bytes: int | None

    @classmethod
    def from_wire(cls, wire: w.Injected) -> Injection:
        """Build from the decoded wire object."""
        return cls(wire.kind, wire.tab, wire.url, wire.bytes)
