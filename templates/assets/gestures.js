/* Folio's pointer gestures, shared by the photo viewer (viewer.js) and the map (map.js): one
   finger or the mouse drags, two fingers pinch, a touch or click that does not move is a tap,
   the wheel (and a trackpad's pinch, which arrives as a wheel with ctrlKey) zooms. The caller
   keeps its own view; this only says what the pointers did, in pixels from the top-left corner
   inside the element's border. The pointer is captured only once it moves, so a tap on a link inside
   (a map's marker) is still a click on that link; a drag's closing click is swallowed.

     Folio.gestures(element, {
       begin: function () { return state; },          // a gesture starts: what to move from
       drag: function (state, dx, dy) {},             // moved by (dx, dy) since it began
       pinch: function (state, ratio, mid, startMid) {},  // fingers' distance × ratio, midpoint moved
       end: function (state, info) {},                // { moved, pinch, cancelled, dx, dy, elapsed, type, x, y }
       wheel: function (factor, x, y) {},             // zoom by factor about (x, y)
       dragging: function (on) {}                     // a drag started or ended (cursor, classes)
     }); */
(function () {
  "use strict";
  if (!window.Folio) window.Folio = {};

  window.Folio.gestures = function (element, on) {
    var pointers = new Map();
    var gesture = null;
    var origin = { left: 0, top: 0 };
    var dragEnded = -Infinity;

    function startGesture() {
      var points = Array.from(pointers.values());
      gesture = { state: on.begin ? on.begin() : null, time: performance.now(), moved: gesture ? gesture.moved : false,
                  type: points[0].type, pinch: points.length > 1 };
      if (gesture.pinch) {
        var a = points[0], b = points[1];
        gesture.distance = Math.hypot(a.x - b.x, a.y - b.y) || 1;
        gesture.mid = { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 };
      } else {
        gesture.start = { x: points[0].x, y: points[0].y };
      }
    }

    function capture(id) {
      try { element.setPointerCapture(id); } catch (e) { /* a pointer the browser does not track */ }
    }

    element.addEventListener("pointerdown", function (event) {
      if (event.button > 0) return;
      // Measured once a gesture starts, never while it moves; inside the element's border.
      var rect = element.getBoundingClientRect();
      origin = { left: rect.left + element.clientLeft, top: rect.top + element.clientTop };
      pointers.set(event.pointerId, { x: event.clientX - origin.left, y: event.clientY - origin.top, type: event.pointerType });
      if (pointers.size === 1) gesture = null;
      if (pointers.size <= 2) startGesture();
      if (pointers.size > 1) pointers.forEach(function (p, id) { capture(id); });
    });

    element.addEventListener("pointermove", function (event) {
      var p = pointers.get(event.pointerId);
      if (!p || !gesture) return;
      p.x = event.clientX - origin.left;
      p.y = event.clientY - origin.top;
      var points = Array.from(pointers.values());
      if (gesture.pinch && points.length > 1) {
        var a = points[0], b = points[1];
        var mid = { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 };
        gesture.moved = true;
        if (on.pinch) on.pinch(gesture.state, Math.hypot(a.x - b.x, a.y - b.y) / gesture.distance, mid, gesture.mid);
      } else if (!gesture.pinch) {
        var dx = p.x - gesture.start.x, dy = p.y - gesture.start.y;
        if (!gesture.moved && Math.hypot(dx, dy) < 6) return;
        if (!gesture.moved) {
          capture(event.pointerId);
          if (on.dragging) on.dragging(true);
        }
        gesture.moved = true;
        if (on.drag) on.drag(gesture.state, dx, dy);
      }
    });

    function endPointer(event) {
      var p = pointers.get(event.pointerId);
      if (!p) return;
      pointers.delete(event.pointerId);
      if (on.dragging) on.dragging(false);
      if (!gesture) return;
      if (pointers.size > 0) {
        // One finger of a pinch lifted: the other one drags from here.
        startGesture();
        return;
      }
      var g = gesture;
      gesture = null;
      if (g.moved) dragEnded = performance.now();
      var start = g.start || { x: p.x, y: p.y };
      if (on.end) {
        on.end(g.state, { moved: g.moved, pinch: g.pinch, cancelled: event.type === "pointercancel", dx: p.x - start.x, dy: p.y - start.y,
                          elapsed: performance.now() - g.time, type: g.type, x: p.x, y: p.y });
      }
    }
    element.addEventListener("pointerup", endPointer);
    element.addEventListener("pointercancel", endPointer);
    element.addEventListener("dragstart", function (event) { event.preventDefault(); });
    // The click a drag ends with is not a click on what it ended over; a click from the keyboard
    // (detail 0), or one after another press, is.
    element.addEventListener("click", function (event) {
      if (event.detail === 0 || performance.now() - dragEnded > 400) return;
      dragEnded = -Infinity;
      event.preventDefault();
      event.stopPropagation();
    }, true);
    element.addEventListener("pointerdown", function () { dragEnded = -Infinity; }, true);

    if (on.wheel) {
      element.addEventListener("wheel", function (event) {
        event.preventDefault();
        var rect = element.getBoundingClientRect();
        var left = rect.left + element.clientLeft, top = rect.top + element.clientTop;
        var unit = event.deltaMode === 1 ? 16 : event.deltaMode === 2 ? element.clientHeight : 1;
        // A trackpad pinch arrives as a wheel with ctrlKey, in small steps: make it count more.
        on.wheel(Math.exp(-event.deltaY * unit * (event.ctrlKey ? 0.01 : 0.0015)), event.clientX - left, event.clientY - top);
      }, { passive: false });
    }
  };
})();
