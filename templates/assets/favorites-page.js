/* Folio: the Favorites page. The visitor's own favorites, grouped by place, beside the publisher's. */
(function () {
  "use strict";

  var body = document.body;
  var photosById = Folio.photosById, onChange = Folio.onChange;
  var root = Folio.root;
  var favorites = Folio.favorites;
  var el = Folio.draw.el, card = Folio.draw.card, say = Folio.say, count = Folio.count;

  function removeButton(photo, onRemove) {
    var button = el("button", {
      className: "remove-button", type: "button", title: say("favorites.remove"),
      "aria-label": say("favorites.remove-photo", { title: photo.title })
    }, [document.createTextNode("✕")]);
    button.addEventListener("click", function () { onRemove(photo); });
    return button;
  }

  function favoriteCards(photos, block) {
    var grid = el("ul", { className: "photo-grid" });
    photos.forEach(function (photo) {
      grid.appendChild(el("li", { "data-favorite": photo.id }, [
        card(photo, photo.person),
        removeButton(photo, function (p) {
          favorites.remove(p.id);
          block.focus();
        })
      ]));
    });
    return grid;
  }

  function favoritesPage() {
    if (!body.classList.contains("section-favorites")) return;
    var place = body.getAttribute("data-place");
    var main = document.getElementById("main");
    var anchor = place ? main.querySelector(".page-header") : main.querySelector(".segmented");
    if (!anchor || (!place && !main.querySelector(".segmented a[aria-current][href$='index.html']"))) return;

    var block = el("section", { className: "visitor-block visitor-favorites", "aria-labelledby": "your-favorites", tabindex: "-1" });
    anchor.after(block);
    // The publisher's list, under a heading of its own now that it is not alone.
    var others = el("h2", { className: "section-title" }, [
      document.createTextNode(say("favorites.picks") + " "),
      el("span", { className: "pick-badge", "aria-hidden": "true", text: "★" })
    ]);
    block.after(others);
    var picks = {};
    main.querySelectorAll(".photo-section .photo-card[data-photo]").forEach(function (a) { picks[a.getAttribute("data-photo")] = true; });

    var drawn = 0;
    function draw() {
      var ticket = ++drawn;
      var entries = favorites.list();
      photosById(entries.map(function (e) { return e.id; })).then(function (photos) {
        if (ticket !== drawn) return;
        photos = photos.filter(Boolean);
        if (place) photos = photos.filter(function (p) { return p.placeSlug === place && !picks[p.id]; });
        block.textContent = "";
        block.appendChild(el("h2", { className: "section-title", id: "your-favorites" }, [
          document.createTextNode(say(place ? "favorites.yours-here" : "favorites.yours") + " "),
          el("span", { className: "visitor-mark", "aria-hidden": "true", text: "♥" })
        ]));
        others.hidden = !!place && !photos.length;
        if (!photos.length) {
          block.hidden = !!place;
          block.appendChild(el("p", { className: "hint", text: say("favorites.hint") }));
          return;
        }
        block.hidden = false;
        if (place) {
          block.appendChild(favoriteCards(photos, block));
          return;
        }
        var groups = [];
        var bySlug = {};
        photos.forEach(function (photo) {
          var key = photo.placeSlug || "";
          if (!bySlug[key]) {
            bySlug[key] = { photo: photo, photos: [] };
            groups.push(bySlug[key]);
          }
          bySlug[key].photos.push(photo);
        });
        groups.sort(function (a, b) {
          if (!a.photo.placeSlug !== !b.photo.placeSlug) return a.photo.placeSlug ? -1 : 1;
          return (a.photo.placeTitle || "").localeCompare(b.photo.placeTitle || "", Folio.locale, { sensitivity: "base" }) ||
            (a.photo.placeSubtitle || "").localeCompare(b.photo.placeSubtitle || "", Folio.locale);
        });
        block.appendChild(el("p", { className: "hint", text: say("favorites.kept", {
          photos: count("count.photos", photos.length), places: count("count.places", groups.length) }) }));
        var container = el("div", { className: "place-groups" });
        block.appendChild(container);
        groups.forEach(function (group) {
          var p = group.photo;
          var title = p.placeSlug
            ? el("h3", { className: "place-group-title" }, [
                el("a", { href: root + p.placeHref, text: p.placeTitle }),
                p.placeSubtitle ? el("span", { className: "muted", text: p.placeSubtitle }) : null
              ])
            : el("h3", { className: "place-group-title", text: say("favorites.no-place") });
          container.appendChild(el("div", { className: "place-group", "data-place-group": p.placeSlug || "" }, [
            title, favoriteCards(group.photos, block)
          ]));
        });
      });
    }
    onChange(function (name) { if (name === "favorites") draw(); });
    draw();
  }

  favoritesPage();
})();
