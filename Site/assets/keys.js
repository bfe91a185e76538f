// bgkb, on every page: "/" jumps to the search box; code blocks get a Copy button; headings
// with an id get a link to themselves; boxes that scroll sideways can be reached by keyboard.
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
  var main = document.getElementById("main");
  if (!main) { return; }

  function copy(text, done) {
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(text).then(function () { done(true); }, function () { done(fallback(text)); });
    } else { done(fallback(text)); }
  }
  function fallback(text) {
    var area = document.createElement("textarea");
    area.value = text; area.setAttribute("readonly", ""); area.className = "visually-hidden";
    document.body.appendChild(area); area.select();
    var ok = false;
    try { ok = document.execCommand("copy"); } catch (error) { ok = false; }
    document.body.removeChild(area);
    return ok;
  }
  Array.prototype.forEach.call(main.querySelectorAll("pre"), function (pre) {
    if (pre.closest(".quiz-card")) { return; }
    var code = pre.querySelector("code") || pre;
    var wrap = document.createElement("div");
    wrap.className = "code-block";
    pre.parentNode.insertBefore(wrap, pre);
    wrap.appendChild(pre);
    var button = document.createElement("button");
    button.type = "button"; button.className = "copy-button"; button.textContent = "Copy";
    button.setAttribute("aria-label", "Copy this code");
    button.addEventListener("click", function () {
      copy(code.textContent, function (ok) {
        button.textContent = ok ? "Copied" : "Select and copy";
        window.setTimeout(function () { button.textContent = "Copy"; }, 2000);
      });
    });
    wrap.appendChild(button);
  });
  Array.prototype.forEach.call(main.querySelectorAll("h2[id], h3[id]"), function (heading) {
    if (heading.querySelector(".heading-anchor") || heading.closest(".quiz-card") || heading.closest("#results")) { return; }
    var link = document.createElement("a");
    link.className = "heading-anchor"; link.href = "#" + heading.id; link.textContent = "#";
    link.setAttribute("aria-label", "Link to this section: " + heading.textContent);
    heading.appendChild(link);
  });
  // Scrolling regions must be reachable by keyboard (axe: scrollable-region-focusable).
  function focusable() {
    Array.prototype.forEach.call(main.querySelectorAll("pre, figure, .timeline, .table-scroll, table, svg"), function (box) {
      var scrolls = box.scrollWidth > box.clientWidth + 1 || box.scrollHeight > box.clientHeight + 1;
      if (scrolls && !box.hasAttribute("tabindex") && box.tagName !== "svg") { box.setAttribute("tabindex", "0"); }
    });
  }
  focusable();
  window.addEventListener("resize", focusable);
})();
