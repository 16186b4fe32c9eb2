/* Folio: the Recents page. What this visitor looked at, most recent first. */
(function () {
  "use strict";

  var body = document.body;
  var photosById = Folio.photosById, onChange = Folio.onChange;
  var recents = Folio.recents;
  var el = Folio.draw.el, thumbImage = Folio.draw.thumbImage, photoHref = Folio.draw.photoHref;
  var byline = Folio.draw.byline, ago = Folio.draw.ago, say = Folio.say;

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
        var clear = el("button", { className: "button quiet", type: "button", text: say("recents.clear") });
        clear.addEventListener("click", function () { recents.clear(); block.focus(); });
        block.appendChild(el("div", { className: "section-actions" }, [
          el("h2", { className: "section-title", id: "recently-viewed", text: say("recents.viewed-title") }),
          shown.length ? clear : null
        ]));
        if (subheading) subheading.textContent = say(shown.length ? "recents.looked-at" : "recents.added");
        added.forEach(function (node) { node.classList.toggle("is-replaced", shown.length > 0); });
        if (!shown.length) {
          block.appendChild(el("p", { className: "hint", text: say("recents.hint") }));
          return;
        }
        var list = el("ul", { className: "rows recents-list" });
        shown.forEach(function (entry) {
          var photo = entry.photo;
          var remove = el("button", {
            className: "remove-row", type: "button", title: say("recents.remove"),
            "aria-label": say("recents.remove-photo", { title: photo.title })
          }, [document.createTextNode("✕")]);
          remove.addEventListener("click", function () {
            var next = remove.closest("li").nextElementSibling;
            recents.remove(photo.id);
            if (!next) block.focus();
          });
          list.appendChild(el("li", { "data-recent": photo.id }, [
            el("a", { className: "row", href: photoHref(photo), "data-photo": photo.id }, [
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

  recentsPage();
})();
