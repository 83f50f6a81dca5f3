"""``session_id()``: a stable session name per project directory, derived by the ``agentbrowser``
binary (``session id``), the one implementation of the rule."""

from __future__ import annotations

import json
import os
import subprocess
from typing import Any

from . import _wire_types as w
from ._binary import find_binary
from .errors import AgentBrowserError
from .models.session import SessionId

_SCOPES = ("worktree", "cwd", "git-root")

#: How long the binary may take to answer, in seconds.
_TIMEOUT_S = 10.0


def session_id(
    *,
    scope: str = "worktree",
    prefix: str | None = None,
    path: str | os.PathLike[str] | None = None,
) -> SessionId:
    """The session name for a directory: ``<prefix>-<first 12 hex of SHA-256 of its canonical path>``.

    ``scope`` picks the directory: ``worktree`` (the git worktree's top; the directory itself
    outside git), ``cwd`` (the directory itself) or ``git-root`` (the main repository's top, the
    same for every linked worktree; ValueError outside git). ``prefix`` defaults to the
    directory's name (lower-cased; runs of characters other than letters and digits become
    ``-``). ``path`` starts from another directory than the working directory.
    """
    if scope not in _SCOPES:
        raise ValueError(f"session_id() scope must be one of {', '.join(_SCOPES)}, got {scope!r}")
    if prefix is not None and not isinstance(prefix, str):
        raise TypeError(f"session_id() prefix must be a str or None, got {type(prefix).__name__}")
    args = [find_binary(), "--json", "session", "id", "--scope", scope]
    if prefix is not None:
        args += ["--prefix", prefix]
    if path is not None:
        if not isinstance(path, (str, os.PathLike)):
            raise TypeError(f"session_id() path must be a str or path, got {type(path).__name__}")
        text = os.fspath(path)
        if not isinstance(text, str):
            raise TypeError("session_id() path must be a str path, got bytes")
        args += ["--path", os.path.abspath(text)]
    env = {k: v for k, v in os.environ.items() if k != "AGENTBROWSER_SESSION"}
    try:
        done = subprocess.run(args, capture_output=True, text=True, timeout=_TIMEOUT_S, env=env, check=False)
    except subprocess.TimeoutExpired as e:
        raise AgentBrowserError(f"`agentbrowser session id` did not answer within {_TIMEOUT_S:g} s") from e
    lines = [line for line in done.stdout.splitlines() if line.strip()]
    try:
        envelope: Any = json.loads(lines[-1])
    except (IndexError, ValueError) as e:
        raise AgentBrowserError(
            f"`agentbrowser session id` printed no JSON envelope (exit {done.returncode}): {done.stderr.strip()[:500]}"
        ) from e
    if not isinstance(envelope, dict):
        raise AgentBrowserError("`agentbrowser session id` printed JSON that is not an envelope")
    if not envelope.get("success"):
        message = str(envelope.get("error") or "session id failed")
        if envelope.get("code") == "invalid_argument":
            raise ValueError(message)
        raise AgentBrowserError(message)
    return SessionId.from_wire(w.decode_result("session_id", envelope.get("data")))
