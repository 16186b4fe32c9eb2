/* Folio: the visitor's favorites (Folio.favorites), kept in this browser, and their ♥ on every
   photo a page shows. */
(function () {
  "use strict";

  var el = Folio.draw.el;

  var favorites = {
    list: function () { return Folio.readList("favorites"); },
    has: function (id) { return favorites.list().some(function (e) { return e.id === id; }); },
    add: function (id) {
      var list = favorites.list().filter(function (e) { return e.id !== id; });
      list.unshift({ id: id, t: Date.now() });
      Folio.writeList("favorites", list);
    },
    remove: function (id) {
      Folio.writeList("favorites", favorites.list().filter(function (e) { return e.id !== id; }));
    },
    toggle: function (id) { if (favorites.has(id)) favorites.remove(id); else favorites.add(id); }
  };

  function markCards() {
    var mine = {};
    favorites.list().forEach(function (e) { mine[e.id] = true; });
    document.querySelectorAll(".photo-card[data-photo]").forEach(function (a) {
      var badge = a.querySelector(".visitor-badge");
      var want = !!mine[a.getAttribute("data-photo")];
      if (want && !badge) {
        a.appendChild(el("span", { className: "visitor-badge", title: Folio.say("favorites.your-favorite") }, [
          document.createTextNode("♥"), el("span", { className: "visually-hidden", text: " " + Folio.say("favorites.your-favorite-spoken") })
        ]));
      } else if (!want && badge) {
        badge.remove();
      }
    });
  }
  Folio.onChange(function (name) { if (name === "favorites") markCards(); });

  // The home page's count of favorites: the photographer's picks, which the build counted, and
  // this visitor's own that are not picks (search.js, which says which are, runs after this file).
  function favoritesStat() {
    var stat = document.querySelector(".stat[data-stat='favorites']");
    var count = stat && stat.querySelector(".stat-count");
    if (!count || !Folio.photosById) return;
    var picks = Folio.readNumber(count.textContent) || 0;
    var drawn = 0;
    function draw() {
      var ticket = ++drawn;
      var ids = favorites.list().map(function (e) { return e.id; });
      if (!ids.length) { count.textContent = Folio.number(picks); return; }
      Folio.photosById(ids).then(function (photos) {
        if (ticket !== drawn) return;
        count.textContent = Folio.number(picks + photos.filter(function (p) { return p && !p.pick; }).length);
      });
    }
    Folio.onChange(function (name) { if (name === "favorites") draw(); });
    draw();
  }

  Folio.favorites = favorites;
  Folio.markCards = markCards;
  markCards();
  document.addEventListener("DOMContentLoaded", favoritesStat);
})();
