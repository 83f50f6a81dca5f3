"""Unit: the wire form and input checks of the selector, function and ready waits."""

from __future__ import annotations

import pytest
from agentbrowser import Wait


def test_wire_forms() -> None:
    assert Wait.selector("#done").to_wire() == {"type": "selector", "selector": "#done", "state": "visible"}
    assert Wait.selector("//li", state="detached", timeout_ms=50).to_wire() == {
        "type": "selector",
        "selector": "//li",
        "state": "detached",
        "timeoutMs": 50,
    }
    assert Wait.function("() => window.ok").to_wire() == {"type": "function", "function": "() => window.ok"}
    assert Wait.ready().to_wire() == {"type": "ready", "minTextLength": 1}
    combo = Wait.all(Wait.ready(20), Wait.selector("#a", state="hidden"), timeout_ms=900)
    assert combo.to_wire()["conditions"][0] == {"type": "ready", "minTextLength": 20}
    assert combo.budget_ms() == 900
    assert repr(Wait.selector("#a", state="hidden")) == "Wait.selector('#a', state='hidden')"


def test_bad_inputs_name_the_field() -> None:
    with pytest.raises(ValueError, match="visible, hidden, attached, detached"):
        Wait.selector("#a", state="shown")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="non-empty selector"):
        Wait.selector("  ")
    with pytest.raises(TypeError, match="Locator"):
        Wait.selector(5)
    with pytest.raises(ValueError, match="non-empty function"):
        Wait.function("")
    with pytest.raises(ValueError, match=">= 1"):
        Wait.ready(0)
    with pytest.raises(TypeError, match="min_text_length"):
        Wait.ready("3")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="timeout_ms"):
        Wait.function("1", timeout_ms=-1)
