"""The photo viewer: the photo first (a stage nothing covers, filled or fitted as the photo and the
screen call for), zoom, pan, navigation, details, deep-zoom tiles."""

import json
import math
import re
import time

import pytest
from PIL import Image
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.actions import interaction
from selenium.webdriver.common.actions.action_builder import ActionBuilder
from selenium.webdriver.common.actions.mouse_button import MouseButton
from selenium.webdriver.common.actions.pointer_input import PointerInput
from selenium.webdriver.common.actions.wheel_input import ScrollOrigin
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from conftest import ZOOM_TITLE

LANDSCAPE = "Portree harbour"  # 1800 × 1200, tiles at one level
PORTRAIT = "Bamboo grove"      # 1200 × 1800

# Where the photo is on the stage, from the DOM: the image's box and the stage's.
GEOMETRY = """
var f = document.querySelector('.photo-figure'), i = f.querySelector('.photo-image'), l = f.querySelector('.zoom-layer');
var r = i.getBoundingClientRect(), s = f.getBoundingClientRect();
return {left: r.left - s.left, top: r.top - s.top, width: r.width, height: r.height,
        stageLeft: s.left, stageTop: s.top, stageW: s.width, stageH: s.height, vw: innerWidth, vh: innerHeight,
        W: +f.dataset.width, H: +f.dataset.height, layer: !!l, transform: l ? l.style.transform : '',
        details: document.body.classList.contains('details-open'), dpr: devicePixelRatio,
        covered: Array.from(document.querySelectorAll('.masthead, .photo-info')).some(function (e) {
            var b = e.getBoundingClientRect();
            return b.width > 0 && b.height > 0 && b.left < s.right - 0.5 && b.right > s.left + 0.5 && b.top < s.bottom - 0.5 && b.bottom > s.top + 0.5; })};
"""


def geometry(browser):
    """The geometry once it has stopped changing (the viewer draws on animation frames)."""
    last = browser.js(GEOMETRY)
    for _ in range(100):
        time.sleep(0.04)
        now = browser.js(GEOMETRY)
        if now == last:
            break
        last = now
    last["scale"] = last["width"] / last["W"]
    last["fill"] = max(last["stageW"] / last["W"], last["stageH"] / last["H"])
    last["fit"] = min(last["stageW"] / last["W"], last["stageH"] / last["H"])
    return last


def image_point(g, x, y):
    """The original's pixel under stage point (x, y)."""
    return ((x - g["left"]) / g["scale"], (y - g["top"]) / g["scale"])


def open_photo(browser, gallery, title, scheme="http", reduced=True):
    if reduced:
        browser.media(prefers_reduced_motion="reduce")
    browser.open(gallery.base(scheme) + gallery.photo_page(title))
    browser.wait_for("document.querySelector('.zoom-layer') && document.querySelector('.photo-image').complete")
    return geometry(browser)


def press(browser, keys):
    ActionChains(browser.driver).send_keys(keys).perform()


def assert_stage(g):
    """The stage: the window's width (less the details beside it) below the masthead, and nothing on it."""
    assert g["stageLeft"] == 0 and g["stageTop"] > 0
    assert g["stageW"] == g["vw"] or (g["details"] and g["stageW"] < g["vw"]), "beside the details, or the whole width"
    assert g["stageH"] > 0.75 * g["vh"], "most of the window's height"
    assert not g["covered"], "neither the masthead nor the details sit on the photo"


def assert_fills(g):
    tolerance = 0.75
    assert_stage(g)
    assert g["left"] <= tolerance and g["top"] <= tolerance, "no gap at the top or left"
    assert g["left"] + g["width"] >= g["stageW"] - tolerance, "no gap at the right"
    assert g["top"] + g["height"] >= g["stageH"] - tolerance, "no gap at the bottom"
    assert abs(g["left"] + g["width"] / 2 - g["stageW"] / 2) <= tolerance, "centred across"
    assert abs(g["top"] + g["height"] / 2 - g["stageH"] / 2) <= tolerance, "centred down"
    assert min(g["width"] - g["stageW"], g["height"] - g["stageH"]) <= tolerance, "no larger than it needs to be"
    assert abs(g["width"] / g["height"] - g["W"] / g["H"]) < 0.01, "not distorted"


