"""Restore and autosave of a session's state (``SessionOptions(restore=RestoreOptions(...))``).

The session's state file ``<state dir>/<key>.json`` (cookies, localStorage and IndexedDB,
encrypted with the key of ``key_file``, else ``AGENTBROWSER_ENCRYPTION_KEY``, else the file
``AGENTBROWSER_ENCRYPTION_KEY_FILE`` names, when one is given) is loaded when the session's browser starts,
before its first navigation, and saved on close, when the daemon is terminated, on idle exit
and every ``autosave_interval_ms``.  ``close()`` returns the outcome as a
:class:`~agentbrowser.CloseResult` and raises :class:`~agentbrowser.RestoreSaveError` after
cleanup when saving failed.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

from .errors import RestoreSaveError
from .models.session import CloseResult

__all__ = ["RestoreOptions", "SAVE_POLICIES", "restore_argv", "raise_if_save_failed"]

#: What ``save`` may be: ``auto`` saves unless the restore failed, ``always`` saves whatever the
#: restore did, ``never`` saves nothing.
SAVE_POLICIES = ("auto", "always", "never")
#: What a restore key may be (it names the state file).
KEY = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
#: The largest autosave interval (the engine's u64 milliseconds).
MAX_INTERVAL_MS = 2**64 - 1


def _check_text(label: str, value: object) -> None:
    if value is None:
        return
    if not isinstance(value, str):
        raise TypeError(f"{label} must be a str or None, got {type(value).__name__}")
    if not value.strip():
        raise ValueError(f"{label} must not be empty")


@dataclass(frozen=True, slots=True)
class RestoreOptions:
    """Restore the session's state from the state file ``key`` and save it back.

    ``key`` names the state file (1-64 letters, digits, ``-``, ``_``; None: the session's
    name); ``save`` is ``"auto"`` (save unless the restore failed, so a file that could not
    be read is kept), ``"always"`` or ``"never"``; ``autosave_interval_ms`` is the time
    between autosaves (0: on close only); ``check_url`` (a URL pattern: glob, whole URL or URL part), ``check_text`` (text on
    the page) and ``check_fn`` (a JavaScript function returning a truthy value) decide, after
    the first navigation, whether a restored session is still valid (``loaded``) or not
    (``loaded_but_invalid``); ``key_file`` is a file holding the encryption key (64 hex
    characters; made absolute here; a file that holds no key fails the session's start).

    Wrong types raise TypeError, bad values ValueError; both name the field.
    """

    key: str | None = None
    save: str = "auto"
    autosave_interval_ms: int = 30_000
    check_url: str | None = None
    check_text: str | None = None
    check_fn: str | None = None
    key_file: str | os.PathLike[str] | None = None

    def __post_init__(self) -> None:
        if self.key is not None:
            if not isinstance(self.key, str):
                raise TypeError(f"RestoreOptions.key must be a str or None, got {type(self.key).__name__}")
            if not KEY.match(self.key):
                raise ValueError(
                    f"RestoreOptions.key {self.key!r} must be 1 to 64 letters, digits, '-' or '_' (it names the state file)"
                )
        if not isinstance(self.save, str):
            raise TypeError(f"RestoreOptions.save must be a str, got {type(self.save).__name__}")
        if self.save not in SAVE_POLICIES:
            raise ValueError(f"RestoreOptions.save {self.save!r} must be one of {', '.join(SAVE_POLICIES)}")
        ms = self.autosave_interval_ms
        if isinstance(ms, bool) or not isinstance(ms, int):
            raise TypeError(f"RestoreOptions.autosave_interval_ms must be an int, got {type(ms).__name__}")
        if not 0 <= ms <= MAX_INTERVAL_MS:
            raise ValueError(f"RestoreOptions.autosave_interval_ms must be 0 to 2**64-1 milliseconds, got {ms}")
        _check_text("RestoreOptions.check_url", self.check_url)
        _check_text("RestoreOptions.check_text", self.check_text)
        _check_text("RestoreOptions.check_fn", self.check_fn)
        if self.key_file is not None:
            if not isinstance(self.key_file, (str, os.PathLike)):
                raise TypeError(
                    f"RestoreOptions.key_file must be a str, a path or None, got {type(self.key_file).__name__}"
                )
            if not os.fspath(self.key_file):
                raise ValueError("RestoreOptions.key_file must not be empty")


def restore_argv(restore: RestoreOptions | None) -> list[str]:
    """The daemon's command-line options for ``restore`` (none without it)."""
    if restore is None:
        return []
    argv = [f"--restore={restore.key or ''}", "--restore-save", restore.save]
    argv += ["--autosave-interval", str(restore.autosave_interval_ms)]
    for flag, value in (
        ("--restore-check-url", restore.check_url),
        ("--restore-check-text", restore.check_text),
        ("--restore-check-fn", restore.check_fn),
    ):
        if value is not None:
            argv.append(f"{flag}={value}")
    if restore.key_file is not None:
        argv.append(f"--restore-key-file={Path(os.fspath(restore.key_file)).expanduser().absolute()}")
    return argv


def raise_if_save_failed(result: CloseResult) -> CloseResult:
    """``result``, or RestoreSaveError carrying it when saving the session's state failed."""
    if result.save_error is not None:
        raise RestoreSaveError(
            f"the session closed, but its state was not saved ({result.save_status}): {result.save_error}",
            result=result,
        )
    return result
