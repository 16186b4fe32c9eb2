"""An animated GIF and a transparent PNG as Chromium shows them: the GIF moves on its page and a
visitor who prefers reduced motion gets a still; the cut-out's page shows the page through it."""

import io
import re
import shutil
import tempfile
from pathlib import Path

import pytest
from PIL import Image, ImageDraw

from conftest import Browser, build


def make_animation(path: Path):
    frames = []
    for i in range(6):
        frame = Image.new("RGB", (480, 320), (40, 60, 90))
        ImageDraw.Draw(frame).ellipse([40 + 60 * i, 110, 140 + 60 * i, 210], fill=(240, 200, 60))
        frames.append(frame)
    frames[0].save(path, save_all=True, append_images=frames[1:], duration=120, loop=0)


def make_cut_out(path: Path):
    image = Image.new("RGBA", (480, 320), (0, 0, 0, 0))
    ImageDraw.Draw(image).ellipse([90, 10, 390, 310], fill=(200, 40, 40, 255))
    image.save(path)


@pytest.fixture(scope="module")
def site():
    root = Path(tempfile.mkdtemp(prefix="folio-animation-"))
    try:
        (root / "content").mkdir()
        make_animation(root / "content" / "ball.gif")
        make_cut_out(root / "content" / "disc.png")
        build(root)
        yield root / "public"
    finally:
        shutil.rmtree(root, ignore_errors=True)


def page_of(public: Path, extension: str) -> str:
    """The photo page whose own image (not a neighbour's) is a file of this extension."""
    for page in sorted((public / "photos").glob("*.html")):
        if re.search(r'class="photo-image" src="[^"]+\.%s"' % extension, page.read_text()):
            return page.as_uri()
    raise AssertionError(f"no photo page showing a .{extension}")


@pytest.fixture
def page_browser(chromium):
    b = Browser(chromium)
    b.viewport(1280, 900)
    yield b
    b.media(prefers_reduced_motion="no-preference")
    errors = [e for e in chromium.get_log("browser") if e["level"] == "SEVERE" and "favicon.ico" not in e["message"]]
    assert errors == [], "the page logged errors"


SHOWN = "document.querySelector('.photo-image').complete && document.querySelector('.photo-image').currentSrc"


def test_the_animation_moves_unless_the_visitor_prefers_reduced_motion(page_browser, site):
    b = page_browser
    url = page_of(site, "gif")
    b.media(prefers_reduced_motion="no-preference")
    b.open(url)
    assert b.wait_for(SHOWN).endswith(".gif")
    b.media(prefers_reduced_motion="reduce")
    b.open(url)
    still = b.wait_for(SHOWN)
    assert not still.endswith(".gif"), still
    assert b.js("return document.querySelector('.photo-image').naturalWidth") > 0


def test_the_cut_out_is_shown_transparent(page_browser, site):
    b = page_browser
    b.open(page_of(site, "png"))
    assert b.wait_for(SHOWN).endswith(".png")
    # The corner of the photo is transparent: what shows there is whatever lies behind it, here
    # a green background given to the image itself; the disc is red.
    b.js("document.querySelector('.photo-image').style.background = 'rgb(0, 255, 0)'")
    shot = Image.open(io.BytesIO(b.driver.find_element("css selector", ".photo-image").screenshot_as_png)).convert("RGB")
    corner, centre = shot.getpixel((3, 3)), shot.getpixel((shot.width // 2, shot.height // 2))
    assert corner[1] > 200 and corner[0] < 60, corner
    assert centre[0] > 150 and centre[1] < 90, centre
