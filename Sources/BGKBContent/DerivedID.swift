/// The id of a point that gives none: a short name made from its statement's key words, so that
/// a plain post's ids read as names (`create-background-session-same-identifier`, not
/// `im-quoting-these-numbers-give`). Only the statement feeds it, so edits elsewhere in the
/// document never change it, and it is the same on every run and machine.
///
/// - API names count as words of their own: `beginBackgroundTask(withName:expirationHandler:)`
///   gives `begin-background-task` (argument labels are dropped, camel case is split).
/// - Contractions are expanded or dropped: a possessive or `it’s` keeps its first part (then
///   filtered like any word), `I’m`, `you’re`, `don’t` say nothing a name needs and are dropped.
/// - Filler (articles, pronouns, modal and light verbs such as *must*, *give*, *get*) is skipped.
/// - The name stops at a clause boundary (a comma, `because`, `that`, `when`, a subject pronoun
///   as in `every task you begin`) once it holds two
///   words, and at five words it backs off to the end of the last whole phrase; a light verb or
///   a number word left dangling at the end is dropped.
enum DerivedID {
    static func make(from statement: String, words limit: Int = 5) -> String {
        var words: [String] = []
        /// Whether something other than a content word came right after each word in `words`.
        var boundaryAfter: [Bool] = []
        var nextIsContent = false
        var previous: Token?
        scan: for token in tokens(of: statement) {
            defer { previous = token }
            var token = token
            if token == .pronoun {
                if case .word = previous { token = .clauseBreak } else { token = .filler }
            }
            switch token {
            case let .word(word):
                if words.count == limit { nextIsContent = true; break scan }
                words.append(word)
                boundaryAfter.append(false)
            case .filler, .pronoun:
                if words.count == limit { break scan }
                if let last = boundaryAfter.indices.last { boundaryAfter[last] = true }
            case .clauseBreak:
                if let last = boundaryAfter.indices.last { boundaryAfter[last] = true }
                if words.count >= 2 { break scan }
            }
        }
        // Cut inside a phrase (`…-transfers-system` before `daemon`): back off to the last whole
        // one, if that keeps three words and does not end on a verb.
        if nextIsContent, let end = boundaryAfter.lastIndex(of: true), end >= 2, !isDangling(words[end]) {
            words = Array(words[...end])
        }
        while words.count > 2, let last = words.last, isDangling(last) { words.removeLast() }
        return words.isEmpty ? "point" : words.joined(separator: "-")
    }

    /// A light verb, a past tense (`introduced`), a number word or a preposition: not how a name ends.
    static func isDangling(_ word: String) -> Bool {
        danglingEndings.contains(word) || (word.hasSuffix("ed") && word.count > 4)
    }

    enum Token: Equatable {
        case word(String)
        /// A word a name does without.
        case filler
        /// Punctuation or a word that opens a new clause.
        case clauseBreak
        /// `you`, `we`: a clause break right after a word, else filler.
        case pronoun
    }

