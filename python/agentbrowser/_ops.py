"""The SDK's operations, as sans-IO generators shared by the sync and async clients.

An operation yields :class:`Call` objects (one native request each) and receives each
call's response data; its return value is the typed result.  ``Browser._drive`` runs an
operation with blocking I/O, ``AsyncBrowser._drive`` with awaits.

The commands themselves (action names, wire keys, argument types, result decoders) are
generated from the protocol's schema (``_wire_ops``); the engine checks every value and its
``invalid_argument`` is a ValueError (:class:`~agentbrowser.errors.InvalidArgumentError`).
A client method (``aio.py``, from which ``browser.py`` is generated) builds its command and
sends it through one of the operations here that make its answer inside the operation
(:func:`then`, :func:`decoded`, :func:`listed`, :func:`raw`, :func:`done`, :func:`act`), so that
``confirm()`` of a command the action policy paused answers what the method would have.  What
else stays here is shared: the request and result of the transport, the operations the bound
models run (``models._client.ModelOps``), and the operations that compose several commands or
keep state across an answer (snapshots, tabs, frames, a route's body file).
"""

from __future__ import annotations

import difflib
import json
import os
import tempfile
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, TypeVar, cast

from . import _wire_ops as g
from . import _wire_types as w
from ._call import Call as Call
from ._call import Command, send, send_raw
from ._call import Op as Op
from ._encode import flag
from .errors import BrowserError, FrameLookupError, error_for
from .models import (
    NAVIGATION_LOAD_STATES,
    ActionResult,
    BrowserResponse,
    CloseResult,
    Dialog,
    Download,
    FrameInfo,
    LaunchResult,
    Locator,
    Navigation,
    NavigationLoadState,
    Ref,
    Screenshot,
    ScreenshotObservation,
    ScrollResult,
    Snapshot,
    SnapshotDelta,
    SnapshotDiff,
    SnapshotSpec,
    TabInfo,
    Wait,
    WaitResult,
    logged_errors,
)
from .models._actionable import Actionable
from .models._client import C
from .models.devtools import DevToolsEndpoint
from .models.routes import Route, RouteResponse
from .models.snapshot import rebuild

R = TypeVar("R")
M = TypeVar("M")

#: How much longer than a command's own timeout the client waits for its answer.
GRACE_MS = 5000


def request(call: Call, request_id: int, timeout_ms: int, scope: Mapping[str, str] | None = None) -> dict[str, Any]:
    """The request object for ``call`` (its ``timeout`` covers any wait budget); ``scope`` is
    the envelope's ``tab`` and ``frame`` of a handle bound to a tab or a frame."""
    payload: dict[str, Any] = {"id": request_id, "action": call.action}
    payload.update(call.params)
    for key, value in (scope or {}).items():
        payload.setdefault(key, value)
    if "timeout" not in payload:
        payload["timeout"] = timeout_ms + call.budget_ms
    return payload


def client_deadline_s(call: Call, payload: Mapping[str, Any]) -> float:
    """Seconds the client waits for the answer to ``payload`` before giving up."""
    if call.deadline_s is not None:
        return call.deadline_s
    timeout = payload.get("timeout")
    base = timeout if isinstance(timeout, int) and not isinstance(timeout, bool) else 30000
    return (base + GRACE_MS) / 1000.0


def result(
    call: Call,
    raw: Mapping[str, Any],
    asynchronous: bool,
    snapshot: Callable[[Mapping[str, Any]], Snapshot[Any]],
) -> Any:
    """The call's data, its envelope (for ``native.execute``), or the mapped exception."""
    if not call.envelope and raw.get("success") is True:
        return raw.get("data")
    response = BrowserResponse.from_raw(raw)
    if call.envelope:
        return response
    raise error_for(
        response,
        asynchronous=asynchronous,
        ref=call.ref,
        snapshot=snapshot,
        logged=logged_errors,
        dialog=Dialog.from_raw_open,
    )


def check_load_state(name: str, value: str | None) -> None:
    """ValueError naming ``name`` (the Python parameter) unless ``value`` is None or a load state a
    navigation can wait for."""
    if value == "none":
        raise ValueError(
            f"{name}='none' (pyagentbrowser's: return before the page loads) has no form here: every "
            f"navigation of the engine waits for one of {', '.join(NAVIGATION_LOAD_STATES)} "
            "(domcontentloaded is the earliest)"
        )
    if value is not None and value not in NAVIGATION_LOAD_STATES:
        raise ValueError(f"{name} must be one of {', '.join(NAVIGATION_LOAD_STATES)}; got {value!r}")


