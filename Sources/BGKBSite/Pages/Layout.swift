/// The frame every page shares: head, skip link, header with navigation and search, footer.
enum Layout {
    static let navigation: [(label: String, path: String)] = [
        ("Home", SitePaths.home),
        ("Topics", SitePaths.topicsIndex),
        ("All rules", SitePaths.rulesIndex),
        ("Revisions", SitePaths.revisions),
        ("Sources", SitePaths.sources),
        ("Crash codes", SitePaths.crashCodes),
        ("APIs", SitePaths.apis),
        ("Search", SitePaths.search),
    ]

    /// A whole page: the shared frame around what `body` writes.
    static func page(path: String, title: String, description: String, section: String? = nil, scripts: [String] = [],
                     capacity: Int = 8192, body: (inout HTMLWriter) -> Void) -> String {
        var writer = HTMLWriter(capacity: capacity)
        write(path: path, title: title, description: description, section: section, scripts: scripts, into: &writer, body: body)
        return writer.string
    }

    /// The frame around `body`, which writes the page's own markup into the same buffer.
    static func write(path: String, title: String, description: String, section: String? = nil, scripts: [String] = [],
                      into w: inout HTMLWriter, body: (inout HTMLWriter) -> Void) {
        let root = SitePaths.root(from: path)
        let current = section ?? path
        w.markup("""
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta name="color-scheme" content="light dark">
        <title>
        """)
        w.text(title)
        w.markup(" · bgkb</title>\n<meta name=\"description\" content=\"")
        w.text(description)
        w.markup("\">\n<link rel=\"icon\" href=\"data:,\">\n<link rel=\"stylesheet\" href=\"")
        w.text(root)
        w.markup("assets/style.css\">\n<link rel=\"alternate\" type=\"application/atom+xml\" title=\"bgkb revision entries\" href=\"")
        w.text(root)
        w.markup("""
        feed.xml">
        </head>
        <body>
        <a class="skip-link" href="#main">Skip to content</a>
        <header class="site-header">
        <div class="wrap header-row">
        <a class="brand" href="
        """)
        w.text(root)
        w.markup("index.html\"><span class=\"brand-mark\" aria-hidden=\"true\">bg</span>kb<span class=\"brand-tag\">iOS background execution, checked</span></a>\n")
        // The search page has its own, larger form.
        if path != SitePaths.search {
            w.markup("<form class=\"site-search\" role=\"search\" action=\"")
            w.text(root)
            w.markup("""
            search.html" method="get">
            <label class="visually-hidden" for="site-q">Search the knowledge base</label>
            <input id="site-q" type="search" name="q" placeholder="Search rules, APIs, crash codes" autocomplete="off">
            <button type="submit">Search</button>
            </form>
            """)
        }
        w.markup("\n</div>\n<nav class=\"site-nav\" aria-label=\"Site\">\n<ul class=\"wrap\">\n")
        for item in navigation {
            w.markup("<li><a href=\"")
            w.text(root)
            w.text(item.path)
            w.markup("\"")
            if item.path == current { w.markup(" aria-current=\"page\"") }
            w.markup(">")
            w.text(item.label)
            w.markup("</a></li>\n")
        }
        w.markup("</ul>\n</nav>\n</header>\n<main id=\"main\" class=\"wrap\" tabindex=\"-1\">\n")
        body(&w)
        w.markup("""

        </main>
        <footer class="site-footer">
        <div class="wrap">
        <p>bgkb restates public guidance on iOS background execution in its own words and cites every source. Each example on these pages was run through bgkb's simulator when the site was built.</p>
        <p><a href="
        """)
        w.text(root)
        w.markup("feed.xml\">Atom feed of revision entries</a> · <a href=\"")
        w.text(root)
        w.markup("sitemap.xml\">Sitemap</a> · Press <kbd>/</kbd> to search.</p>\n</div>\n</footer>\n<script src=\"")
        w.text(root)
        w.markup("assets/keys.js\"></script>\n")
        for script in scripts {
            w.markup("<script src=\"")
            w.text(root)
            w.text(script)
            w.markup("\"></script>\n")
        }
        w.markup("</body>\n</html>\n")
    }
}
