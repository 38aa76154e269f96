// The compare page: each select loads the chosen run's sample page into its iframe. A hash (#<run-id>, as the
// sample pages link here) puts that run on the left and the first other run on the right. No dependencies.
(function () {
  "use strict";
  var selects = [document.getElementById("run-a"), document.getElementById("run-b")];
  if (!selects[0] || !selects[1]) return;
  function load(select) {
    var frame = document.getElementById(select.getAttribute("data-frame"));
    if (frame.getAttribute("src") !== select.value) frame.setAttribute("src", select.value);
  }
  var wanted = decodeURIComponent(location.hash.replace(/^#/, ""));
  if (wanted) {
    var options = Array.prototype.slice.call(selects[0].options);
    var hit = options.filter(function (o) { return o.getAttribute("data-run") === wanted; })[0];
    if (hit) {
      selects[0].value = hit.value;
      var other = options.filter(function (o) { return o !== hit; })[0];
      if (other) selects[1].value = other.value;
    }
  }
  selects.forEach(function (s) {
    s.addEventListener("change", function () { load(s); });
    load(s);
  });
})();
