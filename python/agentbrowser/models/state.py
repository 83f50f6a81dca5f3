"""Cookies, web storage and state files: :class:`Cookie` (the seed's model), and the state
directory's listing (:class:`StateFile`, :class:`StateListing`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from .. import _wire_types as w

#: The SameSite values a cookie can have.
SameSite = Literal["Strict", "Lax", "None"]
#: The SameSite values, for checks.
SAME_SITE_VALUES: tuple[str, ...] = ("Strict", "Lax", "None")
#: The web storage areas.
StorageArea = Literal["local", "session"]


@dataclass(frozen=True, slots=True)
class Cookie:
    """One cookie of the session: name, value, domain, path, expiry (seconds since the epoch,
    -1 for a session cookie), security flags, same-site value, and the raw wire data."""

    name: str
    value: str
    domain: str
    path: str
    expires: float
    http_only: bool
    secure: bool
    same_site: str | None
    raw: Mapping[str, Any] = field(compare=False, repr=False)

    def __repr__(self) -> str:
        return f"Cookie(name={self.name!r}, domain={self.domain!r}, path={self.path!r}, value=<{len(self.value)} chars>)"

    @classmethod
    def from_wire(cls, wire: w.CookieInfo, raw: Mapping[str, Any]) -> Cookie:
        """Build from the decoded wire object and its native mapping ``raw``."""
        return cls(
            name=wire.name,
            value=wire.value,
            domain=wire.domain,
            path=wire.path,
            expires=float(wire.expires),
            http_only=wire.http_only,
            secure=wire.secure,
            same_site=wire.same_site,
            raw=raw,
        )


@dataclass(frozen=True, slots=True)
class StateFile:
    """One file of the state directory."""

    filename: str
    path: Path
    size: int
    modified: int
    encrypted: bool

    @classmethod
    def from_wire(cls, wire: w.StateFileInfo) -> StateFile:
        """Build from the decoded wire object."""
        return cls(
            filename=wire.filename,
            path=Path(wire.path),
            size=wire.size,
            modified=wire.modified,
            encrypted=wire.encrypted,
        )


@dataclass(frozen=True, slots=True)
class DirectoryListing:
    """What every listing of one of the SDK's directories (the state directory, the auth vault)
    has: the directory, and whether the listing was cut at 1000."""

    directory: Path
    truncated: bool

    @staticmethod
    def _fields(wire: w.StateListOutput | w.AuthListOutput) -> dict[str, Any]:
        """The fields of this base from a listing's wire object."""
        return {"directory": Path(wire.directory), "truncated": wire.truncated}


@dataclass(frozen=True, slots=True)
class StateListing(DirectoryListing):
    """The state directory and its files, newest first."""

    files: tuple[StateFile, ...]
    raw: Mapping[str, Any] = field(compare=False, repr=False)

    @classmethod
    def from_wire(cls, wire: w.StateListOutput, raw: Mapping[str, Any]) -> StateListing:
        """Build from the decoded wire object and its native mapping ``raw``."""
        return cls(**cls._fields(wire), files=tuple(StateFile.from_wire(f) for f in wire.files), raw=raw)
