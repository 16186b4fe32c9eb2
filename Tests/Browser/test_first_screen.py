"""Photos first: the home page's first photos on the first screen of a desktop and of a phone, the
Favorites page's favorites themselves by place, and the counts the visitor's browser adds to."""

import re

import pytest


@pytest.mark.parametrize("size", [(1280, 800, False), (390, 844, True)], ids=["desktop", "phone"])
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_home_pages_first_photos_are_on_the_first_screen(browser, gallery, size, scheme):
    width, height, mobile = size
    browser.viewport(width, height, mobile=mobile, scale=3 if mobile else 1)
    browser.media(prefers_color_scheme=scheme)
    browser.open(gallery.url + "index.html")
    tops = browser.js("""return Array.from(document.querySelectorAll('.photo-grid img')).slice(0, 2).map(function (i) {
        var r = i.getBoundingClientRect(); return [r.top, r.bottom]; })""")
    assert len(tops) == 2
    for top, bottom in tops:
        # Most of each of the first row's photos shows without scrolling.
        assert top < height * 0.45 and bottom - top > 100
        assert bottom <= height or (height - top) / (bottom - top) > 0.6
    assert browser.js("return document.querySelectorAll('main input[type=search]').length") == 0, "one search box: the header's"


def test_counts_that_say_nothing_are_left_out_and_favorites_count_the_visitors(browser, gallery):
    browser.open(gallery.url + "index.html")
    stats = browser.js("return Array.from(document.querySelectorAll('.stat')).map(function (a) { return a.dataset.stat; })")
    assert "favorites" in stats and "recents" in stats
    count = lambda: int(browser.js("return document.querySelector('.stat[data-stat=favorites] .stat-count').textContent"))
    picks = count()
    published = [p for p in (gallery.public / "photos").glob("*.html") if re.search(r"<h1>[^\n]*pick-badge", p.read_text())]
    assert picks == len(published), "the photographer's picks, as the build counted them"
    # Two photos that are no one's pick, and a pick: the count grows by two, each photo once.
    browser.open(gallery.url + "places/lyon-auvergne-rhone-alpes-france.html")
    cards = browser.js("""return Array.from(document.querySelectorAll('main .photo-card')).map(function (a) {
        return [a.dataset.photo, !!a.querySelector('.pick-badge')]; })""")
    plain = [c[0] for c in cards if not c[1]][:2]
    pick = [c[0] for c in cards if c[1]][0]
    browser.js("Folio.favorites.add(arguments[0]); Folio.favorites.add(arguments[1]); Folio.favorites.add(arguments[2]);", *plain, pick)
    browser.open(gallery.url + "index.html")
    browser.wait_for(f"+document.querySelector('.stat[data-stat=favorites] .stat-count').textContent === {picks + 2}")
    # Removed in another page of the site: this one follows.
    browser.js("Folio.favorites.remove(arguments[0])", plain[0])
    browser.wait_for(f"+document.querySelector('.stat[data-stat=favorites] .stat-count').textContent === {picks + 1}")


def test_the_favorites_page_shows_the_favorites_by_place(browser, gallery):
    browser.open(gallery.url + "favorites/index.html")
    sections = browser.js("""return Array.from(document.querySelectorAll('main .photo-section')).map(function (s) {
        var h = s.querySelector('.section-title a');
        return {place: h && h.textContent, href: h && h.href, photos: s.querySelectorAll('.photo-card img').length}; })""")
    assert sections and all(s["place"] and s["photos"] >= 1 for s in sections)
    lyon = [s for s in sections if s["place"] == "Lyon"]
    assert lyon and lyon[0]["href"].endswith("favorites/lyon-auvergne-rhone-alpes-france.html")
    assert browser.js("return document.querySelectorAll('main .rows li').length") == 0, "photos, not rows of places"
    # The photos are shown whole and large enough to see: not 56-pixel thumbnails.
    assert browser.js("return document.querySelector('main .photo-section .photo-card img').getBoundingClientRect().height") > 150


@pytest.mark.parametrize("size,scale,mobile,wanted", [
    ((390, 844), 3, True, "-row260-"),   # a 3× phone: about one device pixel per pixel, a thumbnail's weight
    ((1280, 800), 1, False, "-row260-"),
    ((1280, 800), 2, False, "-row-"),     # a 2× desktop: the 520-high row rendition, sharp
], ids=["phone-3x", "desktop-1x", "desktop-2x"])
def test_rows_show_row_renditions_never_screen_renditions(browser, gallery, size, scale, mobile, wanted):
    browser.viewport(*size, mobile=mobile, scale=scale)
    browser.open(gallery.url + "albums/photos.html")
    browser.wait_for("Array.from(document.querySelectorAll('.keeps-shapes img')).slice(0, 4).every(function (i) { return i.complete && i.currentSrc; })")
    chosen = browser.js("return Array.from(document.querySelectorAll('.keeps-shapes img')).filter(function (i) { return i.currentSrc; })"
                        ".map(function (i) { return i.currentSrc; })")
    assert len(chosen) >= 4
    assert all(wanted in src for src in chosen), chosen
    assert not any(re.search(r"-(screen|w\d+)-", src) for src in chosen), "no screen rendition in a row"
