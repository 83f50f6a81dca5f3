""":class:`ScriptedModelServer`: a real HTTP model server on 127.0.0.1 that answers scripted replies.

It speaks both wire formats, non-streaming: ``POST /v1/chat/completions`` (OpenAI Chat
Completions) and ``POST /v1/messages`` (Anthropic Messages), so the official ``openai`` and
``anthropic`` clients talk to it as to the real services.  Replies are consumed in order
(``loop_last=True`` repeats the last one); a reply is a string, a callable taking the
request JSON and returning a string, or a :class:`ScriptedError` (an HTTP error answer).
Running out of replies answers HTTP 500 saying so.  Usage figures are filled (about one
token per four characters).  Every request body is kept in :attr:`ScriptedModelServer.requests`.

>>> with ScriptedModelServer(["```python\\nprint(1)\\n```"]) as server:
...     model = ChatOpenAI("scripted", base_url=server.base_url, api_key="test")
"""

from __future__ import annotations

import json
import math
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

__all__ = ["ScriptedError", "ScriptedModelServer", "ScriptedReply", "approx_tokens"]


@dataclass(frozen=True, slots=True)
class ScriptedError:
    """A scripted failure: answer this HTTP ``status`` with ``message`` (in the provider's error format)."""

    status: int = 500
    message: str = "scripted error"


#: One scripted reply: the text, a function of the request JSON giving the text, or an error.
ScriptedReply = str | Callable[[dict[str, Any]], str] | ScriptedError


def approx_tokens(text: str) -> int:
    """About one token per four characters (at least 1 for non-empty text)."""
    return math.ceil(len(text) / 4) if text else 0


_IMAGE_TOKENS = 85


def _prompt_tokens(body: dict[str, Any]) -> int:
    """An approximate prompt size: the characters of every text, plus a fixed cost per image."""
    total = 0

    def walk(value: Any) -> None:
        nonlocal total
        if isinstance(value, str):
            total += approx_tokens(value)
        elif isinstance(value, list):
            for v in value:
                walk(v)
        elif isinstance(value, dict):
            kind = value.get("type")
            if kind in ("image_url", "image"):
                total += _IMAGE_TOKENS
                return
            for key in ("text", "content"):
                if key in value:
                    walk(value[key])

    walk(body.get("system"))
    for message in body.get("messages") or []:
        walk(message.get("content") if isinstance(message, dict) else None)
    return max(total, 1)


def _cut_at_stop(text: str, stops: Sequence[str]) -> tuple[str, str | None]:
    """``text`` up to the first stop sequence (excluded) and the sequence, or ``text`` and None."""
    best: tuple[int, str] | None = None
    for s in stops:
        if s and (i := text.find(s)) >= 0 and (best is None or i < best[0]):
            best = (i, s)
    return (text, None) if best is None else (text[: best[0]], best[1])


