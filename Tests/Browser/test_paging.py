"""A listing longer than a page: pages a visitor walks with Next and Previous, cut where the
photos say and named for their days, each small, each accessible. A site of its own (40 photos of
one person in one place, ten to a page), opened from disk, and over HTTP for axe (whose checks
reach for XMLHttpRequest, which file:// refuses)."""

import functools
import http.server
import plistlib
import re
import shutil
import tempfile
import threading
from pathlib import Path

import pytest
from conftest import build, make_small
from test_accessibility import violations


@pytest.fixture(scope="module")
def paged_site():
    root = Path(tempfile.mkdtemp(prefix="folio-paged-"))
    root.chmod(0o755)
    try:
        (root / "content").mkdir()
        records = []
        for n in range(40):
            make_small(root / "content" / f"walk-{n:02}.jpg", n)
            records.append({"path": f"walk-{n:02}.jpg", "name": f"Walk {n:02}", "user": "Walker",
                            "place": "Lyon, Auvergne-Rhône-Alpes, France", "taken": f"2026-{10 + n // 28}-{n % 28 + 1:02}T10:00:00Z"})
        with open(root / "content" / "walks.plist", "wb") as file:
            plistlib.dump(records, file)
        (root / "folio.json").write_text('{"title": "Walks", "pageSize": 10}')
        build(root)
        yield root / "public"
    finally:
        shutil.rmtree(root, ignore_errors=True)


def titles(browser) -> list[str]:
    return browser.js("return [...document.querySelectorAll('.caption-title')].map(e => e.textContent)")


def test_a_visitor_walks_a_long_listing_page_by_page(browser, paged_site):
    browser.viewport(390, 844, mobile=True, scale=3)
    browser.open((paged_site / "people" / "walker.html").as_uri())
    assert browser.js("return document.querySelector('link[rel=prev]')") is None
    seen, pages = [], []
    while True:
        shown = titles(browser)
        assert 5 <= len(shown) <= 25, shown
        seen += shown
        pages.append(browser.js("return location.href"))
        # The pager says the days of the page's photos, not which page of how many.
        status = browser.js("return document.querySelector('.pager-status').textContent")
        assert "2026" in status and "Page" not in status, status
        if len(pages) > 1:
            assert browser.js("return document.title").startswith(f"Walker, {status}")
            # The page's own assets resolve from two folders down.
            assert browser.js("return getComputedStyle(document.querySelector('.pager')).textAlign") == "center"
            browser.wait_for("[...document.querySelectorAll('img[loading=eager]')].every(i => i.complete)")
            assert browser.js("return [...document.querySelectorAll('img[loading=eager]')].every(i => i.naturalWidth > 0)")
        if len(pages) > 2:
            assert browser.js("return [...document.querySelectorAll('.pager a')].some(a => a.textContent.includes('First page'))")
        following = browser.js("var l = document.querySelector('link[rel=next]'); return l && l.getAttribute('href')")
        if following is None:
            break
        # Named for the day its oldest photo was taken.
        assert re.fullmatch(r"(\.\./)+people/walker/2026-1[01]-\d\d(-\d+)?\.html", following), following
        browser.js("document.querySelector('.pager a[rel=next]').click()")
        browser.wait_for(f"location.href !== {pages[-1]!r}")
        browser.wait_for("document.readyState === 'complete'")
    assert seen == [f"Walk {n:02}" for n in range(39, -1, -1)]
    assert len(pages) >= 3
    browser.js("document.querySelector('.pager a[rel=prev]').click()")
    browser.wait_for(f"location.href === {pages[-2]!r}")


def test_every_page_stays_small_and_a_place_says_where_a_day_goes_on(browser, paged_site):
    for page in paged_site.rglob("*.html"):
        assert page.stat().st_size < 300_000, page
    browser.viewport(1280, 900)
    browser.open((paged_site / "places" / "lyon-auvergne-rhone-alpes-france.html").as_uri())
    browser.js("document.querySelector('.pager a[rel=next]').click()")
    browser.wait_for("location.href.includes('/lyon-auvergne-rhone-alpes-france/')")
    headings = browser.js("return [...document.querySelectorAll('.section-title')].map(e => e.textContent.trim())")
    assert headings and all(h[0].isdigit() for h in headings)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_a_page_of_a_listing_has_no_serious_violation(browser, paged_site, scheme):
    browser.viewport(390, 844, mobile=True, scale=3)
    browser.media(prefers_color_scheme=scheme, prefers_reduced_motion="reduce")
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(paged_site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        second = next((paged_site / "people" / "walker").glob("*.html")).relative_to(paged_site).as_posix()
        browser.open(f"http://127.0.0.1:{server.server_address[1]}/{second}")
        found = violations(browser, second)
        browser.open("about:blank")  # nothing still loading when the server goes
    finally:
        server.shutdown()
        server.server_close()
    assert found == []
