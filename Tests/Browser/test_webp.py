"""A site published as WebP: Chromium takes the WebP source of each <picture>, the viewer zooms it
and asks for sharper WebP, and the <img> inside stays a working JPEG for browsers without WebP."""

import shutil
import tempfile
from pathlib import Path

import pytest
from selenium.webdriver.common.action_chains import ActionChains

from conftest import Browser, build, make_chart, make_small


@pytest.fixture(scope="module")
def webp_site():
    root = Path(tempfile.mkdtemp(prefix="folio-webp-"))
    try:
        (root / "content").mkdir()
        make_chart(root / "content" / "chart.jpg", 2400, 1600)
        make_small(root / "content" / "small.jpg", 3)
        (root / "folio.json").write_text('{"format": "webp"}')
        build(root)
        yield root / "public"
    finally:
        shutil.rmtree(root, ignore_errors=True)


@pytest.fixture
def webp_browser(chromium):
    b = Browser(chromium)
    b.viewport(1280, 900)
    b.media(prefers_reduced_motion="reduce")
    yield b
    errors = [e for e in chromium.get_log("browser") if e["level"] == "SEVERE" and "favicon.ico" not in e["message"]]
    assert errors == [], "the page logged errors"


def photo_page(public: Path) -> str:
    for page in sorted((public / "photos").glob("*.html")):
        if "data-tiles" in page.read_text():
            return page.as_uri()
    raise AssertionError("no photo page with deep zoom")


def test_chromium_shows_the_webp_source_and_zooms_to_a_sharper_one(webp_browser, webp_site):
    b = webp_browser
    b.open(photo_page(webp_site))
    b.wait_for("document.querySelector('.zoom-layer picture .photo-image') && document.querySelector('.photo-image').complete",
               message="the viewer moves the whole picture into its zoom layer")
    shown = b.js("var i = document.querySelector('.photo-image'); return [i.currentSrc, i.naturalWidth];")
    assert shown[0].endswith(".webp") and shown[1] > 0, shown
    ActionChains(b.driver).send_keys("+").send_keys("+").perform()
    b.wait_for("document.querySelector('picture source').getAttribute('sizes') === document.querySelector('.photo-image').getAttribute('sizes')"
               " && /px$/.test(document.querySelector('picture source').getAttribute('sizes'))",
               message="zooming sets the same sizes on the source as on the img")
    b.wait_for("/-screen-.*\\.webp$/.test(document.querySelector('.photo-image').currentSrc)",
               message="zoomed in, the browser picks the largest WebP rendition")


def test_the_jpeg_fallback_and_the_grids_work(webp_browser, webp_site):
    b = webp_browser
    b.open((webp_site / "index.html").as_uri())
    thumbs = b.js("return Array.from(document.querySelectorAll('picture img')).map(i => [i.currentSrc, i.naturalWidth, i.complete]);")
    assert thumbs, "grid thumbnails come in pictures"
    b.wait_for("Array.from(document.querySelectorAll('picture img')).every(i => i.complete && i.naturalWidth > 0)")
    assert all(src.endswith(".webp") for src, _, _ in b.js(
        "return Array.from(document.querySelectorAll('picture img')).map(i => [i.currentSrc, 0, 0]);"))
    # What a browser without WebP gets: the <img>'s own src and srcset, every one a JPEG that decodes.
    fallbacks = b.js("return Array.from(document.querySelectorAll('picture img')).flatMap(i =>"
                     " [i.src].concat(i.srcset.split(',').map(c => new URL(c.trim().split(' ')[0], location.href).href)));")
    assert fallbacks and all(url.endswith(".jpg") for url in fallbacks), fallbacks
    for url in set(fallbacks):
        b.js("window.probe = new Image(); window.probe.src = arguments[0];", url)
        assert b.wait_for("window.probe.complete && window.probe.naturalWidth"), url
