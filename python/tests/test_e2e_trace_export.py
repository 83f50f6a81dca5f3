"""End-to-end: ``agentbrowser trace export --playwright SRC.zip DEST.zip`` as a user would use
it. A real run recorded with ``trace start --screenshots`` is exported, and Playwright's own trace
viewer (``node node_modules/playwright-core/cli.js show-trace``, served on 127.0.0.1) is opened in
agentbrowser's browser: its action list shows our steps by name in order, the failed step marked
as an error; a still loads in the filmstrip and as the step's screenshot; the Console tab shows the
page's console message and the Network tab the fetch."""

from __future__ import annotations

import json
import os
import select
import subprocess
import time
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from agentbrowser import Browser
from conftest import PAGES, REPO, _page

pytestmark = pytest.mark.e2e

SHOW_TRACE = REPO / "node_modules" / "playwright-core" / "cli.js"
WAIT_MS = 20000

PAGES["/trace-export-shop"] = _page(
    "Export shop",
    "<h1>Shop</h1><label>Name <input id='name'></label>"
    "<button id='add' onclick=\""
    "fetch('/headers?from=export').then(r => { console.log('export fetched', r.status);"
    "document.getElementById('saved').textContent = 'Saved' })\">Add to cart</button>"
    "<p id='saved'></p>",
)


