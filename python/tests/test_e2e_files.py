"""End-to-end: uploads onto file inputs and downloads that land complete, sync and async."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from agentbrowser import (
    AsyncBrowser,
    Browser,
    BrowserError,
    Download,
    FileChooser,
    LaunchOptions,
    UploadedFile,
)

#: Set by the test once the stalled download timed out: the /stall response then ends.
STALL_RELEASED = threading.Event()

UPLOAD = """<!doctype html><title>Upload</title><h1>Upload</h1>
<label for="avatar" role="button" tabindex="0" style="display:inline-block;padding:8px;background:#36c;color:#fff">Choose avatar</label>
<input id="avatar" type="file" style="display:none">
<div><button type="button">Attach documents</button><input id="docs" type="file" multiple hidden></div>
<button type="button" onclick="document.getElementById('picker').click()">Open picker</button>
<input id="picker" type="file" style="display:none">
<ul id="out"></ul>
<script>
for (const id of ['avatar', 'docs', 'picker']) {
  const el = document.getElementById(id);
  el.addEventListener('change', () => {
    document.getElementById('out').textContent =
      Array.from(el.files).map(f => id + ': ' + f.name + ' ' + f.size).join('; ');
  });
}
</script>"""

#: The body the download routes serve: 3000 bytes of known content.
BODY = bytes((i * 7) % 251 for i in range(3000))

DOWNLOADS = """<!doctype html><title>Downloads</title><h1>Downloads</h1>
<a href="/file.bin" download="data.bin">Get data</a>
<a href="/attach">Get report</a>
<a href="/stall">Get stalled</a>
<a href="/broken">Get broken</a>
<button onclick="setTimeout(() => { const a = document.createElement('a');
  a.href = window.URL.createObjectURL(new Blob(['made by script'], {type: 'text/plain'}));
  a.download = 'note.txt'; document.body.appendChild(a); a.click(); }, 200)">Make note</button>"""


MULTI = """<!doctype html><title>Toppings</title><label for="top">Toppings</label>
<select id="top" multiple><option value="ch">Cheese</option><option value="ol">Olives</option>
<option value="mu" selected>Mushrooms</option></select>"""


class _Handler(BaseHTTPRequestHandler):
    def do_GET(self) -> None:  # noqa: N802 (http.server API)
        if self.path == "/upload":
            self._send(UPLOAD.encode(), "text/html; charset=utf-8")
        elif self.path == "/multi":
            self._send(MULTI.encode(), "text/html; charset=utf-8")
        elif self.path == "/downloads":
            self._send(DOWNLOADS.encode(), "text/html; charset=utf-8")
        elif self.path == "/file.bin":
            self._send(BODY, "application/octet-stream")
        elif self.path == "/attach":
            self._send(BODY, "text/csv", {"Content-Disposition": 'attachment; filename="report.csv"'})
        elif self.path == "/stall":
            # Headers and part of the body, then nothing for longer than the test waits.
            self.send_response(200)
            self.send_header("Content-Type", "application/octet-stream")
            self.send_header("Content-Disposition", 'attachment; filename="stalled.bin"')
            self.send_header("Content-Length", "100000")
            self.end_headers()
            self.wfile.write(b"x" * 1000)
            self.wfile.flush()
            STALL_RELEASED.wait(30)
        elif self.path == "/broken":
            # Fewer bytes than announced, then the connection closes: the download fails.
            self.send_response(200)
            self.send_header("Content-Type", "application/octet-stream")
            self.send_header("Content-Disposition", 'attachment; filename="broken.bin"')
            self.send_header("Content-Length", "100000")
            self.end_headers()
            self.wfile.write(b"x" * 1000)
            self.wfile.flush()
            self.close_connection = True
        elif self.path == "/favicon.ico":
            self._send(b"", "image/x-icon")
        else:
            self.send_error(404)

    def _send(self, data: bytes, kind: str, headers: dict[str, str] | None = None) -> None:
        self.send_response(200)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(data)))
        for k, v in (headers or {}).items():
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002
        pass


@pytest.fixture(scope="module")
def site() -> Iterator[str]:
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    httpd.daemon_threads = True
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()


@pytest.fixture(scope="module")
def browser(agentbrowser_bin: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Browser]:
    downloads = tmp_path_factory.mktemp("downloads")
    with Browser.launch(LaunchOptions(timeout_ms=20000, download_path=downloads)) as b:
        yield b


def _write(dir: Path, name: str, size: int) -> Path:
    p = dir / name
    p.write_bytes(b"z" * size)
    return p


def _out(b: Browser) -> str:
    text = b.page.evaluate("document.getElementById('out').textContent")
    assert isinstance(text, str)
    return text


def test_upload_behind_a_label_and_multiple(browser: Browser, site: str, tmp_path: Path) -> None:
    photo = _write(tmp_path, "photo.png", 321)
    a, b = _write(tmp_path, "a.txt", 5), _write(tmp_path, "b.txt", 6)
    browser.page.open(f"{site}/upload")
    snap = browser.page.observe()
    label = snap.one(role="button", name="Choose avatar")
    result = label.upload(photo)
    assert result.action == "upload"
    assert result.files == (UploadedFile(name="photo.png", size=321, mime_type="image/png"),)
    assert _out(browser) == "avatar: photo.png 321"
    assert result.before is not None and result.after is not None  # the evidence, as for every action
    # Several files through the page facade, on the `multiple` input behind a button.
    button = snap.one(role="button", name="Attach documents")
    result = browser.page.upload(button.id, [str(a), b])
    assert [f.name for f in result.files] == ["a.txt", "b.txt"]
    assert _out(browser) == "docs: a.txt 5; docs: b.txt 6"


