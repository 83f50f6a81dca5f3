"""The exception hierarchy of the SDK and the one place that maps engine error codes to it.

Every SDK-owned failure is an :class:`AgentBrowserError`.  Engine responses with
``success: false`` become exceptions through :func:`error_for` (and nowhere else).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, Generic, TypeVar

if TYPE_CHECKING:
    from .aio import AsyncBrowser
    from .browser import Browser
    from .models import BrowserResponse, CloseResult, ConsoleMessage, Dialog, PageError, Ref, Snapshot
    from .models.pending import AsyncPendingAction, PendingAction

_T = TypeVar("_T")

__all__ = [
    "AgentBrowserError",
    "BrowserError",
    "ConfirmationRequired",
    "DialogOpenError",
    "InvalidArgumentError",
    "StaleRefError",
    "AsyncStaleRefError",
    "AmbiguousTargetError",
    "FrameLookupError",
    "ActionTransitionError",
    "NativeParseError",
    "BrowserInstallError",
    "RestoreSaveError",
    "StateDecryptError",
    "AuthVaultError",
    "error_for",
]

#: Decodes the console errors and page errors of a failed action's data.
Logged = Callable[[Mapping[str, Any]], "tuple[tuple[ConsoleMessage, ...], tuple[PageError, ...]]"]

INSTALL_HINT = (
    "Install Chromium (Debian/Ubuntu: `apt-get install chromium`) or pass "
    "LaunchOptions(executable_path=...) pointing at a Chrome/Chromium binary."
)


class AgentBrowserError(RuntimeError):
    """Catchable base for every SDK-owned failure (browser, evidence, install, persistence, CDP).

    A RuntimeError, as in pyagentbrowser: code that catches ``RuntimeError`` around browser
    calls catches these too (and the RuntimeError raised by a call after ``close()``).
    """


class BrowserError(AgentBrowserError):
    """The engine refused or failed an action, or the SDK rejected it for safety.

    ``action`` is the native action name, ``response`` the complete
    :class:`~agentbrowser.BrowserResponse` (``None`` when the SDK failed before any
    response), and ``code`` the engine's stable error code (for example ``"timeout"``).
    """

    def __init__(
        self,
        message: str,
        *,
        action: str | None = None,
        response: BrowserResponse | None = None,
        code: str | None = None,
    ) -> None:
        super().__init__(message)
        self.action = action
        self.response = response
        self.code = code


class InvalidArgumentError(BrowserError, ValueError):
    """The engine refused an argument (code ``invalid_argument``); also a ValueError, the SDK's
    error for a bad value.  The message names the wire parameter and what it allows; the SDK
    leaves these checks (ranges, values, non-empty strings) to the engine, which makes them for
    every front end."""


class StateDecryptError(BrowserError):
    """A state file is encrypted and could not be decrypted (code ``state_decrypt_failed``): no
    key was given, the key is wrong, or the file was changed or cut."""


class AuthVaultError(BrowserError):
    """An auth vault call failed for a vault reason (``code``): ``auth_not_found``,
    ``auth_key_missing``, ``auth_fields_changed`` (nothing was submitted) or
    ``auth_not_submitted``."""


class ConfirmationRequired(BrowserError, Generic[_T]):
    """The session's action policy paused an action (code ``confirmation_required``): nothing ran.

    ``pending`` is the typed continuation (a :class:`~agentbrowser.PendingAction`, or an
    :class:`~agentbrowser.AsyncPendingAction` from an AsyncBrowser): ``pending.confirm()``
    replays the action and finishes the call's typed work, ``pending.deny()`` drops it.
    ``confirmation_id`` and ``data`` (the answer's data: action, target, role, name, rule,
    expiry) are here too.
    """

    def __init__(
        self,
        message: str,
        *,
        action: str | None = None,
        response: BrowserResponse | None = None,
        code: str | None = None,
        pending: PendingAction[_T] | AsyncPendingAction[_T] | None = None,
    ) -> None:
        super().__init__(message, action=action, response=response, code=code)
        self.pending = pending

    @property
    def data(self) -> Mapping[str, Any]:
        """The ``confirmation_required`` answer's data (empty when it had none)."""
        data = self.response.data if self.response is not None else None
        return data if isinstance(data, Mapping) else {}

    @property
    def confirmation_id(self) -> str | None:
        """The id ``confirm`` and ``deny`` take."""
        v = self.data.get("confirmationId")
        return v if isinstance(v, str) else None


