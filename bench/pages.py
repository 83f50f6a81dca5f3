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
  reach-5k.html   the 5k page plus 50 closed shadow roots holding a button each and 100 divs
                  clickable only through addEventListener('click'), for the snapshot's reach (its
                  CDP pierce walk and the handed-over nodes)
  table-50k.html  a data table of 5,000 rows by 10 cells (50,000 cells), for the snapshot budget
  cover.html      a button under a fixed cookie banner, for how fast a stable cover is reported
  docs.html       a long documentation page shaped like the Python docs' library/functions.html
                  (Sphinx markup: header and sidebar navigation, a function index table, 71
                  described functions, 600 links and 40 highlighted code blocks), for `read`
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


# Appended to the 5k page for reach-5k.html: closed shadow roots and listener-only clickables.
REACH = """<section id="reach"></section><script>
const reach = document.getElementById('reach');
for (let i = 0; i < 50; i++) {
  const host = document.createElement('div');
  reach.appendChild(host);
  host.attachShadow({mode: 'closed'}).innerHTML = '<button>Closed ' + i + '</button>';
}
for (let i = 0; i < 100; i++) {
  const d = document.createElement('div');
  d.textContent = 'Listener ' + i;
  d.addEventListener('click', () => { d.dataset.n = (+d.dataset.n || 0) + 1; });
  reach.appendChild(d);
}
</script>"""


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


# The functions of the Python docs' library/functions.html, for the `read` page.
DOC_FUNCTIONS = (
    "abs aiter all anext any ascii bin bool breakpoint bytearray bytes callable chr classmethod compile "
    "complex delattr dict dir divmod enumerate eval exec filter float format frozenset getattr globals "
    "hasattr hash help hex id input int isinstance issubclass iter len list locals map max memoryview min "
    "next object oct open ord pow print property range repr reversed round set setattr slice sorted "
    "staticmethod str sum super tuple type vars zip __import__"
).split()

#: What docs.html holds (checked when it is written).
DOCS_LINKS, DOCS_CODE_BLOCKS = 600, 40


