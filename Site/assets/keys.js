// bgkb: press "/" anywhere to jump to the search box.
(function () {
  "use strict";
  document.addEventListener("keydown", function (event) {
    if (event.key !== "/" || event.ctrlKey || event.metaKey || event.altKey) { return; }
    var target = event.target;
    if (target && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName))) { return; }
    var box = document.getElementById("q") || document.getElementById("site-q");
    if (!box) { return; }
    event.preventDefault();
    box.focus();
    box.select();
  });
})();
