""":class:`ChatAnthropic`: Claude through the official ``anthropic`` package's Messages API.

The package is an optional extra (``pip install 'agentbrowser-engine[anthropic]'``), imported when a
model is built.  A ``base_url`` ending in ``/v1`` is used without it (the client adds
``/v1/messages``), so one base URL serves both adapters.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from .messages import (
    AssistantMessage,
    ChatCompletion,
    ImagePart,
    Message,
    ModelError,
    SystemMessage,
    TextPart,
    Usage,
    UserMessage,
)

if TYPE_CHECKING:
    from anthropic import AsyncAnthropic

__all__ = ["ChatAnthropic", "to_anthropic_messages"]

_HINT = "ChatAnthropic needs the anthropic package: pip install 'agentbrowser-engine[anthropic]'"


def to_anthropic_messages(
    messages: Sequence[Message], *, cache: bool = False
) -> tuple[str | list[dict[str, Any]] | None, list[dict[str, Any]]]:
    """The ``system`` text (system messages joined) and the Messages ``messages`` (consecutive turns
    of one role merged; images as base64 ``image`` blocks).

    ``cache`` marks two prompt-cache breakpoints (``cache_control``): the system prompt (then a
    one-block list) and the last assistant turn, the end of what the next request repeats as is.
    """
    system: list[str] = []
    out: list[dict[str, Any]] = []
    for m in messages:
        if isinstance(m, SystemMessage):
            system.append(m.content)
            continue
        blocks: list[dict[str, Any]] = []
        if isinstance(m, AssistantMessage):
            role = "assistant"
            blocks.append({"type": "text", "text": m.content})
        elif isinstance(m, UserMessage):
            role = "user"
            for p in m.parts:
                if isinstance(p, TextPart):
                    blocks.append({"type": "text", "text": p.text})
                elif isinstance(p, ImagePart):
                    blocks.append(
                        {"type": "image", "source": {"type": "base64", "media_type": p.media_type, "data": p.base64()}}
                    )
        else:
            raise TypeError(f"not a message: {type(m).__name__}")
        blocks = [b for b in blocks if b["type"] != "text" or b["text"]] or [{"type": "text", "text": "(empty)"}]
        if out and out[-1]["role"] == role:
            out[-1]["content"].extend(blocks)
        else:
            out.append({"role": role, "content": blocks})
    text = "\n\n".join(system) if system else None
    if not cache:
        return text, out
    last = next((m for m in reversed(out) if m["role"] == "assistant"), None)
    if last is not None:
        last["content"][-1] = {**last["content"][-1], "cache_control": {"type": "ephemeral"}}
    if text is None:
        return None, out
    return [{"type": "text", "text": text, "cache_control": {"type": "ephemeral"}}], out


class ChatAnthropic:
    """A Claude model over ``anthropic.AsyncAnthropic().messages``.

    ``temperature`` is not sent unless given (the SDK's ``messages.create`` no longer takes
    one; a given value goes in the request body).  ``prompt_cache`` (default on) marks the system
    prompt and the conversation so far for Anthropic's prompt cache (``cache_control``), so an
    agent's next step reads them from the cache.
    """

    def __init__(
        self,
        model: str,
        *,
        api_key: str | None = None,
        base_url: str | None = None,
        temperature: float | None = None,
        max_tokens: int = 4096,
        timeout_s: float = 120.0,
        max_retries: int = 2,
        client: AsyncAnthropic | None = None,
        prompt_cache: bool = True,
    ) -> None:
        try:
            import anthropic
        except ImportError as exc:
            raise ImportError(_HINT) from exc
        self._anthropic = anthropic
        #: The model name sent with every request.
        self.model = model
        self.temperature = temperature
        self.max_tokens = max_tokens
        self.prompt_cache = prompt_cache
        if client is None:
            key = api_key or os.environ.get("ANTHROPIC_API_KEY")
            if key is None and base_url is not None:
                key = "not-needed"
            if key is None:
                raise ValueError(
                    "ChatAnthropic needs an API key: pass api_key=, set ANTHROPIC_API_KEY, or give a base_url "
                    "of a server that needs none"
                )
            if base_url is not None:
                base_url = base_url.rstrip("/")
                base_url = base_url[: -len("/v1")] if base_url.endswith("/v1") else base_url
            client = anthropic.AsyncAnthropic(
                api_key=key, base_url=base_url, timeout=timeout_s, max_retries=max_retries
            )
        self.client = client

    @property
    def provider(self) -> str:
        """``anthropic``."""
        return "anthropic"

    async def ainvoke(
        self,
        messages: Sequence[Message],
        *,
        json_schema: Mapping[str, Any] | None = None,
        schema_name: str = "output",
        stop: Sequence[str] | None = None,
        max_tokens: int | None = None,
    ) -> ChatCompletion:
        """One message; ``json_schema`` forces a tool named ``schema_name`` whose input comes back as JSON text."""
        system, wire = to_anthropic_messages(messages, cache=self.prompt_cache)
        params: dict[str, Any] = {
            "model": self.model,
            "max_tokens": max_tokens if max_tokens is not None else self.max_tokens,
            "messages": wire,
        }
        if system is not None:
            params["system"] = system
        if self.temperature is not None:
            # The anthropic SDK's messages.create has no temperature parameter any more (2.x); an
            # explicit one goes in the body as it is, for the models and servers that take it.
            params["extra_body"] = {"temperature": self.temperature}
        if stop:
            params["stop_sequences"] = list(stop)
        if json_schema is not None:
            params["tools"] = [
                {
                    "name": schema_name,
                    "description": f"Answer with the {schema_name} object.",
                    "input_schema": dict(json_schema),
                }
            ]
            params["tool_choice"] = {"type": "tool", "name": schema_name}
        try:
            response = await self.client.messages.create(**params)
        except self._anthropic.APIStatusError as exc:
            raise ModelError(
                f"anthropic messages failed (HTTP {exc.status_code}): {exc.message}",
                provider="anthropic",
                status_code=exc.status_code,
            ) from exc
        except self._anthropic.APIError as exc:
            raise ModelError(f"anthropic messages failed: {exc}", provider="anthropic") from exc
        texts: list[str] = []
        tool_input: str | None = None
        for block in response.content:
            if block.type == "text":
                texts.append(block.text)
            elif block.type == "tool_use" and json_schema is not None and block.name == schema_name:
                tool_input = json.dumps(block.input)
        u = response.usage
        cached = u.cache_read_input_tokens
        prompt = u.input_tokens + (cached or 0) + (u.cache_creation_input_tokens or 0)
        usage = Usage(
            prompt_tokens=prompt,
            completion_tokens=u.output_tokens,
            total_tokens=prompt + u.output_tokens,
            cached_tokens=cached,
        )
        text = tool_input if tool_input is not None else "".join(texts)
        return ChatCompletion(text=text, usage=usage, stop_reason=response.stop_reason, raw=response.model_dump())

    def __repr__(self) -> str:
        return f"ChatAnthropic(model={self.model!r}, base_url={str(self.client.base_url)!r})"
