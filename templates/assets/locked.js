/* A password-protected album's page: the real page arrives encrypted (AES-GCM, its key stretched
   from the password by PBKDF2-SHA256, as Folio's AlbumCipher made it). The key is derived here
   with WebCrypto from what the visitor types, the page decrypted and written in place of this
   one. The key (never the password) is kept for the browser session, so the album's other pages
   open without asking again. It starts at once, so a kept key opens the page before the theme's
   deferred scripts run (they run once, on the page decrypted); what it says is the site's
   language's (Folio.say, folio.js), said once those scripts have run. */
(function () {
  "use strict";
  function say(key) { return window.Folio && Folio.say ? Folio.say(key) : key; }
  function whenReady(then) {
    if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", then);
    else then();
  }
  function start() {
    var form = document.getElementById("locked-form");
    var payload = document.getElementById("locked-payload");
    var status = document.getElementById("locked-status");
    if (!form || !payload) return;
    var salt = form.getAttribute("data-salt");
    var iterations = parseInt(form.getAttribute("data-iterations"), 10);
    var storageKey = "folio-album-key:" + salt;

    function bytes(base64) {
      var text = atob(base64), out = new Uint8Array(text.length);
      for (var i = 0; i < text.length; i++) out[i] = text.charCodeAt(i);
      return out;
    }
    function base64(buffer) {
      var view = new Uint8Array(buffer), text = "";
      for (var i = 0; i < view.length; i++) text += String.fromCharCode(view[i]);
      return btoa(text);
    }
    function sayInStatus(key) { whenReady(function () { status.textContent = say(key); }); }

    if (!window.crypto || !window.crypto.subtle) {
      sayInStatus("locked.no-crypto");
      form.querySelector("button").disabled = true;
      return;
    }
    var subtle = window.crypto.subtle;

    function open(key) {
      var sealed = bytes(payload.textContent.trim());
      return subtle.decrypt({ name: "AES-GCM", iv: sealed.slice(0, 12) }, key, sealed.slice(12)).then(function (plain) {
        var html = new TextDecoder().decode(plain);
        document.open();
        document.write(html);
        document.close();
      });
    }

    function remembered() {
      try {
        var raw = sessionStorage.getItem(storageKey);
        return raw ? subtle.importKey("raw", bytes(raw), "AES-GCM", false, ["decrypt"]) : Promise.reject();
      } catch (e) { return Promise.reject(e); }
    }

    function derive(password) {
      return subtle.importKey("raw", new TextEncoder().encode(password), "PBKDF2", false, ["deriveBits"]).then(function (material) {
        return subtle.deriveBits({ name: "PBKDF2", salt: bytes(salt), iterations: iterations, hash: "SHA-256" }, material, 256);
      });
    }

    remembered().then(open).catch(function () {
      form.addEventListener("submit", function (event) {
        event.preventDefault();
        var password = document.getElementById("locked-password").value;
        sayInStatus("locked.opening");
        derive(password).then(function (raw) {
          return subtle.importKey("raw", raw, "AES-GCM", false, ["decrypt"]).then(function (key) {
            return open(key).then(function () {
              try { sessionStorage.setItem(storageKey, base64(raw)); } catch (e) { /* private mode: ask again next page */ }
            });
          });
        }).catch(function () {
          sayInStatus("locked.wrong");
          document.getElementById("locked-password").select();
        });
      });
    });
  }
  start();
})();
