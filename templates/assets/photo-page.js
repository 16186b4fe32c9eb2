/* Folio: a photo's page. Its view goes into recents; the ♡ button keeps it in favorites. */
(function () {
  "use strict";

  var article = document.querySelector(".photo-page[data-photo]");
  if (!article) return;
  var id = article.getAttribute("data-photo");
  Folio.recents.record(id);
  var button = article.querySelector(".favorite-toggle");
  if (!button) return;
  var heart = button.querySelector(".heart");
  function draw() {
    var on = Folio.favorites.has(id);
    button.setAttribute("aria-pressed", on ? "true" : "false");
    heart.textContent = on ? "♥" : "♡";
    button.title = Folio.say(on ? "photo.favorite-on" : "photo.favorite-off");
  }
  button.hidden = false;
  button.addEventListener("click", function (event) {
    event.stopPropagation();
    Folio.favorites.toggle(id);
  });
  Folio.onChange(function (name) { if (name === "favorites") draw(); });
  draw();
})();
