"""axe-core 4 over every kind of page, in light and dark, on a desktop and a phone: no serious or
critical violation. The pages are seen as a returning visitor sees them (favorites and recents
drawn by the script), the photo page with its details open, and the header's search popup open."""

import pytest
from axe_selenium_python import Axe
from conftest import axe_core_script, page_kinds, visit_as_a_returning_visitor

SIZES = {"desktop": (1280, 900, 1, False), "phone": (390, 844, 3, True)}


def violations(browser, where: str) -> list[str]:
    axe = Axe(browser.driver, axe_core_script())
    axe.inject()
    results = axe.run(options="{resultTypes: ['violations']}")
    found = []
    for v in results["violations"]:
        if v["impact"] in ("serious", "critical"):
            targets = "; ".join(" ".join(node["target"]) for node in v["nodes"][:4])
            found.append(f"{where}: {v['id']} ({v['impact']}, {len(v['nodes'])}×) {targets}: {v['help']}")
    return found


def violations_on_every_kind_of_page(browser, gallery, label: str = "") -> list[str]:
    """Every kind of page of `gallery` as a returning visitor sees it (favorites and recents drawn by
    the script, the photo page with its details open), checked by axe-core."""
    visit_as_a_returning_visitor(browser, gallery)
    found = []
    for name, path in page_kinds(gallery).items():
        browser.open(gallery.url + path)
        if name in ("favorites", "favorites-place"):
            browser.wait_for("document.querySelector('#your-favorites')")
        elif name == "recents":
            browser.wait_for("document.querySelector('#recently-viewed')")
        elif name == "search":
            browser.wait_for("document.querySelectorAll('.search-results li').length > 0")
        elif name == "photo":
            browser.wait_for("document.querySelector('.zoom-layer')")
            if not browser.js("return document.body.classList.contains('details-open')"):
                browser.js("document.querySelector('[data-info]').click()")
            browser.wait_for("document.body.classList.contains('details-open')")
        found += violations(browser, f"{label}{name}")
    return found


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("size", list(SIZES))
def test_no_serious_violation_on_any_kind_of_page(browser, gallery, size, scheme):
    width, height, scale, mobile = SIZES[size]
    browser.viewport(width, height, mobile=mobile, scale=scale)
    browser.media(prefers_color_scheme=scheme, prefers_reduced_motion="reduce")
    found = violations_on_every_kind_of_page(browser, gallery)
    # The header's popup, open with results.
    browser.open(gallery.url + "places/index.html")
    browser.find_element("id", "site-search-q").send_keys("corner")
    browser.wait_for("!document.querySelector('.search-popup').hidden")
    found += violations(browser, "search popup")
    # The narrow masthead's menu, open.
    if mobile:
        browser.js("document.querySelector('.menu-button').click()")
        found += violations(browser, "menu")
    assert found == [], "\n".join(found)
