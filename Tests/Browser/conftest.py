"""The browser tests' fixture site and browser.

One fixture gallery per session: the demo's content/ copied to a temporary folder, plus photos
made here with Pillow (a large chart for deep zoom, small ones with accents and places for
search, favorites and a Recents list longer than 50), built with the `folio` the README's test
command builds (`.build/debug/folio`; FOLIO_BINARY overrides it). It is served on 127.0.0.1 by
Python's http.server in a thread, at the root of one server and under a sub-path of another (which
answers nothing outside it, so a link that climbs out of the site is a 404), and opened from file://
too. One headless Chromium (Debian's,
driven by /usr/bin/chromedriver) serves the whole session; each test starts on a clean slate.
"""

import functools
import http.server
import os
import plistlib
import re
import shutil
import subprocess
import tempfile
import threading
import time
import urllib.parse
from dataclasses import dataclass
from pathlib import Path

import pytest
from PIL import Image, ImageDraw
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.support.ui import WebDriverWait

REPOSITORY = Path(__file__).resolve().parents[2]
FOLIO = Path(os.environ.get("FOLIO_BINARY", REPOSITORY / ".build" / "debug" / "folio"))
CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
os.environ.setdefault("SE_OFFLINE", "true")  # Selenium Manager must never download a driver

# The extra photos: (file, title, person, place, region or None, description).
EXTRA = [
    ("extra/cafe.jpg", "Café crème on the terrace", "Zoë", "Èze, Provence, France", None, "Morning coffee above the sea"),
    ("extra/harbor-night.jpg", "Harbor lights", "Zoë", "Èze, Provence, France", None, "The little port at night"),
    ("extra/fjord.jpg", "Fjord morning", "Ingrid", "Geiranger, Møre og Romsdal, Norway", None, "Mist lifting off the water"),
] + [
    (f"extra/street-{n:02}.jpg", f"Street corner {n:02}", "Walker", "Lyon, Auvergne-Rhône-Alpes, France", None, "A walk through the old town")
    for n in range(1, 21)
]
ZOOM_TITLE = "Deep zoom test chart"
# Where the second server hosts the site: a folder of a folder, with a space in its name.
SUB_PATH = "/sites/our photos/"
SCHEMES = ["http", "subpath", "file"]


@dataclass
class Gallery:
    root: Path
    public: Path
    url: str  # http://127.0.0.1:port/
    subpath_url: str  # http://127.0.0.1:another port/sites/our%20photos/

    def base(self, scheme: str) -> str:
        """The site's address: at a server's root ("http"), under a sub-path ("subpath"), on disk ("file")."""
        return {"http": self.url, "subpath": self.subpath_url, "file": self.public.as_uri() + "/"}[scheme]

    def photo_page(self, title: str) -> str:
        """The page (relative to the root) of the photo with this title."""
        for page in sorted((self.public / "photos").glob("*.html")):
            if re.search(r"<h1>" + re.escape(title) + r"[ <]", page.read_text()):
                return f"photos/{page.name}"
        raise AssertionError(f"no photo titled {title!r}")

    def identifier(self, title: str) -> str:
        return self.photo_page(title)[len("photos/"):-len(".html")]

    def identifiers(self) -> list[str]:
        return sorted(p.stem for p in (self.public / "photos").glob("*.html"))


