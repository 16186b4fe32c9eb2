"""The visitor's favorites: the heart on a photo's page, kept in localStorage, shown on the
Favorites page grouped by place beside the publisher's picks (the star), each photo once, and
removed everywhere at once."""

import json

import pytest
from selenium.webdriver.common.by import By

PRESSED = "document.querySelector('.favorite-toggle').getAttribute('aria-pressed')"


def star(browser, gallery, title, scheme="http"):
    """Opens the photo's page and marks it a favorite."""
    browser.open(gallery.base(scheme) + gallery.photo_page(title))
    browser.wait_for("!document.querySelector('.favorite-toggle').hidden")
    assert browser.js("return " + PRESSED) == "false"
    browser.find_element(By.CSS_SELECTOR, ".favorite-toggle").click()
    browser.wait_for(PRESSED + " === 'true'")


def favorites_block(browser):
    """The visitor's favorites on the Favorites page: [(place heading, [photo titles])]."""
    browser.wait_for("document.querySelector('#your-favorites')")
    return browser.js("""return Array.from(document.querySelectorAll('.visitor-favorites .place-group')).map(function (g) {
        return [Array.from(g.querySelector('.place-group-title').childNodes).map(function (n) { return n.textContent; }).join(' '),
                Array.from(g.querySelectorAll('.caption-title')).map(function (t) { return t.textContent; })]; })""")


@pytest.mark.parametrize("scheme", ["http", "file"])
def test_the_star_is_kept_across_reloads(browser, gallery, scheme):
    star(browser, gallery, "Fjord morning", scheme)
    assert browser.js("return document.querySelector('.favorite-toggle .heart').textContent") == "♥"
    browser.refresh()
    browser.wait_for("!document.querySelector('.favorite-toggle').hidden")
    assert browser.js("return " + PRESSED) == "true"
    stored = [key for key in browser.js("return Object.keys(localStorage)") if key.startswith("folio:favorites:")]
    assert len(stored) == 1
    assert [e["id"] for e in json.loads(browser.js("return localStorage.getItem(arguments[0])", stored[0]))] == \
        [gallery.identifier("Fjord morning")]
    browser.find_element(By.CSS_SELECTOR, ".favorite-toggle").click()
    browser.wait_for(PRESSED + " === 'false'")
    browser.refresh()
    browser.wait_for("!document.querySelector('.favorite-toggle').hidden")
    assert browser.js("return " + PRESSED) == "false"


@pytest.mark.parametrize("scheme", ["http", "subpath", "file"])
def test_the_favorites_page_shows_the_visitors_by_place_beside_the_publishers(browser, gallery, scheme):
    for title in ["Harbor lights", "Fjord morning", "The cameraman", "Café crème on the terrace"]:
        star(browser, gallery, title, scheme)
    browser.open(gallery.base(scheme) + "favorites/index.html")
    assert favorites_block(browser) == [
        ["Èze Provence, France", ["Café crème on the terrace", "Harbor lights"]],
        ["Geiranger Møre og Romsdal, Norway", ["Fjord morning"]],
        ["Without a place", ["The cameraman"]],
    ]
    # Each card is the photo's thumbnail, leading to its page.
    card = browser.find_element(By.CSS_SELECTOR, ".visitor-favorites .photo-card")
    assert card.get_attribute("href").endswith(gallery.photo_page("Café crème on the terrace"))
    browser.wait_for("document.querySelector('.visitor-favorites .photo-card img').naturalWidth > 0")
    # The publisher's favorites (the model's) are still shown, the photos themselves by place, under their own heading.
    publisher = browser.js("return Array.from(document.querySelectorAll('.photo-sections .section-title a')).map(function (e) { return e.textContent; })")
    assert publisher and "Èze" not in publisher and "Lyon" in publisher
    assert browser.js("return document.querySelector('.visitor-favorites + h2').textContent") == "The photographer's picks ★"
    # The switch: all places, then back.
    browser.find_element(By.LINK_TEXT, "All places").click()
    browser.wait_for("location.pathname.endsWith('favorites/all.html')")
    titles = browser.js("return Array.from(document.querySelectorAll('.rows .row-title')).map(function (e) { return e.textContent; })")
    assert "Èze" in titles and "Geiranger" in titles and len(titles) > len(publisher)
    browser.find_element(By.LINK_TEXT, "Only favorites").click()
    browser.wait_for("location.pathname.endsWith('favorites/index.html')")
    assert len(favorites_block(browser)) == 3


def test_a_place_with_the_publishers_favorites_shows_the_visitors_there_too(browser, gallery):
    place_page = gallery.url + "favorites/lyon-auvergne-rhone-alpes-france.html"
    browser.open(place_page)
    assert browser.js("return Array.from(document.querySelectorAll('.photo-section .caption-title')).map(function (e) { return e.textContent; })") \
        == ["Street corner 01"], "the publisher's favorite there"
    assert browser.js("return document.querySelector('.visitor-favorites').hidden")
    star(browser, gallery, "Street corner 07")
    browser.open(place_page)
    browser.wait_for("!document.querySelector('.visitor-favorites').hidden")
    assert browser.js("return Array.from(document.querySelectorAll('.visitor-favorites .caption-title')).map(function (e) { return e.textContent; })") \
        == ["Street corner 07"]
    assert browser.js("return document.querySelectorAll('.photo-section .photo-card').length") == 1


