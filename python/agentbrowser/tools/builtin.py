"""The built-in tools: navigate, observe, click, fill, select, read, screenshot, tabs, switch_tab, done.

They drive the SDK's :class:`~agentbrowser.aio.AsyncBrowser` and report the engine's evidence
(the action's snapshot diff, dialogs, console and page errors) as bounded
``extracted_content``.  ``click``/``fill``/``select`` take a ref id (``e3``) of the last
snapshot the tools took, kept in ``context.namespace["_snapshot"]`` and refreshed by
``observe``, ``navigate``, ``switch_tab`` and each action's ``after`` snapshot.  A ref that
is not in that snapshot, or that the engine finds stale, is an error naming it: never
retargeted to another element.
"""

from __future__ import annotations

import base64
import dataclasses
import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from ..errors import AsyncStaleRefError, StaleRefError
from ..models import Snapshot, SnapshotSpec
from .results import ActionResult

if TYPE_CHECKING:
    from ..aio import AsyncBrowser
    from ..models import ActionResult as Evidence
    from ..models import Ref
    from .registry import ToolContext

__all__ = ["BUILTINS", "Builtin", "EVIDENCE_CHARS", "READ_CHARS", "SNAPSHOT_CHARS", "SNAPSHOT_KEY", "bound_text", "structured_done"]

#: The namespace key of the last snapshot the tools took.
SNAPSHOT_KEY = "_snapshot"
#: Bound of a snapshot's text in ``observe``/``navigate``/``switch_tab`` results, in characters.
SNAPSHOT_CHARS = 12_000
#: Bound of an action's evidence (its diff) in a result, in characters.
EVIDENCE_CHARS = 4_000
#: Bound of ``read``'s Markdown, in characters.
READ_CHARS = 20_000


@dataclass(frozen=True, slots=True)
class Builtin:
    """One built-in tool: its description and function (the registry registers it)."""

    description: str
    function: Callable[..., Any]


def bound_text(text: str, limit: int) -> str:
    """``text`` kept whole up to ``limit`` chars, else its head and tail around ``[... N chars cut of M ...]``."""
    if len(text) <= limit:
        return text
    keep = max(0, limit - 60)
    head, tail = keep * 2 // 3, keep - keep * 2 // 3
    cut = len(text) - head - tail
    return f"{text[:head]}\n[... {cut} chars cut of {len(text)} ...]\n{text[len(text) - tail:] if tail else ''}"


def _browser(context: ToolContext) -> AsyncBrowser:
    if context.browser is None:
        raise RuntimeError("no browser in this tool context")
    return context.browser


def _label(ref: Ref[Any]) -> str:
    name = ref.name if len(ref.name) <= 60 else ref.name[:59] + "…"
    return f"@{ref.id} {ref.role} {name!r}"


def _snapshot_text(snap: Snapshot[Any], limit: int = SNAPSHOT_CHARS) -> str:
    flags = ", truncated by the engine" if snap.truncated else ""
    head = f"Snapshot of {snap.url} (tab {snap.tab or '?'}, {len(snap.refs)} refs{flags}):"
    return f"{head}\n{bound_text(snap.text, limit)}"


def _keep(context: ToolContext, snap: Snapshot[Any] | None) -> None:
    if snap is not None:
        context.namespace[SNAPSHOT_KEY] = snap


def _evidence(verb: str, ref: Ref[Any], ev: Evidence[Any]) -> str:
    lines = [f"{verb} {_label(ref)}."]
    if ev.diff is None:
        lines.append("No snapshot diff was reported.")
    elif not ev.diff.changed:
        lines.append("The snapshot did not change.")
    else:
        lines.append(f"The snapshot changed: +{ev.diff.additions} -{ev.diff.removals} lines.")
        lines.append(bound_text(ev.diff.diff.strip("\n"), EVIDENCE_CHARS))
    if ev.after is not None and ev.before is not None and ev.after.url != ev.before.url:
        lines.append(f"The page is now {ev.after.url}.")
    for d in ev.dialogs:
        lines.append(f"Dialog {d.type} {bound_text(d.message, 200)!r} ({'accepted' if d.accepted else 'dismissed'}).")
    if ev.open_dialog is not None:
        d = ev.open_dialog
        lines.append(
            f"A {d.type} dialog {bound_text(d.message, 200)!r} is open and pauses the page: "
            "answer it with browser.dialogs.accept(text) or browser.dialogs.dismiss()."
        )
    for m in ev.console_errors:
        lines.append(f"Console error: {bound_text(m.text, 300)}")
    for e in ev.page_errors:
        lines.append(f"Page error: {bound_text(str(e.message), 300)}")
    return "\n".join(lines)