def test_upload_refusals_set_nothing(browser: Browser, site: str, tmp_path: Path) -> None:
    a, b = _write(tmp_path, "a.txt", 5), _write(tmp_path, "b.txt", 6)
    browser.page.open(f"{site}/upload")
    snap = browser.page.observe()
    label = snap.one(role="button", name="Choose avatar")
    with pytest.raises(BrowserError) as missing:
        label.upload([a, tmp_path / "nope.pdf"])
    assert missing.value.code == "invalid_argument" and "nope.pdf" in str(missing.value)
    with pytest.raises(BrowserError) as several:
        label.upload([a, b])
    assert several.value.code == "invalid_argument" and "multiple" in str(several.value)
    with pytest.raises(TypeError):
        label.upload([])
    assert _out(browser) == ""
    assert browser.page.evaluate("document.getElementById('avatar').files.length") == 0


def test_a_click_that_opens_a_chooser_is_answered(browser: Browser, site: str, tmp_path: Path) -> None:
    one = _write(tmp_path, "one.txt", 9)
    browser.page.open(f"{site}/upload")
    opened = browser.page.observe().one(role="button", name="Open picker").click()
    assert opened.file_chooser == FileChooser(multiple=False)
    result = browser.page.upload(None, one)
    assert result.target is None and [f.name for f in result.files] == ["one.txt"]
    assert _out(browser) == "picker: one.txt 9"


def test_select_several_values(browser: Browser, site: str) -> None:
    browser.page.open(f"{site}/multi")
    top = browser.page.observe().one(role="listbox", name="Toppings")
    result = top.select(["ch", "Olives"])
    assert result.raw["selected"] == ["Cheese", "Olives"]
    assert browser.page.evaluate("Array.from(document.getElementById('top').selectedOptions).map(o => o.value)") == [
        "ch",
        "ol",
    ]
    with pytest.raises(TypeError):
        top.select([])


def test_downloads_land_complete(browser: Browser, site: str, tmp_path: Path) -> None:
    browser.page.open(f"{site}/downloads")
    snap = browser.page.observe()
    # A link with a `download` attribute, into a directory: the suggested name inside it.
    got = snap.one(role="link", name="Get data").download(tmp_path)
    assert isinstance(got, Download)
    assert got.suggested_filename == "data.bin" and got.path == tmp_path / "data.bin"
    assert got.path.read_bytes() == BODY and got.size == len(BODY)
    assert got.url == f"{site}/file.bin"
    # Content-Disposition: attachment, to a file path.
    got = browser.page.download(snap.one(role="link", name="Get report"), tmp_path / "mine.csv")
    assert got.suggested_filename == "report.csv"
    assert (tmp_path / "mine.csv").read_bytes() == BODY
    assert not list(tmp_path.glob("*.crdownload"))
    # Started by page script later: wait_for_download.
    snap.one(role="button", name="Make note").click()
    note = browser.page.wait_for_download(tmp_path / "note.txt")
    assert note.path.read_text() == "made by script" and note.suggested_filename == "note.txt"
    assert note.url.startswith("blob:")


def test_download_timeout(browser: Browser, site: str, tmp_path: Path) -> None:
    browser.page.open(f"{site}/downloads")
    with pytest.raises(BrowserError) as none:
        browser.page.wait_for_download(timeout_ms=300)
    assert none.value.code == "timeout"
    link = browser.page.observe().one(role="link", name="Get stalled")
    try:
        with pytest.raises(BrowserError) as stalled:
            link.download(tmp_path, timeout_ms=1500)
    finally:
        STALL_RELEASED.set()
    assert stalled.value.code == "timeout" and "stalled.bin" in str(stalled.value)
    assert not (tmp_path / "stalled.bin").exists()


def test_failed_download_is_an_error(browser: Browser, site: str, tmp_path: Path) -> None:
    browser.page.open(f"{site}/downloads")
    link = browser.page.observe().one(role="link", name="Get broken")
    with pytest.raises(BrowserError) as failed:
        link.download(tmp_path, timeout_ms=10_000)
    assert failed.value.code == "action_failed" and "broken.bin" in str(failed.value)
    assert list(tmp_path.iterdir()) == []


def test_async_upload_and_download(agentbrowser_bin: Path, site: str, tmp_path: Path) -> None:
    async def main() -> None:
        async with await AsyncBrowser.launch(LaunchOptions(timeout_ms=20000, download_path=tmp_path / "dl")) as b:
            await b.page.open(f"{site}/upload")
            snap = await b.page.observe()
            photo = _write(tmp_path, "p.png", 12)
            result = await snap.one(role="button", name="Choose avatar").upload(photo)
            assert [(f.name, f.size) for f in result.files] == [("p.png", 12)]
            assert await b.page.evaluate("document.getElementById('out').textContent") == "avatar: p.png 12"
            await b.page.open(f"{site}/multi")
            picked = await (await b.page.observe()).one(role="listbox", name="Toppings").select(["mu", "ch"])
            assert picked.raw["selected"] == ["Cheese", "Mushrooms"]
            await b.page.open(f"{site}/downloads")
            snap = await b.page.observe()
            got = await snap.one(role="link", name="Get report").download(tmp_path)
            assert got.path == tmp_path / "report.csv" and got.path.read_bytes() == BODY
            await snap.one(role="button", name="Make note").click()
            note = await b.page.wait_for_download()
            # Without a path it stays in the download directory, under its suggested name.
            assert note.path == tmp_path / "dl" / "note.txt" and note.path.read_text() == "made by script"

    asyncio.run(main())
