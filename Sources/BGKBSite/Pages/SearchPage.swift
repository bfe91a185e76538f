import BGKBModel
import Foundation

/// The search page and its index. The index ships as a script (`assets/search-index.js`) because
/// browsers block `fetch()` of sibling files under `file://`; filters live in the URL query.
enum SearchPage {
    /// The query and its filters: topic, kind and source, each an option list.
    static func writeForm(_ context: SiteContext, into w: inout HTMLWriter) {
        w.markup("""
        <h1>Search</h1>
        <form id="search-form" class="search-form" action="search.html" method="get" role="search" aria-label="Search the knowledge base">
        <div class="field field-q"><label for="q">Search for</label>
        <input id="q" type="search" name="q" autocomplete="off" placeholder="expiration handler, BGProcessingTask, 0x8badf00d, Quinn"></div>

        """)
        let corpus = context.corpus
        writeFilter(id: "topic", label: "Topic", any: "Any topic", options: corpus.topics.map { ($0.id, $0.title) }, into: &w)
        writeFilter(id: "kind", label: "Kind", any: "Any kind", options: Rule.Kind.allCases.map { ($0.rawValue, KindLabel.text($0)) }, into: &w)
        writeFilter(id: "source", label: "Source", any: "Any source", options: corpus.sources.map { ($0.id, $0.title) }, into: &w)
        w.markup("<div class=\"field field-submit\"><button type=\"submit\">Search</button></div>\n</form>\n")
    }

    /// One filter: a labelled `<select>` whose first option matches anything.
    static func writeFilter(id: StaticString, label: StaticString, any: StaticString, options: [(value: String, title: String)],
                            into w: inout HTMLWriter) {
        w.markup("<div class=\"field\"><label for=\""); w.markup(id); w.markup("\">"); w.markup(label)
        w.markup("</label>\n<select id=\""); w.markup(id); w.markup("\" name=\""); w.markup(id); w.markup("\"><option value=\"\">")
        w.markup(any); w.markup("</option>\n")
        for option in options {
            w.markup("<option value=\""); w.text(option.value); w.markup("\">"); w.text(option.title); w.markup("</option>\n")
        }
        w.markup("</select></div>\n")
    }

    /// One rule as the search script sees it. Short keys keep the index small for large corpora.
    struct Entry: Encodable {
        var id: String
        var t: String   // title
        var s: String   // statement
        var x: String   // the rest of the text, plain
        var a: [String] // APIs
        var c: [String] // crash codes
        var tp: [String] // topic ids
        var k: String   // kind
        var kl: String  // kind label
        var o: Int      // rank: where the list shows it (the index itself is in Content order)
        var src: [String] // source ids
        var u: String   // page, relative to the root
        var r: Bool     // removed

        /// The entry as JSONEncoder writes it with sorted keys and unescaped slashes (a test
        /// holds the two equal), straight into bytes, so the index is written a batch at a time
        /// and never held whole.
        func write(into json: inout JSONBytes) {
            json.raw("{\"a\":"); json.strings(a)
            json.raw(",\"c\":"); json.strings(c)
            json.raw(",\"id\":"); json.string(id)
            json.raw(",\"k\":"); json.string(k)
            json.raw(",\"kl\":"); json.string(kl)
            json.raw(",\"o\":"); json.bytes.append(contentsOf: String(o).utf8)
            json.raw(r ? ",\"r\":true" : ",\"r\":false")
            json.raw(",\"s\":"); json.string(s)
            json.raw(",\"src\":"); json.strings(src)
            json.raw(",\"t\":"); json.string(t)
            json.raw(",\"tp\":"); json.strings(tp)
            json.raw(",\"u\":"); json.string(u)
            json.raw(",\"x\":"); json.string(x)
            json.raw("}")
        }
    }

    static func render(_ context: SiteContext, sink: SiteSink) -> StepOutput {
        let page = SitePaths.search
        var output = StepOutput()
        output.files[page] = Layout.page(path: page, title: "Search", description: "Search bgkb's rules, APIs, crash codes, sources, documents and topics.",
                                         scripts: [SitePaths.searchIndex, SitePaths.searchScript]) { w in
            writeForm(context, into: &w)
            w.markup("""
            <p id="search-status" class="search-status" role="status" aria-live="polite">Search needs JavaScript. Without it, browse the <a href="topics/index.html">topics</a>, <a href="rules/index.html">all rules</a>, the <a href="apis.html">API index</a> or the <a href="crash-codes.html">crash codes</a>.</p>
            <div id="results" class="results"></div>
            """)
        }
        // The streaming build's rule pages write the index (`SearchIndexFeed`). Otherwise it goes
        // to the sink a batch of rules at a time: it is the largest file of a large corpus.
        if context.ledger == nil {
            output.streamed(SitePaths.searchIndex, new: sink.stream(SitePaths.searchIndex) { write in indexScript(context, write: write) })
        }
        return output
    }

    static let indexOpening: StaticString = "// Generated by bgkb build: the search index, as a script so it loads from file://.\nwindow.BGKB_SEARCH = {\"rules\":["