class ScriptedModelServer:
    """An OpenAI- and Anthropic-compatible HTTP server on 127.0.0.1 replaying scripted replies."""

    def __init__(
        self,
        replies: Sequence[ScriptedReply],
        *,
        port: int = 0,
        loop_last: bool = False,
        cached_tokens: int = 0,
        host: str = "127.0.0.1",
    ) -> None:
        self._replies: list[ScriptedReply] = list(replies)
        self._next = 0
        self._lock = threading.Lock()
        self._host = host
        self._port = port
        self._httpd: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None
        #: Whether the last reply is repeated once the others are used.
        self.loop_last = loop_last
        #: The cached prompt tokens every answer reports (OpenAI ``cached_tokens``, Anthropic ``cache_read_input_tokens``).
        self.cached_tokens = cached_tokens
        #: Every request body received (parsed JSON), in order.
        self.requests: list[dict[str, Any]] = []
        #: The path of each request in :attr:`requests` (``/v1/chat/completions`` or ``/v1/messages``).
        self.paths: list[str] = []

    @classmethod
    def from_file(cls, path: str | Path, **kwargs: Any) -> ScriptedModelServer:
        """A server replaying a JSON list of replies (strings, or objects with a ``"text"`` key)."""
        data = json.loads(Path(path).read_text(encoding="utf-8"))
        if not isinstance(data, list):
            raise ValueError(f"{path}: a scripted replies file holds a JSON list, got {type(data).__name__}")
        replies: list[ScriptedReply] = []
        for i, item in enumerate(data):
            if isinstance(item, str):
                replies.append(item)
            elif isinstance(item, dict) and isinstance(item.get("text"), str):
                replies.append(item["text"])
            else:
                raise ValueError(f"{path}: reply {i} is neither a string nor an object with a string 'text'")
        return cls(replies, **kwargs)

    # -- life cycle -------------------------------------------------------------------

    def start(self) -> str:
        """Start serving (idempotent) and return the base URL, ``http://127.0.0.1:PORT/v1``."""
        if self._httpd is None:
            httpd = ThreadingHTTPServer((self._host, self._port), _make_handler(self))
            httpd.daemon_threads = True
            self._httpd = httpd
            self._thread = threading.Thread(target=httpd.serve_forever, name="scripted-model-server", daemon=True)
            self._thread.start()
        return self.base_url

    def stop(self) -> None:
        """Stop serving (idempotent)."""
        httpd, self._httpd = self._httpd, None
        if httpd is not None:
            httpd.shutdown()
            httpd.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None

    def __enter__(self) -> ScriptedModelServer:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def port(self) -> int:
        """The port served (RuntimeError before :meth:`start`)."""
        if self._httpd is None:
            raise RuntimeError("the ScriptedModelServer is not started")
        return int(self._httpd.server_address[1])

    @property
    def url(self) -> str:
        """``http://127.0.0.1:PORT`` (no path)."""
        return f"http://{self._host}:{self.port}"

    @property
    def base_url(self) -> str:
        """``http://127.0.0.1:PORT/v1``: the ``base_url`` of both adapters."""
        return f"{self.url}/v1"

    @property
    def replies_left(self) -> int:
        """How many scripted replies are not used yet."""
        with self._lock:
            return len(self._replies) - self._next

    def add_replies(self, *replies: ScriptedReply) -> None:
        """Append replies to the script."""
        with self._lock:
            self._replies.extend(replies)

    def __repr__(self) -> str:
        where = self.base_url if self._httpd is not None else "stopped"
        return f"ScriptedModelServer({where}, {len(self._replies)} replies, {len(self.requests)} requests)"

    # -- answering ------------------------------------------------------------------------

    def _take(self, body: dict[str, Any], path: str) -> ScriptedReply | None:
        with self._lock:
            self.requests.append(body)
            self.paths.append(path)
            if self._next < len(self._replies):
                reply = self._replies[self._next]
                self._next += 1
                return reply
            if self.loop_last and self._replies:
                return self._replies[-1]
            return None

    def _exhausted_message(self) -> str:
        return (
            f"ScriptedModelServer: no scripted reply left for request {len(self.requests)} "
            f"({len(self._replies)} replies were scripted, loop_last={self.loop_last})"
        )

    def answer(self, path: str, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        """The HTTP status and JSON answer to a request ``body`` on ``path`` (consumes one reply)."""
        anthropic = path.endswith("/messages")
        if body.get("stream"):
            return 400, _error(anthropic, "ScriptedModelServer does not stream: send stream=false", 400)
        reply = self._take(body, path)
        if reply is None:
            return 500, _error(anthropic, self._exhausted_message(), 500)
        if isinstance(reply, ScriptedError):
            return reply.status, _error(anthropic, reply.message, reply.status)
        if callable(reply):
            try:
                text = reply(body)
            except Exception as exc:
                return 500, _error(anthropic, f"ScriptedModelServer: the reply function raised {exc!r}", 500)
            if not isinstance(text, str):
                return 500, _error(anthropic, f"ScriptedModelServer: the reply function returned {type(text).__name__}", 500)
        else:
            text = reply
        n = len(self.requests)
        prompt = _prompt_tokens(body)
        model = str(body.get("model") or "scripted")
        if anthropic:
            return 200, self._anthropic_answer(body, text, n, prompt, model)
        return 200, self._openai_answer(body, text, n, prompt, model)

    def _openai_answer(self, body: dict[str, Any], text: str, n: int, prompt: int, model: str) -> dict[str, Any]:
        stop = body.get("stop")
        stops = [stop] if isinstance(stop, str) else list(stop or [])
        text, _ = _cut_at_stop(text, stops)
        completion = approx_tokens(text)
        cached = min(self.cached_tokens, prompt)
        return {
            "id": f"chatcmpl-scripted-{n}",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": model,
            "choices": [
                {
                    "index": 0,
                    "message": {"role": "assistant", "content": text},
                    "finish_reason": "stop",
                    "logprobs": None,
                }
            ],
            "usage": {
                "prompt_tokens": prompt,
                "completion_tokens": completion,
                "total_tokens": prompt + completion,
                "prompt_tokens_details": {"cached_tokens": cached},
            },
        }

    def _anthropic_answer(self, body: dict[str, Any], text: str, n: int, prompt: int, model: str) -> dict[str, Any]:
        cached = min(self.cached_tokens, prompt)
        choice = body.get("tool_choice")
        content: list[dict[str, Any]]
        stop_reason = "end_turn"
        stop_sequence: str | None = None
        tool_input: Any = None
        if isinstance(choice, dict) and choice.get("type") == "tool" and choice.get("name"):
            try:
                tool_input = json.loads(text)
            except ValueError:
                tool_input = None  # not JSON: answered as text, as a model ignoring the tool would
        if isinstance(tool_input, dict):
            assert isinstance(choice, dict)
            content = [{"type": "tool_use", "id": f"toolu_scripted_{n}", "name": choice["name"], "input": tool_input}]
            stop_reason = "tool_use"
        else:
            text, stop_sequence = _cut_at_stop(text, list(body.get("stop_sequences") or []))
            if stop_sequence is not None:
                stop_reason = "stop_sequence"
            content = [{"type": "text", "text": text}]
        return {
            "id": f"msg_scripted_{n}",
            "type": "message",
            "role": "assistant",
            "model": model,
            "content": content,
            "stop_reason": stop_reason,
            "stop_sequence": stop_sequence,
            "usage": {
                "input_tokens": prompt - cached,
                "output_tokens": approx_tokens(text),
                "cache_read_input_tokens": cached,
                "cache_creation_input_tokens": 0,
            },
        }


def _error(anthropic: bool, message: str, status: int) -> dict[str, Any]:
    if anthropic:
        kind = {400: "invalid_request_error", 401: "authentication_error", 404: "not_found_error",
                429: "rate_limit_error"}.get(status, "api_error")
        return {"type": "error", "error": {"type": kind, "message": message}}
    return {"error": {"message": message, "type": "server_error" if status >= 500 else "invalid_request_error",
                      "code": None, "param": None}}


def _make_handler(server: ScriptedModelServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        """Answers the two chat endpoints, ``GET /health``, and 404 elsewhere."""

        def _send(self, status: int, payload: dict[str, Any]) -> None:
            data = json.dumps(payload).encode("utf-8")
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_GET(self) -> None:  # noqa: N802 (http.server API)
            """``/health``: ``{"status": "ok", ...}``."""
            if self.path.split("?")[0].rstrip("/") in ("/health", "/v1/health"):
                self._send(200, {"status": "ok", "replies_left": server.replies_left, "requests": len(server.requests)})
            else:
                self._send(404, {"error": {"message": f"no such path: {self.path}", "type": "not_found"}})

        def do_POST(self) -> None:  # noqa: N802 (http.server API)
            """The chat endpoints."""
            path = self.path.split("?")[0].rstrip("/")
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length) if length else b""
            if path not in ("/v1/chat/completions", "/chat/completions", "/v1/messages"):
                self._send(404, {"error": {"message": f"no such path: {self.path}", "type": "not_found"}})
                return
            try:
                body = json.loads(raw.decode("utf-8") or "{}")
                if not isinstance(body, dict):
                    raise ValueError("the request body is not a JSON object")
            except ValueError as exc:
                self._send(400, _error(path.endswith("/messages"), f"bad JSON body: {exc}", 400))
                return
            status, payload = server.answer(path, body)
            self._send(status, payload)

        def log_message(self, format: str, *args: object) -> None:  # noqa: A002
            """Quiet."""

    return Handler
