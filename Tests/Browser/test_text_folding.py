"""Search folds text in two places: the build (Swift's SearchText) when it writes the index, and
the visitor's browser (assets/search.js) when they type. Here the script, in Chromium, folds the
few hundred hostile strings of Fixtures/folding.json (diacritics, ligatures, Turkish and German
casing, Greek final sigma, CJK, emoji, right-to-left text, NFD and NFC, nothing at all) and must
make of each what Swift made (its folding, its words, the words a query of it looks for):
SearchTextAgreementTests writes the file and checks it is current."""

import json
from pathlib import Path

import pytest

FIXTURE = Path(__file__).parent / "Fixtures" / "folding.json"


def spelled(text: str) -> str:
    return " ".join(f"U+{ord(c):04X}" for c in text) or "(empty)"


@pytest.mark.parametrize("scheme", ["http", "file"])
def test_the_script_folds_text_as_the_build_does(browser, gallery, scheme):
    cases = json.loads(FIXTURE.read_text(encoding="utf-8"))
    assert len(cases) > 300
    browser.open(gallery.base(scheme) + "search/index.html")
    browser.wait_for("window.Folio && typeof Folio.fold === 'function' && typeof Folio.queryWords === 'function'")
    made = browser.js("return arguments[0].map(function (t) { return [Folio.fold(t), Folio.words(t), Folio.queryWords(t)]; })",
                      [case["text"] for case in cases])
    differ = [f"{spelled(case['text'])}: Swift {case['fold']!r} {case['words']!r} {case['query']!r}, script {fold!r} {words!r} {query!r}"
              for case, (fold, words, query) in zip(cases, made) if (fold, words, query) != (case["fold"], case["words"], case["query"])]
    assert differ == [], f"{len(differ)} of {len(cases)} strings fold differently:\n" + "\n".join(differ[:40])
