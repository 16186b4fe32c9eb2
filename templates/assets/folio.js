/* Folio: what a visitor keeps and finds, one classic script per concern (ES modules would not
   load from file://), run in order with `defer` from layout.mustache:

     folio.js          this file: the one namespace, window.Folio, the site's words, and the
                       visitor's lists in storage
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
   which the index's files call). No framework; every page works without these files.

   What the scripts say is the site's language's, never spelled here: the build writes the
   theme's catalogue (templates/words/) at the head of this file as window.folioWords, and
   Folio.say, Folio.count and Folio.number read it, with Intl for plurals, numbers and times. */
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
  words(window.Folio);

  // ---------------------------------------------------------------------------------------
  // Words: a phrase by its key, a counted one in the form Intl.PluralRules gives its language
  // (English's for a phrase the language lacks), {name}s filled in, numbers in the locale's digits.

  function words(Folio) {
    var given = window.folioWords || {};
    var phrases = given.phrases || {};
    var locale = given.locale || document.documentElement.lang || "en";
    var english = {};
    (given.english || []).forEach(function (key) { english[key] = true; });
    var made = {};
    function intl(kind, tag, options) {
      var key = kind + " " + tag + " " + JSON.stringify(options || {});
      if (!made[key]) {
        try { made[key] = new Intl[kind](tag, options); } catch (e) { made[key] = null; }
      }
      return made[key];
    }
    function phrase(key, count) {
      var found = phrases[key];
      if (found === undefined) return key;
      if (typeof found === "string") return found;
      var rules = count === undefined ? null : intl("PluralRules", english[key] ? "en" : given.plurals || locale);
      return found[rules ? rules.select(count) : "other"] || found.other || key;
    }
    function fill(text, values) {
      return text.replace(/\{([a-z-]+)\}/g, function (whole, name) {
        return values && Object.prototype.hasOwnProperty.call(values, name) ? String(values[name]) : whole;
      });
    }
    function number(n, options) {
      var format = intl("NumberFormat", locale, options);
      return format ? format.format(n) : String(n);
    }
    Folio.locale = locale;
    Folio.rightToLeft = given.dir === "rtl" || document.documentElement.dir === "rtl";
    Folio.number = number;
    Folio.say = function (key, values) { return fill(phrase(key), values); };
    Folio.count = function (key, n, values) {
      var all = { count: number(n) };
      Object.keys(values || {}).forEach(function (name) { all[name] = values[name]; });
      return fill(phrase(key, n), all);
    };
    // A phrase as nodes, a {name} whose value is a node put in as it is: a link in a sentence.
    Folio.sayNodes = function (key, values) {
      var nodes = [];
      var text = phrase(key);
      var at = 0;
      text.replace(/\{([a-z-]+)\}/g, function (whole, name, offset) {
        if (offset > at) nodes.push(document.createTextNode(text.slice(at, offset)));
        var value = values && Object.prototype.hasOwnProperty.call(values, name) ? values[name] : whole;
        nodes.push(value && value.nodeType ? value : document.createTextNode(String(value)));
        at = offset + whole.length;
        return whole;
      });
      if (at < text.length) nodes.push(document.createTextNode(text.slice(at)));
      return nodes;
    };
    // "3 minutes ago", as the locale says it.
    Folio.ago = function (value, unit) {
      var format = intl("RelativeTimeFormat", locale, { numeric: "always" });
      return format ? format.format(-value, unit) : number(value) + " " + unit;
    };
    // The number a page wrote in the locale's digits ("1,234", "١٬٢٣٤").
    Folio.readNumber = function (text) {
      var digits = Array.from(number(9876543210, { useGrouping: false }));
      var value = "";
      Array.from(text || "").forEach(function (ch) {
        var at = digits.indexOf(ch);
        if (at >= 0) value += String(9 - at);
        else if (/[0-9]/.test(ch)) value += ch;
      });
      return value ? parseInt(value, 10) : NaN;
    };
  }

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
