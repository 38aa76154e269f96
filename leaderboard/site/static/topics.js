// The run page's per-topic chart: the metric selector shows one chart (Overall by default); no dependencies.
(function () {
  "use strict";
  var select = document.getElementById("topic-metric");
  if (!select) return;
  var charts = document.querySelectorAll("#topic-charts .tchart");
  function show() {
    Array.prototype.forEach.call(charts, function (c) { c.hidden = c.getAttribute("data-metric") !== select.value; });
  }
  select.addEventListener("change", show);
  show();
})();
