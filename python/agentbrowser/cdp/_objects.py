"""The fields of the objects ``browser.cdp`` hands out (targets, frames, execution contexts),
shared by the sync classes and their async twins, which add the methods."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ._core import ContextData, FrameData, TargetData


class TargetFields:
    """A page target: ``target_id``, ``url`` and ``title`` when looked up, the engine's tab
    ``label``, and ``session_id`` (this client's flat session on it, for ``send``)."""

    def __init__(self, data: TargetData) -> None:
        self._data = data
        self.target_id = data.target_id
        self.type = data.type
        self.url = data.url
        self.title = data.title
        self.label = data.label
        self.session_id = data.session_id

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.target_id} url={self.url[:80]!r} label={self.label!r}>"


class FrameFields:
    """A frame as listed: ``id``, ``parent_id``, ``name``, ``url``, ``loader_id`` (its document
    then: after a navigation the object is stale) and ``session_id``."""

    def __init__(self, data: FrameData) -> None:
        self._data = data
        self.id = data.id
        self.parent_id = data.parent_id
        self.name = data.name
        self.url = data.url
        self.loader_id = data.loader_id
        self.session_id = data.session_id

    @property
    def is_main(self) -> bool:
        """Whether this is its page's main frame."""
        return self.parent_id is None

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.id} name={self.name!r} url={self.url[:80]!r}>"


class ContextFields:
    """An execution context: protocol ``id`` and ``unique_id``, ``frame_id``, ``origin``,
    ``name``, ``type`` (default, isolated, worker) and ``is_default``."""

    def __init__(self, data: ContextData) -> None:
        self._data = data
        self.id = data.id
        self.unique_id = data.unique_id
        self.frame_id = data.frame_id
        self.origin = data.origin
        self.name = data.name
        self.type = data.type
        self.is_default = data.is_default
        self.session_id = data.session_id

    @property
    def raw(self) -> Mapping[str, Any]:
        """The protocol's ExecutionContextDescription."""
        return self._data.raw

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.unique_id} type={self.type} origin={self.origin!r} default={self.is_default}>"