    /// The statement as words (lower-cased, API names split), filler and clause breaks.
    static func tokens(of statement: String) -> [Token] {
        var tokens: [Token] = []
        var current = ""
        func flush() {
            defer { current = "" }
            guard !current.isEmpty else { return }
            for token in classify(current) { tokens.append(token) }
        }
        let scalars = statement.unicodeScalars
        var index = scalars.startIndex
        var skippingArguments = 0
        while index < scalars.endIndex {
            let scalar = scalars[index]
            defer { index = scalars.index(after: index) }
            if skippingArguments > 0 {
                if scalar == "(" { skippingArguments += 1 } else if scalar == ")" { skippingArguments -= 1 }
                continue
            }
            if scalar.isASCII, scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) {
                current.unicodeScalars.append(scalar)
            } else if (scalar == "’" || scalar == "'"), !current.isEmpty {
                current.unicodeScalars.append("'")
            } else if scalar == "(", !current.isEmpty {
                // `name(label:)`: the name is the API, its arguments are not words of the id.
                flush()
                skippingArguments = 1
            } else {
                flush()
                if ",;:—–!?\"“”()[]".unicodeScalars.contains(scalar) || (scalar == "." && !isWordScalar(after: index, in: scalars)) {
                    tokens.append(.clauseBreak)
                }
            }
        }
        flush()
        return tokens
    }

    /// Whether a word character follows `index` (`UIApplication.shared`: the dot joins two names).
    private static func isWordScalar(after index: String.UnicodeScalarView.Index, in scalars: String.UnicodeScalarView) -> Bool {
        let next = scalars.index(after: index)
        guard next < scalars.endIndex else { return false }
        return scalars[next].properties.isAlphabetic
    }

    /// One raw word (letters, digits, apostrophes as `'`) as tokens: contractions resolved, camel
    /// case split, each part lower-cased and sorted into word, filler or clause break.
    static func classify(_ raw: String) -> [Token] {
        var word = raw
        if let apostrophe = word.firstIndex(of: "'") {
            let suffix = word[word.index(after: apostrophe)...].lowercased()
            guard suffix == "s" || suffix.isEmpty else { return [.filler] }
            word = String(word[..<apostrophe])
        }
        return camelCaseParts(word).map { part in
            let lower = part.lowercased()
            if clauseWords.contains(lower) { return .clauseBreak }
            if pronouns.contains(lower) { return .pronoun }
            if fillerWords.contains(lower) { return .filler }
            return .word(lower)
        }
    }

    /// `beginBackgroundTask` → begin, Background, Task; `UIApplication` → UI, Application.
    static func camelCaseParts(_ word: String) -> [String] {
        let characters = Array(word)
        var parts: [String] = []
        var current = ""
        for (index, character) in characters.enumerated() {
            // `iOS`, `iPhone`, `watchOS`-style names stay whole where one lowercase letter leads.
            if !current.isEmpty, character.isUppercase, !(index == 1 && characters[0].isLowercase) {
                let previous = characters[index - 1]
                let nextIsLower = index + 1 < characters.count && characters[index + 1].isLowercase
                if previous.isLowercase || previous.isNumber || (previous.isUppercase && nextIsLower) {
                    parts.append(current)
                    current = ""
                }
            }
            current.append(character)
        }
        if !current.isEmpty { parts.append(current) }
        return parts
    }

    /// Words that open a new clause: a name stops before them once it has two words.
    private static let clauseWords: Set<String> = [
        "because", "where", "which", "while", "unless", "so", "but", "or", "if", "than", "since", "when", "although", "though",
        "whereas", "that", "until", "whether",
    ]

    /// Subject pronouns: right after a word of the name they open a relative clause (`every task
    /// you begin`); after a verb they are its object (`give you`) and only filler.
    private static let pronouns: Set<String> = ["i", "you", "we", "they", "he", "she"]

    /// Words a name does without: articles, pronouns, auxiliaries and modals (the kind says those),
    /// light verbs, and words that only hedge or point.
    private static let fillerWords: Set<String> = [
        "a", "an", "the", "to", "of", "and", "is", "are", "be", "been", "being", "am", "was", "were", "it", "its", "this",
        "these", "those", "in", "on", "for", "with", "by", "as", "at", "from", "any", "each", "every", "there", "their", "they",
        "them", "then", "into", "about", "does", "do", "did", "doing", "what", "has", "have", "had", "not", "only", "just",
        "also", "very", "more", "note", "important", "warning", "me", "my", "us", "our", "your", "his", "her", "can", "could", "will", "would", "shall", "should", "may", "might", "must", "need", "needs", "get", "gets",
        "got", "come", "comes", "give", "gives", "given", "let", "lets", "make", "makes", "quite", "really", "some", "such", "here", "how", "why",
        "who", "whom", "whose", "even", "still", "actually", "rather", "much", "many", "own", "up", "out", "all", "always",
        "never", "no", "nor", "yet", "too", "ever", "well", "after", "before", "without", "within", "via", "per", "over", "under",
        "through", "across", "between", "during", "against", "towards", "onto", "upon",
    ]

    /// Words that leave a name hanging when they end it.
    private static let danglingEndings: Set<String> = [
        "take", "takes", "go", "goes", "want", "wants", "see", "say", "says", "expect", "know", "think",
        "mean", "means", "try", "keep", "keeps", "use", "uses", "using", "one", "two", "three", "four", "five", "done", "like", "same", "other", "new", "old", "most", "least", "first", "last",
    ]
}