class DialogOpenError(BrowserError):
    """A JavaScript confirm or prompt waits in the tab (``dialog_open``) and pauses its page.

    ``dialog`` is the open :class:`~agentbrowser.Dialog` (type, message, tab, default prompt
    text); ``opened_by_this_command`` says the failing call opened it (its own result is then
    unknown).  Answer it with ``browser.dialogs.accept(text)`` or ``browser.dialogs.dismiss()``.
    """

    def __init__(
        self,
        message: str,
        *,
        action: str | None = None,
        response: BrowserResponse | None = None,
        code: str | None = None,
        dialog: Dialog | None = None,
        opened_by_this_command: bool = False,
    ) -> None:
        super().__init__(message, action=action, response=response, code=code)
        self.dialog = dialog
        self.opened_by_this_command = opened_by_this_command


# Generated by python/tools/unasync.py from AsyncStaleRefError: do not edit.
class StaleRefError(BrowserError):
    """A ref no longer names the element it named (``stale_ref``) or was never issued (``unknown_ref``).

    ``ref`` is the :class:`~agentbrowser.Ref` that failed (when the failing call came from
    one).  :meth:`refresh` takes a fresh snapshot and resolves the same role and name.
    """

    def __init__(
        self,
        message: str,
        *,
        action: str | None = None,
        response: BrowserResponse | None = None,
        code: str | None = None,
        ref: Ref[Browser] | None = None,
    ) -> None:
        super().__init__(message, action=action, response=response, code=code)
        self.ref = ref

    def refresh(self) -> Ref[Browser]:
        """Return a fresh ref with the same role and name, from a new snapshot."""
        if self.ref is None:
            raise RuntimeError("this StaleRefError carries no ref to refresh")
        return self.ref.refresh()


class AmbiguousTargetError(BrowserError, LookupError):
    """A selector or locator matched several elements (``ambiguous_target``); nothing was done.

    ``count`` is how many matched, ``candidates`` the first few as the engine described them
    (``role``, ``name``, ``path``: a short CSS path, ``html``: the start of the outer HTML).
    Narrow the selector, or pick one with ``Locator.first()``/``last()``/``nth(i)``.
    """

    @property
    def count(self) -> int:
        """How many elements matched."""
        count = self._data().get("count")
        return count if isinstance(count, int) else 0

    @property
    def candidates(self) -> tuple[Mapping[str, Any], ...]:
        """The first few matches: ``role``, ``name``, ``path`` (a short CSS path), ``html``."""
        cands = self._data().get("candidates")
        return tuple(c for c in cands if isinstance(c, Mapping)) if isinstance(cands, list) else ()

    def _data(self) -> Mapping[str, Any]:
        data = self.response.data if self.response is not None else None
        return data if isinstance(data, Mapping) else {}


FRAME_LOOKUP_REASONS = ("not_found", "ambiguous", "detached", "scope_mismatch")


class FrameLookupError(BrowserError, LookupError):
    """No frame, or several, matched (``frame_not_found``, or an ambiguous ``frames.get``).

    ``reason`` is ``not_found``, ``ambiguous``, ``detached`` (the frame existed; a navigation
    removed it) or ``scope_mismatch``; ``criteria`` what was asked; ``candidates`` at most 8
    frames of the tab as ``"<id> name=.. url=.."``.
    """

    def __init__(
        self,
        message: str,
        *,
        reason: str,
        criteria: Mapping[str, Any],
        candidates: tuple[str, ...] = (),
        action: str | None = None,
        response: BrowserResponse | None = None,
        code: str | None = None,
    ) -> None:
        super().__init__(message, action=action, response=response, code=code)
        self.reason = reason
        self.criteria = dict(criteria)
        self.candidates = candidates[:8]


