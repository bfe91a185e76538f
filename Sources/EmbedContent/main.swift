import BGKBContent
import BGKBModel
import BGKBQuestions
import Foundation

// Build tool: runs the Content pipeline on Content/, builds the quiz's question bank from it
// (running the engine for every outcome question) and writes the bank, its checks and the topics
// as JSON in Swift string literals, for BGKBQuiz's `EmbeddedContent`. Doing this at build time
// rather than at every start keeps `bgkb quiz` quick to its first question, and an installed
// binary carries its knowledge. Usage: EmbedContent CONTENT_DIR OUTPUT.swift

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

let bank = QuestionBank(corpus: result.corpus, outcomes: QuizOutcomes.engine)

let encoder = JSONEncoder()
encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
let questionsJSON: String
let diagnosticsJSON: String
let topicsJSON: String
do {
    questionsJSON = String(decoding: try encoder.encode(bank.questions), as: UTF8.self)
    diagnosticsJSON = String(decoding: try encoder.encode(bank.diagnostics), as: UTF8.self)
    topicsJSON = String(decoding: try encoder.encode(result.corpus.topics), as: UTF8.self)
} catch {
    FileHandle.standardError.write(Data("error: cannot encode the question bank: \(error)\n".utf8))
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
    static let generatedContentErrorCount = \(result.diagnostics.errors.count)
    static let generatedRuleCount = \(result.corpus.rules.count)
    static let generatedContentFingerprint: UInt64 = \(result.fingerprint)
    static let generatedQuestionsJSON = \(literal(questionsJSON))
    static let generatedDiagnosticsJSON = \(literal(diagnosticsJSON))
    static let generatedTopicsJSON = \(literal(topicsJSON))
}

"""
do {
    try source.write(toFile: output, atomically: true, encoding: .utf8)
} catch {
    FileHandle.standardError.write(Data("\(output): error: \(error)\n".utf8))
    exit(1)
}
