/// The event loop's timers: work to run at a monotonic deadline, earliest first.
///
/// A binary min-heap ordered by deadline, then by scheduling order, so two timers for the same
/// nanosecond run in the order they were scheduled. Timers are not cancelled one by one: an owner
/// whose deadline moved ignores the stale call (``Connection`` compares the deadline it armed),
/// which keeps every operation O(log n) without an index of entries. The timers of owners that
/// are gone are dropped in bulk instead (``removeAll(where:)``), so they cannot pile up until
/// their deadlines.
///
/// Not thread-safe: owned by one ``EventLoop`` and touched only on its thread.
struct DeadlineHeap {
    struct Entry {
        var deadline: UInt64
        var sequence: UInt64
        /// The handler the timer is for, when it is one's (``EventLoop/schedule(at:for:)``).
        var token: UInt64?
        var work: () -> Void

        func precedes(_ other: Entry) -> Bool {
            deadline != other.deadline ? deadline < other.deadline : sequence < other.sequence
        }
    }

    private var entries: [Entry] = []
    private var nextSequence: UInt64 = 0

    var isEmpty: Bool { entries.isEmpty }
    var count: Int { entries.count }

    /// The earliest deadline, if any.
    var nextDeadline: UInt64? { entries.first?.deadline }

    mutating func schedule(at deadline: UInt64, token: UInt64? = nil, _ work: @escaping () -> Void) {
        entries.append(Entry(deadline: deadline, sequence: nextSequence, token: token, work: work))
        nextSequence &+= 1
        siftUp(entries.count - 1)
    }

    /// Removes and returns the earliest entry if its deadline is at or before `now`.
    mutating func popDue(now: UInt64) -> Entry? {
        guard let first = entries.first, first.deadline <= now else { return nil }
        let last = entries.removeLast()
        if !entries.isEmpty {
            entries[0] = last
            siftDown(0)
        }
        return first
    }

    mutating func removeAll() {
        entries.removeAll()
    }

    /// Drops the entries `shouldRemove` picks and restores the heap in one O(n) pass.
    mutating func removeAll(where shouldRemove: (Entry) -> Bool) {
        entries.removeAll(where: shouldRemove)
        var parent = entries.count / 2
        while parent > 0 {
            parent -= 1
            siftDown(parent)
        }
    }

    private mutating func siftUp(_ start: Int) {
        var child = start
        while child > 0 {
            let parent = (child - 1) / 2
            guard entries[child].precedes(entries[parent]) else { return }
            entries.swapAt(child, parent)
            child = parent
        }
    }

    private mutating func siftDown(_ start: Int) {
        var parent = start
        while true {
            let left = 2 * parent + 1
            guard left < entries.count else { return }
            let right = left + 1
            var smallest = left
            if right < entries.count, entries[right].precedes(entries[left]) { smallest = right }
            guard entries[smallest].precedes(entries[parent]) else { return }
            entries.swapAt(parent, smallest)
            parent = smallest
        }
    }
}
