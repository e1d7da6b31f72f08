// Marquee: expand and collapse gallery cells. No framework; the page works without this file.
(function () {
  "use strict";
  var gallery = document.querySelector(".gallery");
  if (!gallery) return;
  var single = gallery.getAttribute("data-expand") === "single";
  var reduceMotion = window.matchMedia("(prefers-reduced-motion: reduce)");

  // Confirm the layout engine's prediction: is the collapsed text really cut?
  function measure(cell) {
    if (cell.classList.contains("is-expanded")) return;
    var desc = cell.querySelector(".cell-desc");
    if (!desc) return;
    cell.setAttribute("data-truncated", desc.scrollHeight > desc.clientHeight + 1 ? "true" : "false");
  }
  function measureAll() {
    var cells = gallery.querySelectorAll(".cell");
    for (var i = 0; i < cells.length; i++) measure(cells[i]);
  }

  function setExpanded(cell, open) {
    var button = cell.querySelector(".toggle");
    cell.classList.toggle("is-expanded", open);
    if (button) button.setAttribute("aria-expanded", open ? "true" : "false");
    if (!open) measure(cell);
  }

  function toggle(cell) {
    var open = !cell.classList.contains("is-expanded");
    if (open && single) {
      var others = gallery.querySelectorAll(".cell.is-expanded");
      for (var i = 0; i < others.length; i++) if (others[i] !== cell) setExpanded(others[i], false);
    }
    setExpanded(cell, open);
    if (open) {
      var rect = cell.getBoundingClientRect();
      if (rect.bottom > window.innerHeight || rect.top < 0) {
        cell.scrollIntoView({ block: "nearest", behavior: reduceMotion.matches ? "auto" : "smooth" });
      }
    }
  }

  gallery.addEventListener("click", function (event) {
    var target = event.target;
    if (target.closest("a")) return;
    var button = target.closest(".toggle");
    var desc = target.closest(".cell-desc");
    var cell = (button || desc) && (button || desc).closest(".cell");
    if (!cell) return;
    if (!button && !cell.classList.contains("is-expanded") && cell.getAttribute("data-truncated") !== "true") return;
    if (window.getSelection && String(window.getSelection()) && !button) return;
    toggle(cell);
    if (!button) { var b = cell.querySelector(".toggle"); if (b) b.focus({ preventScroll: true }); }
  });

  if (document.fonts && document.fonts.ready) document.fonts.ready.then(measureAll); else measureAll();
  var resizeTimer;
  window.addEventListener("resize", function () { clearTimeout(resizeTimer); resizeTimer = setTimeout(measureAll, 100); });
})();
