"""What the sync and the async clients share besides operations: option handling and
how a daemon is started (an owned one over stdio, or a session's through the CLI)."""

from __future__ import annotations

import subprocess
from collections.abc import Mapping
from typing import Any

from .errors import BrowserError
from .options import CDPTarget, LaunchOptions, SessionOptions, merge_options
from .restore import RestoreOptions, restore_argv

#: How long ``close()`` waits for an owned daemon to exit before killing it (seconds).
CLOSE_TIMEOUT_S = 15.0


def resolve_options(
    options: LaunchOptions | None, kwargs: Mapping[str, Any], session: SessionOptions | str | None = None
) -> LaunchOptions:
    """``Browser.launch(options)`` or ``Browser.launch(**fields)``, not both, with the session's options.

    A str ``session`` is the older keyword field ``LaunchOptions.session`` (``launch(session="work")``).
    """
    if isinstance(session, str):
        kwargs, session = {**kwargs, "session": session}, None
    if options is not None:
        if kwargs:
            raise TypeError("pass either a LaunchOptions or keyword options, not both")
        if not isinstance(options, LaunchOptions):
            raise TypeError(f"launch() takes a LaunchOptions, got {type(options).__name__}")
        return merge_options(options, session)
    return merge_options(LaunchOptions(**kwargs), session)


def attach_options(target: CDPTarget, launch: LaunchOptions | None, session: SessionOptions | None) -> LaunchOptions:
    """The options of ``attach(target, launch=, session=)``."""
    if not isinstance(target, CDPTarget):
        raise TypeError(f"attach() takes a CDPTarget, got {type(target).__name__}")
    return merge_options(launch, session, target)


def lazy_argv(binary: str, options: LaunchOptions) -> list[str]:
    """The command line of an owned daemon that launches its browser when a command first needs
    one, with the session's download directory and dialog answering as its launch defaults."""
    argv = [binary]
    if options.session is not None:
        argv += ["--session", options.session]
    if options.download_path is not None:
        argv += ["--download-path", str(options.download_path)]
    if options.auto_dialogs:
        argv.append("--auto-dialogs")
    if options.allowed_domains is not None:
        argv.append("--allowed-domains=" + ",".join(options.allowed_domains))
    if options.allow_file_access:
        argv.append("--allow-file-access")
    if options.content_boundaries:
        argv.append("--content-boundaries")
    if options.max_output is not None:
        argv += ["--max-output", str(options.max_output)]
    if options.action_policy is not None:
        argv += ["--action-policy", str(options.action_policy)]
    if options.confirm_actions:
        argv += ["--confirm-actions", ",".join(options.confirm_actions)]
    if options.confirm_timeout_ms is not None:
        argv += ["--confirm-timeout", str(options.confirm_timeout_ms)]
    listen = ["--listen"] if options.dashboard is not None and options.session is not None else []
    return argv + restore_argv(options.restore) + ["serve", "--stdio"] + listen


def check_session(session: str, timeout_ms: int) -> LaunchOptions:
    """Validate ``connect()`` arguments through LaunchOptions' rules."""
    return LaunchOptions(session=session, timeout_ms=timeout_ms)


def daemon_argv(
    binary: str, session: str | None, restore: RestoreOptions | None = None, *, listen: bool = False
) -> list[str]:
    """The command line of an owned daemon speaking over stdio (with the session's restore);
    ``listen`` serves the session's socket too (what a dashboard reaches it through)."""
    argv = [binary]
    if session is not None:
        argv += ["--session", session]
    return argv + restore_argv(restore) + ["serve", "--stdio"] + (["--listen"] if listen else [])


def start_session_daemon(binary: str, session: str, timeout_s: float) -> None:
    """Start a session's daemon the way the CLI does: run ``agentbrowser --session NAME session start``."""
    try:
        done = subprocess.run(
            [binary, "--session", session, "session", "start"],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            timeout=timeout_s,
            check=False,
        )
    except subprocess.TimeoutExpired:
        raise BrowserError(
            f"`agentbrowser --session {session} session start` did not finish within {timeout_s:.0f} s",
            code="timeout",
        ) from None
    if done.returncode != 0:
        err = done.stderr.decode(errors="replace").strip()[-2000:]
        raise BrowserError(
            f"`agentbrowser --session {session} session start` failed with code {done.returncode}"
            + (f": {err}" if err else ""),
            code="browser_closed",
        )