def _frame_lookup_error(response: BrowserResponse, message: str) -> FrameLookupError:
    data = response.data if isinstance(response.data, Mapping) else {}
    reason = data.get("reason")
    cands = data.get("candidates")
    frame = data.get("frame")
    return FrameLookupError(
        message,
        reason=reason if isinstance(reason, str) and reason in FRAME_LOOKUP_REASONS else "not_found",
        criteria={"frame": frame} if isinstance(frame, str) else {},
        candidates=tuple(c for c in cands if isinstance(c, str)) if isinstance(cands, list) else (),
        action=response.action,
        response=response,
        code=response.code,
    )


class AsyncStaleRefError(BrowserError):
    # unasync: async
    """The asynchronous twin of :class:`StaleRefError`; :meth:`refresh` is awaitable."""
    # unasync: sync
    # """A ref no longer names the element it named (``stale_ref``) or was never issued (``unknown_ref``).
    #
    # ``ref`` is the :class:`~agentbrowser.Ref` that failed (when the failing call came from
    # one).  :meth:`refresh` takes a fresh snapshot and resolves the same role and name.
    # """
    # unasync: end

    def __init__(
        self,
        message: str,
        *,
        action: str | None = None,
        response: BrowserResponse | None = None,
        code: str | None = None,
        ref: Ref[AsyncBrowser] | None = None,
    ) -> None:
        super().__init__(message, action=action, response=response, code=code)
        self.ref = ref

    async def refresh(self) -> Ref[AsyncBrowser]:
        """Return a fresh ref with the same role and name, from a new snapshot."""
        if self.ref is None:
            raise RuntimeError("this AsyncStaleRefError carries no ref to refresh")
        return await self.ref.refresh()


class ActionTransitionError(AgentBrowserError):
    """The mutation completed, then its wait, after-snapshot or diff stage failed.

    ``stage`` is ``"wait"``, ``"snapshot"`` or ``"diff"``; ``before`` is the snapshot taken
    before the action, ``after`` the one after it when it exists; ``cause`` is the error of
    the failing stage (also chained as ``__cause__``); ``console_errors`` and ``page_errors``
    are what the page logged as errors and threw during the action (often why the wait failed).
    """

    def __init__(
        self,
        message: str,
        *,
        action: str,
        target: Ref[Any] | Mapping[str, Any] | None,
        stage: str,
        before: Snapshot[Any] | None,
        after: Snapshot[Any] | None,
        cause: BaseException | None,
        response: BrowserResponse | None = None,
        console_errors: tuple[ConsoleMessage, ...] = (),
        page_errors: tuple[PageError, ...] = (),
    ) -> None:
        super().__init__(message)
        self.console_errors = console_errors
        self.page_errors = page_errors
        self.action = action
        self.target = target
        self.stage = stage
        self.before = before
        self.after = after
        self.cause = cause
        self.response = response
        self.code = "action_transition_failed"
        if cause is not None:
            self.__cause__ = cause


class NativeParseError(AgentBrowserError, ValueError):
    """A native payload lacks a field (or shape) that a typed model needs (also a ValueError).

    ``model`` names the model being built, ``field`` the missing or malformed field.
    """

    def __init__(self, model: str, field: str, detail: str, payload: object = None) -> None:
        super().__init__(f"cannot build {model}: {detail} (field `{field}`)")
        self.model = model
        self.field = field
        self.payload = payload


class BrowserInstallError(AgentBrowserError):
    """The agentbrowser binary or a Chromium browser could not be found."""

    def __init__(self, message: str, *, hint: str = "", response: BrowserResponse | None = None) -> None:
        super().__init__(f"{message}. {hint}" if hint else message)
        self.hint = hint
        self.response = response


class RestoreSaveError(AgentBrowserError):
    """Cleanup completed, but persisting session state failed; ``result`` is the CloseResult."""

    def __init__(self, message: str, *, result: CloseResult) -> None:
        super().__init__(message)
        self.result = result


