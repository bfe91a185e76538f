import ArgumentParser
import BGKBModel

extension BGKB {
    /// Everything known about one rule.
    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "show", abstract: "Show a rule: statement, details, sources, revision history, conflicts.")

        @OptionGroup var options: ContentOptions

        @Argument(help: "The rule's id (see `bgkb list`).")
        var id: String

        func run() throws {
            let corpus = try options.loadValid().corpus
            guard let rule = corpus.rule(id) else {
                let near = corpus.rules.map(\.id).filter { $0.contains(id) || id.contains($0) }.prefix(5)
                throw ValidationError("no rule `\(id)`" + (near.isEmpty ? "" : "; did you mean: " + near.joined(separator: ", ")))
            }
            print(RuleReport(rule: rule, corpus: corpus).text)
        }
    }
}
