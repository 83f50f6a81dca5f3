"""Unit: the tool-result types of seed 001, the registry (validation, injection, normalisation,
domains failing closed) and sensitive data (substitution inside calls, masking in records)."""

from __future__ import annotations

import asyncio
import base64
import dataclasses
import inspect
from collections.abc import Awaitable
from dataclasses import dataclass
from typing import Any, Literal, TypeVar

import pydantic
import pytest
from agentbrowser.code import SensitiveData
from agentbrowser.tools import (
    ActionResult,
    JudgementResult,
    ToolCallRecord,
    ToolContext,
    ToolError,
    Tools,
    url_matches,
)

T = TypeVar("T")


def run(coro: Awaitable[T]) -> T:
    async def main() -> T:
        return await coro

    return asyncio.run(main())


def ctx(**kw: Any) -> tuple[ToolContext, list[ToolCallRecord]]:
    records: list[ToolCallRecord] = []
    return ToolContext(browser=None, record=records.append, **kw), records


# -- seed 001 ----------------------------------------------------------------------------------


def test_action_result_defaults_are_the_seeds() -> None:
    r = ActionResult()
    assert [(f.name, getattr(r, f.name)) for f in dataclasses.fields(r)] == [
        ("is_done", False),
        ("success", None),
        ("judgement", None),
        ("error", None),
        ("attachments", None),
        ("images", None),
        ("long_term_memory", None),
        ("extracted_content", None),
        ("include_extracted_content_only_once", False),
        ("metadata", None),
        ("include_in_memory", False),
    ]
    j = JudgementResult(verdict=True)
    assert (j.verdict, j.reasoning, j.failure_reason, j.impossible_task, j.reached_captcha) == (
        True, None, None, False, False,
    )
    with pytest.raises(TypeError):
        JudgementResult()  # type: ignore[call-arg]  # verdict is required
    with pytest.raises(dataclasses.FrozenInstanceError):
        r.error = "x"  # type: ignore[misc]
    with pytest.raises(TypeError):
        ActionResult(unknown_field=1)  # type: ignore[call-arg]


def test_success_true_needs_is_done() -> None:
    with pytest.raises(ValueError) as err:
        ActionResult(success=True, extracted_content="Step completed")
    assert "success=True requires is_done=True" in str(err.value)
    assert "success=True can only be set when is_done=True" in str(err.value)
    with pytest.raises(ValueError):
        ActionResult(success=True, is_done=None)
    done = ActionResult(is_done=True, success=True, extracted_content="Task completed")
    assert done.success is True and str(done) == "Task completed"
    # success=False without is_done, and error with is_done, are allowed (browser-use's rules).
    assert ActionResult(success=False).success is False
    assert ActionResult(is_done=True, error="late failure").error == "late failure"
    judged = ActionResult(is_done=True, success=True, judgement=JudgementResult(verdict=False, failure_reason="no"))
    assert judged.judgement is not None and judged.judgement.verdict is False


def test_str_and_tool_error() -> None:
    assert str(ActionResult(extracted_content="found", error="e")) == "found"
    assert str(ActionResult(error="broke")) == "broke"
    assert str(ActionResult()) == ""
    failed = ActionResult(error="nope")
    err = ToolError(failed)
    assert err.result is failed and str(err) == "nope"


# -- parameters ---------------------------------------------------------------------------------


def make_tools() -> Tools:
    tools = Tools(builtins=False)

    @tools.action("Add numbers")
    async def add(
        a: int, b: float = 1.5, mode: Literal["x", "y"] = "x", tags: list[str] | None = None, *, flag: bool = False
    ) -> str:
        return f"{a + b} {mode} {tags} {flag}"

    return tools


