#!/usr/bin/env python3
"""Headless-Chromium test of a generated bgkb site, loaded from file://.

Drives Chromium over the DevTools protocol: loads pages, fails on any console message, uncaught
exception, failed load or request that leaves file://; presses "/" and types a query to check the
search finds rules in the DOM; checks URL filters; saves screenshots of the home page and a rule
page at 1280 and 390 px (light, and dark for the rule page).

usage: browser-test.py SITE_DIR OUT_DIR      (needs chromium and the websocket-client module)
"""
import base64, json, os, shutil, subprocess, sys, tempfile, time, urllib.request

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

    def evaluate(self, expression):
        result = self.call("Runtime.evaluate", expression=expression, returnByValue=True)
        if "exceptionDetails" in result:
            raise RuntimeError("evaluate failed: %s" % result["exceptionDetails"])
        return result["result"].get("value")

    def open(self, url):
        self.events = [e for e in self.events if e["method"] != "Page.loadEventFired"]
        self.call("Page.navigate", url=url)
        self.wait_for("Page.loadEventFired")
        self.evaluate("new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
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
                     "crash-codes.html", "apis.html", "404.html", "search.html"]:
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
        # Queries taken from the site itself: a rule id, an API, a crash code and a word of a title.
        index_text = open(os.path.join(site, "assets", "search-index.js"), encoding="utf-8").read()
        index = json.loads(index_text[index_text.index("=") + 1:].strip().rstrip(";"))["rules"]
        queries = [rule_page[len("rules/"):-len(".html")]]
        queries += [a for rule in index for a in rule["a"]][:1]
        queries += [c for rule in index for c in rule["c"]][:1]
        queries += [w for w in index[0]["t"].split() if len(w) > 5][:1]
        for query, expect_href in [(q, "rules/") for q in queries]:
            browser.evaluate("(() => { const q = document.getElementById('q'); q.value = ''; q.dispatchEvent(new Event('input')); })()")
            browser.call("Input.insertText", text=query)
            count = browser.evaluate("document.querySelectorAll('#results li').length")
            first = browser.evaluate("(document.querySelector('#results li a') || {}).getAttribute ? document.querySelector('#results li a').getAttribute('href') : ''")
            status = browser.evaluate("document.getElementById('search-status').textContent")
            print("search %r: %s results, first %s (%s)" % (query, count, first, status))
            if not count:
                fail("search %r found nothing" % query)
            elif not (first or "").startswith(expect_href):
                fail("search %r: first result links to %r" % (query, first))
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

        # At phone width no page may scroll sideways: long API names in headings, tables and code
        # must wrap or scroll inside their own box.
        browser.call("Emulation.setDeviceMetricsOverride", width=390, height=900, deviceScaleFactor=1, mobile=True)
        pages = sorted(os.path.relpath(os.path.join(d, f), site) for d, _, fs in os.walk(site) for f in fs if f.endswith(".html"))
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

        for name, page in [("home", "index.html"), ("rule", rule_page)]:
            for width in (1280, 390):
                browser.screenshot(base + page, os.path.join(out, "%s-%d.png" % (name, width)), width)
        browser.screenshot(base + rule_page, os.path.join(out, "rule-1280-dark.png"), 1280, dark=True)
        browser.screenshot(base + "search.html?q=0x8badf00d", os.path.join(out, "search-390.png"), 390)
    finally:
        browser.close()

    if failures:
        print("browser test: %d failure(s)" % len(failures))
        sys.exit(1)
    print("browser test: passed (rule page %s)" % rule_page)


if __name__ == "__main__":
    main()
