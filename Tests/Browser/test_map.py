"""The Map, in Chromium: markers where the Natural Earth projection puts known places (Reykjavik,
Sydney, Quito, one across the antimeridian, one far north), every request on the site's own
origin, from disk and under a sub-path, pan and zoom by keyboard, wheel and drag, clusters that
split as the visitor zooms, and a map whose links work without JavaScript. Its own small site:
catalogued places with coordinates, and a photo placed only by the GPS exiftool wrote into it."""
import math
import plistlib
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.actions import interaction
from selenium.webdriver.common.actions.action_builder import ActionBuilder
from selenium.webdriver.common.actions.mouse_button import MouseButton
from selenium.webdriver.common.actions.pointer_input import PointerInput

from conftest import Browser, SCHEMES, build, make_small, serve_public

# (file, title, place, latitude, longitude)
PLACED = [
    ("reykjavik.jpg", "Harbour in Reykjavik", "Reykjavík, Capital Region, Iceland", 64.1466, -21.9426),
    ("sydney.jpg", "Opera house", "Sydney, New South Wales, Australia", -33.8688, 151.2093),
    ("sydney-2.jpg", "Harbour bridge", "Sydney, New South Wales, Australia", -33.8523, 151.2108),
    ("taveuni-east.jpg", "Date line, east", "Taveuni, Northern Division, Fiji", -16.80, 179.98),
    ("taveuni-west.jpg", "Date line, west", "Taveuni, Northern Division, Fiji", -16.80, -179.98),
    ("longyearbyen.jpg", "Polar night", "Longyearbyen, Svalbard, Norway", 78.2232, 15.6267),
    ("paris.jpg", "Quai at dawn", "Paris, Île-de-France, France", 48.8566, 2.3522),
    ("paris-2.jpg", "Bridge at noon", "Paris, Île-de-France, France", 48.8606, 2.3376),
    ("fontainebleau.jpg", "Forest walk", "Fontainebleau, Île-de-France, France", 48.4047, 2.7016),
]
QUITO = (-0.1807, -78.4678)


def natural_earth(latitude: float, longitude: float) -> tuple[float, float]:
    """The Natural Earth projection (Šavrič et al. 2011) as published, scaled as Folio's maps are: the
    world 1000 units wide, (0, 0) at its top-left corner, y growing southwards."""
    def raw(phi, lam):
        x = lam * (0.870700 - 0.131979 * phi ** 2 - 0.013791 * phi ** 4 + 0.003971 * phi ** 10 - 0.001529 * phi ** 12)
        y = phi * (1.007226 + 0.015085 * phi ** 2 - 0.044475 * phi ** 6 + 0.028874 * phi ** 8 - 0.005916 * phi ** 10)
        return x, y
    scale = 1000 / (2 * raw(0, math.pi)[0])
    top = raw(math.pi / 2, 0)[1] * scale
    x, y = raw(math.radians(latitude), math.radians(longitude))
    return 500 + x * scale, top - y * scale


@pytest.fixture(scope="module")
def map_site():
    root = Path(tempfile.mkdtemp(prefix="folio-map-"))
    root.chmod(0o755)
    try:
        content = root / "content"
        content.mkdir()
        records = []
        for n, (name, title, place, latitude, longitude) in enumerate(PLACED):
            make_small(content / name, n)
            records.append({"path": name, "name": title, "user": "Ana", "place": place, "latitude": latitude, "longitude": longitude,
                            "uploaded": f"2026-10-{n + 1:02}T10:00:00Z"})
        make_small(content / "atlantis.jpg", 20)
        records.append({"path": "atlantis.jpg", "name": "Somewhere unknown", "user": "Ana", "place": "Atlantis"})
        with open(content / "places.plist", "wb") as file:
            plistlib.dump(records, file)
        # Placed by its own GPS alone, as a camera writes it: the gazetteer names its place.
        make_small(content / "quito.jpg", 30)
        subprocess.run(["exiftool", "-q", "-overwrite_original", f"-GPSLatitude={abs(QUITO[0])}", "-GPSLatitudeRef=S",
                        f"-GPSLongitude={abs(QUITO[1])}", "-GPSLongitudeRef=W", "-Artist=Ana", str(content / "quito.jpg")], check=True)
        build(root)
        yield from serve_public(root / "public", root)
    finally:
        shutil.rmtree(root, ignore_errors=True)


