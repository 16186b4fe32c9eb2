"""Previous and next stay where the visitor is: the list they chose the photo from (an album, a place,
a person, a region, a place's favorites, search results), "n of N in <list>", the next photo fetched
ahead only within it; the photo's album for a visitor arriving from elsewhere or without JavaScript.
And the viewer's basics: a full-screen control, arrows a phone shows, titles that wrap, no facts
that say nothing."""

import json
import plistlib
import re
import shutil
import tempfile
import time
from pathlib import Path

import pytest
from PIL import Image, ImageDraw
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from conftest import build

PLACE = "places/lyon-auvergne-rhone-alpes-france.html"
# The header search popup's photos (not its "All results" line).
OPTIONS = ".search-popup a[role=option]:not(.popup-all)"


def cards(browser) -> list[str]:
    """The photos a listing shows, in its order, as absolute addresses."""
    return browser.js("return Array.from(document.querySelectorAll('main a.photo-card[data-photo]')).map(function (a) { return a.href; })")


def sequence_text(browser) -> str:
    return browser.js("return document.querySelector('.photo-sequence').textContent.replace(/\\s+/g, ' ').trim()")


def choose(browser, href: str):
    """Clicks the card leading to `href` on the listing shown, and waits for its photo's page."""
    browser.js("var href = arguments[0]; Array.from(document.querySelectorAll('a.photo-card')).find(function (a) { return a.href === href; }).click()", href)
    browser.wait_for(f"location.href === {href!r} && document.readyState === 'complete'")


def album_order(gallery, album: str) -> list[str]:
    """An album's photos as its page lists them (its own order, oldest first)."""
    html = (gallery.public / "albums" / f"{album}.html").read_text()
    return re.findall(r'class="photo-card" href="\.\./(photos/[^"]+\.html)"', html)


@pytest.mark.parametrize("scheme", ["http", "file"])
def test_next_follows_the_place_the_visitor_came_from(browser, gallery, scheme):
    browser.open(gallery.base(scheme) + PLACE)
    listed = cards(browser)
    assert len(listed) == 21
    choose(browser, listed[0])
    for n in range(1, 5):
        browser.wait_for(f"document.querySelector('.photo-sequence').textContent.indexOf('{n} of 21') >= 0")
        assert sequence_text(browser) == f"{n} of 21 in Lyon"
        ActionChains(browser.driver).send_keys(Keys.ARROW_RIGHT).perform()
        browser.wait_for(f"location.href === {listed[n]!r} && document.readyState === 'complete'")
    # Back again with the pager's own link, which leads through the place too.
    browser.wait_for("document.querySelector('.photo-sequence').textContent.indexOf('5 of 21') >= 0")
    previous = browser.js("return document.querySelector('a[rel=prev]').href")
    assert previous == listed[3]
    # The list's own line leads back to the listing it came from.
    assert browser.js("return document.querySelector('.sequence-list').href") == gallery.base(scheme) + PLACE


def test_a_photo_from_elsewhere_follows_its_album(browser, gallery):
    order = album_order(gallery, "travel")
    assert len(order) == 4
    browser.open(gallery.url + order[1])
    # The page says "In Travel"; the script, from the album's list, where the photo is in it.
    browser.wait_for("document.querySelector('.photo-sequence').textContent.indexOf('2 of 4') >= 0")
    assert sequence_text(browser) == "2 of 4 in Travel"
    assert browser.js("return document.querySelector('.sequence-list').getAttribute('href')") == "../albums/travel.html", "as written"
    assert browser.js("return document.querySelector('a[rel=next]').href") == gallery.url + order[2]
    assert browser.js("return document.querySelector('a[rel=prev]').href") == gallery.url + order[0]
    # The album's last photo leads nowhere further: not out of the album.
    browser.open(gallery.url + order[3])
    browser.wait_for("document.querySelector('.photo-sequence').textContent.indexOf('4 of 4') >= 0")
    assert browser.js("return document.querySelectorAll('a[rel=next]').length") == 0
    assert sequence_text(browser) == "4 of 4 in Travel"
    # As written, without the script: no photo's page says how many the album holds, so none
    # changes when another photo joins it.
    written = (gallery.public / order[3]).read_text()
    assert re.search(r'<p class="photo-sequence"[^>]*>In <a class="sequence-list" href="[^"]*travel\.html">Travel</a></p>', written)


