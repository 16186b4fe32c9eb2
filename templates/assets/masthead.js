/* Folio: the masthead. On narrow screens the sections are a menu behind a button; what sticks
   to the top is measured so anchors land below it. */
(function () {
  "use strict";

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

  stickyOffsets();
  sectionsMenu();
})();
