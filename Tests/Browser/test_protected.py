"""A password-protected album in a real Chromium, over HTTP and from file://: the password page,
a wrong password, the right one opening the album with its photos, the album's other pages opening
without asking again, and a photo page whose viewer zooms. Its own small site, built here."""
import functools
import http.server
import plistlib
import shutil
import subprocess
import tempfile
import threading
from pathlib import Path

import pytest

from conftest import Browser, FOLIO, REPOSITORY, make_small

PASSWORD = "correct horse battery"


@pytest.fixture(scope="module")
def locked_site():
    root = Path(tempfile.mkdtemp(prefix="folio-locked-"))
    try:
        (root / "content" / "family").mkdir(parents=True)
        make_small(root / "content" / "open.jpg", 1)
        for n in range(3):
            make_small(root / "content" / "family" / f"party-{n}.jpg", n + 2)
        with open(root / "content" / "family" / "album.plist", "wb") as file:
            plistlib.dump({"title": "Family secrets", "password": PASSWORD}, file)
        result = subprocess.run([str(FOLIO), "build", "--site", str(root)], capture_output=True, text=True,
                                env={"FOLIO_THEME": str(REPOSITORY / "templates"), "PATH": "/usr/bin:/bin"}, timeout=300)
        assert result.returncode == 0, result.stdout + result.stderr
        link = next(line.split(": public/", 1)[1] for line in result.stdout.splitlines() if line.startswith("unlisted album"))
        public = root / "public"
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(
            type("Quiet", (http.server.SimpleHTTPRequestHandler,), {"log_message": lambda *a: None}), directory=str(public)))
        threading.Thread(target=server.serve_forever, daemon=True).start()
        yield {"http": f"http://127.0.0.1:{server.server_address[1]}/", "file": public.as_uri() + "/", "link": link, "public": public}
        server.shutdown()
        server.server_close()
    finally:
        shutil.rmtree(root, ignore_errors=True)


@pytest.fixture
def browser(chromium):
    b = Browser(chromium)
    b.viewport(1280, 900)
    yield b


@pytest.mark.parametrize("scheme", ["http", "file"])
def test_the_password_opens_the_album_and_its_zoomable_photos(browser, locked_site, scheme):
    base = locked_site[scheme]
    browser.open(base + "assets/style.css")
    browser.js("sessionStorage.clear()")
    browser.open(base + locked_site["link"])
    assert browser.js("return document.querySelector('h1').textContent") == "Protected album"
    assert "Family secrets" not in browser.page_source

    field = browser.find_element("id", "locked-password")
    field.send_keys("not the password")
    browser.find_element("css selector", "#locked-form button").click()
    browser.wait_for("document.getElementById('locked-status').textContent.indexOf('not the password') >= 0", timeout=15)
    assert "Family secrets" not in browser.page_source

    field = browser.find_element("id", "locked-password")
    field.clear()
    field.send_keys(PASSWORD + "\n")
    browser.wait_for("document.querySelector('h1') && document.querySelector('h1').textContent === 'Family secrets'", timeout=15)
    browser.wait_for("Array.from(document.images).length >= 3 && "
                     "Array.from(document.images).every(function (i) { return i.complete && i.naturalWidth > 0; })")
    assert browser.js("return Array.from(document.images).every(function (i) { return i.src.indexOf('data:image/') === 0; })")

    # Another page of the album opens without the password: the key is kept for the session.
    href = browser.js("return document.querySelector('.photo-card a, a.photo-card').getAttribute('href')")
    browser.open(base + locked_site["link"].rsplit("/", 1)[0] + "/" + href,
                 ready="document.querySelector('.photo-page') !== null")
    browser.wait_for("!document.querySelector('.viewer-controls').hidden", message="the viewer started")
    browser.wait_for("document.querySelector('.zoom-layer') && document.querySelector('.photo-image').complete")
    width = "document.querySelector('.zoom-layer').getBoundingClientRect().width"
    before = browser.js("return " + width)
    browser.find_element("css selector", "[data-zoom=in]").click()
    browser.wait_for("%s > %r * 1.2" % (width, before), message="zooming in enlarges the photo")


def test_nothing_of_the_album_is_published_in_clear(locked_site):
    public: Path = locked_site["public"]
    text = b"".join(p.read_bytes() for p in public.rglob("*") if p.is_file())
    for word in [b"Family secrets", b"party-0", b"party-1", PASSWORD.encode()]:
        assert word not in text, word
