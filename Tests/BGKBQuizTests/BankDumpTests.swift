import BGKBModel
import BGKBQuestions
import BGKBQuiz
import Foundation
import Testing

/// The whole bank as a learner sees it, written to the temporary directory for people to read
/// (`bgkb-bank-dump.txt`): every prompt, listing, choice and answer, one question after another.
@Suite struct BankDumpTests {
    @Test func theDumpShowsEveryQuestionWithItsAnswer() throws {
        let bank = RealContentTests.bank
        let text = BankAudit.dump(bank.questions)
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("bgkb-bank-dump.txt")
        try text.write(to: url, atomically: true, encoding: .utf8)
        let findings = BankAudit.findings(bank.questions, exampleNames: RealContentTests.corpus.examples.compactMap(\.name))
        let patterns = BankAudit.patterns(bank.questions, by: { $0.kind.rawValue }) + BankAudit.patterns(bank.questions, by: \.form)
        try ((findings.map(\.description) + patterns.map(\.description)).joined(separator: "\n") + "\n")
            .write(to: url.deletingLastPathComponent().appendingPathComponent("bgkb-bank-findings.txt"), atomically: true, encoding: .utf8)
        for question in bank.questions.prefix(50) {
            #expect(text.contains(question.prompt), "\(question.id) missing from the dump")
        }
        #expect(text.components(separatedBy: "\n---- ").count - 1 == bank.questions.count)
    }
}
