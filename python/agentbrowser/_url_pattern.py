"""URL patterns: the one rule of every URL pattern the engine takes (``network.route``,
``network.requests(url_pattern=...)``, ``Wait.url``), for the SDK's own URL matching (the CDP
layer's target and frame lookup by URL). It mirrors crates/protocol/src/url_pattern.rs; both are
checked against crates/protocol/src/url_patterns.json.

A pattern holding ``*`` or ``{`` is a glob over the whole URL (Playwright's rules: ``*`` stops at
``/``, ``**`` crosses it, ``{a,b}`` either, ``\\`` escapes; ``*`` and ``**`` alone match every
URL); without a wildcard, a pattern that begins with a scheme is the whole URL, any other is a
part of the URL. A glob that can match no URL with a host (``*/next``) is a ``ValueError`` naming
the glob that would (``**/next``). So is a pattern no URL the browser reports can match: a whole
URL that is not valid (``http://[``) or not written as browsers write it (``HTTP://Host``,
``http://host`` without its ``/``, ``http://h:80/``: the error names the form that matches), and a
glob whose ``scheme://host`` beginning (without a wildcard) is such a URL's. The engine checks
URLs with a WHATWG URL parser; this mirror checks the cases of the shared table (special schemes:
case, default ports, the empty path, dot segments, characters browsers percent-encode, IPv6 and
port syntax) and lets the engine decide the rarer ones.
"""

from __future__ import annotations

import ipaddress
import json
import re
from dataclasses import dataclass

_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*")
_OPAQUE = ("about", "data", "blob", "javascript", "mailto")
_SHAPES = (
    'a URL pattern is a glob with `*`, `**` or `{a,b}` over the whole URL ("**/api/*"), a whole URL as the '
    'browser writes it ("https://example.com/path"), or a part of a URL without a scheme ("/path", '
    '"example.com/login")'
)
# The schemes whose URLs browsers canonicalize (WHATWG "special" schemes) and their default ports.
_DEFAULT_PORT = {"http": "80", "https": "443", "ws": "80", "wss": "443", "ftp": "21", "file": ""}
_FORBIDDEN_HOST = frozenset(" #%/:<>?@[\\]^|\t\n\r\x00\x7f")
_PATH_ENCODE = frozenset(' "<>`{}')
_QUERY_ENCODE = frozenset(" \"<>'")
_FRAGMENT_ENCODE = frozenset(' "<>`')


def _q(s: str) -> str:
    return json.dumps(s, ensure_ascii=False)


def _encode(part: str, chars: frozenset[str]) -> str:
    return "".join(f"%{ord(c):02X}" if c in chars or ord(c) < 0x20 else c for c in part)


def _without_dots(path: str) -> str:
    out: list[str] = []
    segments = path.split("/")[1:]
    for i, seg in enumerate(segments):
        last = i == len(segments) - 1
        if seg == "..":
            if out:
                out.pop()
            if last:
                out.append("")
        elif seg == ".":
            if last:
                out.append("")
        else:
            out.append(seg)
    return "/" + "/".join(out)


def _host(host: str, scheme: str) -> str:
    """The host as browsers write it; ``ValueError`` naming why it is not a host."""
    if host.startswith("["):
        if not host.endswith("]"):
            raise ValueError("invalid IPv6 address")
        try:
            return f"[{ipaddress.IPv6Address(host[1:-1]).compressed}]"
        except ValueError:
            raise ValueError("invalid IPv6 address") from None
    if not host:
        if scheme == "file":
            return host
        raise ValueError("empty host")
    if any(c in _FORBIDDEN_HOST or ord(c) < 0x20 for c in host):
        raise ValueError("invalid domain character")
    if not host.isascii():
        try:
            host = host.encode("idna").decode("ascii")
        except UnicodeError:
            raise ValueError("invalid international domain name") from None
    return host.lower()


def _canonical(url: str) -> str:
    """``url`` as browsers write it (special schemes; others as given); ``ValueError`` naming why
    it is no URL."""
    scheme, _, rest = url.partition(":")
    scheme = scheme.lower()
    if not rest.startswith("//"):
        return url
    rest = rest[2:]
    end = next((i for i, c in enumerate(rest) if c in "/?#" or (c == "\\" and scheme in _DEFAULT_PORT)), len(rest))
    authority, tail = rest[:end], rest[end:]
    userinfo, at, hostport = authority.rpartition("@")
    host, port = hostport, ""
    if hostport.startswith("["):
        close = hostport.find("]")
        if close >= 0 and hostport[close + 1 :].startswith(":"):
            host, port = hostport[: close + 1], hostport[close + 2 :]
    elif ":" in hostport:
        host, _, port = hostport.partition(":")
        if ":" in port:
            raise ValueError("invalid port number")
    if port and (not port.isdigit() or int(port) > 65535):
        raise ValueError("invalid port number")
    if scheme not in _DEFAULT_PORT:
        if host.startswith("["):
            _host(host, scheme)
        return url
    host = _host(host, scheme)
    port = str(int(port)) if port else ""
    if port == _DEFAULT_PORT[scheme]:
        port = ""
    tail = tail.replace("\\", "/")
    path, hashmark, fragment = tail.partition("#")
    path, question, query = path.partition("?")
    path = _without_dots(_encode(path or "/", _PATH_ENCODE))
    written = f"{scheme}://{userinfo}{at}{host}{':' if port else ''}{port}{path}"
    written += question + _encode(query, _QUERY_ENCODE) + hashmark + _encode(fragment, _FRAGMENT_ENCODE)
    return written


def _check_whole_url(p: str) -> None:
    try:
        written = _canonical(p)
    except ValueError as e:
        raise ValueError(f"{_q(p)} is not a valid URL ({e}), so it can match nothing; {_SHAPES}") from None
    if written != p:
        raise ValueError(
            f"the URL {_q(p)} is not written as the browser writes URLs, so no URL equals it: "
            f"write {_q(written)}; {_SHAPES}"
        )


def _check_glob_origin(p: str) -> None:
    scheme, sep, rest = p.partition("://")
    if not sep or not _has_scheme(p):
        return
    end = next((i for i, c in enumerate(rest) if c in "/?#"), len(rest))
    authority = rest[:end]
    if any(c in "*{}\\" for c in authority + scheme):
        return
    origin = f"{scheme}://{authority}"
    try:
        written = _canonical(origin + "/")[:-1]
    except ValueError as e:
        raise ValueError(
            f"the glob {_q(p)} begins with {_q(origin)}, which is not a valid URL's beginning ({e}), so it can match "
            f"nothing; {_SHAPES}"
        ) from None
    if written != origin and scheme.lower() != "file":
        raise ValueError(
            f"the glob {_q(p)} begins with {_q(origin)}, which the browser writes {_q(written)}, so it can match "
            f"nothing: write {_q(written + rest[end:])}; {_SHAPES}"
        )


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
            _check_glob_origin(pattern)
            return cls(pattern, "glob", compiled)
        if _has_scheme(pattern):
            _check_whole_url(pattern)
            return cls(pattern, "whole")
        return cls(pattern, "part")

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