def make_chart(path: Path, width: int, height: int):
    """A photo whose every tile looks different: a colour ramp, a grid and labels."""
    image = Image.new("RGB", (width, height))
    draw = ImageDraw.Draw(image)
    for x in range(0, width, 64):
        for y in range(0, height, 64):
            draw.rectangle([x, y, x + 63, y + 63], fill=(x * 255 // width, y * 255 // height, ((x + y) // 64 % 2) * 120 + 60))
    for x in range(0, width, 256):
        draw.line([x, 0, x, height], fill="white", width=3)
        for y in range(0, height, 256):
            draw.text((x + 8, y + 8), f"{x},{y}", fill="white")
    for y in range(0, height, 256):
        draw.line([0, y, width, y], fill="white", width=3)
    image.save(path, quality=85)


def make_small(path: Path, n: int):
    image = Image.new("RGB", (480, 320), ((n * 37) % 256, (n * 91) % 256, (n * 53) % 256))
    ImageDraw.Draw(image).ellipse([140, 60, 340, 260], fill=(255 - (n * 37) % 256, 200, 120))
    image.save(path, quality=80)


def build(root: Path):
    if not FOLIO.exists():
        pytest.fail(f"{FOLIO} is missing: build it first (swift build), or set FOLIO_BINARY")
    result = subprocess.run([str(FOLIO), "build", "--site", str(root), "--quiet"], capture_output=True, text=True,
                            env={**os.environ, "FOLIO_THEME": str(REPOSITORY / "templates")}, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.fixture(scope="session")
def gallery():
    # Not under pytest's own temporary folder: linkchecker, run as root, reads file:// as nobody.
    root = Path(tempfile.mkdtemp(prefix="folio-gallery-"))
    root.chmod(0o755)
    try:
        yield from serve(root)
    finally:
        shutil.rmtree(root, ignore_errors=True)


def serve(root: Path):
    shutil.copytree(REPOSITORY / "content", root / "content")
    shutil.copy(REPOSITORY / "folio.json", root / "folio.json")
    (root / "content" / "extra").mkdir()
    records = []
    for n, (path, title, person, place, region, description) in enumerate(EXTRA):
        make_small(root / "content" / path, n)
        record = {"path": path[len("extra/"):], "name": title, "user": person, "place": place, "description": description,
                  "uploaded": f"2026-10-{n % 28 + 1:02}T10:00:00Z"}
        if region:
            record["region"] = region
        if n == 3:
            record["favorite"] = True  # the publisher's, in a place with others that are not
        records.append(record)
    make_chart(root / "content" / "extra" / "chart.jpg", 4096, 3072)
    records.append({"path": "chart.jpg", "name": ZOOM_TITLE, "user": "Test", "place": "Lyon, Auvergne-Rhône-Alpes, France",
                    "uploaded": "2026-09-01T10:00:00Z"})
    with open(root / "content" / "extra" / "extra.plist", "wb") as file:
        plistlib.dump(records, file)
    build(root)
    yield from serve_public(root / "public", root)


def serve_public(public: Path, root: Path):
    """Serves `public` at the root of one server and under SUB_PATH of another; yields the Gallery."""
    class Handler(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):
            pass

        def end_headers(self):
            # LinkChecker goes at full speed only for servers that say they allow it.
            self.send_header("LinkChecker", "test server")
            self.send_header("Cache-Control", "no-store")
            super().end_headers()

    class SubPathHandler(Handler):
        def translate_path(self, path):
            decoded = urllib.parse.unquote(path.split("?", 1)[0].split("#", 1)[0])
            if not decoded.startswith(SUB_PATH):
                return str(public / "nothing outside the sub-path")
            return super().translate_path(urllib.parse.quote(decoded[len(SUB_PATH) - 1:]))

    servers = [http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(handler, directory=str(public)))
               for handler in (Handler, SubPathHandler)]
    for server in servers:
        threading.Thread(target=server.serve_forever, daemon=True).start()
    yield Gallery(root=root, public=public, url=f"http://127.0.0.1:{servers[0].server_address[1]}/",
                  subpath_url=f"http://127.0.0.1:{servers[1].server_address[1]}{urllib.parse.quote(SUB_PATH)}")
    for server in servers:
        server.shutdown()
        server.server_close()


class Browser:
    """The session's Chromium, with what the tests need: a viewport size, a clock, media features."""

    def __init__(self, driver):
        self.driver = driver
        self.clock_script = None
        self.size = (1280, 900)

    def __getattr__(self, name):
        return getattr(self.driver, name)

    def viewport(self, width: int, height: int, mobile: bool = False, scale: float = 1):
        self.size = (width, height)
        self.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                                    {"width": width, "height": height, "deviceScaleFactor": scale, "mobile": mobile})
        self.driver.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": mobile, "maxTouchPoints": 5 if mobile else 1})

    def media(self, **features):
        """e.g. media(prefers_color_scheme="dark", prefers_reduced_motion="reduce")"""
        self.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {
            "features": [{"name": k.replace("_", "-"), "value": v} for k, v in features.items()]})

    def set_clock(self, epoch_ms: float | None):
        """Pages opened from now on see Date.now() start at `epoch_ms` (None: the real clock)."""
        if self.clock_script:
            self.driver.execute_cdp_cmd("Page.removeScriptToEvaluateOnNewDocument", {"identifier": self.clock_script})
            self.clock_script = None
        if epoch_ms is not None:
            source = ("(function(){var start=%r, t0=performance.now();"
                      "Date.now=function(){return Math.floor(start+performance.now()-t0);};})();" % float(epoch_ms))
            self.clock_script = self.driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": source})["identifier"]

    def open(self, url: str, ready: str = "document.readyState === 'complete'"):
        self.driver.get(url)
        self.wait_for(ready)

    def wait_for(self, script: str, timeout: float = 5, message: str = ""):
        """Waits until the JavaScript expression `script` is truthy; returns its value."""
        value = WebDriverWait(self.driver, timeout, poll_frequency=0.03).until(
            lambda d: d.execute_script("return (" + script + ")"), message or script)
        return value

    def js(self, script: str, *args):
        return self.driver.execute_script(script, *args)


