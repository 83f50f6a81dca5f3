"""End-to-end: `agentbrowser mcp` driven by the official MCP Python client (stdio and streamable
HTTP) and by the MCP Inspector's CLI, on pages served on 127.0.0.1."""

from __future__ import annotations

import asyncio
import base64
import json
import struct
import os
import re
import subprocess
import urllib.error
import urllib.request
from collections.abc import AsyncIterator, Callable, Coroutine
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
from conftest import PAGES, REPO, _page, aeventually, alive, children, eventually
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client

PAGES["/mcp-signup"] = _page(
    "Sign up",
    "<h1>Sign up</h1><form onsubmit=\"event.preventDefault();"
    "document.getElementById('status').textContent='Welcome, '+document.getElementById('n').value+"
    "' ('+document.getElementById('p').value+(document.getElementById('s').checked?', subscribed':'')+')'\">"
    '<label>Name <input id="n"></label><label>Email <input id="m" type="email"></label>'
    '<label><input id="s" type="checkbox"> Subscribe</label>'
    '<label>Plan <select id="p"><option>Free</option><option>Pro</option></select></label>'
    '<button id="go">Sign up</button></form><p role="status" id="status"></p>',
)
PAGES["/mcp-stale"] = _page(
    "Stale",
    "<div id='box'><button onclick=\"document.getElementById('box').innerHTML="
    "'<button>Replacement</button>'\">Replace me</button></div>",
)
PAGES["/mcp-mods"] = _page(
    "Modifiers",
    "<button onclick=\"document.getElementById('o').textContent='held: '+[event.shiftKey&&'shift',"
    "event.altKey&&'alt'].filter(Boolean).join('+')\">Press</button><p role='status' id='o'></p>",
)
PAGES["/mcp-upload"] = _page(
    "Upload",
    "<button onclick=\"document.getElementById('f').click()\">Choose files</button>"
    '<input id="f" type="file" multiple style="display:none">'
    "<label for='g' role='button' tabindex='0'>Avatar</label><input id='g' type='file' hidden>"
    "<select id='t' multiple aria-label='Toppings'><option>Cheese</option><option>Olives</option></select>"
    "<p role='status' id='o'></p><script>for (const id of ['f', 'g']) document.getElementById(id)"
    ".addEventListener('change', e => { document.getElementById('o').textContent = "
    "Array.from(e.target.files).map(f => id + ':' + f.name + ' ' + f.size).join(', '); });</script>",
)
PAGES["/mcp-log-a"] = _page("Log A", "<p>A</p><script>console.log('from page A'); console.error('error on A')</script>")
PAGES["/mcp-log-b"] = _page("Log B", "<p>B</p><script>console.log('from page B')</script>")
PAGES["/mcp-big"] = _page(
    "Big", "".join(f"<button>Button number {i} with a fairly long accessible name</button>" for i in range(3000))
)

CORE = [
    "browser_navigate",
    "browser_navigate_back",
    "browser_snapshot",
    "browser_click",
    "browser_type",
    "browser_fill_form",
    "browser_select_option",
    "browser_hover",
    "browser_drag",
    "browser_press_key",
    "browser_file_upload",
    "browser_drop",
    "browser_wait_for",
    "browser_evaluate",
    "browser_tabs",
    "browser_handle_dialog",
    "browser_confirm_action",
    "browser_close",
    "browser_diff",
    "browser_take_screenshot",
    "browser_console_messages",
    "browser_a11y_audit",
    "browser_vitals",
    "browser_network_requests",
    "browser_network_request",
    "browser_route",
    "browser_unroute",
    "browser_route_list",
    "browser_read",
    "browser_resize",
    "browser_find",
    "browser_emulate_media",
    "browser_list_options",
]


def run_in(directory: Path, main: Callable[[], Coroutine[Any, Any, None]]) -> None:
    """Runs ``main`` with ``directory`` as the working directory (the servers it starts write there)."""
    cwd = os.getcwd()
    os.chdir(directory)
    try:
        asyncio.run(main())
    finally:
        os.chdir(cwd)


def text_of(result: Any) -> str:
    return "\n".join(c.text for c in result.content if getattr(c, "type", "") == "text")


def ref_of(answer: str, role: str, name: str) -> str:
    m = re.search(rf'- {role} "{re.escape(name)}" \[(?:[^\]]*, )?ref=(e\d+)', answer)
    assert m, f"no {role} {name!r} in:\n{answer}"
    return m.group(1)


def chromium_children(pid: int) -> list[int]:
    """The browsers ``pid`` runs: its Chromium children that are not helpers (``--type=``)."""

    def helper(p: int) -> bool:
        try:
            with open(f"/proc/{p}/cmdline", "rb") as f:
                return b"--type=" in f.read()
        except OSError:
            return True

    return [p for p, name in children(pid) if name == "chromium" and not helper(p)]


def chromium_processes(pid: int) -> list[int]:
    """Every Chromium process (browser, helper, crash handler) whose parent is ``pid``."""
    return [p for p, name in children(pid) if name.startswith("chrom")]