def _wait(wait: Wait | None) -> tuple[Mapping[str, Any] | None, int]:
    """The wire form of an action's ``wait`` and the time it may take."""
    if wait is None:
        return None, 0
    if not isinstance(wait, Wait):
        raise TypeError(f"wait must be a Wait condition or None, got {type(wait).__name__}")
    if wait.waits_for_nothing:
        return None, 0
    return wait.to_wire(), wait.budget_ms()


def wire_target(target: object) -> Any:
    """The wire form of a target: a Ref's or Locator's, else the value itself (a ref id, a CSS
    selector or an XPath; the generated builder checks its type, the engine its content)."""
    return target._wire_target() if isinstance(target, Actionable) else target


def _ref(target: object) -> Ref[Any] | None:
    """The Ref a target is (for errors and results), else None."""
    return target._as_ref() if isinstance(target, Actionable) else None


def command(command: Command[R], target: object = None) -> Op[R]:
    """Send a command (a generated builder's, ``_wire_ops``) and answer its decoded wire record;
    ``target``, when a Ref, is named by the errors."""
    return (yield from send(command, ref=_ref(target))).wire


def decoded(
    command: Command[R], make: Callable[[R, Mapping[str, Any]], M], target: object = None, budget_ms: int = 0
) -> Op[M]:
    """Send a command (that may wait ``budget_ms`` beyond the request timeout) and answer the model
    ``make`` builds from its decoded record and the data it came from (``Model.from_wire``)."""
    reply = yield from send(command, ref=_ref(target), budget_ms=budget_ms)
    return make(reply.wire, reply.raw)


def then(command: Command[R], make: Callable[[R], M]) -> Op[M]:
    """Send a command and answer what ``make`` makes of its decoded record (a model's
    ``from_wire``, one of its fields): inside the operation, so that the ``confirm()`` of a
    command the action policy paused answers the same."""
    return make((yield from send(command)).wire)


def done(command: Command[Any]) -> Op[None]:
    """Send a command whose answer the method does not return."""
    yield from send(command)
    return None


def raw(command: Command[Any], make: Callable[[Mapping[str, Any]], M]) -> Op[M]:
    """Send a command and answer the model ``make`` decodes from its data (``Model.from_raw``)."""
    return make((yield from send_raw(command)))


def listed(command: Command[Any], field: str, make: Callable[[Any, Mapping[str, Any]], M]) -> Op[tuple[M, ...]]:
    """Send a command and answer a model of each item of its answer's list ``field`` (a one-word
    key: the record's name and the data's are the same)."""
    reply = yield from send(command)
    items = getattr(reply.wire, field)
    return tuple(make(item, raw) for item, raw in zip(items, reply.raw[field], strict=True))


def act(browser: C, command: Command[Any], wait: Wait | None, target: object = None) -> Op[ActionResult[C]]:
    """Run one action (its command built without ``wait``: its wire form is added here, and the
    time it may take), keep its before and after snapshots as bases of later delta snapshots, and
    build its :class:`ActionResult` bound to ``browser``; ``target``, when a Ref, is named by the
    errors and the result, and when a Locator makes it a LocatorActionResult (that chains)."""
    wire, budget = _wait(wait)
    if wire is not None:
        command = Command(command.action, {**command.params, "wait": wire}, command.decode)
    ref = _ref(target)
    reply = yield from send(command, ref=ref, budget_ms=budget)
    browser._held.keep(reply.raw.get("before"))
    browser._held.keep(reply.raw.get("after"))
    result = ActionResult.from_wire(reply.wire, reply.raw, browser, ref)
    return target._result(result) if isinstance(target, Actionable) else result


def _absolute(path: str | os.PathLike[str]) -> str:
    """``path`` made absolute (``~`` expanded), relative to this process's working directory."""
    return str(Path(os.fspath(path)).expanduser().absolute())


# -- browser and page --------------------------------------------------------------


def launch(params: Mapping[str, Any]) -> Op[LaunchResult]:
    """Start (or attach to) the session's browser (``params``: ``LaunchOptions.to_wire()``)."""
    data = yield Call("launch", params)
    return LaunchResult.from_raw(data)


def cdp_url(launch: bool = False) -> Op[DevToolsEndpoint]:
    """The session browser's DevTools WebSocket URL (``launch``: start the browser when none
    runs; otherwise none running is a BrowserError with code ``no_browser``)."""
    data = yield from send_raw(g.cdp_url(launch=flag(launch)))
    return DevToolsEndpoint.from_raw(data)


def navigate(
    build: Callable[..., Command[Any]], wait_until: NavigationLoadState | None, *url: str
) -> Op[Navigation]:
    """A navigation of the active tab (``build``: ``g.open`` with the ``url``, ``g.back``,
    ``g.forward`` or ``g.reload``) that waits for ``wait_until`` (checked first: the message
    names the Python parameter)."""
    check_load_state("wait_until", wait_until)
    reply = yield from send(build(*url, wait_until=wait_until))
    return Navigation.from_wire(reply.wire, reply.raw)


