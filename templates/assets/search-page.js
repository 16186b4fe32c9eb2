/* Folio: the Search page. Results as the visitor types, a page of them at a time. */
(function () {
  "use strict";

  var body = document.body;
  var el = Folio.draw.el, card = Folio.draw.card, say = Folio.say, count = Folio.count, byline = Folio.draw.byline;
  var search = Folio.search, words = Folio.words, meta = Folio.meta, photoAt = Folio.photoAt, debounce = Folio.debounce;
  var markCards = Folio.markCards;

  function searchPage() {
    if (!body.classList.contains("section-search")) return;
    var input = document.getElementById("search-q");
    var status = document.querySelector(".search-status");
    var results = document.querySelector(".search-results");
    var more = document.querySelector(".search-more");
    if (!input || !status || !results) return;
    var PAGE = 48;
    var matches = [];
    var shownCount = 0;
    var ticket = 0;

    function showMore() {
      var mine = ticket;
      var next = matches.slice(shownCount, shownCount + PAGE);
      shownCount += next.length;
      more.hidden = shownCount >= matches.length;
      return Promise.all(next.map(photoAt)).then(function (photos) {
        if (mine !== ticket) return;
        photos.forEach(function (photo) {
          if (photo) results.appendChild(el("li", {}, [card(photo, byline(photo))]));
        });
        markCards();
      });
    }

    function run() {
      var query = input.value.trim();
      var mine = ++ticket;
      try {
        var url = new URL(location.href);
        if (query) url.searchParams.set("q", query); else url.searchParams.delete("q");
        history.replaceState(null, "", url.href);
      } catch (e) { /* some file:// setups refuse; the results still show */ }
      if (!words(query).length) {
        results.textContent = "";
        more.hidden = true;
        meta().then(function (m) {
          if (mine === ticket) status.textContent = say("search.prompt", { photos: count("count.photos", m.photos) });
        }, function () { status.textContent = say("search.missing"); });
        return;
      }
      search(query).then(function (found) {
        if (mine !== ticket) return;
        matches = found;
        shownCount = 0;
        results.textContent = "";
        status.textContent = found.length ? count("search.matches", found.length, { query: query }) : say("search.no-match", { query: query });
        return showMore();
      }, function () {
        if (mine === ticket) status.textContent = say("search.missing");
      });
    }

    // A result chosen leads through all the results, not only those shown yet.
    Folio.sequence.provide(results, function () {
      var query = input.value.trim();
      return matches.length ? { numbers: matches, title: say("search.list", { query: query }) } : null;
    });
        more.querySelector("button").addEventListener("click", showMore);
    input.addEventListener("input", debounce(run, 120));
    input.form.addEventListener("submit", function (event) { event.preventDefault(); run(); });
    var q = new URLSearchParams(location.search).get("q");
    if (q) input.value = q;
    run();
    if (!q) input.focus();
  }

  searchPage();
})();
