import BGKBModel
import Foundation

/// The question bank built from Content/ when this binary was built: the EmbedContent build
/// plugin runs the pipeline and the engine and writes the checked bank and the topics as JSON.
/// An installed `bgkb quiz` therefore works from any directory, and starts without parsing
/// Markdown or running a scenario. `--content DIR` bypasses it.
public enum EmbeddedContent {
    /// Errors the Content pipeline reported at build time (the bank holds what parsed).
    public static var contentErrorCount: Int { generatedContentErrorCount }
    public static var ruleCount: Int { generatedRuleCount }
    /// The fingerprint of the Content the bank was built from (`ContentLoadResult.fingerprint`).
    public static var contentFingerprint: UInt64 { generatedContentFingerprint }

    /// Nil only if the embedded JSON does not decode, which the tests rule out.
    public static func bank() -> QuestionBank? {
        let decoder = JSONDecoder()
        guard let questions = try? decoder.decode([Question].self, from: Data(generatedQuestionsJSON.utf8)),
              let diagnostics = try? decoder.decode(Diagnostics.self, from: Data(generatedDiagnosticsJSON.utf8))
        else { return nil }
        return QuestionBank(validated: questions, diagnostics: diagnostics)
    }

    public static func topics() -> [Topic] {
        (try? JSONDecoder().decode([Topic].self, from: Data(generatedTopicsJSON.utf8))) ?? []
    }
}
