"""Search: the page and the header box, results as you type, from the index the build wrote
under search/data/ (script files, so it works from file:// as well as from a server)."""

import re
import time

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from conftest import ZOOM_TITLE

RESULTS = "return Array.from(document.querySelectorAll('.search-results .caption-title')).map(function (e) { return e.textContent; })"


def results(browser, query=None, scheme="http", gallery=None):
    if query is not None:
        browser.open(gallery.base(scheme) + "search/index.html?q=" + query)
    browser.wait_for("/match/.test(document.querySelector('.search-status').textContent)")
    browser.wait_for("/^No photo/.test(document.querySelector('.search-status').textContent) || "
                     "document.querySelectorAll('.search-results li').length > 0")
    return browser.js(RESULTS)


def shown(browser):
    """The whole list: presses 'Show more' until there is no more."""
    while browser.js("return !document.querySelector('.search-more').hidden"):
        count = len(browser.js(RESULTS))
        browser.find_element(By.CSS_SELECTOR, ".search-more button").click()
        browser.wait_for(f"document.querySelectorAll('.search-results li').length > {count}")
    return browser.js(RESULTS)


@pytest.mark.parametrize("scheme", ["http", "subpath", "file"])
def test_results_come_as_you_type(browser, gallery, scheme):
    browser.open(gallery.base(scheme) + "search/index.html")
    browser.wait_for("/Search \\d+ photos/.test(document.querySelector('.search-status').textContent)")
    box = browser.find_element(By.ID, "search-q")
    assert browser.js("return document.activeElement.id") == "search-q", "the box has the focus"
    for letter in "fjo":
        box.send_keys(letter)
        time.sleep(0.05)
    browser.wait_for("document.querySelector('.search-status').textContent === '1 photo matches “fjo”'")
    # The count is said at once; the photo's row comes with its photo file, a moment later.
    browser.wait_for("document.querySelectorAll('.search-results li').length > 0")
    assert browser.js(RESULTS) == ["Fjord morning"]
    card = browser.find_element(By.CSS_SELECTOR, ".search-results .photo-card")
    assert card.get_attribute("href").endswith(gallery.photo_page("Fjord morning"))
    assert browser.js("return document.querySelector('.search-results .caption-subtitle').textContent") == "Ingrid · Geiranger"
    browser.wait_for("document.querySelector('.search-results img').naturalWidth > 0")
    image = browser.find_element(By.CSS_SELECTOR, ".search-results img")
    assert image.get_attribute("alt") == "Fjord morning by Ingrid in Geiranger"
    assert image.get_attribute("loading") == "lazy"
    assert "w," in image.get_attribute("srcset") and image.get_attribute("sizes")
    # The address follows, so the results can be shared or come back to.
    assert browser.current_url.endswith("search/index.html?q=fjo")
    box.send_keys(Keys.BACKSPACE * 3 + "zzqx")
    browser.wait_for("document.querySelector('.search-status').textContent === 'No photo matches “zzqx”'")
    assert browser.js(RESULTS) == []


@pytest.mark.parametrize("query, expected", [
    ("bamboo", ["Bamboo grove"]),                      # title
    ("crowds", ["Bamboo grove"]),                      # description
    ("zoe", ["Harbor lights", "Café crème on the terrace"]),  # person (Zoë), newest first
    ("geiranger", ["Fjord morning"]),                  # place
    ("romsdal", ["Fjord morning"]),                    # region (Møre og Romsdal)
    ("CAFÉ Crème", ["Café crème on the terrace"]),     # case and accents do not matter
    ("harbo lig", ["Harbor lights"]),                  # every word, each as the start of one
    ("fjord m", ["Fjord morning"]),                    # a last letter still being typed waits for the next
])
def test_searches_title_description_person_place_and_region(browser, gallery, query, expected):
    assert results(browser, query, gallery=gallery) == expected


def test_title_matches_come_first(browser, gallery):
    found = shown_all(browser, "harbo", gallery)
    titled = [t for t in found if "harbo" in t.lower()]
    assert {"Harbor lights", "harbour at dawn", "Portree harbour"} <= set(titled)
    assert found[:len(titled)] == titled, "then those with the word only in their description, place…"
    assert len(found) > len(titled)


def shown_all(browser, query, gallery):
    results(browser, query, gallery=gallery)
    return shown(browser)


def test_many_results_come_a_page_at_a_time(browser, gallery):
    first = results(browser, "the", gallery=gallery)
    total = int(re.match(r"(\d+)", browser.js("return document.querySelector('.search-status').textContent")).group(1))
    assert total > 48 and len(first) == 48
    everything = shown(browser)
    links = browser.js("return Array.from(document.querySelectorAll('.search-results .photo-card')).map(function (a) { return a.href; })")
    assert len(everything) == total == len(set(links))


