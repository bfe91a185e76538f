/// The system events still to come, earliest first. Events due at the same time keep the order
/// they were posted in: first posted, first handled.
struct EventQueue {
    /// Events already handled stay at the front of `events` until they are most of it, so
    /// taking the next event moves `head` instead of every pending event.
    private var events: [Machine.SystemEvent] = []
    private var head = 0

    /// The pending events, in the order they will be handled.
    var pending: ArraySlice<Machine.SystemEvent> { events[head...] }

    /// The event handled next, if any.
    var first: Machine.SystemEvent? { head < events.count ? events[head] : nil }

    /// Queues `event` after every pending event due at the same time or earlier.
    mutating func post(_ event: Machine.SystemEvent) {
        if head >= 32 && head * 2 >= events.count {
            events.removeFirst(head)
            head = 0
        }
        var index = events.count
        while index > head && events[index - 1].time > event.time { index -= 1 }
        if index == events.count {
            events.append(event)
        } else {
            events.insert(event, at: index)
        }
    }

    mutating func removeFirst() -> Machine.SystemEvent {
        head += 1
        return events[head - 1]
    }

    /// Empties the queue, then queues `initial` (already in order), keeping the storage.
    mutating func reset(to initial: [Machine.SystemEvent]) {
        clear(&events)
        head = 0
        events.append(contentsOf: initial)
    }

    /// Makes this queue equal to `other` inside its own storage (see `copy`).
    mutating func replace(with other: inout EventQueue) {
        copy(&events, &other.events)
        head = other.head
    }

    /// Whether a timeline event is due at `time` or earlier.
    func hasTimelineEvent(dueBy time: Double) -> Bool {
        for event in events[head...] {
            guard event.time <= time else { return false }
            if case .timeline = event.kind { return true }
        }
        return false
    }

    var capacity: Int { events.capacity }
}