def assert_fits(g):
    tolerance = 0.75
    assert_stage(g)
    assert g["scale"] == pytest.approx(g["fit"], rel=1e-3), "the whole photo"
    assert abs(g["left"] + g["width"] / 2 - g["stageW"] / 2) <= tolerance, "centred across"
    assert abs(g["top"] + g["height"] / 2 - g["stageH"] / 2) <= tolerance, "centred down"


# How each photo opens: filled where that hides at most a third of it, else fitted.
OPENING = [
    ((1280, 900, 1), LANDSCAPE, "fill"),   # a 3:2 photo beside the details: 71% of it shows when filled
    ((1280, 900, 1), PORTRAIT, "fit"),     # a 2:3 photo on a landscape stage would lose 37%
    ((390, 844, 3), LANDSCAPE, "fit"),     # a landscape photo on a portrait phone would lose 65%
    ((390, 844, 3), PORTRAIT, "fill"),     # 80% shows, at 1.2 device pixels per pixel
]


@pytest.mark.parametrize("scheme", ["http", "file"])
@pytest.mark.parametrize("size,title,view", OPENING, ids=["desktop-landscape", "desktop-portrait", "phone-landscape", "phone-portrait"])
def test_the_photo_opens_unobstructed_filled_or_fitted(browser, gallery, scheme, size, title, view):
    browser.viewport(size[0], size[1], mobile=size[0] < 600, scale=size[2])
    g = open_photo(browser, gallery, title, scheme)
    assert g["details"] == (size[0] >= 900), "details beside the photo on a wide screen, a title line on a phone"
    if view == "fill":
        assert_fills(g)
    else:
        assert_fits(g)
    pressed = browser.js("return document.querySelector('[data-zoom=fill]').getAttribute('aria-pressed')")
    assert pressed == ("true" if view == "fill" else "false"), "⤢ says whether the photo fills the stage"
    # The rendition the browser chose (srcset and sizes) is sharp at that size.
    chosen = browser.js("""
        var i = document.querySelector('.photo-image'), c = i.currentSrc;
        var m = i.getAttribute('srcset').split(',').map(function (s) { return s.trim().split(' '); })
                 .filter(function (p) { return c.endsWith(p[0].replace(/^(\\.\\.\\/)+/, '')); })[0];
        var largest = Math.max.apply(null, i.getAttribute('srcset').split(',').map(function (s) { return parseInt(s.trim().split(' ')[1], 10); }));
        return [i.naturalWidth, m ? parseInt(m[1], 10) : 0, largest];""")
    assert chosen[0] > 0, "the image loaded"
    assert chosen[1] >= min(g["width"], chosen[2]) - 1, f"a rendition of {chosen[1]} px for {g['width']:.0f} px on screen"


def test_the_window_changing_size_chooses_again(browser, gallery):
    assert_fills(open_photo(browser, gallery, LANDSCAPE))
    browser.viewport(700, 1000)
    browser.wait_for("Math.abs(document.querySelector('.photo-figure').clientWidth - innerWidth) < 1")
    assert_fits(geometry(browser))
    browser.viewport(1280, 900)
    browser.wait_for("document.querySelector('.photo-figure').clientWidth < innerWidth")
    assert_fills(geometry(browser))


def test_the_fill_button_and_0_toggle_fill_and_fit(browser, gallery):
    assert_fills(open_photo(browser, gallery, LANDSCAPE))
    browser.find_element(By.CSS_SELECTOR, "[data-zoom=fill]").click()
    assert_fits(geometry(browser))
    assert browser.js("return document.querySelector('[data-zoom=fill]').getAttribute('aria-pressed')") == "false"
    press(browser, "0")
    assert_fills(geometry(browser))
    assert browser.js("return document.querySelector('[data-zoom=fill]').getAttribute('aria-pressed')") == "true"


def test_a_small_original_is_not_enlarged_until_soft(browser, gallery):
    """Filling the desktop stage with a 480 × 320 photo would take it to 2.6 times its pixels:
    it opens at 1.5 times, centred, the ⤢ button still filling the stage for a visitor who wants it."""
    g = open_photo(browser, gallery, "Street corner 03")
    assert (g["W"], g["H"]) == (480, 320)
    assert g["scale"] == pytest.approx(1.5, rel=1e-3)
    assert abs(g["left"] + g["width"] / 2 - g["stageW"] / 2) <= 0.75 and abs(g["top"] + g["height"] / 2 - g["stageH"] / 2) <= 0.75
    browser.find_element(By.CSS_SELECTOR, "[data-zoom=fill]").click()
    assert_fills(geometry(browser))
    # On a 3x phone its own size in CSS pixels is already 3 device pixels a pixel: fitted, no larger.
    browser.viewport(390, 844, mobile=True, scale=3)
    g = open_photo(browser, gallery, "Street corner 03")
    assert_fits(g)