def scroll(
    direction: str | None, px: int | None, x: float, y: float, selector: str | Actionable[Any] | None
) -> Op[ScrollResult]:
    """Scroll the page or a container (by ``direction`` and ``px``, else by ``x`` and ``y``);
    the positions before and after."""
    if direction is not None:
        command = g.scroll(direction=direction, px=px, selector=wire_target(selector))
    else:
        command = g.scroll(x=x, y=y, selector=wire_target(selector))
    return ScrollResult.from_wire((yield from send(command)).wire)


def drag(
    browser: C, source: str | Actionable[Any], target: str | Actionable[Any], wait: Wait | None
) -> Op[ActionResult[C]]:
    """Drag ``source`` onto ``target``, with the evidence of an action on the source."""
    return (yield from act(browser, g.drag(wire_target(source), wire_target(target)), wait, source))


# --- cookies, storage, state files (issue 16) ---


def state_path(what: str, path: str | os.PathLike[str]) -> str:
    """A state file argument: a ``Path`` or a string with ``/`` is a file (made absolute);
    a plain string is a name in the state directory."""
    if isinstance(path, os.PathLike):
        return _absolute(path)
    if not isinstance(path, str) or not path.strip():
        raise ValueError(f"{what} needs a file path or a state name, got {path!r}")
    if "/" in path or path.startswith((".", "~")):
        return _absolute(path)
    return path


def key_path(key_file: str | os.PathLike[str] | None) -> str | None:
    """A ``key_file`` argument made absolute (None: the session's key)."""
    return None if key_file is None else _absolute(key_file)


# --- auth vault (issue 16) ---


def _snapshot(spec: SnapshotSpec, delta: bool | None = None) -> Command[w.SnapshotOutput]:
    return g.snapshot(
        selector=spec.selector,
        interactive=spec.interactive,
        compact=spec.compact,
        max_depth=spec.max_depth,
        urls=spec.urls,
        boxes=spec.boxes or None,
        max_bytes=spec.max_bytes,
        delta=delta,
    )


def observe(browser: C, spec: SnapshotSpec | None, delta: bool = False) -> Op[Snapshot[C]]:
    """Capture an accessibility snapshot bound to ``browser``.

    With ``delta`` the engine answers only what changed since its newest snapshot of the same
    spec in the tab; the whole text and refs are rebuilt here from that base, which this client
    holds when it received it (else the whole snapshot is fetched: ``delta.kind`` is ``full``).
    """
    spec = spec if spec is not None else SnapshotSpec()
    if not isinstance(spec, SnapshotSpec):
        raise TypeError(f"observe() takes a SnapshotSpec or None, got {type(spec).__name__}")
    wire, data = yield from send(_snapshot(spec, flag(delta)))
    held = browser._held
    if wire.delta is None or wire.delta.kind == "full":
        held.keep(data)
        return Snapshot.from_wire(wire, data, browser)
    base = held.get(wire.tab, wire.delta.base_generation)
    rebuilt = rebuild(data, base) if base is not None else None
    if rebuilt is None:
        # Another client took the base, or this one forgot it: the whole text is one call away.
        whole, data = yield from send(_snapshot(spec))
        held.keep(data)
        line_count = whole.text.count("\n") + 1
        note = SnapshotDelta("full", None, None, line_count, (), rebuilt=False, raw={})
        return Snapshot.from_wire(whole, data, browser, note)
    held.keep(rebuilt, rebuilt=True)
    return Snapshot.from_wire(w.SnapshotOutput.decode(rebuilt), rebuilt, browser)


def keyboard_text(
    browser: C, build: Callable[[str], Command[w.ActionOutput]], text: str, wait: Wait | None
) -> Op[ActionResult[C]]:
    """``g.keyboard_type`` or ``g.keyboard_insert_text`` of ``text``."""
    if not isinstance(text, str) or not text:
        raise TypeError(f"keyboard text must be a non-empty string, got {text!r}")
    return (yield from act(browser, build(text), wait))


def wait(condition: Wait | None, ms: int | None) -> Op[WaitResult]:
    """Wait for a condition or for ``ms`` milliseconds (exactly one: the engine checks); a
    condition that waits for nothing (``Wait.loaded("none")``) is a wait of 0 ms."""
    if condition is not None and not isinstance(condition, Wait):
        raise TypeError(f"wait() takes a Wait condition, got {type(condition).__name__}")
    if condition is not None and condition.waits_for_nothing and ms is None:
        condition, ms = None, 0
    command = g.wait(condition=condition.to_wire() if condition is not None else None, ms=ms)
    budget = (condition.budget_ms() if condition is not None else 0) + (ms if isinstance(ms, int) else 0)
    return WaitResult.from_raw((yield from send_raw(command, budget_ms=budget)))


