// Sorting (click a header) and filtering (the select boxes) of the leaderboard table; no dependencies.
(function () {
  "use strict";
  var table = document.getElementById("board");
  if (!table) return;
  var body = table.tBodies[0];
  var headers = table.tHead.rows[0].cells;
  function key(row, col, numeric) {
    var cell = row.cells[col];
    if (numeric) {
      var v = cell.getAttribute("data-value");
      return v === null || v === "" ? null : parseFloat(v);
    }
    return cell.textContent.trim().toLowerCase();
  }
  Array.prototype.forEach.call(headers, function (th, col) {
    th.addEventListener("click", function () {
      var numeric = th.getAttribute("data-type") === "num";
      var desc = th.classList.contains("asc") || (!th.classList.contains("desc") && numeric);
      Array.prototype.forEach.call(headers, function (h) { h.classList.remove("asc", "desc"); });
      th.classList.add(desc ? "desc" : "asc");
      var rows = Array.prototype.slice.call(body.rows);
      rows.sort(function (a, b) {
        var x = key(a, col, numeric), y = key(b, col, numeric);
        if (x === y) return 0;
        if (x === null) return 1;   // missing values last in both directions
        if (y === null) return -1;
        return (x < y ? -1 : 1) * (desc ? -1 : 1);
      });
      rows.forEach(function (r) { body.appendChild(r); });
    });
  });
  var selects = document.querySelectorAll("#filters select");
  function apply() {
    Array.prototype.forEach.call(body.rows, function (row) {
      var show = true;
      Array.prototype.forEach.call(selects, function (s) {
        if (s.value && row.getAttribute("data-" + s.getAttribute("data-filter")) !== s.value) show = false;
      });
      row.hidden = !show;
    });
  }
  Array.prototype.forEach.call(selects, function (s) { s.addEventListener("change", apply); });
})();
