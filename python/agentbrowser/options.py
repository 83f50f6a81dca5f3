"""Launch options, validated when built."""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

__all__ = ["LaunchOptions", "SESSION_NAME"]

SESSION_NAME = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
#: The longest request timeout the protocol accepts, in milliseconds (24 hours).
MAX_TIMEOUT_MS = 86_400_000
#: The largest window side the protocol accepts, in pixels.
MAX_WINDOW_SIDE = 16_384
_CDP_SCHEMES = ("ws://", "wss://", "http://", "https://")
#: The largest viewport side the protocol accepts, in CSS pixels.
MAX_VIEWPORT_SIDE = 10_000
_COLOR_SCHEMES = ("dark", "light", "no-preference")


@dataclass(frozen=True, slots=True)
class LaunchOptions:
    """How :meth:`Browser.launch` starts (or attaches to) Chromium.

    ``headless`` runs without a window; ``executable_path`` picks the Chromium binary
    (default: discovery); ``args`` adds Chromium flags; ``window_size`` is ``(width,
    height)`` in pixels; ``timeout_ms`` is the default per-command timeout; ``session``
    names the session (its identity in ``status()``); ``cdp_url`` attaches to a running
    browser (``ws://…`` or ``http://host:port``) instead of launching one;
    ``download_path`` is the directory downloads are saved in (made absolute; default a
    per-session directory under ``$TMPDIR``); ``auto_dialogs`` answers every JavaScript
    dialog at once (confirm and prompt dismissed) instead of leaving confirm and prompt open
    for ``browser.dialogs``; ``user_agent``, ``color_scheme`` (``"dark"``, ``"light"``,
    ``"no-preference"``) and ``viewport`` (``(width, height)`` in CSS pixels) are the session's
    emulation every tab starts with (``browser.emulation`` changes it later).

    Wrong types raise TypeError, bad values ValueError; both name the field.
    """

    headless: bool = True
    executable_path: str | os.PathLike[str] | None = None
    args: Sequence[str] = ()
    window_size: tuple[int, int] | None = None
    timeout_ms: int = 30000
    session: str | None = None
    cdp_url: str | None = None
    download_path: str | os.PathLike[str] | None = None
    auto_dialogs: bool = False
    user_agent: str | None = None
    color_scheme: str | None = None
    viewport: tuple[int, int] | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.auto_dialogs, bool):
            raise TypeError(f"LaunchOptions.auto_dialogs must be a bool, got {type(self.auto_dialogs).__name__}")
        if not isinstance(self.headless, bool):
            raise TypeError(f"LaunchOptions.headless must be a bool, got {type(self.headless).__name__}")
        if self.executable_path is not None:
            if not isinstance(self.executable_path, (str, os.PathLike)):
                raise TypeError(
                    f"LaunchOptions.executable_path must be a str or path, got {type(self.executable_path).__name__}"
                )
            path = os.fspath(self.executable_path)
            if not isinstance(path, str) or not path:
                raise ValueError("LaunchOptions.executable_path must be a non-empty path")
            object.__setattr__(self, "executable_path", path)
        args: Any = self.args
        if isinstance(args, (str, bytes)) or not isinstance(args, Sequence):
            raise TypeError(f"LaunchOptions.args must be a sequence of strings, got {type(args).__name__}")
        for i, a in enumerate(args):
            if not isinstance(a, str):
                raise TypeError(f"LaunchOptions.args[{i}] must be a string, got {type(a).__name__}")
        object.__setattr__(self, "args", tuple(args))
        if self.window_size is not None:
            size: Any = self.window_size
            if not isinstance(size, (tuple, list)) or len(size) != 2:
                raise TypeError("LaunchOptions.window_size must be a (width, height) tuple of ints or None")
            for axis, v in zip(("width", "height"), size, strict=True):
                if isinstance(v, bool) or not isinstance(v, int):
                    raise TypeError(f"LaunchOptions.window_size {axis} must be an int, got {type(v).__name__}")
                if not 1 <= v <= MAX_WINDOW_SIDE:
                    raise ValueError(f"LaunchOptions.window_size {axis} must be within 1..{MAX_WINDOW_SIDE}, got {v}")
            object.__setattr__(self, "window_size", (size[0], size[1]))
        if isinstance(self.timeout_ms, bool) or not isinstance(self.timeout_ms, int):
            raise TypeError(
                f"LaunchOptions.timeout_ms must be an int of milliseconds, got {type(self.timeout_ms).__name__}"
            )
        if not 0 <= self.timeout_ms <= MAX_TIMEOUT_MS:
            raise ValueError(
                f"LaunchOptions.timeout_ms must be within 0..{MAX_TIMEOUT_MS} milliseconds (24 hours, the protocol's "
                f"range), got {self.timeout_ms}"
            )
        if self.session is not None:
            if not isinstance(self.session, str):
                raise TypeError(f"LaunchOptions.session must be a str or None, got {type(self.session).__name__}")
            if not SESSION_NAME.match(self.session):
                raise ValueError(
                    f"LaunchOptions.session must be 1-64 characters of letters, digits, '_' or '-', "
                    f"got {self.session!r}"
                )
        if self.cdp_url is not None:
            if not isinstance(self.cdp_url, str):
                raise TypeError(f"LaunchOptions.cdp_url must be a str or None, got {type(self.cdp_url).__name__}")
            if not self.cdp_url.startswith(_CDP_SCHEMES):
                raise ValueError(
                    f"LaunchOptions.cdp_url must start with ws://, wss://, http:// or https://, got {self.cdp_url!r}"
                )

        if self.download_path is not None:
            if not isinstance(self.download_path, (str, os.PathLike)):
                raise TypeError(
                    f"LaunchOptions.download_path must be a str or path, got {type(self.download_path).__name__}"
                )
            d = os.fspath(self.download_path)
            if not isinstance(d, str) or not d:
                raise ValueError("LaunchOptions.download_path must be a non-empty path")
            object.__setattr__(self, "download_path", os.path.abspath(d))

        if self.user_agent is not None:
            if not isinstance(self.user_agent, str):
                raise TypeError(f"LaunchOptions.user_agent must be a str or None, got {type(self.user_agent).__name__}")
            if not self.user_agent.strip() or "\n" in self.user_agent or len(self.user_agent) > 1000:
                raise ValueError("LaunchOptions.user_agent must be one non-empty line of at most 1000 characters")
        if self.color_scheme is not None:
            if not isinstance(self.color_scheme, str):
                raise TypeError(
                    f"LaunchOptions.color_scheme must be a str or None, got {type(self.color_scheme).__name__}"
                )
            if self.color_scheme not in _COLOR_SCHEMES:
                raise ValueError(
                    f"LaunchOptions.color_scheme must be one of {', '.join(_COLOR_SCHEMES)}, got {self.color_scheme!r}"
                )
        if self.viewport is not None:
            vp: Any = self.viewport
            if not isinstance(vp, (tuple, list)) or len(vp) != 2:
                raise TypeError("LaunchOptions.viewport must be a (width, height) tuple of ints or None")
            for axis, v in zip(("width", "height"), vp, strict=True):
                if isinstance(v, bool) or not isinstance(v, int):
                    raise TypeError(f"LaunchOptions.viewport {axis} must be an int, got {type(v).__name__}")
                if not 1 <= v <= MAX_VIEWPORT_SIDE:
                    raise ValueError(f"LaunchOptions.viewport {axis} must be within 1..{MAX_VIEWPORT_SIDE}, got {v}")
            object.__setattr__(self, "viewport", (vp[0], vp[1]))

    def to_wire(self) -> dict[str, Any]:
        """The ``launch`` action's parameters."""
        wire: dict[str, Any] = {"headless": self.headless}
        if self.executable_path is not None:
            wire["executablePath"] = os.fspath(self.executable_path)
        if self.args:
            wire["args"] = list(self.args)
        if self.window_size is not None:
            wire["windowWidth"], wire["windowHeight"] = self.window_size
        if self.cdp_url is not None:
            wire["cdpUrl"] = self.cdp_url
        if self.download_path is not None:
            wire["downloadPath"] = os.fspath(self.download_path)
        if self.auto_dialogs:
            wire["autoDialogs"] = True
        if self.user_agent is not None:
            wire["userAgent"] = self.user_agent
        if self.color_scheme is not None:
            wire["colorScheme"] = self.color_scheme
        if self.viewport is not None:
            wire["viewportWidth"], wire["viewportHeight"] = self.viewport
        return wire
