"""End-to-end: screenshots, annotations, if-changed and PDF through the sync and async SDK.

Pillow (the ``images`` extra) and marimo are installed by scripts/setup.sh, so these tests run;
their absence is exercised in a subprocess that blocks the import.
"""

from __future__ import annotations

import asyncio
import base64
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from agentbrowser import (
    AsyncBrowser,
    Browser,
    BrowserError,
    ImageContent,
    LaunchOptions,
    Screenshot,
    ScreenshotAnnotation,
    ScreenshotBox,
    ScreenshotObservation,
    StaleRefError,
)
from PIL import Image

BOX = (0xE6, 0x00, 0x73)
REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def browser(agentbrowser_bin: Path) -> Iterator[Browser]:
    with Browser.launch(LaunchOptions(timeout_ms=20000)) as b:
        yield b


def test_screenshot_model_and_file(browser: Browser, server: str, tmp_path: Path) -> None:
    browser.page.open(f"{server}/capture")
    view = browser.page.evaluate("[innerWidth, innerHeight]")
    shot = browser.page.capture.screenshot(tmp_path / "v.png")
    assert isinstance(shot, Screenshot)
    assert shot.path == tmp_path / "v.png" and shot.path.is_file()
    assert (shot.format, shot.scope, shot.annotations) == ("png", "viewport", ())
    assert (shot.width, shot.height) == tuple(view) and shot.scale == 1.0
    assert shot.size == shot.path.stat().st_size
    assert shot.bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    img = shot.pil(mode="RGB")
    assert img.size == (shot.width, shot.height)
    assert img.getpixel((200, 110)) == (255, 0, 0)
    assert shot.image is shot.image and shot.image.size == img.size
    content = shot.content()
    assert isinstance(content, ImageContent)
    assert (content.media_type, content.source, content.data) == ("image/png", shot.path, shot.bytes())
    assert shot._repr_png_() == shot.bytes()
    bundle = shot._repr_mimebundle_()
    assert bundle["image/png"] == shot.bytes() and "Screenshot(" in bundle["text/plain"]
    copy = shot.save(tmp_path / "copies" / "c.png")
    assert copy.path == (tmp_path / "copies" / "c.png").resolve() and copy.bytes() == shot.bytes()
    assert len(repr(shot)) < 200

    # A relative path is resolved against this process's working directory, and answered as
    # given (as pyagentbrowser answers it); the file the engine wrote is raw["path"], which the
    # screenshot's reads use, so they find it after the working directory changed.
    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:
        rel = browser.page.capture.screenshot("sub/rel.jpg", quality=70)
        assert rel.path == Path("sub/rel.jpg") and rel.path.is_file()
        made_rel = browser.page.capture.screenshot(output_dir="rel-out")
        assert made_rel.path.parent == Path("rel-out") and made_rel.path.is_file()
    finally:
        os.chdir(cwd)
    assert rel.raw["path"] == str(tmp_path / "sub" / "rel.jpg") and rel.format == "jpeg"
    assert rel.bytes()[:3] == b"\xff\xd8\xff" and rel._repr_png_() is None
    assert "image/jpeg" in rel._repr_mimebundle_()

    # An element, by selector and by Ref; the whole page; output_dir; the default directory.
    red = browser.page.capture.screenshot(tmp_path / "red.png", selector="#red")
    assert (red.width, red.height, red.scope) == (200, 100, "#red")
    assert red.pil(mode="RGB").getcolors() == [(200 * 100, (255, 0, 0))]
    snap = browser.page.observe()
    send = snap.one(role="button", name="Send")
    shot = browser.page.capture.screenshot(tmp_path / "send.webp", selector=send)
    assert (shot.width, shot.height, shot.format, shot.scope) == (100, 40, "webp", send.id)
    full = browser.page.capture.screenshot(tmp_path / "full.png", full_page=True)
    assert full.height > 2000 and full.scope == "page"
    made = browser.page.capture.screenshot(output_dir=tmp_path / "out", format="jpeg")
    assert made.path.parent == tmp_path / "out" and made.path.suffix == ".jpg"
    default = browser.page.capture.screenshot()
    assert default.path.parent.name == "agentbrowser-screenshots" and default.path.is_file()
    default.path.unlink()


def test_annotations_and_errors(browser: Browser, server: str, tmp_path: Path) -> None:
    browser.page.open(f"{server}/capture")
    snap = browser.page.observe()
    send = snap.one(role="button", name="Send")
    shot = browser.page.capture.screenshot(tmp_path / "a.png", annotate=True)
    assert shot.scope == "viewport+annotated"
    note = next(a for a in shot.annotations if a.ref == send.id)
    assert isinstance(note, ScreenshotAnnotation) and isinstance(note.box, ScreenshotBox)
    assert (note.number, note.role, note.name) == (int(send.id[1:]), "button", "Send")
    assert (note.box.x, note.box.y, note.box.width, note.box.height) == (400, 200, 100, 40)
    img = shot.pil(mode="RGB")
    assert img.getpixel((401, 220)) == BOX and img.getpixel((498, 220)) == BOX
    heading = next(a for a in shot.annotations if a.role == "heading")
    assert heading.name == "Capture heading"

    with pytest.raises(BrowserError) as err:
        browser.page.capture.screenshot(tmp_path / "x.png", selector=".two")
    assert err.value.code == "invalid_argument" and "matches 2 elements" in str(err.value)
    with pytest.raises(BrowserError) as err:
        browser.page.capture.screenshot(tmp_path / "x.png", selector="#none")
    assert err.value.code == "not_found"
    with pytest.raises(ValueError, match="quality"):
        browser.page.capture.screenshot(tmp_path / "x.jpg", quality=101)
    with pytest.raises(ValueError, match="format"):
        browser.page.capture.screenshot(format="gif")
    with pytest.raises(ValueError, match="threshold"):
        browser.page.capture.screenshot_if_changed(threshold=2)
    browser.page.evaluate("document.getElementById('send').remove()")
    with pytest.raises(StaleRefError):
        browser.page.capture.screenshot(tmp_path / "stale.png", selector=send)
    assert not (tmp_path / "stale.png").exists()


