import BGKBModel

/// A parent's run, replayed once and paused at each decision where a child deviates
/// (`Options.resumesChildrenFromTheirParent`): children come in order of that decision, so
/// the replay only moves forward, one parent after another.
struct ParentCursor {
    struct Parent: Equatable {
        var level: Int
        var position: Int
    }
    /// The machine that replays the parents (from the explorer's pool; given back by the order).
    let box: MachineBox
    var parent: Parent?
    /// Events simulated again to reach the decisions (`Result.replayedEvents`).
    var replayed = 0

    /// Leaves `machine` paused just before decision `index` of `parent`'s run (whose
    /// schedule `schedule` gives), replaying it from the start only when the machine is on
    /// another parent or already past that decision. False if the run ended first.
    mutating func pause(at index: Int, of parent: Parent, schedule: () -> Schedule) -> Bool {
        if self.parent != parent || box.machine.pendingDecision == nil || box.machine.decisions.count > index {
            box.machine.reset(schedule())
            self.parent = parent
        }
        if box.machine.pendingDecision != nil && box.machine.decisions.count == index { return true }
        let before = box.machine.trace.count
        defer { replayed += box.machine.trace.count - before }
        guard box.machine.proceed(pausingAt: index) else {
            self.parent = nil
            return false
        }
        return true
    }

    /// Brings `child` to the start of its run, `schedule`, which deviates from `parent`'s at
    /// decision `index`: the parent's run up to there (replayed, paused), copied, or taken
    /// whole when `last` (no later child needs it; the cursor keeps the child's old machine
    /// and is on no parent then).
    mutating func start(_ child: inout Machine, as schedule: Schedule, deviatingAt index: Int, from parent: Parent,
                        last: Bool, parentSchedule: () -> Schedule) {
        guard pause(at: index, of: parent, schedule: parentSchedule) else {
            // The parent's run never reached that decision: it cannot happen (runs are
            // deterministic), but a run from the start is always right.
            child.reset(schedule)
            return
        }
        if last {
            swap(&child, &box.machine)
            self.parent = nil
            child.inheritedEvents = child.trace.count
        } else {
            child.copyState(from: &box.machine)
        }
        child.schedule = schedule
    }
}
