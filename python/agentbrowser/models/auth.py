"""The auth vault: :class:`AuthEntry` (an entry without its password), :class:`AuthListing`
and :class:`AuthLogin` (what a login did). No model ever holds a password."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from .. import _wire_types as w
from .state import DirectoryListing

#: How a login submitted its form.
AuthSubmit = Literal["click", "enter"]


@dataclass(frozen=True, slots=True)
class AuthEntry:
    """A vault entry: its name, login URL, username, saved selectors, when it was saved and
    its (encrypted) file. The password is never part of it."""

    name: str
    url: str
    username: str
    username_selector: str | None
    password_selector: str | None
    submit_selector: str | None
    saved_at: int
    path: Path

    @classmethod
    def from_wire(cls, wire: w.AuthEntry) -> AuthEntry:
        """Build from the decoded wire object."""
        return cls(
            name=wire.name,
            url=wire.url,
            username=wire.username,
            username_selector=wire.username_selector,
            password_selector=wire.password_selector,
            submit_selector=wire.submit_selector,
            saved_at=wire.saved_at,
            path=Path(wire.path),
        )


@dataclass(frozen=True, slots=True)
class AuthListing(DirectoryListing):
    """The vault directory, its entries by name, and the files no key here could read."""

    entries: tuple[AuthEntry, ...]
    unreadable: tuple[Path, ...]
    raw: Mapping[str, Any] = field(compare=False, repr=False)

    @classmethod
    def from_wire(cls, wire: w.AuthListOutput, raw: Mapping[str, Any]) -> AuthListing:
        """Build from the decoded wire object and its native mapping ``raw``."""
        entries = tuple(AuthEntry.from_wire(e) for e in wire.entries)
        unreadable = tuple(Path(u.path) for u in wire.unreadable)
        return cls(**cls._fields(wire), entries=entries, unreadable=unreadable, raw=raw)


@dataclass(frozen=True, slots=True)
class AuthLogin:
    """A login that submitted its form: the entry, the username, the page filled, where the
    tab is now, how the form was submitted, whether a new document loaded, the selectors."""

    name: str
    username: str
    login_url: str
    url: str
    title: str
    submit: AuthSubmit
    navigated: bool
    username_selector: str
    password_selector: str
    submit_selector: str | None
    raw: Mapping[str, Any] = field(compare=False, repr=False)

    @classmethod
    def from_wire(cls, wire: w.AuthLoggedIn, raw: Mapping[str, Any]) -> AuthLogin:
        """Build from the decoded wire object and its native mapping ``raw``."""
        return cls(
            name=wire.name,
            username=wire.username,
            login_url=wire.login_url,
            url=wire.url,
            title=wire.title,
            submit=wire.submit,
            navigated=wire.navigated,
            username_selector=wire.selectors.username,
            password_selector=wire.selectors.password,
            submit_selector=wire.selectors.submit,
            raw=raw,
        )
