"""Shared fixtures: the agentbrowser binary, a local HTTP server with test pages, browsers."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import threading
import time
from collections.abc import Awaitable, Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, urlparse

import pytest

REPO = Path(__file__).resolve().parents[2]


def binary_path() -> Path:
    env = os.environ.get("AGENTBROWSER_BIN")
    return Path(env) if env else REPO / "target" / "release" / "agentbrowser"


def eventually(cond: Callable[[], bool], seconds: float = 5.0) -> bool:
    """Whether ``cond`` holds within ``seconds`` (for what only asking again can show: an exited
    process, an event the page reports a moment later); checked every 50 ms, once more at the end."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if cond():
            return True
        time.sleep(0.05)
    return cond()


async def aeventually(cond: Callable[[], Awaitable[bool]], seconds: float = 5.0) -> bool:
    """The async twin of :func:`eventually`: ``cond`` is awaited."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if await cond():
            return True
        await asyncio.sleep(0.05)
    return await cond()


def children(pid: int) -> list[tuple[int, str]]:
    """The processes whose parent is ``pid``: (pid, command name)."""
    out = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                stat = f.read()
        except OSError:
            continue
        name = stat[stat.index("(") + 1 : stat.rindex(")")]
        fields = stat[stat.rindex(")") + 2 :].split()
        if fields[0] != "Z" and int(fields[1]) == pid:
            out.append((int(entry), name))
    return out


def alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(")")[-1].split()[0] != "Z"
    except OSError:
        return False


def _page(title: str, body: str, head: str = "") -> str:
    return (
        f"<!doctype html><html><head><meta charset=utf-8><title>{title}</title>{head}</head><body>{body}</body></html>"
    )


PAGES: dict[str, str] = {
    "/": _page(
        "Home",
        '<h1>Home</h1><a href="/form">Form</a> <a href="/a">Page A</a>'
        "<button onclick=\"document.getElementById('out').textContent='clicked'\">Press me</button>"
        '<p id="out"></p>',
    ),
    "/form": _page(
        "Form",
        "<h1>Sign up</h1>"
        '<label>Name <input id="name" type="text" placeholder="your name"></label>'
        '<label><input id="agree" type="checkbox"> Agree</label>'
        '<label>Color <select id="color"><option value="red">Red</option>'
        '<option value="blue">Blue</option></select></label>'
        '<button id="submit" onclick="document.getElementById(\'result\').textContent='
        "'Submitted ' + document.getElementById('name').value\">Submit</button>"
        '<button id="off" disabled>Disabled</button>'
        '<a id="home" href="/" data-kind="nav">Back home</a>'
        '<input id="hoverbox" aria-label="Hover box" onmouseover="this.value=\'hovered\'">'
        '<input id="focusbox" aria-label="Focus box" onfocus="this.value=\'focused\'">'
        "<button id=\"touch\" ontouchstart=\"document.getElementById('result').textContent='tapped'\">Tap me</button>"
        '<div style="height:3000px"></div><button id="far">Far away</button>'
        '<p id="result"></p><p id="hidden" style="display:none">secret</p>',
    ),
    "/a": _page("Page A", "<h1>A</h1><button onclick=\"location.href='/b'\">Go</button>"),
    "/b": _page("Page B", "<h1>B</h1><button>Go</button><p>Arrived at B</p>"),
    "/many": _page(
        "Many",
        "".join(f"<button>Button number {i} with a fairly long accessible name</button>" for i in range(400)),
    ),
    "/keys": _page(
        "Keys",
        '<input id="k" aria-label="Key box" autofocus '
        "onkeydown=\"if(event.key==='Enter'){document.getElementById('r').textContent='enter pressed'}\">"
        '<p id="r"></p>',
    ),
    "/dialogs": _page(
        "Dialogs",
        "<button onclick=\"alert('saved')\">Alert</button>"
        "<button onclick=\"document.getElementById('o').textContent = confirm('sure?') ? 'yes' : 'no'\">"
        'Confirm</button><p id="o"></p>',
    ),
    "/console": _page(
        "Console",
        "<button onclick=\"console.error('clicked %s', 'bad', {n: 1}); null.y\">Broken</button>"
        "<button onclick=\"document.getElementById('c').textContent='fine'\">Fine</button>"
        '<p id="c" role="status"></p>',
        "<script>console.log('loaded %d', 7, {a: [1]}); console.warn('careful');"
        " console.debug('details'); Promise.reject(new Error('at load'))</script>",
    ),
    # Served, so that no failed favicon load lands in a console a test reads.
    "/favicon.ico": "",
    "/capture": _page(
        "Capture",
        '<h1 style="margin:0;padding:8px">Capture heading</h1>'
        '<div id="red" style="position:absolute;left:100px;top:60px;width:200px;height:100px;background:#f00"></div>'
        '<button id="send" style="position:absolute;left:400px;top:200px;width:100px;height:40px">Send</button>'
        '<p class="two">a</p><p class="two">b</p>'
        '<div style="height:2000px"></div>',
        "<style>body{margin:0;background:#fff}</style>",
    ),
    "/targets": _page(
        "Targets",
        '<label>Email <input id="email" placeholder="you@example.com"></label>'
        '<button id="save" data-testid="save-btn" onclick="window.clicks.push(\'save\')">Save</button>'
        '<button class="row" onclick="window.clicks.push(\'row1\')">Delete</button>'
        '<button class="row" onclick="window.clicks.push(\'row2\')">Delete</button>'
        '<img alt="Company logo" title="The logo" width="10" height="10"'
        ' src="data:image/gif;base64,R0lGODlhAQABAAAAACw=">'
        '<label><input id="agree" type="checkbox"> Agree</label><p id="dyn"></p>',
        "<script>window.clicks = []</script>",
    ),
    "/layout": _page(
        "Layout",
        '<div id="panel" style="position:absolute;left:40px;top:30px;width:200px;height:100px;color:rgb(0, 128, 0)">'
        "Panel</div>"
        '<div id="list" style="position:absolute;left:300px;top:30px;width:150px;height:80px;overflow:auto">'
        '<div style="height:400px">tall</div></div>'
        '<div id="card" draggable="true" style="position:absolute;left:40px;top:200px;width:100px;height:50px">Card</div>'
        '<div id="zone" style="position:absolute;left:300px;top:200px;width:150px;height:80px">Drop here</div>'
        '<input id="src" value="copy me" style="position:absolute;left:40px;top:320px">'
        '<input id="dst" style="position:absolute;left:300px;top:320px">'
        '<p class="two">a</p><p class="two">b</p><div style="height:3000px"></div>'
        "<script>const z = document.getElementById('zone');"
        " document.getElementById('card').addEventListener('dragstart', e => e.dataTransfer.setData('text/plain', 'card'));"
        " z.addEventListener('dragover', e => e.preventDefault());"
        " z.addEventListener('drop', e => { e.preventDefault(); z.textContent = 'Got ' + e.dataTransfer.getData('text/plain'); });"
        "</script>",
        "<style>body{margin:0}</style>",
    ),
    "/reach": _page(
        "Reach",
        '<div id="host"></div><div id="plain" style="width:160px;height:30px">Listener only</div>'
        '<div class="noise">Row one</div><div class="noise">Row two</div>',
        "<script>window.hits = []; addEventListener('DOMContentLoaded', () => {"
        " const r = document.getElementById('host').attachShadow({mode: 'closed'});"
        " r.innerHTML = '<button>Closed button</button><input aria-label=\"Closed input\">';"
        " r.querySelector('button').addEventListener('click', () => hits.push('closed'));"
        " r.querySelector('input').addEventListener('input', (e) => { window.typed = e.target.value; });"
        " document.getElementById('plain').addEventListener('click', () => hits.push('plain'));"
        " document.body.addEventListener('click', () => {}); })</script>",
    ),
    "/delayed-text": _page(
        "Delayed",
        "<button onclick=\"setTimeout(()=>{document.getElementById('d').textContent='ready now'},300)\">"
        'Later</button><p id="d"></p>',
    ),
}


class _Handler(BaseHTTPRequestHandler):
    def do_GET(self) -> None:  # noqa: N802 (http.server API)
        url = urlparse(self.path)
        if url.path == "/slow":
            ms = int(parse_qs(url.query).get("ms", ["1500"])[0])
            time.sleep(ms / 1000)
            body = _page("Slow", f"<h1>Slow page after {ms} ms</h1>")
        elif url.path == "/headers":
            data = json.dumps({k.lower(): v for k, v in self.headers.items()}).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.send_header("Cache-Control", "no-store")
            self.end_headers()
            self.wfile.write(data)
            return
        elif url.path in PAGES:
            body = PAGES[url.path]
        else:
            self.send_error(404)
            return
        data = body.encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002
        pass


@pytest.fixture(scope="session")
def server() -> Iterator[str]:
    """Base URL (``http://127.0.0.1:PORT``) of the test pages."""
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    httpd.daemon_threads = True
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()


@pytest.fixture(scope="session")
def agentbrowser_bin(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The binary under test (``AGENTBROWSER_BIN`` or target/release/agentbrowser); fails without it.

    Sessions use a private socket directory so tests never meet a user's daemons.
    """
    path = binary_path()
    if not (path.is_file() and os.access(path, os.X_OK)):
        pytest.fail(f"agentbrowser binary not built at {path} (scripts/build-release.sh)")
    saved = {k: os.environ.get(k) for k in ("AGENTBROWSER_BIN", "AGENTBROWSER_SOCKET_DIR")}
    os.environ["AGENTBROWSER_BIN"] = str(path)
    os.environ["AGENTBROWSER_SOCKET_DIR"] = str(tmp_path_factory.mktemp("sockets"))
    yield path
    for key, value in saved.items():
        if value is None:
            os.environ.pop(key, None)
        else:
            os.environ[key] = value


_SUPPORT: dict[str, bool] = {}


def supports(action: str) -> bool:
    """Whether the binary knows ``action`` (probed with an invalid parameter: nothing runs)."""
    if action not in _SUPPORT:
        probe = json.dumps({"id": 1, "action": action, "__probe__": True}) + "\n"
        done = subprocess.run(
            [str(binary_path()), "serve", "--stdio"], input=probe.encode(), capture_output=True, timeout=30
        )
        line = done.stdout.decode().splitlines()[0] if done.stdout else "{}"
        _SUPPORT[action] = json.loads(line).get("code") != "unknown_action"
    return _SUPPORT[action]


def require_action(*actions: str) -> None:
    """Fail (never skip) when the binary does not implement an action a test needs."""
    for action in actions:
        if not supports(action):
            pytest.fail(f"the agentbrowser binary does not implement `{action}`, which this test needs")


@pytest.fixture(scope="session")
def require() -> Callable[..., None]:
    """``require("snapshot", "click")`` fails the test when the binary lacks those actions."""
    return require_action
