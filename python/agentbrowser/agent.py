"""A registry of named :class:`~agentbrowser.aio.AsyncBrowser` objects that stay alive across code-mode cells.

>>> from agentbrowser import agent
>>> browser = await agent.create("shop")          # launched, session id "shop"
>>> agent.get("shop") is browser
True
>>> await agent.close_all()

Names are 1-64 characters of ``[A-Za-z0-9_-]``; the browser's session id defaults to its
name.  The registry is per process; its browsers belong to the event loop that created them.
"""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Mapping

from ._common import CLOSE_TIMEOUT_S
from .aio import AsyncBrowser
from .models import CloseResult, SessionStatus
from .options import SESSION_NAME, LaunchOptions

__all__ = ["CloseAllError", "close", "close_all", "create", "get", "names", "status"]

_BROWSERS: dict[str, AsyncBrowser] = {}
_PENDING: set[str] = set()


class CloseAllError(RuntimeError):
    """Some browsers failed to close in :func:`close_all`: ``results`` of those that closed, ``errors`` of the rest."""

    def __init__(self, results: Mapping[str, CloseResult], errors: Mapping[str, BaseException]) -> None:
        self.results: dict[str, CloseResult] = dict(results)
        self.errors: dict[str, BaseException] = dict(errors)
        detail = "; ".join(f"{n}: {type(e).__name__}: {e}" for n, e in sorted(self.errors.items()))
        total = len(self.results) + len(self.errors)
        super().__init__(f"{len(self.errors)} of {total} browsers failed to close: {detail}")


def _check_name(name: object) -> str:
    if not isinstance(name, str) or not SESSION_NAME.match(name):
        raise ValueError(f"browser names are 1-64 characters of letters, digits, '_' or '-', got {name!r}")
    return name


async def create(name: str = "default", *, options: LaunchOptions | None = None) -> AsyncBrowser:
    """Launch a browser registered as ``name`` (``options.session`` defaults to the name).

    ValueError for a bad name, or a name already registered to an open browser (a closed
    one is replaced).
    """
    _check_name(name)
    if name in _PENDING or (name in _BROWSERS and not _BROWSERS[name].closed):
        raise ValueError(f"a browser named {name!r} is already registered")
    if options is not None and not isinstance(options, LaunchOptions):
        raise TypeError(f"options must be a LaunchOptions, got {type(options).__name__}")
    opts = options or LaunchOptions()
    if opts.session is None:
        opts = dataclasses.replace(opts, session=name)
    _PENDING.add(name)
    try:
        browser = await AsyncBrowser.launch(opts)
    finally:
        _PENDING.discard(name)
    _BROWSERS[name] = browser
    return browser


def get(name: str) -> AsyncBrowser:
    """The browser registered as ``name``: KeyError when there is none, RuntimeError when it was closed."""
    try:
        browser = _BROWSERS[name]
    except KeyError:
        raise KeyError(f"no browser named {name!r} (registered: {', '.join(names()) or 'none'})") from None
    if browser.closed:
        raise RuntimeError(f"the browser named {name!r} is closed")
    return browser


def names() -> tuple[str, ...]:
    """The registered names, sorted."""
    return tuple(sorted(_BROWSERS))


async def close(name: str, *, timeout: float = CLOSE_TIMEOUT_S) -> CloseResult:
    """Close the browser registered as ``name`` and unregister it (KeyError when there is none).

    The name is unregistered even when closing fails (the browser is closed or killed then).
    """
    try:
        browser = _BROWSERS[name]
    except KeyError:
        raise KeyError(f"no browser named {name!r}") from None
    try:
        return await browser.close(timeout=timeout)
    finally:
        if _BROWSERS.get(name) is browser:
            del _BROWSERS[name]


async def close_all(*, timeout: float = CLOSE_TIMEOUT_S) -> dict[str, CloseResult]:
    """Close every registered browser (all are tried, concurrently); CloseAllError when any failed."""
    todo = names()
    outcomes = await asyncio.gather(*(close(n, timeout=timeout) for n in todo), return_exceptions=True)
    results: dict[str, CloseResult] = {}
    errors: dict[str, BaseException] = {}
    for n, outcome in zip(todo, outcomes, strict=True):
        if isinstance(outcome, BaseException):
            errors[n] = outcome
        else:
            results[n] = outcome
    if errors:
        raise CloseAllError(results, errors)
    return results


async def status(name: str) -> SessionStatus:
    """The session status of the browser registered as ``name`` (as :func:`get` for missing or closed ones)."""
    return await get(name).status()
