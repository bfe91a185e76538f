import BGKBModel

/// What the explorer remembers of a run, to cover the schedules that would repeat it. A key
/// names the rest of a schedule (its forced expiry and choices) as a dense number, so entries
/// hang off arrays indexed by key, and an entry carries no `Schedule` of its own.
struct Memo {
    struct Entry {
        var refusal: Conditions.Refusal
        var budget: Double
        var refusalRead: Bool
        /// nil: the budget mattered, so only this budget gives this run.
        var budgetFloor: Double?
        /// See `Machine.forcedPeriodStart` (nil: no forced expiry ended a live period).
        var forcedPeriodStart: Double?
        var otherPeriodsFloor: Double
        /// The run's decisions, in the exploration's decision pool.
        var decisions: Range<Int>
        var instants: Range<Int>
        /// Unforced runs only: their quiet intervals (`Machine.quietIntervals`) in the quiet pool.
        var quiet: Range<Int>
        /// The schedule that ran, in `Exploration.ran` (for `reuseMismatches`).
        var ran: Int32
        /// The next entry of the same key, in insertion order (-1: none).
        var next: Int32 = -1
    }
    /// Every level's entries (kept: the random schedules walk them, see `randomRepeat`);
    /// `heads` and `tails` give each key's first and last (-1: none).
    private(set) var entries: [Entry] = []
    private var heads: [Int32] = [-1]
    private var tails: [Int32] = [-1]
    private var forcedKeys = KeyTable(capacity: 256, placeholder: ForcedExpiryKey(0))
    /// An example that follows its rule makes a few hundred child keys: room for them at once.
    private(set) var childKeys = KeyTable(capacity: 1024, placeholder: ChildKey(parent: 0, index: 0, choice: 0))
    /// For each key, the key of the same choices without the forced expiry (itself when there
    /// is none).
    private(set) var unforced: [Int32] = [0]

    init(reservingKeys count: Int) {
        heads.reserveCapacity(count)
        tails.reserveCapacity(count)
        unforced.reserveCapacity(count)
        // About one entry for every four keys (most schedules are covered, not run).
        entries.reserveCapacity(count / 4)
    }

    /// An earlier run of the same rest that this refusal and budget would repeat exactly: it
    /// never read the refusal (or had the same one), and its budget never mattered and this
    /// one's event would come due only after every period was over (or it had the same one).
    func match(_ key: Int32, refusal: Conditions.Refusal, budget: Double, forced: Double?) -> Entry? {
        var index = heads[Int(key)]
        while index >= 0 {
            let entry = entries[Int(index)]
            if entry.refusal == refusal || !entry.refusalRead {
                if entry.budget == budget { return entry }
                // The margin keeps float rounding in `start + budget` from deciding a tie.
                if let floor = entry.budgetFloor {
                    if budget > floor + 1e-9 { return entry }
                    // This budget's event would fall due exactly when the forced expiry ended
                    // the longest period, queued behind it: the same run.
                    if let start = entry.forcedPeriodStart, let forced, start + budget == forced,
                       budget > entry.otherPeriodsFloor + 1e-9 { return entry }
                }
            }
            index = entry.next
        }
        return nil
    }

    mutating func add(_ entry: Entry, key: Int32) {
        let index = Int32(entries.count)
        entries.append(entry)
        let k = Int(key)
        if heads[k] < 0 {
            heads[k] = index
        } else {
            entries[Int(tails[k])].next = index
        }
        tails[k] = index
    }

    /// The key of the default interleaving with this forced expiry (0: none).
    mutating func key(forced: Double?) -> Int32 {
        guard let forced else { return 0 }
        let forcedKey = ForcedExpiryKey(forced)
        if let key = forcedKeys.find(forcedKey) { return key }
        let key = newKey(unforced: 0)
        forcedKeys.insert(forcedKey, value: key)
        return key
    }

    /// The key of `parent`'s choices plus alternative `choice` at decision `index`.
    mutating func key(parent: Int32, index: Int32, choice: UInt8) -> Int32 {
        let child = ChildKey(parent: parent, index: index, choice: choice)
        if let key = childKeys.find(child) { return key }
        let unforcedParent = unforced[Int(parent)]
        let key = unforcedParent == parent ? newKey(unforced: nil)
            : newKey(unforced: self.key(parent: unforcedParent, index: index, choice: choice))
        childKeys.insert(child, value: key)
        return key
    }

    private mutating func newKey(unforced twin: Int32?) -> Int32 {
        let key = Int32(heads.count)
        heads.append(-1)
        tails.append(-1)
        unforced.append(twin ?? key)
        return key
    }
}
