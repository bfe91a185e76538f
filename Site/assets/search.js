// bgkb search: runs over window.BGKB_SEARCH (assets/search-index.js); filters live in the URL.
(function () {
  "use strict";
  var data = window.BGKB_SEARCH;
  var form = document.getElementById("search-form");
  if (!data || !form) { return; }
  var box = document.getElementById("q");
  var selects = { topic: document.getElementById("topic"), kind: document.getElementById("kind"), source: document.getElementById("source") };
  var results = document.getElementById("results");
  var status = document.getElementById("search-status");
  // The index lists rules in Content order (the build writes each rule's entry with its
  // page); `o` is the order the site lists them in: by importance, removed rules last.
  var rules = data.rules.slice().sort(function (a, b) { return a.o - b.o; });
  var limit = 100;

  rules.forEach(function (rule) {
    rule.lid = rule.id.toLowerCase();
    rule.lt = rule.t.toLowerCase();
    rule.ls = rule.s.toLowerCase();
    rule.lx = rule.x.toLowerCase();
    rule.la = rule.a.join(" ").toLowerCase();
    rule.lc = rule.c.join(" ").toLowerCase();
  });

  var params = new URLSearchParams(window.location.search);
  box.value = params.get("q") || "";
  Object.keys(selects).forEach(function (name) {
    var select = selects[name];
    var wanted = params.get(name) || "";
    for (var i = 0; i < select.options.length; i++) {
      if (select.options[i].value === wanted) { select.value = wanted; }
    }
  });

  function termScore(rule, term) {
    var score = 0;
    if (rule.lid === term) { score += 100; } else if (rule.lid.indexOf(term) >= 0) { score += 30; }
    if (rule.lc.indexOf(term) >= 0) { score += 60; }
    if (rule.lt.indexOf(term) >= 0) { score += 30; }
    if (rule.la.indexOf(term) >= 0) { score += 25; }
    if (rule.ls.indexOf(term) >= 0) { score += 15; }
    if (rule.lx.indexOf(term) >= 0) { score += 5; }
    return score;
  }

  function score(rule, terms) {
    var total = 0;
    for (var i = 0; i < terms.length; i++) {
      var s = termScore(rule, terms[i]);
      if (s === 0) { return 0; }
      total += s;
    }
    return total - (rule.r ? 50 : 0);
  }

  function element(tag, className, text) {
    var node = document.createElement(tag);
    if (className) { node.className = className; }
    if (text !== undefined) { node.textContent = text; }
    return node;
  }

  function show(matches, total) {
    results.textContent = "";
    matches.slice(0, limit).forEach(function (match) {
      var rule = match.rule;
      var item = element("li", "result");
      var heading = element("p", "result-title");
      var link = element("a", "", rule.t);
      link.href = rule.u;
      heading.appendChild(link);
      heading.appendChild(document.createTextNode(" "));
      heading.appendChild(element("span", "badge kind-" + rule.k, rule.kl));
      if (rule.r) { heading.appendChild(document.createTextNode(" ")); heading.appendChild(element("span", "badge removed", "Removed")); }
      item.appendChild(heading);
      if (rule.s !== rule.t) { item.appendChild(element("p", "result-statement", rule.s)); }
      var extra = rule.c.concat(rule.a);
      if (extra.length) { item.appendChild(element("p", "result-apis", extra.join(" · "))); }
      results.appendChild(item);
    });
    status.textContent = total === 0 ? "No rule matches." :
      (total === 1 ? "1 rule matches." : total + " rules match." ) + (total > limit ? " Showing the first " + limit + "." : "");
  }

  function run(updateURL) {
    var terms = box.value.toLowerCase().split(/\s+/).filter(function (t) { return t.length > 0; });
    var filters = { topic: selects.topic.value, kind: selects.kind.value, source: selects.source.value };
    var filtered = !!(filters.topic || filters.kind || filters.source);
    if (updateURL) {
      var query = new URLSearchParams();
      if (box.value.trim()) { query.set("q", box.value.trim()); }
      Object.keys(filters).forEach(function (name) { if (filters[name]) { query.set(name, filters[name]); } });
      var search = query.toString();
      try { window.history.replaceState(null, "", search ? "?" + search : window.location.pathname); } catch (error) { /* file:// may refuse; the search still works */ }
    }
    if (terms.length === 0 && !filtered) {
      results.textContent = "";
      status.textContent = "Type to search " + rules.length + " rules by id, title, text, API or crash code.";
      return;
    }
    var matches = [];
    rules.forEach(function (rule, index) {
      if (filters.topic && rule.tp.indexOf(filters.topic) < 0) { return; }
      if (filters.kind && rule.k !== filters.kind) { return; }
      if (filters.source && rule.src.indexOf(filters.source) < 0) { return; }
      var s = terms.length ? score(rule, terms) : 1;
      if (s > 0) { matches.push({ rule: rule, score: s, index: index }); }
    });
    matches.sort(function (a, b) { return b.score - a.score || a.index - b.index; });
    show(matches, matches.length);
  }

  form.addEventListener("submit", function (event) { event.preventDefault(); run(true); });
  box.addEventListener("input", function () { run(true); });
  Object.keys(selects).forEach(function (name) { selects[name].addEventListener("change", function () { run(true); }); });
  run(false);
})();
