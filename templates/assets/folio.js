/* Folio: what a visitor keeps and finds. Favorites and recents live in this browser's
   localStorage; search reads the index the build wrote under search/data/, one small script
   file at a time (a <script> element, which also works from file://, where fetch does not).
   No framework; every page works without this file. */
(function () {
  "use strict";

  var body = document.body;
  var root = body.getAttribute("data-root") || "";
  var DAY = 24 * 3600 * 1000;
  var RECENTS_MAX = 50;
  var RECENTS_AGE = 2 * DAY;

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

  var favorites = {
    list: function () { return readList("favorites"); },
    has: function (id) { return favorites.list().some(function (e) { return e.id === id; }); },
    add: function (id) {
      var list = favorites.list().filter(function (e) { return e.id !== id; });
      list.unshift({ id: id, t: Date.now() });
      writeList("favorites", list);
    },
    remove: function (id) {
      writeList("favorites", favorites.list().filter(function (e) { return e.id !== id; }));
    },
    toggle: function (id) { if (favorites.has(id)) favorites.remove(id); else favorites.add(id); }
  };

  // Most recent first, each photo once, nothing older than 48 hours, at most 50.
  var recents = {
    list: function () {
      var now = Date.now();
      var seen = {};
      return readList("recents")
        .filter(function (e) { return typeof e.t === "number" && now - e.t < RECENTS_AGE; })
        .sort(function (a, b) { return b.t - a.t; })
        .filter(function (e) { if (seen[e.id]) return false; seen[e.id] = true; return true; })
        .slice(0, RECENTS_MAX);
    },
    record: function (id) {
      var list = recents.list().filter(function (e) { return e.id !== id; });
      list.unshift({ id: id, t: Date.now() });
      writeList("recents", list.slice(0, RECENTS_MAX));
    },
    remove: function (id) { writeList("recents", recents.list().filter(function (e) { return e.id !== id; })); },
    clear: function () { writeList("recents", []); }
  };

  // ---------------------------------------------------------------------------------------
  // The index: search/data/*.js, each a call to folioData(kind, key, value).

  var slots = {};
  function slot(id) {
    if (!slots[id]) {
      var s = {};
      s.promise = new Promise(function (resolve, reject) { s.resolve = resolve; s.reject = reject; });
      slots[id] = s;
    }
    return slots[id];
  }
  window.folioData = function (kind, key, value) { slot(kind + ":" + key).resolve(value); };

  function load(kind, key, file) {
    var s = slot(kind + ":" + key);
    if (!s.started) {
      s.started = true;
      var script = document.createElement("script");
      script.src = root + "search/data/" + file;
      script.async = true;
      script.onerror = function () { s.reject(new Error("cannot load " + file)); };
      script.onload = function () { script.remove(); };
      document.head.appendChild(script);
    }
    return s.promise;
  }

  var metaPromise = null;
  function meta() {
    if (!metaPromise) {
      metaPromise = load("meta", "", "meta.js").then(function (m) {
        m.keySet = {};
        m.keys.forEach(function (k) { m.keySet[k] = true; });
        return m;
      });
    }
    return metaPromise;
  }

  // Must match Sources/FolioCore/Site/SearchText.swift.
  function fold(text) {
    return text.toLowerCase().normalize("NFD").replace(/\p{M}/gu, "");
  }
  function words(text) { return fold(text).match(/[\p{L}\p{N}]+/gu) || []; }
  function shardKey(word) { return Array.from(word).slice(0, 2).join(""); }
  function fileKey(key) {
    return Array.from(key).map(function (ch) {
      if (/^[a-z0-9]$/.test(ch)) return ch;
      return "_" + ("000000" + ch.codePointAt(0).toString(16)).slice(-6);
    }).join("");
  }
  function bucket(id, count) {
    var hash = 2166136261;
    for (var i = 0; i < id.length; i++) {
      hash ^= id.charCodeAt(i);
      hash = Math.imul(hash, 16777619) >>> 0;
    }
    return hash % Math.max(1, count);
  }

  function wordShard(key) {
    return meta().then(function (m) { return m.keySet[key] ? load("t", key, "t-" + fileKey(key) + ".js") : {}; });
  }

  function photoAt(number) {
    return meta().then(function (m) {
      var shard = Math.floor(number / m.shard);
      return load("p", String(shard), "p-" + shard + ".js").then(function (list) {
        var r = list[number - shard * m.shard];
        return r && {
          n: number, id: r[0], title: r[1], thumb: r[2], thumbWidth: r[3], thumbHeight: r[4], srcset: r[5],
          alt: r[6], person: r[7], placeTitle: r[8], placeSubtitle: r[9], placeSlug: r[10]
        };
      });
    });
  }

  // The photo with identifier `id`, or null when the site no longer has it.
  function photoById(id) {
    return meta().then(function (m) {
      var b = bucket(id, m.buckets);
      return load("i", String(b), "i-" + b + ".js").then(function (ids) {
        return Object.prototype.hasOwnProperty.call(ids, id) ? photoAt(ids[id]) : null;
      });
    }).catch(function () { return null; });
  }

  function photosById(ids) {
    return Promise.all(ids.map(photoById));
  }

  // Photo numbers matching every word of `query`, best first: a whole word beats the start of
  // one, a word of the title beats one elsewhere; then newest first (lowest number).
  function search(query) {
    var unique = words(query).filter(function (w, i, all) { return all.indexOf(w) === i; });
    // A lone letter is a word of its own ("9", "東"); beside longer words it is one being typed.
    if (unique.some(function (w) { return w.length > 1; })) unique = unique.filter(function (w) { return w.length > 1; });
    if (!unique.length) return Promise.resolve([]);
    return Promise.all(unique.map(function (word) {
      return wordShard(shardKey(word)).then(function (shard) {
        var scores = new Map();
        Object.keys(shard).forEach(function (token) {
          var exact = token === word;
          if (!exact && (word.length < 2 || token.lastIndexOf(word, 0) !== 0)) return;
          var posting = 0;
          shard[token].forEach(function (delta) {
            posting += delta;
            var n = posting >> 1;
            var score = (exact ? 2 : 1) + (posting & 1 ? 2 : 0);
            if ((scores.get(n) || 0) < score) scores.set(n, score);
          });
        });
        return scores;
      });
    })).then(function (maps) {
      maps.sort(function (a, b) { return a.size - b.size; });
      var results = [];
      maps[0].forEach(function (score, n) {
        var total = score;
        for (var i = 1; i < maps.length; i++) {
          var s = maps[i].get(n);
          if (!s) return;
          total += s;
        }
        results.push([n, total]);
      });
      results.sort(function (a, b) { return b[1] - a[1] || a[0] - b[0]; });
      return results.map(function (r) { return r[0]; });
    });
  }

  // ---------------------------------------------------------------------------------------
  // Drawing: elements from data, never HTML from strings.

  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (name) {
      var value = attrs[name];
      if (value === null || value === undefined || value === false) return;
      if (name === "text") node.textContent = value;
      else if (name === "className") node.className = value;
      else node.setAttribute(name, value === true ? "" : value);
    });
    (children || []).forEach(function (child) { if (child) node.appendChild(child); });
    return node;
  }

  function photoHref(photo) { return root + "photos/" + photo.id + ".html"; }
  function placeText(photo) { return photo.placeTitle || ""; }
  function byline(photo) {
    return [photo.person, placeText(photo)].filter(Boolean).join(" · ");
  }

  function thumbImage(photo, sizes) {
    if (!photo.thumb) return el("span", { className: "no-image", role: "img", "aria-label": photo.alt });
    return el("img", {
      src: root + photo.thumb,
      srcset: photo.srcset ? photo.srcset.split(", ").map(function (c) { return root + c; }).join(", ") : null,
      sizes: photo.srcset ? sizes : null,
      width: photo.thumbWidth, height: photo.thumbHeight, alt: photo.alt, loading: "lazy", decoding: "async"
    });
  }

  var GRID_SIZES = "(max-width: 560px) 50vw, (max-width: 900px) 34vw, 300px";

  function card(photo, subtitle) {
    return el("a", { className: "photo-card", href: photoHref(photo), "data-photo": photo.id }, [
      thumbImage(photo, GRID_SIZES),
      el("span", { className: "caption" }, [
        el("span", { className: "caption-title", text: photo.title }),
        subtitle ? el("span", { className: "caption-subtitle", text: subtitle }) : null
      ])
    ]);
  }

  function ago(t) {
    var minutes = Math.max(0, Math.round((Date.now() - t) / 60000));
    if (minutes < 1) return "Viewed just now";
    if (minutes < 60) return "Viewed " + minutes + (minutes === 1 ? " minute" : " minutes") + " ago";
    var hours = Math.floor(minutes / 60);
    return "Viewed " + hours + (hours === 1 ? " hour" : " hours") + " ago";
  }

  function count(n, one, many) { return n + " " + (n === 1 ? one : many); }

  // ---------------------------------------------------------------------------------------
  // Every page: the visitor's favorites are starred wherever a photo is shown.

  function markCards() {
    var mine = {};
    favorites.list().forEach(function (e) { mine[e.id] = true; });
    document.querySelectorAll(".photo-card[data-photo]").forEach(function (a) {
      var badge = a.querySelector(".visitor-badge");
      var want = !!mine[a.getAttribute("data-photo")];
      if (want && !badge) {
        a.appendChild(el("span", { className: "visitor-badge", title: "Your favorite" }, [
          document.createTextNode("♥"), el("span", { className: "visually-hidden", text: " your favorite" })
        ]));
      } else if (!want && badge) {
        badge.remove();
      }
    });
  }
  onChange(function (name) { if (name === "favorites") markCards(); });

  // ---------------------------------------------------------------------------------------
  // A photo's page: the favorite toggle; the view goes into recents.

  function photoPage() {
    var article = document.querySelector(".photo-page[data-photo]");
    if (!article) return;
    var id = article.getAttribute("data-photo");
    recents.record(id);
    var button = article.querySelector(".favorite-toggle");
    if (!button) return;
    var heart = button.querySelector(".heart");
    function draw() {
      var on = favorites.has(id);
      button.setAttribute("aria-pressed", on ? "true" : "false");
      heart.textContent = on ? "♥" : "♡";
      button.title = on ? "In your favorites: click to remove" : "Keep this photo in your favorites";
    }
    button.hidden = false;
    button.addEventListener("click", function (event) {
      event.stopPropagation();
      favorites.toggle(id);
    });
    onChange(function (name) { if (name === "favorites") draw(); });
    draw();
  }

  // ---------------------------------------------------------------------------------------
  // Favorites: the visitor's own, grouped by place, beside the publisher's.

  function removeButton(photo, onRemove) {
    var button = el("button", {
      className: "remove-button", type: "button", title: "Remove from your favorites",
      "aria-label": "Remove “" + photo.title + "” from your favorites"
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
      document.createTextNode(place ? "The photographer's picks " : "Places with the photographer's picks "),
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
          document.createTextNode(place ? "Your favorites here " : "Your favorites "),
          el("span", { className: "visitor-mark", "aria-hidden": "true", text: "♥" })
        ]));
        others.hidden = !!place && !photos.length;
        if (!photos.length) {
          block.hidden = !!place;
          block.appendChild(el("p", { className: "hint", text: "Photos you mark with ♡ on their page are kept here, in this browser." }));
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
          return (a.photo.placeTitle || "").localeCompare(b.photo.placeTitle || "", undefined, { sensitivity: "base" }) ||
            (a.photo.placeSubtitle || "").localeCompare(b.photo.placeSubtitle || "");
        });
        block.appendChild(el("p", { className: "hint", text: count(photos.length, "photo", "photos") + " in " + count(groups.length, "place", "places") + ", kept in this browser." }));
        var container = el("div", { className: "place-groups" });
        block.appendChild(container);
        groups.forEach(function (group) {
          var p = group.photo;
          var title = p.placeSlug
            ? el("h3", { className: "place-group-title" }, [
                el("a", { href: root + "places/" + p.placeSlug + ".html", text: p.placeTitle }),
                p.placeSubtitle ? el("span", { className: "muted", text: p.placeSubtitle }) : null
              ])
            : el("h3", { className: "place-group-title", text: "Without a place" });
          container.appendChild(el("div", { className: "place-group", "data-place-group": p.placeSlug || "" }, [
            title, favoriteCards(group.photos, block)
          ]));
        });
      });
    }
    onChange(function (name) { if (name === "favorites") draw(); });
    draw();
  }

  // ---------------------------------------------------------------------------------------
  // Recents: what this visitor looked at, most recent first.

  function recentsPage() {
    if (!body.classList.contains("section-recents")) return;
    var main = document.getElementById("main");
    var header = main.querySelector(".page-header");
    if (!header) return;
    var subheading = header.querySelector(".subheading");
    var added = Array.prototype.slice.call(main.querySelectorAll(".photo-section, .empty"));
    var block = el("section", { className: "visitor-block visitor-recents", "aria-labelledby": "recently-viewed", tabindex: "-1" });
    header.after(block);

    var drawn = 0;
    function draw() {
      var ticket = ++drawn;
      var entries = recents.list();
      photosById(entries.map(function (e) { return e.id; })).then(function (photos) {
        if (ticket !== drawn) return;
        block.textContent = "";
        var shown = [];
        photos.forEach(function (photo, i) { if (photo) shown.push({ photo: photo, t: entries[i].t }); });
        var clear = el("button", { className: "button quiet", type: "button", text: "Clear all" });
        clear.addEventListener("click", function () { recents.clear(); block.focus(); });
        block.appendChild(el("div", { className: "section-actions" }, [
          el("h2", { className: "section-title", id: "recently-viewed", text: "Recently viewed" }),
          shown.length ? clear : null
        ]));
        if (subheading) subheading.textContent = shown.length ? "The photos you looked at in the last 48 hours" : "Recently added photos";
        added.forEach(function (node) { node.classList.toggle("is-replaced", shown.length > 0); });
        if (!shown.length) {
          block.appendChild(el("p", { className: "hint", text: "Photos you look at are listed here for 48 hours, in this browser. Meanwhile, the latest additions:" }));
          return;
        }
        var list = el("ul", { className: "rows recents-list" });
        shown.forEach(function (entry) {
          var photo = entry.photo;
          var remove = el("button", {
            className: "remove-row", type: "button", title: "Remove from recents",
            "aria-label": "Remove “" + photo.title + "” from recents"
          }, [document.createTextNode("✕")]);
          remove.addEventListener("click", function () {
            var next = remove.closest("li").nextElementSibling;
            recents.remove(photo.id);
            if (!next) block.focus();
          });
          list.appendChild(el("li", { "data-recent": photo.id }, [
            el("a", { className: "row", href: photoHref(photo) }, [
              thumbImage(photo, "56px"),
              el("span", { className: "row-text" }, [
                el("span", { className: "row-title", text: photo.title }),
                el("span", { className: "row-subtitle", text: [ago(entry.t), byline(photo)].filter(Boolean).join(" · ") })
              ]),
              el("span", { className: "chevron", "aria-hidden": "true", text: "›" })
            ]),
            remove
          ]));
        });
        block.appendChild(list);
      });
    }
    onChange(function (name) { if (name === "recents") draw(); });
    draw();
  }

  // ---------------------------------------------------------------------------------------
  // Search: the page, and the box in the header (results as you type, in a popup).

  function debounce(fn, ms) {
    var timer = null;
    return function () { clearTimeout(timer); timer = setTimeout(fn, ms); };
  }

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
          if (mine === ticket) status.textContent = "Search " + count(m.photos, "photo", "photos") + " by title, description, person, place or region.";
        }, function () { status.textContent = "The search index is missing: build the site again."; });
        return;
      }
      search(query).then(function (found) {
        if (mine !== ticket) return;
        matches = found;
        shownCount = 0;
        results.textContent = "";
        status.textContent = found.length
          ? count(found.length, "photo matches", "photos match") + " “" + query + "”"
          : "No photo matches “" + query + "”";
        return showMore();
      }, function () {
        if (mine === ticket) status.textContent = "The search index is missing: build the site again.";
      });
    }

    more.querySelector("button").addEventListener("click", showMore);
    input.addEventListener("input", debounce(run, 120));
    input.form.addEventListener("submit", function (event) { event.preventDefault(); run(); });
    var q = new URLSearchParams(location.search).get("q");
    if (q) input.value = q;
    run();
    if (!q) input.focus();
  }

  // The header's box: a combobox (WAI-ARIA 1.2) whose listbox of photos opens as the visitor
  // types. Focus stays in the box; the arrow keys move the active option (aria-activedescendant),
  // Enter opens it (or, with none active, the Search page); a live region says how many match.
  function headerSearch() {
    var form = document.querySelector(".site-search");
    var input = form && form.querySelector("input");
    if (!input || body.classList.contains("section-search")) return;
    var popup = el("div", { className: "search-popup", hidden: true });
    var listbox = el("ul", { role: "listbox", id: "search-popup-list", "aria-label": "Photos found" });
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

    function option(n, href, className, children) {
      return el("li", { role: "presentation" }, [
        el("a", { role: "option", id: "search-option-" + n, className: className, href: href, tabindex: "-1", "aria-selected": "false" }, children)
      ]);
    }

    var run = debounce(function () {
      var query = input.value.trim();
      var mine = ++ticket;
      if (!words(query).length) { close(); live.textContent = ""; return; }
      search(query).then(function (found) {
        return Promise.all(found.slice(0, 6).map(photoAt)).then(function (photos) {
          if (mine !== ticket) return;
          listbox.textContent = "";
          activate(-1);
          var said = found.length
            ? count(found.length, "photo matches", "photos match") + " “" + query + "”"
            : "No photo matches “" + query + "”";
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
            ]));
          });
          if (found.length) {
            listbox.appendChild(option("all", root + "search/index.html?q=" + encodeURIComponent(query), "popup-all",
              [document.createTextNode("All " + count(found.length, "result", "results") + " ›")]));
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
        location.href = all[active].href;
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

  // On narrow screens the sections are a menu behind a button in the masthead.
  function sectionsMenu() {
    var masthead = document.querySelector(".masthead");
    var button = masthead && masthead.querySelector(".menu-button");
    var nav = masthead && masthead.querySelector(".site-nav");
    if (!button || !nav) return;
    button.hidden = false;
    function toggle(open) {
      masthead.classList.toggle("menu-open", open);
      button.setAttribute("aria-expanded", open ? "true" : "false");
    }
    button.addEventListener("click", function () { toggle(!masthead.classList.contains("menu-open")); });
    masthead.addEventListener("keydown", function (event) {
      if (event.key === "Escape" && masthead.classList.contains("menu-open")) {
        toggle(false);
        button.focus();
        event.stopPropagation();
      }
    });
    document.addEventListener("pointerdown", function (event) { if (!masthead.contains(event.target)) toggle(false); });
    nav.addEventListener("focusout", function (event) {
      if (!masthead.contains(event.relatedTarget)) toggle(false);
    });
  }

  // What sticks to the top (the masthead, the A–Z bar) is measured, so that anchors land below it
  // (--sticky) and the A–Z bar and the photo's stage start where the masthead ends (--masthead).
  function stickyOffsets() {
    var masthead = document.querySelector(".masthead");
    if (!masthead) return;
    var letters = document.querySelector(".letter-index");
    var style = document.documentElement.style;
    function update() {
      var top = Math.ceil(masthead.getBoundingClientRect().height);
      style.setProperty("--masthead", top + "px");
      style.setProperty("--sticky", top + (letters ? Math.ceil(letters.getBoundingClientRect().height) : 0) + "px");
    }
    update();
    if (window.ResizeObserver) {
      var observer = new ResizeObserver(update);
      observer.observe(masthead);
      if (letters) observer.observe(letters);
    } else {
      window.addEventListener("resize", update);
    }
  }

  // The home page's Recents: this visitor's recently viewed photos, when there are any.
  function recentsStat() {
    var stat = document.querySelector(".stat[data-stat='recents']");
    if (!stat) return;
    var count = stat.querySelector(".stat-count"), label = stat.querySelector(".stat-label");
    var original = { count: count.textContent, label: label.textContent, empty: count.classList.contains("stat-word") };
    function draw() {
      var n = recents.list().length;
      count.textContent = n ? String(n) : original.count;
      count.classList.toggle("stat-word", n ? false : original.empty);
      label.textContent = n ? "Viewed recently" : original.label;
    }
    onChange(function (name) { if (name === "recents") draw(); });
    draw();
  }

  window.Folio = { favorites: favorites, recents: recents, search: search, photoById: photoById, photoAt: photoAt };

  stickyOffsets();
  sectionsMenu();
  photoPage();
  recentsStat();
  markCards();
  favoritesPage();
  recentsPage();
  searchPage();
  headerSearch();
})();