@pytest.fixture
def browser(chromium, map_site):
    b = Browser(chromium)
    b.viewport(1280, 900)
    b.media()
    chromium.execute_cdp_cmd("Emulation.setScriptExecutionDisabled", {"value": False})
    yield b
    chromium.execute_cdp_cmd("Emulation.setScriptExecutionDisabled", {"value": False})
    errors = [entry for entry in chromium.get_log("browser")
              if entry["level"] == "SEVERE" and "favicon.ico" not in entry["message"]]
    assert errors == [], "the page logged errors"


def markers(browser) -> list[dict]:
    return browser.js("""return Array.from(document.querySelectorAll('.map-world .map-markers a')).map(function (a) {
        var c = a.querySelector('circle'), r = c.getBoundingClientRect();
        return {name: a.getAttribute('aria-label'), href: a.getAttribute('href'), x: +c.getAttribute('cx'), y: +c.getAttribute('cy'),
                screenX: r.left + r.width / 2, screenY: r.top + r.height / 2, cluster: a.classList.contains('map-cluster')};
    });""")


def marker(browser, slug: str) -> dict:
    found = [m for m in markers(browser) if m["href"].endswith(f"places/{slug}.html")]
    assert len(found) == 1, f"one marker for {slug}: {markers(browser)}"
    return found[0]


def open_map(browser, base: str, places_loaded: bool = True):
    browser.open(base + "map/index.html")
    if places_loaded:
        browser.wait_for("window.folioMapPlaces && document.querySelectorAll('.map-world .map-markers a title').length > 0")


def view_box(browser) -> list[float]:
    return [float(n) for n in browser.js("return document.querySelector('.map-world .map-svg').getAttribute('viewBox')").split()]


@pytest.mark.parametrize("drawn_by", ["build", "script"])
def test_markers_land_where_the_projection_puts_known_places(browser, map_site, drawn_by):
    if drawn_by == "build":
        browser.driver.execute_cdp_cmd("Emulation.setScriptExecutionDisabled", {"value": True})
    open_map(browser, map_site.url, places_loaded=drawn_by == "script")
    quito = [m for m in markers(browser) if "quito" in m["href"]]
    assert len(quito) == 1, "the photo placed by its GPS alone is on the map"
    expected = {"reykjavik-capital-region-iceland": (64.1466, -21.9426),
                "sydney-new-south-wales-australia": (-33.86, 151.21),
                quito[0]["href"].split("/")[-1][:-len(".html")]: QUITO,
                "longyearbyen-svalbard-norway": (78.2232, 15.6267)}
    # The basemap's box on screen: where the world's (0, 0) and (1000, 520) are.
    box = browser.js("var r = document.querySelector('.map-world .map-basemap').getBoundingClientRect();"
                     "return [r.left, r.top, r.width, r.height];")
    for slug, (latitude, longitude) in expected.items():
        m = marker(browser, slug)
        x, y = natural_earth(latitude, longitude)
        # Within a place's rounding (1 km) and the map's tenths: 0.15 units is 6 km at the equator.
        assert abs(m["x"] - x) < 0.15 and abs(m["y"] - y) < 0.15, (slug, m, (x, y))
        # And on screen, where the same point of the drawn world is.
        assert abs(m["screenX"] - (box[0] + x / 1000 * box[2])) < 1.5, slug
        assert abs(m["screenY"] - (box[1] + y / 1000 * box[2])) < 1.5, slug
    # Both sides of the antimeridian make one place, at the world's edge, not in the Atlantic.
    taveuni = marker(browser, "taveuni-northern-division-fiji")
    east, west = natural_earth(-16.80, 180)[0], natural_earth(-16.80, -180)[0]
    assert min(abs(taveuni["x"] - east), abs(taveuni["x"] - west)) < 0.15, (taveuni, east, west)
    assert "2 photos" in taveuni["name"]
    assert not any("atlantis" in m["href"] for m in markers(browser)), "a place without coordinates is not on the map"