def test_without_javascript_the_links_follow_the_album(browser, gallery):
    order = album_order(gallery, "photos")
    browser.execute_cdp_cmd("Emulation.setScriptExecutionDisabled", {"value": True})
    try:
        for at in (0, 5, len(order) - 1):
            browser.open(gallery.url + order[at])
            nexts = browser.js("return Array.from(document.querySelectorAll('a[rel=next]')).map(function (a) { return a.href; })")
            assert nexts == ([gallery.url + order[at + 1]] if at + 1 < len(order) else [])
            # The album, without where in it: that the script adds.
            line = browser.js("return document.querySelector('.photo-sequence').textContent").strip()
            assert line.startswith("In ") and " of " not in line, line
    finally:
        browser.execute_cdp_cmd("Emulation.setScriptExecutionDisabled", {"value": False})


def test_a_search_result_leads_through_the_results(browser, gallery):
    browser.open(gallery.url + "search/index.html?q=street")
    browser.wait_for("document.querySelectorAll('.search-results a.photo-card').length === 20")
    results = browser.js("return Array.from(document.querySelectorAll('.search-results a.photo-card')).map(function (a) { return a.href; })")
    choose(browser, results[2])
    browser.wait_for("document.querySelector('.photo-sequence').textContent.indexOf('3 of 20') >= 0")
    assert sequence_text(browser) == "3 of 20 in Search: “street”"
    assert browser.js("return document.querySelector('a[rel=next]').href") == results[3]
    assert browser.js("return document.querySelector('.stage-next').href") == results[3]
    assert browser.js("return document.querySelector('a[rel=prev]').href") == results[1]


def test_a_result_of_the_header_search_leads_through_all_the_results(browser, gallery):
    browser.open(gallery.url + "search/index.html?q=street")
    browser.wait_for("document.querySelectorAll('.search-results a.photo-card').length === 20")
    results = browser.js("return Array.from(document.querySelectorAll('.search-results a.photo-card')).map(function (a) { return a.href; })")

    def popup(query: str) -> list[str]:
        box = browser.find_element(By.ID, "site-search-q")
        box.clear()
        box.send_keys(query)
        browser.wait_for("!document.querySelector('.search-popup').hidden && "
                         f"document.querySelectorAll({OPTIONS!r}).length === 6")
        return browser.js("return Array.from(document.querySelectorAll(arguments[0])).map(function (a) { return a.href; })", OPTIONS)

    # Clicked on a listing: the popup's six lead through all twenty, as the Search page's do.
    browser.open(gallery.url + PLACE)
    shown = popup("street")
    assert shown == results[:6]
    browser.find_elements(By.CSS_SELECTOR, OPTIONS)[2].click()
    browser.wait_for(f"location.href === {results[2]!r} && document.readyState === 'complete'")
    browser.wait_for("document.querySelector('.photo-sequence').textContent.indexOf('3 of 20') >= 0")
    assert sequence_text(browser) == "3 of 20 in Search: “street”"
    assert browser.js("return document.querySelector('a[rel=next]').href") == results[3]
    assert browser.js("return document.querySelector('a[rel=prev]').href") == results[1]
    # The list's line leads to the Search page's results, not back to the place.
    assert browser.js("return document.querySelector('.sequence-list').href") == gallery.url + "search/index.html?q=street"
    # Chosen with the keyboard on a photo's page: the same.
    assert popup("street") == results[:6]
    browser.find_element(By.ID, "site-search-q").send_keys(Keys.ARROW_DOWN, Keys.ARROW_DOWN, Keys.ENTER)
    browser.wait_for(f"location.href === {results[1]!r} && document.readyState === 'complete'")
    browser.wait_for("document.querySelector('.photo-sequence').textContent.indexOf('2 of 20') >= 0")
    assert browser.js("return document.querySelector('a[rel=next]').href") == results[2]


