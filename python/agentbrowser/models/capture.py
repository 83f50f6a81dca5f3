"""Capture models: a screenshot file with its annotations, an if-changed observation, image content.

A :class:`Screenshot` holds the path of the file the engine wrote; its bytes are read from
that file when asked (``bytes()``, ``content()``, ``pil()``), never carried over the wire.
``pil()`` and ``image`` need Pillow (the ``images`` extra: ``pip install 'agentbrowser-engine[images]'``);
``marimo()`` needs marimo in the environment.
"""

from __future__ import annotations

import builtins
import importlib
import shutil
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .. import _wire_types as w
from ._bounded import Bounded

#: Media types of the image formats.
MEDIA_TYPES: Mapping[str, str] = {"png": "image/png", "jpeg": "image/jpeg", "webp": "image/webp"}

#: Screenshot formats.
IMAGE_FORMATS: tuple[str, ...] = ("png", "jpeg", "webp")


def _pillow() -> Any:
    try:
        return importlib.import_module("PIL.Image")
    except ImportError:
        raise ImportError(
            "Screenshot.pil() and .image need Pillow: pip install 'agentbrowser-engine[images]' (or pip install Pillow)"
        ) from None


@dataclass(frozen=True, slots=True)
class ScreenshotBox:
    """A box in CSS pixels, relative to the screenshot's top-left corner."""

    x: float
    y: float
    width: float
    height: float
    raw: Mapping[str, Any] = field(repr=False, compare=False)

    @classmethod
    def from_wire(cls, wire: w.CssBox, raw: Mapping[str, Any]) -> ScreenshotBox:
        """Build from the decoded wire box ``raw``."""
        return cls(x=wire.x, y=wire.y, width=wire.width, height=wire.height, raw=raw)


@dataclass(frozen=True, slots=True)
class ScreenshotAnnotation:
    """One ref drawn on an annotated screenshot: ``number`` is the ref's (``[12]`` is ``e12``)."""

    ref: str
    number: int
    role: str
    name: str | None
    box: ScreenshotBox
    frame: str
    raw: Mapping[str, Any] = field(repr=False, compare=False)

    @classmethod
    def from_wire(cls, wire: w.Annotation, raw: Mapping[str, Any]) -> ScreenshotAnnotation:
        """Build from one decoded wire annotation ``raw`` (an empty name is None)."""
        return cls(
            ref=wire.ref,
            number=wire.number,
            role=wire.role,
            name=wire.name or None,
            box=ScreenshotBox.from_wire(wire.box, raw["box"]),
            frame=wire.frame,
            raw=raw,
        )


@dataclass(frozen=True, slots=True)
class ImageContent:
    """An image's bytes and media type, ready for an LLM's image input."""

    data: bytes = field(repr=False)
    media_type: str
    source: Path


