"""Rebuilding a delta snapshot's whole text and refs from its base (no browser)."""

from __future__ import annotations

from typing import Any

from agentbrowser import SnapshotChange
from agentbrowser.models.snapshot import rebuild


def _info(role: str, name: str) -> dict[str, str]:
    return {"role": role, "name": name, "frame": "F"}


BASE: dict[str, Any] = {
    "text": '- heading "A" [level=1, ref=e1]\n- button "say \\"ref=e9]\\"" [ref=e2]\n- text: [ref=e8]\n- link "x" [ref=e3]',
    "refs": {"e1": _info("heading", "A"), "e2": _info("button", 'say "ref=e9]"'), "e3": _info("link", "x")},
}


def _answer(kind: str, change: dict[str, Any] | None, line_count: int, refs: dict[str, Any]) -> dict[str, Any]:
    return {
        "text": "",
        "refs": refs,
        "delta": {"kind": kind, "baseGeneration": 1, "change": change, "lineCount": line_count, "removedRefs": []},
    }


def test_unchanged_gives_the_base() -> None:
    whole = rebuild(_answer("unchanged", None, 4, {}), BASE)
    assert whole is not None and whole["text"] == BASE["text"]
    assert list(whole["refs"]) == ["e1", "e2", "e3"]


def test_a_change_is_spliced_in_and_refs_keep_document_order() -> None:
    change = {"startLine": 2, "deleteCount": 1, "lines": ['- textbox "N" [focused, ref=e5]: v', "- text: hi"]}
    whole = rebuild(_answer("delta", change, 5, {"e5": _info("textbox", "N")}), BASE)
    assert whole is not None
    assert whole["text"].split("\n")[2:4] == ['- textbox "N" [focused, ref=e5]: v', "- text: hi"]
    assert list(whole["refs"]) == ["e1", "e2", "e5", "e3"]
    assert SnapshotChange(2, 1, tuple(change["lines"])).apply(BASE["text"]) == whole["text"]


def test_a_base_that_does_not_fit_is_refused() -> None:
    assert rebuild(_answer("delta", {"startLine": 3, "deleteCount": 5, "lines": []}, 1, {}), BASE) is None
    assert rebuild(_answer("delta", {"startLine": 0, "deleteCount": 1, "lines": []}, 9, {}), BASE) is None
