/// Where each page lives. Every link in the site is relative (`../rules/x.html`) so the site works
/// from `file://` and from any folder of any static host.
enum SitePaths {
    static let home = "index.html"
    static let rulesIndex = "rules/index.html"
    static let topicsIndex = "topics/index.html"
    static let revisions = "revisions.html"
    static let sources = "sources.html"
    static let crashCodes = "crash-codes.html"
    static let apis = "apis.html"
    static let search = "search.html"
    static let notFound = "404.html"
    static let sitemap = "sitemap.xml"
    static let feed = "feed.xml"
    static let stylesheet = "assets/style.css"
    static let searchScript = "assets/search.js"
    static let searchIndex = "assets/search-index.js"
    static let keysScript = "assets/keys.js"

    static func rule(_ slug: String) -> String { "rules/\(slug).html" }
    static func topic(_ slug: String) -> String { "topics/\(slug).html" }
    static func document(_ slug: String) -> String { "documents/\(slug).html" }

    /// The prefix that leads from `page` back to the site's root: `""` or `"../"`.
    static func root(from page: String) -> String {
        let depth = page.utf8.count { $0 == UInt8(ascii: "/") }
        switch depth {
        case 0: return ""
        case 1: return "../"
        case 2: return "../../"
        default: return String(repeating: "../", count: depth)
        }
    }

    /// A link from `page` to `target` (both relative to the root), optionally to an anchor.
    static func link(from page: String, to target: String, anchor: String? = nil) -> String {
        let base = root(from: page) + target
        guard let anchor else { return base }
        return base + "#" + anchor
    }
}

/// Turns ids from Content into safe file names and HTML ids: lowercase ASCII letters, digits and
/// single hyphens. Content ids are kebab-case already; this guards against anything else.
enum Slug {
    static func make(_ text: String) -> String {
        var result = ""
        var lastWasHyphen = true
        for scalar in text.lowercased().unicodeScalars {
            if ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar) {
                result.unicodeScalars.append(scalar)
                lastWasHyphen = false
            } else if !lastWasHyphen {
                result.append("-")
                lastWasHyphen = true
            }
        }
        while result.hasSuffix("-") { result.removeLast() }
        return result.isEmpty ? "x" : result
    }

    /// Slugs for `ids`, in order, made unique by `-2`, `-3` suffixes so two ids never share a file.
    static func unique(_ ids: [String]) -> [String: String] {
        var used = Set<String>()
        var result: [String: String] = [:]
        for id in ids where result[id] == nil {
            let base = make(id)
            var candidate = base
            var n = 2
            while used.contains(candidate) {
                candidate = "\(base)-\(n)"
                n += 1
            }
            used.insert(candidate)
            result[id] = candidate
        }
        return result
    }
}
