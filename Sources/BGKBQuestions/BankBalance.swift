import BGKBModel

/// The last step of generation, over the whole bank: no two questions alike, no answer so common
/// that it passes a kind of question by guessing, and the correct choice spread evenly over the
/// positions. Deterministic (ordered by the questions' stable ids), and never leaves a rule
/// without a question.
enum BankBalance {
    /// The largest share one answer may have among a kind's questions (or among one form of
    /// them, such as crash-code questions).
    static let answerShareLimit = 0.4
    /// True/false answers stay within this band of "True".
    static let trueShare = 0.4...0.6
    /// A form is balanced on its own from this many questions; fewer cannot be.
    static let smallestBalancedGroup = 8

    static func balanced(_ questions: [Question]) -> [Question] {
        var kept = withoutDuplicates(questions)
        var perRule: [String: Int] = [:]
        for question in kept { perRule[question.rule, default: 0] += 1 }
        var dropped: Set<String> = []
        // Forms first (crash codes among recall questions), then whole kinds.
        let groups = Dictionary(grouping: kept.indices, by: { kept[$0].form }).values.map { $0 }
            + Dictionary(grouping: kept.indices, by: { kept[$0].kind.rawValue }).values.map { $0 }
        for group in groups.sorted(by: { kept[$0[0]].form < kept[$1[0]].form }) where group.count >= smallestBalancedGroup {
            capAnswers(in: group, of: kept, perRule: &perRule, dropped: &dropped)
        }
        kept.removeAll { dropped.contains($0.identityKey) }
        return withSpreadPositions(kept)
    }

    /// The first of each prompt, listing and answer: the same card twice teaches nothing more.
    static func withoutDuplicates(_ questions: [Question]) -> [Question] {
        var seen: Set<String> = []
        return questions.filter { seen.insert($0.duplicateKey).inserted }
    }

    /// Drops questions whose answer is the most common one until it is within the limit,
    /// highest stable id first, never a rule's last question.
    static func capAnswers(in group: [Int], of questions: [Question], perRule: inout [String: Int], dropped: inout Set<String>) {
        var members = group.filter { !dropped.contains(questions[$0].identityKey) }
        let isTrueFalse = questions[group[0]].kind == .trueFalse
        while !members.isEmpty {
            var counts: [String: Int] = [:]
            for index in members { counts[questions[index].correctChoice ?? "", default: 0] += 1 }
            guard let (answer, count) = counts.max(by: { ($0.value, $1.key) < ($1.value, $0.key) }) else { return }
            let share = Double(count) / Double(members.count)
            let over = isTrueFalse ? !trueShare.contains(share) && counts.count > 1 : share > answerShareLimit && counts.count > 1
            guard over else { return }
            let candidates = members.filter { questions[$0].correctChoice == answer && perRule[questions[$0].rule, default: 0] > 1 }
            guard let victim = candidates.max(by: { questions[$0].id < questions[$1].id }) else { return }
            dropped.insert(questions[victim].identityKey)
            perRule[questions[victim].rule, default: 0] -= 1
            members.removeAll { $0 == victim }
        }
    }

    /// Puts each question's answer at the position most behind its fair share among questions
    /// of its form so far (each question owes 1/n to each of its n positions), ties broken by
    /// the question's id: every position is about as often right, with no fixed rotation to learn.
    /// True/false keeps True, False.
    static func withSpreadPositions(_ questions: [Question]) -> [Question] {
        var expected: [String: [Double]] = [:]
        var actual: [String: [Double]] = [:]
        return questions.map { question in
            guard question.kind != .trueFalse, question.choices.count > 1, let answer = question.correctChoice else { return question }
            let count = question.choices.count
            var owed = expected[question.form, default: []]
            var given = actual[question.form, default: []]
            while owed.count < count { owed.append(0) }
            while given.count < count { given.append(0) }
            for position in 0..<count { owed[position] += 1 / Double(count) }
            let tieBreak = Int(StableHash.of(question.id).value % UInt64(count))
            let order = (0..<count).map { ($0 + tieBreak) % count }
            let position = order.max { owed[$0] - given[$0] < owed[$1] - given[$1] - 1e-9 } ?? 0
            given[position] += 1
            expected[question.form] = owed
            actual[question.form] = given
            var copy = question
            var others = question.choices
            others.remove(at: question.correct)
            others.insert(answer, at: position)
            copy.choices = others
            copy.correct = position
            return copy
        }
    }
}

extension Question {
    /// Which sort of question of its kind this is, for balancing and for checks: recall asks a
    /// number, a crash code or an API; history asks when or what.
    public var form: String {
        switch kind {
        case .recall:
            if prompt.contains("crash code") { return "recall/crash-code" }
            if prompt.hasPrefix("Which API") { return "recall/api" }
            return "recall/number"
        case .history: return prompt.contains("when was") ? "history/when" : "history/what"
        default: return kind.rawValue
        }
    }

    var identityKey: String { id }

    /// Prompt, listing and answer: two questions alike in these are the same card.
    var duplicateKey: String { prompt + "\u{1}" + (listing ?? "") + "\u{1}" + (correctChoice ?? "") }
}