def test_wheel_zooms_about_the_pointer_and_back(browser, gallery):
    g0 = open_photo(browser, gallery, LANDSCAPE)
    x, y = 300, 200
    before = image_point(g0, x, y)
    origin = ScrollOrigin.from_viewport(int(x + g0["stageLeft"]), int(y + g0["stageTop"]))
    ActionChains(browser.driver).scroll_from_origin(origin, 0, -240).perform()
    g1 = geometry(browser)
    assert g1["scale"] > g0["scale"] * 1.2
    after = image_point(g1, x, y)
    assert math.dist(before, after) < 1, "the point under the pointer stays under it"
    ActionChains(browser.driver).scroll_from_origin(origin, 0, 240).perform()
    g2 = geometry(browser)
    assert g2["scale"] == pytest.approx(g0["scale"], rel=1e-3)
    assert_fills(g2)
    # Far out: the whole photo, centred (the only time there is space around it).
    for _ in range(4):
        ActionChains(browser.driver).scroll_from_origin(origin, 0, 600).perform()
    g3 = geometry(browser)
    assert g3["scale"] == pytest.approx(g3["fit"], rel=1e-3)
    assert abs(g3["left"] + g3["width"] / 2 - g3["stageW"] / 2) < 1


def test_keyboard_zooms_pans_and_resets(browser, gallery):
    g0 = open_photo(browser, gallery, LANDSCAPE)
    press(browser, "+")
    g1 = geometry(browser)
    assert g1["scale"] == pytest.approx(g0["scale"] * 1.5, rel=1e-3)
    centre = image_point(g0, g0["stageW"] / 2, g0["stageH"] / 2)
    assert math.dist(centre, image_point(g1, g1["stageW"] / 2, g1["stageH"] / 2)) < 1, "zooms about the centre"
    press(browser, Keys.ARROW_RIGHT)
    g2 = geometry(browser)
    assert g2["left"] == pytest.approx(g1["left"] - 0.2 * g1["stageW"], abs=1), "→ pans when zoomed in"
    assert g2["scale"] == g1["scale"]
    press(browser, Keys.ARROW_UP)
    g3 = geometry(browser)
    assert g3["top"] == pytest.approx(min(0, g2["top"] + 0.2 * g2["stageH"]), abs=1)
    press(browser, "=")
    assert geometry(browser)["scale"] == pytest.approx(g0["scale"] * 2.0, rel=1e-3), "as far as twice the fill here"
    press(browser, "-")
    assert geometry(browser)["scale"] == pytest.approx(g0["scale"] * 2.0 / 1.5, rel=1e-3)
    press(browser, "0")  # zoomed in: back to filling the stage
    g4 = geometry(browser)
    assert g4["scale"] == pytest.approx(g0["scale"], rel=1e-6)
    assert_fills(g4)
    assert browser.current_url.endswith(gallery.photo_page(LANDSCAPE)), "no navigation while zoomed"


def test_double_click_zooms_in_there_and_back_out(browser, gallery):
    g0 = open_photo(browser, gallery, LANDSCAPE)
    figure = browser.find_element(By.CSS_SELECTOR, ".photo-figure")
    x, y = 500, 300
    before = image_point(g0, x, y)
    ActionChains(browser.driver).move_to_element_with_offset(figure, x - g0["stageW"] / 2, y - g0["stageH"] / 2).double_click().perform()
    g1 = geometry(browser)
    assert g1["scale"] == pytest.approx(g0["scale"] * 2, rel=1e-3), "up to the limit of this photo (twice the fill)"
    assert math.dist(before, image_point(g1, x, y)) < 1
    ActionChains(browser.driver).double_click().perform()
    g2 = geometry(browser)
    assert g2["scale"] == pytest.approx(g0["scale"], rel=1e-6)
    time.sleep(0.4)
    assert geometry(browser)["details"], "a double-click does not toggle the details"