@asynccontextmanager
async def stdio(bin_path: Path, *args: str, top: tuple[str, ...] = ()) -> AsyncIterator[ClientSession]:
    """An MCP session with `agentbrowser [TOP...] mcp [ARGS...]` over stdio."""
    params = StdioServerParameters(command=str(bin_path), args=[*top, "mcp", *args], env=dict(os.environ))
    async with stdio_client(params) as (r, w), ClientSession(r, w) as session:
        init = await session.initialize()
        assert init.protocol_version == "2025-11-25"
        assert init.server_info.name == "agentbrowser"
        yield session


class HttpServer:
    """`agentbrowser mcp --port 0`, with the URL it prints."""

    def __init__(self, bin_path: Path, *args: str) -> None:
        self.proc = subprocess.Popen(
            [str(bin_path), "mcp", "--port", "0", *args],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        assert self.proc.stderr is not None
        line = self.proc.stderr.readline()
        m = re.search(r"http://127\.0\.0\.1:(\d+)/mcp", line)
        assert m, f"no URL in {line!r}"
        self.port = int(m.group(1))
        self.url = f"http://127.0.0.1:{self.port}/mcp"

    def stop(self) -> None:
        self.proc.terminate()
        self.proc.wait(timeout=20)


@pytest.fixture
def http_server(agentbrowser_bin: Path) -> Any:
    s = HttpServer(agentbrowser_bin)
    yield s
    s.stop()
    assert s.proc.returncode == 0
    assert not chromium_processes(s.proc.pid)


@asynccontextmanager
async def http(url: str) -> AsyncIterator[ClientSession]:
    async with streamable_http_client(url) as (r, w), ClientSession(r, w) as session:
        init = await session.initialize()
        assert init.protocol_version == "2025-11-25"
        yield session


async def call(session: ClientSession, tool: str, **args: Any) -> str:
    result = await session.call_tool(tool, args)
    assert not result.is_error, f"{tool} failed:\n{text_of(result)}"
    return text_of(result)


async def error(session: ClientSession, tool: str, **args: Any) -> str:
    result = await session.call_tool(tool, args)
    assert result.is_error, f"{tool} did not fail:\n{text_of(result)}"
    return text_of(result)


async def sign_up_task(session: ClientSession, server: str) -> None:
    """Open, snapshot, fill a form, click, read the result, close."""
    tools = {t.name: t for t in (await session.list_tools()).tools}
    assert list(tools) == CORE
    assert tools["browser_snapshot"].annotations.read_only_hint is True
    assert tools["browser_click"].annotations.read_only_hint is False
    assert tools["browser_click"].annotations.destructive_hint is True
    assert tools["browser_navigate"].annotations.open_world_hint is True
    assert tools["browser_click"].input_schema["additionalProperties"] is False
    assert tools["browser_click"].input_schema["required"] == ["target"]

    opened = await call(session, "browser_navigate", url=f"{server}/mcp-signup")
    assert "### Snapshot" in opened and "Sign up" in opened
    snap = await call(session, "browser_snapshot")
    name, email = ref_of(snap, "textbox", "Name"), ref_of(snap, "textbox", "Email")
    subscribe, plan = ref_of(snap, "checkbox", "Subscribe"), ref_of(snap, "combobox", "Plan")
    filled = await call(
        session,
        "browser_fill_form",
        fields=[
            {"target": name, "name": "Name", "type": "textbox", "value": "Ann"},
            {"target": email, "name": "Email", "type": "textbox", "value": "ann@example.com"},
            {"target": subscribe, "name": "Subscribe", "type": "checkbox", "value": "true"},
            {"target": plan, "name": "Plan", "type": "combobox", "value": "Pro"},
        ],
    )
    assert f"fill {name}" in filled and f"check {subscribe}" in filled and f"select {plan}" in filled
    assert "ann@example.com" in filled  # what the page looks like now
    clicked = await call(session, "browser_click", target=ref_of(snap, "button", "Sign up"), element="Sign up")
    assert "Welcome, Ann (Pro, subscribed)" in clicked, clicked
    read = await call(session, "browser_evaluate", function="() => document.getElementById('status').textContent")
    assert '"Welcome, Ann (Pro, subscribed)"' in read
    markdown = await call(session, "browser_read")
    assert "Welcome, Ann (Pro, subscribed)" in markdown, markdown
    await call(session, "browser_evaluate", function="() => console.error('mcp says %s', 'hi')")
    logged = await call(session, "browser_console_messages", level="error")
    assert "mcp says hi" in logged, logged
    shot = await session.call_tool("browser_take_screenshot", {})
    assert not shot.is_error, text_of(shot)
    images = [c for c in shot.content if getattr(c, "type", None) == "image"]
    assert len(images) == 1 and images[0].mime_type == "image/png"
    png = base64.b64decode(images[0].data)
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", png[16:24])
    # The picture is the viewport: as wide and as high as the page says it is.
    viewport = await call(session, "browser_evaluate", function="() => innerWidth + 'x' + innerHeight")
    assert f"{width}x{height}" in viewport, (width, height, viewport)
    closed = await call(session, "browser_close")
    assert "closed" in closed
    # The next call starts a new browser.
    again = await call(session, "browser_navigate", url=f"{server}/")
    assert "Home" in again


def test_task_over_stdio(agentbrowser_bin: Path, server: str) -> None:
    async def main() -> None:
        async with stdio(agentbrowser_bin) as session:
            await sign_up_task(session, server)

    asyncio.run(main())


def test_task_over_http(http_server: HttpServer, server: str) -> None:
    async def main() -> None:
        async with http(http_server.url) as session:
            await sign_up_task(session, server)

    asyncio.run(main())


async def error_cases(session: ClientSession, server: str) -> None:
    opened = await call(session, "browser_navigate", url=f"{server}/mcp-stale")
    old = ref_of(opened, "button", "Replace me")
    assert "unknown_ref:" in await error(session, "browser_click", target="e999")
    await call(session, "browser_click", target=old)
    stale = await error(session, "browser_click", target=old)
    assert "stale_ref:" in stale, stale
    bad = await error(session, "browser_click", target=old, bogus=1)
    assert "invalid_argument:" in bad and "unknown field `bogus`" in bad and "doubleClick" in bad
    assert "invalid_argument:" in await error(session, "browser_click")
    assert "invalid argument `target`" in await error(session, "browser_click", target=5)
    assert "`values`" in await error(session, "browser_select_option", target="e1", values=[])
    assert "exactly one of" in await error(session, "browser_wait_for")
    assert "no element matches selector `#nothing-here`" in await error(session, "browser_click", target="#nothing-here")
    ambiguous = await error(session, "browser_click", target="//div | //button")
    assert "ambiguous_target:" in ambiguous and "matches 2 elements" in ambiguous, ambiguous
    assert "Replacement" in await call(session, "browser_hover", target="//button[text()='Replacement']")
    unknown = await error(session, "browser_teleport")
    assert "unknown_action:" in unknown and "browser_click" in unknown
    assert "--caps history" in await error(session, "browser_reload")
    # After every error the session still works.
    assert "Replacement" in await call(session, "browser_snapshot")


async def drag_case(session: ClientSession, server: str) -> None:
    await call(session, "browser_navigate", url=f"{server}/layout")
    await call(session, "browser_drag", startElement="card", startRef="#card", endElement="drop zone", endRef="#zone")
    zone = await call(session, "browser_evaluate", function="() => document.getElementById('zone').textContent")
    assert "Got card" in zone, zone
    assert "not_found:" in await error(session, "browser_drag", startRef="#card", endRef="#nothing")


def test_drag_tool(agentbrowser_bin: Path, server: str) -> None:
    async def main() -> None:
        async with stdio(agentbrowser_bin) as session:
            await drag_case(session, server)

    asyncio.run(main())


def test_list_options_tool_comes_from_the_protocol(agentbrowser_bin: Path, server: str) -> None:
    """`options` declares its tool in the protocol alone; the tool reads the page's own options."""

    async def main() -> None:
        async with stdio(agentbrowser_bin) as session:
            await call(session, "browser_navigate", url=f"{server}/mcp-signup")
            plan = ref_of(await call(session, "browser_snapshot"), "combobox", "Plan")
            listed = await call(session, "browser_list_options", ref=plan)
            assert '[x] "Free"' in listed and '[ ] "Pro"' in listed, listed
            await call(session, "browser_select_option", target=plan, element="Plan", values=["Pro"])
            listed = await call(session, "browser_list_options", ref=plan)
            assert '[ ] "Free"' in listed and '[x] "Pro"' in listed, listed
            refused = await error(session, "browser_list_options", ref=plan, limit=0)
            assert "invalid_argument" in refused and "`limit`" in refused, refused

    asyncio.run(main())


def test_errors_are_tool_errors_with_our_codes(agentbrowser_bin: Path, server: str) -> None:
    async def main() -> None:
        async with stdio(agentbrowser_bin) as session:
            await error_cases(session, server)

    asyncio.run(main())


def test_errors_over_http(http_server: HttpServer, server: str) -> None:
    async def main() -> None:
        async with http(http_server.url) as session:
            await error_cases(session, server)

    asyncio.run(main())


def test_stdio_disconnect_leaves_no_chromium(agentbrowser_bin: Path, server: str) -> None:
    found: dict[str, Any] = {}

    async def main() -> None:
        async with stdio(agentbrowser_bin) as session:
            servers = [p for p, name in children(os.getpid()) if name.startswith("agentbrowser")]
            assert len(servers) == 1, servers
            assert chromium_children(servers[0]) == []  # no browser before the first tool call
            await call(session, "browser_navigate", url=f"{server}/")
            found["server"], found["chromium"] = servers[0], chromium_children(servers[0])

    asyncio.run(main())
    assert found["chromium"], "no Chromium was launched"
    assert eventually(lambda: not alive(found["server"]), 10), "the server outlived its client"
    for pid in found["chromium"]:
        assert not alive(pid), "Chromium outlived the MCP connection"


def test_http_session_end_closes_its_browser(http_server: HttpServer, server: str) -> None:
    async def one() -> list[int]:
        async with http(http_server.url) as session:
            await call(session, "browser_navigate", url=f"{server}/")
            return chromium_children(http_server.proc.pid)

    async def main() -> None:
        first = await one()
        assert len(first) == 1
        assert eventually(lambda: not any(alive(p) for p in first), 10), "Chromium outlived its session"
        assert eventually(lambda: not chromium_processes(http_server.proc.pid), 10)
        # Two sessions at once have a browser each.
        async with http(http_server.url) as a, http(http_server.url) as b:
            await call(a, "browser_navigate", url=f"{server}/a")
            await call(b, "browser_navigate", url=f"{server}/b")
            assert "Page A" in await call(a, "browser_evaluate", function="document.title")
            assert "Page B" in await call(b, "browser_evaluate", function="document.title")
            assert len(chromium_children(http_server.proc.pid)) == 2
        assert eventually(lambda: not chromium_processes(http_server.proc.pid), 10)

    asyncio.run(main())
    assert http_server.proc.poll() is None, "the server should keep serving"


def raw_post(port: int, headers: dict[str, str]) -> int:
    body = json.dumps(
        {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "initialize",
            "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}},
        }
    ).encode()
    req = urllib.request.Request(
        f"http://127.0.0.1:{port}/mcp",
        data=body,
        headers={"Content-Type": "application/json", "Accept": "application/json, text/event-stream", **headers},
    )
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            return int(r.status)
    except urllib.error.HTTPError as e:
        return int(e.code)


def test_http_refuses_foreign_hosts_and_origins(http_server: HttpServer) -> None:
    port = http_server.port
    assert raw_post(port, {}) == 200
    assert raw_post(port, {"Origin": f"http://127.0.0.1:{port}"}) == 200
    assert raw_post(port, {"Host": f"attacker.example:{port}"}) == 403
    assert raw_post(port, {"Origin": "http://attacker.example"}) == 403
    try:
        urllib.request.urlopen(f"http://127.0.0.1:{port}/other", timeout=10)
        raise AssertionError("/other answered")
    except urllib.error.HTTPError as e:
        assert e.code == 404


def test_session_flag_shares_the_cli_session(agentbrowser_bin: Path, server: str) -> None:
    def cli(*args: str) -> str:
        done = subprocess.run([str(agentbrowser_bin), "--session", "mcp-shared", *args], capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, done.stderr
        return done.stdout.strip()

    async def main() -> None:
        async with stdio(agentbrowser_bin, top=("--session", "mcp-shared")) as session:
            await call(session, "browser_navigate", url=f"{server}/a")
            assert cli("url") == f"{server}/a"
            cli("open", f"{server}/b")
            assert "Arrived at B" not in await call(session, "browser_snapshot")  # interactive view
            assert '"Page B"' in await call(session, "browser_evaluate", function="document.title")
            # browser_close ends the shared session; the next call starts its daemon again.
            await call(session, "browser_close")
            await call(session, "browser_navigate", url=f"{server}/b")

    try:
        asyncio.run(main())
        assert cli("url") == f"{server}/b", "the shared session ended with the MCP connection"
    finally:
        cli("close")


def test_caps_and_big_answers(agentbrowser_bin: Path, server: str, tmp_path: Path) -> None:
    async def main() -> None:
        async with stdio(agentbrowser_bin) as session:
            tools = [t.name for t in (await session.list_tools()).tools]
            assert tools == CORE
            opened = await call(session, "browser_navigate", url=f"{server}/mcp-big")
            assert len(opened.encode()) <= 40000
            assert "cut" in opened and "`target`" in opened, opened[-600:]
            assert "--max-bytes" not in opened  # the hint names this server's arguments
            part = await call(session, "browser_snapshot", maxBytes=2000)
            assert len(part.encode()) < 3000 and "truncated at 2000 bytes" in part
            assert "`maxBytes`" in await error(session, "browser_snapshot", maxBytes=10**6)
            whole = await call(session, "browser_snapshot", filename="big.txt")
            assert "wrote snapshot" in whole and "3000 refs" in whole, whole
            assert "Button number 2999" in (tmp_path / "big.txt").read_text()
            assert "relative path" in await error(session, "browser_snapshot", filename="/etc/x")

        async with stdio(agentbrowser_bin, "--caps", "history") as session:
            tools = [t.name for t in (await session.list_tools()).tools]
            assert tools == [*CORE, "browser_navigate_forward", "browser_reload"]
            await call(session, "browser_navigate", url=f"{server}/a")
            await call(session, "browser_navigate", url=f"{server}/b")
            assert "Page A" in await call(session, "browser_navigate_back")
            assert "Page B" in await call(session, "browser_navigate_forward")
            assert "Page B" in await call(session, "browser_reload")

    run_in(tmp_path, main)


def test_tabs_waits_and_keys(agentbrowser_bin: Path, server: str) -> None:
    async def main() -> None:
        async with stdio(agentbrowser_bin) as session:
            opened = await call(session, "browser_navigate", url=f"{server}/delayed-text")
            await call(session, "browser_click", target=ref_of(opened, "button", "Later"))
            waited = await call(session, "browser_wait_for", text="ready now")
            assert waited.startswith("### Result\nok after")
            # The engine's other conditions: an element's state, a predicate, page text.
            assert (await call(session, "browser_wait_for", selector="#d", state="visible")).startswith("### Result\nok after")
            await call(session, "browser_wait_for", function="() => document.getElementById('d').textContent === 'ready now'")
            await call(session, "browser_wait_for", ready=True, minTextLength=5)
            late = await error(session, "browser_wait_for", selector="#none", state="attached", timeout=300)
            assert "timeout:" in late and "no element matched" in late, late
            thrown = await error(session, "browser_wait_for", function="() => { throw new Error('mcp boom') }")
            assert "js_error:" in thrown and "mcp boom" in thrown, thrown
            assert "`state` goes with `selector`" in await error(session, "browser_wait_for", state="hidden")
            keys = await call(session, "browser_navigate", url=f"{server}/keys")
            box = ref_of(keys, "textbox", "Key box")
            typed = await call(session, "browser_type", target=box, text="hi", submit=True)
            assert "press Enter" in typed
            assert '"enter pressed"' in await call(session, "browser_evaluate", function="document.getElementById('r').textContent")
            mods = await call(session, "browser_navigate", url=f"{server}/mcp-mods")
            held = await call(session, "browser_click", target=ref_of(mods, "button", "Press"), modifiers=["Shift", "Alt"])
            assert "held: shift+alt" in held, held
            new = await call(session, "browser_tabs", action="new", url=f"{server}/a")
            assert "opened tab" in new and "Page A" in new
            listed = await call(session, "browser_tabs", action="list")
            assert listed.count("\n") >= 2 and "* t2" in listed
            selected = await call(session, "browser_tabs", action="select", index=0)
            assert "held: shift+alt" in selected
            assert "closed t2" in await call(session, "browser_tabs", action="close", tab="t2")
            assert "tab_not_found:" in await error(session, "browser_tabs", action="select", index=5)

    asyncio.run(main())


def test_file_upload_answers_the_chooser(agentbrowser_bin: Path, server: str, tmp_path: Path) -> None:
    a, b = tmp_path / "a.txt", tmp_path / "b.txt"
    a.write_text("hello")
    b.write_text("hi")

    async def main() -> None:
        async with stdio(agentbrowser_bin) as session:
            opened = await call(session, "browser_navigate", url=f"{server}/mcp-upload")
            clicked = await call(session, "browser_click", target=ref_of(opened, "button", "Choose files"))
            assert "file chooser open" in clicked and "browser_file_upload" in clicked, clicked
            done = await call(session, "browser_file_upload", paths=[str(a), str(b)])
            assert "files: a.txt (5 bytes), b.txt (2 bytes)" in done, done
            assert "f:a.txt 5, f:b.txt 2" in done, done
            # With a target: the label of a hidden input.
            done = await call(session, "browser_file_upload", paths=[str(b)], target="label[for=g]")
            assert "g:b.txt 2" in done, done
            # Nothing open now; a relative path is refused.
            assert "invalid_argument:" in await error(session, "browser_file_upload", paths=[str(a)])
            rel = await error(session, "browser_file_upload", paths=["a.txt"], target="label[for=g]")
            assert "relative" in rel, rel
            # Several options of a <select multiple>.
            await call(session, "browser_select_option", target="#t", values=["Cheese", "Olives"])
            picked = await call(
                session, "browser_evaluate", function="Array.from(document.getElementById('t').selectedOptions).length"
            )
            assert "2" in picked, picked

    asyncio.run(main())


PAGES["/mcp-dialog"] = _page(
    "Dialog",
    "<button onclick=\"document.getElementById('o').textContent='name: '+prompt('Your name?','anon')\">Ask</button>"
    "<button onclick=\"document.getElementById('o').textContent='sure: '+confirm('Sure?')\">Check</button>"
    "<p role='status' id='o'>none</p>",
)


def test_handle_dialog(agentbrowser_bin: Path, server: str) -> None:
    async def main() -> None:
        async with stdio(agentbrowser_bin) as session:
            opened = await call(session, "browser_navigate", url=f"{server}/mcp-dialog")
            clicked = await call(session, "browser_click", target=ref_of(opened, "button", "Ask"))
            assert "### Modal state" in clicked and '"prompt" dialog with message "Your name?"' in clicked, clicked
            assert "browser_handle_dialog" in clicked
            blocked = await error(session, "browser_snapshot")
            assert "dialog_open:" in blocked and "Your name?" in blocked, blocked
            answered = await call(session, "browser_handle_dialog", accept=True, promptText="Ada")
            assert "accepted prompt" in answered and "name: Ada" in answered, answered
            clicked = await call(session, "browser_click", target=ref_of(opened, "button", "Check"))
            assert '"confirm" dialog with message "Sure?"' in clicked, clicked
            refused = await error(session, "browser_handle_dialog", accept=False, promptText="x")
            assert "promptText" in refused
            dismissed = await call(session, "browser_handle_dialog", accept=False)
            assert "dismissed confirm" in dismissed and "sure: false" in dismissed, dismissed
            assert "no_dialog:" in await error(session, "browser_handle_dialog", accept=True)

    asyncio.run(main())


PAGES["/mcp-pad"] = _page(
    "Pad",
    "<div id='pad' style='position:absolute;left:0;top:0;width:300px;height:300px' "
    "onmousedown=\"o.textContent='down '+event.button+' at '+event.clientX+','+event.clientY\" "
    "onmouseup=\"o.textContent+=' / up'\">pad</div>"
    "<p role='status' id='o' style='position:absolute;top:320px'>idle</p><div style='height:3000px'></div>",
)


def test_vision_mouse(agentbrowser_bin: Path, server: str) -> None:
    async def main() -> None:
        async with stdio(agentbrowser_bin, "--caps", "vision") as session:
            tools = [t.name for t in (await session.list_tools()).tools]
            assert tools == [
                *CORE,
                "browser_mouse_move_xy",
                "browser_mouse_click_xy",
                "browser_mouse_drag_xy",
                "browser_mouse_down",
                "browser_mouse_up",
                "browser_mouse_wheel",
            ]
            await call(session, "browser_navigate", url=f"{server}/mcp-pad")
            await call(session, "browser_mouse_move_xy", element="pad", x=30, y=40)
            pressed = await call(session, "browser_mouse_down")
            assert "down 0 at 30,40" in pressed, pressed
            released = await call(session, "browser_mouse_up")
            assert "down 0 at 30,40 / up" in released, released
            await call(session, "browser_mouse_wheel", deltaX=0, deltaY=500)
            # Wheel scrolling is animated: the page gets there within a moment.
            async def scrolled() -> bool:
                return "true" in await call(session, "browser_evaluate", function="() => scrollY > 0")

            assert await aeventually(scrolled), "the wheel never scrolled the page"

    asyncio.run(main())


def inspector(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    exe = REPO / "node_modules" / ".bin" / "mcp-inspector"
    if not exe.exists():
        pytest.fail(f"{exe} is missing: run ./scripts/setup.sh (it installs the MCP Inspector with npm)")
    return subprocess.run([str(exe), "--cli", *args], capture_output=True, text=True, timeout=timeout)


def test_inspector_cli_lists_and_calls(agentbrowser_bin: Path, server: str) -> None:
    listed = inspector(str(agentbrowser_bin), "mcp", "--method", "tools/list")
    assert listed.returncode == 0, listed.stderr
    names = [t["name"] for t in json.loads(listed.stdout)["tools"]]
    assert names == CORE
    called = inspector(
        str(agentbrowser_bin), "mcp", "--method", "tools/call", "--tool-name", "browser_navigate",
        "--tool-arg", f"url={server}/form",
    )
    assert called.returncode == 0, called.stderr
    result = json.loads(called.stdout)
    assert result.get("isError") is not True
    assert "Sign up" in result["content"][0]["text"]


def test_print_config(agentbrowser_bin: Path) -> None:
    done = subprocess.run([str(agentbrowser_bin), "mcp", "--print-config"], capture_output=True, text=True, timeout=30)
    assert done.returncode == 0
    for client in ("Claude Code", "Claude Desktop", "Cursor", "VS Code"):
        assert client in done.stdout
    assert f"claude mcp add agentbrowser -- {agentbrowser_bin.resolve()} mcp" in done.stdout


def test_unknown_caps_are_refused(agentbrowser_bin: Path) -> None:
    done = subprocess.run([str(agentbrowser_bin), "mcp", "--caps", "teleport"], capture_output=True, text=True, timeout=30)
    assert done.returncode != 0 and "unknown capability `teleport`" in done.stderr



def test_resize(agentbrowser_bin: Path, server: str) -> None:
    async def main() -> None:
        async with stdio(agentbrowser_bin) as session:
            await call(session, "browser_navigate", url=f"{server}/mcp-dialog")
            resized = await call(session, "browser_resize", width=555, height=444)
            assert "555x444" in resized and "1 open tab" in resized, resized
            size = await call(session, "browser_evaluate", function="() => [innerWidth, innerHeight]")
            assert "[555,444]" in size.replace(" ", "").replace("\n", ""), size
            await call(session, "browser_tabs", action="new")
            later = await call(session, "browser_evaluate", function="() => innerWidth")
            assert "555" in later, later
            assert "invalid_argument:" in await error(session, "browser_resize", width=0, height=444)

    asyncio.run(main())


PAGES["/mcp-a11y"] = (
    "<!doctype html><html lang='en'><head><title>A11y</title></head><body><main><h1>A11y</h1>"
    "<img src='/none.png' id='noalt'><input type='text' id='nolabel'>"
    "<iframe id='inner' title='Inner' srcdoc=\"<!doctype html><html lang='en'><title>i</title><main><img id='innerimg'></main></html>\">"
    "</iframe></main></body></html>"
)


def test_a11y_audit_and_vitals_tools(agentbrowser_bin: Path, server: str) -> None:
    async def main() -> None:
        async with stdio(agentbrowser_bin) as session:
            await call(session, "browser_navigate", url=f"{server}/mcp-a11y")

            async def audited() -> bool:
                text = await call(session, "browser_a11y_audit", tags=["wcag2a"])
                return 'violation image-alt [critical] 2 nodes' in text and '["#inner","#innerimg"]' in text

            assert await aeventually(audited, 10)
            audit = await call(session, "browser_a11y_audit", url=f"{server}/mcp-a11y", maxNodes=1)
            assert "axe-core 4.14.1 on" in audit and "violation label" in audit, audit
            assert '["#noalt"]' in audit and "(1 more not listed" in audit, audit
            refused = await error(session, "browser_a11y_audit", tags=["wcag99zz"])
            assert "invalid_argument:" in refused and "wcag2aa" in refused, refused
            vitals = await call(session, "browser_vitals")
            assert "CLS" in vitals and "TTFB" in vitals and "INP  - (no interaction yet" in vitals, vitals

    asyncio.run(main())


def test_console_messages_since_the_last_navigation(agentbrowser_bin: Path, server: str) -> None:
    """As Playwright MCP's: the messages since the tab's last navigation, every kept one with ``all``."""

    async def main() -> None:
        async with stdio(agentbrowser_bin) as session:
            await call(session, "browser_navigate", url=f"{server}/mcp-log-a")

            async def logged(text: str, **args: Any) -> bool:
                return text in await call(session, "browser_console_messages", **args)

            assert await aeventually(lambda: logged("from page A"), 10)
            await call(session, "browser_navigate", url=f"{server}/mcp-log-b")
            assert await aeventually(lambda: logged("from page B"), 10)
            since = await call(session, "browser_console_messages")
            assert "from page A" not in since and "error on A" not in since, since
            assert "2 earlier messages, from before the tab's last navigation, not shown" in since, since
            assert "`all: true`" in since, since
            errors = await call(session, "browser_console_messages", level="error")
            assert "error on A" not in errors and "1 earlier messages" in errors, errors
            everything = await call(session, "browser_console_messages", all=True)
            assert everything.index("from page A") < everything.index("from page B"), everything
            assert "the first 2 of these are from before the tab's last navigation" in everything, everything
            # A navigation within the document is not a new page: nothing is hidden by it.
            await call(
                session, "browser_evaluate", function="() => { history.pushState({}, '', '#next'); console.log('same page') }"
            )
            assert await aeventually(lambda: logged("same page"), 10)
            assert "from page B" in await call(session, "browser_console_messages")

    asyncio.run(main())


def test_network_tools(agentbrowser_bin: Path, server: str) -> None:
    async def main() -> None:
        async with stdio(agentbrowser_bin) as session:
            await call(session, "browser_navigate", url=f"{server}/console")
            await call(session, "browser_evaluate", function="() => fetch('/nowhere').then(r => r.text())")
            listed = await call(session, "browser_network_requests", filter="nowhere")
            m = re.search(r"(r\d+) GET 404 fetch " + re.escape(f"{server}/nowhere"), listed)
            assert m, listed
            everything = await call(session, "browser_network_requests", includeStatic=True)
            assert f"GET 200 document {server}/console" in everything, everything
            detail = await call(session, "browser_network_request", id=m.group(1))
            assert "response headers:" in detail and "body (" in detail, detail
            missing = await error(session, "browser_network_request", id="r999999")
            assert "request_not_found" in missing, missing

    asyncio.run(main())


STORAGE = [
    "browser_storage_state",
    "browser_set_storage_state",
    "browser_cookie_list",
    "browser_cookie_get",
    "browser_cookie_set",
    "browser_cookie_delete",
    "browser_cookie_clear",
    "browser_localstorage_list",
    "browser_localstorage_get",
    "browser_localstorage_set",
    "browser_localstorage_delete",
    "browser_localstorage_clear",
    "browser_sessionstorage_list",
    "browser_sessionstorage_get",
    "browser_sessionstorage_set",
    "browser_sessionstorage_delete",
    "browser_sessionstorage_clear",
    "browser_auth_login",
]


def test_storage_tools(agentbrowser_bin: Path, server: str, tmp_path: Path) -> None:
    async def main() -> None:
        async with stdio(agentbrowser_bin, "--caps", "storage") as session:
            tools = {t.name: t for t in (await session.list_tools()).tools}
            assert list(tools) == [*CORE, *STORAGE]
            assert tools["browser_cookie_list"].annotations.read_only_hint is True
            assert tools["browser_cookie_set"].annotations.read_only_hint is False
            await call(session, "browser_navigate", url=f"{server}/a")
            assert "set 1 cookies: flavor (127.0.0.1/)" in await call(session, "browser_cookie_set", name="flavor", value="choc")
            listed = await call(session, "browser_cookie_list")
            assert "flavor (4 chars)" in listed and "choc" not in listed, listed
            assert "flavor=choc" in await call(session, "browser_cookie_list", showValues=True, domain="127.0.0.1")
            assert "no cookies" in await call(session, "browser_cookie_list", domain="example.com")
            assert "flavor=choc" in await call(session, "browser_cookie_get", name="flavor")
            assert "holds 1 entries" in await call(session, "browser_localstorage_set", key="k", value="local-v")
            assert "k=local-v" in await call(session, "browser_localstorage_get", key="k")
            local = await call(session, "browser_localstorage_list")
            assert "k (7 chars)" in local and "local-v" not in local, local
            await call(session, "browser_sessionstorage_set", key="s", value="sess-v")
            assert "s=sess-v" in await call(session, "browser_sessionstorage_list", showValues=True)
            assert "holds 0 entries" in await call(session, "browser_sessionstorage_delete", key="s")

            saved = await call(session, "browser_storage_state", filename="state.json")
            assert "1 cookies" in saved, saved
            doc = json.loads((tmp_path / "state.json").read_text())
            assert [c["name"] for c in doc["cookies"]] == ["flavor"]
            assert doc["origins"][0]["localStorage"] == [{"name": "k", "value": "local-v"}]
            assert "removed 1 cookies" in await call(session, "browser_cookie_delete", name="flavor")
            assert "no cookie named" in await error(session, "browser_cookie_get", name="flavor")
            assert "holds 0 entries" in await call(session, "browser_localstorage_clear")
            await call(session, "browser_sessionstorage_clear")
            assert "relative path" in await error(session, "browser_set_storage_state", filename="/etc/passwd")
            loaded = await call(session, "browser_set_storage_state", filename="state.json")
            assert "1 cookies" in loaded, loaded
            assert "flavor=choc" in await call(session, "browser_cookie_get", name="flavor")
            assert "k=local-v" in await call(session, "browser_localstorage_get", key="k")
            assert "removed 1 cookies" in await call(session, "browser_cookie_clear")

    run_in(tmp_path, main)


def test_playwright_route_network_state_and_config(agentbrowser_bin: Path, server: str) -> None:
    """Playwright MCP's shapes: a route without `status` or `body` sends the request on with its
    `headers` ("Name: Value") added and `removeHeaders` taken out, as the server sees it;
    browser_network_state_set takes every tab offline and back; browser_get_config answers the
    groups and the session."""
    echo = "() => fetch('/headers', {headers: {'X-Secret': 's', 'X-Keep': 'k'}}).then(r => r.text())"

    async def main() -> None:
        async with stdio(agentbrowser_bin, "--caps", "network,config") as session:
            await call(session, "browser_navigate", url=f"{server}/console")
            added = await call(
                session, "browser_route", pattern="**/headers", headers=["X-Added: yes"], removeHeaders="x-secret, X-Other"
            )
            assert "continue, set X-Added, remove x-secret, X-Other" in added, added
            seen = json.loads(json.loads((await call(session, "browser_evaluate", function=echo)).split("\n")[1]))
            assert seen["x-added"] == "yes" and seen["x-keep"] == "k" and "x-secret" not in seen, seen
            bad = await error(session, "browser_route", pattern="**/x", headers=["no colon"])
            assert "invalid_argument" in bad and '"no colon" is not "Name: Value"' in bad, bad
            lone = await error(session, "browser_route", pattern="**/x", contentType="text/plain")
            assert "invalid_argument" in lone and "contentType" in lone, lone
            await call(session, "browser_unroute")
            off = await call(session, "browser_network_state_set", state="offline")
            assert "Network is now offline" in off, off
            failed = await call(session, "browser_evaluate", function="() => fetch('/headers').then(() => 'ok', e => 'failed')")
            assert '"failed"' in failed, failed
            assert "Network is now online" in await call(session, "browser_network_state_set", state="online")
            ok = await call(session, "browser_evaluate", function="() => fetch('/headers').then(() => 'ok', e => 'failed')")
            assert '"ok"' in ok, ok
            config = await call(session, "browser_get_config")
            body = json.loads(config[config.index("{") :])
            assert body["capabilities"] == ["core", "network", "config"], body
            assert body["status"]["browser"]["launched"] is True and "emulation" in body["settings"], body

    asyncio.run(main())


def test_confirmations_surface_to_the_client(agentbrowser_bin: Path, server: str) -> None:
    """A click the action policy pauses is a tool error naming the id; browser_confirm_action runs or drops it."""

    async def main() -> None:
        async with stdio(agentbrowser_bin, "--confirm-actions", "click") as session:
            await call(session, "browser_navigate", url=f"{server}/a")
            go = ref_of(await call(session, "browser_snapshot"), "button", "Go")
            paused = await error(session, "browser_click", target=go, element="Go")
            m = re.search(r'confirmationId "(c-[^"]+)"', paused)
            assert "confirmation_required" in paused and 'button "Go"' in paused and m, paused
            done = await call(session, "browser_confirm_action", confirmationId=m.group(1), confirm=True)
            assert "confirmed click" in done and f"{server}/b" in done, done
            again = await error(session, "browser_confirm_action", confirmationId=m.group(1), confirm=False)
            assert "confirmation_consumed" in again
            await call(session, "browser_navigate", url=f"{server}/a")
            go = ref_of(await call(session, "browser_snapshot"), "button", "Go")
            m = re.search(r'confirmationId "(c-[^"]+)"', await error(session, "browser_click", target=go))
            assert m
            dropped = await call(session, "browser_confirm_action", confirmationId=m.group(1), confirm=False)
            assert "nothing ran" in dropped
            assert f"{server}/a" in await call(session, "browser_snapshot")

    asyncio.run(main())


def test_route_tools(agentbrowser_bin: Path, server: str) -> None:
    async def main() -> None:
        async with stdio(agentbrowser_bin) as session:
            added = await call(
                session, "browser_route", pattern="**/mcp-mocked", body="mocked!",
                contentType="text/plain", status=201, headers={"X-Mock": "1"},
            )
            assert "**/mcp-mocked" in added, added
            await call(session, "browser_route", pattern="**/mcp-blocked", abort="failed", times=1)
            await call(session, "browser_navigate", url=f"{server}/console")
            got = await call(
                session, "browser_evaluate",
                function="() => fetch('/mcp-mocked').then(async r => r.status + ':' + r.headers.get('x-mock') + ':' + await r.text())",
            )
            assert "201:1:mocked!" in got, got
            blocked = await call(
                session, "browser_evaluate",
                function="() => fetch('/mcp-blocked').then(r => 'ok:' + r.status, e => 'failed:' + e.name)",
            )
            assert "failed:TypeError" in blocked, blocked
            listed = await call(session, "browser_route_list")
            assert "**/mcp-mocked" in listed and "**/mcp-blocked" not in listed, listed
            bad = await error(session, "browser_route", pattern="{a,b")
            assert "invalid_argument" in bad and "`{`" in bad, bad
            removed = await call(session, "browser_unroute", pattern="**/mcp-mocked")
            assert "1" in removed, removed
            assert "**/mcp-mocked" not in await call(session, "browser_route_list")
            real = await call(
                session, "browser_evaluate",
                function="() => fetch('/mcp-mocked').then(r => 'status:' + r.status)",
            )
            assert "status:404" in real, real

    asyncio.run(main())