@pytest.fixture(scope="session")
def chromium():
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--hide-scrollbars",
                 "--disable-extensions", "--mute-audio", "--no-first-run", "--window-size=1280,900"]:
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    yield driver
    driver.quit()


@pytest.fixture
def browser(chromium, gallery):
    """The session's browser, reset: no stored favorites or recents, real clock, desktop size, light."""
    b = Browser(chromium)
    b.viewport(1280, 900)
    b.media()
    chromium.execute_cdp_cmd("Emulation.setScriptExecutionDisabled", {"value": False})
    for scheme in SCHEMES:
        chromium.get(gallery.base(scheme) + "assets/style.css")
        chromium.execute_script("localStorage.clear(); sessionStorage.clear();")
    yield b
    # What the test stored on the origin it ended on goes with it: a later test's own server
    # may be given the same port, and with it this storage.
    chromium.execute_script("try { localStorage.clear(); sessionStorage.clear(); } catch (e) {}")
    b.set_clock(None)
    errors = [entry for entry in chromium.get_log("browser")
              if entry["level"] == "SEVERE" and "favicon.ico" not in entry["message"]]
    assert errors == [], "the page logged errors"


def pause(seconds: float):
    time.sleep(seconds)


def page_kinds(gallery: Gallery) -> dict[str, str]:
    """One page of every kind a visitor meets, by name (relative to the site's root)."""
    def first(folder: str, *skip: str) -> str:
        names = sorted(p.name for p in (gallery.public / folder).glob("*.html") if p.name not in ("index.html",) + skip)
        return f"{folder}/{names[0]}"

    return {
        "home": "index.html", "places": "places/index.html", "place": "places/lyon-auvergne-rhone-alpes-france.html",
        "regions": "regions/index.html", "region": first("regions"), "people": "people/index.html", "person": "people/walker.html",
        "albums": "albums/index.html", "album": "albums/cc0.html", "favorites": "favorites/index.html",
        "favorites-all": "favorites/all.html", "favorites-place": "favorites/lyon-auvergne-rhone-alpes-france.html",
        "recents": "recents/index.html", "search": "search/index.html?q=lyon", "photo": gallery.photo_page("Harbor lights"),
        "map": "map/index.html", "region-map": "regions/california.html",
    }


def visit_as_a_returning_visitor(browser, gallery: Gallery):
    """Some favorites and recents in this browser, so the pages' scripts draw what they add."""
    browser.open(gallery.url + "index.html")
    browser.js("""var ids = arguments[0];
        ids.forEach(function (id) { Folio.favorites.add(id); Folio.recents.record(id); });""",
               [gallery.identifier(t) for t in ("Street corner 01", "Street corner 07", "Fjord morning", "Harbor lights")])


AXE_CORE = None


def axe_core_script() -> str:
    """A current axe-core 4, as the PyPI package axe-playwright-python ships it (installed without its
    Playwright by scripts/setup.sh). axe-selenium-python's own copy is axe-core 3.1 (2018), which
    misreads modern CSS, and is never used."""
    global AXE_CORE
    if AXE_CORE is None:
        import importlib.util
        spec = importlib.util.find_spec("axe_playwright_python")
        path = Path(spec.origin).parent / "axe.min.js" if spec and spec.origin else None
        if not path or not path.exists():
            pytest.fail("axe-core 4 is missing: run scripts/setup.sh (pip install --no-deps axe-playwright-python)")
        version = re.search(r"axe v(\d+)\.", path.read_text()[:200])
        assert version and int(version.group(1)) >= 4, f"{path} is not axe-core 4"
        AXE_CORE = str(path)
    return AXE_CORE