def test_parameters_are_validated_from_type_hints() -> None:
    tools = make_tools()
    c, _ = ctx()
    assert run(tools.act("add", (1,), {}, c)).extracted_content == "2.5 x None False"
    assert run(tools.act("add", (1, 2, "y", ["t"]), {"flag": True}, c)).extracted_content == "3.0 y ['t'] True"
    bad: list[tuple[tuple[Any, ...], dict[str, Any], str]] = [
        ((), {}, "add() is missing the required parameter 'a'"),
        (("1",), {}, "add(): parameter 'a' must be int, got str '1'"),
        ((True,), {}, "parameter 'a' must be int, got bool"),
        ((1, "2"), {}, "parameter 'b' must be float"),
        ((1,), {"mode": "z"}, "parameter 'mode' must be one of 'x', 'y', got str 'z'"),
        ((1,), {"tags": ["a", 2]}, "parameter 'tags'[1] must be str, got int 2"),
        ((1,), {"tags": "a"}, "parameter 'tags' must be list[str] (a list)"),
        ((1,), {"flag": 1}, "parameter 'flag' must be bool"),
        ((1, 2, "x", None, True), {}, "add() takes 4 positional arguments (a, b, mode, tags) but 5 were given"),
        ((1,), {"a": 2}, "add() got parameter 'a' twice"),
        ((1,), {"c": 3}, "add() got an unknown parameter 'c'; allowed parameters: a, b, mode, tags, flag"),
        ((1,), {"page_url": "x"}, "unknown parameter 'page_url' (it is injected, not passed)"),
    ]
    for args, kwargs, message in bad:
        result = run(tools.act("add", args, kwargs, c))
        assert result.error is not None and message in result.error, (args, kwargs, result.error)
    unknown = run(tools.act("nope", (), {}, c))
    assert unknown.error == "unknown tool 'nope'; tools: add"


def test_param_model_dataclass_and_pydantic() -> None:
    tools = Tools(builtins=False)

    @dataclass
    class Search:
        query: str
        limit: int = 10
        sites: list[str] = dataclasses.field(default_factory=list)

    class Order(pydantic.BaseModel):
        item: str
        count: int = 1

    @tools.action("Search", param_model=Search)
    async def search(params: Search, context: ToolContext) -> str:
        assert isinstance(context, ToolContext)
        return f"{params.query}|{params.limit}|{params.sites}"

    @tools.action("Order", param_model=Order)
    async def order(o: Order) -> str:
        return f"{o.item}x{o.count}"

    c, _ = ctx()
    assert run(tools.act("search", ("cats",), {}, c)).extracted_content == "cats|10|[]"
    assert run(tools.act("search", ("cats", 3), {"sites": ["a.com"]}, c)).extracted_content == "cats|3|['a.com']"
    err = run(tools.act("search", (), {"query": "x", "page": 2}, c)).error
    assert err == "search() got an unknown parameter 'page' (it is injected, not passed); allowed parameters: query, limit, sites"
    assert "parameter 'limit' must be int" in (run(tools.act("search", ("x", "3"), {}, c)).error or "")
    assert run(tools.act("order", ("tea", 2), {}, c)).extracted_content == "teax2"
    assert run(tools.act("order", (), {"item": "tea"}, c)).extracted_content == "teax1"
    assert "unknown parameter 'size'; allowed parameters: item, count" in (
        run(tools.act("order", ("tea",), {"size": 3}, c)).error or ""
    )
    assert "missing the required parameter 'item'" in (run(tools.act("order", (), {}, c)).error or "")
    assert "async search(query: str, limit: int = 10, sites: list[str] = ...) -> ActionResult  # Search" in (
        tools.prompt_description()
    )


def test_registration_rules() -> None:
    tools = Tools(builtins=False)
    with pytest.raises(ValueError, match=r"\*\*kwargs is not allowed"):

        @tools.action("bad")
        async def bad(x: str, **kwargs: Any) -> None: ...

    with pytest.raises(ValueError, match=r"\*args is not allowed"):

        @tools.action("bad")
        async def bad2(*args: Any) -> None: ...

    with pytest.raises(ValueError, match="description"):
        tools.action("  ")

    @tools.action("one")
    async def one() -> None: ...

    with pytest.raises(ValueError, match="already registered"):

        @tools.action("again")
        async def one() -> None: ...  # noqa: F811

    assert Tools().names() == (
        "navigate", "observe", "click", "fill", "select", "read", "screenshot", "tabs", "switch_tab", "done",
    )
    assert "screenshot" not in Tools(exclude=["screenshot"]).names()
    with pytest.raises(KeyError, match="no tool named 'zzz'; tools: one"):
        tools.get("zzz")