def diff(snapshot: Snapshot[Any]) -> Op[SnapshotDiff]:
    """Compare ``snapshot`` with the active page."""
    reply = yield from send(g.diff(generation=snapshot.generation))
    snapshot.browser._held.keep(reply.raw.get("after"))
    return SnapshotDiff.from_wire(reply.wire, reply.raw)


# -- captures ------------------------------------------------------------------------

#: File extension of each screenshot format.
_EXTENSIONS = {"png": "png", "jpeg": "jpg", "webp": "webp"}


def file_path(name: str, path: str | os.PathLike[str]) -> str:
    """``path`` as an absolute path string (relative to this process's working directory)."""
    if not isinstance(path, (str, os.PathLike)):
        raise TypeError(f"{name} must be a path (str or PathLike), got {type(path).__name__}")
    text = os.fspath(path)
    if not text.strip():
        raise ValueError(f"{name} must not be empty")
    return os.path.abspath(os.path.expanduser(text))


@dataclass(frozen=True, slots=True)
class ScreenshotCall:
    """A checked capture: the ``screenshot`` arguments (by their Python names), the ref it
    captures, and the file as the caller named it (``~`` expanded; None: the engine picks one)."""

    params: dict[str, Any]
    ref: Ref[Any] | None
    shown: str | None


def screenshot_params(
    path: str | os.PathLike[str] | None,
    selector: str | Ref[Any] | None,
    full_page: bool,
    annotate: bool,
    output_dir: str | os.PathLike[str] | None,
    format: str | None,
    quality: int | None,
) -> ScreenshotCall:
    """The ``screenshot`` arguments of a capture: the file made absolute for the engine (its
    daemon has another working directory), and as the caller named it for the answer."""
    if path is not None and output_dir is not None:
        raise ValueError("give path or output_dir, not both")
    shown: str | None = None
    if path is not None:
        shown = named_path("path", path)[1]
    elif output_dir is not None:
        stamp = time.strftime("%Y%m%d-%H%M%S")
        ext = _EXTENSIONS.get(format or "png", "png")
        name = f"screenshot-{stamp}-{time.monotonic_ns() % 1_000_000:06d}.{ext}"
        shown = os.path.join(named_path("output_dir", output_dir)[1], name)
    params = {
        "target": selector.id if isinstance(selector, Ref) else selector,
        "path": os.path.abspath(shown) if shown is not None else None,
        "full_page": flag(full_page),
        "format": format,
        "quality": quality,
        "annotate": flag(annotate),
    }
    return ScreenshotCall(params, selector if isinstance(selector, Ref) else None, shown)


def named_path(name: str, path: str | os.PathLike[str]) -> tuple[str, str]:
    """``path`` made absolute for the engine (whose daemon has another working directory), and as
    the caller named it (``~`` expanded) for the answer."""
    return file_path(name, path), os.path.expanduser(os.fspath(path))


def answered_path(written: str, sent: str | None, shown: str | None) -> Path:
    """The file the engine ``written``: as the caller named it (``shown``) when it is the one asked
    for (``sent``): a relative path stays relative to this process's working directory, as
    pyagentbrowser answers it; otherwise the engine's path."""
    return Path(shown) if shown is not None and written == sent else Path(written)


def _as_named(call: ScreenshotCall, shot: Screenshot) -> Screenshot:
    """``shot`` with its path as the caller named it (see :func:`answered_path`)."""
    return replace(shot, path=answered_path(str(shot.path), call.params["path"], call.shown))


def screenshot(call: ScreenshotCall) -> Op[Screenshot]:
    """Capture a screenshot (:func:`screenshot_params`)."""
    reply = yield from send(g.screenshot(**call.params), ref=call.ref)
    return _as_named(call, Screenshot.from_wire(reply.wire, reply.raw))


def screenshot_if_changed(call: ScreenshotCall, threshold: float) -> Op[ScreenshotObservation]:
    """Capture a screenshot if more than ``threshold`` of the pixels changed (:func:`screenshot_params`)."""
    reply = yield from send(g.screenshot(**call.params, if_changed=True, threshold=threshold), ref=call.ref)
    seen = ScreenshotObservation.from_wire(reply.wire, reply.raw)
    if seen.screenshot is None:
        return seen
    return replace(seen, screenshot=_as_named(call, seen.screenshot))


# -- files ------------------------------------------------------------------------


def _file_paths(files: str | os.PathLike[str] | Sequence[str | os.PathLike[str]]) -> list[str]:
    """``files`` (one path or several) as absolute paths; TypeError for anything else."""
    if isinstance(files, (str, os.PathLike)):
        files = [files]
    if not isinstance(files, Sequence) or not files:
        raise TypeError("upload() takes a path or a non-empty list of paths")
    out = []
    for f in files:
        if not isinstance(f, (str, os.PathLike)):
            raise TypeError(f"upload() paths must be str or os.PathLike, got {type(f).__name__}")
        out.append(os.path.abspath(os.fspath(f)))
    return out


