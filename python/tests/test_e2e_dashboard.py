"""The live dashboard (issue 38), tested in a real browser: session B (the SDK, with
``SessionOptions(dashboard=...)``) drives a page while session A opens B's dashboard and watches it
update: B listed, the command log, the URL, the screencast; the token, Host and Origin checks; the
command box only with ``--control``, and a command typed there runs in B."""

from __future__ import annotations

import asyncio
import http.client
import json
import subprocess
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from agentbrowser import AsyncBrowser, Browser, DashboardOptions, SessionOptions
from conftest import PAGES, _page

PAGES["/dash-fixture"] = _page(
    "Dash start",
    "<h1 id=h>waiting</h1>"
    "<button onclick=\"document.title='Dash clicked'; document.getElementById('h').textContent='clicked';"
    " document.body.style.background='#234'\">Go</button>",
)

WAIT_MS = 15000


def js(value: object) -> str:
    return json.dumps(value)


def request(url: str, method: str = "GET", *, host: str | None = None, origin: str | None = None, body: str = "") -> int:
    """The status of one HTTP request to the dashboard (Host and Origin as given)."""
    parts = urlsplit(url)
    conn = http.client.HTTPConnection(parts.hostname or "127.0.0.1", parts.port, timeout=10)
    headers = {"Host": host or parts.netloc}
    if origin is not None:
        headers["Origin"] = origin
    path = parts.path + ("?" + parts.query if parts.query else "")
    conn.request(method, path, body=body.encode(), headers=headers)
    status = conn.getresponse().status
    conn.close()
    return status


def command_url(url: str) -> str:
    """The dashboard's command endpoint with the token and session of its page URL."""
    parts = urlsplit(url)
    return f"http://{parts.netloc}/api/command?{parts.query}"


@pytest.fixture
def driven(agentbrowser_bin: Path) -> Iterator[Browser]:
    """Session B: an SDK browser that runs a dashboard."""
    with Browser.launch(session=SessionOptions(dashboard=DashboardOptions(port=0)), timeout_ms=30000) as b:
        yield b


def test_the_dashboard_shows_a_session_as_it_runs(driven: Browser, server: str) -> None:
    b = driven
    status = b.dashboard.status()
    assert status["running"] is True and status["control"] is False
    url = status["url"]
    assert url.startswith(f"http://127.0.0.1:{status['port']}/?token=")
    assert status["session"] == b.session
    page_url = server + "/dash-fixture"
    b.page.open(page_url)
    with Browser.launch(timeout_ms=30000) as a:
        a.page.open(url)
        # B is listed, and selected (the URL names it).
        a.page.wait_for_function(
            predicate=f"[...document.querySelectorAll('#sessions button')].some(b => b.dataset.session === {js(b.session)})",
            timeout_ms=WAIT_MS,
        )
        a.page.wait_for_function(predicate=f"document.getElementById('url').textContent === {js(page_url)}", timeout_ms=WAIT_MS)
        # A first screencast frame of B's page.
        a.page.wait_for_function(predicate="document.getElementById('frame').dataset.seq !== undefined", timeout_ms=WAIT_MS)
        seq0 = a.page.evaluate("window.__src0 = document.getElementById('frame').src; Number(document.getElementById('frame').dataset.seq)")
        # Read-only: no command box (A's snapshot of the page shows none).
        assert 'textbox "Command"' not in a.page.observe().text

        snap = b.page.observe()
        snap.one(role="button", name="Go").click()
        assert b.page.title() == "Dash clicked"
        # The click shows up in the log, the title in the header, a new frame on the screen.
        a.page.wait_for_function(
            predicate="[...document.querySelectorAll('#log-rows tr')].some(r => r.cells[1].textContent === 'click' && r.cells[3].textContent === 'ok')",
            timeout_ms=WAIT_MS,
        )
        a.page.wait_for_function(predicate="document.getElementById('title').textContent.includes('Dash clicked')", timeout_ms=WAIT_MS)
        a.page.wait_for_function(
            predicate=f"Number(document.getElementById('frame').dataset.seq) > {seq0} && document.getElementById('frame').src !== window.__src0",
            timeout_ms=WAIT_MS,
        )
        # The last snapshot B took is shown, labelled with when it was taken.
        a.page.wait_for_function(
            predicate="document.getElementById('snapshot-text').textContent.includes('button \"Go\"')", timeout_ms=WAIT_MS
        )
        assert "taken" in a.page.evaluate("document.getElementById('snapshot-time').textContent")
        # What A's own snapshot of the dashboard shows: the session and its click row.
        seen = a.page.observe().text
        assert str(b.session) in seen and "click" in seen

    # The token, the Host and the Origin are checked; the command endpoint is closed.
    base = f"http://127.0.0.1:{status['port']}"
    assert request(url) == 200
    assert request(base + "/") == 403
    assert request(base + "/?token=wrong") == 403
    assert request(url, host=f"evil.example:{status['port']}") == 403
    assert request(url, host=f"localhost:{status['port']}") == 200
    assert request(command_url(url), "POST", origin=base, body="snapshot") == 403
    b.dashboard.stop()
    assert b.dashboard.status()["running"] is False


def test_with_control_a_command_typed_in_the_dashboard_runs_in_the_session(
    driven: Browser, server: str, agentbrowser_bin: Path
) -> None:
    b = driven
    b.page.open(server + "/dash-fixture")
    cli = subprocess.Popen(
        [str(agentbrowser_bin), "--session", str(b.session), "dashboard", "--control", "--no-open"],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )
    try:
        assert cli.stdout is not None
        url = json.loads(cli.stdout.readline())["url"]
        base = f"http://{urlsplit(url).netloc}"
        # A POST from another origin (or none) is refused even with --control.
        assert request(command_url(url), "POST", origin="http://evil.example", body="snapshot") == 403
        assert request(command_url(url), "POST", body="snapshot") == 403
        with Browser.launch(timeout_ms=30000) as a:
            a.page.open(url)
            a.page.wait_for_function(predicate="document.getElementById('command').offsetParent !== null", timeout_ms=WAIT_MS)
            box = a.page.observe()
            box.one(role="textbox", name="Command").fill("eval \"document.body.dataset.driven = 'from the dashboard'\"")
            a.page.observe().one(role="button", name="Send").click()
            a.page.wait_for_function(
                predicate="document.getElementById('answer').textContent.includes('from the dashboard')", timeout_ms=WAIT_MS
            )
            assert b.page.evaluate("document.body.dataset.driven") == "from the dashboard"
            # The command shows in the log like any other.
            a.page.wait_for_function(
                predicate="[...document.querySelectorAll('#log-rows tr')].some(r => r.cells[1].textContent === 'eval')",
                timeout_ms=WAIT_MS,
            )
        assert base.startswith("http://127.0.0.1:")
    finally:
        cli.terminate()
        cli.wait(10)
    assert cli.returncode is not None


def test_async_browser_starts_and_stops_its_dashboard(agentbrowser_bin: Path) -> None:
    async def main() -> None:
        opts = SessionOptions(dashboard=DashboardOptions())
        async with await AsyncBrowser.launch(session=opts, timeout_ms=30000) as b:
            st = await b.dashboard.status()
            assert st["running"] is True
            assert request(st["url"]) == 200
            await b.dashboard.stop()
            assert (await b.dashboard.status())["running"] is False
            await b.dashboard.stop()

    asyncio.run(main())
