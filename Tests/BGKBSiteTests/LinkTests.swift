import Foundation
import Testing
@testable import BGKBSite

/// Every relative link and anchor in the generated site resolves, checked in memory so it runs in
/// `swift test` without a browser (the CI script also runs linkchecker on the real Site/).
@Suite struct LinkTests {
    static func attributeValues(_ name: String, in html: String) -> [String] {
        var values: [String] = []
        let marker = " \(name)=\""
        var rest = Substring(html)
        while let range = rest.range(of: marker) {
            let after = rest[range.upperBound...]
            guard let end = after.firstIndex(of: "\"") else { break }
            values.append(String(after[..<end]))
            rest = after[end...]
        }
        return values
    }

    static func resolve(_ link: String, from page: String) -> String {
        var parts = page.split(separator: "/").dropLast().map(String.init)
        for component in link.split(separator: "/", omittingEmptySubsequences: false).map(String.init) {
            if component == ".." { _ = parts.popLast() } else if component != "." { parts.append(component) }
        }
        return parts.joined(separator: "/")
    }

    static func brokenLinks(in site: SiteBuild) -> [String] {
        var ids: [String: Set<String>] = [:]
        for path in site.paths where path.hasSuffix(".html") {
            ids[path] = Set(attributeValues("id", in: site.files[path] ?? ""))
        }
        var broken: [String] = []
        for path in site.paths where path.hasSuffix(".html") {
            let html = site.files[path] ?? ""
            for link in attributeValues("href", in: html) + attributeValues("src", in: html) {
                if link.hasPrefix("https://") || link.hasPrefix("http://") || link.hasPrefix("data:") { continue }
                // An empty href "resolves" to its own page, so linkchecker passes it; it is a bug.
                guard !link.isEmpty else {
                    broken.append("\(path): empty link")
                    continue
                }
                let pieces = link.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
                let target = pieces[0].isEmpty ? path : resolve(pieces[0], from: path)
                guard site.files[target] != nil else {
                    broken.append("\(path): \(link) (no file)")
                    continue
                }
                if pieces.count == 2, target.hasSuffix(".html"), ids[target]?.contains(pieces[1]) != true {
                    broken.append("\(path): \(link) (no anchor)")
                }
            }
        }
        return broken
    }

    @Test func everyInternalLinkAndAnchorResolves() {
        let site = SiteBuilder.build(corpus: SampleCorpus.corpus, verdicts: SampleCorpus.verdicts)
        // cmark's safe mode empties the sample's `javascript:` link; no other link may be empty.
        #expect(Self.brokenLinks(in: site) == ["rules/end-every-task.html: empty link"])
    }

    @Test func idsAreUniqueOnEveryPage() {
        let site = SiteBuilder.build(corpus: SampleCorpus.corpus, verdicts: SampleCorpus.verdicts)
        for path in site.paths where path.hasSuffix(".html") {
            let ids = Self.attributeValues("id", in: site.files[path] ?? "")
            #expect(Set(ids).count == ids.count, "\(path) repeats an id")
        }
    }

    @Test func resolvesRelativePaths() {
        #expect(Self.resolve("../rules/a.html", from: "topics/x.html") == "rules/a.html")
        #expect(Self.resolve("search.html", from: "index.html") == "search.html")
        #expect(SitePaths.root(from: "rules/a.html") == "../")
    }
}

/// A slug: lowercase ASCII letters and digits, every other run one hyphen, none at either end.
@Suite struct SlugTests {
    @Test(arguments: [("Gen-Rule-00001", "gen-rule-00001"), ("caf\u{E9} au lait", "caf-au-lait"), ("  --A__b--  ", "a-b"), ("", "x"),
                      ("é", "x"), ("Line\r\nbreak", "line-break"), ("ÀB", "b")])
    func slugs(_ text: String, _ slug: String) {
        #expect(Slug.make(text) == slug)
    }
}
