// bgkb search: stemmed, with synonyms; filters live in the URL.
(function () {
  "use strict";
  var data = window.BGKB_SEARCH;
  var form = document.getElementById("search-form");
  var box = document.getElementById("q");
  var selects = { topic: document.getElementById("topic"), kind: document.getElementById("kind"), source: document.getElementById("source") };
  var results = document.getElementById("results");
  var status = document.getElementById("search-status");
  var limit = 50;

  // A light English stemmer: plurals and -ed/-ing go, a final e goes (expire, expired,
  // expires → expir). Words with digits (crash codes, iOS 13) stay as they are.
  function stem(word) {
    if (word.length <= 3 || /[0-9]/.test(word)) { return word; }
    if (/ies$/.test(word) && word.length > 4) { return word.slice(0, -3) + "y"; }
    if (/(ss|us|is)$/.test(word)) { return word; }
    if (/ing$/.test(word) && word.length > 5) { word = word.slice(0, -3); }
    else if (/ed$/.test(word) && word.length > 4) { word = word.slice(0, -2); }
    else if (/(ch|sh|x|z|ss)es$/.test(word)) { word = word.slice(0, -2); }
    else if (/s$/.test(word)) { word = word.slice(0, -1); }
    if (/e$/.test(word) && word.length > 4) { word = word.slice(0, -1); }
    return word;
  }
  // Apple's words and ours, by stem: each maps to one canonical stem.
  var canonical = { expiration: "expir", expiry: "expir", termination: "terminat", terminat: "terminat", kill: "terminat",
                    suspension: "suspend", suspend: "suspend", cancellation: "cancel" };
  // Words that find each other without being the same word.
  var related = { watchdog: ["0x8badf00d"], "0x8badf00d": ["watchdog"], "8badf00d": ["0x8badf00d", "watchdog"],
                  "0xdead10cc": ["deadlock", "lock"], deadlock: ["0xdead10cc"] };
  function norm(word) { var s = stem(word); return canonical[s] || canonical[word] || s; }
  function words(text) { return text.toLowerCase().match(/[a-z0-9]+/g) || []; }
  // API names also split at their capitals: beginBackgroundTask → begin background task.
  function apiWords(text) { return words(text.replace(/([a-z0-9])([A-Z])/g, "$1 $2") + " " + text); }
  function field(list) { return " " + list.map(norm).join(" ") + " "; }
  function rawField(list) { return " " + list.join(" ") + " "; }
  window.BGKB_SEARCH_WORDS = { stem: stem, norm: norm, related: related, words: words, apiWords: apiWords };
  if (!data || !form) { return; }

  var entries = [];
  data.rules.forEach(function (rule) {
    entries.push({ group: rule.k === "misconception" ? "misconception" : "rule", rule: rule, t: rule.t, s: rule.s, u: rule.u, apiCount: rule.a.length,
      order: rule.o, extra: rule.c.concat(rule.a).join(" · "),
      f: { id: " " + rule.id.toLowerCase() + " ", t: field(words(rule.t)), s: field(words(rule.s)), a: field(apiWords(rule.a.join(" "))),
           c: field(rule.c), x: field(words(rule.x)) },
      raw: rawField(words(rule.t + " " + rule.s + " " + rule.x).concat(apiWords(rule.a.join(" "))).concat(rule.c)) });
  });
  (data.items || []).forEach(function (item, index) {
    entries.push({ group: item.g, t: item.t, s: item.s, u: item.u, order: index, extra: "",
      f: { id: "", t: field(item.g === "api" ? apiWords(item.t) : words(item.t)), s: field(words(item.s)), a: "", c: "", x: field(words(item.x)) },
      raw: rawField(words(item.t + " " + item.s + " " + item.x).concat(item.g === "api" ? apiWords(item.t) : [])) });
  });
  var groups = [["rule", "Rules"], ["misconception", "Misconceptions"], ["api", "APIs"], ["code", "Crash codes"],
                ["source", "Sources and authors"], ["document", "Documents"], ["topic", "Topics"], ["page", "Pages"]];
  var weights = { id: 100, c: 60, t: 30, a: 40, s: 15, x: 4 };

  var params = new URLSearchParams(window.location.search);
  box.value = params.get("q") || "";
  Object.keys(selects).forEach(function (name) {
    var select = selects[name], wanted = params.get(name) || "";
    for (var i = 0; i < select.options.length; i++) { if (select.options[i].value === wanted) { select.value = wanted; } }
  });

  // A query term: its canonical stem, the related words, and (for the last term) its raw
  // text for prefix matching while typing.
  function terms(query) {
    var list = words(query);
    return list.map(function (word, index) {
      var n = norm(word);
      return { word: word, n: n, alt: (related[n] || related[word] || []).map(norm), prefix: index === list.length - 1 && word.length >= 3 };
    });
  }
  function termScore(entry, term) {
    var best = 0;
    Object.keys(weights).forEach(function (key) {
      var text = entry.f[key];
      if (!text) { return; }
      // A rule naming one API is about it; one naming ten merely lists it.
      var w = key === "a" && entry.apiCount > 1 ? weights.a / Math.sqrt(entry.apiCount) : weights[key];
      if (text.indexOf(" " + term.n + " ") >= 0) { best += w; return; }
      for (var i = 0; i < term.alt.length; i++) { if (text.indexOf(" " + term.alt[i] + " ") >= 0) { best += w * 0.8; return; } }
    });
    if (best === 0 && term.prefix && entry.raw.indexOf(" " + term.word) >= 0) { best = 3; }
    return best;
  }
  function score(entry, list) {
    var total = 0;
    for (var i = 0; i < list.length; i++) {
      var s = termScore(entry, list[i]);
      if (s === 0) { return 0; }
      total += s;
    }
    // A misconception that merely mentions a word ranks below rules about it.
    if (entry.group === "misconception") { total *= 0.6; }
    if (entry.rule && entry.rule.r) { total *= 0.5; }
    return total;
  }
  function matches(word, list) {
    var n = norm(word.toLowerCase());
    for (var i = 0; i < list.length; i++) {
      var t = list[i];
      if (n === t.n || t.alt.indexOf(n) >= 0 || (t.prefix && word.toLowerCase().indexOf(t.word) === 0)) { return true; }
    }
    return false;
  }
  // Text with the words that match wrapped in <mark>, built node by node.
  function highlighted(tag, className, text, list) {
    var node = document.createElement(tag);
    if (className) { node.className = className; }
    text.split(/([A-Za-z0-9]+)/).forEach(function (part) {
      if (!part) { return; }
      if (/^[A-Za-z0-9]+$/.test(part) && matches(part, list)) {
        var mark = document.createElement("mark"); mark.textContent = part; node.appendChild(mark);
      } else { node.appendChild(document.createTextNode(part)); }
    });
    return node;
  }
  function element(tag, className, text) {
    var node = document.createElement(tag);
    if (className) { node.className = className; }
    if (text !== undefined) { node.textContent = text; }
    return node;
  }

  function show(found, list) {
    results.textContent = "";
    var byGroup = {};
    found.forEach(function (m) { (byGroup[m.entry.group] = byGroup[m.entry.group] || []).push(m); });
    var order = groups.filter(function (g) { return byGroup[g[0]]; });
    // Groups in the order of their best match; rules first on a tie.
    order.sort(function (a, b) { return byGroup[b[0]][0].score - byGroup[a[0]][0].score || groups.indexOf(a) - groups.indexOf(b); });
    order.forEach(function (g) {
      var items = byGroup[g[0]];
      var heading = element("h2", "results-group", g[1] + " (" + items.length + ")");
      heading.id = "results-" + g[0];
      results.appendChild(heading);
      var ul = element("ul", "results-list");
      ul.setAttribute("aria-labelledby", heading.id);
      items.slice(0, limit).forEach(function (m) {
        var entry = m.entry, item = element("li", "result"), title = element("p", "result-title");
        var link = highlighted("a", "", entry.t, list);
        link.href = entry.u;
        title.appendChild(link);
        if (entry.rule) {
          title.appendChild(document.createTextNode(" "));
          title.appendChild(element("span", "badge kind-" + entry.rule.k, entry.rule.kl));
          if (entry.rule.r) { title.appendChild(document.createTextNode(" ")); title.appendChild(element("span", "badge removed", "Removed")); }
        }
        item.appendChild(title);
        if (entry.s && entry.s !== entry.t) { item.appendChild(highlighted("p", "result-statement", entry.s, list)); }
        if (entry.extra) { item.appendChild(highlighted("p", "result-apis", entry.extra, list)); }
        ul.appendChild(item);
      });
      results.appendChild(ul);
    });
    var total = found.length;
    status.textContent = total === 0 ? "Nothing matches." : (total === 1 ? "1 match" : total + " matches") +
      (order.length > 1 ? " in " + order.length + " groups." : ".") + " Arrow keys move through the results.";
  }

  function run(updateURL) {
    var list = terms(box.value);
    var filters = { topic: selects.topic.value, kind: selects.kind.value, source: selects.source.value };
    var filtered = !!(filters.topic || filters.kind || filters.source);
    if (updateURL) {
      var query = new URLSearchParams();
      if (box.value.trim()) { query.set("q", box.value.trim()); }
      Object.keys(filters).forEach(function (name) { if (filters[name]) { query.set(name, filters[name]); } });
      var search = query.toString();
      try { window.history.replaceState(null, "", search ? "?" + search : window.location.pathname); } catch (error) { /* file:// may refuse; the search still works */ }
    }
    if (list.length === 0 && !filtered) {
      results.textContent = "";
      status.textContent = "Type to search " + data.rules.length + " rules, APIs, crash codes, sources and authors, documents and topics.";
      return;
    }
    var found = [];
    entries.forEach(function (entry) {
      // Filters are about rules: with one set, only rules are listed.
      if (filtered) {
        var rule = entry.rule;
        if (!rule) { return; }
        if (filters.topic && rule.tp.indexOf(filters.topic) < 0) { return; }
        if (filters.kind && rule.k !== filters.kind) { return; }
        if (filters.source && rule.src.indexOf(filters.source) < 0) { return; }
      }
      var s = list.length ? score(entry, list) : 1;
      if (s > 0) { found.push({ entry: entry, score: s }); }
    });
    found.sort(function (a, b) { return b.score - a.score || (a.entry.rule ? 0 : 1) - (b.entry.rule ? 0 : 1) || a.entry.order - b.entry.order; });
    show(found, list);
  }

  // Arrow keys: down from the box into the results, up and down through them, up from the
  // first back to the box.
  function links() { return Array.prototype.slice.call(results.querySelectorAll(".result-title a")); }
  function move(step) {
    var all = links(), at = all.indexOf(document.activeElement);
    Array.prototype.forEach.call(results.querySelectorAll(".result.is-active"), function (r) { r.classList.remove("is-active"); });
    var next = at + step;
    if (next < 0) { box.focus(); return; }
    if (next >= all.length) { next = all.length - 1; }
    if (next < 0) { return; }
    all[next].focus();
    all[next].closest(".result").classList.add("is-active");
  }
  document.addEventListener("keydown", function (event) {
    if (event.key !== "ArrowDown" && event.key !== "ArrowUp") { return; }
    var inResults = results.contains(document.activeElement);
    if (document.activeElement !== box && !inResults) { return; }
    if (document.activeElement === box && event.key === "ArrowUp") { return; }
    event.preventDefault();
    move(event.key === "ArrowDown" ? 1 : -1);
  });

  form.addEventListener("submit", function (event) { event.preventDefault(); run(true); });
  box.addEventListener("input", function () { run(true); });
  Object.keys(selects).forEach(function (name) { selects[name].addEventListener("change", function () { run(true); }); });
  run(false);
})();
