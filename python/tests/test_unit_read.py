"""Unit: ReadMode's constructors and refusals, and ReadResult decoding (no binary needed)."""

from __future__ import annotations

from typing import Any

import pytest
from agentbrowser import NativeParseError, ReadHeading, ReadMode, ReadResult


def test_read_mode_constructors_and_wire() -> None:
    assert ReadMode() == ReadMode.markdown()
    assert ReadMode.markdown().to_wire() == {}
    assert ReadMode.markdown(require=True).to_wire() == {"requireMarkdown": True}
    assert ReadMode.html().to_wire() == {"raw": True}
    assert ReadMode.outline_only().to_wire() == {"outline": True}
    assert ReadMode.llms_index().to_wire() == {"llms": "index"}
    assert ReadMode.llms_full(require_markdown=True).to_wire() == {"llms": "full", "requireMarkdown": True}


@pytest.mark.parametrize(
    "kwargs",
    [
        {"raw": True, "outline": True},
        {"raw": True, "require_markdown": True},
        {"raw": True, "llms": "index"},
        {"llms": "everything"},
    ],
)
def test_read_mode_refuses_incompatible_combinations(kwargs: dict[str, Any]) -> None:
    with pytest.raises(ValueError):
        ReadMode(**kwargs)


def test_read_mode_checks_types() -> None:
    with pytest.raises(TypeError):
        ReadMode(raw="yes")  # type: ignore[arg-type]


RAW: dict[str, Any] = {
    "url": "http://h/a",
    "finalUrl": "http://h/a.md",
    "status": 200,
    "contentType": "text/markdown",
    "source": "md-url",
    "title": "A",
    "truncated": True,
    "totalChars": 5000,
    "content": "# A\n\nbody",
    "outline": [{"level": 1, "text": "A", "anchor": "a"}],
    "attempts": [
        {"purpose": "page", "url": "http://h/a", "status": 200, "contentType": "text/html", "used": False},
        {"purpose": "md-url", "url": "http://h/a.md", "status": 200, "contentType": "text/markdown", "used": True},
    ],
}


def test_read_result_decodes_the_wire() -> None:
    r = ReadResult.from_raw(RAW)
    assert (r.url, r.final_url, r.status, r.content_type, r.source) == (
        "http://h/a",
        "http://h/a.md",
        200,
        "text/markdown",
        "md-url",
    )
    assert (r.truncated, r.content, r.total_chars, r.title, r.sections) == (True, "# A\n\nbody", 5000, "A", None)
    assert r.outline == (ReadHeading(1, "A", "a"),)
    assert [a.used for a in r.attempts] == [False, True]
    assert r.raw is RAW
    assert len(repr(ReadResult.from_raw({**RAW, "content": "x" * 10000}))) < 400


def test_read_result_refuses_a_malformed_answer() -> None:
    with pytest.raises(NativeParseError) as err:
        ReadResult.from_raw({**RAW, "source": "somewhere"})
    assert "source" in str(err.value)
    bad = dict(RAW)
    del bad["totalChars"]
    with pytest.raises(NativeParseError):
        ReadResult.from_raw(bad)
