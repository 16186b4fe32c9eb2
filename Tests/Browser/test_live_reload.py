"""`folio serve` live reload, seen by a real headless Chromium.

Self-contained: builds nothing itself (run `swift build` first), makes a site in a temporary
folder, starts the built `folio serve` on a free port, opens the page, changes the site on disk
and checks that the open page reloads by itself, or shows a failed build's error without
reloading. Needs Debian's chromium and chromium-driver.
"""

import os
import plistlib
import re
import shutil
import signal
import subprocess
import threading
import time
import urllib.request
from pathlib import Path

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

REPOSITORY = Path(__file__).resolve().parents[2]
FOLIO = Path(os.environ.get("FOLIO_BINARY", REPOSITORY / ".build" / "debug" / "folio"))
CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"


class Serve:
    """A running `folio serve`, its output gathered line by line."""

    def __init__(self, site: Path):
        self.lines: list[str] = []
        self.process = subprocess.Popen(
            [str(FOLIO), "serve", "--site", str(site), "--port", "0"],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
            env={**os.environ, "FOLIO_THEME": str(REPOSITORY / "templates")},
        )
        threading.Thread(target=self._read, daemon=True).start()
        self.url = self.wait_for(r"Serving .* at (http://127\.0\.0\.1:\d+/)", 60).group(1)

    def _read(self):
        for line in self.process.stdout:
            self.lines.append(line.rstrip("\n"))

    def wait_for(self, pattern: str, timeout: float, after: int = 0):
        deadline = time.time() + timeout
        while time.time() < deadline:
            for line in self.lines[after:]:
                match = re.search(pattern, line)
                if match:
                    return match
            if self.process.poll() is not None:
                break
            time.sleep(0.05)
        raise AssertionError(f"no line matching {pattern!r}; output:\n" + "\n".join(self.lines))

    def stop(self) -> int:
        self.process.send_signal(signal.SIGINT)
        try:
            return self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.process.kill()
            raise


def write_catalog(site: Path, name: str, records: list[dict]):
    with open(site / "content" / name, "wb") as file:
        plistlib.dump(records, file)


@pytest.fixture
def site(tmp_path):
    if not FOLIO.exists():
        pytest.fail(f"{FOLIO} is missing: run `swift build` first")
    root = tmp_path / "site"
    (root / "content").mkdir(parents=True)
    shutil.copy(REPOSITORY / "content" / "photo1.jpg", root / "content" / "harbour.jpg")
    write_catalog(root, "FakeData.plist", [
        {"path": "harbour.jpg", "name": "Harbour at dawn", "user": "Josh", "place": "Palo Alto, California, United States"},
    ])
    return root


@pytest.fixture
def serve(site):
    server = Serve(site)
    server.wait_for(r"^Built", 120)
    yield server
    assert server.stop() == 0, "Ctrl-C stops folio serve cleanly:\n" + "\n".join(server.lines)
    assert any("Stopping" in line for line in server.lines)


@pytest.fixture
def browser():
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu"):
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    driver.set_page_load_timeout(30)
    yield driver
    driver.quit()


def open_and_mark(browser, url: str):
    """Opens the page and leaves a mark that only a reload removes."""
    browser.get(url)
    WebDriverWait(browser, 10).until(lambda d: d.execute_script("return document.readyState") == "complete")
    # The live-reload stream is open once the preview's script has run.
    WebDriverWait(browser, 10).until(lambda d: d.execute_script("return window.__folioPreview === true"))
    browser.execute_script("window.__folioMark = 'before the change';")


def still_marked(browser) -> bool:
    return browser.execute_script("return window.__folioMark === 'before the change'")


def test_a_new_photo_reloads_the_open_page(site, serve, browser):
    open_and_mark(browser, serve.url)
    assert "Harbour at dawn" in browser.page_source
    assert "Lighthouse" not in browser.page_source
    with urllib.request.urlopen(serve.url) as response:
        assert "data-folio-preview" in response.read().decode()
    assert "data-folio-preview" not in (site / "public" / "index.html").read_text(), "never written into public/"

    shutil.copy(REPOSITORY / "content" / "photo3.jpg", site / "content" / "lighthouse.jpg")
    write_catalog(site, "more.plist", [{"path": "lighthouse.jpg", "name": "Lighthouse", "user": "Zoe", "place": "Brest, France"}])

    WebDriverWait(browser, 60).until(lambda d: not still_marked(d) and "Lighthouse" in d.page_source)
    assert "Harbour at dawn" in browser.page_source


def test_a_failed_build_shows_on_the_page_and_keeps_the_site(site, serve, browser):
    open_and_mark(browser, serve.url)
    before = len(serve.lines)
    (site / "templates").mkdir()
    (site / "templates" / "photo.mustache").write_text("<p>\n{{#page}}never closed")

    serve.wait_for(r"photo\.mustache", 60, after=before)
    overlay = WebDriverWait(browser, 30).until(
        lambda d: d.find_element(By.ID, "folio-build-error") if d.find_elements(By.ID, "folio-build-error") else False)
    WebDriverWait(browser, 10).until(lambda d: "photo.mustache" in overlay.text)
    assert "line 2" in overlay.text
    assert still_marked(browser), "a failed build does not reload the page"
    assert "Harbour at dawn" in browser.page_source, "the last good site stays"

    (site / "templates" / "photo.mustache").unlink()
    WebDriverWait(browser, 60).until(lambda d: not still_marked(d))
    WebDriverWait(browser, 10).until(lambda d: not d.find_elements(By.ID, "folio-build-error")
                                     or not d.find_element(By.ID, "folio-build-error").is_displayed())


def test_a_skipped_photo_is_named_on_the_page_as_built_not_failed(site, serve, browser):
    open_and_mark(browser, serve.url)
    (site / "content" / "corrupted.jpg").write_bytes((REPOSITORY / "content" / "photo1.jpg").read_bytes()[:30000])

    WebDriverWait(browser, 60).until(lambda d: not still_marked(d))
    overlay = WebDriverWait(browser, 30).until(
        lambda d: d.find_element(By.ID, "folio-build-error") if d.find_elements(By.ID, "folio-build-error") else False)
    WebDriverWait(browser, 10).until(lambda d: "corrupted.jpg" in overlay.text)
    assert "folio: built, 1 photo skipped:" in overlay.text
    assert "content/corrupted.jpg: corrupt or truncated JPEG data" in overlay.text
    assert "the build failed" not in overlay.text
    assert "Harbour at dawn" in browser.page_source

    open_and_mark(browser, serve.url)
    (site / "content" / "corrupted.jpg").unlink()
    WebDriverWait(browser, 60).until(lambda d: not still_marked(d))
    WebDriverWait(browser, 10).until(lambda d: not d.find_elements(By.ID, "folio-build-error")
                                     or not d.find_element(By.ID, "folio-build-error").is_displayed())
