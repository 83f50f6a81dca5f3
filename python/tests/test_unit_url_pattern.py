"""The SDK's URL pattern rule (agentbrowser._url_pattern) against the table the engine's rule
(crates/protocol/src/url_pattern.rs) is tested with: one rule, the same answers."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from agentbrowser._url_pattern import UrlPattern, url_matches
from agentbrowser.cdp._core import matches_url

TABLE = json.loads((Path(__file__).resolve().parents[2] / "crates/protocol/src/url_patterns.json").read_text())


@pytest.mark.parametrize(("pattern", "url", "expected"), TABLE["matches"])
def test_matches_like_the_engine(pattern: str, url: str, expected: bool) -> None:
    assert UrlPattern.parse(pattern).matches(url) is expected
    assert url_matches(pattern, url) is expected
    assert matches_url(pattern, url) is expected


@pytest.mark.parametrize(("pattern", "hint"), TABLE["refused"])
def test_refuses_like_the_engine(pattern: str, hint: str) -> None:
    with pytest.raises(ValueError) as e:
        UrlPattern.parse(pattern)
    assert hint in str(e.value)