@dataclass(frozen=True, slots=True, repr=False)
class Screenshot(Bounded):
    """A screenshot file: its path, format, annotations and the raw capture data.

    ``path`` is the file as the capture named it: a ``path`` (or ``output_dir``) given relative
    stays relative to the working directory of the call, as pyagentbrowser answers it
    (``path.resolve()`` is absolute); ``raw["path"]`` is the absolute file the engine wrote,
    which ``bytes()``, ``pil()``, ``save()`` and the displays read (so they still find it after
    a ``chdir``).  ``width``, ``height``, ``scale`` (image pixels per CSS pixel), ``size``
    (bytes) and ``scope`` come from the capture.
    """

    path: Path
    format: str
    annotations: tuple[ScreenshotAnnotation, ...]
    raw: Mapping[str, Any] = field(repr=False, compare=False)
    scope: str = "viewport"
    _image: list[Any] = field(default_factory=list, init=False, repr=False, compare=False)

    @classmethod
    def from_wire(cls, wire: w.ScreenshotOutput, raw: Mapping[str, Any]) -> Screenshot:
        """Build from a decoded ``screenshot`` answer that wrote a file."""
        if wire.path is None:
            raise ValueError("this screenshot answer wrote no file (an unchanged if-changed capture)")
        notes = tuple(
            ScreenshotAnnotation.from_wire(a, r) for a, r in zip(wire.annotations or (), raw.get("annotations") or ())
        )
        return cls(path=Path(wire.path), format=wire.format, annotations=notes, raw=raw, scope=wire.scope)

    @property
    def width(self) -> int:
        """Image width in pixels."""
        return int(self.raw["width"])

    @property
    def height(self) -> int:
        """Image height in pixels."""
        return int(self.raw["height"])

    @property
    def scale(self) -> float:
        """Image pixels per CSS pixel (the device pixel ratio)."""
        return float(self.raw["scale"])

    @property
    def size(self) -> int:
        """The file's size in bytes when it was written."""
        return int(self.raw["size"])

    @property
    def media_type(self) -> str:
        """``image/png``, ``image/jpeg`` or ``image/webp``."""
        return MEDIA_TYPES[self.format]

    @property
    def _file(self) -> Path:
        """The file the engine wrote (``raw["path"]``, absolute), else ``path``."""
        written = self.raw.get("path")
        return Path(written) if isinstance(written, str) and written else self.path

    def bytes(self) -> builtins.bytes:
        """The file's bytes."""
        return self._file.read_bytes()

    def save(self, path: str | Path) -> Screenshot:
        """Copy the file to ``path`` (directories created) and return a Screenshot of the copy."""
        target = Path(path)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(self._file, target)
        raw = {**self.raw, "path": str(target.resolve())}
        return Screenshot(
            path=target.resolve(), format=self.format, annotations=self.annotations, raw=raw, scope=self.scope
        )

    def pil(self, *, mode: str | None = None) -> Any:
        """A new Pillow image of the file (converted to ``mode`` when given); needs the ``images`` extra."""
        image_module = _pillow()
        img = image_module.open(self._file)
        img.load()
        return img.convert(mode) if mode is not None else img

    @property
    def image(self) -> Any:
        """The Pillow image of the file, loaded once and cached; needs the ``images`` extra."""
        if not self._image:
            self._image.append(self.pil())
        return self._image[0]

    def content(self) -> ImageContent:
        """The bytes and media type (``image/png``...) for an LLM's image input."""
        return ImageContent(data=self.bytes(), media_type=self.media_type, source=self.path)

    def marimo(
        self,
        *,
        alt: str | None = None,
        width: int | str | None = None,
        height: int | str | None = None,
        rounded: bool = False,
        caption: str | None = None,
        style: dict[str, Any] | None = None,
    ) -> Any:
        """The image as a marimo element (``mo.image``), for a reactive notebook; needs marimo."""
        try:
            mo = importlib.import_module("marimo")
        except ImportError:
            raise ImportError("Screenshot.marimo() needs marimo: pip install marimo") from None
        return mo.image(
            self.bytes(), alt=alt, width=width, height=height, rounded=rounded, style=style, caption=caption
        )

    def _repr_png_(self) -> builtins.bytes | None:
        """PNG bytes for notebook display (None for other formats)."""
        return self.bytes() if self.format == "png" else None

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None) -> dict[str, Any]:
        """The file's bytes under its media type (PNG and JPEG), and a text line."""
        bundle: dict[str, Any] = {"text/plain": repr(self)}
        if self.format in ("png", "jpeg"):
            bundle[self.media_type] = self.bytes()
        return bundle

    def __repr__(self) -> str:
        notes = f", annotations={len(self.annotations)}" if self.annotations else ""
        return f"Screenshot(path={str(self.path)!r}, format={self.format!r}, {self.width}x{self.height}{notes})"


@dataclass(frozen=True, slots=True, repr=False)
class ScreenshotObservation(Bounded):
    """An if-changed capture: whether it changed, by how much, and the screenshot when it did.

    ``screenshot`` is None (and no file was written) when at most ``threshold`` of the pixels
    changed since the last written screenshot of the same ``scope``; the first capture of a
    scope counts as changed (``pixel_change_ratio`` 1.0).
    """

    changed: bool
    revision: int
    pixel_change_ratio: float
    threshold: float
    screenshot: Screenshot | None
    raw: Mapping[str, Any] = field(repr=False, compare=False)
    scope: str = "viewport"

    @classmethod
    def from_wire(cls, wire: w.ScreenshotOutput, raw: Mapping[str, Any]) -> ScreenshotObservation:
        """Build from a decoded ``screenshot`` answer with a comparison."""
        c = wire.comparison
        if c is None:
            raise ValueError("this screenshot answer has no comparison (it was not an if-changed capture)")
        shot = Screenshot.from_wire(wire, raw) if wire.path is not None else None
        return cls(
            changed=c.changed,
            revision=c.revision,
            pixel_change_ratio=c.pixel_change_ratio,
            threshold=c.threshold,
            screenshot=shot,
            raw=raw,
            scope=wire.scope,
        )

    @property
    def path(self) -> Path | None:
        """The file written, or None when nothing changed."""
        return self.screenshot.path if self.screenshot is not None else None
