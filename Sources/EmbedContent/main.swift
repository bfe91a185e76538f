import BGKBContent
import BGKBEngine
import BGKBModel
import Foundation

// Build tool: runs the Content pipeline on Content/ and writes the resulting corpus, as JSON in
// a Swift string literal, for BGKBQuiz's `EmbeddedContent`. Parsing Markdown at build time
// rather than at every start keeps `bgkb quiz` quick to its first question.
// Usage: EmbedContent CONTENT_DIR OUTPUT.swift

let arguments = CommandLine.arguments
guard arguments.count == 3 else {
    FileHandle.standardError.write(Data("usage: EmbedContent CONTENT_DIR OUTPUT.swift\n".utf8))
    exit(2)
}
let content = URL(fileURLWithPath: arguments[1]).standardizedFileURL
let output = arguments[2]

// Load as `Content` from its parent, so locations read `Content/documents/...` as from a checkout.
guard FileManager.default.changeCurrentDirectoryPath(content.deletingLastPathComponent().path) else {
    FileHandle.standardError.write(Data("\(content.path): error: cannot change to its parent directory\n".utf8))
    exit(1)
}
let result: ContentLoadResult
do {
    result = try ContentLoader.load(directory: content.lastPathComponent)
} catch {
    FileHandle.standardError.write(Data("\(error)\n".utf8))
    exit(1)
}

// Every example's outcome under each condition a quiz question may ask about, so the quiz does
// not run the engine at start-up. Keys and schedules mirror BGKBQuiz's RunConditions and
// QuizOutcomes (this tool cannot import BGKBQuiz, which embeds its output); a BGKBQuiz test
// checks every entry against the live engine, so a divergence fails there.
let conditions: [(key: String, budget: Double?, refused: Bool)] = [
    ("budget=- refused=0", nil, false), ("budget=0.0 refused=0", 0, false), ("budget=1.0 refused=0", 1, false),
    ("budget=5.0 refused=0", 5, false), ("budget=- refused=1", nil, true),
]
var outcomes: [String: SimulationOutcome] = [:]
for example in result.corpus.examples {
    guard let scenario = ScenarioParser.parse(example.text, at: example.location).0 else { continue }
    for condition in conditions {
        let explorer = Explorer(scenario: scenario)
        var schedule = explorer.nominalSchedule
        if let budget = condition.budget { schedule.budget = budget }
        if condition.refused { schedule.refusal = .returnsInvalid }
        outcomes[example.identifier + "|" + condition.key] = explorer.trace(schedule).outcome
    }
}

// The quiz reads rules from `corpus.rules`; each document version's own copy of its rules would
// double what every start decodes, so only the versions' labels and revision entries are kept.
var corpus = result.corpus
for document in corpus.documents.indices {
    for version in corpus.documents[document].versions.indices {
        corpus.documents[document].versions[version].rules = []
    }
}

let encoder = JSONEncoder()
encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
let json: String
let outcomesJSON: String
do {
    json = String(decoding: try encoder.encode(corpus), as: UTF8.self)
    outcomesJSON = String(decoding: try encoder.encode(outcomes), as: UTF8.self)
} catch {
    FileHandle.standardError.write(Data("error: cannot encode the corpus: \(error)\n".utf8))
    exit(1)
}

/// A Swift string literal: quick for the compiler even when long.
func literal(_ text: String) -> String {
    var escaped = "\""
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\\": escaped += "\\\\"
        case "\"": escaped += "\\\""
        case "\n": escaped += "\\n"
        case "\t": escaped += "\\t"
        case "\r": escaped += "\\r"
        default:
            if scalar.value < 0x20 || scalar.value == 0x7f {
                escaped += "\\u{" + String(scalar.value, radix: 16) + "}"
            } else {
                escaped.unicodeScalars.append(scalar)
            }
        }
    }
    return escaped + "\""
}

let source = """
// Generated at build time by the EmbedContent plugin from Content/. Do not edit.

extension EmbeddedContent {
    static let generatedErrorCount = \(result.diagnostics.errors.count)
    static let generatedCorpusJSON = \(literal(json))
    static let generatedOutcomesJSON = \(literal(outcomesJSON))
}

"""
do {
    try source.write(toFile: output, atomically: true, encoding: .utf8)
} catch {
    FileHandle.standardError.write(Data("\(output): error: \(error)\n".utf8))
    exit(1)
}
