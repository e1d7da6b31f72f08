// Marquee: the gallery's filter box, over search.json (title, author, source). Progressive
// enhancement: without JavaScript the form is hidden (see marquee.css) and the pages work as they are.
(function () {
  "use strict";
  var form = document.querySelector("form.filter");
  if (!form || !window.fetch) return;
  var input = form.querySelector("input");
  var results = form.querySelector(".filter-results");
  var root = form.getAttribute("data-root");
  var index = null;
  form.addEventListener("submit", function (event) { event.preventDefault(); });

  function load() {
    if (!index) index = fetch(form.getAttribute("data-index")).then(function (r) { return r.json(); });
    return index;
  }

  function show(entries, query) {
    results.textContent = "";
    if (!query) return;
    var words = query.toLowerCase().split(/\s+/).filter(Boolean);
    var matches = entries.filter(function (e) {
      var text = (e.t + " " + (e.a || "") + " " + e.s).toLowerCase();
      return words.every(function (w) { return text.indexOf(w) >= 0; });
    });
    matches.slice(0, 20).forEach(function (e) {
      var li = document.createElement("li");
      var a = document.createElement("a");
      a.href = root + e.u;
      a.textContent = e.t;
      li.appendChild(a);
      li.appendChild(document.createTextNode(" · " + (e.a ? e.a + " · " : "") + e.s));
      results.appendChild(li);
    });
    if (!matches.length) { var none = document.createElement("li"); none.textContent = "No match."; results.appendChild(none); }
  }

  input.addEventListener("focus", load);
  input.addEventListener("input", function () {
    var query = input.value.trim();
    load().then(function (entries) { if (input.value.trim() === query) show(entries, query); });
  });
})();