def test_prompt_description_lines() -> None:
    tools = make_tools()
    assert tools.prompt_description() == (
        "async add(a: int, b: float = 1.5, mode: Literal['x', 'y'] = 'x', tags: list[str] | None = None, "
        "*, flag: bool = False) -> ActionResult  # Add numbers"
    )
    lines = Tools().prompt_description().splitlines()
    assert len(lines) == 10 and all(line.startswith("async ") and "-> ActionResult  # " in line for line in lines)
    assert "async done(text: str, success: bool = True, files_to_display: list[str] | None = None)" in lines[-1]


# -- injection and normalisation ----------------------------------------------------------------------


def test_injection_without_a_browser() -> None:
    tools = Tools(builtins=False)
    seen: dict[str, Any] = {}

    @tools.action("uses the context and the url")
    async def peek(x: int, context: ToolContext, page_url: str) -> str:
        seen.update(ctx=context, url=page_url)
        return "ok"

    @tools.action("needs the browser")
    async def drive(page: Any) -> str:
        return "never"

    c, _ = ctx()
    assert run(tools.act("peek", (1,), {}, c)).extracted_content == "ok"
    assert seen == {"ctx": c, "url": ""}
    assert tools.get("peek").signature_text() == "x: int"
    assert run(tools.act("drive", (), {}, c)).error == "drive needs a browser, and this tool context has none"


def test_return_normalisation_exceptions_and_timeouts() -> None:
    tools = Tools(builtins=False)

    @tools.action("structured")
    async def structured() -> ActionResult:
        return ActionResult(extracted_content="data", metadata={"n": 1})

    @tools.action("text")
    async def text() -> str:
        return "plain"

    @tools.action("nothing")
    async def nothing() -> None:
        return None

    @tools.action("wrong type")
    async def number() -> int:
        return 42

    @tools.action("raises")
    async def boom() -> None:
        raise ValueError("boom")

    @tools.action("sync tool")
    def sync(x: int) -> str:
        return str(x * 2)

    @tools.action("slow", timeout_s=0.05)
    async def slow() -> None:
        await asyncio.sleep(30)

    @tools.action("raises TimeoutError itself")
    async def own_timeout() -> None:
        raise TimeoutError("upstream")

    @tools.action("builds an invalid result")
    async def invalid() -> ActionResult:
        return ActionResult(success=True)

    c, _ = ctx()
    assert run(tools.act("structured", (), {}, c)) == ActionResult(extracted_content="data", metadata={"n": 1})
    assert run(tools.act("text", (), {}, c)) == ActionResult(extracted_content="plain")
    assert run(tools.act("nothing", (), {}, c)) == ActionResult()
    assert run(tools.act("number", (), {}, c)).error == "number returned int; a tool returns ActionResult, str or None"
    assert run(tools.act("boom", (), {}, c)).error == "boom failed: ValueError: boom"
    assert run(tools.act("sync", (4,), {}, c)).extracted_content == "8"
    assert run(tools.act("slow", (), {}, c)).error == "slow timed out after 0.05 s"
    assert run(tools.act("own_timeout", (), {}, c)).error == "own_timeout failed: TimeoutError: upstream"
    err = run(tools.act("invalid", (), {}, c)).error or ""
    assert err.startswith("invalid failed: ValueError: success=True requires is_done=True")


