import BGKBModel
import Yams

/// The fields of a ```rule block, read with positions so every problem points into the block.
struct RuleAnnotation {
    static let fields = ["id", "title", "kind", "topics", "apis", "numbers", "crash-codes", "sources", "related",
                         "not-simulated", "dispute"]

    var id: String?
    var title: String?
    var kind: Rule.Kind?
    var topics: [String]?
    var apis: [String] = []
    var numbers: [StatedNumber]?
    var crashCodes: [String] = []
    var sources: [Citation]?
    var related: [String] = []
    var notSimulated: String?
    var dispute: Dispute?
    var idLocation: SourceLocation?
    var references: [Reference] = []

    init(block: YAMLBlock, diagnostics: inout Diagnostics) {
        guard let node = block.compose(diagnostics: &diagnostics, what: "rule block") else { return }
        guard let reader = FieldReader(node, block: block, what: "rule block", allowed: RuleAnnotation.fields, diagnostics: &diagnostics) else { return }
        // Room for a block's topics, related rules and citations up front.
        references.reserveCapacity(8)
        id = reader.string("id", diagnostics: &diagnostics)
        if let id { idLocation = reader.location("id"); Self.checkID(id, at: reader.location("id"), diagnostics: &diagnostics) }
        title = reader.string("title", diagnostics: &diagnostics)
        kind = reader.enumValue("kind", as: Rule.Kind.self, diagnostics: &diagnostics)
        if reader.has("topics") {
            let values = reader.strings("topics", diagnostics: &diagnostics)
            topics = values.map(\.0)
            references += values.map { Reference(target: .topic, id: $0.0, location: $0.1, role: "topic") }
        }
        apis = reader.strings("apis", diagnostics: &diagnostics).map(\.0)
        crashCodes = reader.strings("crash-codes", diagnostics: &diagnostics).map { $0.0.lowercased() }
        let relatedValues = reader.strings("related", diagnostics: &diagnostics)
        related = relatedValues.map(\.0)
        references += relatedValues.map { Reference(target: .rule, id: $0.0, location: $0.1, role: "related rule") }
        notSimulated = reader.string("not-simulated", diagnostics: &diagnostics)
        if let value = reader.node("numbers") { numbers = Self.numbers(value, block: block, diagnostics: &diagnostics) }
        if let value = reader.node("sources") {
            sources = Self.citations(value, key: "sources", block: block, references: &references, diagnostics: &diagnostics)
        }
        if let value = reader.node("dispute") { dispute = Self.dispute(value, block: block, references: &references, diagnostics: &diagnostics) }
    }

    static func checkID(_ id: String, at location: SourceLocation, diagnostics: inout Diagnostics) {
        // By bytes: a character outside ASCII has a byte of 0x80 or more, so this is the same
        // test as ASCII lowercase letters, digits and `-` character by character.
        let valid = !id.isEmpty && id.utf8.allSatisfy { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                || byte == UInt8(ascii: "-")
        }
        if !valid {
            diagnostics.error("bad-field-value", "id `\(id)` must be kebab-case: lowercase letters, digits and `-`", at: location)
        }
    }

    static func numbers(_ node: YAMLNode, block: YAMLBlock, diagnostics: inout Diagnostics) -> [StatedNumber] {
        guard let sequence = node.sequence else {
            diagnostics.error("bad-field-value", "`numbers` must be a list of `{value, unit, firmness, measures}` entries", at: block.location(node.mark))
            return []
        }
        return sequence.compactMap { item in
            guard let reader = FieldReader(item, block: block, what: "a number", allowed: ["value", "unit", "firmness", "guaranteed", "measures", "note"],
                                           diagnostics: &diagnostics) else { return nil }
            guard let valueText = reader.string("value", diagnostics: &diagnostics), let value = Double(valueText) else {
                diagnostics.error("bad-field-value", "a number needs a numeric `value`", at: block.location(item.mark))
                return nil
            }
            guard let unit = reader.enumValue("unit", as: StatedNumber.Unit.self, diagnostics: &diagnostics) else {
                if !reader.has("unit") { diagnostics.error("bad-field-value", "a number needs a `unit`", at: block.location(item.mark)) }
                return nil
            }
            let firmness = reader.enumValue("firmness", as: StatedNumber.Firmness.self, diagnostics: &diagnostics) ?? .exact
            let measures = reader.string("measures", diagnostics: &diagnostics) ?? ""
            // The quiz asks "What does the guidance give as the <measures>?" and the page heads
            // the row with it: a question there reads as nonsense in both.
            if isQuestionWord(firstWordOf: measures) {
                diagnostics.warning("number-measures-question",
                                    "`measures` should name what the number is (\"background task budget\"), not ask a question: \"\(measures)\"",
                                    at: reader.location("measures"))
            }
            return StatedNumber(value: value, unit: unit, firmness: firmness,
                                guaranteed: reader.bool("guaranteed", diagnostics: &diagnostics) ?? false,
                                measures: measures,
                                note: reader.string("note", diagnostics: &diagnostics))
        }
    }

