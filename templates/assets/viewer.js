/* Folio's photo viewer: the photo first, on a stage between the masthead and its title line.
   It opens filling the stage (aspect-fill, centred) where that crops moderately and stays sharp;
   where filling would crop hard (a landscape photo on a portrait phone) or enlarge the sharpest
   pixels there are by more than 1.5 times, it opens fitted (and a small photo no larger than
   1.5 times its own pixels). ⤢ or 0 toggle fill and fit; wheel, pinch, double-click or double-tap
   and + - zoom; dragging and the arrow keys pan; the arrow keys and a swipe go to the previous or
   next photo when not zoomed in; a tap or click, i or the details button show and hide the
   details (beside the photo on wide screens, over its lower part on narrow ones; open on arrival
   only on wide screens). Deep-zoom tiles, when the build made them, are loaded only for what is
   on screen, at the level the zoom needs. One transform on one layer: the GPU moves it, and
   nothing is measured while it moves. The pointers' gestures are gestures.js's, which the map
   shares. Without this script the page is a plain image page. */
(function () {
  "use strict";

  var figure = document.querySelector(".photo-figure[data-width]");
  var img = figure && figure.querySelector(".photo-image");
  // Without gestures.js or details.js (a site's own photo.mustache from before them) the page is a
  // plain image page.
  if (!img || !window.Folio || !Folio.gestures || !Folio.details) return;
  // On a WebP site the img sits in a picture whose source offers the WebP renditions.
  var picture = img.parentNode.nodeName === "PICTURE" ? img.parentNode : null;
  var sources = picture ? Array.prototype.slice.call(picture.querySelectorAll("source")) : [];
  var W = +figure.getAttribute("data-width");
  var H = +figure.getAttribute("data-height");
  if (!(W > 0 && H > 0)) return;

  var body = document.body;
  var page = figure.closest(".photo-page") || document;
  var reducedMotion = window.matchMedia("(prefers-reduced-motion: reduce)");
  // The pyramid as the build laid it out (TileGrid): tile size, overlap, format, and each level
  // with tiles, its size, columns and rows. Only where the tiles are depends on the page.
  var pyramid = null;
  if (figure.hasAttribute("data-tiles") && figure.hasAttribute("data-pyramid")) {
    try {
      pyramid = JSON.parse(figure.getAttribute("data-pyramid"));
      pyramid.base = figure.getAttribute("data-tiles");
      pyramid.byLevel = {};
      pyramid.levels.forEach(function (l) { pyramid.byLevel[l.level] = l; });
    } catch (e) {
      pyramid = null; // a page from another theme: the renditions still zoom
    }
  }

  // The layer is the photo at its original size, in original pixels; the view is where its
  // top-left corner is on the stage (x, y) and how many screen pixels an original pixel takes (s).
  var layer = document.createElement("div");
  layer.className = "zoom-layer";
  layer.style.width = W + "px";
  layer.style.height = H + "px";
  figure.insertBefore(layer, picture || img);
  layer.appendChild(picture || img);
  img.draggable = false;
  figure.classList.add("is-zoomable");
  figure.tabIndex = 0;
  var help = document.createElement("p");
  help.id = "viewer-help";
  help.className = "visually-hidden";
  help.textContent = Folio.say("viewer.help");
  figure.appendChild(help);
  figure.setAttribute("aria-describedby", "viewer-help");
  // What the view is now, for screen readers, once it settles.
  var status = document.createElement("p");
  status.className = "visually-hidden viewer-status";
  status.setAttribute("role", "status");
  figure.appendChild(status);

  var view = { s: 1, x: 0, y: 0 };
  var stage = { w: 1, h: 1, left: 0, top: 0 };
  var fit = 1, fill = 1, home = 1, minScale = 1, maxScale = 1;
  // Filling may hide up to a third of the photo; and no more than 1.5 device pixels per pixel of
  // the sharpest image there is (the original when it has tiles, else the largest rendition).
  var MIN_SHOWN = 2 / 3, MAX_ENLARGEMENT = 1.5;

  function largestRendition() {
    return Math.max.apply(null, candidates().map(function (c) { return c.width; }).concat([+img.getAttribute("width") || 0]));
  }

  // How the photo opens on this stage: its scale (screen pixels per original pixel).
  function openingScale(dpr) {
    var sharpest = pyramid ? W : Math.min(W, largestRendition() || W);
    var enlargement = function (s) { return s * dpr * W / sharpest; };
    if (fit / fill >= MIN_SHOWN && enlargement(fill) <= MAX_ENLARGEMENT) return fill;
    // Fitted; a photo smaller than the stage no larger than 1.5 device pixels per pixel, though
    // never below its own size in CSS pixels (on a 3x phone that would be a stamp).
    return Math.min(fit, Math.max(MAX_ENLARGEMENT / dpr * sharpest / W, 1));
  }

  function measure() {
    var rect = figure.getBoundingClientRect();
    stage = { w: figure.clientWidth || 1, h: figure.clientHeight || 1, left: rect.left, top: rect.top };
    fit = Math.min(stage.w / W, stage.h / H);
    fill = Math.max(stage.w / W, stage.h / H);
    home = openingScale(window.devicePixelRatio || 1);
    minScale = Math.min(fit, home);
    // Up to the original's resolution (tiles), or the largest rendition's; at least twice the fill.
    var detail = pyramid ? 1 : (+img.getAttribute("width") || W) / W;
    maxScale = Math.max(detail, fill * 2);
  }

  // Zoomed in from the opening view: the arrow keys and swipes move the photo, not to another one.
  function zoomed() { return view.s > home * 1.001; }
  function filled() { return Math.abs(view.s - fill) <= fill * 0.001; }
  function larger() { return W * view.s > stage.w + 0.5 || H * view.s > stage.h + 0.5; }

  function clampScale(s) { return Math.min(maxScale, Math.max(minScale, s)); }

  // Centred along an axis where the photo is smaller than the stage; never a gap at an edge otherwise.
  function clampPosition() {
    var w = W * view.s, h = H * view.s;
    view.x = w <= stage.w ? (stage.w - w) / 2 : Math.min(0, Math.max(stage.w - w, view.x));
    view.y = h <= stage.h ? (stage.h - h) / 2 : Math.min(0, Math.max(stage.h - h, view.y));
  }

  var frame = 0;
  var animated = false;
  function render(animate) {
    animated = !!animate && !reducedMotion.matches;
    if (!frame) frame = requestAnimationFrame(draw);
  }
  function draw() {
    frame = 0;
    layer.classList.toggle("is-animated", animated);
    layer.style.transform = "translate(" + view.x + "px," + view.y + "px) scale(" + view.s + ")";
    figure.classList.toggle("is-zoomed", larger());
    if (fillButton) fillButton.setAttribute("aria-pressed", filled() ? "true" : "false");
    settle();
  }

  // While it moves the layer is its own GPU texture (will-change); once still, it is drawn
  // again at its new scale so it is sharp, and the tiles for the new view are asked for.
  var settleTimer = 0;
  function settle() {
    layer.classList.add("is-moving");
    clearTimeout(settleTimer);
    settleTimer = setTimeout(function () {
      layer.classList.remove("is-moving");
      useSharperRendition();
      updateTiles();
      announce();
    }, animated ? 320 : 120);
  }

  var said = "";
  function announce() {
    var text = filled() ? Folio.say("viewer.filling") : view.s <= fit * 1.001 ? Folio.say("viewer.whole")
      : Folio.say("viewer.zoomed", { times: Folio.number(Math.round(view.s / fit * 10) / 10) });
    if (text !== said) status.textContent = said = text;
  }

  function zoomTo(scale, cx, cy, animate) {
    var s = clampScale(scale);
    var px = (cx - view.x) / view.s, py = (cy - view.y) / view.s;
    view.s = s;
    view.x = cx - px * s;
    view.y = cy - py * s;
    clampPosition();
    render(animate);
  }

  // The whole photo at scale `s`, centred.
  function centreAt(s, animate) {
    view.s = s;
    view.x = (stage.w - W * s) / 2;
    view.y = (stage.h - H * s) / 2;
    render(animate);
  }
  function openingView(animate) { centreAt(home, animate); }
  // ⤢ and 0: fill the stage, or from there show the whole photo.
  function toggleFill(animate) { centreAt(filled() ? fit : fill, animate); }

  function panBy(dx, dy, animate) {
    var x = view.x, y = view.y;
    view.x += dx;
    view.y += dy;
    clampPosition();
    render(animate);
    return view.x !== x || view.y !== y;
  }

  // --- Renditions and tiles -----------------------------------------------------------------

  function candidates() {
    return [img].concat(sources).map(function (element) {
      return element.getAttribute("srcset") || "";
    }).join(",").split(",").map(function (part) {
      var bits = part.trim().split(/\s+/);
      return { url: bits[0] ? new URL(bits[0], location.href).href : "", width: parseInt(bits[1], 10) || 0 };
    }).filter(function (c) { return c.url; });
  }

  // The width in pixels of the rendition the browser shows now.
  function shownWidth() {
    var current = img.currentSrc;
    var match = candidates().filter(function (c) { return c.url === current; })[0];
    return match ? match.width : (+img.getAttribute("width") || W);
  }

  // Tell the browser how wide the photo is on screen, so zooming in fetches a larger rendition.
  function useSharperRendition() {
    var wanted = Math.ceil(W * Math.max(view.s, fill)) + "px";
    [img].concat(sources).forEach(function (element) {
      if (element.getAttribute("sizes") !== wanted) element.setAttribute("sizes", wanted);
    });
  }

  var tiles = new Map();
  var wantedTiles = {};

  function updateTiles() {
    if (!pyramid) return;
    var dpr = window.devicePixelRatio || 1;
    var need = view.s * dpr; // device pixels per original pixel
    var level = -1;
    // Never on arrival, whatever the screen's density: only once the visitor zooms in, and only
    // when the view needs clearly more pixels than the largest rendition has (a quarter more).
    if (zoomed() && need * W > Math.max(shownWidth(), largestRendition()) * 1.25) {
      var k = Math.max(0, Math.floor(Math.log2(1 / need) + 1e-9));
      level = Math.max(pyramid.minLevel, pyramid.maxLevel - k);
    }
    wantedTiles = {};
    if (level >= 0) {
      var f = Math.pow(2, pyramid.maxLevel - level); // original pixels per level pixel
      var size = pyramid.tileSize * f;
      var cols = pyramid.byLevel[level].columns, rows = pyramid.byLevel[level].rows;
      var x0 = Math.max(0, -view.x / view.s), y0 = Math.max(0, -view.y / view.s);
      var x1 = Math.min(W, (stage.w - view.x) / view.s), y1 = Math.min(H, (stage.h - view.y) / view.s);
      var c0 = Math.max(0, Math.floor(x0 / size)), c1 = Math.min(cols - 1, Math.ceil(x1 / size) - 1);
      var r0 = Math.max(0, Math.floor(y0 / size)), r1 = Math.min(rows - 1, Math.ceil(y1 / size) - 1);
      for (var r = r0; r <= r1; r++) {
        for (var c = c0; c <= c1; c++) {
          var key = level + "/" + c + "_" + r;
          wantedTiles[key] = true;
          if (!tiles.has(key)) addTile(key, level, c, r, f);
        }
      }
    }
    pruneTiles();
  }

  function addTile(key, level, c, r, f) {
    var ts = pyramid.tileSize, ov = pyramid.overlap;
    var lw = pyramid.byLevel[level].width, lh = pyramid.byLevel[level].height;
    var px0 = c * ts - (c > 0 ? ov : 0), py0 = r * ts - (r > 0 ? ov : 0);
    var px1 = Math.min(lw, (c + 1) * ts + ov), py1 = Math.min(lh, (r + 1) * ts + ov);
    var tile = document.createElement("img");
    var entry = { el: tile, level: level, loaded: false };
    tile.className = "tile";
    tile.alt = "";
    tile.draggable = false;
    tile.decoding = "async";
    tile.style.left = px0 * f + "px";
    tile.style.top = py0 * f + "px";
    tile.style.width = (px1 - px0) * f + "px";
    tile.style.height = (py1 - py0) * f + "px";
    tile.style.zIndex = String(level);
    tile.onload = function () {
      entry.loaded = true;
      tile.classList.add("is-loaded");
      pruneTiles();
    };
    tile.onerror = function () { entry.loaded = true; pruneTiles(); };
    tile.src = pyramid.base + level + "/" + c + "_" + r + "." + pyramid.format;
    tiles.set(key, entry);
    layer.appendChild(tile);
  }

  // Tiles off screen go; those of another level stay under the new ones until those have loaded.
  function pruneTiles() {
    var ready = Object.keys(wantedTiles).every(function (key) { return tiles.get(key).loaded; });
    tiles.forEach(function (entry, key) {
      if (wantedTiles[key] || !ready) return;
      entry.el.remove();
      tiles.delete(key);
    });
  }

  // --- Details overlay ----------------------------------------------------------------------

  var fillButton = page.querySelector(".viewer-button[data-zoom='fill']");
  var details = page.querySelector(".photo-details");
  // Shown and hidden as on a video's page (details.js); a key press inside them that closes them
  // leaves the focus on the photo.
  var photoDetails = Folio.details(page, {
    closing: function () { if (details && details.contains(document.activeElement)) figure.focus(); }
  });
  var toggleDetails = photoDetails.toggle;

  function go(rel) {
    var link = page.querySelector("a[rel='" + rel + "']");
    if (link) { location.href = link.href; return true; }
    return false;
  }

  // --- Pointers: drag, pinch, tap, double-tap, swipe (gestures.js) ------------------------

  var lastTap = null;
  var tapTimer = 0;

  Folio.gestures(figure, {
    begin: function () { return { x: view.x, y: view.y, s: view.s, wasZoomed: zoomed() }; },
    pinch: function (g, ratio, mid, startMid) {
      var s = clampScale(g.s * ratio);
      // The point under the fingers' midpoint stays under it.
      view.x = mid.x - (startMid.x - g.x) / g.s * s;
      view.y = mid.y - (startMid.y - g.y) / g.s * s;
      view.s = s;
      clampPosition();
      render(false);
    },
    drag: function (g, dx, dy) {
      view.x = g.x + dx;
      view.y = g.y + dy;
      clampPosition();
      render(false);
    },
    dragging: function (on) { figure.classList.toggle("is-dragging", on); },
    end: function (g, info) {
      if (info.cancelled || info.pinch) return;
      if (!info.moved) {
        tap(info.x, info.y);
      } else if (info.type !== "mouse" && !g.wasZoomed && info.elapsed < 700 && Math.abs(info.dx) > 60 && Math.abs(info.dx) > 1.5 * Math.abs(info.dy)) {
        // Towards where the photo went: in a page laid out right to left, the next is on the left.
        go((info.dx > 0) !== Folio.rightToLeft ? "prev" : "next");
      }
    },
    wheel: function (factor, x, y) { zoomTo(view.s * factor, x, y, false); }
  });

  // One tap shows or hides the details; two close together zoom in there, or back out.
  function tap(x, y) {
    var now = performance.now();
    if (lastTap && now - lastTap.time < 320 && Math.hypot(x - lastTap.x, y - lastTap.y) < 40) {
      clearTimeout(tapTimer);
      lastTap = null;
      if (zoomed()) openingView(true);
      else zoomTo(Math.min(maxScale, Math.max(fill, home * 2.5)), x, y, true);
      return;
    }
    lastTap = { time: now, x: x, y: y };
    clearTimeout(tapTimer);
    tapTimer = setTimeout(function () { lastTap = null; toggleDetails(); }, 320);
  }

  // --- Keyboard -----------------------------------------------------------------------------

  document.addEventListener("keydown", function (event) {
    if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return;
    var target = event.target;
    if (target.closest && target.closest("input, textarea, select, [contenteditable]")) return;
    var step = 0.2;
    var done = true;
    switch (event.key) {
      case "+": case "=": zoomTo(view.s * 1.5, stage.w / 2, stage.h / 2, true); break;
      case "-": case "_": zoomTo(view.s / 1.5, stage.w / 2, stage.h / 2, true); break;
      case "0": toggleFill(true); break;
      // Zoomed in, the arrows move the photo as they point; else they lead the way previous and
      // next lie, mirrored in a page laid out right to left.
      case "ArrowLeft":
        done = zoomed() ? panBy(stage.w * step, 0, true) || true : go(Folio.rightToLeft ? "next" : "prev");
        break;
      case "ArrowRight":
        done = zoomed() ? panBy(-stage.w * step, 0, true) || true : go(Folio.rightToLeft ? "prev" : "next");
        break;
      case "ArrowUp": done = panBy(0, stage.h * step, true); break;
      case "ArrowDown": done = panBy(0, -stage.h * step, true); break;
      case "Escape":
        if (zoomed()) openingView(true); else done = false;
        break;
      case "i": toggleDetails(); break;
      case "f": done = toggleFullscreen(); break;
      case "Enter": case " ":
        if (target === figure) toggleDetails(); else done = false;
        break;
      default: done = false;
    }
    if (done) event.preventDefault();
  });

  // --- Buttons ------------------------------------------------------------------------------

  var controls = page.querySelector(".viewer-controls");
  if (controls) {
    controls.hidden = false;
    controls.addEventListener("click", function (event) {
      var button = event.target.closest("button");
      if (!button) return;
      var action = button.getAttribute("data-zoom");
      if (action === "in") zoomTo(view.s * 1.5, stage.w / 2, stage.h / 2, true);
      else if (action === "out") zoomTo(view.s / 1.5, stage.w / 2, stage.h / 2, true);
      else if (action === "fill") toggleFill(true);
      else if (button.hasAttribute("data-fullscreen")) toggleFullscreen();
      else if (button.hasAttribute("data-info")) toggleDetails();
    });
  }
  page.querySelectorAll(".stage-nav").forEach(function (link) { link.hidden = false; });

  // Full screen: the photo's page, its title line and controls with it (the stage grows to the
  // screen; the details fold as on a phone). Not offered where the browser cannot (an iPhone).
  var fullscreenButton = page.querySelector("[data-fullscreen]");
  var canFullscreen = !!(document.fullscreenEnabled && page.requestFullscreen);
  function toggleFullscreen() {
    if (!canFullscreen) return false;
    if (document.fullscreenElement) document.exitFullscreen().catch(function () {});
    else page.requestFullscreen().catch(function () {});
    return true;
  }
  if (fullscreenButton && canFullscreen) {
    fullscreenButton.hidden = false;
    document.addEventListener("fullscreenchange", function () {
      var on = document.fullscreenElement === page;
      body.classList.toggle("fullscreen", on);
      fullscreenButton.setAttribute("aria-pressed", on ? "true" : "false");
      var label = Folio.say(on ? "viewer.leave-full-screen" : "viewer.full-screen");
      fullscreenButton.setAttribute("aria-label", label);
      fullscreenButton.title = label + " (f)";
    });
  }

  // --- The next photo, fetched ahead ----------------------------------------------------------

  // Once this photo is shown and the browser is idle, the next one's rendition (the one the
  // browser would choose, WebP or AVIF where it can) is fetched at low priority, so the next
  // photo appears at once. Not on a connection that asks to save data or is slow.
  // sequence.js takes the link's data away while it finds the visitor's list, and gives it back
  // (calling Folio.viewer.prefetchNext) when the list's next photo is the album's.
  var shown = false, fetchedAhead = false;
  function prefetchNext() {
    if (!shown || fetchedAhead) return;
    var link = page.querySelector(".stage-next[data-srcset]");
    var connection = navigator.connection;
    if (!link || (connection && (connection.saveData || /(^|-)2g$/.test(connection.effectiveType || "")))) return;
    var ahead = new Image();
    ahead.fetchPriority = "low";
    ahead.decoding = "async";
    // The format the browser chose for this photo's picture is the one it will choose for the next.
    var modern = link.hasAttribute("data-picture-srcset") && !/\.jpe?g$/i.test((img.currentSrc || "").split("?")[0]);
    ahead.sizes = link.getAttribute("data-sizes");
    ahead.srcset = modern ? link.getAttribute("data-picture-srcset") : link.getAttribute("data-srcset");
    fetchedAhead = true;
  }
  function whenShown() { shown = true; prefetchNext(); }
  if (window.Folio) Folio.viewer = { prefetchNext: prefetchNext };
  function whenIdle(fn) { if (window.requestIdleCallback) requestIdleCallback(fn, { timeout: 3000 }); else setTimeout(fn, 500); }
  if (img.complete) whenIdle(whenShown);
  else img.addEventListener("load", function () { whenIdle(whenShown); }, { once: true });

  // --- Start ----------------------------------------------------------------------------------

  // The stage changes size with the window, and when the details open beside the photo.
  var lastSize = "";
  function restage() {
    var size = figure.clientWidth + "x" + figure.clientHeight;
    if (size === lastSize) return;
    lastSize = size;
    var wasHome = !zoomed(), wasFilled = filled();
    measure();
    if (wasHome) openingView(false);
    else if (wasFilled) centreAt(fill, false);
    else { view.s = clampScale(view.s); clampPosition(); render(false); }
  }
  if (window.ResizeObserver) new ResizeObserver(restage).observe(figure);
  else window.addEventListener("resize", restage);
  img.addEventListener("load", function () { updateTiles(); });

  // The title line is as tall as its title (which wraps) and the list line need: the stage ends
  // above it. Measured with the details closed, as the title line then stands alone.
  var heading = page.querySelector(".photo-heading");
  function measureTitleBar() {
    if (!heading || body.classList.contains("details-open")) return;
    body.style.setProperty("--title-bar", Math.max(56, Math.ceil(heading.getBoundingClientRect().height)) + "px");
  }
  if (heading && window.ResizeObserver) new ResizeObserver(measureTitleBar).observe(heading);

  photoDetails.arrive();
  measureTitleBar();
  measure();
  lastSize = figure.clientWidth + "x" + figure.clientHeight;
  centreAt(home, false);
  draw();
  useSharperRendition();
})();