def test_if_changed(browser: Browser, server: str, tmp_path: Path) -> None:
    # A new tab: captures are compared per tab, and this one has none yet.
    tab = browser.tabs.new(f"{server}/capture")
    cap = browser.page.capture
    first = cap.screenshot_if_changed(tmp_path / "1.png", selector="#red")
    assert isinstance(first, ScreenshotObservation)
    assert (first.changed, first.pixel_change_ratio, first.threshold) == (True, 1.0, 0.0)
    assert first.screenshot is not None and first.path == tmp_path / "1.png"
    same = cap.screenshot_if_changed(tmp_path / "2.png", selector="#red")
    assert (same.changed, same.screenshot, same.path, same.revision) == (False, None, None, first.revision + 1)
    assert not (tmp_path / "2.png").exists()
    browser.page.evaluate("document.getElementById('red').style.background = 'rgb(0, 128, 0)'")
    moved = cap.screenshot_if_changed(tmp_path / "3.png", selector="#red", threshold=0.5)
    assert moved.changed and moved.pixel_change_ratio == 1.0 and moved.screenshot is not None
    assert moved.screenshot.pil(mode="RGB").getpixel((10, 10)) == (0, 128, 0)
    browser.tabs.close(tab)


def test_pdf(browser: Browser, server: str, tmp_path: Path) -> None:
    browser.page.open(f"{server}/capture")
    path = browser.page.capture.pdf(tmp_path / "p.pdf", landscape=True)
    assert path == tmp_path / "p.pdf"
    data = path.read_bytes()
    assert data.startswith(b"%PDF-") and data.rstrip().endswith(b"%%EOF")
    temp = browser.page.capture.pdf()
    assert temp.is_absolute() and temp.read_bytes().startswith(b"%PDF-")
    # A relative path is answered as given (pyagentbrowser's answer), relative to the working
    # directory the file was written under.
    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:
        rel = browser.page.capture.pdf("rel.pdf")
    finally:
        os.chdir(cwd)
    assert rel == Path("rel.pdf") and (tmp_path / rel).read_bytes().startswith(b"%PDF-")
    temp.unlink()


def test_async_capture(agentbrowser_bin: Path, server: str, tmp_path: Path) -> None:
    async def main() -> None:
        async with await AsyncBrowser.launch(LaunchOptions(timeout_ms=20000)) as browser:
            await browser.page.open(f"{server}/capture")
            shot = await browser.page.capture.screenshot(tmp_path / "a.png", annotate=True)
            assert isinstance(shot, Screenshot) and any(a.name == "Send" for a in shot.annotations)
            assert shot.pil(mode="RGB").getpixel((200, 110)) == (255, 0, 0)
            seen = await browser.page.capture.screenshot_if_changed(tmp_path / "b.png")
            again = await browser.page.capture.screenshot_if_changed(tmp_path / "c.png")
            assert seen.changed and not again.changed and again.screenshot is None
            pdf = await browser.page.capture.pdf(tmp_path / "d.pdf")
            assert pdf.read_bytes().startswith(b"%PDF-")

    asyncio.run(main())


def test_marimo_image(browser: Browser, server: str, tmp_path: Path) -> None:
    import marimo

    browser.page.open(f"{server}/capture")
    shot = browser.page.capture.screenshot(tmp_path / "m.png", selector="#red")
    html = shot.marimo(alt="red block", width=100, caption="the block")
    assert isinstance(html, marimo.Html)
    assert "<img" in html.text and "red block" in html.text and "the block" in html.text
    assert base64.b64encode(shot.bytes()).decode() in html.text, "the file's bytes, inline"


def test_optional_dependencies_missing(tmp_path: Path) -> None:
    png = tmp_path / "x.png"
    Image.new("RGB", (3, 2), (1, 2, 3)).save(png)
    code = f"""
import sys
sys.modules["PIL"] = None
sys.modules["PIL.Image"] = None
sys.modules["marimo"] = None
from agentbrowser import Screenshot
shot = Screenshot(path=__import__("pathlib").Path({str(png)!r}), format="png", annotations=(),
                  raw={{"width": 3, "height": 2, "scale": 1.0, "size": 1}})
assert shot.bytes()[:4] == b"\\x89PNG"
for call in (lambda: shot.pil(), lambda: shot.image, lambda: shot.marimo()):
    try:
        call()
    except ImportError as e:
        print(e)
    else:
        raise SystemExit("no ImportError")
"""
    env = {**os.environ, "PYTHONPATH": str(REPO / "python")}
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr + done.stdout
    lines = done.stdout.splitlines()
    assert "pip install 'agentbrowser-engine[images]'" in lines[0] and "pip install 'agentbrowser-engine[images]'" in lines[1]
    assert "pip install marimo" in lines[2]