def docs_page() -> str:
    """A long Sphinx-style documentation page: navigation around one main article of 71 functions,
    each with a signature, prose with cross-reference links, and 40 of them with a code example;
    exactly DOCS_LINKS links and DOCS_CODE_BLOCKS code blocks."""
    names = DOC_FUNCTIONS
    links = 0
    out: list[str] = []
    add = out.append
    add('<!doctype html>\n<html lang="en"><head><meta charset="utf-8">')
    add('<meta name="viewport" content="width=device-width, initial-scale=1">')
    add("<title>Built-in Functions \u2014 Python 3.13 documentation</title>")
    add("<style>body{font-family:sans-serif} .sphinxsidebar{float:left;width:230px} .body{margin-left:250px}</style>")
    add("</head><body>")
    # Header navigation: 10 links.
    add('<div class="related" role="navigation" aria-label="Related"><h3>Navigation</h3><ul>')
    for label in ("index", "modules", "next", "previous", "Python", "3.13 Documentation",
                  "The Python Standard Library", "Theme", "Search", "Download"):
        add(f'<li><a href="/{label.lower().replace(" ", "-")}.html">{label}</a></li>')
        links += 1
    add("</ul></div>")
    # Sidebar: one link per function plus 9 others.
    add('<div class="sphinxsidebar" role="navigation" aria-label="Main"><div class="sphinxsidebarwrapper">')
    add("<h3>Table of Contents</h3><ul>")
    for n in names:
        add(f'<li><a class="reference internal" href="#{n}">{n}()</a></li>')
        links += 1
    add("</ul><h4>Previous topic</h4><p><a href='intro.html'>Introduction</a></p>")
    add("<h4>Next topic</h4><p><a href='constants.html'>Built-in Constants</a></p>")
    links += 2
    add("<div role='note'><h3>This page</h3><ul><li><a href='bugs.html'>Report a Bug</a></li>")
    add("<li><a href='_sources/library/functions.rst.txt'>Show Source</a></li></ul></div>")
    links += 2
    add("</div></div>")
    # The article.
    add('<div class="document"><div class="body" role="main">')
    add('<section id="built-in-functions"><span id="built-in-funcs"></span>')
    add('<h1>Built-in Functions<a class="headerlink" href="#built-in-functions" title="Link to this heading">\u00b6</a></h1>')
    links += 1
    add("<p>The Python interpreter has a number of functions and types built into it that are always "
        "available. They are listed here in alphabetical order.</p>")
    add('<table class="docutils align-default"><thead><tr><th>A</th><th>B</th><th>C</th><th>D</th></tr></thead><tbody>')
    for row in range(0, len(names), 4):
        cells = "".join(f'<td><a class="reference internal" href="#{n}"><code>{n}()</code></a></td>'
                        for n in names[row:row + 4])
        links += len(names[row:row + 4])
        add(f"<tr>{cells}</tr>")
    add("</tbody></table>")
    blocks = 0
    for i, n in enumerate(names):
        other = names[(i * 7 + 3) % len(names)]
        third = names[(i * 11 + 5) % len(names)]
        add(f'<dl class="py function"><dt class="sig sig-object py" id="{n}">')
        add(f'<span class="sig-name descname"><span class="pre">{n}</span></span>'
            f'<span class="sig-paren">(</span><em class="sig-param"><span class="n">object</span></em>'
            f'<span class="sig-paren">)</span><a class="headerlink" href="#{n}" title="Link to this definition">\u00b6</a></dt>')
        links += 1
        add(f'<dd><p>Return the result of <code class="docutils literal">{n}</code> applied to <em>object</em>. '
            f'See also <a class="reference internal" href="#{other}"><code>{other}()</code></a> and '
            f'<a class="reference internal" href="#{third}"><code>{third}()</code></a>; the '
            f'<a class="reference external" href="https://docs.python.org/3/reference/datamodel.html#{n}">data model</a> '
            f'describes the protocol behind it.</p>')
        links += 3
        add(f"<p>This function is one of the {len(names)} built-ins. It accepts any object that "
            f"implements the matching special method, and raises <code>TypeError</code> otherwise.</p>")
        add("<p>" + " ".join(
            f"When <em>object</em> defines <code>__{n}__</code>, the result is what that method returns "
            f"(case {k}); otherwise the interpreter falls back to the generic protocol, which may look "
            "the attribute up on the type rather than on the instance, and it never consults "
            "<code>__getattr__</code>."
            for k in range(4)) + "</p>")
        if blocks < DOCS_CODE_BLOCKS and i % 7 != 6:
            add('<div class="highlight-python3 notranslate"><div class="highlight"><pre><span></span>'
                f'<span class="gp">&gt;&gt;&gt; </span><span class="n">{n}</span><span class="p">(</span>'
                f'<span class="mi">{i}</span><span class="p">)</span>\n'
                f'<span class="gp">&gt;&gt;&gt; </span><span class="n">value</span> <span class="o">=</span> '
                f'<span class="n">{n}</span><span class="p">(</span><span class="s2">&quot;text {i}&quot;</span>'
                '<span class="p">)</span>\n</pre></div></div>')
            blocks += 1
        if i % 10 == 0:
            add('<div class="admonition note"><p class="admonition-title">Note</p><p>Changed in version 3.'
                f'{i % 13}: <a class="reference internal" href="#{other}">{other}</a> now shares this behaviour.</p></div>')
            links += 1
        add("</dd></dl>")
    add("</section></div></div>")
    # Footer: the remaining links.
    add('<div class="footer"><p>\u00a9 Copyright 2001 Python Software Foundation.</p><ul>')
    while links < DOCS_LINKS:
        add(f'<li><a href="/archive/{links}.html">Archive {links}</a></li>')
        links += 1
    add("</ul></div>")
    add('<div id="cookie-banner" class="cookie-consent" role="dialog" aria-label="Cookies">We use cookies. '
        "<button>Accept</button></div>")
    add("</body></html>\n")
    html = "".join(out)
    assert links == DOCS_LINKS, links
    assert blocks == DOCS_CODE_BLOCKS, blocks
    assert html.count("<a ") == DOCS_LINKS
    return html


def write_pages(directory: Path) -> dict[str, int]:
    """Writes every page into ``directory``; returns page name -> element count of the large pages."""
    directory.mkdir(parents=True, exist_ok=True)
    (directory / "form.html").write_text(FORM)
    (directory / "other.html").write_text(OTHER)
    (directory / "table-50k.html").write_text(TABLE_50K)
    (directory / "cover.html").write_text(COVER)
    (directory / "docs.html").write_text(docs_page())
    counts: dict[str, int] = {}
    for name, scale in LARGE.items():
        html, n = large_page(scale)
        (directory / name).write_text(html)
        counts[name] = n
    html, n = large_page(1.0)
    (directory / "reach-5k.html").write_text(html.replace("</body></html>", REACH + "</body></html>"))
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