def test_dragging_pans_within_the_photo(browser, gallery):
    g0 = open_photo(browser, gallery, LANDSCAPE)
    press(browser, "+")
    g1 = geometry(browser)
    figure = browser.find_element(By.CSS_SELECTOR, ".photo-figure")
    ActionChains(browser.driver).move_to_element(figure).click_and_hold().move_by_offset(-60, -40) \
        .move_by_offset(-60, -40).release().perform()
    g2 = geometry(browser)
    assert (g2["left"], g2["top"]) == (pytest.approx(g1["left"] - 120, abs=1), pytest.approx(g1["top"] - 80, abs=1))
    # Far beyond the edge: it stops at the edge, never showing space beside the photo.
    ActionChains(browser.driver).move_to_element(figure).click_and_hold().move_by_offset(330, 160).move_by_offset(330, 160).release().perform()
    g3 = geometry(browser)
    assert (g3["left"], g3["top"]) == (pytest.approx(0, abs=0.5), pytest.approx(0, abs=0.5))
    time.sleep(0.4)
    assert geometry(browser)["details"], "a drag is not a click"


DETAILS_SHOWN = "getComputedStyle(document.querySelector('.photo-details')).display !== 'none'"
EXPANDED = "document.querySelector('[data-info]').getAttribute('aria-expanded')"


def test_a_click_shows_and_hides_the_details(browser, gallery):
    g0 = open_photo(browser, gallery, LANDSCAPE)
    assert browser.js("return " + DETAILS_SHOWN), "beside the photo on arrival, on a wide screen"
    figure = browser.find_element(By.CSS_SELECTOR, ".photo-figure")
    ActionChains(browser.driver).move_to_element_with_offset(figure, -200, 0).click().perform()
    browser.wait_for("!document.body.classList.contains('details-open')")
    assert not browser.js("return " + DETAILS_SHOWN)
    assert browser.js("return " + EXPANDED) == "false"
    g1 = geometry(browser)
    assert g1["stageW"] > g0["stageW"], "the photo takes the room the details leave"
    assert_fills(g1)
    assert browser.js("return document.querySelector('.photo-info h1').getBoundingClientRect().height") > 0, "the title line stays"
    ActionChains(browser.driver).move_to_element_with_offset(figure, -200, 0).click().perform()
    browser.wait_for("document.body.classList.contains('details-open')")
    assert browser.js("return " + DETAILS_SHOWN)
    press(browser, "i")
    browser.wait_for("!document.body.classList.contains('details-open')")
    # Closed, they stay closed on the next photo (this visit), until opened again.
    press(browser, Keys.ARROW_RIGHT)
    browser.wait_for("document.querySelector('.zoom-layer') && !document.body.classList.contains('details-open')")
    press(browser, "i")
    browser.wait_for("document.body.classList.contains('details-open')")


def test_on_a_phone_the_details_are_a_title_line_a_tap_opens(browser, gallery):
    browser.viewport(390, 844, mobile=True, scale=3)
    g0 = open_photo(browser, gallery, PORTRAIT)
    assert not browser.js("return " + DETAILS_SHOWN)
    bar = browser.js("return document.querySelector('.photo-info').getBoundingClientRect().toJSON()")
    assert bar["height"] <= 64 and bar["top"] >= g0["stageTop"] + g0["stageH"] - 0.5, "a title line below the photo"
    # A title longer than the line wraps (two lines at most) rather than being cut off.
    assert browser.js("return getComputedStyle(document.querySelector('.photo-info h1')).whiteSpace") == "normal"
    actions = touch(browser, duration=0)
    actions.pointer_action.move_to_location(195, 400).pointer_down().pointer_up()
    actions.perform()
    browser.wait_for("document.body.classList.contains('details-open')")
    assert browser.js("return " + DETAILS_SHOWN) and browser.js("return " + EXPANDED) == "true"
    assert geometry(browser)["stageH"] == g0["stageH"], "the photo does not jump: the sheet goes over it while asked for"
    browser.find_element(By.CSS_SELECTOR, "[data-info]").click()
    browser.wait_for("!document.body.classList.contains('details-open')")


def test_arrow_keys_go_to_the_previous_and_next_photo_when_not_zoomed(browser, gallery):
    open_photo(browser, gallery, LANDSCAPE)
    start = browser.current_url
    following = browser.js("return document.querySelector('a[rel=next]').href")
    press(browser, Keys.ARROW_RIGHT)
    browser.wait_for(f"location.href === {following!r}")
    browser.wait_for("document.querySelector('.zoom-layer')")
    press(browser, Keys.ARROW_LEFT)
    browser.wait_for(f"location.href === {start!r}")