def test_the_favorites_of_a_place_lead_through_those_favorites(browser, gallery):
    # Lyon's only pick is its fourth street; the visitor adds two more of the place's photos.
    browser.open(gallery.url + PLACE)
    ids = browser.js("return Array.from(document.querySelectorAll('main a.photo-card')).map(function (a) { return a.dataset.photo; })")
    browser.js("Folio.favorites.add(arguments[0]); Folio.favorites.add(arguments[1]);", ids[0], ids[5])
    browser.open(gallery.url + "favorites/lyon-auvergne-rhone-alpes-france.html")
    browser.wait_for("document.querySelectorAll('main a.photo-card').length >= 1")
    picks = cards(browser)
    choose(browser, picks[0])
    assert len(picks) == 3, "the visitor's two beside the photographer's pick"
    browser.wait_for("document.querySelector('.photo-sequence').textContent.indexOf('1 of 3') >= 0")
    assert sequence_text(browser) == "1 of 3 in Favorites in Lyon"
    assert browser.js("return document.querySelector('a[rel=next]').href") == picks[1]


def test_the_next_photo_is_fetched_ahead_only_within_the_list(browser, gallery):
    browser.open(gallery.url + PLACE)
    listed = cards(browser)
    choose(browser, listed[1])
    browser.wait_for("document.querySelector('.photo-sequence').textContent.indexOf('2 of 21') >= 0")
    html = (gallery.public / listed[1][len(gallery.url):]).read_text()
    # The page as written fetches its album's next photo ahead: not this visitor's next.
    album_next = re.search(r'class="stage-nav stage-next"[^>]* data-srcset="([^"]+)"', html)
    browser.wait_for("document.querySelector('.photo-image').complete")
    time.sleep(1.5)  # the viewer fetches ahead once the photo is shown and the browser is idle
    fetched = browser.js("return performance.getEntriesByType('resource').map(function (e) { return e.name; })")
    if album_next:
        album_files = {c.split(" ")[0].rsplit("/", 1)[-1] for c in album_next.group(1).split(", ")}
        assert not [u for u in fetched if u.rsplit("/", 1)[-1] in album_files], "the album's next photo was fetched ahead"
    assert browser.js("return document.querySelector('.stage-next').href") == listed[2]


@pytest.fixture(scope="module")
def paged_site():
    """A place of 23 photos in listings of 10 a page, so a list crosses its pages."""
    root = Path(tempfile.mkdtemp(prefix="folio-paged-"))
    root.chmod(0o755)
    (root / "content" / "walk").mkdir(parents=True)
    records = []
    for n in range(23):
        image = Image.new("RGB", (300, 200), ((n * 53) % 256, 90, (n * 29) % 256))
        ImageDraw.Draw(image).text((20, 20), f"{n}", fill="white")
        image.save(root / "content" / "walk" / f"w{n:02}.jpg", quality=80)
        records.append({"path": f"w{n:02}.jpg", "name": f"Walk {n:02}", "user": "Ana", "place": "Porto, Porto District, Portugal",
                        "taken": f"2026-05-{n + 1:02}T10:00:00Z"})
    with open(root / "content" / "walk" / "walk.plist", "wb") as file:
        plistlib.dump(records, file)
    (root / "folio.json").write_text(json.dumps({"title": "Paged", "pageSize": 10, "deepZoom": False}))
    build(root)
    yield root / "public"
    shutil.rmtree(root, ignore_errors=True)


def test_a_list_cut_into_pages_is_walked_across_its_pages(browser, paged_site):
    base = paged_site.as_uri() + "/"
    browser.open(base + "places/porto-porto-district-portugal.html")
    first_page = cards(browser)
    second_page = browser.js("return document.querySelector('.pager a[rel=next]').href")
    assert 5 <= len(first_page) < 23
    n = len(first_page)
    choose(browser, first_page[-1])
    browser.wait_for(f"document.querySelector('.photo-sequence').textContent.indexOf('{n} of 23') >= 0")
    assert sequence_text(browser) == f"{n} of 23 in Porto"
    following = browser.js("return document.querySelector('a[rel=next]').href")
    browser.open(second_page)
    assert following == cards(browser)[0], "the place's next photo, on its second page"


