// Marquee: expand and collapse gallery cells. No framework; the page works without this file.
// The open cells are kept in the URL (#open=slug,slug), so links, reloads and Back restore them.
(function () {
  "use strict";
  var gallery = document.querySelector(".gallery");
  if (!gallery) return;
  var single = gallery.getAttribute("data-expand") === "single";
  var motion = window.matchMedia("(prefers-reduced-motion: reduce)");
  var PREFIX = "#open=";

  function slug(cell) { return cell.id.slice(5); }
  function cells() { return gallery.querySelectorAll(".cell"); }

  // Confirm the layout engine's prediction: is the collapsed text really cut?
  function measure(cell) {
    var desc = cell.querySelector(".cell-desc");
    if (!desc || cell.classList.contains("is-expanded")) return;
    cell.setAttribute("data-truncated", desc.scrollHeight > desc.clientHeight + 1 ? "true" : "false");
  }

  function setExpanded(cell, open, animate) {
    var desc = cell.querySelector(".cell-desc");
    var button = cell.querySelector(".toggle");
    if (!desc || cell.classList.contains("is-expanded") === open) return;
    var from = desc.offsetHeight;
    cell.classList.toggle("is-expanded", open);
    button.setAttribute("aria-expanded", open ? "true" : "false");
    if (!open) measure(cell);
    if (animate && !motion.matches && desc.animate) {
      desc.animate([{ height: from + "px", overflow: "hidden" }, { height: desc.offsetHeight + "px", overflow: "hidden" }],
        { duration: 180, easing: "ease-out" });
    }
  }

  function openSlugs() {
    var hash = location.hash;
    return hash.indexOf(PREFIX) === 0 ? decodeURIComponent(hash.slice(PREFIX.length)).split(",") : [];
  }

  // Makes the page match the URL.
  function apply(animate) {
    var wanted = openSlugs();
    for (var i = 0, all = cells(); i < all.length; i++) setExpanded(all[i], wanted.indexOf(slug(all[i])) >= 0, animate);
  }

  function toggle(cell) {
    var open = !cell.classList.contains("is-expanded");
    var wanted = single ? [] : openSlugs().filter(function (s) { return s && s !== slug(cell); });
    if (open) wanted.push(slug(cell));
    history.pushState(null, "", wanted.length ? PREFIX + wanted.join(",") : location.pathname + location.search);
    apply(true);
    if (open) {
      var rect = cell.getBoundingClientRect();
      if (rect.bottom > innerHeight || rect.top < 0) cell.scrollIntoView({ block: "nearest", behavior: motion.matches ? "auto" : "smooth" });
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
    if (!button && String(getSelection())) return;
    toggle(cell);
    if (!button) cell.querySelector(".toggle").focus({ preventScroll: true });
  });

  addEventListener("popstate", function () { apply(true); });
  apply(false);
  var first = document.getElementById("cell-" + openSlugs()[0]);
  if (first) first.scrollIntoView({ block: "nearest" });
  function measureAll() { for (var i = 0, all = cells(); i < all.length; i++) measure(all[i]); }
  (document.fonts ? document.fonts.ready : Promise.resolve()).then(measureAll);
  var timer;
  addEventListener("resize", function () { clearTimeout(timer); timer = setTimeout(measureAll, 100); });
})();
