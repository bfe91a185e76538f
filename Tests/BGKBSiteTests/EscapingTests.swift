import BGKBModel
import Testing
@testable import BGKBSite

/// Raw HTML and `javascript:` links in Content must never reach a page.
@Suite struct EscapingTests {
    let site = SiteBuilder.build(corpus: SampleCorpus.corpus, verdicts: SampleCorpus.verdicts)

    var pages: [(String, String)] {
        site.paths.filter { $0.hasSuffix(".html") || $0.hasSuffix(".xml") }.map { ($0, site.files[$0] ?? "") }
    }

    @Test func noContentScriptReachesAnyPage() {
        for (path, page) in pages {
            #expect(page.contains("<script>alert") == false, "\(path) contains raw script from Content")
            #expect(page.lowercased().contains("javascript:") == false, "\(path) contains a javascript: URL")
        }
    }

    @Test func hostileTitlesAreEscapedNotDropped() throws {
        let page = try #require(site.files["rules/foreground-task-is-dormant.html"])
        #expect(page.contains("A foreground task is dormant &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;"))
        let rule = try #require(site.files["rules/end-every-task.html"])
        #expect(rule.contains("upload &lt;script&gt;"), "trace details are escaped in the text timeline and SVG")
    }

    @Test func onlyTheSiteScriptsAreLoaded() {
        for (path, page) in pages where path.hasSuffix(".html") {
            let scripts = page.components(separatedBy: "<script").count - 1
            let allowed = page.components(separatedBy: "<script src=\"").count - 1
            #expect(scripts == allowed, "\(path) has an inline script")
        }
    }

    @Test func noExternalResourcesAreLoaded() {
        for (path, page) in pages where path.hasSuffix(".html") {
            #expect(page.contains("src=\"http") == false, "\(path) loads an external resource")
            #expect(page.contains("rel=\"stylesheet\" href=\"http") == false, "\(path) loads an external stylesheet")
        }
    }

    @Test(arguments: [
        ("plain", "plain"),
        ("<script>alert('x')</script>", "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;"),
        ("a \" onclick=\"b", "a &quot; onclick=&quot;b"),
        ("AT&T — “ok” 😀", "AT&amp;T — “ok” 😀"),
    ])
    func writerEscapesEveryValue(_ value: String, _ escaped: String) {
        var writer = HTMLWriter()
        writer.markup("<p title=\"")
        writer.text(value)
        writer.markup("\">")
        #expect(writer.string == "<p title=\"" + escaped + "\">")
    }

    /// The escape written out Character by Character: what `HTMLWriter.text` must produce.
    static func reference(_ value: String) -> String {
        value.map { character -> String in
            switch character {
            case "<": return "&lt;"
            case ">": return "&gt;"
            case "&": return "&amp;"
            case "\"": return "&quot;"
            case "'": return "&#39;"
            default: return String(character)
            }
        }.joined()
    }

    /// Each escaped byte at every offset of a value, next to multi-byte UTF-8 and to bytes one
    /// off the escaped ones.
    @Test(arguments: ["<", ">", "&", "\"", "'"])
    func writerEscapesAtEveryOffsetOfLongValues(_ special: String) {
        let fillers = ["abcdefghijklmnopqrstuvwxyz0123", "=;%(#)é—“😀”=;%(#)é—“", "\u{3B}\u{3D}\u{21}\u{23}\u{25}\u{28}\u{3F}\u{40}"]
        for filler in fillers {
            let characters = Array(filler)
            for offset in 0...characters.count {
                for tail in [special, "", special + special] {
                    let value = String(characters[..<offset]) + special + String(characters[offset...]) + tail
                    var writer = HTMLWriter()
                    writer.text(value)
                    #expect(writer.string == Self.reference(value), "\(value.debugDescription)")
                }
            }
        }
    }

    /// Random mixes of the five, their neighbours in value, NUL and multi-byte text, of every
    /// length up to 40.
    @Test(arguments: 0..<16)
    func writerEscapesRandomMixesLikeAByteLoop(seed: Int) {
        let alphabet: [String] = ["<", ">", "&", "\"", "'", "=", ";", "%", "(", "#", "?", "\u{0}", "a", " ", "é", "—", "😀", "x y"]
        for value in randomMixes(of: alphabet, seed: seed, lengths: 0...40) {
            var writer = HTMLWriter()
            writer.text(value)
            #expect(writer.string == Self.reference(value), "\(value.debugDescription)")
        }
    }