def test_viewer_basics_on_a_phone(browser, gallery):
    browser.viewport(360, 780, mobile=True, scale=3)
    title = "Long exposure of traffic streaming out of the city at night, the skyline behind."
    browser.open(gallery.url + gallery.photo_page(title))
    browser.wait_for("document.querySelector('.zoom-layer')")
    arrows = browser.js("""return Array.from(document.querySelectorAll('.stage-nav')).map(function (a) {
        var r = a.getBoundingClientRect(); return getComputedStyle(a).display !== 'none' && r.width > 20 && r.left >= 0 && r.right <= innerWidth; })""")
    assert arrows == [True, True], "a phone shows the arrows, on screen"
    heading = browser.js("""var h = document.querySelector('.photo-info h1'), r = h.getBoundingClientRect();
        return {lines: Math.round(r.height / parseFloat(getComputedStyle(h).lineHeight)), fits: h.scrollWidth <= h.clientWidth + 1,
                right: r.right, width: innerWidth}""")
    assert heading["lines"] == 2, "the title wraps onto a second line"
    assert heading["fits"] and heading["right"] <= heading["width"]
    stage = browser.js("var f = document.querySelector('.photo-figure').getBoundingClientRect(), i = document.querySelector('.photo-info').getBoundingClientRect(); return [f.bottom, i.top]")
    assert stage[0] <= stage[1] + 0.5, "the title line does not sit on the photo"


def test_full_screen_control(browser, gallery):
    browser.open(gallery.url + gallery.photo_page("Portree harbour"))
    button = browser.find_element("css selector", "[data-fullscreen]")
    browser.wait_for("!document.querySelector('[data-fullscreen]').hidden")
    button.click()
    browser.wait_for("document.fullscreenElement === document.querySelector('.photo-page')")
    # The button says so once the browser's fullscreenchange has come, a moment after.
    browser.wait_for("document.querySelector('[data-fullscreen]').getAttribute('aria-pressed') === 'true'")
    browser.wait_for("document.querySelector('.photo-figure').getBoundingClientRect().top === 0")
    ActionChains(browser.driver).send_keys("f").perform()
    browser.wait_for("document.fullscreenElement === null")
    browser.wait_for("document.querySelector('[data-fullscreen]').getAttribute('aria-pressed') === 'false'")


def test_facts_that_say_nothing_are_left_out(browser, gallery):
    # An uncatalogued file whose EXIF names no artist: no "Photographer: Unknown", and no way to
    # a person no one named; no file of content/ says "Added" (the day a build first met it).
    browser.open(gallery.url + gallery.photo_page("milky way over the dunes"))
    labels = browser.js("return Array.from(document.querySelectorAll('.facts dt')).map(function (d) { return d.textContent; })")
    assert "Photographer" not in labels and "Added" not in labels
    assert "Size" in labels and "Album" in labels
    assert "people/unknown.html" not in browser.page_source
    browser.open(gallery.url + gallery.photo_page("Portree harbour"))
    labels = browser.js("return Array.from(document.querySelectorAll('.facts dt')).map(function (d) { return d.textContent; })")
    assert "Photographer" in labels and "Added" not in labels


def test_recents_lead_through_the_photos_this_visitor_viewed(browser, gallery):
    viewed = ["Harbor lights", "Fjord morning", "Portree harbour"]
    for title in viewed:
        browser.open(gallery.url + gallery.photo_page(title))
    browser.open(gallery.url + "recents/index.html")
    browser.wait_for("document.querySelectorAll('.recents-list a[data-photo]').length === 3")
    rows = browser.js("return Array.from(document.querySelectorAll('.recents-list a[data-photo]')).map(function (a) { return a.href; })")
    assert rows[0].endswith(gallery.photo_page("Portree harbour"))
    browser.js("document.querySelectorAll('.recents-list a[data-photo]')[1].click()")
    browser.wait_for(f"location.href === {rows[1]!r} && document.readyState === 'complete'")
    browser.wait_for("document.querySelector('.photo-sequence').textContent.indexOf('2 of 3') >= 0")
    assert sequence_text(browser) == "2 of 3 in Recents"
    assert browser.js("return document.querySelector('a[rel=next]').href") == rows[2]
