""":class:`ModelLog`: every HTTP request a chat model sends and every response it gets, as JSON lines.

The log hooks the HTTP client of the official ``openai`` / ``anthropic`` package under a
:class:`~agentbrowser.llm.ChatOpenAI` or :class:`~agentbrowser.llm.ChatAnthropic` (its request and
response event hooks), so what it writes is what went over the wire: method, URL, headers and the
JSON body of each request (each retry too), and status, headers, body and token usage of each
response.  One line per event::

    {"event": "request", "call": 1, "step": 1, "purpose": "step", "provider": "openai", ...}
    {"event": "response", "call": 1, "status": 200, "usage": {"prompt_tokens": ..., ...}, ...}

Secrets never reach the file: authorization headers (``Authorization``, ``x-api-key``...) are
replaced by ``[masked]``, the client's API key anywhere else by ``[masked api key]``, and every
string goes through the masks given (a run's :class:`~agentbrowser.code.secrets.SensitiveData`
turns its values into ``<secret>name</secret>``).  Image data (base64, data URLs) is left out with
its size and digest unless ``keep_images``.  Labels set with :func:`model_call` around a call
(the code agent sets ``step`` and ``purpose``) are written on its lines.  A transport failure gets
no response line (the HTTP client gives no response to hook); the code agent writes an ``error``
line for a call that failed.
"""

from __future__ import annotations

import contextlib
import contextvars
import hashlib
import itertools
import json
import os
import re
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from types import TracebackType
from typing import Any

__all__ = ["MASKED", "ModelLog", "model_call", "usage_of"]

#: What a masked header value or API key reads as in the log.
MASKED = "[masked]"
_MASKED_KEY = "[masked api key]"
#: Headers whose values are credentials (lower case).
_SECRET_HEADERS = frozenset(
    {"authorization", "proxy-authorization", "x-api-key", "api-key", "cookie", "set-cookie", "x-goog-api-key"}
)
_DATA_URL = re.compile(r"^data:(?P<type>[\w.+/-]+);base64,(?P<data>[A-Za-z0-9+/]+={0,2})$")
_BASE64 = re.compile(r"^[A-Za-z0-9+/]{512,}={0,2}$")
#: A key shorter than this is a placeholder for a local server ("none", "not-needed", "scripted"), not a
#: credential: masking it everywhere would garble the log (a model named "scripted"). Its header is masked anyway.
_MIN_KEY_CHARS = 16

_LABELS: contextvars.ContextVar[Mapping[str, Any] | None] = contextvars.ContextVar(
    "agentbrowser_model_call", default=None
)


def _labels() -> Mapping[str, Any]:
    return _LABELS.get() or {}


@contextlib.contextmanager
def model_call(**labels: Any) -> Iterator[None]:
    """Label the model calls made inside (``step=3, purpose="step"``): the log writes the labels on their lines."""
    token = _LABELS.set({**_labels(), **labels})
    try:
        yield
    finally:
        _LABELS.reset(token)


def usage_of(body: Any) -> dict[str, int | None] | None:
    """The token usage of a response body (OpenAI or Anthropic shaped) as ``prompt_tokens``,
    ``completion_tokens``, ``total_tokens`` and ``cached_tokens``; None when it holds none."""
    usage = body.get("usage") if isinstance(body, Mapping) else None
    if not isinstance(usage, Mapping):
        return None
    if "input_tokens" in usage:  # Anthropic: cached and cache-written tokens are prompt tokens too
        cached = usage.get("cache_read_input_tokens")
        prompt = (
            int(usage.get("input_tokens") or 0) + int(cached or 0) + int(usage.get("cache_creation_input_tokens") or 0)
        )
        completion = int(usage.get("output_tokens") or 0)
        return {
            "prompt_tokens": prompt,
            "completion_tokens": completion,
            "total_tokens": prompt + completion,
            "cached_tokens": int(cached) if cached is not None else None,
        }
    details = usage.get("prompt_tokens_details")
    cached = details.get("cached_tokens") if isinstance(details, Mapping) else None
    return {
        "prompt_tokens": int(usage.get("prompt_tokens") or 0),
        "completion_tokens": int(usage.get("completion_tokens") or 0),
        "total_tokens": int(usage.get("total_tokens") or 0),
        "cached_tokens": int(cached) if cached is not None else None,
    }