def test_bound_functions_raise_tool_error_and_record() -> None:
    tools = make_tools()

    @tools.action("fails")
    async def fails() -> ActionResult:
        return ActionResult(error="it broke")

    @tools.action("makes an image")
    async def picture() -> ActionResult:
        png = b"\x89PNG\r\n\x1a\nfake"
        return ActionResult(extracted_content="img", images=[{"name": "p.png", "data": base64.b64encode(png).decode()}])

    c, records = ctx()
    ns = tools.bind(c)
    assert set(ns) == {"add", "fails", "picture"}
    add = ns["add"]
    assert add.__name__ == "add" and add.__doc__ == "Add numbers"
    assert str(inspect.signature(add)).startswith("(a: int, b: float = 1.5")
    assert run(add(2, b=3)).extracted_content == "5.0 x None False"
    with pytest.raises(ToolError) as err:
        run(ns["fails"]())
    assert err.value.result.error == "it broke"
    with pytest.raises(ToolError, match="add\\(\\) got an unknown parameter 'zz'"):
        run(add(1, zz=1))
    run(ns["picture"]())
    assert [r.name for r in records] == ["add", "fails", "add", "picture"]
    assert records[0].args == {"a": 2, "b": 3} and records[0].result.extracted_content == "5.0 x None False"
    assert records[1].result.error == "it broke"
    (image,) = records[3].images
    assert image.data.startswith(b"\x89PNG") and image.media_type == "image/png" and image.name == "p.png"


# -- domains -------------------------------------------------------------------------------------


def test_url_patterns() -> None:
    cases = [
        ("https://example.com/x", "example.com", True),
        ("http://example.com/x", "example.com", True),
        ("https://a.b.example.com/", "*.example.com", True),
        ("https://example.com/", "*.example.com", True),
        ("https://evil-example.com/", "*.example.com", False),
        ("https://example.com.evil.net/", "example.com", False),
        ("http://example.com/", "https://example.com", False),
        ("https://EXAMPLE.com/", "https://example.COM", True),
        ("http://127.0.0.1:8123/form", "127.0.0.1", True),
        ("http://127.0.0.1:8123/form", "http://127.0.0.1:8123", True),
        ("http://127.0.0.1:8123/form", "127.0.0.1:9999", False),
        ("http://127.0.0.1:8123/form", "http*://127.0.0.1:*", True),
        ("https://example.com/admin/users", "https://example.com/admin/*", True),
        ("https://example.com/public", "https://example.com/admin/*", False),
        ("about:blank", "*.example.com", False),
        ("", "example.com", False),
        ("data:text/html,hi", "*", True),
    ]
    for url, pattern, expected in cases:
        assert url_matches(url, pattern) is expected, (url, pattern)


def test_domains_fail_closed() -> None:
    tools = Tools(builtins=False)
    called: list[str] = []

    @tools.action("admin only", domains=["https://*.example.com"])
    async def admin() -> str:
        called.append("admin")
        return "ran"

    @tools.action("anywhere")
    async def anywhere() -> str:
        return "ran"

    c, records = ctx()
    result = run(tools.act("admin", (), {}, c))  # no browser: no page URL, so refused
    assert result.error == "admin is not allowed on this page (no page URL): it runs only on pages matching https://*.example.com"
    assert called == [] and records[0].result is result
    assert tools.prompt_description("https://www.example.com/") == (
        "async admin() -> ActionResult  # admin only [only on pages matching: https://*.example.com]\n"
        "async anywhere() -> ActionResult  # anywhere"
    )
    assert tools.prompt_description("http://127.0.0.1/") == "async anywhere() -> ActionResult  # anywhere"
    assert tools.prompt_description("") == "async anywhere() -> ActionResult  # anywhere"
    assert "admin()" in tools.prompt_description()  # no URL given: every tool, with its globs
    with pytest.raises(TypeError):
        tools.action("x", domains="example.com")


# -- sensitive data -----------------------------------------------------------------------------------