def touch(browser, duration=60):
    return ActionBuilder(browser.driver, mouse=PointerInput(interaction.POINTER_TOUCH, "finger"), duration=duration)


def test_a_swipe_goes_to_the_next_photo(browser, gallery):
    browser.viewport(390, 844, mobile=True)
    open_photo(browser, gallery, LANDSCAPE)
    following = browser.js("return document.querySelector('a[rel=next]').href")
    actions = touch(browser)
    actions.pointer_action.move_to_location(300, 400).pointer_down() \
        .move_to_location(220, 405).move_to_location(80, 410).pointer_up()
    actions.perform()
    browser.wait_for(f"location.href === {following!r}")


def test_a_double_tap_zooms_in_there(browser, gallery):
    browser.viewport(390, 844, mobile=True)
    g0 = open_photo(browser, gallery, PORTRAIT)
    before = image_point(g0, 200, 500 - g0["stageTop"])
    actions = touch(browser, duration=0)
    actions.pointer_action.move_to_location(200, 500).pointer_down().pointer_up().pause(0.08).pointer_down().pointer_up()
    actions.perform()
    g1 = geometry(browser)
    assert g1["scale"] == pytest.approx(1.0), "2.5 × the fill, but no further than the original's resolution (it has tiles)"
    assert math.dist(before, image_point(g1, 200, 500 - g1["stageTop"])) < 1


def test_pinch_zooms_about_the_fingers(browser, gallery):
    browser.viewport(390, 844, mobile=True)
    g0 = open_photo(browser, gallery, PORTRAIT)  # filled: larger than the stage both ways once pinched
    mid = (195, 420 - g0["stageTop"])
    before = image_point(g0, *mid)
    builder = ActionBuilder(browser.driver)
    one = builder.add_pointer_input(interaction.POINTER_TOUCH, "one")
    two = builder.add_pointer_input(interaction.POINTER_TOUCH, "two")
    one.create_pointer_move(x=165, y=420, duration=0)
    two.create_pointer_move(x=225, y=420, duration=0)
    one.create_pointer_down(button=MouseButton.LEFT)
    two.create_pointer_down(button=MouseButton.LEFT)
    for step in range(1, 6):
        one.create_pointer_move(x=165 - 5 * step, y=420, duration=40)
        two.create_pointer_move(x=225 + 5 * step, y=420, duration=40)
    one.create_pointer_up(MouseButton.LEFT)
    two.create_pointer_up(MouseButton.LEFT)
    builder.perform()
    g1 = geometry(browser)
    assert g1["scale"] == pytest.approx(g0["scale"] * 110 / 60, rel=0.02), "fingers 60 → 110 px apart"
    assert math.dist(before, image_point(g1, *mid)) < 1.5, "the point between the fingers stays there"


def test_reduced_motion_is_respected(browser, gallery):
    open_photo(browser, gallery, LANDSCAPE, reduced=False)
    press(browser, "+")
    assert browser.wait_for("document.querySelector('.zoom-layer').classList.contains('is-animated')")
    browser.media(prefers_reduced_motion="reduce")
    press(browser, "0")
    time.sleep(0.1)
    assert not browser.js("return document.querySelector('.zoom-layer').classList.contains('is-animated')")
    assert browser.js("return getComputedStyle(document.querySelector('.zoom-layer')).transitionDuration") in ("0s", "")


def test_without_javascript_it_is_a_plain_image_page(browser, gallery):
    browser.driver.execute_cdp_cmd("Emulation.setScriptExecutionDisabled", {"value": True})
    browser.driver.get(gallery.url + gallery.photo_page(LANDSCAPE))
    state = browser.driver.execute_cdp_cmd("Runtime.evaluate", {"returnByValue": True, "expression": """({
        position: getComputedStyle(document.querySelector('.photo-figure')).position,
        controls: getComputedStyle(document.querySelector('.viewer-controls')).display,
        toggle: getComputedStyle(document.querySelector('.favorite-toggle')).display,
        layer: !!document.querySelector('.zoom-layer'),
        loaded: document.querySelector('.photo-image').naturalWidth > 0,
        info: getComputedStyle(document.querySelector('.photo-info')).position })"""})["result"]["value"]
    assert state == {"position": "static", "controls": "none", "toggle": "none", "layer": False, "loaded": True, "info": "static"}


