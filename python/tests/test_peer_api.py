"""pyagentbrowser 0.39.0's public API exists here: every name, member and parameter of theirs.

``python/tools/peer_api.py`` installs pyagentbrowser into ``target/peer-venv`` (pip, from
PyPI), dumps both APIs with ``inspect`` and diffs them.  This test fails on a gap of theirs
that :data:`EXCEPTIONS` does not list, and on a listed one that is no longer a gap (so the list
only shrinks).  Each exception says why: all of them are deliberate differences (issue 37 built
the last gap that was not, ``diagnostics.react_tree``).
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tools"))
import peer_api  # noqa: E402

#: The peer's in-process engine handle, a public field of each of its namespaces and queries;
#: ours talks to a daemon through the browser's transport and has no such object to expose.
INTERNAL = "the peer's in-process executor/controller object, internal plumbing: no script uses it"
#: Constructor parameters of handles and results the browser makes (scripts get them from calls,
#: never build them); ours are built from the engine's answers, with other internals.
MADE_BY_BROWSER = "a handle or result the browser builds, never a script: its constructor is internal"
#: ``cdp.frames`` is the Frames namespace here (``cdp.frames.list()``, ``get(...)``); it is
#: callable, so pyagentbrowser's ``cdp.frames()`` works too: only the tool sees an attribute.
CALLABLE_NAMESPACE = "a callable namespace here: cdp.frames() and cdp.frames.list() both work"

#: ``frame.url`` is a ``str`` here that is also callable (the lead's decision): ``frame.url`` and
#: ``frame.url()`` both work; the tool sees a property.
CALLABLE_STR = "a callable str here: frame.url (the listed URL) and frame.url() (the URL now) both work"
#: ``Ref.document`` answers the page or frame handle (sync or async by the client), typed ``Any``:
#: the tool cannot follow ``Any`` to the peer's ``_Document`` class; ``ref.document.content()`` works.
ANY_DOCUMENT = "ref.document exists (the page or frame handle, typed Any): the tool cannot walk Any"

#: Gap key (as peer_api prints it) -> why it is allowed.
EXCEPTIONS: dict[str, str] = {
    "AccessibilityAudit(raw!)": MADE_BY_BROWSER,
    "AccessibilityIssue(raw!)": MADE_BY_BROWSER,
    "AccessibilityNode(raw!)": MADE_BY_BROWSER,
    "AsyncBrowser.cdp.controller": INTERNAL,
    "AsyncBrowser.cdp.frames.controller": INTERNAL,
    "AsyncBrowser.clipboard.executor": INTERNAL,
    "AsyncBrowser.cookies.executor": INTERNAL,
    "AsyncBrowser.dashboard.executor": INTERNAL,
    "AsyncBrowser.diagnostics.executor": INTERNAL,
    "AsyncBrowser.dialogs.executor": INTERNAL,
    "AsyncBrowser.diff.executor": INTERNAL,
    "AsyncBrowser.downloads.executor": INTERNAL,
    "AsyncBrowser.emulation.executor": INTERNAL,
    "AsyncBrowser.keyboard.executor": INTERNAL,
    "AsyncBrowser.mouse.executor": INTERNAL,
    "AsyncBrowser.network.executor": INTERNAL,
    "AsyncBrowser.scripts.executor": INTERNAL,
    "AsyncBrowser.session.executor": INTERNAL,
    "AsyncBrowser.state.executor": INTERNAL,
    "AsyncBrowser.storage.executor": INTERNAL,
    "AsyncBrowser.tabs.executor": INTERNAL,
    "AsyncBrowser.webmcp.executor": INTERNAL,
    "AsyncFrame(frame_id)": MADE_BY_BROWSER,
    "AsyncFrame(frame_name)": MADE_BY_BROWSER,
    "AsyncFrame(frame_url)": MADE_BY_BROWSER,
    "AsyncFrame(parent_frame_id)": MADE_BY_BROWSER,
    "AsyncFrame.capture.executor": INTERNAL,
    "AsyncFrame.find.executor": INTERNAL,
    "AsyncFrame.url": CALLABLE_STR,
    "AsyncPage(frame_id)": MADE_BY_BROWSER,
    "AsyncPage(frame_name)": MADE_BY_BROWSER,
    "AsyncPage(frame_url)": MADE_BY_BROWSER,
    "AsyncPage(parent_frame_id)": MADE_BY_BROWSER,
    "AsyncPage(target_id)": MADE_BY_BROWSER,
    "AsyncPage.capture.executor": INTERNAL,
    "AsyncQuery(#3 action)": MADE_BY_BROWSER,
    "AsyncQuery(#4 params)": MADE_BY_BROWSER,
    "AsyncQuery(action)": MADE_BY_BROWSER,
    "AsyncQuery(executor)": MADE_BY_BROWSER,
    "AsyncQuery(params)": MADE_BY_BROWSER,
    "AsyncQuery(selector)": MADE_BY_BROWSER,
    "AsyncQuery.executor": INTERNAL,
    "AsyncRef.document": ANY_DOCUMENT,
    "AsyncSnapshot(document)": MADE_BY_BROWSER,
    "Browser.cdp.controller": INTERNAL,
    "Browser.cdp.frames.controller": INTERNAL,
    "Browser.clipboard.executor": INTERNAL,
    "Browser.cookies.executor": INTERNAL,
    "Browser.dashboard.executor": INTERNAL,
    "Browser.diagnostics.executor": INTERNAL,
    "Browser.dialogs.executor": INTERNAL,
    "Browser.diff.executor": INTERNAL,
    "Browser.downloads.executor": INTERNAL,
    "Browser.emulation.executor": INTERNAL,
    "Browser.keyboard.executor": INTERNAL,
    "Browser.mouse.executor": INTERNAL,
    "Browser.network.executor": INTERNAL,
    "Browser.scripts.executor": INTERNAL,
    "Browser.session.executor": INTERNAL,
    "Browser.state.executor": INTERNAL,
    "Browser.storage.executor": INTERNAL,
    "Browser.tabs.executor": INTERNAL,
    "Browser.webmcp.executor": INTERNAL,
    "BrowserResponse(warning!)": MADE_BY_BROWSER,
    "ConsoleMessage(column!)": MADE_BY_BROWSER,
    "ConsoleMessage(level!)": MADE_BY_BROWSER,
    "ConsoleMessage(line!)": MADE_BY_BROWSER,
    "ConsoleMessage(raw!)": MADE_BY_BROWSER,
    "ConsoleMessage(url!)": MADE_BY_BROWSER,
    "Cookie(domain!)": MADE_BY_BROWSER,
    "Cookie(expires!)": MADE_BY_BROWSER,
    "Cookie(http_only!)": MADE_BY_BROWSER,
    "Cookie(path!)": MADE_BY_BROWSER,
    "Cookie(raw!)": MADE_BY_BROWSER,
    "Cookie(same_site!)": MADE_BY_BROWSER,
    "Cookie(secure!)": MADE_BY_BROWSER,
    "Frame(frame_id)": MADE_BY_BROWSER,
    "Frame(frame_name)": MADE_BY_BROWSER,
    "Frame(frame_url)": MADE_BY_BROWSER,
    "Frame(parent_frame_id)": MADE_BY_BROWSER,
    "Frame.capture.executor": INTERNAL,
    "Frame.find.executor": INTERNAL,
    "Frame.url": CALLABLE_STR,
    "ImageContent(source!)": MADE_BY_BROWSER,
    "NetworkRequest(method!)": MADE_BY_BROWSER,
    "NetworkRequest(raw!)": MADE_BY_BROWSER,
    "NetworkRequest(resource_type!)": MADE_BY_BROWSER,
    "NetworkRequest(status!)": MADE_BY_BROWSER,
    "Page(frame_id)": MADE_BY_BROWSER,
    "Page(frame_name)": MADE_BY_BROWSER,
    "Page(frame_url)": MADE_BY_BROWSER,
    "Page(parent_frame_id)": MADE_BY_BROWSER,
    "Page(target_id)": MADE_BY_BROWSER,
    "Page.capture.executor": INTERNAL,
    "Query(#3 action)": MADE_BY_BROWSER,
    "Query(#4 params)": MADE_BY_BROWSER,
    "Query(action)": MADE_BY_BROWSER,
    "Query(executor)": MADE_BY_BROWSER,
    "Query(params)": MADE_BY_BROWSER,
    "Query(selector)": MADE_BY_BROWSER,
    "Query.executor": INTERNAL,
    "ReadResult(raw!)": MADE_BY_BROWSER,
    "Ref.document": ANY_DOCUMENT,
    "RequestDetail(body!)": MADE_BY_BROWSER,
    "RequestDetail(method!)": MADE_BY_BROWSER,
    "RequestDetail(raw!)": MADE_BY_BROWSER,
    "RequestDetail(request_headers!)": MADE_BY_BROWSER,
    "RequestDetail(response_headers!)": MADE_BY_BROWSER,
    "RequestDetail(status!)": MADE_BY_BROWSER,
    "RequestDetail(url!)": MADE_BY_BROWSER,
    "SessionStatus(background_pid)": MADE_BY_BROWSER,
    "SessionStatus(compatibility_status)": MADE_BY_BROWSER,
    "SessionStatus(launch_hash)": MADE_BY_BROWSER,
    "SessionStatus(namespace)": MADE_BY_BROWSER,
    "SessionStatus(page_count)": MADE_BY_BROWSER,
    "SessionStatus(session_id)": MADE_BY_BROWSER,
    "SessionStatus(socket_dir)": MADE_BY_BROWSER,
    "Snapshot(document)": MADE_BY_BROWSER,
    "SnapshotDiff(text)": MADE_BY_BROWSER,
    "TabCloseResult(raw!)": MADE_BY_BROWSER,
    "TabCloseResult(target_id!)": MADE_BY_BROWSER,
    "TabInfo(active!)": MADE_BY_BROWSER,
    "TabInfo(label!)": MADE_BY_BROWSER,
    "TabInfo(raw!)": MADE_BY_BROWSER,
    "TabInfo(target_id!)": MADE_BY_BROWSER,
    "TabInfo(title!)": MADE_BY_BROWSER,
    "TabSwitchResult(raw!)": MADE_BY_BROWSER,
    "TabSwitchResult(target_id!)": MADE_BY_BROWSER,
    "WebMCPInvocation(error!)": MADE_BY_BROWSER,
    "WebMCPInvocation(original_output_bytes!)": MADE_BY_BROWSER,
    "WebMCPInvocation(output!)": MADE_BY_BROWSER,
    "WebMCPInvocation(output_truncated!)": MADE_BY_BROWSER,
    "WebMCPInvocation(raw!)": MADE_BY_BROWSER,
    "WebMCPInvocation(raw_status!)": MADE_BY_BROWSER,
    "WebMCPTool(backend_node_id!)": MADE_BY_BROWSER,
    "WebMCPTool(raw!)": MADE_BY_BROWSER,
    "cdp.AsyncCDPController(client_factory)": MADE_BY_BROWSER,
    "cdp.AsyncCDPController(executor)": MADE_BY_BROWSER,
    "cdp.AsyncCDPController.frames": CALLABLE_NAMESPACE,
    "cdp.AsyncCDPTarget(label!)": MADE_BY_BROWSER,
    "cdp.AsyncCDPTarget(target_id!)": MADE_BY_BROWSER,
    "cdp.AsyncCDPTarget(url!)": MADE_BY_BROWSER,
    "cdp.CDPController(client_factory)": MADE_BY_BROWSER,
    "cdp.CDPController(executor)": MADE_BY_BROWSER,
    "cdp.CDPController.frames": CALLABLE_NAMESPACE,
    "cdp.CDPTarget(label!)": MADE_BY_BROWSER,
    "cdp.CDPTarget(target_id!)": MADE_BY_BROWSER,
    "cdp.CDPTarget(url!)": MADE_BY_BROWSER,
}


@pytest.fixture(scope="module")
def comparison() -> dict[str, object]:
    try:
        return peer_api.compare()
    except Exception as exc:  # noqa: BLE001 (an install failure is a failure, with its message)
        pytest.fail(f"could not install or dump {peer_api.PEER}=={peer_api.PEER_VERSION}: {exc}")


def test_every_name_member_and_parameter_of_pyagentbrowser_exists(comparison: dict[str, object]) -> None:
    gaps = {g["key"]: g for g in comparison["gaps"]}  # type: ignore[attr-defined]
    unlisted = sorted(k for k in gaps if k not in EXCEPTIONS)
    assert not unlisted, "missing here and not in EXCEPTIONS:\n" + "\n".join(
        f"  {k}  [{gaps[k]['kind']}: {gaps[k]['detail']}]" for k in unlisted
    )


def test_the_exception_list_names_only_what_is_still_missing(comparison: dict[str, object]) -> None:
    gaps = {g["key"] for g in comparison["gaps"]}  # type: ignore[attr-defined]
    stale = sorted(k for k in EXCEPTIONS if k not in gaps)
    assert not stale, "present now: remove from EXCEPTIONS:\n" + "\n".join(f"  {k}" for k in stale)


def test_every_exception_has_a_reason() -> None:
    assert all(reason.strip() for reason in EXCEPTIONS.values())
