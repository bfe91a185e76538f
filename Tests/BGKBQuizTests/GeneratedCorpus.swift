import ScenarioSamples
@testable import BGKBQuestions
import BGKBModel

/// Corpora made from a seed, for checks that must hold on any Content, not only today's: rules
/// of every kind with numbers, crash codes and APIs written into their statements, the engine's
/// reference scenarios as their examples, disputes, and dated revisions shared between rules.
enum GeneratedCorpus {
    static let seeds: [UInt64] = [1, 7, 2026]

    static let topics = ["time-budgets", "beginning-and-ending", "expiry-handlers", "background-tasks-framework", "background-push"]
    static let apis = ["UIApplication.beginBackgroundTask(withName:expirationHandler:)", "UIApplication.endBackgroundTask(_:)",
                       "UIApplication.backgroundTimeRemaining", "BGTaskScheduler.submit(_:)", "BGTask.setTaskCompleted(success:)",
                       "BGTaskScheduler.register(forTaskWithIdentifier:using:launchHandler:)", "BGProcessingTaskRequest",
                       "BGAppRefreshTaskRequest", "UIBackgroundModes", "content-available", "BGTask.expirationHandler"]
    static let numbers: [(Double, StatedNumber.Unit, StatedNumber.Firmness, String, String)] = [
        (30, .seconds, .about, "background task budget", "about 30 seconds"),
        (10, .count, .atMost, "pending processing requests", "at most 10 requests"),
        (1000, .count, .about, "outstanding assertions", "about 1000 assertions"),
        (3, .perHour, .atMost, "background pushes worth sending", "at most 3 per hour"),
        (5, .seconds, .about, "time applicationDidEnterBackground has to return", "about 5 seconds"),
        (2, .days, .about, "time within which a processing request is attempted", "about 2 days"),
    ]
    static let codes = ["0x8badf00d", "0xbada5e47", "0xdead10cc"]
    static let subjects = ["the app", "your code", "an expiry handler", "a background task", "the launch handler", "each task"]
    static let verbs = ["must end", "should record", "must not overwrite", "should cancel", "must finish", "should save"]

    static func make(seed: UInt64) -> Corpus {
        var random = SeededGenerator(seed: seed)
        func pick<T>(_ items: [T]) -> T { items[Int(random.next() % UInt64(items.count))] }
        let dates = [Day(year: 2021, month: 2, day: 27), Day(year: 2022, month: 6, day: 8), Day(year: 2023, month: 6, day: 16),
                     Day(year: 2024, month: 3, day: 1)]
        let entries = dates.enumerated().map { index, day in
            RevisionEntry(date: day, writtenDate: day.description, text: "Revision \(index): \(pick(verbs)) \(pick(subjects)).",
                          document: "gen", version: day.description, location: at(9000 + index))
        }
        var rules: [Rule] = []
        for round in 0..<3 {
            for (index, sample) in ScenarioSamples.all.enumerated() {
                let id = "gen-\(seed)-\(round)-\(index)"
                var example = sample.example
                example.rule = id
                example.location = at(100 * (round * 100 + index) + 1)
                var statement = "\(pick(subjects).capitalizedFirst) \(pick(verbs)) \(pick(["its work", "the identifier", "the request"]))"
                var ruleNumbers: [StatedNumber] = []
                var ruleAPIs: [String] = []
                var ruleCodes: [String] = []
                switch random.next() % 4 {
                case 0:
                    let number = pick(numbers)
                    statement += ", within \(number.4)"
                    ruleNumbers.append(StatedNumber(value: number.0, unit: number.1, firmness: number.2, measures: number.3))
                case 1:
                    let api = pick(apis)
                    statement += " with \(apiShortName(api))"
                    ruleAPIs.append(api)
                case 2:
                    let code = pick(codes)
                    statement += ", or the app is terminated with \(code)"
                    ruleCodes.append(code)
                default:
                    ruleAPIs.append(pick(apis))
                }
                statement += " (point \(round).\(index))."
                let kind: Rule.Kind = pick([.must, .should, .fact, .mustNot])
                var history: [RuleRevision] = []
                if random.next() % 3 == 0 {
                    let entry = pick(Array(entries.dropFirst()))
                    history = [RuleRevision(change: .reworded, version: entry.version, previousVersion: "2021-02-27", entry: entry,
                                            previousWording: "Older words.", wording: statement)]
                }
                var dispute: Dispute?
                if random.next() % 6 == 0 {
                    dispute = Dispute(claim: "\(pick(subjects).capitalizedFirst) never needs to \(pick(["end", "save", "cancel"])) anything (claim \(round).\(index)).",
                                      claimedBy: Citation(source: "blog"), verdict: .wrong, counterSources: [Citation(source: "apple")])
                }
                rules.append(Rule(id: id, title: "Point \(round).\(index)", statement: statement, kind: dispute == nil ? kind : .misconception,
                                  topics: [topics[(round + index) % topics.count]], apis: ruleAPIs, numbers: ruleNumbers,
                                  crashCodes: ruleCodes, sources: [Citation(source: "apple")],
                                  why: "Because \(pick(subjects)) \(pick(verbs)) it.", examples: [example], dispute: dispute,
                                  history: history, document: "gen", location: at(100 * (round * 100 + index))))
            }
        }
        return Corpus(
            sources: [Source(id: "apple", title: "Apple documentation", reliability: .primary, location: at(1)),
                      Source(id: "blog", title: "A blog post", reliability: .thirdParty, location: at(2))],
            topics: topics.map { Topic(id: $0, title: $0, summary: "About \($0).") },
            documents: [Document(id: "gen", title: "Generated guidance", source: "apple", versions: [
                DocumentVersion(label: "2024-03-01", path: "Content/gen.md", rules: [], revisions: entries, signOff: nil),
            ])],
            rules: rules)
    }

    static func at(_ line: Int) -> SourceLocation { SourceLocation(path: "Content/gen.md", line: line, column: 1) }
}

extension String {
    var capitalizedFirst: String { prefix(1).uppercased() + dropFirst() }
}
