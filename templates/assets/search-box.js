/* Folio: the header's search box, whose popup lists the photos found as the visitor types. */
(function () {
  "use strict";

  var body = document.body;
  var root = Folio.root;
  var el = Folio.draw.el, thumbImage = Folio.draw.thumbImage, photoHref = Folio.draw.photoHref;
  var say = Folio.say, count = Folio.count, byline = Folio.draw.byline;
  var search = Folio.search, words = Folio.words, photoAt = Folio.photoAt, debounce = Folio.debounce;

  // The header's box: a combobox (WAI-ARIA 1.2) whose listbox of photos opens as the visitor
  // types. Focus stays in the box; the arrow keys move the active option (aria-activedescendant),
  // Enter opens it (or, with none active, the Search page); a live region says how many match.
  function headerSearch() {
    var form = document.querySelector(".site-search");
    var input = form && form.querySelector("input");
    if (!input || body.classList.contains("section-search")) return;
    var popup = el("div", { className: "search-popup", hidden: true });
    var listbox = el("ul", { role: "listbox", id: "search-popup-list", "aria-label": say("search.found") });
    var note = el("p", { className: "popup-note", hidden: true });
    var live = el("p", { className: "visually-hidden", role: "status" });
    popup.appendChild(note);
    popup.appendChild(listbox);
    form.appendChild(popup);
    form.appendChild(live);
    input.setAttribute("role", "combobox");
    input.setAttribute("aria-autocomplete", "list");
    input.setAttribute("aria-controls", "search-popup-list");
    input.setAttribute("aria-expanded", "false");
    var ticket = 0;
    var active = -1;

    function options() { return Array.prototype.slice.call(listbox.querySelectorAll("[role=option]")); }

    function activate(index) {
      var all = options();
      active = index < 0 || !all.length ? -1 : Math.min(all.length - 1, index);
      all.forEach(function (option, i) { option.setAttribute("aria-selected", i === active ? "true" : "false"); });
      if (active >= 0) {
        input.setAttribute("aria-activedescendant", all[active].id);
        all[active].scrollIntoView({ block: "nearest" });
      } else {
        input.removeAttribute("aria-activedescendant");
      }
    }

    function close() {
      popup.hidden = true;
      input.setAttribute("aria-expanded", "false");
      activate(-1);
    }

    function open() {
      popup.hidden = false;
      input.setAttribute("aria-expanded", "true");
    }

    function option(n, href, className, children, photo) {
      var attributes = { role: "option", id: "search-option-" + n, className: className, href: href, tabindex: "-1", "aria-selected": "false" };
      if (photo) attributes["data-photo"] = photo.id;
      return el("li", { role: "presentation" }, [el("a", attributes, children)]);
    }

    // A photo chosen here leads through all the results (sequence.js), as on the Search page,
    // whose results the list's line then leads to.
    var shown = null;
    function allResults(query) { return form.getAttribute("action") + "?q=" + encodeURIComponent(query); }
    if (Folio.sequence) {
      Folio.sequence.provide(popup, function () {
        return shown && shown.numbers.length ? { numbers: shown.numbers, title: say("search.list", { query: shown.query }),
                                                 href: new URL(allResults(shown.query), location.href).href } : null;
      });
    }

    var run = debounce(function () {
      var query = input.value.trim();
      var mine = ++ticket;
      if (!words(query).length) { close(); live.textContent = ""; return; }
      search(query).then(function (found) {
        return Promise.all(found.slice(0, 6).map(photoAt)).then(function (photos) {
          if (mine !== ticket) return;
          shown = { numbers: found, query: query };
          listbox.textContent = "";
          activate(-1);
          var said = found.length ? count("search.matches", found.length, { query: query }) : say("search.no-match", { query: query });
          note.hidden = found.length > 0;
          note.textContent = found.length ? "" : said;
          live.textContent = said;
          photos.filter(Boolean).forEach(function (photo, i) {
            listbox.appendChild(option(i, photoHref(photo), "", [
              thumbImage(photo, "44px"),
              el("span", { className: "popup-text" }, [
                el("span", { className: "popup-title", text: photo.title }),
                el("span", { className: "popup-subtitle", text: byline(photo) })
              ])
            ], photo));
          });
          if (found.length) {
            listbox.appendChild(option("all", allResults(query), "popup-all",
              [document.createTextNode(count("search.all-results", found.length) + " ›")]));
          }
          listbox.hidden = !found.length;
          open();
        });
      }).catch(function () { close(); });
    }, 120);

    input.addEventListener("input", run);
    // Coming back to the box from elsewhere shows the last results again.
    input.addEventListener("focus", function (event) {
      if ((options().length || !note.hidden) && input.value.trim() && !form.contains(event.relatedTarget)) open();
    });
    input.addEventListener("keydown", function (event) {
      if (event.altKey || event.ctrlKey || event.metaKey) return;
      var all = options();
      if (event.key === "Escape") {
        if (!popup.hidden) { close(); event.preventDefault(); event.stopPropagation(); }
      } else if (event.key === "ArrowDown" && !popup.hidden && all.length) {
        activate(active + 1);
        event.preventDefault();
      } else if (event.key === "ArrowUp" && !popup.hidden && active >= 0) {
        activate(active - 1);
        event.preventDefault();
      } else if (event.key === "Enter" && !popup.hidden && active >= 0) {
        event.preventDefault();
        all[active].click(); // a click, so the photo takes its list along
      }
    });
    listbox.addEventListener("pointermove", function (event) {
      var target = event.target.closest && event.target.closest("[role=option]");
      if (target) activate(options().indexOf(target));
    });
    document.addEventListener("pointerdown", function (event) { if (!form.contains(event.target)) close(); });
    form.addEventListener("focusout", function () {
      setTimeout(function () { if (!form.contains(document.activeElement)) close(); }, 0);
    });
  }

  headerSearch();
})();
