/* Folio: previous and next through the list the visitor came from (Folio.sequence).

   A photo chosen on a listing keeps that list for the visitor's session: a list the build
   wrote (an album, a place, a region, a person, a place's favorites, the latest: the listing's
   <body data-sequence-file>, a search/data/s-*.js file of photo numbers, loaded as a script so
   it works from file://), or the photos a script drew (search results, the visitor's favorites,
   recents). On a photo's page previous, next, the arrows, the keys and swipes then lead through
   that list, whatever page of it the photo was on, the page says "n of N in <list>", and the
   next photo is fetched ahead only when it is the list's. A visitor arriving from elsewhere, or
   without JavaScript, follows the photo's album, as the page is written; the page says only
   "In <album>", and the script adds where the photo is in it from the album's list, so that a
   photo joining the album changes no other photo's page. */
(function () {
  "use strict";

  var body = document.body;
  var KEY = "folio:from:" + new URL(Folio.root || "./", location.href).href;

  function remember(from) {
    try { sessionStorage.setItem(KEY, JSON.stringify(from)); } catch (e) { /* private mode */ }
  }
  function recall() {
    try {
      var from = JSON.parse(sessionStorage.getItem(KEY) || "null");
      return from && typeof from === "object" && typeof from.title === "string" ? from : null;
    } catch (e) {
      return null;
    }
  }

  // Lists a script draws say what they are: provide(element, fn) makes fn() ({numbers: [...]}
  // or {ids: [...]}, a title, and where the list is shown when not on this page: href) the list
  // of the photos chosen inside element.
  var providers = [];
  function provide(element, fn) { providers.push({ element: element, list: fn }); }

  // The photos of the list shown, in its order (not those a script's list replaced and hid).
  function shownIds(scope) {
    var ids = [];
    scope.querySelectorAll("a[data-photo]").forEach(function (a) {
      var id = a.getAttribute("data-photo");
      if (ids.indexOf(id) < 0 && a.getClientRects().length) ids.push(id);
    });
    return ids;
  }

  function chosenFrom(link) {
    var file = body.getAttribute("data-sequence-file");
    var main = document.getElementById("main");
    // The build's list, unless a script added photos of its own beside it (a place's favorites
    // gets the visitor's): then the photos shown are the list.
    var added = main && Array.prototype.some.call(main.querySelectorAll("a[data-photo]"), function (a) {
      return !a.closest(".photo-sections") && a.getClientRects().length;
    });
    var replaced = main && main.querySelector(".photo-sections.is-replaced, .photo-sections[hidden]");
    if (file && !added && !replaced && !link.closest(".search-popup")) {
      return { key: body.getAttribute("data-sequence"), file: new URL(file, location.href).href,
               title: body.getAttribute("data-sequence-title") || "", href: location.href };
    }
    for (var i = 0; i < providers.length; i++) {
      if (providers[i].element.contains(link)) {
        var list = providers[i].list();
        if (list) { list.href = list.href || location.href; return list; }
      }
    }
    // Any other list of photos: the ones beside it, in the order shown.
    var ids = shownIds(link.closest(".search-popup, main") || document.body);
    var heading = document.querySelector("main h1");
    return { ids: ids, title: heading ? heading.textContent.trim() : document.title, href: location.href };
  }

  // A photo chosen (by click, middle click or keyboard) takes its list along: on a listing, and
  // on any page from the header's search popup.
  var choose = function (event) {
    var link = event.target.closest && event.target.closest("a[data-photo]");
    if (link) remember(chosenFrom(link));
  };
  document.addEventListener("click", choose, true);
  document.addEventListener("auxclick", choose, true);
  Folio.sequence = { provide: provide, recall: recall };

  var article = document.querySelector(".photo-page[data-photo]");
  if (!article) return;

  var id = article.getAttribute("data-photo");
  var from = recall();
  var written = article.querySelector(".photo-sequence");
  if (!written) return;
  // The album itself: the page's links stay as written, and its line says where the photo is.
  var own = !from || from.key && from.key === written.getAttribute("data-sequence");
  if (own) {
    var album = written.querySelector(".sequence-list");
    if (!album || !written.hasAttribute("data-sequence-file")) return;
    from = { key: written.getAttribute("data-sequence"), file: new URL(written.getAttribute("data-sequence-file"), location.href).href,
             title: album.textContent, href: album.getAttribute("href") };
  }

  // Another list than the album: the album's next photo is not fetched ahead until the list
  // says it is its next too.
  var stageNext = own ? null : article.querySelector(".stage-next");
  var ahead = {};
  if (stageNext) {
    ["data-srcset", "data-picture-srcset", "data-sizes"].forEach(function (name) {
      if (stageNext.hasAttribute(name)) { ahead[name] = stageNext.getAttribute(name); stageNext.removeAttribute(name); }
    });
  }
  function restoreAhead() {
    if (own) return;
    var link = article.querySelector(".stage-next");
    if (!link) return;
    Object.keys(ahead).forEach(function (name) { link.setAttribute(name, ahead[name]); });
    if (Folio.viewer && Folio.viewer.prefetchNext) Folio.viewer.prefetchNext();
  }

  // Where this photo is in a list of photo numbers, and the photos before and after it.
  function around(numbers) {
    return Folio.photoById(id).then(function (photo) {
      var at = photo && Array.isArray(numbers) ? numbers.indexOf(photo.n) : -1;
      if (at < 0) return null;
      return Promise.all([at > 0 ? Folio.photoAt(numbers[at - 1]) : null,
                          at + 1 < numbers.length ? Folio.photoAt(numbers[at + 1]) : null])
        .then(function (both) { return { at: at, count: numbers.length, previous: both[0], next: both[1] }; });
    });
  }

  function loadList(from) {
    if (from.file) return Folio.photoList(from.key, from.file).then(around);
    if (Array.isArray(from.numbers)) return around(from.numbers);
    var ids = Array.isArray(from.ids) ? from.ids : [];
    var at = ids.indexOf(id);
    if (at < 0) return Promise.resolve(null);
    return Promise.all([at > 0 ? Folio.photoById(ids[at - 1]) : null, at + 1 < ids.length ? Folio.photoById(ids[at + 1]) : null])
      .then(function (both) { return { at: at, count: ids.length, previous: both[0], next: both[1] }; });
  }

  var el = Folio.draw.el;
  function pagerLink(rel, photo) {
    var nav = article.querySelector(".photo-pager");
    var old = nav && nav.querySelector("a[rel='" + rel + "']");
    if (!photo) { if (old) old.remove(); return; }
    var link = el("a", { className: rel === "prev" ? "pager-previous" : "pager-next", rel: rel, href: Folio.draw.photoHref(photo) },
      rel === "prev"
        ? [document.createTextNode("‹ "), el("span", { className: "visually-hidden", text: Folio.say("photo.previous") + " " }), document.createTextNode(photo.title)]
        : [el("span", { className: "visually-hidden", text: Folio.say("photo.next") + " " }), document.createTextNode(photo.title + " ›")]);
    if (old) old.replaceWith(link);
    else if (nav) { if (rel === "prev") nav.prepend(link); else nav.append(link); }
  }
  function stageLink(rel, photo) {
    var name = rel === "prev" ? "stage-previous" : "stage-next";
    var old = article.querySelector("." + name);
    if (!photo) { if (old) old.remove(); return; }
    var link = el("a", { className: "stage-nav " + name, href: Folio.draw.photoHref(photo), tabindex: "-1", "aria-hidden": "true",
                         text: rel === "prev" ? "‹" : "›" });
    if (old) old.replaceWith(link);
    else article.querySelector(".photo-figure").after(link);
  }

  var before = { prev: (article.querySelector("a[rel='prev']") || {}).href, next: (article.querySelector("a[rel='next']") || {}).href };
  loadList(from).then(function (found) {
    if (!found) { restoreAhead(); return; }
    if (!own) {
      stageLink("prev", found.previous);
      stageLink("next", found.next);
      pagerLink("prev", found.previous);
      pagerLink("next", found.next);
    }
    written.textContent = "";
    Folio.sayNodes("photo.position", {
      count: el("span", { className: "sequence-count", text: Folio.say("photo.count", { number: Folio.number(found.at + 1), count: Folio.number(found.count) }) }),
      list: el("a", { className: "sequence-list", href: from.href, text: from.title })
    }).forEach(function (node) { written.appendChild(node); });
    written.hidden = false;
    written.setAttribute("data-sequence", from.key || "");
    // The list's next photo is the album's: it may be fetched ahead after all.
    if (found.next && Folio.draw.photoHref(found.next) && new URL(Folio.draw.photoHref(found.next), location.href).href === before.next) restoreAhead();
  }, restoreAhead);
})();
