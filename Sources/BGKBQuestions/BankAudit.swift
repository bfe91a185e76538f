import BGKBModel

/// Reads a bank the way a learner and a reviewer would: `dump` writes every question as the quiz
/// shows it, and the checks find questions a learner could not trust or could pass by guessing.
public enum BankAudit {
    /// Every question as shown (prompt, listing, lettered choices) with its answer marked.
    public static func dump(_ questions: [Question]) -> String {
        var text = ""
        for question in questions {
            text += "\n---- \(question.kind.rawValue) \(question.id) (rule \(question.rule))\n"
            text += question.prompt + "\n"
            if let listing = question.listing { text += listing.split(separator: "\n", omittingEmptySubsequences: false).map { "    | " + $0 }.joined(separator: "\n") + "\n" }
            for (index, choice) in question.choices.enumerated() {
                let letter = String(UnicodeScalar(UInt8(ascii: "a") + UInt8(index)))
                text += (index == question.correct ? "  * " : "    ") + letter + ") " + choice + "\n"
            }
            text += "  hint: \(question.hint)\n"
        }
        return text
    }
}

extension BankAudit {
    /// One question a learner could not trust, with the reason.
    public struct Finding: Hashable, Sendable, CustomStringConvertible {
        public var check: String
        public var question: String
        public var message: String
        public var description: String { "[\(check)] \(question): \(message)" }
    }

    /// Every problem of single questions and of pairs (duplicates); `patterns` covers the bank.
    public static func findings(_ questions: [Question], exampleNames: [String] = []) -> [Finding] {
        var findings: [Finding] = []
        var seen: [String: String] = [:]
        for question in questions {
            let name = "\(question.kind.rawValue) \(question.id) \"\(question.prompt.prefix(90))\""
            func add(_ check: String, _ message: String) { findings.append(Finding(check: check, question: name, message: message)) }
            for problem in problems(question, exampleNames: exampleNames) { add(problem.0, problem.1) }
            if let first = seen[question.duplicateKey] {
                add("duplicate", "same prompt and answer as \(first)")
            } else {
                seen[question.duplicateKey] = question.id
            }
        }
        return findings
    }

    static func problems(_ question: Question, exampleNames: [String]) -> [(String, String)] {
        var problems: [(String, String)] = []
        let shown = [question.prompt, question.hint] + question.choices
        let answer = question.correctChoice ?? ""
        // Conditions named in the prompt are the scenario's own.
        if let listing = question.listing {
            let lines = listing.split(separator: "\n").map { String($0).trimmingCharacters(in: String.whitespace) }
            if question.prompt.contains("refuses beginBackgroundTask") {
                if lines.contains(where: { $0.hasPrefix("system grants beginBackgroundTask") || $0.hasPrefix("system refuses") }) {
                    problems.append(("contradiction", "names a refusal the listing's system lines rule out"))
                }
                if !listing.contains("beginBackgroundTask") { problems.append(("contradiction", "names a refusal of a call the listing never makes")) }
            }
            if question.prompt.contains("of background time") || question.prompt.contains("no background time"),
               lines.contains(where: { $0.hasPrefix("system budget") }) {
                problems.append(("contradiction", "names a budget the listing pins otherwise"))
            }
            if listing.contains("//") { problems.append(("giveaway", "the listing shows a comment")) }
            for word in ["explorer", "simulator", "the engine"] where listing.lowercased().contains(word) {
                problems.append(("jargon", "the listing says \"\(word)\""))
            }
            for name in exampleNames where !name.isEmpty && question.prompt.contains("(\(name))") {
                problems.append(("giveaway", "the prompt shows the example's title \"\(name)\""))
            }
        }
        // A crash code in the prompt is the answer.
        for code in crashCodeMentions(in: question.prompt) where question.form == "recall/crash-code" && code != answer.lowercased() {
            problems.append(("contradiction", "the prompt names \(code), which is not the answer"))
        }
        if question.prompt.contains("Which API is this point about") { problems.append(("api-subject", "asks which API a point is about")) }
        if question.form == "recall/api", QuestionGenerator.isThirdPartyName("____", in: question.prompt) {
            problems.append(("api-subject", "asks for a third party's own name, not an API"))
        }
        if question.prompt.contains(" NOT ") || question.prompt.contains("(wrong)") {
            problems.append(("ambiguous", "asks for what the guidance does not give"))
        }
        // Gaps stand alone: no letters touching them.
        var rest = Substring(question.prompt)
        while let gap = rest.firstRange(of: "____") {
            let before = gap.lowerBound > rest.startIndex ? rest[rest.index(before: gap.lowerBound)] : " "
            var after = gap.upperBound
            while after < rest.endIndex, rest[after] == "_" { after = rest.index(after: after) }
            let next = after < rest.endIndex ? rest[after] : " "
            if before.isLetter || before.isNumber || next.isLetter || next.isNumber {
                problems.append(("giveaway", "a gap touches the letters around it"))
            }
            rest = rest[after...]
        }
        for text in shown where containsNumberedListing(text) {
            problems.append(("reference", "refers to a numbered listing the quiz does not show: \(text.prefix(60))"))
        }
        problems += choiceProblems(question)
        return problems
    }

