/// The frame every page shares: head, skip link, header with navigation and search, footer.
enum Layout {
    static let template = """
    <!DOCTYPE html>
    <html lang="en">
    <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <meta name="color-scheme" content="light dark">
    <title>{{title}} · bgkb</title>
    <meta name="description" content="{{description}}">
    <link rel="icon" href="data:,">
    <link rel="stylesheet" href="{{root}}assets/style.css">
    <link rel="alternate" type="application/atom+xml" title="bgkb revision entries" href="{{root}}feed.xml">
    </head>
    <body>
    <a class="skip-link" href="#main">Skip to content</a>
    <header class="site-header">
    <div class="wrap header-row">
    <a class="brand" href="{{root}}index.html"><span class="brand-mark" aria-hidden="true">bg</span>kb<span class="brand-tag">iOS background execution, checked</span></a>
    {{#headerSearch}}<form class="site-search" role="search" action="{{root}}search.html" method="get">
    <label class="visually-hidden" for="site-q">Search the knowledge base</label>
    <input id="site-q" type="search" name="q" placeholder="Search rules, APIs, crash codes" autocomplete="off">
    <button type="submit">Search</button>
    </form>{{/headerSearch}}
    </div>
    <nav class="site-nav" aria-label="Site">
    <ul class="wrap">
    {{#nav}}<li><a href="{{href}}"{{#current}} aria-current="page"{{/current}}>{{label}}</a></li>
    {{/nav}}</ul>
    </nav>
    </header>
    <main id="main" class="wrap" tabindex="-1">
    {{{bodyHtml}}}
    </main>
    <footer class="site-footer">
    <div class="wrap">
    <p>bgkb restates public guidance on iOS background execution in its own words and cites every source. Each example on these pages was run through bgkb's simulator when the site was built.</p>
    <p><a href="{{root}}feed.xml">Atom feed of revision entries</a> · <a href="{{root}}sitemap.xml">Sitemap</a> · Press <kbd>/</kbd> to search.</p>
    </div>
    </footer>
    <script src="{{root}}assets/keys.js"></script>
    {{#scripts}}<script src="{{root}}{{src}}"></script>
    {{/scripts}}</body>
    </html>

    """

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

    /// Wraps a page body (already rendered HTML) in the shared frame.
    static func page(_ context: SiteContext, path: String, title: String, description: String,
                     section: String? = nil, body: String, scripts: [String] = []) -> String {
        let root = SitePaths.root(from: path)
        let current = section ?? path
        let nav: [[String: Any]] = navigation.map { item in
            ["href": root + item.path, "label": item.label, "current": item.path == current]
        }
        return context.templates.render("layout", [
            "title": title,
            "description": description,
            "root": root,
            "nav": nav,
            "bodyHtml": body,
            // The search page has its own, larger form.
            "headerSearch": path != SitePaths.search,
            "scripts": scripts.map { ["src": $0] },
        ])
    }
}
