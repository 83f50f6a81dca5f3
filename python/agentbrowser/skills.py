"""The skills bundled in the agentbrowser binary: Markdown guides for coding agents.

>>> from agentbrowser import skills
>>> skills.available()
('capture', 'code-mode', 'core', 'mcp', 'network', 'reading', 'safety', 'state')
>>> print(skills.read("core"))               # its SKILL.md
>>> skills.part("core", "references/errors.md").content

They come from the binary the package ships (``agentbrowser skills list --json --full --all``,
read once per process), so the Python package and the CLI always serve the same text. Unknown
names raise ``KeyError``; part paths are normalized, and ``..``, absolute and empty paths raise
``KeyError``.
"""

from __future__ import annotations

import json
import posixpath
import subprocess
import threading
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from ._binary import find_binary
from .errors import BrowserInstallError

__all__ = ["Skill", "SkillFile", "SkillPart", "available", "get", "list", "markdown", "part", "parts", "read"]

#: The kind of a skill's part: its ``SKILL.md``, a reference, a template or another file.
PartKind = Literal["main", "reference", "template", "file"]
_KINDS: tuple[str, ...] = ("main", "reference", "template", "file")
_MAIN = "SKILL.md"


@dataclass(frozen=True, slots=True)
class SkillPart:
    """One file of a skill: its ``path`` inside the skill and its ``kind``."""

    path: str
    kind: PartKind


@dataclass(frozen=True, slots=True)
class SkillFile:
    """A loaded file of a skill: its relative ``path`` and text ``content``."""

    path: str
    content: str


@dataclass(frozen=True, slots=True)
class Skill:
    """A skill: ``name``, the front matter's ``description``, the main ``content`` (SKILL.md
    without its front matter), every part's metadata, the ``files`` loaded (SKILL.md, or every
    part with ``full=True``) and whether it is ``hidden`` (listed only with ``include_hidden``)."""

    name: str
    description: str
    content: str
    parts: tuple[SkillPart, ...]
    files: tuple[SkillFile, ...]
    hidden: bool

    @property
    def markdown(self) -> str:
        """The loaded files as one Markdown text: SKILL.md, then each other part after a
        ``<!-- part: PATH -->`` line (as ``agentbrowser skills get NAME --full`` prints)."""
        main = next((f.content for f in self.files if f.path == _MAIN), "")
        rest = "".join(f"\n<!-- part: {f.path} -->\n{f.content}" for f in self.files if f.path != _MAIN)
        return main + rest

    def part(self, path: str) -> SkillFile:
        """The part at ``path`` (normalized); KeyError for an unknown or refused path."""
        clean = _normalize(path)
        for f in _load()[self.name].files:
            if f.path == clean:
                return f
        known = ", ".join(p.path for p in self.parts)
        raise KeyError(f"skill {self.name!r} has no part {clean!r}; its parts: {known}")

    def read(self, path: str = _MAIN) -> str:
        """The text of the part at ``path`` (default ``SKILL.md``)."""
        return self.part(path).content


_lock = threading.Lock()
_cache: dict[str, Skill] | None = None


def _normalize(path: str) -> str:
    if not isinstance(path, str):
        raise TypeError(f"a part path must be a string, got {type(path).__name__}")
    if path.startswith("/") or path.startswith("\\"):
        raise KeyError(f"invalid part path {path!r}: an absolute path is not allowed")
    pieces = [p for p in path.replace("\\", "/").split("/") if p not in ("", ".")]
    if ".." in pieces:
        raise KeyError(f"invalid part path {path!r}: `..` is not allowed")
    if not pieces:
        raise KeyError(f"invalid part path {path!r}: it is empty")
    return posixpath.join(*pieces)


def _decode(raw: Mapping[str, Any]) -> Skill:
    parts = tuple(
        SkillPart(path=str(p["path"]), kind=p["kind"] if p["kind"] in _KINDS else "file") for p in raw["parts"]
    )
    files = tuple(SkillFile(path=str(f["path"]), content=str(f["content"])) for f in raw["files"])
    return Skill(
        name=str(raw["name"]),
        description=str(raw["description"]),
        content=str(raw["content"]),
        parts=parts,
        files=files,
        hidden=bool(raw["hidden"]),
    )


def _load() -> dict[str, Skill]:
    """Every skill with every file, from the binary (once per process)."""
    global _cache
    with _lock:
        if _cache is None:
            binary = find_binary()
            done = subprocess.run(
                [binary, "--json", "skills", "list", "--all", "--full"],
                capture_output=True,
                text=True,
                timeout=30,
                check=False,
            )
            if done.returncode != 0:
                raise BrowserInstallError(
                    f"`{binary} skills list` failed: {done.stderr.strip()[-500:] or done.stdout.strip()[-500:]}",
                    hint="This agentbrowser binary may predate skills: reinstall the package",
                )
            data = json.loads(done.stdout)
            _cache = {s.name: s for s in (_decode(raw) for raw in data["skills"])}
        return _cache


def _skill(name: str) -> Skill:
    if not isinstance(name, str):
        raise TypeError(f"a skill name must be a string, got {type(name).__name__}")
    skills = _load()
    if name not in skills:
        raise KeyError(f"unknown skill {name!r}; the skills are: {', '.join(sorted(skills))}")
    return skills[name]


def _view(skill: Skill, full: bool) -> Skill:
    if full:
        return skill
    return Skill(
        name=skill.name,
        description=skill.description,
        content=skill.content,
        parts=skill.parts,
        files=tuple(f for f in skill.files if f.path == _MAIN),
        hidden=skill.hidden,
    )


def available(*, include_hidden: bool = False) -> tuple[str, ...]:
    """The skills' names, sorted (hidden ones only with ``include_hidden``)."""
    return tuple(sorted(n for n, s in _load().items() if include_hidden or not s.hidden))


def list(*, full: bool = False, include_hidden: bool = False) -> tuple[Skill, ...]:  # noqa: A001
    """Every skill (``full``: with every part loaded, else SKILL.md only)."""
    return tuple(_view(_load()[n], full) for n in available(include_hidden=include_hidden))


def get(name: str, *, full: bool = False) -> Skill:
    """The skill ``name`` (hidden ones too); KeyError for an unknown name."""
    return _view(_skill(name), full)


def parts(name: str) -> tuple[SkillPart, ...]:
    """The parts of the skill ``name``."""
    return _skill(name).parts


def part(name: str, path: str) -> SkillFile:
    """One part of the skill ``name``; KeyError for an unknown skill or part, ``..``, absolute
    and empty paths."""
    return _skill(name).part(path)


def read(name: str, path: str = _MAIN) -> str:
    """The text of one part (default ``SKILL.md``) of the skill ``name``."""
    return part(name, path).content


def markdown(name: str, *, full: bool = False) -> str:
    """The skill ``name`` as Markdown: its SKILL.md, with ``full`` every part after it."""
    return get(name, full=full).markdown