def cli(binary: Path, *args: str, session: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    out = subprocess.run([str(binary), "--session", session, *args], capture_output=True, text=True, timeout=60)
    if check:
        assert out.returncode == 0, (args, out.stdout, out.stderr)
    return out


class ShowTrace:
    """Playwright's ``show-trace --host 127.0.0.1 --port 0 TRACE`` as a subprocess; ``url`` is the
    URL it printed. It would open the URL in the desktop's browser: ``BROWSER=true`` and no
    display make that a no-op."""

    def __init__(self, trace: Path) -> None:
        env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
        env["BROWSER"] = "true"
        self.proc = subprocess.Popen(
            ["node", str(SHOW_TRACE), "show-trace", "--host", "127.0.0.1", "--port", "0", str(trace)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            stdin=subprocess.DEVNULL,
            env=env,
        )
        assert self.proc.stdout is not None
        self.url = ""
        # It prints an empty line, then "Listening on URL": read what comes (unbuffered, so
        # select sees all of it) for at most 30 s.
        out = b""
        fd = self.proc.stdout.fileno()
        deadline = time.monotonic() + 30
        while b"Listening on " not in out or not out.rstrip(b" ").endswith(b"\n"):
            left = deadline - time.monotonic()
            ready, _, _ = select.select([fd], [], [], max(left, 0))
            chunk = os.read(fd, 4096) if ready else b""
            if not chunk:
                break
            out += chunk
        for line in out.decode().splitlines():
            if line.startswith("Listening on "):
                self.url = line.removeprefix("Listening on ").strip()
        if not self.url:
            self.close()
            err = self.proc.stderr.read().decode() if self.proc.stderr else ""
            pytest.fail(f"show-trace printed no URL: {out!r}; stderr: {err}")

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)

    def __enter__(self) -> ShowTrace:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


@pytest.fixture
def recorded(agentbrowser_bin: Path, server: str, tmp_path: Path) -> Iterator[tuple[Path, list[str]]]:
    """A trace of a real run with stills: open, snapshot, a click that fetches and logs, a fill,
    and a click on a ref no snapshot issued (it fails). Also the titles the export gives them."""
    session = f"trace-export-{os.getpid()}"
    path = tmp_path / "run.zip"
    try:
        cli(agentbrowser_bin, "open", "about:blank", session=session)
        cli(agentbrowser_bin, "trace", "start", "--screenshots", session=session)
        cli(agentbrowser_bin, "open", f"{server}/trace-export-shop", session=session)
        snap = json.loads(cli(agentbrowser_bin, "--json", "snapshot", session=session).stdout)
        refs = snap["data"]["refs"]
        add = next(r for r, v in refs.items() if v["name"] == "Add to cart")
        name = next(r for r, v in refs.items() if v["role"] == "textbox")
        # The click waits for what the page does after its console message.
        cli(agentbrowser_bin, "click", add, "--wait-text", "Saved", session=session)
        cli(agentbrowser_bin, "fill", name, "Grace Hopper", session=session)
        failed = cli(agentbrowser_bin, "click", "e99", session=session, check=False)
        assert failed.returncode != 0 and "unknown ref" in failed.stderr, failed
        cli(agentbrowser_bin, "trace", "stop", str(path), session=session)
        titles = [
            f"open {server}/trace-export-shop",
            "snapshot",
            f'click {add} (button "Add to cart")',
            f'fill {name} (textbox "Name")',
            "click e99",
        ]
        yield path, titles
    finally:
        cli(agentbrowser_bin, "close", session=session, check=False)


def viewer_state(b: Browser) -> dict[str, Any]:
    """The action list of Playwright's viewer: titles in order and which are errors."""
    result: dict[str, Any] = b.page.evaluate(
        """(() => {
          const items = [...document.querySelectorAll('[role=tree] [role=treeitem]')];
          return {
            titles: items.map(i => i.querySelector('.action-title-method').textContent),
            errors: items.map(i => i.querySelector('.tree-view-entry').classList.contains('error')),
          };
        })()"""
    )
    return result


def open_tab(b: Browser, title: str) -> str:
    """Selects the viewer's tab ``title`` and answers the id of its panel."""
    panel: str = b.page.evaluate(
        f"""(() => {{
          const tab = document.querySelector('[role=tab][title={json.dumps(title)}]');
          tab.click();
          return tab.getAttribute('aria-controls');
        }})()"""
    )
    b.page.wait_for_function(
        f"document.querySelector('[role=tab][title={json.dumps(title)}]').getAttribute('aria-selected') === 'true'",
        timeout_ms=WAIT_MS,
    )
    return panel


def test_playwrights_viewer_shows_an_exported_run(
    agentbrowser_bin: Path, recorded: tuple[Path, list[str]], tmp_path: Path
) -> None:
    src, titles = recorded
    dest = tmp_path / "playwright.zip"
    out = subprocess.run(
        [str(agentbrowser_bin), "--json", "trace", "export", "--playwright", str(src), str(dest)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 0, out
    done = json.loads(out.stdout)["data"]
    assert done["actions"] == 5 and done["frames"] > 0, done
    with zipfile.ZipFile(src) as z:
        steps = [json.loads(x) for x in z.read("steps.jsonl").decode().splitlines() if x.strip()]
        click_still = z.read(f"frames/{steps[2]['frameAfter']:06d}.jpeg")

    with ShowTrace(dest) as viewer, Browser.launch(timeout_ms=WAIT_MS) as b:
        b.page.open(viewer.url)
        # The action list: our steps by name, in order; only the failed click is an error.
        b.page.wait_for_function(
            f"document.querySelectorAll('[role=tree] [role=treeitem]').length === {len(titles)}",
            timeout_ms=WAIT_MS,
        )
        state = viewer_state(b)
        assert state["titles"] == titles, state
        assert state["errors"] == [False, False, False, False, True], state

        # The filmstrip shows the stills: its frames' images are JPEGs the viewer serves.
        b.page.wait_for_function("document.querySelectorAll('.film-strip-frame').length > 0", timeout_ms=WAIT_MS)
        first = b.page.evaluate(
            """(async () => {
              const style = document.querySelector('.film-strip-frame').style.backgroundImage;
              const url = new URL(style.slice(5, -2), location.href);
              const bytes = new Uint8Array(await (await fetch(url)).arrayBuffer());
              return [url.pathname, bytes.length, bytes[0], bytes[1]];
            })()"""
        )
        assert "/sha1/" in first[0] and first[1] > 100 and (first[2], first[3]) == (0xFF, 0xD8), first

        # The failed click's error, in the Errors tab.
        b.page.evaluate(
            "[...document.querySelectorAll('[role=tree] [role=treeitem]')][4].querySelector('.tree-view-entry').click()"
        )
        errors = open_tab(b, "Errors")
        b.page.wait_for_function(
            f"document.getElementById({json.dumps(errors)})?.innerText.includes('unknown_ref: unknown ref')",
            timeout_ms=WAIT_MS,
        )

        # The click's screenshot (the still after it) in the Attachments tab, loaded: the
        # same picture as the trace's own frame.
        open_tab(b, "Attachments")
        label = json.dumps("step 3 after.jpeg")
        b.page.wait_for_function(
            f"""[...document.querySelectorAll('.attachment-item')].some(i =>
                 i.innerText.includes({label}) && i.querySelector('img')?.complete
                 && i.querySelector('img').naturalWidth > 0)""",
            timeout_ms=WAIT_MS,
        )
        shot = b.page.evaluate(
            f"""(async () => {{
              const item = [...document.querySelectorAll('.attachment-item')].find(i => i.innerText.includes({label}));
              const img = item.querySelector('img');
              const bytes = new Uint8Array(await (await fetch(img.src)).arrayBuffer());
              return [img.naturalWidth, Array.from(bytes)];
            }})()"""
        )
        assert bytes(shot[1]) == click_still
        assert shot[0] > 0

        # The click (its window holds the fetch and the message) selected: the Console tab shows
        # the page's message, the Network tab the fetch with its status.
        b.page.evaluate(
            "[...document.querySelectorAll('[role=tree] [role=treeitem]')][2].querySelector('.tree-view-entry').click()"
        )
        b.page.wait_for_function(
            "[...document.querySelectorAll('[role=tree] [role=treeitem]')][2].getAttribute('aria-selected') === 'true'",
            timeout_ms=WAIT_MS,
        )
        console = open_tab(b, "Console")
        b.page.wait_for_function(
            f"""[...document.getElementById({json.dumps(console)}).querySelectorAll('.console-line')]
                 .some(l => l.textContent.includes('export fetched 200'))""",
            timeout_ms=WAIT_MS,
        )
        network = open_tab(b, "Network")
        b.page.wait_for_function(
            f"document.getElementById({json.dumps(network)})?.innerText.includes('headers?from=export')",
            timeout_ms=WAIT_MS,
        )
        text = b.page.evaluate(f"document.getElementById({json.dumps(network)}).innerText")
        row = text[text.index("headers?from=export") :].split("\n")
        assert row[1:3] == ["GET", "200"], row[:6]
    assert viewer.proc.returncode is not None