# --- Deep zoom -------------------------------------------------------------------------------

RESOURCES = "return performance.getEntriesByType('resource').map(function (e) { return e.name; })"


def tile_requests(browser, base):
    names = browser.js(RESOURCES)
    found = []
    for name in names:
        if name.startswith(base):
            match = re.fullmatch(r"(\d+)/(\d+)_(\d+)\.\w+", name[len(base):])
            assert match, name
            found.append(tuple(int(v) for v in match.groups()))
    return found


def visible_tiles(g, pyramid, level):
    """Every tile of `level` that shows some of the stage, by the grid the build describes."""
    f = 2 ** (pyramid["maxLevel"] - level)
    size = pyramid["tileSize"] * f
    grid = next(l for l in pyramid["levels"] if l["level"] == level)
    x0, y0 = image_point(g, 0, 0)
    x1, y1 = image_point(g, g["stageW"], g["stageH"])
    return {(level, c, r) for c in range(grid["columns"]) for r in range(grid["rows"])
            if c * size < x1 and (c + 1) * size > x0 and r * size < y1 and (r + 1) * size > y0}


def pyramid_of(browser):
    """The photo page's pyramid, as the build describes it (data-pyramid), and where its tiles are."""
    return browser.js("""var figure = document.querySelector('.photo-figure');
        var p = JSON.parse(figure.dataset.pyramid);
        p.base = new URL(figure.dataset.tiles, location.href).href;
        return p;""")


def test_the_pyramid_descriptor_names_every_tile_the_build_made(browser, gallery):
    open_photo(browser, gallery, ZOOM_TITLE)
    pyramid = pyramid_of(browser)
    folder = gallery.public / pyramid["base"][len(gallery.url):]
    assert [l["level"] for l in pyramid["levels"]] == list(range(pyramid["minLevel"], pyramid["maxLevel"] + 1))
    assert sorted(int(p.name) for p in folder.iterdir()) == [l["level"] for l in pyramid["levels"]]
    ts, ov = pyramid["tileSize"], pyramid["overlap"]
    for level in pyramid["levels"]:
        names = {p.name for p in (folder / str(level["level"])).iterdir()}
        assert names == {f"{c}_{r}.{pyramid['format']}" for c in range(level["columns"]) for r in range(level["rows"])}
        # The last tile ends where the level does: the level's size is the one the tiles were cut from.
        c, r = level["columns"] - 1, level["rows"] - 1
        with Image.open(folder / str(level["level"]) / f"{c}_{r}.{pyramid['format']}") as tile:
            assert tile.size == (level["width"] - (c * ts - ov), level["height"] - (r * ts - ov))


def wait_for_tiles(browser):
    browser.wait_for("document.querySelectorAll('.tile').length > 0 && "
                     "document.querySelectorAll('.tile:not(.is-loaded)').length === 0", timeout=10)
    time.sleep(0.2)


