import BGKBModel
import BGKBQuiz
import Foundation
import Testing

@Suite struct ExportTests {
    let bank = QuestionBank(corpus: Fixtures.corpus, outcomes: Fixtures.standInEngine)

    @Test func theJSONExportHoldsEveryQuestionInTheDocumentedShape() throws {
        let data = try BankExport.json(bank: bank, topics: Fixtures.corpus.topics, siteURL: "https://example.org/bgkb/")
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(object["format"] as? String == "bgkb-quiz-bank")
        #expect(object["version"] as? Int == 1)
        #expect(object["siteURL"] as? String == "https://example.org/bgkb/")
        let questions = try #require(object["questions"] as? [[String: Any]])
        #expect(questions.count == bank.questions.count)
        let keys: Set = ["id", "contentVersion", "kind", "topics", "prompt", "choices", "answer", "hint", "explanation", "rule", "link"]
        for (entry, question) in zip(questions, bank.questions) {
            #expect(keys.isSubset(of: entry.keys), "\(entry.keys)")
            #expect(entry["id"] as? String == question.id)
            let choices = entry["choices"] as? [String] ?? []
            let answer = entry["answer"] as? Int ?? -1
            #expect(choices.indices.contains(answer) && choices[answer] == question.correctChoice)
            #expect(entry["link"] as? String == "rules/\(question.rule).html")
            #expect((entry["listing"] as? String) == question.listing)
        }
        // Decodes back with the documented types, and is the same bytes every time.
        let decoded = try JSONDecoder().decode(BankExport.Document.self, from: data)
        #expect(decoded == BankExport.document(bank: bank, topics: Fixtures.corpus.topics, siteURL: "https://example.org/bgkb/"))
        #expect(try BankExport.json(bank: bank, topics: Fixtures.corpus.topics, siteURL: "https://example.org/bgkb/") == data)
    }

    @Test func theAnkiExportHasTheHeadersAndOneNoteALineOfFourFields() {
        let text = BankExport.anki(bank: bank, siteURL: "https://example.org/bgkb")
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(Array(lines.prefix(6)) == ["#separator:tab", "#html:true", "#notetype:Basic", "#deck:bgkb", "#tags column:3", "#guid column:4"])
        let notes = lines.dropFirst(6)
        #expect(notes.count == bank.questions.count)
        for (note, question) in zip(notes, bank.questions) {
            let fields = note.split(separator: "\t", omittingEmptySubsequences: false)
            #expect(fields.count == 4, "\(note)")
            guard fields.count == 4 else { continue }
            #expect(fields[0].contains("<ol type=\"a\"><li>"))
            #expect(!fields[0].hasPrefix("\""), "a leading quote would make Anki read the field as quoted")
            #expect(fields[1].contains("https://example.org/bgkb/rules/\(question.rule).html"))
            #expect(fields[2].split(separator: " ").map(String.init) == ["bgkb"] + question.topics)
            #expect(fields[3] == "bgkb-" + Substring(question.id))
            if question.listing != nil { #expect(fields[0].contains("<pre><code>")) }
        }
    }

    @Test func htmlFieldsStayOnOneLineAndEscapeMarkup() {
        var question = bank.questions[0]
        question.prompt = "a <b> & \"c\"\tthen\nnext"
        let bank = QuestionBank(validated: [question], diagnostics: Diagnostics())
        let text = BankExport.anki(bank: bank, siteURL: nil)
        let note = text.split(separator: "\n").last ?? ""
        #expect(note.hasPrefix("a &lt;b&gt; &amp; &quot;c&quot;    then<br>next"))
        #expect(note.split(separator: "\t", omittingEmptySubsequences: false).count == 4)
    }
}
