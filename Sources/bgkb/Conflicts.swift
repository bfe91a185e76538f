import ArgumentParser
import BGKBModel

extension BGKB {
    /// Every place where sources or versions disagree, with the evidence and our reading.
    struct Conflicts: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "conflicts", abstract: "List the conflicts between sources and versions, with our assessment.")

        @OptionGroup var options: ContentOptions

        func run() throws {
            let corpus = try options.loadValid().corpus
            if corpus.conflicts.isEmpty { print("No conflicts recorded."); return }
            for conflict in corpus.conflicts {
                print(RuleReport.lines(for: conflict).joined(separator: "\n"))
                if !conflict.rules.isEmpty { print("      rules: \(conflict.rules.joined(separator: ", "))") }
                print("")
            }
            print("\(corpus.conflicts.count) conflict(s); \(corpus.conflicts.filter { $0.assessment == nil }.count) without an assessment.")
        }
    }
}