def upload(
    browser: C,
    target: str | Actionable[Any] | None,
    files: str | os.PathLike[str] | Sequence[str | os.PathLike[str]],
    wait: Wait | None,
) -> Op[ActionResult[C]]:
    """Set files on the file input ``target`` stands for, or (``None``) answer the open file chooser."""
    return (yield from act(browser, g.upload(files=_file_paths(files), ref=wire_target(target)), wait, target))


def cancel_file_chooser(browser: C, wait: Wait | None) -> Op[ActionResult[C]]:
    """Cancel the open file chooser as a user's Cancel (its input fires ``cancel``)."""
    return (yield from act(browser, g.upload(), wait, None))


def _download_path(path: str | os.PathLike[str] | None) -> str | None:
    if path is None:
        return None
    if not isinstance(path, (str, os.PathLike)):
        raise TypeError(f"download path must be str or os.PathLike, got {type(path).__name__}")
    return os.path.abspath(os.fspath(path))


def _download(command: Command[w.DownloadOutput], ref: Ref[Any] | None, timeout_ms: int | None) -> Op[Download]:
    budget = timeout_ms if isinstance(timeout_ms, int) else 30_000
    reply = yield from send(command, ref=ref, budget_ms=budget)
    return Download.from_wire(reply.wire, reply.raw)


def download(target: str | Actionable[Any], path: str | os.PathLike[str], timeout_ms: int | None) -> Op[Download]:
    """Click ``target``, wait for the download it starts, and move the complete file to ``path``."""
    if path is None:
        raise TypeError("download() takes the path (a file or a directory) the download goes to")
    command = g.download(wire_target(target), cast(str, _download_path(path)), timeout_ms=timeout_ms)
    return (yield from _download(command, _ref(target), timeout_ms))


def wait_for_download(path: str | os.PathLike[str] | None, timeout_ms: int | None) -> Op[Download]:
    """Wait for the next download (or a complete one not yet claimed); move it to ``path`` if given."""
    command = g.wait_download(path=_download_path(path), timeout_ms=timeout_ms)
    return (yield from _download(command, None, timeout_ms))


# -- refs -------------------------------------------------------------------------


def mutate(
    target: Actionable[C], action: w.ActionOutputActions, params: Mapping[str, Any], wait: Wait | None
) -> Op[ActionResult[C]]:
    """Run one mutation on ``target`` (a ref, or a locator the engine resolves now) and decode its
    evidence; ``params`` are the action's other arguments by their Python names."""
    command = g.BUILDERS[action](target._wire_target(), **params)
    return (yield from act(target.browser, command, wait, target))


def read_str(target: Actionable[Any], action: w.ValueOutputStringActions, params: Mapping[str, Any]) -> Op[str]:
    """Read one string of ``target``."""
    reply = yield from send(g.BUILDERS[action](target._wire_target(), **params), ref=target._as_ref())
    value: str = reply.wire.value
    return value


def read_opt_str(
    target: Actionable[Any], action: w.ValueOutputNullableStringActions, params: Mapping[str, Any]
) -> Op[str | None]:
    """Read one string of ``target`` that may be null."""
    reply = yield from send(g.BUILDERS[action](target._wire_target(), **params), ref=target._as_ref())
    value: str | None = reply.wire.value
    return value


def read_bool(target: Actionable[Any], action: w.ValueOutputBooleanActions | w.CheckedOutputActions) -> Op[bool]:
    """Read one boolean state of ``target``."""
    reply = yield from send(g.BUILDERS[action](target._wire_target()), ref=target._as_ref())
    value: bool = reply.wire.value
    return value


# -- locators and selectors (resolved by the engine on every call) -------------------


def _find(loc: Locator[Any], limit: int) -> Op[w.FindOutput]:
    if isinstance(loc.target, str) and not loc.target.startswith(("css=", "xpath=")):
        raise ValueError(f"{loc.describe()} is a ref: it matches itself; count() and all() list selectors and locators")
    return (yield from send(g.find(loc.target, limit=limit))).wire


def locator_count(loc: Locator[Any]) -> Op[int]:
    """How many elements ``loc`` matches now."""
    out = yield from _find(loc, 1)
    return out.count


def locator_all(loc: Locator[C]) -> Op[tuple[Locator[C], ...]]:
    """Every element ``loc`` matches now (at most 1000), each as a locator on its ref."""
    out = yield from _find(loc, 1000)
    return tuple(Locator(target=m.ref, browser=loc.browser) for m in out.matches)


