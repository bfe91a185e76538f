import BGKBModel
import Foundation

/// The search page and its index. The index ships as a script (`assets/search-index.js`) because
/// browsers block `fetch()` of sibling files under `file://`; filters live in the URL query.
enum SearchPage {
    static let template = """
    <h1>Search</h1>
    <form id="search-form" class="search-form" action="search.html" method="get" role="search" aria-label="Rules">
    <div class="field field-q"><label for="q">Search for</label>
    <input id="q" type="search" name="q" autocomplete="off" placeholder="endBackgroundTask, 0x8badf00d, expiry handler"></div>
    <div class="field"><label for="topic">Topic</label>
    <select id="topic" name="topic"><option value="">Any topic</option>
    {{#topics}}<option value="{{id}}">{{title}}</option>
    {{/topics}}</select></div>
    <div class="field"><label for="kind">Kind</label>
    <select id="kind" name="kind"><option value="">Any kind</option>
    {{#kinds}}<option value="{{id}}">{{title}}</option>
    {{/kinds}}</select></div>
    <div class="field"><label for="source">Source</label>
    <select id="source" name="source"><option value="">Any source</option>
    {{#sources}}<option value="{{id}}">{{title}}</option>
    {{/sources}}</select></div>
    <div class="field field-submit"><button type="submit">Search</button></div>
    </form>
    <p id="search-status" class="search-status" role="status" aria-live="polite">Search needs JavaScript. Without it, browse the <a href="topics/index.html">topics</a>, <a href="rules/index.html">all rules</a>, the <a href="apis.html">API index</a> or the <a href="crash-codes.html">crash codes</a>.</p>
    <ol id="results" class="results"></ol>
    """

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
        var src: [String] // source ids
        var u: String   // page, relative to the root
        var r: Bool     // removed

        /// The entry as JSONEncoder writes it with sorted keys and unescaped slashes (a test
        /// holds the two equal), straight into bytes: encoding 10,000 entries with JSONEncoder
        /// held four copies of a 20 MB index at once and took a third of a second.
        func write(into json: inout JSONBytes) {
            json.raw("{\"a\":"); json.strings(a)
            json.raw(",\"c\":"); json.strings(c)
            json.raw(",\"id\":"); json.string(id)
            json.raw(",\"k\":"); json.string(k)
            json.raw(",\"kl\":"); json.string(kl)
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

    struct Index: Encodable {
        var rules: [Entry]
    }

    static func render(_ context: SiteContext, sink: SiteSink) -> StepOutput {
        let page = SitePaths.search
        let corpus = context.corpus
        let body = context.templates.render("search", [
            "topics": corpus.topics.map { ["id": $0.id, "title": $0.title] },
            "kinds": Rule.Kind.allCases.map { ["id": $0.rawValue, "title": KindLabel.text($0)] },
            "sources": corpus.sources.map { ["id": $0.id, "title": $0.title] },
        ])
        var output = StepOutput()
        output.files[page] = Layout.page(context, path: page, title: "Search",
                                         description: "Search bgkb's rules by words, API names and crash codes.",
                                         body: body, scripts: [SitePaths.searchIndex, SitePaths.searchScript])
        // The index goes to the sink as bytes: at 10,000 rules it is 20 MB.
        if !sink.emit(SitePaths.searchIndex, chunks: indexScript(context)) {
            output.diagnostics.error("site-duplicate-path", "two build steps wrote \(SitePaths.searchIndex)", at: nil)
        }
        output.streamedCount = 1
        return output
    }

    static func indexScript(_ context: SiteContext) -> [[UInt8]] {
        let ranked = context.rankedRules + context.corpus.rules.filter { context.removedRuleIDs.contains($0.id) }
        // Parsing each rule's Markdown for its plain text is the cost here, and rules are
        // independent: on every core, each entry written to its own bytes, joined in ranked order.
        let entries: [[UInt8]] = ParallelMap.map(ranked) { rule -> [UInt8] in
            guard let path = context.rulePath(rule.id) else { return [] }
            let text = [rule.details, rule.why ?? "", rule.instead ?? ""]
                .filter { !$0.isEmpty }
                .map { context.plainText($0) }
                .joined(separator: " ")
            let entry = Entry(id: rule.id, t: SiteContext.heading(rule), s: rule.statement, x: collapse(text), a: rule.apis,
                              c: rule.crashCodes.map { $0.lowercased() }, tp: rule.topics, k: rule.kind.rawValue,
                              kl: KindLabel.text(rule.kind), src: Array(Set(rule.sources.map(\.source))).sorted(), u: path,
                              r: context.removedRuleIDs.contains(rule.id))
            var json = JSONBytes(capacity: 512 + entry.x.utf8.count)
            entry.write(into: &json)
            return json.bytes
        }
        // The pieces of the file in order: the opening, the entries with commas between them, the
        // closing. Written one after another, never joined.
        var chunks: [[UInt8]] = []
        chunks.reserveCapacity(2 * entries.count + 2)
        var opening = JSONBytes()
        opening.raw("// Generated by bgkb build: the search index, as a script so it loads from file://.\nwindow.BGKB_SEARCH = {\"rules\":[")
        chunks.append(opening.bytes)
        let comma: [UInt8] = [UInt8(ascii: ",")]
        for entry in entries where !entry.isEmpty {
            if chunks.count > 1 { chunks.append(comma) }
            chunks.append(entry)
        }
        var closing = JSONBytes()
        closing.raw("]};\n")
        chunks.append(closing.bytes)
        return chunks
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
        literal.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    mutating func string(_ value: String) {
        bytes.append(UInt8(ascii: "\""))
        var value = value
        value.withUTF8 { buffer in
            // Runs that need no escaping are copied whole.
            var runStart = 0
            for (index, byte) in buffer.enumerated() where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                if runStart < index { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[runStart..<index])) }
                runStart = index + 1
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"): bytes.append(UInt8(ascii: "\\")); bytes.append(byte)
                case 0x08: bytes.append(UInt8(ascii: "\\")); bytes.append(UInt8(ascii: "b"))
                case 0x0C: bytes.append(UInt8(ascii: "\\")); bytes.append(UInt8(ascii: "f"))
                case 0x0A: bytes.append(UInt8(ascii: "\\")); bytes.append(UInt8(ascii: "n"))
                case 0x0D: bytes.append(UInt8(ascii: "\\")); bytes.append(UInt8(ascii: "r"))
                case 0x09: bytes.append(UInt8(ascii: "\\")); bytes.append(UInt8(ascii: "t"))
                default:
                    let hex = Array("0123456789abcdef".utf8)
                    bytes.append(contentsOf: Array("\\u00".utf8))
                    bytes.append(hex[Int(byte >> 4)])
                    bytes.append(hex[Int(byte & 0xF)])
                }
            }
            if runStart < buffer.count { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[runStart...])) }
        }
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
