import FolioCore
import Foundation

/// The few lines of JavaScript the preview adds to every HTML page it serves (never to the
/// files in `public/`, which stay exactly what `folio build` writes). They listen to
/// `/__folio/events` while the tab is visible: reload on a new site, show a failed build's
/// message in an overlay, and a small "Rebuilding…" note while a build runs.
enum LiveReloadScript {
    static let eventsPath = "/__folio/events"

    static let source = """
    (function () {
      "use strict";
      if (window.__folioPreview || !window.EventSource) { return; }
      window.__folioPreview = true;
      var build = null, overlay = null, note = null;
      function element(tag, css) { var e = document.createElement(tag); e.style.cssText = css; return e; }
      // A build that failed leaves the last good site; one that put a site in place without some
      // photos says so, in amber rather than red: the page is the latest, only incomplete.
      function showError(message, headline) {
        if (!overlay) {
          overlay = element("div", "position:fixed;left:0;right:0;bottom:0;max-height:60vh;overflow:auto;z-index:2147483647;" +
            "font:13px/1.5 ui-monospace,monospace;padding:12px 16px;border-top:4px solid;");
          overlay.id = "folio-build-error";
          overlay.setAttribute("role", "alert");
          var close = element("button", "float:right;font:inherit;background:none;color:inherit;border:1px solid;cursor:pointer;");
          close.textContent = "×";
          close.setAttribute("aria-label", "Hide");
          close.onclick = function () { overlay.style.display = "none"; };
          overlay.appendChild(close);
          overlay.appendChild(element("strong", "display:block;margin-bottom:6px;"));
          overlay.appendChild(element("pre", "margin:0;white-space:pre-wrap;"));
          document.body.appendChild(overlay);
        }
        overlay.style.background = headline ? "#2b200b" : "#2b0b0e";
        overlay.style.color = headline ? "#fff0d0" : "#ffdede";
        overlay.style.borderTopColor = headline ? "#e5a00d" : "#e5484d";
        overlay.children[1].textContent = headline ? "folio: " + headline + ":" : "folio: the build failed; this is the last good site.";
        overlay.lastChild.textContent = message;
        overlay.style.display = "block";
      }
      function hideError() { if (overlay) { overlay.style.display = "none"; } }
      function building(on) {
        if (!note) {
          note = element("div", "position:fixed;top:8px;right:8px;z-index:2147483647;background:#222;color:#fff;" +
            "font:12px/1 system-ui,sans-serif;padding:6px 10px;border-radius:4px;opacity:.85;pointer-events:none;");
          note.id = "folio-building";
          note.textContent = "Rebuilding…";
          document.body.appendChild(note);
        }
        note.style.display = on ? "block" : "none";
      }
      function state(event) {
        var s = JSON.parse(event.data);
        if (build !== null && s.build !== build) { location.reload(); return; }
        build = s.build;
        building(s.building);
        if (s.error) { showError(s.error, s.headline); } else { hideError(); }
      }
      var source = null;
      function connect() {
        source = new EventSource("\(eventsPath)");
        source.addEventListener("hello", state);
        source.addEventListener("building", function () { building(true); });
        source.addEventListener("reload", function () { location.reload(); });
        source.addEventListener("build-failed", function (event) { building(false); showError(JSON.parse(event.data).error, null); });
      }
      // A browser opens at most six connections to a server; a stream per background tab would
      // soon leave none for pages. Hidden tabs let go of theirs, and on coming back the first
      // "hello" tells them whether they missed a build.
      document.addEventListener("visibilitychange", function () {
        if (document.hidden) { if (source) { source.close(); source = null; } }
        else if (!source) { connect(); }
      });
      if (!document.hidden) { connect(); }
    })();
    """

    static let tag = Data("<script data-folio-preview>\(source)</script>\n".utf8)

    /// Part of the ETag of every page the script goes into, so a Folio with another script
    /// never gets a 304 for a page that holds the old one.
    static let version = String(ContentHash.hex(source).prefix(8))

    /// `page` with the script before its last `</body>`, or at its end when it has none.
    static func inject(into page: Data) -> Data {
        let closing = Array("</body>".utf8)
        let bytes = [UInt8](page)
        var index = bytes.count - closing.count
        while index >= 0 {
            if bytes[index] == UInt8(ascii: "<") && zip(bytes[index..<(index + closing.count)], closing).allSatisfy({ lower($0) == $1 }) {
                var result = Data(bytes[..<index])
                result.append(tag)
                result.append(contentsOf: bytes[index...])
                return result
            }
            index -= 1
        }
        var result = page
        result.append(tag)
        return result
    }

    private static func lower(_ byte: UInt8) -> UInt8 {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte + 32 : byte
    }
}