@pytest.mark.parametrize("scheme", ["http", "subpath"])
def test_every_request_stays_on_the_sites_origin(browser, map_site, scheme):
    base = map_site.base(scheme)
    for page in ["map/index.html", "places/sydney-new-south-wales-australia.html", "regions/new-south-wales.html"]:
        browser.open(base + page)
        if page.startswith("map/"):
            browser.wait_for("window.folioMapPlaces")
        browser.wait_for("Array.from(document.querySelectorAll('image')).length > 0")
        requested = browser.js("return performance.getEntriesByType('resource').map(function (e) { return e.name; })")
        assert any("/media/world-" in url and url.endswith(".svg") for url in requested), requested
        outside = [url for url in requested if not url.startswith(base)]
        assert outside == [], f"{page} asked another host: {outside}"
    # The basemap's own document asks for nothing more.
    svg = next((map_site.public / "media").glob("world-*.svg")).read_text()
    assert "http://" not in svg.replace('xmlns="http://www.w3.org/2000/svg"', "") and "https://" not in svg


@pytest.mark.parametrize("scheme", SCHEMES)
def test_the_map_works_from_disk_and_under_a_sub_path_and_its_markers_lead_to_places(browser, map_site, scheme):
    open_map(browser, map_site.base(scheme))
    # The basemap drew: its image has a size, and the places' script came.
    assert browser.js("return document.querySelector('.map-basemap').getBoundingClientRect().width") > 500
    sydney = marker(browser, "sydney-new-south-wales-australia")
    assert sydney["name"] == "Sydney, New South Wales, Australia: 2 photos"
    browser.js("document.querySelector('.map-world a[href$=\"places/sydney-new-south-wales-australia.html\"]')"
               ".dispatchEvent(new MouseEvent('click', {bubbles: true, cancelable: true, view: window}))")
    browser.wait_for("document.querySelector('h1') && document.querySelector('h1').textContent === 'Sydney'")
    # The place's page shows where it is.
    assert browser.js("return document.querySelectorAll('.map-locator .map-markers a').length") == 1


def test_keyboard_wheel_and_drag_pan_and_zoom(browser, map_site):
    open_map(browser, map_site.url)
    assert view_box(browser) == [0, 0, 1000, pytest.approx(520, abs=1)]
    stage = browser.find_element("css selector", ".map-world .map-stage")
    assert stage.get_attribute("tabindex") == "0"
    browser.js("arguments[0].focus()", stage)
    stage.send_keys("+")
    browser.wait_for("document.querySelector('.map-world .map-svg').getAttribute('viewBox').split(' ')[2] == 500")
    x = view_box(browser)[0]
    stage.send_keys("\ue014")  # ArrowRight: the world moves left, the view right
    browser.wait_for(f"+document.querySelector('.map-world .map-svg').getAttribute('viewBox').split(' ')[0] > {x + 1}")
    stage.send_keys("\ue015")  # ArrowDown
    stage.send_keys("0")
    browser.wait_for("document.querySelector('.map-world .map-svg').getAttribute('viewBox').split(' ')[2] == 1000")
    # The wheel zooms about the pointer: the point under it stays there.
    browser.js("""var s = arguments[0], r = s.getBoundingClientRect();
        s.dispatchEvent(new WheelEvent('wheel', {deltaY: -400, clientX: r.left + r.width * 0.25, clientY: r.top + r.height * 0.5,
                                                 bubbles: true, cancelable: true}));""", stage)
    browser.wait_for("document.querySelector('.map-world .map-svg').getAttribute('viewBox').split(' ')[2] < 900")
    left, top, width, height = view_box(browser)
    assert left + 0.25 * width == pytest.approx(250, abs=1)
    # A drag moves the view by as much as the pointer moved.
    ActionChains(browser.driver).move_to_element(stage).click_and_hold().move_by_offset(-120, 0).move_by_offset(-80, 0).release().perform()
    after = view_box(browser)
    browser.wait_for(f"+document.querySelector('.map-world .map-svg').getAttribute('viewBox').split(' ')[0] > {left + 1}")
    assert browser.js("return location.pathname").endswith("map/index.html"), "a drag is not a click on a marker"
    # The buttons say what they do.
    labels = browser.js("return Array.from(document.querySelectorAll('.map-controls button')).map(function (b) { return b.getAttribute('aria-label'); })")
    assert labels == ["Zoom in", "Zoom out", "The whole world"]
    assert after  # seen


