"""A :class:`DocumentScope`: which document (tab target and frame) an operation addresses."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class DocumentScope:
    """The identity of one document: its tab's CDP ``target_id``, its ``frame_id`` (None: the
    tab's main document), its ``url`` when known, and the ref ``generation`` of the snapshot it
    came from (pyagentbrowser's name and fields)."""

    target_id: str | None = None
    frame_id: str | None = None
    url: str | None = None
    generation: int = 0