def refresh_ref(ref: Ref[C], role: str | None, name: str | None, contains: str | None, exact: bool) -> Op[Ref[C]]:
    """Resolve ``ref``'s role and name (or the given criteria) in a fresh snapshot."""
    snap = yield from observe(ref.browser, ref.snapshot.spec)
    if role is None:
        role = ref.role
    if name is None and contains is None:
        name = ref.name
    return snap.one(role=role, name=name, contains=contains, exact=exact)


# -- diagnostics --------------------------------------------------------------------


# -- network ------------------------------------------------------------------------


# -- tabs, session, native -------------------------------------------------------------


def _tab_id(tab: str | TabInfo | None) -> str | None:
    return tab.id if isinstance(tab, TabInfo) else tab


def tab_list() -> Op[tuple[TabInfo, ...]]:
    """Every open tab."""
    return (yield from listed(g.tab_list(), "tabs", TabInfo.from_wire))


def tab_selector(
    method: str,
    tab: str | TabInfo | None,
    id: str | None = None,
    label: str | None = None,
    index: int | None = None,
) -> str | None:
    """The one tab selector of ``tab`` or the keywords ``id=``, ``label=``, ``index=`` (N means
    ``tN``); TypeError when several are given, ValueError for an index below 1."""
    given = [(k, v) for k, v in (("tab", tab), ("id", id), ("label", label), ("index", index)) if v is not None]
    if len(given) > 1:
        raise TypeError(f"{method} takes one of tab, id=, label=, index=; got {', '.join(k for k, _ in given)}")
    if not given:
        return None
    key, value = given[0]
    if key == "index":
        if not isinstance(value, int) or isinstance(value, bool):
            raise TypeError(f"{method} index must be an int, got {type(value).__name__}")
        if value < 1:
            raise ValueError(f"{method} index must be 1 or more (index N means tab tN), got {value}")
        return f"t{value}"
    if key == "tab":
        return _tab_id(value)  # type: ignore[arg-type]
    if not isinstance(value, str) or not value:
        raise TypeError(f"{method} {key}= must be a non-empty string, got {value!r}")
    return value


def tab_open(url: str, label: str | None, reuse: bool, wait_until: NavigationLoadState) -> Op[TabInfo]:
    """Switch to the tab labelled ``label`` and navigate it to ``url`` (with ``reuse``), else
    open a new tab at ``url`` with that label (checked first: this composes several commands)."""
    if not isinstance(url, str) or not url:
        raise TypeError(f"tabs.open() url must be a non-empty string, got {url!r}")
    if label is not None and (not isinstance(label, str) or not label.strip()):
        raise TypeError(f"tabs.open() label must be a non-empty string or None, got {label!r}")
    check_load_state("tabs.open() wait_until", wait_until)
    if label is not None and reuse:
        tabs = yield from tab_list()
        if any(t.label == label for t in tabs):
            yield from send_raw(g.tab_switch(label))
            yield from navigate(g.open, wait_until, url)
            now = yield from tab_list()
            for t in now:
                if t.label == label:
                    return t
            raise LookupError(f"tab labelled {label!r} was closed while it was opened")
    return (yield from decoded(g.tab_new(url=url, label=label), TabInfo.from_wire))


def tab_find(id: str | None, label: str | None, index: int | None) -> Op[TabInfo]:
    """The one open tab that ``id=`` (tab id or CDP target id), ``label=`` or ``index=`` names."""
    sel = tab_selector("tabs.get()", None, id, label, index)
    if sel is None:
        raise TypeError("tabs.get() needs one of id=, label=, index=")
    tabs = yield from tab_list()
    found = [t for t in tabs if sel in (t.id, t.label, t.target_id)]
    if len(found) != 1:
        known = ", ".join(t.id + (f" [{t.label}]" if t.label else "") for t in tabs) or "none"
        raise LookupError(f"tabs.get(): {len(found)} tabs match {sel!r}; open tabs: {known}")
    return found[0]


def text_diff(before: str, after: str) -> SnapshotDiff:
    """The line diff of two snapshot texts (``diff.snapshot(baseline)`` against a file)."""
    old, new = before.splitlines(), after.splitlines()
    lines = list(difflib.unified_diff(old, new, "baseline", "current", lineterm=""))
    added = sum(1 for x in lines if x.startswith("+") and not x.startswith("+++"))
    removed = sum(1 for x in lines if x.startswith("-") and not x.startswith("---"))
    unchanged = sum(i2 - i1 for tag, i1, i2, _, _ in difflib.SequenceMatcher(None, old, new).get_opcodes() if tag == "equal")
    text, changed = "\n".join(lines), bool(added or removed)
    raw = {"diff": text, "added": added, "removed": removed, "unchanged": unchanged, "changed": changed}
    return SnapshotDiff(diff=text, additions=added, removals=removed, unchanged=unchanged, changed=changed, raw=raw)


