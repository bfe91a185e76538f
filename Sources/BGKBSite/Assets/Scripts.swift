/// The site's scripts: the one every page loads (`/` to focus search, copy buttons, heading links,
/// focusable scrolling boxes), the search and the rule list's filters. They build the DOM with
/// `textContent`, never `innerHTML`, so nothing in an index can become markup.
enum Scripts {
    static let keys = #"""
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

    """#

    static let search = SearchScript.source

    static let ruleList = #"""
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

    """#
}
