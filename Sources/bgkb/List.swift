import ArgumentParser
import BGKBModel
import Foundation

extension BGKB {
    /// One rule a line, or JSON for machines.
    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List the rules: id, kind, topics.")

        @OptionGroup var options: ContentOptions

        @Flag(name: .long, help: "Print the rules as JSON.")
        var json = false

        @Option(name: .long, help: "Only rules in this topic.")
        var topic: String?

        @Option(name: .long, help: "Only rules of this kind (must, must-not, should, should-not, fact, misconception).")
        var kind: String?

        func run() throws {
            let corpus = try options.loadValid().corpus
            let rules = corpus.rules.filter { rule in
                (topic.map { rule.topics.contains($0) } ?? true) && (kind.map { rule.kind.rawValue == $0 } ?? true)
            }
            if json {
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
                let data = try encoder.encode(rules)
                FileHandle.standardOutput.write(data + Data("\n".utf8))
                return
            }
            let width = rules.map(\.id.count).max() ?? 0
            for rule in rules {
                let id = rule.id.padding(toLength: width, withPad: " ", startingAt: 0)
                let kindText = rule.kind.rawValue.padding(toLength: 13, withPad: " ", startingAt: 0)
                print("\(id)  \(kindText)  \(rule.topics.joined(separator: ","))")
            }
        }
    }
}
