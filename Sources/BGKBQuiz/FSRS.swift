import Foundation

/// FSRS-5, the Free Spaced Repetition Scheduler (version 5), the memory model Anki adopted:
/// each card has a stability S (the days until the chance of recall falls to the curve's
/// reference point, `retrievability(days: S, stability: S)`) and a difficulty D (1 to 10); an
/// answer updates both, and the next review is set for when the chance of recall is expected to
/// fall to the learner's target retention.
///
/// Written from the formulas and the 19 default parameters published by the
/// open-spaced-repetition project: the wiki page "The Algorithm" (FSRS-5 section) and the
/// reference implementation `src/fsrs/fsrs_v5.py` of py-fsrs
/// (https://github.com/open-spaced-repetition/py-fsrs). As there, the elapsed time that enters
/// the retrievability is counted in whole days, and a review less than a day after the previous
/// one uses the short-term stability formula.
public enum FSRS {
    /// How the learner did, on FSRS's four-point scale (Easy is not offered by the quiz).
    public enum Rating: Int, Sendable, CaseIterable {
        case again = 1, hard = 2, good = 3, easy = 4
    }

    /// The published default parameters w0…w18 of FSRS-5.
    public static let defaultParameters: [Double] = [
        0.40255, 1.18385, 3.173, 15.69105, 7.1949, 0.5345, 1.4604, 0.0046, 1.54575,
        0.1192, 1.01925, 1.9395, 0.11, 0.29605, 2.2698, 0.2315, 2.9898, 0.51655, 0.6621,
    ]
    /// The forgetting curve's exponent, and the factor that makes R(S, S) = 0.9.
    public static let decay = -0.5
    public static let factor = pow(0.9, 1 / decay) - 1
    public static let minimumDifficulty = 1.0
    public static let maximumDifficulty = 10.0
    /// Bounds the quiz keeps stability within (the upper one is FSRS's maximum interval).
    public static let minimumStability = 0.001
    public static let maximumStability = 36_500.0

    /// One card's memory.
    public struct Memory: Hashable, Sendable, Codable {
        public var stability: Double
        public var difficulty: Double
        public init(stability: Double, difficulty: Double) {
            self.stability = stability
            self.difficulty = difficulty
        }
    }

    static var w: [Double] { defaultParameters }

    /// R(t, S) = (1 + factor · t / S)^decay: the chance of recall `days` after the last review.
    public static func retrievability(days: Double, stability: Double) -> Double {
        pow(1 + factor * max(0, days) / stability, decay)
    }

    /// I(r, S) = S / factor · (r^(1/decay) − 1): days until the chance of recall falls to `retention`.
    public static func interval(stability: Double, retention: Double) -> Double {
        stability / factor * (pow(retention, 1 / decay) - 1)
    }

    /// S0(G) = w[G−1].
    public static func initialStability(_ rating: Rating) -> Double { w[rating.rawValue - 1] }

    /// D0(G) = w4 − e^(w5·(G−1)) + 1, kept within 1…10.
    public static func initialDifficulty(_ rating: Rating) -> Double {
        clampDifficulty(w[4] - exp(w[5] * Double(rating.rawValue - 1)) + 1)
    }

    /// ΔD = −w6·(G−3); D′ = D + ΔD·(10−D)/9; D″ = w7·D0(Easy) + (1−w7)·D′, kept within 1…10.
    public static func nextDifficulty(_ difficulty: Double, _ rating: Rating) -> Double {
        let delta = -w[6] * Double(rating.rawValue - 3)
        let damped = difficulty + delta * (10 - difficulty) / 9
        let easy = w[4] - exp(w[5] * 3) + 1
        return clampDifficulty(w[7] * easy + (1 - w[7]) * damped)
    }

    /// S′r = S · (e^w8 · (11−D) · S^−w9 · (e^(w10·(1−R)) − 1) · w15 if Hard · w16 if Easy + 1).
    public static func recallStability(_ memory: Memory, retrievability r: Double, _ rating: Rating) -> Double {
        let hardPenalty = rating == .hard ? w[15] : 1
        let easyBonus = rating == .easy ? w[16] : 1
        let s = memory.stability
        return s * (1 + exp(w[8]) * (11 - memory.difficulty) * pow(s, -w[9]) * (exp(w[10] * (1 - r)) - 1) * hardPenalty * easyBonus)
    }

    /// S′f = w11 · D^−w12 · ((S+1)^w13 − 1) · e^(w14·(1−R)).
    public static func forgetStability(_ memory: Memory, retrievability r: Double) -> Double {
        w[11] * pow(memory.difficulty, -w[12]) * (pow(memory.stability + 1, w[13]) - 1) * exp(w[14] * (1 - r))
    }

    /// S′ = S · e^(w17·(G−3+w18)), for a review on the same day as the previous one.
    public static func shortTermStability(_ stability: Double, _ rating: Rating) -> Double {
        stability * exp(w[17] * (Double(rating.rawValue) - 3 + w[18]))
    }

    /// The memory after an answer. `elapsedDays` is nil for a card's first answer; otherwise the
    /// time since the previous answer, in days (fractions allowed: whole days are what count).
    public static func next(_ memory: Memory?, rating: Rating, elapsedDays: Double?) -> Memory {
        guard let memory, let elapsedDays else {
            return Memory(stability: clampStability(initialStability(rating)), difficulty: initialDifficulty(rating))
        }
        let days = max(0, elapsedDays.rounded(.down))
        let r = retrievability(days: days, stability: memory.stability)
        let stability: Double
        if days < 1 {
            stability = shortTermStability(memory.stability, rating)
        } else if rating == .again {
            stability = min(forgetStability(memory, retrievability: r), shortTermStability(memory.stability, rating))
        } else {
            stability = recallStability(memory, retrievability: r, rating)
        }
        return Memory(stability: clampStability(stability), difficulty: nextDifficulty(memory.difficulty, rating))
    }

    static func clampDifficulty(_ value: Double) -> Double { min(max(value, minimumDifficulty), maximumDifficulty) }
    static func clampStability(_ value: Double) -> Double {
        value.isFinite ? min(max(value, minimumStability), maximumStability) : maximumStability
    }
}