def wheel_deltas(
    dx: float | None, dy: float | None, delta_x: float | None, delta_y: float | None
) -> tuple[float, float]:
    """The ``(dx, dy)`` of ``mouse.wheel``: ours positional, or pyagentbrowser's keywords
    (``delta_y`` 100 and ``delta_x`` 0 when no delta is given at all)."""
    if dx is not None or dy is not None:
        if delta_x is not None or delta_y is not None:
            raise TypeError("mouse.wheel() takes dx, dy or delta_x=, delta_y= (pyagentbrowser's names), not both")
        if dx is None or dy is None:
            raise TypeError("mouse.wheel() needs both dx and dy (or delta_y= alone, as pyagentbrowser)")
        return dx, dy
    return (0 if delta_x is None else delta_x), (100 if delta_y is None else delta_y)


def move_then(move: Command[Any], op: Op[M]) -> Op[M]:
    """Move the pointer with ``move``, then run ``op`` (a wheel at pyagentbrowser's ``x``/``y``)."""
    yield from send(move)
    return (yield from op)


def unsafe_flag(method: str, name: str, value: bool, refused_with: Sequence[str] | None = None) -> None:
    """Check one of pyagentbrowser's ``unsafe_*`` flags (its escape from the allowed-domains filter of
    exports): a bool.  Nothing outside the allowed domains can be in a session here (the engine
    refuses to set or load such a cookie or origin, blocks their requests, and allows no attached
    browser or profile with allowed domains), so an export or a clear has nothing to lift; an
    import does (``refused_with``: the session's allowed domains), and True raises ValueError there."""
    if not isinstance(value, bool):
        raise TypeError(f"{method} {name} must be a bool, got {type(value).__name__}")
    if value and refused_with:
        raise ValueError(
            f"{method} {name}=True: this session has allowed domains ({', '.join(refused_with)}) and the engine "
            "refuses state outside them; load a file that holds only those domains"
        )


def frames_below(infos: Sequence[FrameInfo], frame: str | None) -> tuple[FrameInfo, ...]:
    """The frames of ``infos`` (parents first) below ``frame``, or below the main frame when None."""
    if frame is None:
        return tuple(i for i in infos if i.depth > 0)
    inside = {frame}
    below = []
    for info in infos:
        if info.parent_frame_id in inside:
            inside.add(info.id)
            below.append(info)
    return tuple(below)


def after(wait_ms: int, op: Op[M]) -> Op[M]:
    """``op`` run after ``wait_ms`` milliseconds (pyagentbrowser's ``wait_ms`` before a capture;
    the engine's ``wait``, so the sync and async clients wait alike)."""
    if not isinstance(wait_ms, int) or isinstance(wait_ms, bool) or wait_ms < 0:
        raise ValueError(f"wait_ms must be a non-negative int, got {wait_ms!r}")
    if wait_ms:
        yield from send(g.wait(ms=wait_ms), budget_ms=wait_ms)
    return (yield from op)


def frame_get(id: str | None, selector: str | Ref[Any] | None, name: str | None, url: str | None) -> Op[FrameInfo]:
    """The one frame that exactly one criterion names (FrameLookupError otherwise)."""
    given = [(k, v) for k, v in (("id", id), ("selector", selector), ("name", name), ("url", url)) if v is not None]
    if len(given) != 1:
        names = ", ".join(k for k, _ in given) or "none"
        raise TypeError(f"frames.get() takes exactly one of id=, selector=, name=, url=; got {names}")
    key, value = given[0]
    value = wire_target(value)
    wire, data = yield from send(g.frame(value, by=key, set=False))
    if wire.frame is None:
        raise FrameLookupError(
            f"frames.get({key}={value!r}) names the main frame, not a frame of the page; use the page itself",
            reason="scope_mismatch",
            criteria={key: value},
        )
    return FrameInfo.from_wire(wire.frame, data["frame"])


def close(deadline_s: float) -> Op[CloseResult]:
    """Close the session's browser and daemon within ``deadline_s``."""
    data = yield Call("close", {"timeout": max(1, int(deadline_s * 1000))}, deadline_s=deadline_s)
    return CloseResult.from_raw(data)


def native(action: str, params: Mapping[str, Any]) -> Op[BrowserResponse]:
    """Send one native action and return its whole envelope."""
    if not isinstance(action, str) or not action:
        raise TypeError(f"native.execute() needs an action name, got {action!r}")
    response = yield Call(action, dict(params), envelope=True)
    assert isinstance(response, BrowserResponse)
    return response


#: The actions that never need the session's browser (``AsyncBrowser.is_launched`` ignores them).
BROWSERLESS = frozenset(
    {"status", "close", "read", "devices", "auth_list", "auth_show", "auth_delete", "auth_save"}
    | {"state_list", "state_show", "state_rename", "state_clear", "state_clean", "confirm", "deny"}
)


