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