def test_clusters_split_as_the_visitor_zooms_in(browser, map_site):
    open_map(browser, map_site.url)
    paris = marker(browser, "paris-ile-de-france-france")
    assert paris["cluster"] and paris["name"] == "Paris and 1 more place: 3 photos", paris
    assert not any("fontainebleau" in m["href"] for m in markers(browser))
    # A cluster's marker zooms in on it rather than leaving the map.
    for _ in range(3):
        browser.js("var a = document.querySelector('.map-world a[href$=\"places/paris-ile-de-france-france.html\"]');"
                   "if (a && a.classList.contains('map-cluster')) a.dispatchEvent(new MouseEvent('click', {bubbles: true, cancelable: true}));")
        browser.js("return new Promise(function (done) { setTimeout(done, 400); })")
    assert browser.js("return location.pathname").endswith("map/index.html")
    assert marker(browser, "paris-ile-de-france-france")["name"] == "Paris, Île-de-France, France: 2 photos"
    assert marker(browser, "fontainebleau-ile-de-france-france")["name"] == "Fontainebleau, Île-de-France, France: 1 photo"
    assert browser.js("return document.querySelector('.map-world [role=status]').textContent").startswith("Zoomed in")


def test_without_javascript_the_map_its_links_and_the_list_are_there(browser, map_site):
    browser.driver.execute_cdp_cmd("Emulation.setScriptExecutionDisabled", {"value": True})
    open_map(browser, map_site.url, places_loaded=False)
    found = markers(browser)
    assert len(found) >= 6
    for m in found:
        target = map_site.public / "map" / m["href"]
        assert target.resolve().exists(), m
        assert m["name"].endswith(" photo") or m["name"].endswith(" photos"), m
    listed = browser.js("return Array.from(document.querySelectorAll('.map-list li a')).map(function (a) { return a.textContent; })")
    assert listed[0].startswith("Paris") and "2 photos" in listed[0], listed
    assert not any("Atlantis" in text for text in listed)
    nav = browser.js("return Array.from(document.querySelectorAll('.site-nav a')).map(function (a) { return a.textContent; })")
    assert "Map" in nav


def test_on_a_phone_a_pinch_zooms_about_the_fingers_and_a_tap_follows_a_marker(browser, map_site):
    browser.viewport(390, 844, mobile=True, scale=3)
    open_map(browser, map_site.url)
    box = browser.js("var s = document.querySelector('.map-world .map-stage'), r = s.getBoundingClientRect();"
                     "return [r.left + s.clientLeft, r.top + s.clientTop, s.clientWidth, s.clientHeight];")
    mid = (round(box[0] + box[2] / 2), round(box[1] + box[3] / 2))
    left, top, width, _ = view_box(browser)
    world_before = (left + (mid[0] - box[0]) * width / box[2], top + (mid[1] - box[1]) * width / box[2])
    builder = ActionBuilder(browser.driver)
    one = builder.add_pointer_input(interaction.POINTER_TOUCH, "one")
    two = builder.add_pointer_input(interaction.POINTER_TOUCH, "two")
    one.create_pointer_move(x=mid[0] - 30, y=mid[1], duration=0)
    two.create_pointer_move(x=mid[0] + 30, y=mid[1], duration=0)
    one.create_pointer_down(button=MouseButton.LEFT)
    two.create_pointer_down(button=MouseButton.LEFT)
    for step in range(1, 7):
        one.create_pointer_move(x=mid[0] - 30 - 5 * step, y=mid[1], duration=40)
        two.create_pointer_move(x=mid[0] + 30 + 5 * step, y=mid[1], duration=40)
    one.create_pointer_up(MouseButton.LEFT)
    two.create_pointer_up(MouseButton.LEFT)
    builder.perform()
    left, top, width, _ = view_box(browser)
    assert 1000 / width == pytest.approx(120 / 60, rel=0.05), "fingers 60 → 120 px apart: twice as close"
    world_after = (left + (mid[0] - box[0]) * width / box[2], top + (mid[1] - box[1]) * width / box[2])
    assert math.dist(world_before, world_after) < 1, "the point between the fingers stays there"
    # A tap on a marker is a tap on its link (on a page of its own: Chromium makes no click of a tap
    # that follows a pinch as closely as a test's).
    open_map(browser, map_site.url)
    sydney = marker(browser, "sydney-new-south-wales-australia")
    assert not sydney["cluster"], sydney
    actions = ActionBuilder(browser.driver, mouse=PointerInput(interaction.POINTER_TOUCH, "finger"), duration=0)
    actions.pointer_action.move_to_location(round(sydney["screenX"]), round(sydney["screenY"])).pointer_down().pointer_up()
    actions.perform()
    browser.wait_for("document.querySelector('h1') && document.querySelector('h1').textContent === 'Sydney'")