class ModelLog:
    """A JSON-lines file of a chat model's HTTP requests and responses; see the module docstring.

    ``path`` is created (or emptied); ``mask`` hides a run's secrets in every string;
    :meth:`attach` hooks a model (several may share one log).  Close it (or use ``with``) to
    unhook the models and close the file.
    """

    def __init__(
        self,
        path: str | os.PathLike[str],
        *,
        mask: Callable[[str], str] | None = None,
        keep_images: bool = False,
    ) -> None:
        self.path = Path(path)
        self.keep_images = keep_images
        self._masks: list[Callable[[str], str]] = [mask] if mask is not None else []
        self._keys: set[str] = set()
        self._file = self.path.open("w", encoding="utf-8")
        self._lock = threading.Lock()
        self._calls = itertools.count(1)
        self._pending: dict[int, tuple[int, float]] = {}
        self._hooked: list[tuple[Any, Callable[..., Any], Callable[..., Any]]] = []
        #: Lines written so far.
        self.lines = 0

    # -- setup --------------------------------------------------------------------------------

    def add_mask(self, mask: Callable[[str], str]) -> None:
        """Also pass every string through ``mask`` (another run's secrets)."""
        if mask not in self._masks:
            self._masks.append(mask)

    def hide(self, *values: str | None) -> None:
        """Never write these literal values (API keys): each becomes ``[masked api key]``."""
        self._keys.update(v for v in values if isinstance(v, str) and len(v) >= _MIN_KEY_CHARS)

    def attach(self, model: Any) -> None:
        """Log every request ``model`` (a ChatOpenAI or ChatAnthropic) sends from now on; idempotent."""
        client = getattr(model, "client", None)
        http: Any = getattr(client, "_client", None)
        hooks = getattr(http, "event_hooks", None)
        if client is None or not isinstance(hooks, Mapping):
            raise TypeError(
                f"ModelLog logs the HTTP traffic of ChatOpenAI and ChatAnthropic models; {type(model).__name__} "
                "has no official client whose HTTP requests it can hook"
            )
        if any(h is http for h, _, _ in self._hooked):
            return
        self.hide(getattr(client, "api_key", None), getattr(client, "auth_token", None))
        provider = str(getattr(model, "provider", "") or "")
        name = str(getattr(model, "model", "") or "")

        async def on_request(request: Any) -> None:
            self._request(request, provider, name)

        async def on_response(response: Any) -> None:
            await response.aread()
            self._response(response)

        http.event_hooks = {
            **hooks,
            "request": [*hooks.get("request", []), on_request],
            "response": [*hooks.get("response", []), on_response],
        }
        self._hooked.append((http, on_request, on_response))

    def close(self) -> None:
        """Unhook the models and close the file (idempotent)."""
        for http, on_request, on_response in self._hooked:
            hooks = http.event_hooks
            http.event_hooks = {
                **hooks,
                "request": [h for h in hooks.get("request", []) if h is not on_request],
                "response": [h for h in hooks.get("response", []) if h is not on_response],
            }
        self._hooked.clear()
        with self._lock:
            if not self._file.closed:
                self._file.close()

    def __enter__(self) -> ModelLog:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"ModelLog({str(self.path)!r}, {self.lines} lines)"

    # -- writing ------------------------------------------------------------------------------

    def write(self, event: str, **fields: Any) -> None:
        """One line: ``event``, the time, the current :func:`model_call` labels and ``fields``, masked."""
        record = {"event": event, "time": round(time.time(), 3), **_labels(), **fields}
        line = json.dumps(self._clean(record), ensure_ascii=False, default=str)
        with self._lock:
            if self._file.closed:
                return
            self._file.write(line + "\n")
            self._file.flush()
            self.lines += 1

    def _request(self, request: Any, provider: str, model: str) -> None:
        call = next(self._calls)
        self._pending[id(request)] = (call, time.perf_counter())
        try:
            content: bytes = request.content
        except Exception:  # a streamed body that was not read: nothing to show
            content = b""
        self.write(
            "request",
            call=call,
            provider=provider,
            model=model,
            method=str(request.method),
            url=str(request.url),
            headers=self._headers(request.headers),
            bytes=len(content),
            body=_decode(content),
        )

    def _response(self, response: Any) -> None:
        call, started = self._pending.pop(id(response.request), (None, None))
        body = _decode(response.content)
        self.write(
            "response",
            call=call,
            status=int(response.status_code),
            elapsed_s=round(time.perf_counter() - started, 3) if started is not None else None,
            headers=self._headers(response.headers),
            bytes=len(response.content),
            usage=usage_of(body),
            body=body,
        )

    def _headers(self, headers: Any) -> dict[str, str]:
        return {str(k): (MASKED if str(k).lower() in _SECRET_HEADERS else str(v)) for k, v in headers.items()}

    def _text(self, text: str) -> str:
        if not self.keep_images:
            image = _image_note(text)
            if image is not None:
                return image
        for key in self._keys:
            if key in text:
                text = text.replace(key, _MASKED_KEY)
        for mask in self._masks:
            text = mask(text)
        return text

    def _clean(self, value: Any) -> Any:
        if isinstance(value, str):
            return self._text(value)
        if isinstance(value, Mapping):
            return {self._text(str(k)): self._clean(v) for k, v in value.items()}
        if isinstance(value, (list, tuple)):
            return [self._clean(v) for v in value]
        return value


def _decode(content: bytes) -> Any:
    """A body as JSON when it is JSON, else as text (empty: None)."""
    if not content:
        return None
    text = content.decode("utf-8", errors="replace")
    try:
        return json.loads(text)
    except ValueError:
        return text


def _image_note(text: str) -> str | None:
    """What stands in the log for image data (a base64 data URL or a long base64 string), else None."""
    match = _DATA_URL.match(text) if text.startswith("data:") else None
    data = match.group("data") if match else text if _BASE64.match(text) else None
    if data is None:
        return None
    digest = hashlib.sha256(data.encode("ascii", errors="replace")).hexdigest()[:16]
    kind = f"{match.group('type')} " if match else ""
    return f"[{kind}base64 data left out: {len(data):,} chars, sha256 {digest}]"
