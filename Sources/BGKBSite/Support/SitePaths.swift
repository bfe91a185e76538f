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
    static let quiz = "quiz.html"
    static let quizBank = "assets/quiz-bank.js"
    static let quizScript = "assets/quiz.js"
    static let ruleListScript = "assets/rule-list.js"
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
        // A loop over the contiguous bytes: through the UTF-8 view (`count(where:)`, or a `for`
        // loop) a call cost 770 instructions, 10 M a 1,000-rule build (every link asks).
        var depth = 0
        var page = page
        page.withUTF8 { bytes in
            for byte in bytes where byte == UInt8(ascii: "/") { depth += 1 }
        }
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
        makeASCII(text) ?? makeByScalar(text)
    }

    /// `make` over bytes, for ASCII text (every id in Content and the generated corpus): its
    /// lower case is the ASCII one, and each byte a scalar. Appending scalar by scalar to a String
    /// cost 8,000 instructions an id, and the site slugs every rule id while it makes its context,
    /// on one core (about 25 ms at 10,000 rules).
    static func makeASCII(_ text: String) -> String? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var lastWasHyphen = true
        for byte in text.utf8 {
            guard byte < 0x80 else { return nil }
            let lower = byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
            if (lower >= UInt8(ascii: "a") && lower <= UInt8(ascii: "z")) || (lower >= UInt8(ascii: "0") && lower <= UInt8(ascii: "9")) {
                bytes.append(lower)
                lastWasHyphen = false
            } else if !lastWasHyphen {
                bytes.append(UInt8(ascii: "-"))
                lastWasHyphen = true
            }
        }
        while bytes.last == UInt8(ascii: "-") { bytes.removeLast() }
        return bytes.isEmpty ? "x" : String(decoding: bytes, as: UTF8.self)
    }

    static func makeByScalar(_ text: String) -> String {
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
