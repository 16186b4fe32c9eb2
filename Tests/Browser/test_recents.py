"""Recents: every photo view kept in localStorage, listed most recent first, each photo once,
nothing older than 48 hours, at most 50; one can be removed, or all. The clock is the test's:
Date.now() is replaced before any of the page's scripts run."""

import json

import pytest
from selenium.webdriver.common.by import By

HOUR = 3600 * 1000
T0 = 1_800_000_000_000  # 15 January 2027


def view(browser, gallery, title, at, scheme="http"):
    browser.set_clock(at)
    browser.open(gallery.base(scheme) + gallery.photo_page(title))
    browser.wait_for("window.Folio && Folio.recents.list().some(function (e) { return e.id === %r; })" % gallery.identifier(title))


def listed(browser, gallery, at, scheme="http"):
    """The Recents page at `at`: [(title, subtitle)] of the visitor's list."""
    browser.set_clock(at)
    browser.open(gallery.base(scheme) + "recents/index.html")
    browser.wait_for("document.querySelector('#recently-viewed')")
    return browser.js("""return Array.from(document.querySelectorAll('.recents-list li')).map(function (li) {
        return [li.querySelector('.row-title').textContent, li.querySelector('.row-subtitle').textContent]; })""")


@pytest.mark.parametrize("scheme", ["http", "subpath", "file"])
def test_most_recent_first_each_photo_once(browser, gallery, scheme):
    view(browser, gallery, "Fjord morning", T0, scheme)
    view(browser, gallery, "Harbor lights", T0 + 1 * HOUR, scheme)
    view(browser, gallery, "Bamboo grove", T0 + 2 * HOUR, scheme)
    view(browser, gallery, "Fjord morning", T0 + 3 * HOUR, scheme)
    rows = listed(browser, gallery, T0 + 3.5 * HOUR, scheme)
    assert [title for title, _ in rows] == ["Fjord morning", "Bamboo grove", "Harbor lights"]
    assert rows[0][1] == "Viewed 30 minutes ago · Ingrid · Geiranger"
    assert rows[2][1].startswith("Viewed 2 hours ago · Zoë · Èze")
    # With their thumbnails, and the page says what it shows now.
    browser.wait_for("Array.from(document.querySelectorAll('.recents-list img')).every(function (i) { return i.complete && i.naturalWidth > 0; })")
    assert browser.js("return document.querySelector('.page-header .subheading').textContent") == "The photos you looked at in the last 48 hours"
    assert browser.js("return getComputedStyle(document.querySelector('.photo-section')).display") == "none"


def test_nothing_older_than_48_hours(browser, gallery):
    view(browser, gallery, "Fjord morning", T0, scheme="http")
    view(browser, gallery, "Harbor lights", T0 + 40 * HOUR)
    assert [t for t, _ in listed(browser, gallery, T0 + 47.9 * HOUR)] == ["Harbor lights", "Fjord morning"]
    assert [t for t, _ in listed(browser, gallery, T0 + 48.1 * HOUR)] == ["Harbor lights"]
    assert listed(browser, gallery, T0 + 88.1 * HOUR) == []
    # A new view forgets what has expired, in storage too.
    view(browser, gallery, "Bamboo grove", T0 + 89 * HOUR)
    stored = browser.js("return Object.keys(localStorage).filter(function (k) { return k.startsWith('folio:recents:'); }).map(function (k) { return localStorage.getItem(k); })")
    assert [e["id"] for e in json.loads(stored[0])] == [gallery.identifier("Bamboo grove")]


def test_at_most_50(browser, gallery):
    identifiers = gallery.identifiers()
    assert len(identifiers) > 55, "the fixture has enough photos"
    browser.open(gallery.url + "recents/index.html")
    # 55 views a minute apart, through the page's own API under a controlled clock.
    browser.js("""var ids = arguments[0], t0 = arguments[1], real = Date.now;
        ids.forEach(function (id, i) { Date.now = function () { return t0 + i * 60000; }; Folio.recents.record(id); });
        Date.now = real;""", identifiers[:55], T0)
    rows = listed(browser, gallery, T0 + 60 * 60000)
    assert len(rows) == 50
    titles = browser.js("""return Array.from(document.querySelectorAll('.recents-list li')).map(function (li) { return li.getAttribute('data-recent'); })""")
    assert titles == list(reversed(identifiers[5:55]))
    assert rows[0][1].startswith("Viewed 6 minutes ago")


def test_remove_one_then_clear_all(browser, gallery):
    view(browser, gallery, "Fjord morning", T0)
    view(browser, gallery, "Harbor lights", T0 + HOUR)
    view(browser, gallery, "Bamboo grove", T0 + 2 * HOUR)
    listed(browser, gallery, T0 + 3 * HOUR)
    browser.js("window.stillHere = true")
    browser.find_element(By.CSS_SELECTOR, "[data-recent='%s'] .remove-row" % gallery.identifier("Harbor lights")).click()
    browser.wait_for("document.querySelectorAll('.recents-list li').length === 2")
    assert browser.js("return Array.from(document.querySelectorAll('.recents-list .row-title')).map(function (e) { return e.textContent; })") \
        == ["Bamboo grove", "Fjord morning"]
    browser.find_element(By.XPATH, "//button[normalize-space()='Clear all']").click()
    browser.wait_for("!document.querySelector('.recents-list')")
    assert browser.js("return window.stillHere") is True, "no reload"
    assert "48 hours" in browser.js("return document.querySelector('.visitor-recents .hint').textContent")
    assert browser.js("return getComputedStyle(document.querySelector('.photo-section')).display") == "block", \
        "the recently added photos are back"
    assert listed(browser, gallery, T0 + 3 * HOUR) == []


def test_without_javascript_recents_are_the_recently_added(browser, gallery):
    browser.driver.execute_cdp_cmd("Emulation.setScriptExecutionDisabled", {"value": True})
    browser.driver.get(gallery.url + "recents/index.html")
    cards = browser.driver.find_elements(By.CSS_SELECTOR, ".photo-section .photo-card")
    assert len(cards) == 50
    assert browser.driver.find_element(By.CSS_SELECTOR, ".page-header .subheading").text == "Recently added photos"