def test_removing_a_favorite_removes_it_everywhere_without_a_reload(browser, gallery):
    star(browser, gallery, "Harbor lights")
    star(browser, gallery, "Fjord morning")
    driver = browser.driver
    first = driver.current_window_handle
    # Three pages open at once: the photo, its place (a grid), the Favorites page.
    browser.open(gallery.url + gallery.photo_page("Harbor lights"))
    browser.js("window.stillHere = true")
    driver.switch_to.new_window("tab")
    place = gallery.url + "places/eze-provence-france.html"
    browser.open(place)
    badge = "document.querySelector('.photo-card[data-photo=\"%s\"] .visitor-badge')" % gallery.identifier("Harbor lights")
    browser.wait_for(badge)
    browser.js("window.stillHere = true")
    grid = driver.current_window_handle
    driver.switch_to.new_window("tab")
    browser.open(gallery.url + "favorites/index.html")
    assert [g[0].split(" ")[0] for g in favorites_block(browser)] == ["Èze", "Geiranger"]
    browser.js("window.stillHere = true")
    driver.find_element(By.CSS_SELECTOR, "[data-favorite='%s'] .remove-button" % gallery.identifier("Harbor lights")).click()
    browser.wait_for("document.querySelectorAll('.visitor-favorites .place-group').length === 1")
    assert favorites_block(browser) == [["Geiranger Møre og Romsdal, Norway", ["Fjord morning"]]]
    assert browser.js("return window.stillHere") is True
    try:
        driver.switch_to.window(grid)
        browser.wait_for("!" + badge)
        assert browser.js("return window.stillHere") is True
        driver.switch_to.window(first)
        browser.wait_for(PRESSED + " === 'false'")
        assert browser.js("return window.stillHere") is True
    finally:
        for handle in driver.window_handles:
            if handle != first:
                driver.switch_to.window(handle)
                driver.close()
        driver.switch_to.window(first)


def test_removing_the_last_one_leaves_a_hint(browser, gallery):
    star(browser, gallery, "Fjord morning")
    browser.open(gallery.url + "favorites/index.html")
    favorites_block(browser)
    browser.find_element(By.CSS_SELECTOR, ".visitor-favorites .remove-button").click()
    browser.wait_for("!document.querySelector('.visitor-favorites .place-group')")
    assert "♡" in browser.js("return document.querySelector('.visitor-favorites .hint').textContent")
    assert browser.js("return document.activeElement.classList.contains('visitor-favorites')"), "focus stays on the list"


def test_a_photo_that_is_both_a_pick_and_the_visitors_favorite_is_listed_once(browser, gallery):
    place_page = gallery.url + "favorites/lyon-auvergne-rhone-alpes-france.html"
    star(browser, gallery, "Street corner 01")  # the publisher's pick there too
    browser.open(place_page)
    time_to_draw = "document.querySelector('.photo-card[data-photo=\"%s\"] .visitor-badge')" % gallery.identifier("Street corner 01")
    browser.wait_for(time_to_draw)
    assert browser.js("return document.querySelector('.visitor-favorites').hidden"), "nothing of the visitor's that is not listed already"
    assert browser.js("return document.querySelector('.visitor-favorites + h2').hidden"), "one list, no heading needed"
    star(browser, gallery, "Street corner 07")
    browser.open(place_page)
    browser.wait_for("!document.querySelector('.visitor-favorites').hidden")
    listed = browser.js("return Array.from(document.querySelectorAll('.photo-card')).map(function (a) { return a.dataset.photo; })")
    assert sorted(listed) == sorted([gallery.identifier("Street corner 01"), gallery.identifier("Street corner 07")]), "each photo once"
    headings = browser.js("return Array.from(document.querySelectorAll('main h2')).filter(function (h) { return !h.hidden; }).map(function (h) { return h.textContent; })")
    assert headings == ["Your favorites here ♥", "The photographer's picks ★"]
    # One mark each, the same everywhere: ★ the photographer's pick, ♥ the visitor's.
    marks = browser.js("""var a = document.querySelector('.photo-section .photo-card');
        return [a.querySelector('.pick-badge').textContent, a.querySelector('.visitor-badge').textContent]""")
    assert marks == ["★the photographer's pick", "♥ your favorite"]


def test_the_photo_page_marks_the_pick_with_a_star_and_the_visitors_with_a_heart(browser, gallery):
    browser.open(gallery.url + gallery.photo_page("Street corner 01"))
    browser.wait_for("!document.querySelector('.favorite-toggle').hidden")
    assert browser.js("return document.querySelector('h1 .pick-badge').title") == "The photographer's pick"
    assert browser.js("return document.querySelector('.favorite-toggle .heart').textContent") == "♡"
    browser.find_element(By.CSS_SELECTOR, ".favorite-toggle").click()
    browser.wait_for(PRESSED + " === 'true'")
    assert browser.js("return document.querySelector('.favorite-toggle .heart').textContent") == "♥"
    assert "★" not in browser.js("return document.querySelector('.favorite-toggle').textContent")