    /// One rule's entry in the index, as JSON bytes. `text`: the plain text of its details, why
    /// and instead, in that order, joined by spaces (`CommonMarkConverter.plainText` of each).
    static func entry(_ rule: Rule, index: Int, path: String, text: String, context: SiteContext) -> [UInt8] {
        let entry = Entry(id: rule.id, t: context.headings[index], s: rule.statement, x: collapse(text), a: rule.apis,
                          c: rule.crashCodes.map { $0.lowercased() }, tp: rule.topics, k: rule.kind.rawValue,
                          kl: KindLabel.text(rule.kind), o: context.searchRank[index], src: Array(Set(rule.sources.map(\.source))).sorted(),
                          u: path, r: context.removedRuleIDs.contains(rule.id))
        var json = JSONBytes(capacity: 512 + entry.x.utf8.count)
        entry.write(into: &json)
        return json.bytes
    }

    /// The index script, handed to `write` in pieces: the opening, then each batch of rules
    /// (made on every core, in Content order), then the closing. The streaming build writes the
    /// same bytes from its rule pages (`SearchIndexFeed`).
    static func indexScript(_ context: SiteContext, write: ([UInt8]) -> Void) {
        let rules = context.corpus.rules
        var opening = JSONBytes()
        opening.raw(indexOpening)
        write(opening.bytes)
        var first = true
        var batchStart = 0
        while batchStart < rules.count {
            let batch = Array(batchStart..<min(rules.count, batchStart + 512))
            batchStart += batch.count
            // Rules are independent: their entries (each parsing the rule's Markdown for its
            // plain text) are made on every core, each into its own bytes.
            let entries: [[UInt8]] = ParallelMap.map(batch) { index -> [UInt8] in
                let rule = rules[index]
                guard let path = context.rulePath(rule.id) else { return [] }
                let text = [rule.details, rule.why ?? "", rule.instead ?? ""]
                    .filter { !$0.isEmpty }
                    .map { context.plainText($0) }
                    .joined(separator: " ")
                return entry(rule, index: index, path: path, text: text, context: context)
            }
            var piece = JSONBytes(capacity: entries.reduce(0) { $0 + $1.count + 1 })
            for entry in entries where !entry.isEmpty {
                if !first { piece.raw(",") }
                first = false
                piece.bytes.append(contentsOf: entry)
            }
            write(piece.bytes)
        }
        write(SearchItems.closing(context))
    }

    private static func collapse(_ text: String) -> String {
        TextScan.collapseWhitespace(text)
    }
}

/// JSON written straight into bytes, escaped as JSONEncoder escapes (quote, backslash and
/// control characters; slashes and non-ASCII left as they are).
struct JSONBytes {
    var bytes: [UInt8] = []

    init(capacity: Int = 0) {
        bytes.reserveCapacity(capacity)
    }

    mutating func raw(_ literal: StaticString) {
        Bytes.append(literal, to: &bytes)
    }

    mutating func string(_ value: String) {
        bytes.append(UInt8(ascii: "\""))
        Bytes.appendJSONEscaped(value, to: &bytes)
        bytes.append(UInt8(ascii: "\""))
    }

    mutating func strings(_ values: [String]) {
        bytes.append(UInt8(ascii: "["))
        for (index, value) in values.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            string(value)
        }
        bytes.append(UInt8(ascii: "]"))
    }
}

/// The streaming build's search index, written by the rule pages: each page hands in its rule's
/// entry (`SearchPage.entry`, its text from the parse that rendered the page's prose, so the
/// Markdown is parsed once), and entries go out in Content order
/// as soon as the ones before them are in. Pages render in that order on every core, so only
/// the few entries a core is ahead by wait here. The bytes are `SearchPage.indexScript`'s.
final class SearchIndexFeed: @unchecked Sendable {
    private let lock = NSLock()
    private let file: SiteSink.Appender
    private let count: Int
    private let closing: [UInt8]
    /// Entries handed in ahead of their turn, by rule index; an empty one is a rule with no page.
    private var waiting: [Int: [UInt8]] = [:]
    private var next = 0
    private var first = true
    private var pending: [UInt8] = []

    init(ruleCount: Int, sink: SiteSink, closing: [UInt8]) {
        count = ruleCount
        self.closing = closing
        file = sink.appender(SitePaths.searchIndex)
        pending.reserveCapacity(Self.flushSize + 8192)
        Bytes.append(SearchPage.indexOpening, to: &pending)
    }

    /// Writes go out in pieces of about this size (an entry is 2 KB).
    static let flushSize = 1 << 16

    /// Rule `index`'s entry (empty: the rule has no page). Every rule's must come in once.
    func deliver(_ index: Int, _ entry: [UInt8]) {
        lock.lock(); defer { lock.unlock() }
        if index == next {
            append(entry)
            next += 1
        } else {
            waiting[index] = entry
        }
        while let entry = waiting.removeValue(forKey: next) {
            append(entry)
            next += 1
        }
        if pending.count >= Self.flushSize {
            file.append(pending)
            pending.removeAll(keepingCapacity: true)
        }
    }

    private func append(_ entry: [UInt8]) {
        guard !entry.isEmpty else { return }
        if !first { pending.append(UInt8(ascii: ",")) }
        first = false
        pending.append(contentsOf: entry)
    }

    /// Closes the index once every rule's entry is in; false when an earlier step wrote its path.
    func finish() -> Bool {
        lock.lock(); defer { lock.unlock() }
        precondition(next == count && waiting.isEmpty, "the search index is missing rules \(next)..<\(count)")
        pending.append(contentsOf: closing)
        file.append(pending)
        pending = []
        return file.finish()
    }
}
