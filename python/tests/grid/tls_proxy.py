"""A TLS-terminating proxy in front of a grid, for the tests: it accepts TLS on 127.0.0.1 with a
certificate the test's CA signed, records each request's head (path, headers) and counts the
WebSocket upgrades (in total and open now), then pipes the bytes to the upstream grid in plain
TCP. ``cut()`` drops every connection (a grid that lost the browser)."""

from __future__ import annotations

import asyncio
import ssl
import threading
from dataclasses import dataclass, field
from pathlib import Path

#: Largest request head read, in bytes.
MAX_HEAD = 64 * 1024


@dataclass
class Seen:
    """One request through the proxy: its target and headers (names lower-cased)."""

    method: str
    target: str
    headers: dict[str, str] = field(default_factory=dict)

    @property
    def upgrade(self) -> bool:
        """Whether it asked for a WebSocket upgrade."""
        return self.headers.get("upgrade", "").lower() == "websocket"


class TlsProxy:
    """The proxy, serving on its own thread and event loop until ``close()``."""

    def __init__(self, cert: Path, key: Path, upstream_port: int) -> None:
        self.upstream_port = upstream_port
        self.seen: list[Seen] = []
        self.upgrades = 0
        self.open_upgrades = 0
        self._lock = threading.Lock()
        self._writers: set[asyncio.StreamWriter] = set()
        self._ctx = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        self._ctx.load_cert_chain(cert, key)
        self._loop = asyncio.new_event_loop()
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()
        if not self._ready.wait(10):
            raise RuntimeError("the TLS proxy did not start within 10 s")

    def _run(self) -> None:
        asyncio.set_event_loop(self._loop)
        self._server = self._loop.run_until_complete(
            asyncio.start_server(self._client, "127.0.0.1", 0, ssl=self._ctx)
        )
        self.port = self._server.sockets[0].getsockname()[1]
        self._ready.set()
        self._loop.run_forever()

    async def _client(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self._writers.add(writer)
        counted = False
        try:
            head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 15)
            if len(head) > MAX_HEAD:
                return
            lines = head.decode("latin-1").split("\r\n")
            method, target, _ = (lines[0].split(" ", 2) + ["", ""])[:3]
            seen = Seen(method, target)
            for line in lines[1:]:
                if ":" in line:
                    k, v = line.split(":", 1)
                    seen.headers[k.strip().lower()] = v.strip()
            with self._lock:
                self.seen.append(seen)
                if seen.upgrade:
                    self.upgrades += 1
                    self.open_upgrades += 1
                    counted = True
            up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.upstream_port)
            self._writers.add(up_writer)
            up_writer.write(head)
            await asyncio.gather(self._pipe(reader, up_writer), self._pipe(up_reader, writer))
        except (OSError, asyncio.IncompleteReadError, asyncio.LimitOverrunError, TimeoutError, ssl.SSLError):
            pass
        finally:
            if counted:
                with self._lock:
                    self.open_upgrades -= 1
            writer.close()

    async def _pipe(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while data := await reader.read(65536):
                writer.write(data)
                await writer.drain()
        except (OSError, ssl.SSLError):
            pass
        finally:
            writer.close()
            self._writers.discard(writer)

    def cut(self) -> None:
        """Drops every open connection (both sides)."""

        def drop() -> None:
            for w in list(self._writers):
                w.transport.abort()

        self._loop.call_soon_threadsafe(drop)

    def upgrade_requests(self) -> list[Seen]:
        """The WebSocket upgrades seen so far."""
        with self._lock:
            return [s for s in self.seen if s.upgrade]

    def close(self) -> None:
        """Stops serving and drops every connection."""
        self.cut()
        self._loop.call_soon_threadsafe(self._server.close)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(10)