def test_only_the_index_files_a_query_needs_are_loaded(browser, gallery):
    assert results(browser, "fjord", gallery=gallery) == ["Fjord morning"]
    loaded = sorted({name.rsplit("/", 1)[1] for name in browser.js(
        "return performance.getEntriesByType('resource').map(function (e) { return e.name; })") if "/search/data/" in name})
    assert len(loaded) == 3 and loaded[0] == "meta.js" and loaded[1].startswith("p-") and loaded[2] == "t-fj.js", loaded
    assert len(list((gallery.public / "search" / "data").iterdir())) > 100


@pytest.mark.parametrize("scheme", ["http", "file"])
def test_the_header_box_shows_results_as_you_type(browser, gallery, scheme):
    browser.open(gallery.base(scheme) + "places/index.html")
    box = browser.find_element(By.ID, "site-search-q")
    box.send_keys("fjord")
    browser.wait_for("!document.querySelector('.search-popup').hidden")
    assert browser.js("return Array.from(document.querySelectorAll('.search-popup .popup-title')).map(function (e) { return e.textContent; })") \
        == ["Fjord morning"]
    assert box.get_attribute("aria-expanded") == "true"
    assert box.get_attribute("role") == "combobox" and box.get_attribute("aria-controls") == "search-popup-list"
    assert browser.js("return document.querySelector('.site-search [role=status]').textContent") == "1 photo matches “fjord”"
    # Keyboard only: the focus stays in the box, the arrows move the active option.
    box.send_keys(Keys.ARROW_DOWN)
    active = box.get_attribute("aria-activedescendant")
    assert browser.js("return document.activeElement.id") == "site-search-q"
    assert browser.js("var o = document.getElementById(arguments[0]); return [o.getAttribute('role'), o.getAttribute('aria-selected'), o.textContent]", active) \
        == ["option", "true", "Fjord morning" + browser.js("return document.querySelector('.search-popup .popup-subtitle').textContent")]
    box.send_keys(Keys.ARROW_DOWN)
    assert browser.js("return document.getElementById(arguments[0]).textContent", box.get_attribute("aria-activedescendant")) == "All 1 result ›"
    box.send_keys(Keys.ARROW_UP)
    assert box.get_attribute("aria-activedescendant") == active
    box.send_keys(Keys.ESCAPE)
    browser.wait_for("document.querySelector('.search-popup').hidden")
    assert browser.js("return document.activeElement.id") == "site-search-q"
    assert box.get_attribute("aria-expanded") == "false" and box.get_attribute("aria-activedescendant") is None
    box.send_keys(Keys.ARROW_DOWN)  # the popup opens again on typing only
    assert browser.js("return document.querySelector('.search-popup').hidden")
    box.send_keys(" ")
    browser.wait_for("!document.querySelector('.search-popup').hidden")
    box.send_keys(Keys.ARROW_DOWN)
    box.send_keys(Keys.ENTER)
    browser.wait_for("location.pathname.endsWith(%r)" % gallery.photo_page("Fjord morning"))


def test_the_header_box_says_when_nothing_matches(browser, gallery):
    browser.open(gallery.url + "index.html")
    box = browser.find_element(By.ID, "site-search-q")
    box.send_keys("zzyzx")
    browser.wait_for("!document.querySelector('.search-popup').hidden")
    assert browser.js("return document.querySelector('.site-search [role=status]').textContent") == "No photo matches “zzyzx”"
    assert browser.js("return document.querySelector('.popup-note').textContent") == "No photo matches “zzyzx”"
    assert browser.js("return document.querySelectorAll('[role=option]').length") == 0
    box.send_keys(Keys.ENTER)  # no option active: the Search page
    browser.wait_for("location.pathname.endsWith('search/index.html')")


@pytest.mark.parametrize("scheme", ["http", "subpath", "file"])
def test_the_header_box_leads_to_the_search_page(browser, gallery, scheme):
    browser.open(gallery.base(scheme) + "index.html")
    box = browser.find_element(By.ID, "site-search-q")
    box.send_keys("lyon" + Keys.ENTER)
    browser.wait_for("location.pathname.endsWith('search/index.html')")
    assert "q=lyon" in browser.current_url
    found = results(browser)
    assert browser.js("return document.getElementById('search-q').value") == "lyon"
    assert len(found) == 21 and ZOOM_TITLE in found
