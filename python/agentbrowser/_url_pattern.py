"""URL patterns: the one rule of every URL pattern the engine takes (``network.route``,
``network.requests(url_pattern=...)``, ``Wait.url``), for the SDK's own URL matching (the CDP
layer's target and frame lookup by URL). It mirrors crates/protocol/src/url_pattern.rs; both are
checked against crates/protocol/src/url_patterns.json.

A pattern holding ``*`` or ``{`` is a glob over the whole URL (Playwright's rules: ``*`` stops at
``/``, ``**`` crosses it, ``{a,b}`` either, ``\\`` escapes; ``*`` and ``**`` alone match every
URL); without a wildcard, a pattern that begins with a scheme is the whole URL, any other is a
part of the URL. A glob that can match no URL with a host (``*/next``) is a ``ValueError`` naming
the glob that would (``**/next``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*")
_OPAQUE = ("about", "data", "blob", "javascript", "mailto")


def _has_wildcard(p: str) -> bool:
    escaped = False
    for c in p:
        if escaped:
            escaped = False
        elif c == "\\":
            escaped = True
        elif c in "*{":
            return True
    return False


def _has_scheme(p: str) -> bool:
    m = _SCHEME.match(p)
    if not m:
        return False
    rest = p[m.end():]
    return rest.startswith("://") or (rest.startswith(":") and m.group().lower() in _OPAQUE)


def _glob_regex(glob: str) -> re.Pattern[str]:
    out, i, group = ["^"], 0, False
    while i < len(glob):
        c = glob[i]
        if c == "\\" and i + 1 < len(glob):
            out.append(re.escape(glob[i + 1]))
            i += 2
            continue
        if c == "*":
            before = glob[i - 1] if i else ""
            stars = 1
            while i + 1 < len(glob) and glob[i + 1] == "*":
                stars, i = stars + 1, i + 1
            if stars > 1 and i + 1 < len(glob) and glob[i + 1] == "/":
                out.append("((.+/)|)" if before == "/" else "(.*/)")
                i += 1
            else:
                out.append("(.*)" if stars > 1 else "([^/]*)")
            i += 1
            continue
        if c == "{":
            if group:
                raise ValueError("`{` inside `{...}`: groups do not nest")
            group = True
            out.append("(")
        elif c == "}":
            if not group:
                raise ValueError("`}` without its `{`")
            group = False
            out.append(")")
        elif c == "," and group:
            out.append("|")
        else:
            out.append(re.escape(c))
        i += 1
    if group:
        raise ValueError("`{` without its `}`")
    return re.compile("".join(out) + "$", re.DOTALL)


@dataclass(frozen=True, slots=True)
class UrlPattern:
    """A parsed URL pattern (see the module docstring); ``UrlPattern.parse`` makes one."""

    source: str
    how: str
    regex: re.Pattern[str] | None = None

    @classmethod
    def parse(cls, pattern: str) -> UrlPattern:
        """Parse ``pattern``; ``ValueError`` says what is wrong (and which glob would match)."""
        if not pattern:
            raise ValueError("an empty pattern matches nothing (`**` matches every URL)")
        if pattern in ("*", "**"):
            return cls(pattern, "every")
        if _has_wildcard(pattern):
            compiled = _glob_regex(pattern)  # a malformed glob says what is malformed first
            if "**" not in pattern and "//" not in pattern and not _has_scheme(pattern):
                better = "*" + pattern if pattern.startswith("*/") else "**/" + pattern
                raise ValueError(
                    f'the glob "{pattern}" can match no URL with a host: a glob matches the whole URL '
                    f'and `*` stops at `/`; write "{better}" (`**` crosses `/`)'
                )
            return cls(pattern, "glob", compiled)
        return cls(pattern, "whole" if _has_scheme(pattern) else "part")

    def matches(self, url: str) -> bool:
        """Whether ``url`` matches."""
        if self.how == "every":
            return True
        if self.regex is not None:
            return self.regex.match(url) is not None
        return url == self.source if self.how == "whole" else self.source in url


def url_matches(pattern: str, url: str) -> bool:
    """Whether ``url`` matches the URL pattern ``pattern`` (``ValueError`` for a bad pattern)."""
    return UrlPattern.parse(pattern).matches(url)