    static let questionWords: Set<String> = ["what", "how", "why", "when", "which", "who", "whether"]

    /// Whether `measures` opens with a question word (its first word up to whitespace, lower-cased).
    /// The word is cut by Unicode scalars: a question word is letters, which neither join a space
    /// into their Character nor hold one, so where Characters cut it is the same.
    static func isQuestionWord(firstWordOf measures: String) -> Bool {
        // White space among ASCII scalars is the tab to the carriage return, and the space.
        func isWhitespace(_ scalar: Unicode.Scalar) -> Bool {
            scalar.isASCII ? scalar == " " || ("\t"..."\r").contains(scalar) : scalar.properties.isWhitespace
        }
        return questionWords.contains(String(Substring(measures.unicodeScalars.prefix { !isWhitespace($0) })).lowercased())
    }

    static func citations(_ node: YAMLNode, key: String, block: YAMLBlock, references: inout [Reference], diagnostics: inout Diagnostics) -> [Citation] {
        let items: [YAMLNode]
        if let sequence = node.sequence { items = Array(sequence) } else { items = [node] }
        return items.compactMap { citation($0, key: key, block: block, references: &references, diagnostics: &diagnostics) }
    }

    static func citation(_ item: YAMLNode, key: String, block: YAMLBlock, references: inout [Reference], diagnostics: inout Diagnostics) -> Citation? {
        if let scalar = item.scalar {
            references.append(Reference(target: .source, id: scalar.string, location: block.location(item.mark), role: "citation"))
            return Citation(source: scalar.string)
        }
        guard let reader = FieldReader(item, block: block, what: "a citation in `\(key)`", allowed: ["source", "version", "locator", "unverified"],
                                       diagnostics: &diagnostics) else { return nil }
        guard let source = reader.string("source", diagnostics: &diagnostics) else {
            diagnostics.error("bad-field-value", "a citation needs a `source`", at: block.location(item.mark))
            return nil
        }
        references.append(Reference(target: .source, id: source, location: reader.location("source"), role: "citation"))
        return Citation(source: source, version: reader.string("version", diagnostics: &diagnostics),
                        locator: reader.string("locator", diagnostics: &diagnostics),
                        unverified: reader.bool("unverified", diagnostics: &diagnostics) ?? false)
    }

    static func dispute(_ node: YAMLNode, block: YAMLBlock, references: inout [Reference], diagnostics: inout Diagnostics) -> Dispute? {
        guard let reader = FieldReader(node, block: block, what: "`dispute`",
                                       allowed: ["claim", "claimed-by", "verdict", "counter-sources", "corrected-by"], diagnostics: &diagnostics) else { return nil }
        guard let claim = reader.string("claim", diagnostics: &diagnostics),
              let claimedByNode = reader.node("claimed-by"),
              let claimedBy = citation(claimedByNode, key: "claimed-by", block: block, references: &references, diagnostics: &diagnostics) else {
            diagnostics.error("bad-field-value", "`dispute` needs `claim` and `claimed-by`", at: block.location(node.mark))
            return nil
        }
        let counter = reader.node("counter-sources").map {
            citations($0, key: "counter-sources", block: block, references: &references, diagnostics: &diagnostics)
        } ?? []
        if counter.isEmpty {
            diagnostics.error("bad-field-value", "a disputed claim needs at least one of `counter-sources`", at: block.location(node.mark))
        }
        let corrected = reader.strings("corrected-by", diagnostics: &diagnostics)
        references += corrected.map { Reference(target: .rule, id: $0.0, location: $0.1, role: "corrected-by rule") }
        return Dispute(claim: claim, claimedBy: claimedBy,
                       verdict: reader.enumValue("verdict", as: Dispute.Verdict.self, diagnostics: &diagnostics) ?? .wrong,
                       counterSources: counter, correctedBy: corrected.map(\.0))
    }
}
