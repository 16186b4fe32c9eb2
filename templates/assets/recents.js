/* Folio: the photos this visitor viewed (Folio.recents): most recent first, each photo once,
   nothing older than 48 hours, at most 50; and the home page's count of them. */
(function () {
  "use strict";

  var DAY = 24 * 3600 * 1000;
  var RECENTS_MAX = 50;
  var RECENTS_AGE = 2 * DAY;

  var recents = {
    list: function () {
      var now = Date.now();
      var seen = {};
      return Folio.readList("recents")
        .filter(function (e) { return typeof e.t === "number" && now - e.t < RECENTS_AGE; })
        .sort(function (a, b) { return b.t - a.t; })
        .filter(function (e) { if (seen[e.id]) return false; seen[e.id] = true; return true; })
        .slice(0, RECENTS_MAX);
    },
    record: function (id) {
      var list = recents.list().filter(function (e) { return e.id !== id; });
      list.unshift({ id: id, t: Date.now() });
      Folio.writeList("recents", list.slice(0, RECENTS_MAX));
    },
    remove: function (id) { Folio.writeList("recents", recents.list().filter(function (e) { return e.id !== id; })); },
    clear: function () { Folio.writeList("recents", []); }
  };
  Folio.recents = recents;

  // The home page's Recents: this visitor's recently viewed photos, when there are any.
  function recentsStat() {
    var stat = document.querySelector(".stat[data-stat='recents']");
    if (!stat) return;
    var count = stat.querySelector(".stat-count"), label = stat.querySelector(".stat-label");
    var original = { count: count.textContent, label: label.textContent, empty: count.classList.contains("stat-word") };
    function draw() {
      var n = recents.list().length;
      count.textContent = n ? Folio.number(n) : original.count;
      count.classList.toggle("stat-word", n ? false : original.empty);
      label.textContent = n ? Folio.say("recents.viewed-recently") : original.label;
    }
    Folio.onChange(function (name) { if (name === "recents") draw(); });
    draw();
  }

  recentsStat();
})();