    @Test func contentHeadingsAreDemotedBelowThePageOutline() {
        #expect(SiteContext.demoteHeadings("<h1>A</h1><h2>B</h2><h5>C</h5>") == "<h3>A</h3><h4>B</h4><h6>C</h6>")
        #expect(SiteContext.demoteHeadings("<h3>x</h3><h6>y</h6><hr /><h7>z</h7><h2 id=\"a\">") == "<h5>x</h5><h6>y</h6><hr /><h7>z</h7><h2 id=\"a\">")
        #expect(SiteContext.demoteHeadings("a <") == "a <")
    }

    /// The search index's text: split at White_Space scalars and joined with single spaces.
    static func collapsedByScalars(_ text: String) -> String {
        text.unicodeScalars.split(whereSeparator: \.properties.isWhitespace).map { String(String.UnicodeScalarView($0)) }.joined(separator: " ")
    }

    @Test(arguments: ["", "  a  b ", "a\r\nb\tc\u{0B}d\u{0C}e", "non\u{00A0}breaking\u{2028}line\u{0085}next\u{3000}ideo",
                      "é è\u{1F600}  😀\n", "\u{1C}unit\u{1F}separators",
                      // A whitespace scalar in one Character with a scalar beyond ASCII (a combining
                      // mark after it, a prepended mark before it): the scalar is what splits.
                      "a \u{301}b  c", " \u{301}lead", "tail \u{301}", "\u{0600} x", "x\u{00A0}\u{301}y", "one two\u{301} three",
                      "a\u{1680}b\u{2000}c\u{200A}d\u{200B}e\u{2029}f\u{202F}g\u{205F}h\u{180E}i\u{FEFF}j\u{2FFF}k\u{3001}l\u{00A1}m\u{0084}n",
                      " \u{2003}\u{2003}Apple’s “docs” — ok\u{3000}",
                      "abcdefghijklmnop", "abcdefgh ijklmnop\tqrstuvwx\u{1C}yz0123456\n", "1234567\u{00A0}89abcdef", "12345678é12345678",
                      "\u{7F}\u{7F}\u{7F}\u{7F}\u{7F}\u{7F}\u{7F}\u{7F} x", "!!!!!!!!~~~~~~~~\r\n        \u{2028}zzzzzzzz"]
                    + (0..<9).map { String(repeating: "w", count: $0) + " " + String(repeating: "v", count: 8 - $0) + "  tail" })
    func whitespaceCollapsesLikeSplitAndJoin(_ text: String) {
        #expect(TextScan.collapseWhitespace(text) == Self.collapsedByScalars(text))
    }

    /// Random mixes of words, single and repeated spaces, other whitespace (ASCII and beyond) and
    /// combining marks, up to 60 pieces.
    @Test(arguments: 0..<16)
    func whitespaceCollapsesRandomMixesLikeSplitAndJoin(seed: Int) {
        let alphabet: [String] = ["word", "a", " ", " ", "  ", "\n", "\t", "\r\n", "\u{00A0}", "\u{2003}", "\u{301}", "é", "😀", ".", "\u{7F}", "\u{1F}"]
        for value in randomMixes(of: alphabet, seed: seed, lengths: 0...60) {
            #expect(TextScan.collapseWhitespace(value) == Self.collapsedByScalars(value),
                    "\(value.debugDescription)")
        }
    }

    @Test func aCombiningMarkAfterWhitespaceStartsTheNextWord() {
        #expect(TextScan.collapseWhitespace("a \u{301}b  c ") == "a \u{301}b c")
    }

    @Test(arguments: ["https://example.com/a", "http://example.com", "HTTPS://EXAMPLE.COM", "Http://x", "http://", "https://é.example"])
    func acceptsHTTPLinks(_ url: String) { #expect(SafeURL.isExternalHTTP(url)) }

    @Test(arguments: ["javascript:alert(1)", "JAVASCRIPT:x", "data:text/html,x", "https://a\" onclick=\"x", "//evil", "http:/x", "https:/",
                      "https://a b", "https://a\tb", "https://a\r\nb", "https://a\u{0B}b", "https://a<b", "https://a>b", "ftp://x", "", "h",
                      "https://a\u{A0}b", "https://a\u{2028}b", "\u{212A}https://x", "https://x/\u{85}", "http:\u{0F}\u{0F}x", "http\u{1A}//x",
                      "Http\u{FF3A}//x"])
    func rejectsOtherLinks(_ url: String) { #expect(SafeURL.isExternalHTTP(url) == false) }
}
