/// The system events still to come, earliest first. Events due at the same time keep the order
/// they were posted in: first posted, first handled.
struct EventQueue {
    /// The pending events, in the order they will be handled.
    private(set) var pending: [Machine.SystemEvent] = []

    /// The event handled next, if any.
    var first: Machine.SystemEvent? { pending.first }

    /// Queues `event` after every pending event due at the same time or earlier.
    mutating func post(_ event: Machine.SystemEvent) {
        var index = pending.count
        while index > 0 && pending[index - 1].time > event.time { index -= 1 }
        pending.insert(event, at: index)
    }

    mutating func removeFirst() -> Machine.SystemEvent {
        pending.removeFirst()
    }

    /// Empties the queue, then queues `events` (already in order), keeping the storage.
    mutating func reset(to events: [Machine.SystemEvent]) {
        clear(&pending)
        pending.append(contentsOf: events)
    }

    /// Makes this queue equal to `other` inside its own storage (see `copy`).
    mutating func replace(with other: inout EventQueue) {
        copy(&pending, &other.pending)
    }

    /// Whether a timeline event is due at `time` or earlier.
    func hasTimelineEvent(dueBy time: Double) -> Bool {
        for event in pending {
            guard event.time <= time else { return false }
            if case .timeline = event.kind { return true }
        }
        return false
    }

    var capacity: Int { pending.capacity }
}