def test_deep_zoom_loads_only_the_tiles_on_screen(browser, gallery):
    g0 = open_photo(browser, gallery, ZOOM_TITLE)
    pyramid = pyramid_of(browser)
    assert pyramid["maxLevel"] == 12 and pyramid["minLevel"] == 11, "a real pyramid, built by folio"
    base = pyramid["base"]
    assert (gallery.public / base[len(gallery.url):] / "12").is_dir()
    assert tile_requests(browser, base) == [], "the screen rendition is enough to fill the screen"

    # Straight to the original's resolution (one CSS pixel per pixel of the photo), the four
    # presses in one go: typed one by one, a busy machine can leave the 120 ms the viewer waits
    # before asking for tiles between two of them, and the level passed through gets fetched.
    browser.js("for (var i = 0; i < 4; i++) document.body.dispatchEvent(new KeyboardEvent('keydown', {key: '+', bubbles: true}));")
    wait_for_tiles(browser)
    g1 = geometry(browser)
    assert g1["scale"] == pytest.approx(1.0)
    requested = tile_requests(browser, base)
    expected = visible_tiles(g1, pyramid, 12)
    assert len(requested) == len(set(requested)), "no tile twice"
    assert set(requested) == expected, "exactly the tiles on screen, at full resolution"
    assert len(expected) < 192 / 3, "a small part of the 16 × 12 tiles of the level"

    # The tiles sit where the Deep Zoom layout puts them.
    c, r = sorted(t for t in expected if t[1] > 0 and t[2] > 0)[0][1:]
    box = browser.js(f"return document.querySelector('.tile[src$=\"12/{c}_{r}.jpg\"]').getBoundingClientRect().toJSON()")
    assert box["left"] == pytest.approx(g1["stageLeft"] + g1["left"] + (c * 256 - 1) * g1["scale"], abs=0.5)
    assert box["top"] == pytest.approx(g1["stageTop"] + g1["top"] + (r * 256 - 1) * g1["scale"], abs=0.5)

    # Panning fetches the tiles that come into view, and only those. The arrow keys move the view
    # in one go, as the zoom above: a drag's pointer moves, on a busy machine, can leave the view
    # still for the 120 ms after which the viewer asks for the tiles of a place passed through.
    browser.js("for (var i = 0; i < 3; i++) for (var k of ['ArrowRight', 'ArrowDown'])"
               " document.body.dispatchEvent(new KeyboardEvent('keydown', {key: k, bubbles: true}));")
    wait_for_tiles(browser)
    g2 = geometry(browser)
    later = tile_requests(browser, base)[len(requested):]
    assert later, "new tiles for the new view"
    assert set(later) <= visible_tiles(g2, pyramid, 12)
    assert set(requested) | set(later) >= visible_tiles(g2, pyramid, 12)

    # Half way out, the 2000-pixel rendition is enough again (level 11, 2048 pixels wide, would
    # add nothing): no new tile (both presses in one go again).
    browser.js("for (var i = 0; i < 2; i++) document.body.dispatchEvent(new KeyboardEvent('keydown', {key: '-', bubbles: true}));")
    browser.wait_for("document.querySelector('.viewer-status').textContent === 'Zoomed in, 2 times the whole photo'")  # settled
    g3 = geometry(browser)
    assert g0["scale"] < g3["scale"] < 0.5
    assert tile_requests(browser, base)[len(requested) + len(later):] == []


def test_the_view_is_announced_once_it_settles(browser, gallery):
    open_photo(browser, gallery, LANDSCAPE)
    status = "document.querySelector('.viewer-status[role=status]').textContent"
    browser.wait_for(status + " === 'Filling the screen'")
    press(browser, "0")
    browser.wait_for(status + " === 'The whole photo'")
    press(browser, "+")
    browser.wait_for(status + " === 'Zoomed in, 1.5 times the whole photo'")


@pytest.mark.parametrize("size", [(1280, 900, 2, False), (390, 844, 3, True)], ids=["2x-desktop", "3x-phone"])
def test_no_tile_is_fetched_before_the_visitor_zooms_in(browser, gallery, size):
    """On a dense screen the opening view wants more pixels than the 2000-pixel rendition has
    (2,250 on a 2x desktop), but only a little: tiles wait for a zoom that needs clearly more."""
    browser.viewport(size[0], size[1], mobile=size[3], scale=size[2])
    open_photo(browser, gallery, ZOOM_TITLE)
    base = browser.js("return new URL(document.querySelector('.photo-figure').dataset.tiles, location.href).href")
    browser.wait_for("document.querySelector('.viewer-status').textContent !== ''")  # settled
    assert tile_requests(browser, base) == []
    browser.js("for (var i = 0; i < 3; i++) document.body.dispatchEvent(new KeyboardEvent('keydown', {key: '+', bubbles: true}));")
    wait_for_tiles(browser)
    assert tile_requests(browser, base), "zoomed in past the rendition: tiles"


def test_the_next_photos_rendition_is_fetched_once_this_one_is_shown(browser, gallery):
    open_photo(browser, gallery, LANDSCAPE)
    wanted = browser.js("return document.querySelector('.stage-next').dataset.srcset.split(', ').map(function (c) { return new URL(c.split(' ')[0], location.href).href; })")
    next_page = browser.js("return new URL(document.querySelector('a[rel=next]').getAttribute('href'), location.href).href")
    assert wanted and all("/media/" in url for url in wanted)
    browser.wait_for("%s.some(function (u) { return performance.getEntriesByType('resource').some(function (e) { return e.name === u; }); })"
                     % json.dumps(wanted))
    # One of them, the size this screen takes, and at low priority: nothing else of the next page.
    fetched = browser.js("return performance.getEntriesByType('resource').map(function (e) { return e.name; })")
    assert len([url for url in fetched if url in wanted]) == 1
    assert next_page not in fetched
