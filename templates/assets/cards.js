/* Folio: drawing photos from the index's data (Folio.draw): elements, never HTML from strings. */
(function () {
  "use strict";

  var root = Folio.root, say = Folio.say;

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

  function photoHref(photo) { return root + photo.href; }
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
      ]),
      motionBadge(photo)
    ]);
  }

  /* A video's length or a Live Photo's mark, as the build draws them on its cards. */
  function motionBadge(photo) {
    if (photo.duration) {
      return el("span", { className: "motion-badge" }, [
        el("span", { "aria-hidden": "true", text: "\u25B6 " }),
        el("span", { className: "visually-hidden", text: say("photo.video-spoken") + " " }),
        document.createTextNode(photo.duration)
      ]);
    }
    if (photo.live) {
      return el("span", { className: "motion-badge" }, [
        el("span", { "aria-hidden": "true", text: "\u25C9 " }),
        document.createTextNode(say("photo.live")),
        el("span", { className: "visually-hidden", text: " " + say("photo.live-spoken") })
      ]);
    }
    return null;
  }

  function ago(t) {
    var minutes = Math.max(0, Math.round((Date.now() - t) / 60000));
    if (minutes < 1) return say("recents.viewed-now");
    if (minutes < 60) return say("recents.viewed", { ago: Folio.ago(minutes, "minute") });
    return say("recents.viewed", { ago: Folio.ago(Math.floor(minutes / 60), "hour") });
  }

  Folio.draw = { el: el, photoHref: photoHref, byline: byline, thumbImage: thumbImage, card: card, ago: ago };
})();