    /// Choices of one type, each plausible.
    static func choiceProblems(_ question: Question) -> [(String, String)] {
        var problems: [(String, String)] = []
        switch question.form {
        case "recall/api":
            let shapes = Set(question.choices.map(apiShape))
            if shapes.count > 1 { problems.append(("choice-type", "API choices of different kinds: \(question.choices)")) }
            for choice in question.choices where APIFamily.generic.contains(choice) || !APIFamily.isQuizzable(choice) {
                problems.append(("choice-type", "\"\(choice)\" is not a name to recall"))
            }
        case "recall/crash-code":
            for choice in question.choices where crashCodeMentions(in: choice) != [choice.lowercased()] {
                problems.append(("choice-type", "\"\(choice)\" is not a crash code"))
            }
        case "recall/number":
            let units = Set(question.choices.map { choice -> String in
                let words = choice.split(separator: ",")[0].split(separator: " ")
                let unit = words.drop { $0.first?.isNumber != true }.dropFirst().joined(separator: " ")
                return unit.hasSuffix("s") && unit.count > 2 ? String(unit.dropLast()) : unit
            })
            if units.count > 1 { problems.append(("choice-type", "number choices in different units: \(question.choices)")) }
            for choice in question.choices where choice.hasPrefix("roughly") {
                problems.append(("numbers", "\"\(choice)\" turns a vague figure into a number"))
            }
        case "outcome":
            if question.choices.count < 3 { problems.append(("choice-count", "\(question.choices.count) choices; predict-the-outcome needs 3")) }
            for choice in question.choices {
                if let listing = question.listing, !outcomeFits(choice, listing: listing) {
                    problems.append(("implausible", "\"\(choice)\" cannot come from this code"))
                }
                if containsDuration(choice) { problems.append(("numbers", "\"\(choice)\" states a duration the simulator assumes")) }
            }
        default: break
        }
        return problems
    }

    /// `key` (payload or Info.plist key with a hyphen), `Type`, or `member`.
    static func apiShape(_ name: String) -> String {
        if name.contains("-") { return "key" }
        if name.contains(".") { return "Type.member" }
        if APIFamily.plistKeys.contains(name) { return "plist" }
        return name.first?.isUppercase == true ? "Type" : "member"
    }

    static func containsNumberedListing(_ text: String) -> Bool {
        var rest = Substring(text)
        while let found = rest.firstRange(of: "Listing ") {
            if found.upperBound < rest.endIndex, rest[found.upperBound].isNumber { return true }
            rest = rest[found.upperBound...]
        }
        return false
    }

    /// `5s`, `1.5 s`, `30 ms`, `2 min`: a duration written with its unit.
    static func containsDuration(_ text: String) -> Bool {
        let characters = Array(text)
        for index in characters.indices where characters[index].isNumber {
            var end = index
            while end < characters.count, characters[end].isNumber || characters[end] == "." { end += 1 }
            if end < characters.count, characters[end] == " " { end += 1 }
            let unit = String(characters[end..<min(end + 3, characters.count)])
            let afterUnit: (Int) -> Bool = { length in end + length >= characters.count || !characters[end + length].isLetter }
            if (unit.hasPrefix("s") && afterUnit(1)) || (unit.hasPrefix("ms") && afterUnit(2)) || (unit.hasPrefix("min") && afterUnit(3)) {
                return true
            }
        }
        return false
    }

    /// Figures a recall question gives as an answer that its rule's own words do not state
    /// (in digits or in words): the generator must not turn an assumption into guidance.
    public static func unsourcedFigures(_ questions: [Question], corpus: Corpus) -> [Finding] {
        let rules = Dictionary(corpus.rules.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        var findings: [Finding] = []
        for question in questions where question.form == "recall/number" {
            guard let rule = rules[question.rule], let answer = question.correctChoice else { continue }
            if !statesFigure(answer, in: rule) {
                findings.append(Finding(check: "numbers", question: "\(question.id) \"\(question.prompt.prefix(90))\"",
                                        message: "answers \(answer), a figure rule '\(rule.id)' does not state"))
            }
        }
        return findings
    }

    /// The share of the most common correct answer and position, per kind of question.
    public struct Pattern: Sendable, CustomStringConvertible {
        public var group: String
        public var count: Int
        public var topAnswer: String
        public var topAnswerShare: Double
        /// Largest gap, in points, between a position's share of correct answers and its expected
        /// share (each question spreads 1/n over its n positions).
        public var positionSkew: Double
        public var topPosition: Int
        public var topPositionShare: Double
        public var description: String {
            "\(group): \(count) questions, top answer \"\(topAnswer.prefix(50))\" \(percent(topAnswerShare)), "
                + "top position \(topPosition + 1) \(percent(topPositionShare)), position skew \(Int(positionSkew.rounded())) points"
        }
    }

    public static func patterns(_ questions: [Question], by group: (Question) -> String) -> [Pattern] {
        Dictionary(grouping: questions, by: group).map { name, members in
            var answers: [String: Int] = [:]
            var positions: [Int: Double] = [:]
            var expected: [Int: Double] = [:]
            for question in members {
                answers[question.correctChoice ?? "", default: 0] += 1
                positions[question.correct, default: 0] += 1
                for position in question.choices.indices { expected[position, default: 0] += 1 / Double(question.choices.count) }
            }
            let total = Double(members.count)
            let top = answers.max { ($0.value, $1.key) < ($1.value, $0.key) } ?? ("", 0)
            let topPosition = positions.max { ($0.value, $1.key) < ($1.value, $0.key) } ?? (0, 0)
            let skew = expected.keys.map { abs((positions[$0] ?? 0) - (expected[$0] ?? 0)) / total * 100 }.max() ?? 0
            return Pattern(group: name, count: members.count, topAnswer: top.0, topAnswerShare: Double(top.1) / total,
                           positionSkew: skew, topPosition: topPosition.0, topPositionShare: topPosition.1 / total)
        }.sorted { $0.group < $1.group }
    }
}

func percent(_ share: Double) -> String { "\(Int((share * 100).rounded())) %" }
