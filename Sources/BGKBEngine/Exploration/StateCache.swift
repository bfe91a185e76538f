/// The machine states an exploration has explored from, each with the most preemptions it still
/// had left there (state caching, as stateful model checkers do).
///
/// A run paused before a decision, in state `s` with `r` preemptions left, stands for every
/// schedule that goes on from `s` with at most `r` more preemptions: the run itself (its choices
/// from there on) and the children that deviate from it later. The explorer reaches such a
/// pause only after the run's last own choice, so all of them are explored from there (or the
/// exploration stops). Another run that reaches the same state with no more preemptions left has
/// no future the first did not have, so it is not explored further (`Result.equivalent`).
///
/// The state is everything the rest of a run and its verdict depend on (`Machine.fingerprint`):
/// the clock, the threads and their frames, the queues, the system's bookkeeping, the schedule's
/// budget, refusal and forced expiry, and the trace so far as an unordered collection of events
/// (expectations read which events happened and when, never their order in the log).
struct StateCache {
    private var remaining: [Machine.Fingerprint: Int] = [:]

    /// Whether `fingerprint` was explored already with at least `left` preemptions left; if not,
    /// it is recorded as explored with `left` (the caller explores it).
    mutating func isExplored(_ fingerprint: Machine.Fingerprint, left: Int) -> Bool {
        if let seen = remaining[fingerprint], seen >= left { return true }
        remaining[fingerprint] = left
        return false
    }

    var count: Int { remaining.count }
}
