"""Chat models for code mode: one small interface (:class:`ChatModel`), OpenAI-compatible and
Anthropic adapters over the official packages (optional extras), and a scripted model server.

>>> model = make_model("openai", "gpt-4.1-mini")                      # OPENAI_API_KEY
>>> model = make_model("openai", "qwen3", base_url="http://localhost:11434/v1")   # Ollama
>>> model = make_model("anthropic", "claude-sonnet-4-5")              # ANTHROPIC_API_KEY
>>> completion = await model.ainvoke([SystemMessage("..."), UserMessage("...")])
>>> log = ModelLog("calls.jsonl"); log.attach(model)      # every request and response, secrets masked
"""

from __future__ import annotations

from .anthropic import ChatAnthropic
from .log import ModelLog, model_call
from .messages import (
    AssistantMessage,
    ChatCompletion,
    ChatModel,
    ImagePart,
    Message,
    ModelError,
    SystemMessage,
    TextPart,
    Usage,
    UserMessage,
)
from .openai import ChatOpenAI
from .scripted import ScriptedError, ScriptedModelServer, ScriptedReply, approx_tokens

__all__ = [
    "AssistantMessage",
    "ChatAnthropic",
    "ChatCompletion",
    "ChatModel",
    "ChatOpenAI",
    "ImagePart",
    "Message",
    "ModelError",
    "ModelLog",
    "PROVIDERS",
    "ScriptedError",
    "ScriptedModelServer",
    "ScriptedReply",
    "SystemMessage",
    "TextPart",
    "Usage",
    "UserMessage",
    "approx_tokens",
    "make_model",
    "model_call",
]

#: The providers :func:`make_model` knows.
PROVIDERS: tuple[str, ...] = ("openai", "anthropic")


def make_model(provider: str, model: str, *, base_url: str | None = None, api_key: str | None = None) -> ChatModel:
    """A chat model: ``openai`` (any OpenAI-compatible endpoint with ``base_url``) or ``anthropic``."""
    key = provider.strip().lower()
    if key in ("openai", "openai-compatible", "oai"):
        return ChatOpenAI(model, base_url=base_url, api_key=api_key)
    if key in ("anthropic", "claude"):
        return ChatAnthropic(model, base_url=base_url, api_key=api_key)
    raise ValueError(f"unknown model provider {provider!r}; known: {', '.join(PROVIDERS)}")
