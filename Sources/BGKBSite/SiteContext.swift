import BGKBExamples
import BGKBMarkdown
import Foundation
import BGKBModel

/// Everything the steps share, computed once: the corpus, the engine's verdicts by example, stable
/// file names and the indexes (topics, APIs, crash codes). A class: every
/// rule page takes it, and copying a struct of twenty references retained each of them, atomically
/// on objects both cores touch.
public final class SiteContext: Sendable {
    public let corpus: Corpus
    public let configuration: SiteConfiguration
    /// Verdicts keyed by `Example.identifier`, when they were run before the build.
    let verdicts: [String: ExampleVerdict]
    /// Set when the rule pages run the examples themselves (the streaming build): it then holds
    /// what the other pages need from the verdicts, and `verdicts` is empty.
    let ledger: ExampleLedger?
    let ruleSlugs: [String: String]
    let topicSlugs: [String: String]
    let documentSlugs: [String: String]
    let sourceSlugs: [String: String]
    /// Rules still current (not removed), most important first: positions in `corpus.rules`, read
    /// through, so a 10,000-rule site keeps no second copy of every rule (nor a third in
    /// `rulesByID`).
    let rankedIndices: [Int]
    var rankedRules: RuleSelection { RuleSelection(rules: corpus.rules, positions: rankedIndices) }
    /// Each rule's place (by corpus index) in the lists that follow importance, removed rules
    /// last: the search index's `o`, by which the search page lists what it finds.
    let searchRank: [Int]

    /// Some of the corpus's rules in a given order, read through positions (eager `map` and
    /// `filter`, as on an array).
    struct RuleSelection: RandomAccessCollection {
        let rules: [Rule]
        let positions: [Int]
        var startIndex: Int { 0 }
        var endIndex: Int { positions.count }
        subscript(position: Int) -> Rule { rules[positions[position]] }
    }
    /// Lookups by id; `Corpus.rule(_:)` is a linear search, too slow for 10,000 rules.
    let ruleIndexByID: [String: Int]
    /// Each rule's heading (`heading(_:)`) by its position in the corpus, made once.
    let headings: [String]
    let documentsByID: [String: Document]
    /// The first source of each id, as `Corpus.source(_:)` finds it: citations look sources up
    /// on every rule page.
    let sourcesByID: [String: Source]
    let removedRuleIDs: Set<String>
    /// Every rule as linked from the site's root, made once: lists, the API index and crash codes
    /// link the same rules tens of thousands of times at 10,000 rules.
    let ruleReferences: [String: RuleReference]
    /// API name → ids of the rules naming it, both in a stable order.
    let apiIndex: [(api: String, rules: [String])]
    let crashCodeIndex: [(code: String, rules: [String])]
    /// API name → its anchor on the API index, unique even when two names slug alike.
    let apiAnchors: [String: String]

    public convenience init(corpus: Corpus, verdicts: [ExampleVerdict], configuration: SiteConfiguration = SiteConfiguration()) {
        self.init(corpus: corpus, verdicts: verdicts, ledger: nil, configuration: configuration)
    }

