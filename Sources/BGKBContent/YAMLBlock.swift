import BGKBModel
import Yams

/// A piece of YAML inside a Content file (front matter, a ```rule block, sources.yml), with the
/// offset that turns Yams' positions into positions in the file.
struct YAMLBlock {
    let path: String
    /// The file line of the YAML's first line.
    let firstLine: Int
    /// Columns to add (for blocks indented inside a list item, say).
    let columnOffset: Int
    let text: String

    func location(_ mark: YAMLNode.Mark?) -> SourceLocation {
        guard let mark else { return SourceLocation(path: path, line: firstLine, column: 1 + columnOffset) }
        return SourceLocation(path: path, line: firstLine + mark.line - 1, column: mark.column + columnOffset)
    }

    /// Parses the YAML, reporting a syntax error where libyaml found it. Empty text gives nil.
    /// The shapes `YAMLSubset` knows are read without libyaml, to the same nodes.
    func compose(diagnostics: inout Diagnostics, what: String) -> YAMLNode? {
        if let node = YAMLSubset.parse(text) { return node }
        do {
            return try Yams.compose(yaml: text).map(YAMLNode.init)
        } catch let error as YamlError {
            switch error {
            case let .scanner(_, problem, mark, _), let .parser(_, problem, mark, _), let .composer(_, problem, mark, _):
                diagnostics.error("bad-front-matter", "\(what) is not valid YAML: \(problem)", at: location(YAMLNode.Mark(line: mark.line, column: mark.column)))
            default:
                diagnostics.error("bad-front-matter", "\(what) is not valid YAML: \(error)", at: location(nil))
            }
        } catch {
            diagnostics.error("bad-front-matter", "\(what) is not valid YAML: \(error)", at: location(nil))
        }
        return nil
    }
}

/// Reads typed fields out of a YAML mapping, reporting unknown keys and values of the wrong shape.
/// A class: a reader is asked for one field after another, and is shared rather than copied.
final class FieldReader {
    let block: YAMLBlock
    let what: String
    /// The mapping's pairs as YAML gave them. The readers ask only for allowed keys, so a pair
    /// with an unknown key (reported when the reader is made) is never read.
    private let pairs: [YAMLNode.Pair]

    /// Nil (with an error) when `node` is not a mapping.
    init?(_ node: YAMLNode, block: YAMLBlock, what: String, allowed: [String], diagnostics: inout Diagnostics) {
        self.block = block
        self.what = what
        guard let mapping = node.mapping else {
            diagnostics.error("bad-field-value", "\(what) must be a mapping of `field: value` lines", at: block.location(node.mark))
            return nil
        }
        pairs = mapping
        for index in mapping.indices {
            let key = mapping[index].key.string ?? ""
            if !allowed.contains(key) {
                let suggestion = FieldReader.closest(to: key, in: allowed).map { "; did you mean `\($0)`?" } ?? ""
                diagnostics.error("unknown-field", "unknown field `\(key)` in \(what)\(suggestion)", at: block.location(mapping[index].key.mark),
                                  notes: ["known fields: " + allowed.joined(separator: ", ")])
            }
        }
    }

    /// The value of the first pair with `key` (an allowed key).
    func node(_ key: String) -> YAMLNode? {
        for index in pairs.indices where pairs[index].key.string == key { return pairs[index].value }
        return nil
    }
    func has(_ key: String) -> Bool { node(key) != nil }
    func location(_ key: String) -> SourceLocation { block.location(node(key)?.mark) }

    func string(_ key: String, diagnostics: inout Diagnostics) -> String? {
        guard let value = node(key) else { return nil }
        guard let scalar = value.scalar else {
            diagnostics.error("bad-field-value", "`\(key)` in \(what) must be a single value", at: block.location(value.mark))
            return nil
        }
        return scalar.string
    }

    /// A list of strings; a single scalar counts as a list of one.
    func strings(_ key: String, diagnostics: inout Diagnostics) -> [(String, SourceLocation)] {
        guard let value = node(key) else { return [] }
        return FieldReader.strings(value, key: key, what: what, block: block, diagnostics: &diagnostics)
    }

    static func strings(_ value: YAMLNode, key: String, what: String, block: YAMLBlock, diagnostics: inout Diagnostics) -> [(String, SourceLocation)] {
        if let scalar = value.scalar { return scalar.string.isEmpty ? [] : [(scalar.string, block.location(value.mark))] }
        guard let sequence = value.sequence else {
            diagnostics.error("bad-field-value", "`\(key)` in \(what) must be a list", at: block.location(value.mark))
            return []
        }
        var result: [(String, SourceLocation)] = []
        for item in sequence {
            if let scalar = item.scalar {
                result.append((scalar.string, block.location(item.mark)))
            } else {
                diagnostics.error("bad-field-value", "each entry of `\(key)` in \(what) must be a single value", at: block.location(item.mark))
            }
        }
        return result
    }

    func bool(_ key: String, diagnostics: inout Diagnostics) -> Bool? {
        guard let text = string(key, diagnostics: &diagnostics) else { return nil }
        switch text.lowercased() {
        case "true", "yes": return true
        case "false", "no": return false
        default:
            diagnostics.error("bad-field-value", "`\(key)` must be true or false, not `\(text)`", at: location(key))
            return nil
        }
    }

    func enumValue<E: RawRepresentable & CaseIterable>(_ key: String, as type: E.Type, diagnostics: inout Diagnostics) -> E? where E.RawValue == String {
        guard let text = string(key, diagnostics: &diagnostics) else { return nil }
        if let value = E(rawValue: text) { return value }
        diagnostics.error("bad-field-value", "`\(key)` must be one of \(E.allCases.map(\.rawValue).joined(separator: ", ")), not `\(text)`",
                          at: location(key))
        return nil
    }

    /// The allowed key nearest to a typo, by edit distance, when it is close enough to be a likely slip.
    static func closest(to key: String, in allowed: [String]) -> String? {
        let scored = allowed.map { ($0, editDistance(Array(key.lowercased()), Array($0))) }.min { $0.1 < $1.1 }
        guard let (best, distance) = scored, distance <= max(1, key.count / 3) else { return nil }
        return best
    }

    static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        var previous = Array(0...b.count)
        for (i, ca) in a.enumerated() {
            var current = [i + 1] + Array(repeating: 0, count: b.count)
            for (j, cb) in b.enumerated() {
                current[j + 1] = min(previous[j + 1] + 1, current[j] + 1, previous[j] + (ca == cb ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }
}