def activate() -> Op[None]:
    """Bring the active tab to the front of its window: ``tab_switch`` to it (CDP
    ``Target.activateTarget``)."""
    tabs = yield from tab_list()
    active = next((t for t in tabs if t.active), None)
    if active is None:
        raise BrowserError("activate(): no tab is open", action="tab_switch", code="tab_not_found")
    yield from send(g.tab_switch(active.id))
    return None


#: What ``native.data(expect=)`` accepts: data of any JSON shape, or an object only.
NATIVE_EXPECT = ("object", "any")


def native_data(action: str, params: Mapping[str, Any], expect: str) -> Op[Any]:
    """Send one native action and answer its ``data`` (a failure raises its BrowserError);
    ``expect="object"`` (default) also checks the data is a JSON object."""
    if not isinstance(action, str) or not action:
        raise TypeError(f"native.data() needs an action name, got {action!r}")
    if expect not in NATIVE_EXPECT:
        raise ValueError(f"native.data() expect must be 'object' or 'any', got {expect!r}")
    data = yield Call(action, dict(params))
    if expect == "object" and not isinstance(data, Mapping):
        raise BrowserError(
            f"native.data({action!r}) answered {type(data).__name__} data, not an object (expect='any' takes any)",
            action=action,
            code="internal",
        )
    return data


#: The page script of ``set_content``: replace the document (``document.open``/``write``/``close``,
#: as Playwright's ``setContent``) and wait for its ``load``; answers where it ended.
_SET_CONTENT_JS = """(async (html) => {
  document.open(); document.write(html); document.close();
  if (document.readyState !== 'complete') {
    await new Promise((done) => window.addEventListener('load', done, { once: true }));
  }
  return { url: location.href, title: document.title, readyState: document.readyState };
})(%s)"""


def set_content(html: str) -> Op[Navigation]:
    """Replace the document of the page (or frame) with ``html`` and wait for its load event."""
    if not isinstance(html, str):
        raise TypeError(f"set_content() takes the HTML as a str, got {type(html).__name__}")
    out = (yield from send(g.eval(_SET_CONTENT_JS % json.dumps(html)))).wire.result
    raw = out if isinstance(out, Mapping) else {}
    return Navigation(url=str(raw.get("url", "")), title=str(raw.get("title", "")), status=None, raw=raw)


# -- request interception (routes, headers, credentials) --------------------------------------


def network_route(
    url: str,
    *,
    abort: bool | str = False,
    response: RouteResponse | Mapping[str, Any] | None = None,
    status: int | None = None,
    body: str | bytes | None = None,
    content_type: str | None = None,
    headers: Mapping[str, str] | None = None,
    resource_type: str | None = None,
    resource_types: Sequence[str] | None = None,
    times: int | None = None,
    set_headers: Mapping[str, str] | None = None,
    continue_request: bool = False,
    remove_headers: Sequence[str] | None = None,
) -> Op[Route]:
    """Add a route: answer (``response`` or the answer fields), abort (True: ``failed``, or a
    reason), or continue with ``set_headers`` and ``remove_headers``; a bytes body goes through a
    temporary file."""
    if isinstance(remove_headers, str):
        raise TypeError("network.route() remove_headers must be a sequence of header names, not a str")
    fields = (("status", status), ("body", body), ("content_type", content_type), ("headers", headers))
    given = [k for k, v in fields if v is not None]
    if response is not None:
        if given:
            raise ValueError(f"network.route() takes response= or {', '.join(given)}, not both")
        answer = RouteResponse.of(response)
    else:
        answer = RouteResponse(status, body, content_type, headers)
    types = [resource_type] if resource_type is not None else []
    if resource_types is not None:
        if isinstance(resource_types, str):
            raise TypeError("network.route() resource_types must be a sequence of names, not a str")
        types.extend(resource_types)
    body_file = None
    if isinstance(answer.body, bytes):
        fd, body_file = tempfile.mkstemp(prefix="agentbrowser-route-")
        with os.fdopen(fd, "wb") as f:
            f.write(answer.body)
    try:
        command = g.network_route(
            url,
            abort="failed" if abort is True else (None if abort is False else abort),
            continue_request=flag(continue_request),
            set_headers=set_headers,
            remove_headers=remove_headers,
            status=answer.status,
            body=answer.body if isinstance(answer.body, str) else None,
            body_file=body_file,
            content_type=answer.content_type,
            headers=answer.headers,
            resource_types=types or None,
            times=times,
        )
        wire, data = yield from send(command)
    finally:
        if body_file is not None:
            os.unlink(body_file)
    return Route.from_wire(wire.route, data["route"])


