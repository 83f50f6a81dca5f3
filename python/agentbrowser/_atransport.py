"""Asyncio JSON-lines transport to the daemon (kept apart so ``import agentbrowser`` skips asyncio).

Responses are matched to requests by ``id`` by one reader task; an answer nobody waits
for any more (its caller timed out or was cancelled) is dropped.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
from collections.abc import Awaitable, Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from ._wire import StderrTail, check_peer, closed_error, encode, exit_reason, timeout_error

#: Largest response line the async reader accepts (bytes).
LINE_LIMIT = 1 << 30


class AsyncTransport:
    """Asyncio request/response with a reader task that hands each answer to its caller.

    Many coroutines may await answers at once; each gets the answer with its id.  A
    cancelled caller's late answer is dropped; the connection stays usable.
    """

    def __init__(
        self,
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
        *,
        describe_eof: Callable[[], Awaitable[str]],
    ) -> None:
        self._reader = reader
        self._writer = writer
        self._describe_eof = describe_eof
        self._ids = itertools.count(1)
        self._pending: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self._broken: str | None = None
        self._task = asyncio.get_running_loop().create_task(self._read_loop(), name="agentbrowser-reader")

    def next_id(self) -> int:
        """The next request id."""
        return next(self._ids)

    @property
    def broken(self) -> str | None:
        """Why the connection is unusable, or None."""
        return self._broken

    async def request(self, payload: Mapping[str, Any], deadline_s: float) -> dict[str, Any]:
        """Send ``payload`` and await the answer with the same id."""
        if self._broken is not None:
            raise closed_error(self._broken)
        rid = payload["id"]
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._pending[rid] = future
        try:
            self._writer.write(encode(payload))
            try:
                await self._writer.drain()
            except (ConnectionError, OSError):
                raise closed_error(self._broken or "the connection to the daemon is broken") from None
            try:
                async with asyncio.timeout(deadline_s):
                    return await future
            except TimeoutError:
                raise timeout_error(str(payload.get("action")), deadline_s) from None
        finally:
            self._pending.pop(rid, None)

    async def _read_loop(self) -> None:
        reason: str | None = None
        try:
            while True:
                line = await self._reader.readline()
                if not line:
                    break
                try:
                    message = json.loads(line)
                except ValueError:
                    continue
                if not isinstance(message, dict):
                    continue
                future = self._pending.get(message.get("id"))  # type: ignore[arg-type]
                if future is not None and not future.done():
                    future.set_result(message)
        except asyncio.CancelledError:
            reason = "the connection to the daemon is closed"
            raise
        except (OSError, ValueError) as exc:
            reason = f"reading from the daemon failed: {exc}"
        finally:
            if reason is None:
                try:
                    reason = await self._describe_eof()
                except asyncio.CancelledError:
                    self._fail_all("the connection to the daemon is closed")
                    raise
            self._fail_all(reason)

    def _fail_all(self, reason: str) -> None:
        if self._broken is None:
            self._broken = reason
        for future in self._pending.values():
            if not future.done():
                future.set_exception(closed_error(self._broken))

    async def close(self) -> None:
        """Close the connection; idempotent."""
        if self._broken is None:
            self._broken = "the connection to the daemon is closed"
        self._writer.close()
        with contextlib.suppress(ConnectionError, OSError):
            await self._writer.wait_closed()
        self._task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._task


class AsyncOwnedProcess:
    """The async twin of :class:`OwnedProcess`."""

    def __init__(self, proc: asyncio.subprocess.Process) -> None:
        self.proc = proc
        self.tail = StderrTail()
        self._drain = asyncio.get_running_loop().create_task(self._read_stderr(), name="agentbrowser-stderr")

    @classmethod
    async def spawn(cls, argv: Sequence[str]) -> AsyncOwnedProcess:
        """Start the daemon child process ``argv``."""
        proc = await asyncio.create_subprocess_exec(
            *argv,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            limit=LINE_LIMIT,
            close_fds=True,
            start_new_session=False,
        )
        return cls(proc)

    async def _read_stderr(self) -> None:
        stream = self.proc.stderr
        if stream is None:
            return
        with contextlib.suppress(OSError, ValueError):
            while line := await stream.readline():
                self.tail.add(line)

    async def describe_eof(self) -> str:
        """Why the daemon's output ended: its exit code and stderr tail."""
        try:
            code: int | None = await asyncio.wait_for(self.proc.wait(), 2)
        except TimeoutError:
            code = None
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(asyncio.shield(self._drain), 1)
        return exit_reason(code, self.tail)

    def transport(self) -> AsyncTransport:
        """An asyncio transport over the child's stdin and stdout."""
        assert self.proc.stdin is not None and self.proc.stdout is not None
        return AsyncTransport(self.proc.stdout, self.proc.stdin, describe_eof=self.describe_eof)

    def close_stdin(self) -> None:
        """EOF on the daemon's stdin, which ends it (safe in a finalizer, outside the event loop)."""
        if self.proc.stdin is not None:
            with contextlib.suppress(Exception):
                self.proc.stdin.close()

    async def finish(self, timeout_s: float) -> int | None:
        """Wait for exit after EOF; kill past ``timeout_s`` and raise TimeoutError."""
        if self.proc.stdin is not None:
            self.proc.stdin.close()
        try:
            return await asyncio.wait_for(self.proc.wait(), timeout_s)
        except TimeoutError:
            self.proc.kill()
            await self.proc.wait()
            raise TimeoutError(
                f"the agentbrowser daemon did not exit within {timeout_s:.1f} s; it was killed"
            ) from None
        finally:
            self._drain.cancel()


async def connect_socket_async(path: Path) -> AsyncTransport:
    """An asyncio transport over a session's Unix socket (OSError when nothing listens)."""
    reader, writer = await asyncio.open_unix_connection(str(path), limit=LINE_LIMIT)
    sock = writer.get_extra_info("socket")
    if sock is not None:
        try:
            check_peer(sock, path)
        except BaseException:
            writer.close()
            raise

    async def describe() -> str:
        return f"the session daemon closed the socket {path}"

    return AsyncTransport(reader, writer, describe_eof=describe)
