"""A direct DevTools-protocol client for the floor benchmarks: Debian's Chromium launched headless
(the README's offline flags) and one page's WebSocket, with no agentbrowser in between. Needs the
`websockets` package."""

from __future__ import annotations

import asyncio
import contextlib
import json
import shutil
import subprocess
import tempfile
import threading
import urllib.request
from collections.abc import AsyncIterator
from typing import Any

import websockets

#: The flags every launch here uses: headless, as root, and what a machine without network needs.
FLAGS = [
    "--headless=new",
    "--no-sandbox",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-gpu",
    "--no-default-browser-check",
    "--disable-default-apps",
    "--disable-breakpad",
    "--disable-crash-reporter",
    "--metrics-recording-only",
    "--password-store=basic",
    "--use-mock-keychain",
    "--window-size=1280,720",
]


class Cdp:
    """One page's DevTools WebSocket: calls by id, and its events in a queue."""

    def __init__(self, ws: websockets.ClientConnection) -> None:
        self.ws, self.next = ws, 0
        self.waiting: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self.events: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.reader = asyncio.create_task(self.read())

    async def read(self) -> None:
        async for raw in self.ws:
            msg = json.loads(raw)
            if "id" in msg:
                fut = self.waiting.pop(msg["id"], None)
                if fut is not None:
                    fut.set_result(msg)
            else:
                self.events.put_nowait(msg)

    async def call(self, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
        self.next += 1
        fut: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self.waiting[self.next] = fut
        await self.ws.send(json.dumps({"id": self.next, "method": method, "params": params or {}}))
        msg = await fut
        if "error" in msg:
            raise RuntimeError(f"{method}: {msg['error']}")
        return msg["result"]

    async def event(self, method: str, timeout: float = 10.0) -> dict[str, Any]:
        """The next event named `method` (others are dropped), within `timeout` seconds."""
        async with asyncio.timeout(timeout):
            while True:
                e = await self.events.get()
                if e.get("method") == method:
                    return e["params"]

    def drain(self) -> None:
        """Drops the events received so far."""
        while not self.events.empty():
            self.events.get_nowait()

    async def loaded(self) -> None:
        """Returns once the page's load event fired."""
        await self.call(
            "Runtime.evaluate",
            {
                "expression": "new Promise(r => document.readyState === 'complete' ? r(1) : addEventListener('load', () => r(1)))",
                "awaitPromise": True,
            },
        )


@contextlib.asynccontextmanager
async def page(url: str, extra: list[str] | None = None) -> AsyncIterator[Cdp]:
    """Chromium launched on `url` (with `extra` flags), as a `Cdp` of its page; closed after."""
    chrome = shutil.which("chromium") or "/usr/bin/chromium"
    profile = tempfile.mkdtemp()
    proc = subprocess.Popen(
        [chrome, *FLAGS, *(extra or []), "--remote-debugging-port=0", f"--user-data-dir={profile}", url],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        # Chromium prints its DevTools endpoint once it listens; the port is read from it.
        assert proc.stderr is not None
        port = None
        for line in proc.stderr:
            if line.startswith("DevTools listening on ws://"):
                port = int(line.split("ws://", 1)[1].split("/", 1)[0].rsplit(":", 1)[1])
                break
        if port is None:
            raise SystemExit("Chromium exited before printing its DevTools endpoint")
        # Keep draining its stderr, so a full pipe never blocks it.
        threading.Thread(target=proc.stderr.read, daemon=True).start()
        targets = json.load(urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list"))
        target = next(t for t in targets if t["type"] == "page")
        async with websockets.connect(target["webSocketDebuggerUrl"], max_size=None) as ws:
            cdp = Cdp(ws)
            try:
                await cdp.loaded()
                yield cdp
            finally:
                cdp.reader.cancel()
    finally:
        proc.terminate()
        proc.wait()
        shutil.rmtree(profile, ignore_errors=True)