def error_for(
    response: BrowserResponse,
    *,
    asynchronous: bool = False,
    ref: Ref[Any] | None = None,
    snapshot: Callable[[Mapping[str, Any]], Snapshot[Any]] | None = None,
    logged: Logged | None = None,
    dialog: Callable[[Mapping[str, Any]], Dialog] | None = None,
) -> AgentBrowserError:
    """Map one failed response envelope to its exception (the only place codes are mapped).

    ``ref`` is the ref the failing call acted on, ``snapshot`` decodes the snapshots that
    an ``action_transition_failed`` payload carries, ``logged`` its console and page errors,
    ``dialog`` the open dialog of a ``dialog_open`` payload.
    """
    code = response.code
    action = response.action
    message = response.error or f"action `{action}` failed"
    if code in ("stale_ref", "unknown_ref"):
        stale = AsyncStaleRefError if asynchronous else StaleRefError
        return stale(message, action=action, response=response, code=code, ref=ref)
    if code == "frame_not_found" or (code == "ambiguous_target" and action == "frame"):
        return _frame_lookup_error(response, message)
    if code == "ambiguous_target":
        return AmbiguousTargetError(message, action=action, response=response, code=code)
    if code == "invalid_argument":
        return InvalidArgumentError(message, action=action, response=response, code=code)
    if code == "browser_not_found":
        return BrowserInstallError(message, hint=INSTALL_HINT, response=response)
    if code == "state_decrypt_failed":
        return StateDecryptError(message, action=action, response=response, code=code)
    if code in ("auth_not_found", "auth_key_missing", "auth_fields_changed", "auth_not_submitted"):
        return AuthVaultError(message, action=action, response=response, code=code)
    if code == "confirmation_required":
        return ConfirmationRequired(message, action=action, response=response, code=code)
    if code == "action_transition_failed":
        return _transition_error(response, message, ref, snapshot, logged, asynchronous)
    if code == "dialog_open":
        return _dialog_open_error(response, message, dialog)
    return BrowserError(message, action=action, response=response, code=code)


def _transition_error(
    response: BrowserResponse,
    message: str,
    ref: Ref[Any] | None,
    snapshot: Callable[[Mapping[str, Any]], Snapshot[Any]] | None,
    decode_logged: Logged | None,
    asynchronous: bool,
) -> ActionTransitionError:
    data = response.data if isinstance(response.data, Mapping) else {}
    logged = decode_logged(data) if decode_logged is not None else ((), ())
    cause_raw = data.get("cause")
    cause: AgentBrowserError | None = None
    if isinstance(cause_raw, Mapping):
        cause_code = cause_raw.get("code")
        cause_message = cause_raw.get("message")
        cause_envelope = {
            "id": response.id,
            "action": response.action,
            "success": False,
            "data": None,
            "error": cause_message if isinstance(cause_message, str) else None,
            "code": cause_code if isinstance(cause_code, str) else None,
            "warning": None,
        }
        cause = error_for(type(response).from_raw(cause_envelope), asynchronous=asynchronous, ref=ref)

    def snap(key: str) -> Snapshot[Any] | None:
        value = data.get(key)
        if snapshot is None or not isinstance(value, Mapping):
            return None
        return snapshot(value)

    stage = data.get("stage")
    action = data.get("action")
    target_raw = data.get("target")
    target: Ref[Any] | Mapping[str, Any] | None = ref
    if target is None and isinstance(target_raw, Mapping):
        target = target_raw
    return ActionTransitionError(
        message,
        action=action if isinstance(action, str) else response.action,
        target=target,
        stage=stage if isinstance(stage, str) else "unknown",
        before=snap("before"),
        after=snap("after"),
        cause=cause,
        response=response,
        console_errors=logged[0],
        page_errors=logged[1],
    )


def _dialog_open_error(
    response: BrowserResponse, message: str, decode: Callable[[Mapping[str, Any]], Dialog] | None
) -> DialogOpenError:
    data = response.data if isinstance(response.data, Mapping) else {}
    raw = data.get("dialog")
    dialog = decode(raw) if decode is not None and isinstance(raw, Mapping) else None
    return DialogOpenError(
        message,
        action=response.action,
        response=response,
        code="dialog_open",
        dialog=dialog,
        opened_by_this_command=data.get("openedByThisCommand") is True,
    )
