"""Phones: every kind of page fits the screen's width (nothing scrolls sideways) at 360 and 390 px."""

import pytest
from conftest import page_kinds, visit_as_a_returning_visitor


@pytest.mark.parametrize("width,height", [(360, 740), (390, 844)])
def test_no_page_is_wider_than_a_phone(browser, gallery, width, height):
    browser.viewport(width, height, mobile=True, scale=3)
    visit_as_a_returning_visitor(browser, gallery)
    wider = []
    for name, path in page_kinds(gallery).items():
        browser.open(gallery.url + path)
        browser.wait_for("document.fonts.status === 'loaded'")
        if name in ("favorites", "recents"):
            browser.wait_for("document.querySelector('.visitor-block h2')")
        overflow = browser.js("""var w = innerWidth, out = [];
            document.querySelectorAll('body *').forEach(function (e) {
                var r = e.getBoundingClientRect();
                if (r.width && r.right > w + 0.5 && !e.closest('.visually-hidden, .zoom-layer')) out.push(e.tagName + '.' + e.className);
            });
            return [document.documentElement.scrollWidth, out.slice(0, 5)]""")
        if overflow[0] > width:
            wider.append(f"{name}: {overflow[0]} px wide, past the edge: {overflow[1]}")
    assert wider == [], "\n".join(wider)


@pytest.mark.parametrize("width,height", [(360, 740), (390, 844)])
def test_the_home_page_shows_photos_on_its_first_screen(browser, gallery, width, height):
    browser.viewport(width, height, mobile=True, scale=3)
    browser.open(gallery.url + "index.html")
    top = browser.js("return document.querySelector('.photo-card img').getBoundingClientRect().top")
    assert top < height * 0.6, f"the first photo starts at {top:.0f} of {height} px"


def test_the_skip_link_takes_the_keyboard_to_the_content(browser, gallery):
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys
    browser.open(gallery.url + "places/index.html")
    ActionChains(browser.driver).send_keys(Keys.TAB).perform()
    assert browser.js("return document.activeElement.textContent") == "Skip to content"
    assert browser.js("return document.activeElement.getBoundingClientRect().top") >= 0, "it shows when focused"
    ActionChains(browser.driver).send_keys(Keys.ENTER).perform()
    browser.wait_for("document.activeElement.id === 'main'")
