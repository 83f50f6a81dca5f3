"""Files: what a file input holds after ``upload``, a file chooser an action opened, and a
complete :class:`Download`."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .. import _wire_types as w
from ._records import WireModel


@dataclass(frozen=True, slots=True)
class UploadedFile:
    """A file a file input holds after ``upload``, as the page sees it."""

    name: str
    size: int
    mime_type: str

    @classmethod
    def from_wire(cls, wire: w.UploadedFile) -> UploadedFile:
        """Build from the decoded wire object."""
        return cls(name=wire.name, size=wire.size, mime_type=wire.type)


class FileChooser(WireModel, w.FileChooserInfo):
    """A file chooser an action opened (``multiple``: it takes several files), waiting for
    ``page.upload(None, files)``."""

    __slots__ = ()


def uploaded(wire: w.ActionOutput) -> tuple[tuple[UploadedFile, ...], FileChooser | None]:
    """The files and the open file chooser an action's data reports (none when absent)."""
    files = tuple(UploadedFile.from_wire(f) for f in wire.files or ())
    chooser = FileChooser.from_wire(wire.file_chooser) if wire.file_chooser is not None else None
    return files, chooser


@dataclass(frozen=True, slots=True)
class Download:
    """A complete download, moved where it was asked to go (never a partial file)."""

    path: Path
    suggested_filename: str
    size: int
    url: str
    mime_type: str | None
    raw: Mapping[str, Any] = field(compare=False, repr=False)

    @classmethod
    def from_wire(cls, wire: w.DownloadOutput, raw: Mapping[str, Any]) -> Download:
        """Build from the decoded wire object and its native mapping ``raw``."""
        return cls(
            path=Path(wire.path),
            suggested_filename=wire.suggested_filename,
            size=wire.size,
            url=wire.url,
            mime_type=wire.mime_type,
            raw=raw,
        )
