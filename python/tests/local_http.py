"""A local HTTP server for a test module's own handler: ``serve(handler)`` yields its base URL
(``http://127.0.0.1:PORT``) and shuts it down after; ``static_handler(routes)`` is a handler for
fixed pages and files."""

from __future__ import annotations

import threading
from collections.abc import Iterator, Mapping
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path


def serve(handler: type[BaseHTTPRequestHandler]) -> Iterator[str]:
    """Serves ``handler`` on 127.0.0.1 (a port of its own) until the generator is closed."""
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    httpd.daemon_threads = True
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}"
    finally:
        httpd.shutdown()
        httpd.server_close()


def static_handler(routes: Mapping[str, tuple[str, bytes | Path]]) -> type[BaseHTTPRequestHandler]:
    """A handler answering each path of ``routes`` with its (content type, body: bytes, or a file
    read at each request), in UTF-8; any other path is a 404."""

    class _Static(BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 (http.server API)
            if self.path not in routes:
                self.send_error(404)
                return
            ctype, body = routes[self.path]
            data = body.read_bytes() if isinstance(body, Path) else body
            self.send_response(200)
            self.send_header("Content-Type", f"{ctype}; charset=utf-8")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, format: str, *args: object) -> None:  # noqa: A002
            pass

    return _Static


#: React 18's browser builds from npm (``node_modules``, installed by ``npm ci``), by the path
#: :func:`serve_react` serves them at.
REACT_BUILDS: dict[str, Path] = {
    "/react.js": Path(__file__).resolve().parents[2] / "node_modules/react/umd/react.production.min.js",
    "/react-dom.js": Path(__file__).resolve().parents[2] / "node_modules/react-dom/umd/react-dom.production.min.js",
}


def serve_react(pages: Mapping[str, tuple[str, bytes | Path]]) -> Iterator[str]:
    """Serves ``pages`` (as :func:`static_handler`) with React at ``/react.js`` and
    ``/react-dom.js``; fails the test when the npm build is missing."""
    import pytest

    for f in REACT_BUILDS.values():
        if not f.is_file():
            pytest.fail(f"{f} is missing: run `npm ci` (scripts/setup.sh) to install the React build")
    builds = {path: ("text/javascript", f) for path, f in REACT_BUILDS.items()}
    yield from serve(static_handler({**pages, **builds}))
