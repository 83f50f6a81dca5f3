"""Finding the ``agentbrowser`` binary and the per-session socket paths."""

from __future__ import annotations

import os
import stat
import tempfile
import shutil
import sys
from pathlib import Path

from .errors import BrowserError, BrowserInstallError

BINARY = "agentbrowser"
ENV_BIN = "AGENTBROWSER_BIN"

_HINT = (
    "Install the package with `pip install agentbrowser-engine` (it ships both binaries), build them with "
    "`scripts/build-release.sh` in a checkout, or set AGENTBROWSER_BIN to the `agentbrowser` binary's path "
    "(with `agentbrowser-engine` in the same directory)"
)


def find_binary() -> str:
    """The binary: ``$AGENTBROWSER_BIN``, else next to the interpreter, else on ``PATH``."""
    explicit = os.environ.get(ENV_BIN)
    if explicit:
        path = Path(explicit).expanduser()
        if path.is_file() and os.access(path, os.X_OK):
            return str(path)
        raise BrowserInstallError(
            f"{ENV_BIN}={explicit!r} is not an executable file",
            hint="Point it at the agentbrowser binary or unset it",
        )
    for directory in _interpreter_dirs():
        candidate = directory / BINARY
        if candidate.is_file() and os.access(candidate, os.X_OK):
            return str(candidate)
    found = shutil.which(BINARY)
    if found:
        return found
    raise BrowserInstallError(
        f"the `{BINARY}` binary was not found ({ENV_BIN} unset, not next to {sys.executable}, not on PATH)",
        hint=_HINT,
    )


def _interpreter_dirs() -> list[Path]:
    dirs: list[Path] = []
    if sys.executable:
        exe = Path(sys.executable)
        dirs.append(exe.parent)
        try:
            resolved = exe.resolve().parent
        except OSError:
            resolved = exe.parent
        if resolved != exe.parent:
            dirs.append(resolved)
    return dirs


def socket_dir() -> Path:
    """``$AGENTBROWSER_SOCKET_DIR``, else ``$XDG_RUNTIME_DIR/agentbrowser``, else ``~/.agentbrowser/run``,
    else (no home) ``$TMPDIR/agentbrowser-<uid>``: the same choice as the CLI's."""
    explicit = os.environ.get("AGENTBROWSER_SOCKET_DIR")
    if explicit:
        return Path(explicit)
    runtime = os.environ.get("XDG_RUNTIME_DIR")
    if runtime:
        return Path(runtime) / "agentbrowser"
    home = os.environ.get("HOME")
    if home:
        return Path(home) / ".agentbrowser" / "run"
    return Path(tempfile.gettempdir()) / f"agentbrowser-{os.geteuid()}"


def untrusted_dir(path: Path) -> str | None:
    """Why a socket directory cannot be trusted (not ours, writable by others, a symlink), or None."""
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return None
    if stat.S_ISLNK(st.st_mode):
        return f"{path} is a symlink"
    if not stat.S_ISDIR(st.st_mode):
        return f"{path} is not a directory"
    if st.st_uid != os.geteuid():
        return f"{path} is owned by uid {st.st_uid}, not by you (uid {os.geteuid()})"
    if st.st_mode & 0o022:
        return f"{path} is writable by others (mode {st.st_mode & 0o777:o})"
    return None


def socket_path(session: str) -> Path:
    """The Unix socket of a named session (BrowserError when its directory cannot be trusted)."""
    directory = socket_dir()
    why = untrusted_dir(directory)
    if why is not None:
        raise BrowserError(f"refusing the socket directory: {why}", code="invalid_argument")
    return directory / f"{session}.sock"
