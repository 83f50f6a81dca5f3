"""Pure-logic tests: decoding, validation, bounded representations (no binary needed)."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from agentbrowser import (
    ActionResult,
    BrowserResponse,
    CloseResult,
    LaunchOptions,
    LaunchResult,
    NativeParseError,
    SessionStatus,
    Snapshot,
    SnapshotDiff,
    SnapshotSpec,
    TabCloseResult,
    TabInfo,
    TabSwitchResult,
    Wait,
)


class FakeBrowser:
    """Stands in for a browser where only pure model logic is exercised."""


def snap_raw(n_refs: int = 3, text: str | None = None) -> dict[str, Any]:
    refs = {f"e{i}": {"role": "button", "name": f"Button {i}", "frame": "main"} for i in range(1, n_refs + 1)}
    refs["e100"] = {"role": "link", "name": "Home  page", "frame": "child"}
    return {
        "text": text if text is not None else '- button "Button 1" [ref=e1]\n- link "Home page" [ref=e100]',
        "origin": "http://127.0.0.1:8000/",
        "tab": "t1",
        "generation": 7,
        "spec": {
            "selector": None,
            "interactive": True,
            "compact": False,
            "maxDepth": None,
            "urls": False,
            "maxBytes": 100_000,
        },
        "refs": refs,
        "truncated": False,
        "omitted": [],
    }


def make_snapshot(**kw: Any) -> Snapshot[Any]:
    return Snapshot.from_raw(snap_raw(**kw), FakeBrowser())  # type: ignore[type-var]


# -- SnapshotSpec ---------------------------------------------------------------


def test_snapshot_spec_defaults_and_wire() -> None:
    spec = SnapshotSpec()
    assert (spec.selector, spec.interactive, spec.compact, spec.max_depth, spec.urls) == (
        None,
        True,
        False,
        None,
        False,
    )
    assert spec.max_bytes == 100_000
    assert spec.to_wire() == {"interactive": True, "compact": False, "urls": False, "maxBytes": 100_000}
    spec = SnapshotSpec(selector="main", interactive=False, compact=True, max_depth=0, urls=True, max_bytes=0)
    assert spec.to_wire() == {
        "selector": "main",
        "interactive": False,
        "compact": True,
        "urls": True,
        "maxDepth": 0,
        "maxBytes": 0,
    }
    with pytest.raises(dataclasses.FrozenInstanceError):
        spec.compact = False  # type: ignore[misc]


def test_snapshot_spec_validation() -> None:
    with pytest.raises(ValueError, match="max_depth"):
        SnapshotSpec(max_depth=-1)
    with pytest.raises(TypeError, match="max_depth"):
        SnapshotSpec(max_depth="3")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="max_depth"):
        SnapshotSpec(max_depth=True)
    with pytest.raises(TypeError, match="interactive"):
        SnapshotSpec(interactive=1)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="selector"):
        SnapshotSpec(selector="  ")


# -- Wait ---------------------------------------------------------------------------


def test_wait_wire_forms() -> None:
    assert Wait.text("Done").to_wire() == {"type": "text", "text": "Done"}
    assert Wait.url("http://x/*", timeout_ms=500).to_wire() == {"type": "url", "url": "http://x/*", "timeoutMs": 500}
    assert Wait.loaded().to_wire() == {"type": "load", "state": "load"}
    assert Wait.loaded("networkidle", timeout_ms=0).to_wire() == {
        "type": "load",
        "state": "networkidle",
        "timeoutMs": 0,
    }
    combined = Wait.all(Wait.text("a"), Wait.loaded("domcontentloaded"), timeout_ms=900)
    assert combined.to_wire() == {
        "type": "all",
        "conditions": [{"type": "text", "text": "a"}, {"type": "load", "state": "domcontentloaded"}],
        "timeoutMs": 900,
    }
    assert Wait.all(Wait.text("a", timeout_ms=100), Wait.url("u", timeout_ms=200)).budget_ms() == 300


def test_wait_loaded_none_waits_for_nothing() -> None:
    # pyagentbrowser's "none": its engine answers such a load wait at once.  It has no wire form:
    # Wait.all leaves it out, and alone (or all of such) an action sends no wait at all.
    none = Wait.loaded("none")
    assert none.waits_for_nothing and not Wait.loaded().waits_for_nothing
    assert Wait.all(none, Wait.loaded("none")).waits_for_nothing
    mixed = Wait.all(none, Wait.text("Save"), timeout_ms=500)
    assert not mixed.waits_for_nothing
    assert mixed.to_wire() == {"type": "all", "conditions": [{"type": "text", "text": "Save"}], "timeoutMs": 500}
    with pytest.raises(ValueError, match="waits for nothing"):
        none.to_wire()


def test_wait_validation() -> None:
    with pytest.raises(ValueError, match="timeout_ms"):
        Wait.text("x", timeout_ms=-1)
    with pytest.raises(ValueError, match="at least one"):
        Wait.all()
    with pytest.raises(ValueError, match="state"):
        Wait.loaded("complete")
    with pytest.raises(TypeError):
        Wait.all("text")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        Wait.text(3)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="timeout_ms"):
        Wait.url("x", timeout_ms=1.5)  # type: ignore[arg-type]
    assert "Wait.text" in repr(Wait.text("x" * 10_000)) and len(repr(Wait.text("x" * 10_000))) < 200


# -- LaunchOptions ------------------------------------------------------------------------


def test_launch_options_wire_and_validation() -> None:
    opts = LaunchOptions(
        headless=False, executable_path="/usr/bin/chromium", args=["--lang=de"], window_size=(800, 600)
    )
    assert opts.args == ("--lang=de",)
    assert opts.to_wire() == {
        "headless": False,
        "executablePath": "/usr/bin/chromium",
        "args": ["--lang=de"],
        "windowWidth": 800,
        "windowHeight": 600,
    }
    assert LaunchOptions(cdp_url="http://127.0.0.1:9222").to_wire()["cdpUrl"] == "http://127.0.0.1:9222"
    # The protocol's ranges: a request timeout of 0 to 24 hours, window sides of 1 to 16384 pixels.
    assert LaunchOptions(timeout_ms=0).timeout_ms == 0 and LaunchOptions(timeout_ms=86_400_000).timeout_ms == 86_400_000
    assert LaunchOptions(window_size=(1, 16_384)).to_wire()["windowHeight"] == 16_384
    bad: list[tuple[dict[str, Any], type[Exception], str]] = [
        ({"headless": "yes"}, TypeError, "headless"),
        ({"executable_path": 3}, TypeError, "executable_path"),
        ({"args": "--x"}, TypeError, "args"),
        ({"args": ["--x", 3]}, TypeError, r"args\[1\]"),
        ({"window_size": (800,)}, TypeError, "window_size"),
        ({"window_size": (0, 600)}, ValueError, "window_size"),
        ({"timeout_ms": -5}, ValueError, "timeout_ms"),
        ({"timeout_ms": 86_400_001}, ValueError, "timeout_ms"),
        ({"window_size": (800, 16_385)}, ValueError, "window_size"),
        ({"timeout_ms": 1.5}, TypeError, "timeout_ms"),
        ({"session": "bad name!"}, ValueError, "session"),
        ({"session": 5}, TypeError, "session"),
        ({"cdp_url": "ftp://x"}, ValueError, "cdp_url"),
    ]
    for kwargs, exc, field in bad:
        with pytest.raises(exc, match=field):
            LaunchOptions(**kwargs)


# -- Snapshot and Ref (pure parts) ------------------------------------------------------------


def test_snapshot_decoding_and_lookup() -> None:
    snap = make_snapshot()
    assert snap.url == snap.origin == "http://127.0.0.1:8000/"
    assert snap.generation == 7 and snap.spec == SnapshotSpec()
    assert set(snap.refs) == {"e1", "e2", "e3", "e100"}
    ref = snap.ref("@e2")
    assert ref is snap.ref("e2") is snap.ref("ref=e2")
    assert (ref.id, ref.selector, ref.role, ref.name) == ("e2", "@e2", "button", "Button 2")
    assert ref.snapshot is snap and isinstance(ref.browser, FakeBrowser)
    assert ref.raw == {"role": "button", "name": "Button 2", "frame": "main"} and ref.frame == "main"
    assert snap.tab == "t1" and snap.omitted == () and not snap.truncated
    with pytest.raises(KeyError, match="e999"):
        snap.ref("e999")
    with pytest.raises(TypeError):
        snap.refs["e9"] = ref  # type: ignore[index]


def test_snapshot_one_all_criteria() -> None:
    snap = make_snapshot()
    assert len(snap.all(role="button")) == 3
    assert snap.all(role="BUTTON") == snap.all(role="button")
    assert snap.one(role="link").id == "e100"
    assert snap.one(name="home page").id == "e100"  # case and whitespace-insensitive
    with pytest.raises(LookupError):
        snap.one(name="home page", exact=True)
    assert snap.one(name="Home  page", exact=True).id == "e100"
    assert snap.one(contains="ton 3").id == "e3"
    assert snap.all(contains="button", exact=True) == ()
    with pytest.raises(LookupError) as err:
        snap.one(role="button")
    message = str(err.value)
    assert "3 refs match" in message and "role='button'" in message and "@e1" in message


def test_lookup_error_bounded_candidates() -> None:
    snap = make_snapshot(n_refs=300)
    with pytest.raises(LookupError) as err:
        snap.one(role="button", name="No such")
    message = str(err.value)
    assert "no ref matches" in message and "name='No such'" in message
    assert message.count("@e") == 10 and "289 more" in message  # e100 is the link
    assert len(message) < 1000


def test_snapshot_bounded_reprs() -> None:
    big = "\n".join(f'- button "Button {i}" [ref=e{i}]' for i in range(50_000))
    snap = make_snapshot(n_refs=2000, text=big)
    assert len(repr(snap)) < 400
    assert len(repr(snap.ref("e5"))) < 200
    md = snap._repr_markdown_()
    html = snap._repr_html_()
    assert "Snapshot" in md and "```" in md and len(md) < 7000
    assert "<pre>" in html and len(html) < 12_000
    assert len(snap.text) == len(big)  # the full content stays in .text


def test_snapshot_missing_field_raises_native_parse_error() -> None:
    raw = snap_raw()
    del raw["refs"]
    with pytest.raises(NativeParseError) as err:
        Snapshot.from_raw(raw, FakeBrowser())  # type: ignore[type-var]
    assert err.value.field == "refs" and err.value.model == "SnapshotOutput" and "refs" in str(err.value)
    raw = snap_raw()
    raw["refs"]["e1"] = {"name": "no role"}
    with pytest.raises(NativeParseError, match="role"):
        Snapshot.from_raw(raw, FakeBrowser())  # type: ignore[type-var]
    raw = snap_raw()
    raw["generation"] = "7"
    with pytest.raises(NativeParseError, match="generation"):
        Snapshot.from_raw(raw, FakeBrowser())  # type: ignore[type-var]


def test_action_result_and_diff_decoding() -> None:
    browser = FakeBrowser()
    diff_raw = {"diff": "+ x\n- y\n" * 5000, "added": 5000, "removed": 5000, "unchanged": 3, "changed": True}
    data = {
        "action": "click",
        "target": {"ref": "e1", "role": "button", "name": "Button 1"},
        "before": snap_raw(),
        "after": snap_raw(),
        "diff": diff_raw,
    }
    target = make_snapshot().ref("e1")
    result = ActionResult.from_raw(data, browser, target)  # type: ignore[type-var]
    assert result.action == "click" and result.target is target and result.changed
    assert isinstance(result.before, Snapshot) and isinstance(result.after, Snapshot)
    assert isinstance(result.diff, SnapshotDiff) and result.diff.added == 5000 and result.diff.text == result.diff.diff
    assert len(repr(result)) < 300 and len(repr(result.diff)) < 300
    assert result.raw is data
    empty = ActionResult.from_raw(
        {"action": "press", "target": None, "before": None, "after": None, "diff": None}, browser, None
    )  # type: ignore[type-var]
    assert empty.before is None and not empty.changed
    with pytest.raises(NativeParseError, match="unchanged"):
        SnapshotDiff.from_raw({"diff": "", "added": 0, "removed": 0, "changed": False})


# -- session models --------------------------------------------------------------------------


STATUS = {
    "session": "default",
    "running": True,
    "version": "0.1.0",
    "pid": 100,
    "socket": None,
    "engine": "agentbrowser",
    "browser": {"launched": True, "pid": 101, "version": "Chrome/1", "wsUrl": "ws://x"},
    "pages": 1,
    "activeTab": "t1",
    "idleTimeoutMs": 0,
}


def test_session_status() -> None:
    st = SessionStatus.from_raw(STATUS)
    assert st.session == "default" and st.pid == 100 and st.browser_pid == 101 and st.browser_launched
    assert st.pages == 1 and st.engine == "agentbrowser" and st.compatible and st.active_tab == "t1"
    assert st.restore_status == "not_configured" and st.save_status == "not_configured" and st.raw is STATUS
    broken = {k: v for k, v in STATUS.items() if k != "pages"}
    with pytest.raises(NativeParseError, match="pages"):
        SessionStatus.from_raw(broken)
    with pytest.raises(NativeParseError, match="launched"):
        SessionStatus.from_raw({**STATUS, "browser": {}})


def test_launch_result() -> None:
    raw = {"launched": True, "attached": True, "browserVersion": "Chrome/1", "wsUrl": "ws://h/x", "pid": None}
    result = LaunchResult.from_raw(raw)
    assert (result.launched, result.attached, result.browser_version, result.ws_url, result.pid) == (
        True,
        True,
        "Chrome/1",
        "ws://h/x",
        None,
    )
    assert result.raw is raw and "ws://h/x" in repr(result)
    with pytest.raises(NativeParseError, match="wsUrl"):
        LaunchResult.from_raw({k: v for k, v in raw.items() if k != "wsUrl"})


def test_tab_models() -> None:
    tab = {"id": "t2", "targetId": "ABC", "url": "http://x/" + "p" * 5000, "title": "T", "active": True}
    info = TabInfo.from_raw(tab)
    assert (info.id, info.target_id, info.active, info.label) == ("t2", "ABC", True, None)
    assert len(repr(info)) < 400
    switched = TabSwitchResult.from_raw(tab)
    assert isinstance(switched, TabInfo) and not switched.revived and not switched.dialog_blocked
    closed = TabCloseResult.from_raw({"closed": "t2", "tab": tab, "active": {**tab, "id": "t1"}})
    assert closed.id == "t2" and closed.closed and closed.url == tab["url"] and not closed.active_tab_revived
    assert closed.active_tab is not None and closed.active_tab.id == "t1"
    with pytest.raises(NativeParseError, match="active"):
        TabInfo.from_raw({k: v for k, v in tab.items() if k != "active"})


def test_close_result_and_response() -> None:
    res = CloseResult.from_raw({"closed": True})
    assert res.closed and res.restore_status == "not_configured" and res.save_status == "not_configured"
    assert res.state_path is None and res.save_error is None
    with pytest.raises(NativeParseError, match="closed"):
        CloseResult.from_raw({})
    env = {
        "id": 3,
        "action": "title",
        "success": False,
        "data": None,
        "error": "x" * 10_000,
        "code": "timeout",
        "warning": None,
    }
    resp = BrowserResponse.from_raw(env)
    assert (resp.id, resp.action, resp.success, resp.code) == (3, "title", False, "timeout")
    assert resp.raw is env and len(repr(resp)) < 500
    with pytest.raises(NativeParseError, match="success"):
        BrowserResponse.from_raw({"id": 1})


# -- diagnostics -----------------------------------------------------------------------------


MESSAGE = {
    "type": "error",
    "text": "boom {a: 1}",
    "level": "error",
    "source": "console",
    "url": "http://h/a.js",
    "line": 3,
    "column": 7,
    "args": ["boom", "{a: 1}"],
    "timestamp": 1.5,
    "truncated": False,
}
PAGE_ERROR = {
    "kind": "rejection",
    "message": "Error: no",
    "stack": "at f (http://h/a.js:1:2)",
    "url": "http://h/a.js",
    "line": 1,
    "column": 2,
    "timestamp": 2.5,
    "truncated": False,
}


def test_console_and_error_logs() -> None:
    from agentbrowser import ConsoleLog, ConsoleMessage, ErrorLog, PageError
    from agentbrowser import _wire_types as w

    raw = {"tab": "t2", "messages": [MESSAGE, {**MESSAGE, "text": "second"}], "dropped": 4, "cleared": True}
    log = ConsoleLog.from_wire(w.ConsoleOutput.decode(raw), raw)
    assert (log.tab, log.dropped, log.cleared, len(log)) == ("t2", 4, True, 2)
    assert log[0] == ConsoleMessage(
        type="error", text="boom {a: 1}", level="error", url="http://h/a.js", line=3, column=7, raw=MESSAGE
    )
    assert [m.text for m in log] == ["boom {a: 1}", "second"] and log[0].raw["args"] == ["boom", "{a: 1}"]
    assert "dropped=4" in repr(log) and len(repr(log)) < 300
    eraw = {"tab": "t1", "errors": [PAGE_ERROR], "dropped": 0, "cleared": False}
    errors = ErrorLog.from_wire(w.ErrorsOutput.decode(eraw), eraw)
    assert errors[0] == PageError(
        kind="rejection",
        message="Error: no",
        stack="at f (http://h/a.js:1:2)",
        url="http://h/a.js",
        line=1,
        column=2,
        raw=PAGE_ERROR,
    )
    with pytest.raises(NativeParseError, match="level"):
        w.ConsoleOutput.decode({**raw, "messages": [{**MESSAGE, "level": "loud"}]})
    data = {
        "action": "click",
        "target": None,
        "before": None,
        "after": None,
        "diff": None,
        "consoleErrors": [MESSAGE],
        "pageErrors": [PAGE_ERROR],
    }
    result = ActionResult.from_raw(data, FakeBrowser(), None)  # type: ignore[type-var]
    assert result.console_errors == (log[0],) and result.page_errors == (errors[0],)


def test_models_that_are_wire_records_keep_the_dataclass_contract() -> None:
    import copy
    import pickle

    import agentbrowser.models as models
    from agentbrowser import BoundingBox, ElementGeometry, ScrollPosition, ScrollResult, Viewport, Vital
    from agentbrowser._decode import Record

    box = BoundingBox(1.0, 2.0, 3.0, 4.0, 5.0, 6.0, True)
    scrolled = ScrollResult("t1", "document", "document", ScrollPosition(0, 0), ScrollPosition(0, 5), True)
    vital = Vital(1.5, "ms", "good", 2.0, 4.0, None)
    for model in (box, scrolled, vital, Viewport(800, 600, 1.0, False)):
        assert dataclasses.is_dataclass(model)
        assert copy.copy(model) == model == pickle.loads(pickle.dumps(model)) == copy.deepcopy(model)
        assert dataclasses.replace(model) == model and hash(dataclasses.replace(model)) == hash(model)
    assert dataclasses.replace(box, x=9.0).x == 9.0 and type(dataclasses.replace(box, x=9.0)) is BoundingBox
    assert dataclasses.asdict(scrolled)["after"] == {"x": 0, "y": 5}
    assert repr(box) == "BoundingBox(x=1.0, y=2.0, width=3.0, height=4.0, page_x=5.0, page_y=6.0, visible=True)"
    assert ElementGeometry("t1", "document", 0, 0, 10, 10, 10, 10, 20, 10).overflows_x
    with pytest.raises(dataclasses.FrozenInstanceError):
        box.x = 2.0  # type: ignore[misc]
    # Every public model that is a record (python/tools/gen_wire.py DATACLASS_RECORDS names it) is a dataclass.
    records = [getattr(models, n) for n in models.__all__]
    records = [c for c in records if isinstance(c, type) and issubclass(c, Record)]
    assert len(records) >= 15 and all(dataclasses.is_dataclass(c) for c in records), records
