"""``ensure_installed()``: the Chromium a launch will use, found the way the engine finds it.

agentbrowser drives an installed Chromium and never downloads one (the engine works offline):
where pyagentbrowser would download Chrome for Testing, this raises
:class:`~agentbrowser.BrowserInstallError` saying what to install.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Literal, TypeAlias

from .errors import BrowserInstallError

__all__ = ["InstallResult", "InstallSource", "ensure_installed", "EXECUTABLE_NAMES", "EXECUTABLE_ENV"]

#: Where the executable was found: ``environment`` (``AGENTBROWSER_EXECUTABLE_PATH``) or
#: ``system`` (on ``PATH``). pyagentbrowser's ``cache`` and ``download`` never occur here.
InstallSource: TypeAlias = Literal["environment", "cache", "system", "download"]

#: The variable naming the Chromium executable, first in the engine's search order.
EXECUTABLE_ENV = "AGENTBROWSER_EXECUTABLE_PATH"
#: The names the engine looks for on ``PATH``, in order (``crates/engine/src/launch.rs``).
EXECUTABLE_NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
#: How long ``--version`` may take before the version is left unknown.
VERSION_TIMEOUT_S = 10.0


@dataclass(frozen=True, slots=True)
class InstallResult:
    """The Chromium executable a local launch uses: its path, its version (None when it could
    not be read), where it was found, and whether this call installed it (never: see module)."""

    executable_path: Path
    version: str | None
    source: InstallSource
    installed: bool


def ensure_installed(*, progress: bool = True) -> InstallResult:
    """The Chromium executable a local launch will use, found in the engine's order:
    ``AGENTBROWSER_EXECUTABLE_PATH``, then ``chromium``, ``chromium-browser``,
    ``google-chrome``, ``google-chrome-stable`` on ``PATH``.

    Nothing is downloaded (``progress`` is accepted for pyagentbrowser's signature; there is no
    download to show): when no executable is found, or the variable names a path that is not
    an executable file, BrowserInstallError says what to install.
    """
    named = os.environ.get(EXECUTABLE_ENV, "")
    if named:
        path = Path(named).expanduser()
        if not (path.is_file() and os.access(path, os.X_OK)):
            raise BrowserInstallError(
                f"{EXECUTABLE_ENV}={named!r} is not an executable file",
                hint="point it at a Chromium or Chrome executable, or unset it to search PATH for "
                + ", ".join(EXECUTABLE_NAMES),
            )
        return InstallResult(path, _version(path), "environment", False)
    for name in EXECUTABLE_NAMES:
        found = shutil.which(name)
        if found is not None:
            path = Path(found)
            return InstallResult(path, _version(path), "system", False)
    raise BrowserInstallError(
        f"no Chromium found: looked for {', '.join(EXECUTABLE_NAMES)} on PATH and {EXECUTABLE_ENV} is not set",
        hint=(
            "Install one (Debian/Ubuntu: `apt-get install chromium`; Fedora: `dnf install chromium`; "
            f"macOS: install Google Chrome) or set {EXECUTABLE_ENV} to a Chromium or Chrome executable. "
            "agentbrowser does not download browsers: no download is possible offline"
        ),
    )


def _version(path: Path) -> str | None:
    """The dotted version ``path --version`` prints (``Chromium 131.0.6778.85`` gives
    ``131.0.6778.85``), or None when it fails or takes longer than VERSION_TIMEOUT_S."""
    try:
        done = subprocess.run(
            [str(path), "--version"],
            capture_output=True,
            text=True,
            timeout=VERSION_TIMEOUT_S,
            stdin=subprocess.DEVNULL,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    match = re.search(r"\d+(?:\.\d+)+", done.stdout)
    return match.group(0) if done.returncode == 0 and match else None
