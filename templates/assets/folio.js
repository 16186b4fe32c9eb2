/* Folio: what a visitor keeps and finds, one classic script per concern (ES modules would not
   load from file://), run in order with `defer` from layout.mustache:

     folio.js          this file: the one namespace, window.Folio, and the visitor's lists in storage
     masthead.js       the sections menu on narrow screens; what sticks to the top, measured
     cards.js          drawing photos from data: elements, never HTML from strings
     favorites.js      the visitor's favorites, and their ♥ on every photo shown
     recents.js        the photos this visitor viewed; the home page's count of them
     search.js         the index under search/data/: loading it, folding text, finding photos
     sequence.js       previous and next through the list a visitor chose a photo from
     photo-page.js     a photo's page: the favorite toggle; the view goes into recents
     favorites-page.js the Favorites page: the visitor's own, by place
     recents-page.js   the Recents page
     search-page.js    the Search page
     search-box.js     the header's search box and its popup

   Each adds what others need to Folio and nothing to window besides (search.js adds folioData,
   which the index's files call). No framework; every page works without these files. */
(function () {
  "use strict";

  var body = document.body;
  var root = body.getAttribute("data-root") || "";

  // ---------------------------------------------------------------------------------------
  // Storage: one key per list, per site (two galleries on one host, or on one disk, never mix).

  var siteKey = new URL(root || "./", location.href).href;
  function storageKey(name) { return "folio:" + name + ":" + siteKey; }

  function readList(name) {
    try {
      var list = JSON.parse(localStorage.getItem(storageKey(name)) || "[]");
      return Array.isArray(list) ? list.filter(function (e) { return e && typeof e.id === "string"; }) : [];
    } catch (e) {
      return [];
    }
  }

  function writeList(name, list) {
    try { localStorage.setItem(storageKey(name), JSON.stringify(list)); } catch (e) { /* full or disabled */ }
    changed(name);
  }

  var listeners = [];
  function onChange(fn) { listeners.push(fn); }
  function changed(name) { listeners.forEach(function (fn) { fn(name); }); }
  // Another tab or window of the same site changed a list: show it here too, without a reload.
  window.addEventListener("storage", function (event) {
    if (event.key === null) { changed("favorites"); changed("recents"); return; }
    if (event.key === storageKey("favorites")) changed("favorites");
    if (event.key === storageKey("recents")) changed("recents");
  });

  window.Folio = { root: root, readList: readList, writeList: writeList, onChange: onChange };

  // The theme's other scripts, in the order layout.mustache names them (SiteBuilderTests holds the
  // two to each other). A site's own layout.mustache from before the split names folio.js alone:
  // it gets the rest from here, in order, so its visitors keep search, favorites and recents.
  var SCRIPTS = ["masthead", "cards", "favorites", "recents", "search", "sequence", "photo-page", "favorites-page",
                 "recents-page", "search-page", "search-box"];
  var me = document.currentScript;
  if (me && !document.querySelector("script[src$='assets/" + SCRIPTS[0] + ".js']")) {
    SCRIPTS.forEach(function (name) {
      var script = document.createElement("script");
      script.src = me.src.replace(/folio\.js(\?.*)?$/, name + ".js");
      script.async = false; // one after another, as defer would run them
      document.head.appendChild(script);
    });
  }
})();