def _target(context: ToolContext, tool: str, ref: str) -> Ref[AsyncBrowser] | ActionResult:
    snap = context.namespace.get(SNAPSHOT_KEY)
    if not isinstance(snap, Snapshot):
        return ActionResult(error=f"{tool}: no snapshot yet; call observe() first and use one of its refs")
    rid = ref.strip().removeprefix("@").removeprefix("ref=")
    found = snap.refs.get(rid)
    if found is None:
        return ActionResult(
            error=f"{tool}: ref {ref!r} is not in the last snapshot (of {snap.url}, {len(snap.refs)} refs); "
            "it is stale or unknown and was not used. Call observe() and use a ref from it"
        )
    return cast("Ref[AsyncBrowser]", found)


def _stale(tool: str, ref: str, exc: Exception) -> ActionResult:
    return ActionResult(
        error=f"{tool}: ref {ref!r} is stale ({exc}); nothing was done. Call observe() and use a fresh ref"
    )


async def navigate(url: str, context: ToolContext) -> ActionResult:
    """Open a URL in the active tab and snapshot it."""
    browser = _browser(context)
    nav = await browser.page.open(url)
    snap = await browser.page.observe()
    _keep(context, snap)
    status = f", HTTP {nav.status}" if nav.status is not None else ""
    return ActionResult(
        extracted_content=f"Navigated to {nav.url} (title {nav.title!r}{status}).\n{_snapshot_text(snap)}",
        long_term_memory=f"Navigated to {nav.url}",
        metadata={"url": nav.url, "title": nav.title, "status": nav.status},
    )


async def observe(context: ToolContext, full: bool = False) -> ActionResult:
    """Snapshot the page: interactive elements with refs (``full=True``: the whole tree)."""
    snap = await _browser(context).page.observe(SnapshotSpec(interactive=not full))
    _keep(context, snap)
    return ActionResult(
        extracted_content=_snapshot_text(snap),
        include_extracted_content_only_once=True,
        long_term_memory=f"Observed {snap.url} ({len(snap.refs)} refs)",
        metadata={"url": snap.url, "refs": len(snap.refs), "generation": snap.generation},
    )


async def click(ref: str, context: ToolContext) -> ActionResult:
    """Click the element with this ref id (e.g. "e3") of the last snapshot."""
    target = _target(context, "click", ref)
    if isinstance(target, ActionResult):
        return target
    try:
        ev = await target.click()
    except (AsyncStaleRefError, StaleRefError) as exc:
        return _stale("click", ref, exc)
    _keep(context, ev.after)
    return ActionResult(extracted_content=_evidence("Clicked", target, ev), metadata={"ref": target.id})


async def fill(ref: str, value: str, context: ToolContext) -> ActionResult:
    """Replace the value of the text field with this ref id."""
    target = _target(context, "fill", ref)
    if isinstance(target, ActionResult):
        return target
    try:
        ev = await target.fill(value)
    except (AsyncStaleRefError, StaleRefError) as exc:
        return _stale("fill", ref, exc)
    _keep(context, ev.after)
    shown = bound_text(value, 200)
    return ActionResult(
        extracted_content=_evidence(f"Filled {shown!r} into", target, ev), metadata={"ref": target.id}
    )


async def select(ref: str, value: str, context: ToolContext) -> ActionResult:
    """Select an option (by value or label) in the select element with this ref id."""
    target = _target(context, "select", ref)
    if isinstance(target, ActionResult):
        return target
    try:
        ev = await target.select(value)
    except (AsyncStaleRefError, StaleRefError) as exc:
        return _stale("select", ref, exc)
    _keep(context, ev.after)
    return ActionResult(
        extracted_content=_evidence(f"Selected {bound_text(value, 200)!r} in", target, ev),
        metadata={"ref": target.id},
    )


async def read(context: ToolContext, url: str | None = None) -> ActionResult:
    """Read the active page (or a URL, over HTTP) as Markdown."""
    got = await _browser(context).page.read(url, max_chars=READ_CHARS)
    cut = f", cut from {got.total_chars} chars" if got.truncated else ""
    body = bound_text(got.content, READ_CHARS) or "(no readable text)"
    return ActionResult(
        extracted_content=f"Read {got.final_url} ({got.source}{cut}):\n{body}",
        include_extracted_content_only_once=True,
        long_term_memory=f"Read {got.final_url} ({got.total_chars} chars)",
        metadata={"url": got.final_url, "source": got.source, "truncated": got.truncated},
    )


