/* Folio's map (the Map page): pan and zoom with the pointer gestures the photo viewer uses
   (gestures.js: drag, pinch, wheel), the + − ⟲ buttons, and the keyboard on the focused map
   (+ and − zoom, arrows pan, 0 shows the whole world). Zooming changes the SVG's viewBox; once
   the view settles, the places (media/map-places-*.js, which the page names in data-places and this
   loads once the page is idle or the visitor first moves the map, so it never slows the page's
   opening) are clustered again for the new scale, as the build clustered them for the whole
   world, and only those in view are drawn: clusters split as the visitor zooms in. A cluster's marker zooms in on it rather
   than leaving for its biggest place. Without this script the map is the build's, links and all. */
(function () {
  "use strict";

  var figure = document.querySelector(".map-world[data-view-box]");
  var svg = figure && figure.querySelector(".map-svg");
  var holder = figure && figure.closest("[data-places]");
  if (!svg || !holder || !window.Folio || !Folio.gestures) return;
  // [x, y, photos, slug, title, subtitle's position in subtitles], most photos first; null
  // until loaded (the build's markers stand until then).
  var places = null, subtitles = [], placeAddress = "";
  var stage = figure.querySelector(".map-stage");
  var markers = svg.querySelector(".map-markers");
  var root = document.body.getAttribute("data-root") || "";
  var NS = "http://www.w3.org/2000/svg";
  var world = figure.getAttribute("data-view-box").split(" ").map(Number);
  var WORLD_W = world[2], WORLD_H = world[3];
  var MAX_ZOOM = 16; // past it, 1:110m outlines say nothing more
  var CLUSTER_PX = 20; // as the build clusters (MapFigure.reach)

  // The view: the part of the world shown, its top-left corner (x, y) and width (w); the
  // height follows from the stage's shape, which is the world's.
  var view = { x: 0, y: 0, w: WORLD_W };
  function zoom() { return WORLD_W / view.w; }
  function width() { return stage.clientWidth || 1; }
  function unitsPerPixel() { return view.w / width(); }

  function clamp() {
    view.w = Math.min(WORLD_W, Math.max(WORLD_W / MAX_ZOOM, view.w));
    var h = view.w * WORLD_H / WORLD_W;
    view.x = Math.min(WORLD_W - view.w, Math.max(0, view.x));
    view.y = Math.min(WORLD_H - h, Math.max(0, view.y));
  }

  var frame = 0;
  function render() {
    if (!frame) frame = requestAnimationFrame(function () {
      frame = 0;
      var h = view.w * WORLD_H / WORLD_W;
      svg.setAttribute("viewBox", [view.x, view.y, view.w, h].map(function (n) { return Math.round(n * 100) / 100; }).join(" "));
      figure.classList.toggle("is-zoomed", zoom() > 1.001);
      settle();
    });
  }

  // At a pixel (px, py) of the stage, the world's point stays under it while the zoom changes.
  function zoomTo(factor, px, py) {
    var upp = unitsPerPixel();
    var wx = view.x + px * upp, wy = view.y + py * upp;
    view.w = view.w / factor;
    clamp();
    var after = unitsPerPixel();
    view.x = wx - px * after;
    view.y = wy - py * after;
    clamp();
    render();
  }
  function panBy(dx, dy) {
    var upp = unitsPerPixel();
    view.x -= dx * upp;
    view.y -= dy * upp;
    clamp();
    render();
  }
  function reset() { view = { x: 0, y: 0, w: WORLD_W }; render(); }

  // --- Markers, clustered for the view's scale ----------------------------------------------

  // As the build does (MapFigure.clusters): places most photos first (the data's order), each
  // joining the first cluster whose lead is within reach, else leading its own.
  function clusters(radius) {
    var result = [], cells = new Map();
    function key(cx, cy) { return cx + ":" + cy; }
    places.forEach(function (p) {
      if (!Array.isArray(p) || p.length < 6) return;
      var cx = Math.floor(p[0] / radius), cy = Math.floor(p[1] / radius);
      var joined = -1;
      for (var dx = -1; dx <= 1; dx++) {
        for (var dy = -1; dy <= 1; dy++) {
          (cells.get(key(cx + dx, cy + dy)) || []).forEach(function (i) {
            var lead = result[i].lead;
            var ddx = lead[0] - p[0], ddy = lead[1] - p[1];
            if (ddx * ddx + ddy * ddy < radius * radius && (joined < 0 || i < joined)) joined = i;
          });
        }
      }
      if (joined >= 0) {
        result[joined].count += 1;
        result[joined].photos += p[2];
      } else {
        var k = key(cx, cy);
        if (!cells.has(k)) cells.set(k, []);
        cells.get(k).push(result.length);
        result.push({ lead: p, count: 1, photos: p[2] });
      }
    });
    return result;
  }


  // What is drawn, as one string: the same markers are left as they are (a finger on one keeps
  // its link under it).
  var drawn = "";
  function drawMarkers() {
    if (!places) return;
    var upp = unitsPerPixel();
    var h = view.w * WORLD_H / WORLD_W;
    var shown = clusters(CLUSTER_PX * upp).filter(function (c) {
      c.r = Math.max(5 + 3 * Math.log10(Math.max(1, c.photos)), c.count > 1 ? 9 : 0) * upp;
      var x = c.lead[0], y = c.lead[1], r = c.r;
      return !(x + r < view.x || x - r > view.x + view.w || y + r < view.y || y - r > view.y + h);
    });
    var signature = shown.map(function (c) { return c.lead[3] + ":" + c.count + ":" + c.r.toFixed(3); }).join(" ");
    if (signature === drawn) return;
    drawn = signature;
    var fragment = document.createDocumentFragment();
    shown.forEach(function (c) {
      var x = c.lead[0], y = c.lead[1], r = c.r;
      var title = String(c.lead[4]), subtitle = subtitles[c.lead[5]];
      var photos = Folio.count("count.photos", c.photos);
      var name = c.count > 1 ? Folio.say("map.cluster", { place: title, more: Folio.count("count.more-places", c.count - 1), photos: photos })
                             : Folio.say("map.marker", { place: subtitle ? title + ", " + subtitle : title, photos: photos });
      var a = document.createElementNS(NS, "a");
      if (c.count > 1) a.setAttribute("class", "map-cluster");
      a.setAttribute("href", root + placeAddress.replace("*", c.lead[3]));
      a.setAttribute("aria-label", name);
      if (c.count > 1) a.setAttribute("data-cluster", "");
      var tip = document.createElementNS(NS, "title");
      tip.textContent = name;
      var circle = document.createElementNS(NS, "circle");
      circle.setAttribute("cx", x);
      circle.setAttribute("cy", y);
      circle.setAttribute("r", Math.round(r * 1000) / 1000);
      a.appendChild(tip);
      a.appendChild(circle);
      if (c.count > 1) {
        var text = document.createElementNS(NS, "text");
        text.setAttribute("x", x);
        text.setAttribute("y", y);
        text.setAttribute("dy", ".35em");
        text.setAttribute("font-size", Math.round(r * 1.05 * 1000) / 1000);
        text.textContent = String(c.count);
        a.appendChild(text);
      }
      fragment.appendChild(a);
    });
    markers.replaceChildren(fragment);
  }

  var status = document.createElement("p");
  status.className = "visually-hidden";
  status.setAttribute("role", "status");
  figure.appendChild(status);

  var settleTimer = 0;
  function settle() {
    clearTimeout(settleTimer);
    settleTimer = setTimeout(function () {
      drawMarkers();
      var text = zoom() <= 1.001 ? Folio.say("map.whole-world") : Folio.say("map.zoomed", { times: Folio.number(Math.round(zoom() * 10) / 10) });
      if (status.textContent !== text) status.textContent = text;
    }, 120);
  }

  // A cluster's marker zooms in on it, far enough to split it.
  markers.addEventListener("click", function (event) {
    var a = event.target.closest && event.target.closest("a[data-cluster]");
    if (!a || zoom() >= MAX_ZOOM) return;
    event.preventDefault();
    var circle = a.querySelector("circle");
    var upp = unitsPerPixel();
    zoomTo(3, (+circle.getAttribute("cx") - view.x) / upp, (+circle.getAttribute("cy") - view.y) / upp);
  });

  // --- Gestures, buttons, keyboard ----------------------------------------------------------

  figure.classList.add("is-zoomable");
  Folio.gestures(stage, {
    begin: function () { return { x: view.x, y: view.y, w: view.w }; },
    drag: function (g, dx, dy) {
      var upp = g.w / width();
      view.x = g.x - dx * upp;
      view.y = g.y - dy * upp;
      clamp();
      render();
    },
    pinch: function (g, ratio, mid, startMid) {
      var upp = g.w / width();
      // The world's point under the fingers' first midpoint stays under their midpoint.
      var wx = g.x + startMid.x * upp, wy = g.y + startMid.y * upp;
      view.w = g.w / ratio;
      clamp();
      var after = unitsPerPixel();
      view.x = wx - mid.x * after;
      view.y = wy - mid.y * after;
      clamp();
      render();
    },
    dragging: function (on) { figure.classList.toggle("is-dragging", on); },
    wheel: function (factor, x, y) { zoomTo(factor, x, y); }
  });

  var controls = document.createElement("div");
  controls.className = "map-controls";
  controls.setAttribute("role", "toolbar");
  controls.setAttribute("aria-label", Folio.say("map.toolbar"));
  [["in", "+", "viewer.zoom-in", "+"], ["out", "−", "viewer.zoom-out", "−"], ["reset", "⟲", "map.whole-world", "0"]].forEach(function (b) {
    var button = document.createElement("button");
    button.type = "button";
    button.setAttribute("data-map", b[0]);
    button.setAttribute("aria-label", Folio.say(b[2]));
    button.title = Folio.say(b[2]) + " (" + b[3] + ")";
    button.textContent = b[1];
    controls.appendChild(button);
  });
  stage.appendChild(controls);
  controls.addEventListener("click", function (event) {
    var button = event.target.closest("button");
    if (!button) return;
    var action = button.getAttribute("data-map");
    if (action === "in") zoomTo(2, width() / 2, stage.clientHeight / 2);
    else if (action === "out") zoomTo(0.5, width() / 2, stage.clientHeight / 2);
    else reset();
  });
  // Gestures on the buttons are the buttons', not the map's.
  controls.addEventListener("pointerdown", function (event) { event.stopPropagation(); });

  stage.tabIndex = 0;
  stage.setAttribute("role", "application");
  stage.setAttribute("aria-roledescription", "map");
  stage.setAttribute("aria-label", "Map: + and − zoom, the arrow keys move, 0 shows the whole world; Tab goes to the places");
  stage.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    var step = width() * 0.2, done = true;
    switch (event.key) {
      case "+": case "=": zoomTo(2, width() / 2, stage.clientHeight / 2); break;
      case "-": case "_": zoomTo(0.5, width() / 2, stage.clientHeight / 2); break;
      case "0": reset(); break;
      case "ArrowLeft": panBy(step, 0); break;
      case "ArrowRight": panBy(-step, 0); break;
      case "ArrowUp": panBy(0, step); break;
      case "ArrowDown": panBy(0, -step); break;
      default: done = false;
    }
    if (done) event.preventDefault();
  });

  // The markers are drawn for the stage's width: again when it changes (a phone turned).
  var lastWidth = width();
  if (window.ResizeObserver) new ResizeObserver(function () {
    if (width() !== lastWidth) { lastWidth = width(); settle(); }
  }).observe(stage);

  // The places, as a script (a page opened from disk cannot fetch JSON).
  var loading = false;
  function loadPlaces() {
    if (loading) return;
    loading = true;
    var script = document.createElement("script");
    script.src = holder.getAttribute("data-places");
    script.onload = function () {
      var data = window.folioMapPlaces;
      if (!data || !Array.isArray(data.places) || typeof data.place !== "string") return;
      places = data.places;
      subtitles = Array.isArray(data.subtitles) ? data.subtitles : [];
      placeAddress = data.place;
      drawMarkers();
    };
    document.head.appendChild(script);
  }
  ["pointerdown", "wheel", "keydown", "focusin"].forEach(function (type) {
    figure.addEventListener(type, loadPlaces, { once: true, passive: true });
  });
  if (window.requestIdleCallback) requestIdleCallback(loadPlaces, { timeout: 2000 });
  else setTimeout(loadPlaces, 300);
})();
