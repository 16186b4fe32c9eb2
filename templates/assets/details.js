/* Folio: a photo's or a video's details (facts, description, the pager), shared by viewer.js and
   video-page.js, which photo.mustache loads after this. Beside the photo on wide screens, over
   its lower part on narrow ones; open on arrival only on wide screens. A visitor who closes them
   on a wide screen keeps them closed from page to page, photo or video (this visit); from a wide
   window to a narrow one (or back) they go as they would have come.

     var details = Folio.details(page, {
       closing: function () {}   // optional: they are about to hide (the viewer takes the focus back)
     });
     details.toggle();           // the visitor's i, button or tap: show or hide, and remember it
     details.toggle(true);       // show (false: hide), not remembered
     details.arrive();           // as they come on arrival */
(function () {
  "use strict";
  if (!window.Folio) window.Folio = {};

  var KEY = "folio:details-closed";
  var wide = window.matchMedia("(min-width: 900px)");

  window.Folio.details = function (page, on) {
    var body = document.body;
    var button = page.querySelector(".viewer-button[data-info]");
    var closing = (on && on.closing) || function () {};

    function toggle(show) {
      var open = show === undefined ? !body.classList.contains("details-open") : !!show;
      if (!open) closing();
      body.classList.toggle("details-open", open);
      if (button) button.setAttribute("aria-expanded", open ? "true" : "false");
      if (show === undefined && wide.matches) {
        try { if (open) sessionStorage.removeItem(KEY); else sessionStorage.setItem(KEY, "1"); } catch (e) { /* private mode */ }
      }
    }
    function onArrival() {
      try { if (sessionStorage.getItem(KEY)) return false; } catch (e) { /* private mode */ }
      return wide.matches;
    }
    function arrive() { toggle(onArrival()); }
    wide.addEventListener("change", arrive);
    return { toggle: toggle, arrive: arrive };
  };
})();
