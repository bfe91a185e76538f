import BGKBModel

/// What the learner typed at the prompt.
public enum Command: Equatable, Sendable {
    case choose(Int)
    case hint
    case skip
    case quit
    /// Not an answer: the message says why, and the question is shown again.
    case invalid(String)
}

/// Reads one line against a question with `choiceCount` choices: `a`–`e` or `1`–`5`, `?`, `s`,
/// `q`, and for true/false also `t`/`f`. Anything else is a short message, never a crash.
public enum AnswerParser {
    public static let maximumLength = 200

    public static func parse(_ bytes: [UInt8], choiceCount: Int, trueFalse: Bool = false) -> Command {
        let letters = "a-\(letter(choiceCount - 1))"
        let usage = "Type \(letters) or 1-\(choiceCount) to answer, ? for a hint, s to skip, q to quit."
        guard bytes.count <= maximumLength else { return .invalid("That line is too long. \(usage)") }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            return .invalid("That is not valid UTF-8 text. \(usage)")
        }
        let word = text.trimmingCharacters(in: String.whitespace).lowercased()
        if word.isEmpty { return .invalid(usage) }
        switch word {
        case "?", "h", "hint": return .hint
        case "s", "skip": return .skip
        case "q", "quit", "exit": return .quit
        default: break
        }
        if trueFalse {
            if word == "t" || word == "true" { return .choose(0) }
            if word == "f" || word == "false" { return .choose(1) }
        }
        var index: Int?
        if word.count == 1, let scalar = word.unicodeScalars.first, ("a"..."z").contains(scalar) {
            index = Int(scalar.value - UnicodeScalar("a").value)
        } else if word.count <= 3, let number = Int(word) {
            index = number - 1
        }
        if let index {
            if (0..<choiceCount).contains(index) { return .choose(index) }
            return .invalid("There is no choice \(shown(word)). Choose \(letters) or 1-\(choiceCount).")
        }
        return .invalid("\(shown(word)) is not an answer. \(usage)")
    }

    public static func letter(_ index: Int) -> String {
        guard let scalar = UnicodeScalar(UInt32(97 + max(0, min(index, 25)))) else { return "?" }
        return String(Character(scalar))
    }

    /// What the learner typed, quoted, short, with control characters (escape sequences) removed
    /// so echoing it cannot drive the terminal.
    static func shown(_ text: String) -> String {
        let clean = String(text.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7f && !(0x80..<0xa0).contains($0.value) }.map(Character.init))
        return "\"" + (clean.count > 20 ? String(clean.prefix(20)) + "…" : clean) + "\""
    }
}
