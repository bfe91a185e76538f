import BGKBModel

/// A question before it gets its identity: the correct answer first, then the distractors.
/// `QuestionGenerator` turns drafts into `Question`s, hashing the identity in one place.
struct QuestionDraft {
    var kind: Question.Kind
    /// Which question of this kind for this rule (`number:background task budget`, `example:0`).
    /// With the rule id and kind it makes the stable id, so it must not depend on wording.
    var slot: String
    var prompt: String
    var listing: String? = nil
    var answer: String
    var distractors: [String]
    var hint: String
    var explanation: String

    static let trueText = "True"
    static let falseText = "False"

    static func trueFalse(slot: String, claim: String, isTrue: Bool, hint: String, explanation: String) -> QuestionDraft {
        QuestionDraft(kind: .trueFalse, slot: slot, prompt: "True or false? \(claim)",
                      answer: isTrue ? trueText : falseText, distractors: [isTrue ? falseText : trueText],
                      hint: hint, explanation: explanation)
    }

    func question(for rule: Rule) -> Question {
        let id = StableHash.of(rule.id, kind.rawValue, slot).hex
        let version = StableHash.of(rule.wording, prompt, listing ?? "", answer).hex
        // The answer comes first here and the session shuffles; true/false always reads True, False.
        var choices = [answer] + distractors
        var correct = 0
        if kind == .trueFalse, answer == QuestionDraft.falseText {
            choices = [QuestionDraft.trueText, QuestionDraft.falseText]
            correct = 1
        }
        return Question(id: id, contentVersion: version, kind: kind, rule: rule.id, topics: rule.topics,
                        prompt: prompt, listing: listing, choices: choices, correct: correct, hint: hint,
                        explanation: explanation)
    }
}

/// Picks distractors: candidates in order of preference, without repeats or the answer itself,
/// compared case- and space-insensitively so "About 30 s" never sits beside "about 30 s".
func pickDistractors(answer: String, candidates: [String], limit: Int = 3) -> [String] {
    var picker = DistractorPicker(answer: answer, limit: limit)
    for candidate in candidates where picker.picked.count < limit { picker.offer(candidate) }
    return picker.picked
}

/// `pickDistractors` fed one candidate at a time, keeping the keys of what it has seen: an
/// outcome question offers the outcomes of up to a dozen other examples one by one, and picking
/// again from the whole list for each normalized every earlier choice again.
struct DistractorPicker {
    private(set) var picked: [String] = []
    private var seen: Set<String>
    let limit: Int

    init(answer: String, limit: Int = 3) {
        seen = [normalizedChoice(answer)]
        self.limit = limit
    }

    mutating func offer(_ candidate: String) {
        guard picked.count < limit else { return }
        offer(candidate, key: normalizedChoice(candidate))
    }

    /// An outcome's words with the key made when they were (`OutcomeTexts`).
    mutating func offer(_ choice: OutcomeTexts.Choice) {
        guard picked.count < limit else { return }
        offer(choice.text, key: choice.key)
    }

    private mutating func offer(_ candidate: String, key: String) {
        guard !key.isEmpty, seen.insert(key).inserted else { return }
        picked.append(candidate)
    }
}

/// Up to `count` items of a large pool in a stable pseudo-random order, without hashing and
/// sorting the whole pool for every question (the API pool is asked from a hundred times).
func stableSample(_ pool: [String], salt: String, count: Int) -> [String] {
    guard pool.count > count else { return stableShuffle(pool, salt: salt) }
    return stableSample(pool, seed: StableHash.of(salt).value, count: count, where: { _ in true })
}

/// Up to `count` distinct items of `pool` that pass `accept`, drawn in a seeded order, trying at
/// most a few times `count` draws: linear in what it returns, not in the pool, so a corpus of ten
/// thousand rules costs no more per question than one of a hundred.
func stableSample<T: Equatable>(_ pool: [T], seed: UInt64, count: Int, where accept: (T) -> Bool) -> [T] {
    stableSampleIndices(pool, seed: seed, count: count, where: accept).map { pool[$0] }
}

/// `stableSample` as positions in the pool: the same draws, without copying or comparing items
/// (examples are large values, and comparing two compares their whole text).
func stableSampleIndices<T: Equatable>(_ pool: [T], seed: UInt64, count: Int, where accept: (T) -> Bool) -> [Int] {
    guard !pool.isEmpty, count > 0 else { return [] }
    var generator = SeededGenerator(seed: seed)
    if pool.count <= 64 {
        // Small pools: every item is considered, in a seeded order, so none that fits is missed.
        var order = Array(pool.indices)
        order.shuffle(using: &generator)
        var chosen: [Int] = []
        for index in order where chosen.count < count && accept(pool[index]) && !chosen.contains(where: { pool[$0] == pool[index] }) {
            chosen.append(index)
        }
        return chosen
    }
    var chosen: [Int] = []
    var draws = 0
    while chosen.count < count && draws < count * 8 {
        draws += 1
        let index = Int(generator.next() % UInt64(pool.count))
        // Every pool drawn from this way holds distinct items (sets of names and values, the
        // corpus's examples and rules, each at its own place), so a position stands for its item.
        if !chosen.contains(index) && accept(pool[index]) {
            chosen.append(index)
        }
    }
    return chosen
}

func normalizedChoice(_ text: String) -> String {
    // Bytes, not Characters: this runs on every choice of every question at start-up, and most
    // are ASCII. Non-ASCII text is lowercased by the standard library afterwards. Written
    // straight into the String's storage (never longer than the text), not into an array
    // copied into a String after.
    var ascii = true
    let count = text.utf8.count
    guard count > 0 else { return "" }
    let result = String(unsafeUninitializedCapacity: count) { out in
        var written = 0
        var space = false
        for byte in text.utf8 {
            if byte >= 0x80 { ascii = false }
            if byte == 0x20 || byte == 0x0a || byte == 0x09 || byte == 0x0d {
                space = written > 0
                continue
            }
            if space {
                out[written] = 0x20
                written += 1
                space = false
            }
            out[written] = byte &- 0x41 < 26 ? byte | 0x20 : byte
            written += 1
        }
        return written
    }
    return ascii ? result : result.lowercased()
}

/// Orders a pool the same way on every run, but not alphabetically (that would put the same
/// distractors first everywhere): by a hash of the question's slot and the candidate.
func stableShuffle(_ pool: [String], salt: String) -> [String] {
    pool.map { ($0, StableHash.of(salt, $0).value) }.sorted { ($0.1, $0.0) < ($1.1, $1.0) }.map(\.0)
}
