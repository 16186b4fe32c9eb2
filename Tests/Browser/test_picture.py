"""A site published as WebP or AVIF: Chromium takes the <source> of each <picture>, the viewer
zooms it and asks for a sharper one, and the <img> inside stays a working JPEG for other browsers."""

import shutil
import tempfile
from pathlib import Path

import pytest
from selenium.webdriver.common.action_chains import ActionChains

from conftest import Browser, build, make_chart, make_small


@pytest.fixture(scope="module", params=["webp", "avif"])
def picture_site(request):
    root = Path(tempfile.mkdtemp(prefix=f"folio-{request.param}-"))
    try:
        (root / "content").mkdir()
        make_chart(root / "content" / "chart.jpg", 2400, 1600)
        make_small(root / "content" / "small.jpg", 3)
        (root / "folio.json").write_text('{"format": "%s"}' % request.param)
        build(root)
        yield root / "public", request.param
    finally:
        shutil.rmtree(root, ignore_errors=True)


@pytest.fixture
def picture_browser(chromium):
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


def test_chromium_shows_the_source_and_zooms_to_a_sharper_one(picture_browser, picture_site):
    b = picture_browser
    public, ext = picture_site
    b.open(photo_page(public))
    b.wait_for("document.querySelector('.zoom-layer picture .photo-image') && document.querySelector('.photo-image').complete",
               message="the viewer moves the whole picture into its zoom layer")
    shown = b.js("var i = document.querySelector('.photo-image'); return [i.currentSrc, i.naturalWidth];")
    assert shown[0].endswith("." + ext) and shown[1] > 0, shown
    ActionChains(b.driver).send_keys("+").send_keys("+").perform()
    b.wait_for("document.querySelector('picture source').getAttribute('sizes') === document.querySelector('.photo-image').getAttribute('sizes')"
               " && /px$/.test(document.querySelector('picture source').getAttribute('sizes'))",
               message="zooming sets the same sizes on the source as on the img")
    b.wait_for("/-screen-.*\\.%s$/.test(document.querySelector('.photo-image').currentSrc)" % ext,
               message="zoomed in, the browser picks the largest rendition of the source")


def test_the_jpeg_fallback_and_the_grids_work(picture_browser, picture_site):
    b = picture_browser
    public, ext = picture_site
    b.open((public / "index.html").as_uri())
    thumbs = b.js("return Array.from(document.querySelectorAll('picture img')).map(i => [i.currentSrc, i.naturalWidth, i.complete]);")
    assert thumbs, "grid thumbnails come in pictures"
    b.wait_for("Array.from(document.querySelectorAll('picture img')).every(i => i.complete && i.naturalWidth > 0)")
    assert all(src.endswith("." + ext) for src, _, _ in b.js(
        "return Array.from(document.querySelectorAll('picture img')).map(i => [i.currentSrc, 0, 0]);"))
    # What a browser without the format gets: the <img>'s own src and srcset, every one a JPEG that decodes.
    fallbacks = b.js("return Array.from(document.querySelectorAll('picture img')).flatMap(i =>"
                     " [i.src].concat(i.srcset.split(',').map(c => new URL(c.trim().split(' ')[0], location.href).href)));")
    assert fallbacks and all(url.endswith(".jpg") for url in fallbacks), fallbacks
    for url in set(fallbacks):
        b.js("window.probe = new Image(); window.probe.src = arguments[0];", url)
        assert b.wait_for("window.probe.complete && window.probe.naturalWidth"), url