    init(corpus: Corpus, verdicts: [ExampleVerdict], ledger: ExampleLedger?, configuration: SiteConfiguration) {
        self.corpus = corpus
        self.ledger = ledger
        self.configuration = configuration
        var byIdentifier: [String: ExampleVerdict] = [:]
        for verdict in verdicts { byIdentifier[verdict.example.identifier] = verdict }
        self.verdicts = byIdentifier
        ruleSlugs = Self.ruleSlugs(corpus.rules)
        topicSlugs = Slug.unique(corpus.topics.map(\.id))
        documentSlugs = Slug.unique(corpus.documents.map(\.id))
        sourceSlugs = Slug.unique(corpus.sources.map(\.id))

        ruleIndexByID = Dictionary(corpus.rules.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first })
        documentsByID = Dictionary(corpus.documents.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        sourcesByID = Dictionary(corpus.sources.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let removed = Set(corpus.rules.filter { $0.history.last?.change == .removed }.map(\.id))
        removedRuleIDs = removed
        // Each rule's heading and importance on all cores: nothing else runs beside this step.
        let measured = ParallelMap.map(corpus.rules) { rule in (heading: Self.heading(rule), score: Importance.score(rule)) }
        headings = measured.map(\.heading)
        var references: [String: RuleReference] = [:]
        for index in corpus.rules.indices where references[corpus.rules[index].id] == nil {
            let id = corpus.rules[index].id
            guard let slug = ruleSlugs[id] else { continue }
            let heading = measured[index].heading
            let kind = corpus.rules[index].kind
            let statement = corpus.rules[index].statement
            references[id] = RuleReference(id: id, href: SitePaths.rule(slug), title: heading,
                                           kind: KindLabel.text(kind), kindClass: KindLabel.cssClass(kind),
                                           statement: statement, removed: removed.contains(id))
        }
        ruleReferences = references
        // Ties keep corpus order: each rule's position is that of the first rule with its id,
        // looked up once per rule here rather than twice per comparison in the sort.
        let firstIndexOf = ruleIndexByID
        let order = corpus.rules.map { firstIndexOf[$0.id] ?? 0 }
        rankedIndices = corpus.rules.indices
            .filter { !removed.contains(corpus.rules[$0].id) }
            .map { (index: $0, score: measured[$0].score) }
            .sorted { a, b in a.score != b.score ? a.score > b.score : order[a.index] < order[b.index] }
            .map(\.index)

        // Index lists follow importance, removed rules last, like the rule list. By position:
        // a list of the rules themselves copied (retained) every field of all of them.
        let ordered = rankedIndices + corpus.rules.indices.filter { removed.contains(corpus.rules[$0].id) }
        var rank = [Int](repeating: 0, count: corpus.rules.count)
        for (position, index) in ordered.enumerated() { rank[index] = position }
        searchRank = rank
        apiIndex = Self.index(ordered, of: corpus.rules) { $0.apis }
        crashCodeIndex = Self.index(ordered, of: corpus.rules) { $0.crashCodes.map { $0.lowercased() } }
        apiAnchors = Slug.unique(apiIndex.map(\.api)).mapValues { "api-" + $0 }
    }

    /// The rule with this id (the first, if Content repeats one).
    func rule(_ id: String) -> Rule? {
        ruleIndexByID[id].map { corpus.rules[$0] }
    }

    /// Groups rule ids by a key they carry, keys sorted case-insensitively, rules in corpus order.
    private static func index(_ positions: [Int], of rules: [Rule], keys: (Rule) -> [String]) -> [(String, [String])] {
        var map: [String: [String]] = [:]
        for position in positions {
            // A rule names a key or two: a linear check drops repeats without a Set per rule.
            var seen: [String] = []
            for key in keys(rules[position]) where !key.isEmpty && !seen.contains(key) {
                seen.append(key)
                map[key, default: []].append(rules[position].id)
            }
        }
        return map.keys
            .sorted { ($0.lowercased(), $0) < ($1.lowercased(), $1) }
            .map { ($0, map[$0] ?? []) }
    }

    // MARK: Verdicts

    /// What pages other than the rule's own show of an example's verdict.
    func verdictFacts(_ identifier: String) -> VerdictFacts? {
        if let ledger { return ledger.facts(identifier) }
        return verdicts[identifier].map(VerdictFacts.init)
    }

    /// How many examples have a verdict. With a ledger, only known once the rule pages ran.
    var verdictCount: Int { ledger?.count ?? verdicts.count }

    // MARK: Links

    func rulePath(_ id: String) -> String? { ruleSlugs[id].map(SitePaths.rule) }
    func topicPath(_ id: String) -> String? { topicSlugs[id].map(SitePaths.topic) }
    func documentPath(_ id: String) -> String? { documentSlugs[id].map(SitePaths.document) }
    func apiAnchor(_ api: String) -> String { apiAnchors[api] ?? "api-" + Slug.make(api) }
    func sourceAnchor(_ id: String) -> String { "source-" + (sourceSlugs[id] ?? Slug.make(id)) }

    func link(from page: String, to target: String, anchor: String? = nil) -> String {
        SitePaths.link(from: page, to: target, anchor: anchor)
    }

    /// A link to a rule as pages show it: its heading and kind badge.
    /// A class: the API index and the topic pages look up tens of thousands of these at 10,000
    /// rules, and a struct of five strings was copied (five retains and releases) each time.
    final class RuleReference: Sendable {
        /// From the site's root; a page prefixes `SitePaths.root(from:)`.
        let href: String
        let title: String
        let kind: String
        let kindClass: String
        let statement: String
        let showStatement: Bool
        let removed: Bool
        /// The rule's short name in lists: its own title when Content gives one, else its id in
        /// words (`end-the-task-either-way` → "End the task either way").
        let shortTitle: String

        init(id: String, href: String, title: String, kind: String, kindClass: String, statement: String, removed: Bool) {
            self.href = href
            self.title = title
            self.kind = kind
            self.kindClass = kindClass
            self.statement = statement
            showStatement = title != statement
            self.removed = removed
            shortTitle = showStatement ? title : id.split(separator: "-").joined(separator: " ").withFirstLetterUppercased
        }

        /// `<a href="root + href">title</a>`. `HTMLWriter.text` escapes byte by byte, so writing
        /// the root and the path one after the other is writing the joined link.
        func writeLink(root: String, into w: inout HTMLWriter) {
            w.markup("<a href=\""); w.text(root); w.text(href); w.markup("\">"); w.text(title); w.markup("</a>")
        }
    }

    /// The rule's name as pages show it. A derived title is the statement cut at a word with `…`;
    /// showing it above the full statement reads as a stutter, so the statement is used instead.
    /// "Myth: <the claim>" for a misconception with a disputed claim; nil for any other rule.
    static func mythHeading(_ rule: Rule) -> String? {
        guard rule.kind == .misconception, let claim = rule.dispute?.claim else { return nil }
        return "Myth: " + claim
    }

    /// Each rule's file name: its id, made safe, and for a misconception `myth-` before it, so
    /// the address agrees with the page's "Myth:" heading and badge (`RedirectPages` keeps the
    /// old address working).
    static func ruleSlugs(_ rules: [Rule]) -> [String: String] {
        let names = rules.map { rule -> (id: String, name: String) in
            let myth = rule.kind == .misconception && !rule.id.hasPrefix(SitePaths.mythPrefix)
            return (rule.id, myth ? SitePaths.mythPrefix + rule.id : rule.id)
        }
        let slugs = Slug.unique(names.map(\.name))
        var result: [String: String] = [:]
        for (id, name) in names where result[id] == nil { result[id] = slugs[name] }
        return result
    }

    static func heading(_ rule: Rule) -> String {
        // A misconception is named by its myth everywhere (lists, links, search, its own page),
        // as its badge and address name it; the correction is its statement.
        if let myth = mythHeading(rule) { return myth }
        // A suffix is looked for by its last byte first, and compared as Characters only then.
        let statement = rule.statement, title = rule.title
        if statement == title + ".", statement.hasSuffix(".") { return statement }
        // How many Characters the title's ellipsis takes (`…` or `...`), if it ends with one.
        let ellipsis: Int
        switch title.utf8.last {
        case 0xA6 where title.hasSuffix("…"): ellipsis = 1
        case UInt8(ascii: ".") where title.hasSuffix("..."): ellipsis = 3
        default: return title
        }
        let stem = String(title[..<title.index(title.endIndex, offsetBy: -ellipsis)])
        return statement.hasPrefix(stem.trimmingCharacters(in: String.spacesAndTabs)) ? statement : title
    }

    /// A citation as pages show it: the source's title and link, version, locator, flags.
    struct CitationLink {
        var title: String
        var href: String
        var unverified: Bool
        var known: Bool
        /// Only plain http(s) links from sources.yml.
        var url: String?
        var version: String?
        var locator: String?
        var reliability: String?
    }

    func citationLink(_ citation: Citation, from page: String) -> CitationLink {
        let source = sourcesByID[citation.source]
        var title = source?.title ?? citation.source
        var href = link(from: page, to: SitePaths.sources, anchor: source == nil ? "sources-list" : sourceAnchor(citation.source))
        var version = citation.version
        // The pipeline cites one of our own documents as `document@version` (a conflict between
        // two versions): point at that version on the document's page.
        if source == nil {
            let parts = citation.source.split(separator: "@", maxSplits: 1).map(String.init)
            if let first = parts.first, let document = corpus.documents.first(where: { $0.id == first }), let path = documentPath(document.id) {
                version = parts.count == 2 ? parts[1] : citation.version
                title = document.title
                // Only versions the document has get an anchor on its page.
                let known = version.flatMap { label in document.versions.contains { $0.label == label } ? label : nil }
                href = link(from: page, to: path, anchor: known.map { DocumentPages.versionAnchor($0) })
            }
        }
        let url = source?.url.flatMap { SafeURL.isExternalHTTP($0) ? $0 : nil }
        return CitationLink(title: title, href: href, unverified: citation.unverified, known: source != nil, url: url,
                            version: version, locator: citation.locator, reliability: source?.reliability.rawValue)
    }

    // MARK: Markdown

    /// Content Markdown as HTML, through cmark's safe mode. Links written as `#rule-id` (the
    /// Content convention for pointing at a rule) are rewritten to that rule's page.
    func markdown(_ text: String, from page: String) -> String {
        let html = CommonMarkConverter.renderHTML(text, smartPunctuation: true)
        return rewriteRuleAnchors(Self.demoteHeadings(html), from: page)
    }

    /// `markdown(_:from:)` written straight into a page: most prose holds no heading and no link
    /// to a rule, and then cmark's bytes go in as they are, with no String made of them (nor the
    /// two byte copies the rewrites made to find nothing to rewrite).
    func writeMarkdown(_ text: String, from page: String, into w: inout HTMLWriter) {
        CommonMarkConverter.withRenderedHTML(text, smartPunctuation: true) { html in writeRendered(html, from: page, into: &w) }
    }

    /// `writeMarkdown`, also appending the text's plain text (`plainText(text)`, from the same
    /// parse) to `plainTexts` when the text is not empty: the rule pages gather the search index's
    /// text this way. With `plainTexts` nil, just `writeMarkdown`.
    func writeMarkdown(_ text: String, from page: String, into w: inout HTMLWriter, plainTexts: inout [String]?) {
        guard plainTexts != nil else { return writeMarkdown(text, from: page, into: &w) }
        CommonMarkConverter.withRenderedSmartHTMLAndPlainText(text) { html, plain in
            if !text.isEmpty { plainTexts?.append(plain) }
            writeRendered(html, from: page, into: &w)
        }
    }

    private func writeRendered(_ html: some Collection<UInt8>, from page: String, into w: inout HTMLWriter) {
        if !Bytes.contains("<h".utf8, in: html) && !Bytes.contains("href=\"#".utf8, in: html) {
            w.trusted(html)
        } else {
            w.trusted(rewriteRuleAnchors(Self.demoteHeadings(String(decoding: html, as: UTF8.self)), from: page))
        }
    }

    /// Headings inside Content Markdown sit under a page's `h1` and its `h2` sections: push them
    /// down two levels so the outline stays in order (cmark writes bare `<hN>` tags).
    static func demoteHeadings(_ html: String) -> String {
        let bytes = Array(html.utf8)
        guard Bytes.contains("<h".utf8, in: bytes) else { return html }
        // One pass: `<hN>` and `</hN>` (N in 1...6) become level min(6, N + 2).
        var result = bytes
        var index = 0
        while let open = Bytes.firstOffset(of: CollectionOfOne(UInt8(ascii: "<")), in: bytes, from: index) {
            var digit = open + 2
            if digit < bytes.count, bytes[open + 1] == UInt8(ascii: "/") { digit += 1 }
            if digit + 1 < bytes.count, bytes[digit - 1] == UInt8(ascii: "h"), bytes[digit + 1] == UInt8(ascii: ">"),
               (UInt8(ascii: "1")...UInt8(ascii: "6")).contains(bytes[digit]) {
                result[digit] = min(UInt8(ascii: "6"), bytes[digit] + 2)
            }
            index = open + 1
        }
        return String(decoding: result, as: UTF8.self)
    }

    private func rewriteRuleAnchors(_ html: String, from page: String) -> String {
        let bytes = Array(html.utf8)
        let anchor = Array("href=\"#".utf8)
        guard var found = Bytes.firstOffset(of: anchor, in: bytes) else { return html }
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count)
        var copied = 0
        while true {
            let fragmentStart = found + anchor.count
            guard let close = bytes[fragmentStart...].firstIndex(of: UInt8(ascii: "\"")) else { break }
            result.append(contentsOf: bytes[copied..<found])
            let fragment = String(decoding: bytes[fragmentStart..<close], as: UTF8.self)
            if let path = rulePath(fragment) {
                result.append(contentsOf: "href=\"".utf8)
                result.append(contentsOf: link(from: page, to: path).utf8)
                result.append(UInt8(ascii: "\""))
            } else {
                result.append(contentsOf: bytes[found...close])
            }
            copied = close + 1
            guard let next = Bytes.firstOffset(of: anchor, in: bytes, from: copied) else { break }
            found = next
        }
        result.append(contentsOf: bytes[copied...])
        return String(decoding: result, as: UTF8.self)
    }