async def screenshot(context: ToolContext, full_page: bool = False) -> ActionResult:
    """Take a screenshot of the viewport (``full_page=True``: the whole page); the image is shown to you."""
    shot = await _browser(context).page.capture.screenshot(full_page=full_page)
    data = shot.bytes()
    return ActionResult(
        extracted_content=f"Screenshot ({shot.scope}, {shot.width}x{shot.height} px) saved to {shot.path}",
        images=[{"name": shot.path.name, "data": base64.b64encode(data).decode("ascii"), "media_type": shot.media_type}],
        metadata={"path": str(shot.path), "width": shot.width, "height": shot.height},
    )


async def tabs(context: ToolContext) -> ActionResult:
    """List the open tabs (id, URL, title; * marks the active one)."""
    listed = await _browser(context).tabs.list()
    lines = [f"{'*' if t.active else ' '} {t.id} {t.url} {bound_text(t.title, 80)!r}" for t in listed]
    return ActionResult(extracted_content=f"{len(listed)} tab{'s' if len(listed) != 1 else ''}:\n" + "\n".join(lines))


async def switch_tab(tab: str, context: ToolContext) -> ActionResult:
    """Make the tab with this id (e.g. "t2") active and snapshot it."""
    browser = _browser(context)
    switched = await browser.tabs.switch(tab)
    snap = await browser.page.observe()
    _keep(context, snap)
    return ActionResult(
        extracted_content=f"Switched to {switched.id} {switched.url} ({switched.title!r}).\n{_snapshot_text(snap)}",
        long_term_memory=f"Switched to tab {switched.id} ({switched.url})",
    )


async def done(
    text: str, context: ToolContext, success: bool = True, files_to_display: list[str] | None = None
) -> ActionResult:
    """Finish the task with the final answer; success=False when it could not be done; files to show."""
    return await _done(text, context, success, files_to_display)


async def _done(
    text: str, context: ToolContext, success: bool = True, files_to_display: list[str] | None = None
) -> ActionResult:
    """Finish the task with the final answer; success=False when it could not be done; files to show."""
    paths: list[str] = []
    for name in files_to_display or []:
        path = Path(name).expanduser()
        path = path if path.is_absolute() else Path.cwd() / path
        if not path.exists():
            return ActionResult(error=f"done: file not found: {name} (looked at {path}); nothing was finished")
        if not path.is_file():
            return ActionResult(error=f"done: not a file: {name} ({path}); nothing was finished")
        paths.append(str(path.resolve()))
    ns = context.namespace
    ns["_task_done"] = True
    ns["_task_result"] = text
    ns["_task_success"] = success
    ns["_task_attachments"] = list(paths)
    return ActionResult(is_done=True, success=success, extracted_content=text, attachments=paths)


def structured_done(output_model: type) -> Callable[..., Any]:
    """The ``done`` tool of a structured output (``Tools(output_model=...)``): ``data`` is validated by
    ``output_model`` (a pydantic model or a dataclass) and becomes the result's text as JSON."""

    async def done(
        data: dict[str, Any], context: ToolContext, success: bool = True, files_to_display: list[str] | None = None
    ) -> ActionResult:
        """Finish the task with the final answer as an object of the output model."""
        try:
            validate = getattr(output_model, "model_validate", None)
            parsed = validate(data) if validate is not None else output_model(**data)
        except Exception as exc:  # the model's own validation error, said to the model
            return ActionResult(error=f"done: data does not fit {output_model.__name__}: {exc}; nothing was finished")
        dump = getattr(parsed, "model_dump_json", None)
        text = dump() if dump is not None else json.dumps(dataclasses.asdict(parsed), default=str)
        result = await _done(text, context, success, files_to_display)
        if result.is_done:
            context.namespace["_task_data"] = parsed
        return result

    return done


#: The built-in tools, in the order the registry lists them.
BUILTINS: tuple[Builtin, ...] = (
    Builtin("Open a URL in the active tab; returns the new page's snapshot with refs.", navigate),
    Builtin("Snapshot the page: interactive elements with ref ids (full=True: the whole tree), bounded.", observe),
    Builtin("Click the element with this ref id (e.g. 'e3') of the last snapshot; returns the page's change.", click),
    Builtin("Replace the value of the text field with this ref id; returns the page's change.", fill),
    Builtin("Select an option (by value or label) in the select with this ref id; returns the page's change.", select),
    Builtin("Read the active page (or url, fetched over HTTP) as Markdown, bounded.", read),
    Builtin("Screenshot the viewport (full_page=True: the whole page); the image is shown to you.", screenshot),
    Builtin("List the open tabs: id, URL, title; * marks the active one.", tabs),
    Builtin("Make the tab with this id (e.g. 't2') active; returns its snapshot.", switch_tab),
    Builtin(
        "Finish the task: text is the final answer, success=False if it could not be done, "
        "files_to_display lists files to show.",
        done,
    ),
)
