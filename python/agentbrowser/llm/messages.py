"""The chat-model interface: messages (text and image parts), usage, completions, :class:`ChatModel`.

Provider-neutral: :class:`~agentbrowser.llm.ChatOpenAI` and
:class:`~agentbrowser.llm.ChatAnthropic` turn these into their wire formats.
"""

from __future__ import annotations

import base64
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

__all__ = [
    "AssistantMessage",
    "ChatCompletion",
    "ChatModel",
    "ImagePart",
    "Message",
    "ModelError",
    "SystemMessage",
    "TextPart",
    "Usage",
    "UserMessage",
]


@dataclass(frozen=True, slots=True)
class TextPart:
    """A text part of a user message."""

    text: str


@dataclass(frozen=True, slots=True)
class ImagePart:
    """An image part of a user message: its bytes and media type."""

    data: bytes = field(repr=False)
    media_type: str = "image/png"

    def base64(self) -> str:
        """The bytes in base64 (ASCII)."""
        return base64.b64encode(self.data).decode("ascii")

    def data_url(self) -> str:
        """``data:<media type>;base64,...``: the image as a data URL (OpenAI's ``image_url``)."""
        return f"data:{self.media_type};base64,{self.base64()}"


@dataclass(frozen=True, slots=True)
class SystemMessage:
    """The system prompt."""

    content: str


@dataclass(frozen=True, slots=True)
class UserMessage:
    """A user turn: a string, or text and image parts (a list is kept as a tuple)."""

    content: str | tuple[TextPart | ImagePart, ...]

    def __post_init__(self) -> None:
        if isinstance(self.content, list):
            object.__setattr__(self, "content", tuple(self.content))
        if not isinstance(self.content, (str, tuple)) or (
            isinstance(self.content, tuple) and not all(isinstance(p, (TextPart, ImagePart)) for p in self.content)
        ):
            raise TypeError("UserMessage.content is a str or a sequence of TextPart and ImagePart")

    @property
    def parts(self) -> tuple[TextPart | ImagePart, ...]:
        """The content as parts (a string is one TextPart)."""
        return (TextPart(self.content),) if isinstance(self.content, str) else self.content

    @property
    def text(self) -> str:
        """The text parts joined with newlines."""
        return "\n".join(p.text for p in self.parts if isinstance(p, TextPart))

    @property
    def images(self) -> tuple[ImagePart, ...]:
        """The image parts."""
        return tuple(p for p in self.parts if isinstance(p, ImagePart))


@dataclass(frozen=True, slots=True)
class AssistantMessage:
    """A model turn (what it answered before)."""

    content: str


#: One message of a conversation.
Message = SystemMessage | UserMessage | AssistantMessage


@dataclass(frozen=True, slots=True)
class Usage:
    """Token usage of one call; ``cached_tokens`` are prompt tokens read from the provider's cache
    (part of ``prompt_tokens``; None when the provider did not say)."""

    prompt_tokens: int
    completion_tokens: int
    total_tokens: int
    cached_tokens: int | None = None

    def __add__(self, other: Usage) -> Usage:
        cached = None
        if self.cached_tokens is not None or other.cached_tokens is not None:
            cached = (self.cached_tokens or 0) + (other.cached_tokens or 0)
        return Usage(
            self.prompt_tokens + other.prompt_tokens,
            self.completion_tokens + other.completion_tokens,
            self.total_tokens + other.total_tokens,
            cached,
        )

    @classmethod
    def total(cls, usages: Iterable[Usage | None]) -> Usage:
        """The sum of ``usages`` (None entries skipped; zeros when there are none)."""
        out = cls(0, 0, 0)
        for u in usages:
            if u is not None:
                out = out + u
        return out


@dataclass(frozen=True, slots=True)
class ChatCompletion:
    """A model's answer: its text (for ``json_schema`` calls, the JSON text), usage, stop reason, raw response."""

    text: str
    usage: Usage | None
    stop_reason: str | None
    raw: Mapping[str, Any] = field(repr=False, compare=False)


class ModelError(RuntimeError):
    """A model call failed (HTTP error, connection error, bad answer); ``status_code`` when HTTP said."""

    def __init__(self, message: str, *, provider: str, status_code: int | None = None) -> None:
        super().__init__(message)
        #: ``openai`` or ``anthropic``.
        self.provider = provider
        #: The HTTP status of the failed call, when there was one.
        self.status_code = status_code


@runtime_checkable
class ChatModel(Protocol):
    """What the agent and the judge call: ``await model.ainvoke(messages) -> ChatCompletion``."""

    model: str

    @property
    def provider(self) -> str:
        """``openai``, ``anthropic``..."""
        ...

    async def ainvoke(
        self,
        messages: Sequence[Message],
        *,
        json_schema: Mapping[str, Any] | None = None,
        schema_name: str = "output",
        stop: Sequence[str] | None = None,
        max_tokens: int | None = None,
    ) -> ChatCompletion:
        """One completion; with ``json_schema`` the provider is asked for structured output (JSON text)."""
        ...
