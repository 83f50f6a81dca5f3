"""Sensitive data: ``<secret>name</secret>`` placeholders substituted inside tool calls, real values masked.

>>> secrets = SensitiveData({"user": "ada", "https://*.example.com": {"password": "hunter2"}})
>>> secrets.substitute("<secret>password</secret>", "https://login.example.com/")
'hunter2'
>>> secrets.mask("typed hunter2 for ada")
'typed <secret>password</secret> for <secret>user</secret>'

A plain ``{"name": "value"}`` entry is allowed on every page; a ``{"pattern": {"name": "value"}}``
entry only on pages whose URL matches the pattern (the globs of
:mod:`agentbrowser.tools.domains`: ``example.com``, ``*.example.com``,
``https://*.example.com``...).  :meth:`SensitiveData.substitute` replaces only placeholders of
the secrets allowed for the URL and leaves the others as they are
(:meth:`SensitiveData.unresolved` names them, so callers can refuse the call);
:meth:`SensitiveData.mask` replaces every real value, longest first, whatever the page.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from ..tools.domains import SECRET_PLACEHOLDER, url_matches

__all__ = ["SensitiveData", "PLACEHOLDER"]

#: A placeholder: ``<secret>name</secret>`` (group 1: the name).
PLACEHOLDER = SECRET_PLACEHOLDER


class SensitiveData:
    """Named secrets, global or scoped to URL patterns; see the module docstring."""

    __slots__ = ("_global", "_scoped", "_masks")

    def __init__(self, mapping: Mapping[str, str | Mapping[str, str]] | None = None) -> None:
        self._global: dict[str, str] = {}
        self._scoped: list[tuple[str, dict[str, str]]] = []
        for key, value in (mapping or {}).items():
            if not isinstance(key, str) or not key:
                raise ValueError(f"SensitiveData keys must be non-empty strings, got {key!r}")
            if isinstance(value, str):
                self._global[key] = value
            elif isinstance(value, Mapping):
                inner: dict[str, str] = {}
                for name, secret in value.items():
                    if not isinstance(name, str) or not name or not isinstance(secret, str):
                        raise ValueError(
                            f"SensitiveData[{key!r}] must map secret names to string values, got {name!r}"
                        )
                    inner[name] = secret
                self._scoped.append((key, inner))
            else:
                raise ValueError(
                    f"SensitiveData[{key!r}] must be a string (a secret) or a mapping of names to secrets "
                    f"(scoped to the URL pattern {key!r}), got {type(value).__name__}"
                )
        pairs: dict[str, str] = {}
        for name, secret in [*self._global.items(), *(kv for _, scope in self._scoped for kv in scope.items())]:
            if secret and secret not in pairs:
                pairs[secret] = name
        # Longer values first, so that a value containing another is masked whole.
        self._masks: tuple[tuple[str, str], ...] = tuple(
            sorted(((v, f"<secret>{n}</secret>") for v, n in pairs.items()), key=lambda p: -len(p[0]))
        )

    @classmethod
    def coerce(cls, value: SensitiveData | Mapping[str, Any] | None) -> SensitiveData | None:
        """``value`` as a SensitiveData (None stays None; an empty mapping gives None)."""
        if value is None or isinstance(value, SensitiveData):
            return value
        return cls(value) if value else None

    def names(self) -> tuple[str, ...]:
        """Every secret name (global and scoped), sorted, each once."""
        return tuple(sorted({*self._global, *(n for _, scope in self._scoped for n in scope)}))

    def allowed(self, url: str | None) -> dict[str, str]:
        """The secrets usable on ``url``: the global ones and those of every matching pattern."""
        found = dict(self._global)
        for pattern, scope in self._scoped:
            if url_matches(url, pattern):
                found.update(scope)
        return found

    def substitute(self, text: str, url: str | None) -> str:
        """``text`` with each ``<secret>name</secret>`` of a secret allowed on ``url`` replaced by its value."""
        allowed = self.allowed(url)

        def repl(m: re.Match[str]) -> str:
            return allowed.get(m.group(1), m.group(0))

        return PLACEHOLDER.sub(repl, text)

    def unresolved(self, text: str, url: str | None) -> tuple[str, ...]:
        """The placeholder names in ``text`` that :meth:`substitute` would leave (unknown or not allowed on ``url``)."""
        allowed = self.allowed(url)
        return tuple(dict.fromkeys(n for n in PLACEHOLDER.findall(text) if n not in allowed))

    def mask(self, text: str) -> str:
        """``text`` with every real secret value (longest first; never an empty one) replaced by its placeholder."""
        for value, placeholder in self._masks:
            if value in text:
                text = text.replace(value, placeholder)
        return text

    def mask_value(self, value: Any) -> Any:
        """``value`` with :meth:`mask` applied to every string in it (through lists, tuples and dicts)."""
        if isinstance(value, str):
            return self.mask(value)
        if isinstance(value, Mapping):
            return {self.mask_value(k): self.mask_value(v) for k, v in value.items()}
        if isinstance(value, (list, tuple)):
            items = [self.mask_value(v) for v in value]
            return tuple(items) if isinstance(value, tuple) else items
        return value

    def substitute_value(self, value: Any, url: str | None) -> Any:
        """``value`` with :meth:`substitute` applied to every string in it (through lists, tuples and dicts)."""
        if isinstance(value, str):
            return self.substitute(value, url)
        if isinstance(value, Mapping):
            return {k: self.substitute_value(v, url) for k, v in value.items()}
        if isinstance(value, (list, tuple)):
            items = [self.substitute_value(v, url) for v in value]
            return tuple(items) if isinstance(value, tuple) else items
        return value

    def placeholders_in(self, value: Any) -> tuple[str, ...]:
        """Every placeholder name found in the strings of ``value``, in order, each once."""
        return tuple(dict.fromkeys(_walk_names(value)))

    def __bool__(self) -> bool:
        return bool(self._global or any(scope for _, scope in self._scoped))

    def __len__(self) -> int:
        return len(self.names())

    def __repr__(self) -> str:
        scopes = ", ".join(repr(p) for p, _ in self._scoped)
        return f"SensitiveData(names={list(self.names())!r}{', scopes=[' + scopes + ']' if scopes else ''})"


def _walk_names(value: Any) -> Iterable[str]:
    if isinstance(value, str):
        yield from PLACEHOLDER.findall(value)
    elif isinstance(value, Mapping):
        for v in value.values():
            yield from _walk_names(v)
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from _walk_names(v)
