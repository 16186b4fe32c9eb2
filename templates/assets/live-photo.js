/* Folio: a Live Photo's page. Its clip plays over the still while the visitor hovers the photo
   with a mouse or holds a finger on it, and from the Live button (or the l key) for keyboards;
   it stops when they let go, or at its end. Without this script the clip is a link in the details. */
(function () {
  "use strict";

  var figure = document.querySelector(".photo-figure.live-figure");
  var motion = figure && figure.querySelector(".live-motion");
  var button = document.querySelector(".live-toggle");
  if (!motion || !button) return;
  var reducedMotion = window.matchMedia("(prefers-reduced-motion: reduce)");
  var holdTimer = 0;

  function play() {
    motion.hidden = false;
    button.setAttribute("aria-pressed", "true");
    try { motion.currentTime = 0; } catch (e) { /* not loaded yet: it starts at 0 anyway */ }
    var started = motion.play();
    if (started && started.catch) started.catch(stop);
  }
  function stop() {
    clearTimeout(holdTimer);
    motion.pause();
    motion.hidden = true;
    button.setAttribute("aria-pressed", "false");
  }
  function playing() { return !motion.hidden; }

  button.hidden = false;
  button.addEventListener("click", function (event) {
    event.stopPropagation();
    if (playing()) stop(); else play();
  });
  motion.addEventListener("ended", stop);
  // Hovering plays it, unless the visitor asked for less motion: the button still does.
  figure.addEventListener("pointerenter", function (event) {
    if (event.pointerType === "mouse" && !reducedMotion.matches) play();
  });
  figure.addEventListener("pointerleave", function (event) {
    if (event.pointerType === "mouse") stop();
  });
  // A finger held still a moment plays it; a quick touch is left to the viewer (zoom, swipe).
  figure.addEventListener("pointerdown", function (event) {
    if (event.pointerType === "mouse") return;
    holdTimer = setTimeout(play, 250);
  });
  ["pointerup", "pointercancel"].forEach(function (name) {
    figure.addEventListener(name, function (event) { if (event.pointerType !== "mouse") stop(); });
  });
  document.addEventListener("keydown", function (event) {
    if (event.key !== "l" || event.ctrlKey || event.metaKey || event.altKey) return;
    var target = event.target;
    if (target && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.nodeName))) return;
    if (playing()) stop(); else play();
  });
})();
