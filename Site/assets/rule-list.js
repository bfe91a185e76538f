// bgkb rule list: filters by topic, kind, source and examples, kept in the URL's query.
(function () {
  "use strict";
  var form = document.getElementById("rule-filters");
  if (!form) { return; }
  var names = ["topic", "kind", "source"];
  var examples = document.getElementById("examples");
  var count = document.getElementById("rule-count");
  var items = Array.prototype.slice.call(document.querySelectorAll(".rule-list.filterable li"));
  var params = new URLSearchParams(window.location.search);
  names.forEach(function (name) {
    var select = document.getElementById(name), wanted = params.get(name) || "";
    for (var i = 0; i < select.options.length; i++) { if (select.options[i].value === wanted) { select.value = wanted; } }
  });
  examples.checked = params.get("examples") === "1";

  function apply(updateURL) {
    var topic = document.getElementById("topic").value, kind = document.getElementById("kind").value;
    var source = document.getElementById("source").value, withExamples = examples.checked;
    var shown = 0;
    items.forEach(function (item) {
      var keep = (!topic || (" " + item.getAttribute("data-topics") + " ").indexOf(" " + topic + " ") >= 0) &&
        (!kind || item.getAttribute("data-kind") === kind) &&
        (!source || (" " + item.getAttribute("data-sources") + " ").indexOf(" " + source + " ") >= 0) &&
        (!withExamples || item.getAttribute("data-examples") === "1");
      item.hidden = !keep;
      if (keep) { shown += 1; }
    });
    var filtered = !!(topic || kind || source || withExamples);
    count.textContent = filtered ? (shown === 1 ? "1 rule matches" : shown + " rules match") + " these filters." : "";
    if (updateURL) {
      var query = new URLSearchParams();
      if (topic) { query.set("topic", topic); }
      if (kind) { query.set("kind", kind); }
      if (source) { query.set("source", source); }
      if (withExamples) { query.set("examples", "1"); }
      var search = query.toString();
      try { window.history.replaceState(null, "", search ? "?" + search : window.location.pathname); } catch (error) { /* file:// may refuse */ }
    }
  }
  form.addEventListener("change", function () { apply(true); });
  form.addEventListener("submit", function (event) { event.preventDefault(); apply(true); });
  apply(false);
})();