    /// Plain text of Content Markdown, for the search index and meta descriptions.
    func plainText(_ markdown: String) -> String {
        CommonMarkConverter.plainText(markdown)
    }
}

/// Kind badges as people read them.
enum KindLabel {
    static func text(_ kind: Rule.Kind) -> String {
        switch kind {
        case .must: return "Must"
        case .mustNot: return "Must not"
        case .should: return "Should"
        case .shouldNot: return "Should not"
        case .fact: return "Fact"
        case .misconception: return "Misconception"
        }
    }

    static func cssClass(_ kind: Rule.Kind) -> String { "kind-" + kind.rawValue }
}

/// Links to the outside world are only ever plain http(s) URLs from sources.yml.
enum SafeURL {
    /// `http://` or `https://` in any case, then no White_Space scalar and no `"`, `<` or `>`.
    static func isExternalHTTP(_ url: String) -> Bool {
        let bytes = url.utf8
        func startsWith(_ scheme: StaticString) -> Bool {
            // The scheme is lowercase ASCII: a letter matches in either case, `:` and `/` exactly.
            scheme.withUTF8Buffer { scheme in
                bytes.count >= scheme.count && zip(bytes, scheme).allSatisfy { byte, expected in
                    expected >= UInt8(ascii: "a") ? byte | 0x20 == expected : byte == expected
                }
            }
        }
        guard startsWith("https://") || startsWith("http://") else { return false }
        for scalar in url.unicodeScalars {
            if scalar.isASCII {
                let value = scalar.value
                if value == 0x20 || (0x09...0x0D).contains(value) || value == 0x22 || value == 0x3C || value == 0x3E { return false }
            } else if scalar.properties.isWhitespace {
                return false
            }
        }
        return true
    }
}

