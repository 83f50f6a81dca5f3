"""Emulation and scripts: the session's :class:`EmulationSettings` (what every tab gets, also
tabs opened later), the :class:`Device` table, and what :meth:`Scripts.add` and
:meth:`Scripts.add_style` added (:class:`Injection`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from .. import _wire_types as w
from ._records import WireModel

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


#: An emulated viewport in CSS pixels (``width``, ``height``, ``device_scale_factor``, ``mobile``).
Viewport = w.Viewport
#: An emulated position (``latitude``, ``longitude`` in degrees, ``accuracy`` in meters).
Geolocation = w.Geolocation
#: Permissions granted (``permissions``; ``origin`` None: every origin).
PermissionGrant = w.PermissionGrant
#: An init script of the session: its ``id``, size in ``bytes``, the file it came from (``path``;
#: None: inline) and its first line (``preview``).
InitScript = w.InitScript


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
    #: Other emulated media features by name (``{"prefers-contrast": "more"}``; empty: none).
    features: dict[str, str] = field(default_factory=dict)

    @classmethod
    def from_wire(cls, wire: w.SettingsOutput) -> EmulationSettings:
        """Build from the decoded ``settings`` / ``set_*`` data."""
        e = wire.emulation
        return cls(
            viewport=e.viewport,
            device=e.device,
            touch=e.touch,
            user_agent=e.user_agent,
            color_scheme=e.color_scheme,
            reduced_motion=e.reduced_motion,
            media=e.media,
            timezone=e.timezone,
            locale=e.locale,
            geolocation=e.geolocation,
            permissions=e.permissions,
            offline=e.offline,
            init_scripts=wire.init_scripts,
            applied_tabs=wire.applied_tabs,
            throttle=NetworkThrottle.from_wire(e.throttle) if e.throttle is not None else None,
            features={f.name: f.value for f in (e.features or ())},
        )


class Device(WireModel, w.DeviceInfo):
    """A device of the ``emulation.device()`` table (``user_agent`` None: the browser's is kept)."""

    __slots__ = ()


class Injection(WireModel, w.Injected):
    """What ``scripts.add`` or ``scripts.add_style`` added to the active page: ``kind``
    (``"script"`` or ``"style"``), its tab, the absolute URL loaded (None: inline) and the
    inline source's size (None: a URL)."""

    __slots__ = ()
