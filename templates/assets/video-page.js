/* Folio: a video's page. The video plays with the browser's own controls; this gives the page
   what the photo viewer gives a photo's: the details opened and closed by the i button or key
   (details.js, which the viewer shares), the previous and next videos or
   photos on the arrow keys while the video is not focused, and the stage's arrows. */
(function () {
  "use strict";

  var figure = document.querySelector(".photo-figure.video-figure");
  var video = figure && figure.querySelector(".photo-video");
  if (!video) return;
  var page = figure.closest(".photo-page") || document;
  var controls = page.querySelector(".viewer-controls");
  var infoButton = page.querySelector(".viewer-button[data-info]");
  // Without details.js (a site's own photo.mustache from before it) the video plays as it is.
  if (!window.Folio || !Folio.details) return;
  var details = Folio.details(page);
  var toggleDetails = details.toggle;

  function go(rel) {
    var link = page.querySelector("a[rel='" + rel + "']");
    if (link) location.href = link.href;
    return !!link;
  }

  if (controls) {
    // Zooming is the photo viewer's; a video has only its details to show.
    controls.querySelectorAll("[data-zoom]").forEach(function (button) { button.hidden = true; });
    controls.hidden = false;
    if (infoButton) infoButton.addEventListener("click", function () { toggleDetails(); });
  }
  page.querySelectorAll(".stage-nav").forEach(function (link) { link.hidden = false; });
  document.addEventListener("keydown", function (event) {
    if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return;
    var target = event.target;
    // The video's own keys (seeking with the arrows) win while it has the focus.
    if (target === video || (target.closest && target.closest("input, textarea, select, [contenteditable]"))) return;
    var done = true;
    var rtl = window.Folio && Folio.rightToLeft;
    if (event.key === "ArrowLeft") done = go(rtl ? "next" : "prev");
    else if (event.key === "ArrowRight") done = go(rtl ? "prev" : "next");
    else if (event.key === "i") toggleDetails();
    else done = false;
    if (done) event.preventDefault();
  });
  details.arrive();
})();
