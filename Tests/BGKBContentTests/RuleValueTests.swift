import BGKBContent
import BGKBModel
import Foundation
import Testing

/// `Rule` keeps its fields in one shared, immutable box. It must behave as a plain struct of its
/// fields: a changed copy (`with`) never shows through to the rule it came from, equality and
/// hashing go by the fields, and it encodes as the fields do.
@Suite struct RuleValueTests {
    static let rules: [Rule] = {
        (try? ContentLoader.load(directory: repositoryRoot + "/Content"))?.corpus.rules ?? []
    }()

    /// Every field, and one way of changing it (false when this rule gives that change nothing to do).
    enum Field: String, CaseIterable {
        case id, title, statement, details, kind, callout, topics, apis, numbers, crashCodes, sources, why, instead,
             examples, dispute, notSimulated, related, history, wording, document, version, location

        func change(_ rule: inout Rule.Fields) -> Bool {
            func drop<T>(_ list: inout [T]) -> Bool {
                guard !list.isEmpty else { return false }
                list.removeLast()
                return true
            }
            switch self {
            case .id: rule.id += "-x"
            case .title: rule.title += "x"
            case .statement: rule.statement += "x"
            case .details: rule.details += "x"
            case .kind: rule.kind = rule.kind == .must ? .should : .must
            case .callout: rule.callout = rule.callout == .note ? .warning : .note
            case .topics: return drop(&rule.topics)
            case .apis: return drop(&rule.apis)
            case .numbers: return drop(&rule.numbers)
            case .crashCodes: return drop(&rule.crashCodes)
            case .sources: return drop(&rule.sources)
            case .why: rule.why = (rule.why ?? "") + "x"
            case .instead: rule.instead = (rule.instead ?? "") + "x"
            case .examples: return drop(&rule.examples)
            case .dispute:
                guard rule.dispute != nil else { return false }
                rule.dispute = nil
            case .notSimulated: rule.notSimulated = (rule.notSimulated ?? "") + "x"
            case .related: return drop(&rule.related)
            case .history: return drop(&rule.history)
            case .wording: rule.wording += "x"
            case .document: rule.document += "x"
            case .version: rule.version = (rule.version ?? "") + "x"
            case .location: rule.location.line += 1
            }
            return true
        }
    }

    static func encoded(_ rule: Rule) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return try encoder.encode(rule)
    }

    @Test(arguments: Field.allCases)
    func aChangedCopyLeavesTheOriginalAlone(_ field: Field) throws {
        var changedAny = false
        for original in Self.rules {
            let before = try Self.encoded(original)
            var changed = false
            let copy = original.with { changed = field.change(&$0) }
            guard changed else { continue }
            changedAny = true
            #expect(try Self.encoded(original) == before, "changing \(field) in a copy of \(original.id) changed it")
            #expect(try Self.encoded(copy) != before)
            #expect(copy != original)
        }
        #expect(changedAny, "no rule in Content has a \(field) to change")
    }

    /// Two rules with the same fields in separate boxes are equal and hash alike; a rule decoded
    /// from its own JSON is the rule.
    @Test func equalityAndHashingGoByTheFields() throws {
        #expect(!Self.rules.isEmpty)
        for rule in Self.rules {
            let twin = try JSONDecoder().decode(Rule.self, from: Self.encoded(rule))
            #expect(twin == rule)
            #expect(twin.hashValue == rule.hashValue)
            #expect(try Self.encoded(twin) == Self.encoded(rule))
        }
    }

    /// A printed rule (in a failing test's message) shows its fields, not the box holding them.
    @Test func printsItsFields() throws {
        let rule = try #require(Self.rules.first)
        #expect(String(describing: rule).hasPrefix("Rule(id: \"\(rule.id)\", title: "))
    }

    /// The JSON keys are the fields' names, as when they were the struct's own stored properties
    /// (an absent optional leaves its key out).
    @Test func encodesItsFieldsByName() throws {
        let names = Set(Field.allCases.map(\.rawValue))
        let optional: Set<String> = ["callout", "why", "instead", "dispute", "notSimulated", "version"]
        for rule in Self.rules.prefix(20) {
            let object = try #require(try JSONSerialization.jsonObject(with: Self.encoded(rule)) as? [String: Any])
            let keys = Set(object.keys)
            #expect(keys.isSubset(of: names))
            #expect(names.subtracting(optional).isSubset(of: keys))
        }
    }
}