/// How much a rule matters to someone fixing background-task problems: the point Apple itself
/// calls the top cause, then rules whose breach crashes the app, then firm obligations.
enum Importance {
    static func score(_ rule: Rule) -> Int {
        var score = 0
        if mentionsTopCause(rule) { score += 8 }
        if !rule.crashCodes.isEmpty { score += 4 }
        switch rule.callout {
        case .important?: score += 3
        case .warning?: score += 2
        case .note?, nil: break
        }
        switch rule.kind {
        case .must, .mustNot: score += 3
        case .should, .shouldNot: score += 2
        case .misconception: score += 1
        case .fact: break
        }
        if rule.examples.contains(where: { $0.intent == .breaks }) { score += 2 }
        return score
    }

    /// The phrases that mark a rule as naming the top cause of something.
    static let topCausePhrases = ["number one cause", "most common cause", "most common source", "top cause", "number one source"]

    /// Whether the statement, details and why, joined by spaces, contain one of
    /// `topCausePhrases`, case aside (A-Z folded to a-z; the phrases are ASCII, so no other
    /// folding could make a match).
    static func mentionsTopCause(_ rule: Rule) -> Bool {
        let text = [rule.statement, rule.details, rule.why ?? ""].joined(separator: " ")
        // Folded in place in a copy of the bytes: a map over the UTF-8 view goes through its
        // iterator byte by byte.
        var lower = Array(text.utf8)
        for index in lower.indices where lower[index] &- UInt8(ascii: "A") < 26 { lower[index] |= 0x20 }
        return topCausePhrases.contains { Bytes.contains($0.utf8, in: lower) }
    }
}