def test_sensitive_data_substitute_and_mask() -> None:
    s = SensitiveData({"user": "ada", "pin": "ada42", "https://*.bank.com": {"password": "hunter2"}, "empty": ""})
    assert s.names() == ("empty", "password", "pin", "user")
    assert s.substitute("<secret>user</secret>:<secret>password</secret>", "https://www.bank.com/login") == "ada:hunter2"
    # A scoped secret is not substituted elsewhere, nor without a URL.
    assert s.substitute("<secret>password</secret>", "https://evil.com/") == "<secret>password</secret>"
    assert s.substitute("<secret>password</secret>", None) == "<secret>password</secret>"
    assert s.unresolved("<secret>password</secret> <secret>nope</secret> <secret>user</secret>", "https://x.org") == (
        "password",
        "nope",
    )
    # Longer values first ("ada42" before "ada"); empty values never masked.
    assert s.mask("pin ada42, user ada, pw hunter2") == (
        "pin <secret>pin</secret>, user <secret>user</secret>, pw <secret>password</secret>"
    )
    assert s.mask("") == "" and s.mask("nothing here") == "nothing here"
    assert s.mask_value({"k": ["ada", ("hunter2",)], "n": 3}) == {"k": ["<secret>user</secret>", ("<secret>password</secret>",)], "n": 3}
    assert SensitiveData.coerce({}) is None and SensitiveData.coerce(None) is None and SensitiveData.coerce(s) is s
    with pytest.raises(ValueError):
        SensitiveData({"x": 3})  # type: ignore[dict-item]
    assert "hunter2" not in repr(s)


def test_secrets_substituted_in_calls_and_masked_in_records() -> None:
    tools = Tools(builtins=False)
    received: list[Any] = []

    @tools.action("log in")
    async def login(user: str, password: str, extra: list[str] | None = None) -> str:
        received.append((user, password, extra))
        return f"logged in as {user} with {password}"

    c, records = ctx(sensitive=SensitiveData({"user": "ada", "password": "hunter2", "https://x.com": {"key": "k-9"}}))
    ns = tools.bind(c)
    result = run(ns["login"]("<secret>user</secret>", password="<secret>password</secret>", extra=["<secret>user</secret>!"]))
    assert received == [("ada", "hunter2", ["ada!"])]
    assert result.extracted_content == "logged in as <secret>user</secret> with <secret>password</secret>"
    assert records[-1].args == {
        "user": "<secret>user</secret>",
        "password": "<secret>password</secret>",
        "extra": ["<secret>user</secret>!"],
    }
    # A value the model typed in clear is masked in the record too.
    run(ns["login"]("ada", "hunter2"))
    assert records[-1].args == {"user": "<secret>user</secret>", "password": "<secret>password</secret>"}
    assert "hunter2" not in repr(records)
    # A secret scoped to another site, or an unknown one: refused, the tool not called.
    with pytest.raises(ToolError) as err:
        run(ns["login"]("ada", "<secret>key</secret>"))
    assert err.value.result.error == (
        "login: secret key is not available on this page (no page URL); available here: password, user"
    )
    assert len(received) == 2
    bare, _ = ctx()
    refused = run(tools.act("login", ("<secret>user</secret>", "x"), {}, bare))
    assert refused.error == "login: the arguments use secret placeholders (user) but no sensitive data was given"
    assert len(received) == 2


def test_done_builtin_without_browser(tmp_path: Any) -> None:
    tools = Tools()
    c, _ = ctx()
    report = tmp_path / "report.txt"
    report.write_text("r")
    with pytest.raises(ToolError, match="done: file not found: missing.txt"):
        run(tools.bind(c)["done"]("x", files_to_display=["missing.txt"]))
    assert "_task_done" not in c.namespace
    result = run(tools.bind(c)["done"]("All done", True, [str(report)]))
    assert result.is_done is True and result.success is True and result.attachments == [str(report.resolve())]
    assert c.namespace["_task_done"] is True and c.namespace["_task_result"] == "All done"
    assert c.namespace["_task_success"] is True and c.namespace["_task_attachments"] == [str(report.resolve())]
    failed = run(tools.act("done", ("Could not", False), {}, c))
    assert failed.is_done is True and failed.success is False and c.namespace["_task_success"] is False
    assert "no snapshot yet" in (run(tools.act("click", ("e1",), {}, c)).error or "")
