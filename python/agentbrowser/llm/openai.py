""":class:`ChatOpenAI`: any OpenAI-compatible Chat Completions endpoint, through the official ``openai`` package.

``base_url`` covers vLLM, Ollama (``http://localhost:11434/v1``), LM Studio, OpenRouter and
LiteLLM proxies.  The package is an optional extra (``pip install 'agentbrowser-engine[openai]'``),
imported when a model is built.
"""

from __future__ import annotations

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
    from openai import AsyncOpenAI

__all__ = ["ChatOpenAI", "to_openai_messages"]

_HINT = "ChatOpenAI needs the openai package: pip install 'agentbrowser-engine[openai]'"


def to_openai_messages(messages: Sequence[Message]) -> list[dict[str, Any]]:
    """The Chat Completions ``messages``: images as ``image_url`` parts with data URLs."""
    out: list[dict[str, Any]] = []
    for m in messages:
        if isinstance(m, SystemMessage):
            out.append({"role": "system", "content": m.content})
        elif isinstance(m, AssistantMessage):
            out.append({"role": "assistant", "content": m.content})
        elif isinstance(m, UserMessage):
            if isinstance(m.content, str):
                out.append({"role": "user", "content": m.content})
                continue
            parts: list[dict[str, Any]] = []
            for p in m.content:
                if isinstance(p, TextPart):
                    parts.append({"type": "text", "text": p.text})
                elif isinstance(p, ImagePart):
                    parts.append({"type": "image_url", "image_url": {"url": p.data_url(), "detail": "auto"}})
            out.append({"role": "user", "content": parts})
        else:
            raise TypeError(f"not a message: {type(m).__name__}")
    return out


class ChatOpenAI:
    """An OpenAI-compatible chat model over ``openai.AsyncOpenAI().chat.completions``."""

    def __init__(
        self,
        model: str,
        *,
        api_key: str | None = None,
        base_url: str | None = None,
        temperature: float | None = 0.2,
        timeout_s: float = 120.0,
        max_retries: int = 2,
        client: AsyncOpenAI | None = None,
    ) -> None:
        try:
            import openai
        except ImportError as exc:
            raise ImportError(_HINT) from exc
        self._openai = openai
        #: The model name sent with every request.
        self.model = model
        self.temperature = temperature
        if client is None:
            key = api_key or os.environ.get("OPENAI_API_KEY")
            if key is None and base_url is not None:
                key = "not-needed"  # local OpenAI-compatible servers (vLLM, Ollama...) accept any key
            if key is None:
                raise ValueError(
                    "ChatOpenAI needs an API key: pass api_key=, set OPENAI_API_KEY, or give a base_url "
                    "of a server that needs none"
                )
            client = openai.AsyncOpenAI(api_key=key, base_url=base_url, timeout=timeout_s, max_retries=max_retries)
        self.client = client

    @property
    def provider(self) -> str:
        """``openai``."""
        return "openai"

    async def ainvoke(
        self,
        messages: Sequence[Message],
        *,
        json_schema: Mapping[str, Any] | None = None,
        schema_name: str = "output",
        stop: Sequence[str] | None = None,
        max_tokens: int | None = None,
    ) -> ChatCompletion:
        """One chat completion; ``json_schema`` asks for ``response_format`` json_schema (strict)."""
        params: dict[str, Any] = {"model": self.model, "messages": to_openai_messages(messages)}
        if self.temperature is not None:
            params["temperature"] = self.temperature
        if max_tokens is not None:
            params["max_tokens"] = max_tokens
        if stop:
            params["stop"] = list(stop)
        if json_schema is not None:
            params["response_format"] = {
                "type": "json_schema",
                "json_schema": {"name": schema_name, "schema": dict(json_schema), "strict": True},
            }
        try:
            response = await self.client.chat.completions.create(**params)
        except self._openai.APIStatusError as exc:
            raise ModelError(
                f"openai chat.completions failed (HTTP {exc.status_code}): {exc.message}",
                provider="openai",
                status_code=exc.status_code,
            ) from exc
        except self._openai.APIError as exc:
            raise ModelError(f"openai chat.completions failed: {exc}", provider="openai") from exc
        if not response.choices:
            raise ModelError("openai chat.completions answered no choices", provider="openai")
        choice = response.choices[0]
        text = choice.message.content or ""
        usage = None
        if response.usage is not None:
            u = response.usage
            details = u.prompt_tokens_details
            usage = Usage(
                prompt_tokens=u.prompt_tokens,
                completion_tokens=u.completion_tokens,
                total_tokens=u.total_tokens,
                cached_tokens=details.cached_tokens if details is not None else None,
            )
        return ChatCompletion(text=text, usage=usage, stop_reason=choice.finish_reason, raw=response.model_dump())

    def __repr__(self) -> str:
        return f"ChatOpenAI(model={self.model!r}, base_url={str(self.client.base_url)!r})"
