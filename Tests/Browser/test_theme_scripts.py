"""The theme's script is one classic script per concern, named in order by layout.mustache. A site
whose own layout.mustache comes from before the split names assets/folio.js alone: folio.js then
loads the others itself, so its visitors keep search, favorites and recents. Its own small site."""
import functools
import http.server
import plistlib
import re
import shutil
import subprocess
import tempfile
import threading
from pathlib import Path

import pytest
from selenium.webdriver.common.by import By

from conftest import FOLIO, REPOSITORY, make_small


@pytest.fixture(scope="module")
def old_layout_site():
    root = Path(tempfile.mkdtemp(prefix="folio-old-layout-"))
    try:
        (root / "content").mkdir()
        (root / "templates").mkdir()
        for n, title in enumerate(["Lighthouse at dusk", "Market morning"]):
            make_small(root / "content" / f"{n}.jpg", n)
        with open(root / "content" / "photos.plist", "wb") as file:
            plistlib.dump([{"path": "0.jpg", "name": "Lighthouse at dusk", "user": "Ana"},
                           {"path": "1.jpg", "name": "Market morning", "user": "Ana"}], file)
        layout = (REPOSITORY / "templates" / "layout.mustache").read_text()
        scripts = re.findall(r'<script src="\{\{\{?root\}?\}\}assets/[\w-]+\.js" defer></script>\n', layout)
        assert len(scripts) > 5, "the theme names its scripts one by one"
        old = layout.replace("".join(scripts), '<script src="{{root}}assets/folio.js" defer></script>\n')
        assert old.count("<script src=") == 1
        (root / "templates" / "layout.mustache").write_text(old)
        result = subprocess.run([str(FOLIO), "build", "--site", str(root), "--quiet"], capture_output=True, text=True,
                                env={"FOLIO_THEME": str(REPOSITORY / "templates"), "PATH": "/usr/bin:/bin"}, timeout=300)
        assert result.returncode == 0, result.stdout + result.stderr
        public = root / "public"
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(
            type("Quiet", (http.server.SimpleHTTPRequestHandler,), {"log_message": lambda *a: None}), directory=str(public)))
        threading.Thread(target=server.serve_forever, daemon=True).start()
        yield {"http": f"http://127.0.0.1:{server.server_address[1]}/", "file": public.as_uri() + "/", "public": public}
        server.shutdown()
        server.server_close()
    finally:
        shutil.rmtree(root, ignore_errors=True)


@pytest.mark.parametrize("scheme", ["http", "file"])
def test_a_layout_naming_folio_js_alone_still_gets_every_script(browser, old_layout_site, scheme):
    page = old_layout_site["public"] / "search" / "index.html"
    assert page.read_text().count("<script src=") == 1
    browser.open(old_layout_site[scheme] + "search/index.html?q=lighthouse")
    # This site's own server may have a port an earlier test's server had, and its storage.
    browser.js("localStorage.clear(); sessionStorage.clear();")
    browser.wait_for("document.querySelectorAll('.search-results li').length > 0", timeout=10)
    assert browser.js("return Array.from(document.querySelectorAll('.search-results .caption-title')).map(function (e) { return e.textContent; })") \
        == ["Lighthouse at dusk"]
    assert browser.js("return typeof Folio.favorites.add === 'function' && typeof Folio.recents.record === 'function'")
    # A photo's page: the favorite toggle works, and the view went into recents.
    browser.find_element(By.CSS_SELECTOR, ".search-results .photo-card").click()
    browser.wait_for("document.querySelector('.favorite-toggle') && !document.querySelector('.favorite-toggle').hidden")
    browser.find_element(By.CSS_SELECTOR, ".favorite-toggle").click()
    browser.wait_for("document.querySelector('.favorite-toggle').getAttribute('aria-pressed') === 'true'")
    assert browser.js("return Folio.recents.list().length") == 1
    # The photo page's own scripts (photo.mustache's: gestures.js, details.js, viewer.js) run in
    # their order whatever folio.js injects: the viewer zooms, and i hides the details.
    browser.wait_for("document.querySelector('.zoom-layer') && document.body.classList.contains('details-open')")
    browser.find_element(By.CSS_SELECTOR, ".viewer-button[data-info]").click()
    browser.wait_for("!document.body.classList.contains('details-open')")
