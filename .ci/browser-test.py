#!/usr/bin/env python3
"""Headless-Chromium test of a generated bgkb site, loaded from file://.

Drives Chromium over the DevTools protocol: loads pages, fails on any console message, uncaught
exception, failed load or request that leaves file://; presses "/" and types queries to check the
search (Apple's words and ours, plurals, an API name, an author, arrow keys, highlights); checks
the rule list's filters survive a reload; answers the browser quiz and checks its feedback and
that progress survives a reload; fails on any page over 300 KB; runs axe-core on ten pages; saves
screenshots of the home page, a rule page, the rule list and the quiz at 1280 and 390 px (light
and dark for the rule page). Also follows the redirect pages and measures the timelines' contrast (light and dark)
and their phone layout.

usage: browser-test.py SITE_DIR OUT_DIR
(needs chromium, the websocket-client module, and axe-playwright-python for axe.min.js)
"""
import base64, importlib.util, json, os, shutil, subprocess, sys, tempfile, time, urllib.request

import websocket  # pip install websocket-client

failures = []


def fail(message):
    failures.append(message)
    print("FAIL: " + message, flush=True)


class Browser:
    def __init__(self):
        self.profile = tempfile.mkdtemp(prefix="bgkb-chromium-")
        self.process = subprocess.Popen(
            ["chromium", "--headless=new", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
             "--no-first-run", "--no-default-browser-check", "--remote-debugging-port=0",
             "--user-data-dir=" + self.profile, "about:blank"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        port_file = os.path.join(self.profile, "DevToolsActivePort")
        for _ in range(200):
            if os.path.exists(port_file) and open(port_file).read().strip():
                break
            time.sleep(0.1)
        else:
            raise SystemExit("chromium did not start (no DevToolsActivePort)")
        port = open(port_file).read().split()[0]
        targets = json.load(urllib.request.urlopen("http://127.0.0.1:%s/json/list" % port))
        page = next(t for t in targets if t.get("type") == "page")
        self.socket = websocket.create_connection(page["webSocketDebuggerUrl"], timeout=30)
        self.next_id = 0
        self.events = []
        for domain in ("Page", "Runtime", "Log", "Network"):
            self.call(domain + ".enable")

    def call(self, method, **params):
        self.next_id += 1
        ident = self.next_id
        self.socket.send(json.dumps({"id": ident, "method": method, "params": params}))
        while True:
            message = json.loads(self.socket.recv())
            if message.get("id") == ident:
                if "error" in message:
                    raise RuntimeError("%s: %s" % (method, message["error"]))
                return message.get("result", {})
            if "method" in message:
                self.events.append(message)

    def wait_for(self, method, timeout=15):
        deadline = time.time() + timeout
        for index, event in enumerate(self.events):
            if event["method"] == method:
                del self.events[index]
                return event
        while time.time() < deadline:
            message = json.loads(self.socket.recv())
            if message.get("method") == method:
                return message
            if "method" in message:
                self.events.append(message)
        raise RuntimeError("timed out waiting for " + method)

    def evaluate(self, expression, wait=False):
        result = self.call("Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=wait)
        if "exceptionDetails" in result:
            raise RuntimeError("evaluate failed: %s" % result["exceptionDetails"])
        return result["result"].get("value")

    def open(self, url):
        self.events = [e for e in self.events if e["method"] != "Page.loadEventFired"]
        self.call("Page.navigate", url=url)
        self.wait_for("Page.loadEventFired")
        self.evaluate("new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))", wait=True)
        self.check_events(url)

    def drain(self):
        self.socket.settimeout(0.2)
        try:
            while True:
                message = json.loads(self.socket.recv())
                if "method" in message:
                    self.events.append(message)
        except websocket.WebSocketTimeoutException:
            pass
        finally:
            self.socket.settimeout(30)

    def check_events(self, where):
        self.drain()
        for event in self.events:
            method, params = event["method"], event.get("params", {})
            if method == "Runtime.consoleAPICalled":
                text = " ".join(str(a.get("value", a.get("description", ""))) for a in params.get("args", []))
                fail("%s: console.%s: %s" % (where, params.get("type"), text))
            elif method == "Runtime.exceptionThrown":
                fail("%s: uncaught exception: %s" % (where, params["exceptionDetails"].get("exception", {}).get("description", params["exceptionDetails"].get("text"))))
            elif method == "Log.entryAdded" and params["entry"]["level"] in ("error", "warning"):
                fail("%s: %s: %s" % (where, params["entry"]["level"], params["entry"]["text"]))
            elif method == "Network.requestWillBeSent":
                url = params["request"]["url"]
                if not (url.startswith("file://") or url.startswith("data:")):
                    fail("%s: external request to %s" % (where, url))
            elif method == "Network.loadingFailed":
                fail("%s: failed to load a resource: %s" % (where, params.get("errorText")))
        self.events = []

    def key(self, key, code):
        named = {"Enter": ("\r", 13), "ArrowDown": ("", 40), "ArrowUp": ("", 38)}
        text, virtual = named.get(key, (key, 0))
        for kind in ("keyDown", "keyUp"):
            params = {"type": kind if text or kind == "keyUp" else "rawKeyDown", "key": key, "code": code}
            if kind == "keyDown" and text:
                params["text"] = text
            if virtual:
                params["windowsVirtualKeyCode"] = virtual
            self.call("Input.dispatchKeyEvent", **params)

    def reload(self, where):
        self.events = [e for e in self.events if e["method"] != "Page.loadEventFired"]
        self.call("Page.reload")
        self.wait_for("Page.loadEventFired")
        self.evaluate("new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))", wait=True)
        self.check_events(where + " (reloaded)")

    def screenshot(self, url, path, width, dark=False):
        self.call("Emulation.setDeviceMetricsOverride", width=width, height=900, deviceScaleFactor=1, mobile=width < 600)
        self.call("Emulation.setEmulatedMedia", features=[{"name": "prefers-color-scheme", "value": "dark" if dark else "light"}])
        self.open(url)
        height = self.evaluate("Math.ceil(document.documentElement.scrollHeight)")
        height = min(int(height or 900), 6000)
        shot = self.call("Page.captureScreenshot", format="png", captureBeyondViewport=True,
                         clip={"x": 0, "y": 0, "width": width, "height": height, "scale": 1})
        with open(path, "wb") as handle:
            handle.write(base64.b64decode(shot["data"]))
        if os.path.getsize(path) < 1000:
            fail("screenshot %s is empty" % path)
        print("screenshot: %s (%dx%d)" % (path, width, height))

    def close(self):
        try:
            self.call("Browser.close")
        except Exception:
            pass
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
        shutil.rmtree(self.profile, ignore_errors=True)


def check_redirects(browser, site, base):
    """Every redirect page (an old address) lands on a page that exists, by its meta refresh."""
    redirects = []
    for f in sorted(os.listdir(os.path.join(site, "rules"))):
        text = open(os.path.join(site, "rules", f), encoding="utf-8").read()
        if 'http-equiv="refresh"' in text:
            redirects.append(f)
    for f in redirects:
        browser.events = [e for e in browser.events if e["method"] != "Page.loadEventFired"]
        browser.call("Page.navigate", url=base + "rules/" + f)
        landed, title = "", ""
        for _ in range(50):
            time.sleep(0.1)
            try:
                # The page may be between the redirect page and its target: ask again then.
                landed = browser.evaluate("location.href") or ""
                if not landed.endswith("/" + f) and browser.evaluate("document.readyState") == "complete":
                    title = browser.evaluate("(document.querySelector('main h1') || {}).textContent || ''")
                    break
            except RuntimeError:
                continue
        if landed.endswith("/" + f) or not title:
            fail("redirect rules/%s did not land on a page (at %s)" % (f, landed))
    browser.drain()
    browser.events = []
    print("redirects: %d old addresses checked" % len(redirects))


def contrast(a, b):
    def lum(c):
        ch = [v / 255 for v in c[:3]]
        ch = [v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4 for v in ch]
        return 0.2126 * ch[0] + 0.7152 * ch[1] + 0.0722 * ch[2]
    x, y = lum(a), lum(b)
    return (max(x, y) + 0.05) / (min(x, y) + 0.05)


def check_timelines(browser, site, base):
    """On the page with the most timelines: every mark's computed colour at least 3:1 against its
    row, in light and dark; at 390 px the outcome above each chart fits the screen, and a chart that
    scrolls sideways shows the scroll cue."""
    rules = os.path.join(site, "rules")
    counts = {f: open(os.path.join(rules, f), encoding="utf-8").read().count('class="timeline"') for f in os.listdir(rules)}
    page = "rules/" + max(sorted(counts), key=lambda f: counts[f])
    colours_js = """(() => {
      const rgb = s => (s.match(/[\\d.]+/g) || []).map(Number);
      const row = rgb(getComputedStyle(document.querySelector('.tl-row')).fill);
      const out = [];
      for (const sel of ['.tl-state', '.tl-task', '.tl-step', '.tl-expiry', '.tl-end', '.tl-grid', '.tl-label', '.tl-tick']) {
        for (const e of Array.from(document.querySelectorAll(sel)).slice(0, 3)) {
          const st = getComputedStyle(e);
          const paint = (e.tagName === 'line') ? st.stroke : st.fill;
          out.push([sel + '.' + (e.getAttribute('class') || ''), rgb(paint), row]);
        }
      }
      return out;
    })()"""
    for mode in ("light", "dark"):
        browser.call("Emulation.setDeviceMetricsOverride", width=1280, height=900, deviceScaleFactor=1, mobile=False)
        browser.call("Emulation.setEmulatedMedia", features=[{"name": "prefers-color-scheme", "value": mode}])
        browser.open(base + page)
        marks = browser.evaluate(colours_js) or []
        marks = [(name, c, row) for name, c, row in marks if len(c) >= 3 and len(row) >= 3]
        if not marks:
            fail("%s (%s): no timeline colours could be read" % (page, mode))
        low = [(name, round(contrast(c, row), 2)) for name, c, row in marks if contrast(c, row) < 3]
        print("timeline contrast (%s, %s): %d marks checked, %d under 3:1" % (page, mode, len(marks), len(low)))
        for name, ratio in low:
            fail("%s (%s): %s has contrast %s:1 against its row" % (page, mode, name, ratio))
    browser.call("Emulation.setEmulatedMedia", features=[])
    browser.call("Emulation.setDeviceMetricsOverride", width=390, height=900, deviceScaleFactor=1, mobile=True)
    browser.open(base + page)
    problems = browser.evaluate("""(() => {
      const p = [];
      for (const fig of document.querySelectorAll('.timeline-figure')) {
        const section = fig.closest('section');
        const outcome = section && section.querySelector('.tl-outcome');
        if (!outcome) { p.push('a chart without the outcome above it'); continue; }
        const r = outcome.getBoundingClientRect();
        if (r.right > innerWidth + 1 || r.left < 0) p.push('outcome wider than the screen');
        const box = fig.querySelector('.timeline-scroll');
        const cue = fig.querySelector('.tl-scroll-cue');
        if (box && box.scrollWidth > box.clientWidth && !(cue && cue.offsetParent)) p.push('a chart scrolls sideways with no visible cue');
      }
      return p;
    })()""")
    for problem in problems or []:
        fail("%s at 390 px: %s" % (page, problem))
    print("phone timelines (%s): outcome above each chart, scroll cues checked" % page)


def main():
    if len(sys.argv) != 3:
        raise SystemExit(__doc__)
    site = os.path.abspath(sys.argv[1])
    out = os.path.abspath(sys.argv[2])
    os.makedirs(out, exist_ok=True)
    base = "file://" + site + "/"
    rules = sorted(f for f in os.listdir(os.path.join(site, "rules")) if f != "index.html")
    with_timeline = [f for f in rules if 'class="timeline"' in open(os.path.join(site, "rules", f), encoding="utf-8").read()]
    rule_page = "rules/" + (with_timeline or rules)[0]

    browser = Browser()
    try:
        for page in ["index.html", rule_page, "rules/index.html", "topics/index.html", "revisions.html", "sources.html",
                     "crash-codes.html", "apis.html", "404.html", "search.html", "quiz.html", "documents/background-task-notes-changes.html"]:
            browser.open(base + page)
            if not browser.evaluate("document.querySelector('main h1') !== null"):
                fail(page + ": no <h1> in <main>")
            # Accessibility basics: one h1, headings never skip a level going down, landmarks,
            # a skip link to main, every form control labelled.
            problems = browser.evaluate("""(() => {
              const p = [];
              const hs = Array.from(document.querySelectorAll('h1,h2,h3,h4,h5,h6')).map(h => +h.tagName[1]);
              if (hs.filter(l => l === 1).length !== 1) p.push('expected one h1, found ' + hs.filter(l => l === 1).length);
              for (let i = 1; i < hs.length; i++) if (hs[i] > hs[i - 1] + 1) p.push('heading jumps from h' + hs[i - 1] + ' to h' + hs[i]);
              for (const sel of ['header', 'nav', 'main', 'footer']) if (!document.querySelector(sel)) p.push('no <' + sel + '>');
              const skip = document.querySelector('a.skip-link');
              if (!skip || skip.getAttribute('href') !== '#main') p.push('no skip link to #main');
              for (const c of document.querySelectorAll('input, select, textarea')) {
                if (!(c.labels && c.labels.length) && !c.getAttribute('aria-label')) p.push('unlabelled ' + c.tagName.toLowerCase() + '#' + c.id);
              }
              return p;
            })()""")
            for problem in problems or []:
                fail(page + ": " + problem)

        # "/" focuses the header search box on an ordinary page.
        browser.open(base + "index.html")
        browser.key("/", "Slash")
        if browser.evaluate("document.activeElement && document.activeElement.id") != "site-q":
            fail('index.html: "/" did not focus the search box')

        # On the search page, "/" then typing searches instantly.
        browser.open(base + "search.html")
        browser.key("/", "Slash")
        if browser.evaluate("document.activeElement && document.activeElement.id") != "q":
            fail('search.html: "/" did not focus the search field')
        def search(query):
            browser.evaluate("(() => { const q = document.getElementById('q'); q.value = ''; q.dispatchEvent(new Event('input')); q.focus(); })()")
            browser.call("Input.insertText", text=query)
            found = browser.evaluate("""Array.from(document.querySelectorAll('#results .result-title a')).map(a => a.getAttribute('href'))""") or []
            groups = browser.evaluate("Array.from(document.querySelectorAll('#results h2')).map(h => h.id.replace('results-', ''))") or []
            print("search %r: %d results, groups %s, first %s" % (query, len(found), ",".join(groups), found[:1]))
            return found, groups

        # Apple's word and ours find the same top result.
        apple, _ = search("expiration handler")
        ours, _ = search("expiry handler")
        if not apple or not ours or apple[0] != ours[0]:
            fail("'expiration handler' and 'expiry handler' do not share a top result: %s vs %s" % (apple[:1], ours[:1]))
        # Plurals and past tenses find what the stem finds.
        counts = {}
        for word in ("leak", "leaks", "leaked"):
            counts[word] = len(search(word)[0])
        if len(set(counts.values())) != 1 or not counts["leak"]:
            fail("leak, leaks and leaked find different results: %s" % counts)
        marks = browser.evaluate("Array.from(document.querySelectorAll('#results mark')).map(m => m.textContent.toLowerCase())") or []
        if not any(m.startswith("leak") for m in marks):
            fail("search 'leaked' highlights no match: %s" % marks[:5])
        # An API name: a rule about it comes before a misconception that merely mentions it.
        found, groups = search("BGProcessingTask")
        if not found or not found[0].startswith("rules/") or (groups and groups[0] != "rule"):
            fail("search BGProcessingTask: first result %s, groups %s" % (found[:1], groups))
        # An author, and a crash code by its number and by the watchdog.
        found, groups = search("Quinn")
        if "source" not in groups:
            fail("search Quinn finds no source: groups %s" % groups)
        for query in ("0x8badf00d", "watchdog"):
            found, groups = search(query)
            if "code" not in groups or not found:
                fail("search %s: no crash-code result (groups %s)" % (query, groups))
        # Arrow keys move from the box into the results and back.
        search("endBackgroundTask")
        browser.key("ArrowDown", "ArrowDown")
        first = browser.evaluate("document.activeElement && document.activeElement.closest('#results') ? document.activeElement.getAttribute('href') : null")
        browser.key("ArrowDown", "ArrowDown")
        second = browser.evaluate("document.activeElement && document.activeElement.getAttribute('href')")
        browser.key("ArrowUp", "ArrowUp"); browser.key("ArrowUp", "ArrowUp")
        back = browser.evaluate("document.activeElement && document.activeElement.id")
        print("arrow keys: %s, %s, back to #%s" % (first, second, back))
        if not first or first == second or back != "q":
            fail("arrow keys do not move through the results (%s, %s, %s)" % (first, second, back))
        browser.check_events("search.html (typing)")
        location = browser.evaluate("location.search")
        print("URL after typing: %s" % location)

        # Filters come from the URL query, so a view can be shared.
        browser.open(base + "search.html?kind=misconception")
        kinds = browser.evaluate("Array.from(document.querySelectorAll('#results li .badge')).map(b => b.className)")
        selected = browser.evaluate("document.getElementById('kind').value")
        print("filter kind=misconception: %d results, select shows %r" % (len(kinds or []), selected))
        if selected != "misconception":
            fail("the kind filter from the URL is not selected")
        if any("kind-misconception" not in k and "removed" not in k for k in kinds or []):
            fail("the kind filter let other kinds through: %s" % kinds)

        # A query that matches nothing says so.
        browser.open(base + "search.html?q=zzzznotathing")
        if browser.evaluate("document.querySelectorAll('#results li').length") != 0:
            fail("a nonsense query found results")

        # The rule list's filters live in the URL and survive a reload.
        browser.open(base + "rules/index.html")
        total = browser.evaluate("document.querySelectorAll('.rule-list.filterable li:not([hidden])').length")
        browser.evaluate("(() => { const k = document.getElementById('kind'); k.value = 'must'; k.dispatchEvent(new Event('change', {bubbles: true})); const e = document.getElementById('examples'); e.checked = true; e.dispatchEvent(new Event('change', {bubbles: true})); })()")
        shown = browser.evaluate("document.querySelectorAll('.rule-list.filterable li:not([hidden])').length")
        query = browser.evaluate("location.search")
        browser.reload("rules/index.html" + (query or ""))
        after = (browser.evaluate("location.search"), browser.evaluate("document.getElementById('kind').value"),
                 browser.evaluate("document.getElementById('examples').checked"),
                 browser.evaluate("document.querySelectorAll('.rule-list.filterable li:not([hidden])').length"),
                 browser.evaluate("Array.from(document.querySelectorAll('.rule-list.filterable li:not([hidden])')).every(li => li.dataset.kind === 'must' && li.dataset.examples === '1')"))
        print("rule list: %d rules, %d with kind=must and examples (URL %s); after reload %s" % (total, shown, query, after))
        if not (0 < shown < total) or query != "?kind=must&examples=1" or after != (query, "must", True, shown, True):
            fail("rule list filters do not survive a reload: %s → %s" % (query, after))

        # The browser quiz: answer by key, see feedback, move on; progress survives a reload.
        browser.open(base + "quiz.html?topic=beginning-and-ending")
        prompt = browser.evaluate("document.getElementById('quiz-prompt').textContent")
        # The card names its question (prompts repeat: every predict-the-outcome question asks alike).
        current = "window.BGKB_QUIZ.questions.find(q => q.id === document.getElementById('quiz-card').dataset.question)"
        answer = browser.evaluate(current + ".answer")
        browser.key("?", "Slash")
        hint = browser.evaluate("document.getElementById('quiz-hint-text').hidden ? '' : document.getElementById('quiz-hint-text').textContent")
        browser.key(str(answer + 1), "Digit%d" % (answer + 1))
        feedback = browser.evaluate("document.getElementById('quiz-feedback').textContent")
        live = browser.evaluate("document.getElementById('quiz-feedback').getAttribute('aria-live')")
        print("quiz: %r; hint %r; feedback %r" % (prompt[:60], hint[:40], feedback[:60]))
        if not hint:
            fail("quiz: '?' showed no hint")
        if not feedback.startswith("Right") or live != "assertive":
            fail("quiz: the right answer got feedback %r (aria-live %s)" % (feedback[:60], live))
        browser.key("Enter", "Enter")
        second = browser.evaluate("document.getElementById('quiz-prompt').textContent")
        wrong = browser.evaluate("(() => { const q = " + current + "; return (q.answer + 1) % q.choices.length; })()")
        browser.evaluate("document.querySelectorAll('.quiz-choice')[%d].click()" % wrong)
        feedback = browser.evaluate("document.getElementById('quiz-feedback').textContent")
        if not feedback.startswith("Not quite"):
            fail("quiz: a wrong answer by button got feedback %r" % feedback[:60])
        progress = browser.evaluate("document.getElementById('quiz-progress').textContent")
        browser.reload("quiz.html")
        kept = browser.evaluate("document.getElementById('quiz-progress').textContent")
        stored = browser.evaluate("Object.keys(JSON.parse(localStorage.getItem('bgkb-quiz-progress') || '{\"cards\":{}}').cards).length")
        print("quiz progress: %r; after reload %r (%s cards stored)" % (progress, kept, stored))
        if not kept.startswith("2 of") or stored != 2:
            fail("quiz progress did not survive a reload: %r, %s cards" % (kept, stored))
        browser.screenshot(base + "quiz.html?topic=beginning-and-ending", os.path.join(out, "quiz-390.png"), 390)
        browser.evaluate("localStorage.clear()")
        browser.call("Emulation.setDeviceMetricsOverride", width=1280, height=900, deviceScaleFactor=1, mobile=False)

        # No page over 300 KB.
        for page in sorted(os.path.relpath(os.path.join(d, f), site) for d, _, fs in os.walk(site) for f in fs if f.endswith(".html")):
            size = os.path.getsize(os.path.join(site, page))
            if size > 300 * 1024:
                fail("%s is %d KB (at most 300 KB)" % (page, size // 1024))

        # axe-core on ten representative pages, light and at desktop width.
        spec = importlib.util.find_spec("axe_playwright_python")
        axe_path = os.path.join(spec.submodule_search_locations[0], "axe.min.js") if spec else None
        if not axe_path or not os.path.exists(axe_path):
            fail("axe.min.js not found: pip install --no-deps axe-playwright-python")
        else:
            axe = open(axe_path, encoding="utf-8").read()
            for page in ["index.html", rule_page, "rules/index.html?kind=must", "topics/index.html", "revisions.html", "sources.html",
                         "crash-codes.html", "search.html?q=expiry+handler", "quiz.html", "documents/background-task-notes-changes.html"]:
                browser.open(base + page)
                browser.evaluate(axe)
                violations = browser.evaluate("axe.run(document, {resultTypes: ['violations'], preload: false}).then(r => r.violations.map(v => v.id + ' (' + v.nodes.length + '): ' + v.nodes.slice(0, 2).map(n => n.target.join(' ')).join(', ')))", wait=True)
                browser.check_events("axe on " + page)
                print("axe %s: %d violation(s)" % (page, len(violations or [])))
                for violation in violations or []:
                    fail("axe %s: %s" % (page, violation))

        # At phone width no page may scroll sideways: long API names in headings, tables and code
        # must wrap or scroll inside their own box.
        browser.call("Emulation.setDeviceMetricsOverride", width=390, height=900, deviceScaleFactor=1, mobile=True)
        pages = sorted(os.path.relpath(os.path.join(d, f), site) for d, _, fs in os.walk(site) for f in fs if f.endswith(".html"))
        # Redirect pages (old addresses) navigate away at once: check_redirects follows them.
        pages = [p for p in pages if 'http-equiv="refresh"' not in open(os.path.join(site, p), encoding="utf-8").read()]
        wide = []
        for page in pages:
            browser.open(base + page)
            overflow = browser.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
            if overflow and overflow > 0:
                # Find what sticks out: hide each child in turn; the one whose hiding ends the overflow
                # holds the culprit; descend into it.
                culprit = browser.evaluate("""(() => { const d = document.documentElement; let node = document.body; const path = [];
                    for (let depth = 0; depth < 30; depth++) { let next = null;
                      for (const c of node.children) { const old = c.style.display; c.style.display = 'none';
                        const fixed = d.scrollWidth <= d.clientWidth; c.style.display = old; if (fixed) { next = c; break; } }
                      if (!next) break; node = next;
                      path.push(node.tagName.toLowerCase() + (typeof node.className === 'string' && node.className ? '.' + node.className.split(' ').join('.') : '')); }
                    return path.join(' > ') + ' "' + (node.textContent || '').trim().slice(0, 60) + '"'; })()""")
                wide.append("%s (+%dpx: %s)" % (page, overflow, culprit))
        print("phone width: %d pages checked, %d scroll sideways" % (len(pages), len(wide)))
        for entry in wide:
            fail("scrolls sideways at 390 px: " + entry)

        check_redirects(browser, site, base)
        check_timelines(browser, site, base)

        for name, page in [("home", "index.html"), ("rule", rule_page), ("rules", "rules/index.html?kind=must")]:
            for width in (1280, 390):
                browser.screenshot(base + page, os.path.join(out, "%s-%d.png" % (name, width)), width)
        browser.screenshot(base + rule_page, os.path.join(out, "rule-1280-dark.png"), 1280, dark=True)
        browser.screenshot(base + rule_page, os.path.join(out, "rule-390-dark.png"), 390, dark=True)
        browser.screenshot(base + "search.html?q=0x8badf00d", os.path.join(out, "search-390.png"), 390)
    finally:
        browser.close()

    if failures:
        print("browser test: %d failure(s)" % len(failures))
        sys.exit(1)
    print("browser test: passed (rule page %s)" % rule_page)


if __name__ == "__main__":
    main()
