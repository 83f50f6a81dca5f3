"""URL patterns of domain-restricted tools and domain-scoped secrets (fail closed), and the secret placeholder.

A pattern is ``[scheme://]host[:port][/path]`` with ``*`` globs: ``example.com``,
``*.example.com`` (the domain and its subdomains), ``https://*.example.com``,
``http*://127.0.0.1:*``, ``https://example.com/admin/*``.  Without a scheme a pattern
matches ``http`` and ``https``; without a port, any port; without a path, any path.
Hosts compare case-insensitively.  An empty, unparsable or non-HTTP(S) URL
(``about:blank``, ``data:``) matches nothing but the pattern ``*``.
"""

from __future__ import annotations

import fnmatch
import re
from collections.abc import Iterable
from urllib.parse import urlsplit

__all__ = ["SECRET_PLACEHOLDER", "url_matches", "url_matches_any"]

#: A secret placeholder, ``<secret>name</secret>`` (group 1: the name); see :mod:`agentbrowser.code.secrets`.
SECRET_PLACEHOLDER = re.compile(r"<secret>\s*([^<>]+?)\s*</secret>")


def url_matches(url: str | None, pattern: str) -> bool:
    """Whether ``url`` matches one domain ``pattern`` (see the module docstring)."""
    pattern = pattern.strip()
    if pattern == "*":
        return True
    if not url:
        return False
    try:
        parts = urlsplit(url)
        host = (parts.hostname or "").lower()
        port = parts.port
    except ValueError:
        return False
    scheme = parts.scheme.lower()
    if scheme not in ("http", "https") or not host:
        return False
    if "://" in pattern:
        want_scheme, _, rest = pattern.partition("://")
    else:
        want_scheme, rest = "http*", pattern
    if not fnmatch.fnmatchcase(scheme, want_scheme.lower()):
        return False
    hostport, slash, path_glob = rest.partition("/")
    want_host, colon, want_port = hostport.rpartition(":") if _has_port(hostport) else (hostport, "", "")
    want_host = want_host.lower().strip("[]")
    if want_host.startswith("*."):
        base = want_host[2:]
        if not (fnmatch.fnmatchcase(host, want_host) or fnmatch.fnmatchcase(host, base)):
            return False
    elif not fnmatch.fnmatchcase(host, want_host):
        return False
    if colon:
        effective = port if port is not None else (443 if scheme == "https" else 80)
        if not fnmatch.fnmatchcase(str(effective), want_port):
            return False
    if slash and path_glob not in ("", "*"):
        if not fnmatch.fnmatchcase(parts.path or "/", "/" + path_glob):
            return False
    return True


def url_matches_any(url: str | None, patterns: Iterable[str]) -> bool:
    """Whether ``url`` matches at least one of ``patterns`` (none given: False)."""
    return any(url_matches(url, p) for p in patterns)


def _has_port(hostport: str) -> bool:
    if hostport.startswith("[") and hostport.endswith("]"):  # a bare IPv6 literal
        return False
    head, colon, tail = hostport.rpartition(":")
    return bool(colon) and bool(tail) and (tail == "*" or tail.isdigit()) and not head.endswith(":")
