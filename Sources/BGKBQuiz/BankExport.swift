import BGKBModel
import Foundation

/// The question bank written for other programs: JSON for the site's browser quiz
/// (`bgkb quiz --export`), and a tab-separated file Anki imports (`--export-anki`). Both are
/// functions of the bank alone (and the site URL): the same bank gives the same bytes.
public enum BankExport {
    /// The JSON document; its shape is documented in the README ("Exporting the bank").
    public struct Document: Codable, Equatable, Sendable {
        /// Always "bgkb-quiz-bank"; `version` changes when a field changes meaning.
        public var format = "bgkb-quiz-bank"
        public var version = 1
        /// The site's root URL when one was given, else nil; `link` is relative to it.
        public var siteURL: String?
        public var topics: [TopicEntry]
        public var questions: [QuestionEntry]
    }

    public struct TopicEntry: Codable, Equatable, Sendable {
        public var id: String
        public var title: String
    }

    public struct QuestionEntry: Codable, Equatable, Sendable {
        /// Stable across rewordings (the quiz's progress is keyed by it).
        public var id: String
        /// Changes when the question's wording does.
        public var contentVersion: String
        /// recall, true-false, outcome, defect or history.
        public var kind: String
        public var topics: [String]
        public var prompt: String
        /// Code or a scenario shown under the prompt, verbatim; nil when there is none.
        public var listing: String?
        public var choices: [String]
        /// Index into `choices` of the right answer (0-based).
        public var answer: Int
        public var hint: String
        public var explanation: String
        /// The rule the question comes from, and its page relative to the site's root.
        public var rule: String
        public var link: String
    }

    public static func document(bank: QuestionBank, topics: [Topic], siteURL: String?) -> Document {
        Document(
            siteURL: siteURL,
            topics: topics.map { TopicEntry(id: $0.id, title: $0.title) },
            questions: bank.questions.map { question in
                QuestionEntry(id: question.id, contentVersion: question.contentVersion, kind: question.kind.rawValue,
                              topics: question.topics, prompt: question.prompt, listing: question.listing,
                              choices: question.choices, answer: question.correct, hint: question.hint,
                              explanation: question.explanation, rule: question.rule, link: question.pageInSite)
            })
    }

    public static func json(bank: QuestionBank, topics: [Topic], siteURL: String?) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        var data = try encoder.encode(document(bank: bank, topics: topics, siteURL: siteURL))
        data.append(UInt8(ascii: "\n"))
        return data
    }

    /// The header lines Anki's text importer reads (Anki manual, "Importing", "File Headers"),
    /// then one note a line: Front, Back, Tags (topic ids, plus `bgkb`), and the question id as
    /// the note's GUID so importing a newer export updates the notes instead of duplicating them.
    public static func anki(bank: QuestionBank, siteURL: String?) -> String {
        var text = "#separator:tab\n#html:true\n#notetype:Basic\n#deck:bgkb\n#tags column:3\n#guid column:4\n"
        for question in bank.questions {
            var front = html(question.prompt)
            if let listing = question.listing { front += "<pre><code>" + html(listing) + "</code></pre>" }
            front += "<ol type=\"a\">" + question.choices.map { "<li>" + html($0) + "</li>" }.joined() + "</ol>"
            var back = "<b>" + AnswerParser.letter(question.correct) + ") " + html(question.correctChoice ?? "") + "</b>"
            back += "<br><br>" + html(question.explanation)
            if let siteURL {
                let url = siteURL + (siteURL.hasSuffix("/") ? "" : "/") + question.pageInSite
                back += "<br><br><a href=\"" + html(url) + "\">" + html(question.rule) + "</a>"
            } else {
                back += "<br><br>Rule: " + html(question.rule)
            }
            let tags = (["bgkb"] + question.topics).map(tag).joined(separator: " ")
            text += [front, back, tags, "bgkb-" + question.id].joined(separator: "\t") + "\n"
        }
        return text
    }

    /// Text as HTML on one line: markup characters escaped, line breaks as `<br>`, tabs as
    /// spaces (a tab would start a new field).
    static func html(_ text: String) -> String {
        var result = ""
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "\t": result += "    "
            case "\n", "\r\n", "\r": result += "<br>"
            default: result.append(character)
            }
        }
        return result
    }

    /// An Anki tag: no spaces (a space separates tags).
    static func tag(_ text: String) -> String {
        String(text.map { $0.isWhitespace ? "_" : $0 })
    }
}
