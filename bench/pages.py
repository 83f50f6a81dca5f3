#!/usr/bin/env python3
"""The benchmark's pages, and a quiet HTTP server for them on 127.0.0.1.

    python3 bench/pages.py write DIR        # write the pages into DIR
    python3 bench/pages.py serve DIR        # write them, serve DIR; prints the port on stdout

Pages:
  form.html       a small login form (name, email, password, remember-me, plan select, submit);
                  submit writes a welcome text into #welcome, with no navigation
  other.html      a small page linking back to the form
  large-1k.html, large-5k.html, large-20k.html
                  300 links, 100 buttons, a 500-row by 4-column table and nested divs for about
                  5,000 elements, scaled to about 1,000 and 20,000
  session-5k.html the 5k page with a filter form under its heading (search box, quantity, Apply
                  writing a status line), for the bytes an agent reads across a scripted session
                  (bench/session_bytes.py)
  table-50k.html  a data table of 5,000 rows by 10 cells (50,000 cells), for the snapshot budget
  cover.html      a button under a fixed cookie banner, for how fast a stable cover is reported
"""

from __future__ import annotations

import http.server
import sys
from pathlib import Path

FORM = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Sign in</title></head>
<body>
<main>
<h1>Sign in</h1>
<form id="login">
  <p><label for="name">Full name</label> <input id="name" name="name" type="text"></p>
  <p><label for="email">Email</label> <input id="email" name="email" type="email"></p>
  <p><label for="password">Password</label> <input id="password" name="password" type="password"></p>
  <p><label><input id="remember" name="remember" type="checkbox"> Remember me</label></p>
  <p><label for="plan">Plan</label>
    <select id="plan" name="plan"><option>Free</option><option>Pro</option><option>Team</option></select></p>
  <p><button id="submit" type="submit">Sign in</button></p>
</form>
<p id="welcome" role="status"></p>
<p><a href="other.html">Another page</a></p>
</main>
<script>
document.getElementById('login').addEventListener('submit', (event) => {
  event.preventDefault();
  const who = document.getElementById('email').value || 'guest';
  document.getElementById('welcome').textContent = 'Welcome, ' + who + '!';
});
</script>
</body></html>
"""

OTHER = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Other page</title></head>
<body><h1>Other page</h1><p>Nothing to see here.</p><p><a href="form.html">Back to the form</a></p></body></html>
"""

# name -> scale; scale 1 is the ~5,000-element page of the issues.
LARGE = {"large-1k.html": 0.2, "large-5k.html": 1.0, "large-20k.html": 4.0}


FILTER_FORM = """<form id="filter" onsubmit="event.preventDefault(); document.getElementById('status').textContent = \
'Showing ' + document.getElementById('qty').value + ' results for ' + document.getElementById('q').value;">
<label>Search <input id="q" type="search"></label> <label>Quantity <input id="qty" type="number"></label>
<button type="submit">Apply</button></form><p id="status" role="status"></p>"""
FILTER_FORM_ELEMENTS = 7  # form, 2 labels, 2 inputs, button, p


def large_page(scale: float, form: bool = False) -> tuple[str, int]:
    """The large page at ``scale`` and the number of elements it has (as querySelectorAll('*') counts);
    ``form`` puts FILTER_FORM under its heading."""
    links, buttons, rows = round(300 * scale), round(100 * scale), round(500 * scale)
    target = round(5000 * scale)
    parts: list[str] = []
    count = 4  # html, head, title, body (meta and h1 are counted where they are written)
    parts.append('<!doctype html>\n<html lang="en"><head><meta charset="utf-8">')
    parts.append(f"<title>Large page ({target} elements)</title></head><body>")
    count += 1
    parts.append(f"<h1>Large page, about {target} elements</h1>")
    count += 1
    if form:
        parts.append(FILTER_FORM)
        count += FILTER_FORM_ELEMENTS
    parts.append('<nav aria-label="Links"><ul>')
    count += 2
    for i in range(links):
        parts.append(f'<li><a href="#item-{i}">Link number {i}</a></li>')
        count += 2
    parts.append("</ul></nav><section>")
    count += 1
    for i in range(buttons):
        parts.append(f'<button type="button" onclick="this.dataset.n=(+this.dataset.n||0)+1">Button {i}</button>')
        count += 1
    parts.append("</section><table><thead><tr><th>Id</th><th>Name</th><th>Status</th><th>Amount</th></tr></thead><tbody>")
    count += 8
    for i in range(rows):
        parts.append(f"<tr><td>{i}</td><td>Row {i}</td><td>{'open' if i % 3 else 'closed'}</td><td>{i * 7 % 1000}</td></tr>")
        count += 5
    parts.append("</tbody></table>")
    count += 1  # tbody
    # Nested divs: groups of 4 levels with a span of text at the bottom (5 elements a group).
    groups = max(0, (target - count) // 5)
    parts.append("<div class='nest'>")
    count += 1
    for i in range(groups):
        parts.append(f"<div><div><div><div><span>Nested text {i}</span></div></div></div></div>")
        count += 5
    parts.append("</div></body></html>\n")
    return "".join(parts), count


TABLE_50K = (
    "<!doctype html><html><head><meta charset=utf-8><title>Table 50k</title></head><body>"
    "<h1>Table</h1><table><thead><tr>"
    + "".join(f"<th>Col {c}</th>" for c in range(10))
    + "</tr></thead><tbody>"
    + "".join("<tr>" + "".join(f"<td>r{r}c{c}</td>" for c in range(10)) + "</tr>" for r in range(5000))
    + "</tbody></table></body></html>"
)

COVER = """<!doctype html><html><head><meta charset=utf-8><title>Cover</title></head><body>
<h1>Shop</h1><button id="buy" onclick="window.bought=1">Buy</button>
<div id="cookie-banner" style="position:fixed;inset:0;background:#eee">We use cookies <button>Accept</button></div>
</body></html>"""


def write_pages(directory: Path) -> dict[str, int]:
    """Writes every page into ``directory``; returns page name -> element count of the large pages."""
    directory.mkdir(parents=True, exist_ok=True)
    (directory / "form.html").write_text(FORM)
    (directory / "other.html").write_text(OTHER)
    (directory / "table-50k.html").write_text(TABLE_50K)
    (directory / "cover.html").write_text(COVER)
    counts: dict[str, int] = {}
    for name, scale in LARGE.items():
        html, n = large_page(scale)
        (directory / name).write_text(html)
        counts[name] = n
    html, n = large_page(1.0, form=True)
    (directory / "session-5k.html").write_text(html)
    counts["session-5k.html"] = n
    return counts


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - stdlib signature
        pass

    def end_headers(self) -> None:
        self.send_header("Cache-Control", "no-store")
        super().end_headers()


def serve(directory: Path) -> None:
    write_pages(directory)

    def handler(*args: object, **kwargs: object) -> QuietHandler:
        return QuietHandler(*args, directory=str(directory), **kwargs)  # type: ignore[arg-type]

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    print(server.server_address[1], flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()


def main(argv: list[str]) -> int:
    if len(argv) != 3 or argv[1] not in ("write", "serve"):
        print(__doc__, file=sys.stderr)
        return 2
    directory = Path(argv[2])
    if argv[1] == "write":
        for name, n in write_pages(directory).items():
            print(f"{name}: {n} elements")
    else:
        serve(directory)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
