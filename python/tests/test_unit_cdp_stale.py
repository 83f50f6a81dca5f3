"""What the CDP layer makes of Chromium's answers for an execution context that went away
between its destruction and our hearing of it: a CDPStaleObjectError (look it up again), not a
bare protocol error."""

from __future__ import annotations

import pytest
from agentbrowser.cdp import _core
from agentbrowser.cdp import errors as err

SESSION = "S1"


def _registry_with_context() -> tuple[_core.Registry, _core.ContextData]:
    registry = _core.Registry()
    raw = {"id": 3, "uniqueId": "-123.456", "origin": "http://127.0.0.1", "name": "", "auxData": {"frameId": "F", "isDefault": True}}
    registry.feed({"method": "Runtime.executionContextCreated", "params": {"context": raw}, "sessionId": SESSION})
    (ctx,) = registry.of_session(SESSION)
    return registry, ctx


@pytest.mark.parametrize(
    "message", ["uniqueContextId not found", "Cannot find context with specified id", "Execution context was destroyed."]
)
def test_a_context_gone_during_the_call_is_stale(message: str) -> None:
    registry, ctx = _registry_with_context()
    flow = _core.evaluate("1", SESSION, registry, ctx, await_promise=False, return_by_value=True)
    sent = next(flow)
    assert sent.method == "Runtime.evaluate" and sent.params["uniqueContextId"] == ctx.unique_id
    with pytest.raises(err.CDPStaleObjectError, match="destroyed during the call"):
        flow.throw(err.CDPProtocolError("Runtime.evaluate", {"code": -32000, "message": message}))


def test_other_protocol_errors_stay_protocol_errors() -> None:
    registry, ctx = _registry_with_context()
    flow = _core.evaluate("1", SESSION, registry, ctx, await_promise=False, return_by_value=True)
    next(flow)
    with pytest.raises(err.CDPProtocolError) as raised:
        flow.throw(err.CDPProtocolError("Runtime.evaluate", {"code": -32602, "message": "Invalid parameters"}))
    assert not isinstance(raised.value, err.CDPStaleObjectError)
