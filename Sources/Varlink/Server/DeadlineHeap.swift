/// The event loop's timers: work to run at a monotonic deadline, earliest first.
///
/// A binary min-heap ordered by deadline, then by scheduling order, so two timers for the same
/// nanosecond run in the order they were scheduled. Timers are never cancelled: an owner whose
/// deadline moved ignores the stale call (``Connection`` compares the deadline it armed), which
/// keeps every operation O(log n) without an index of entries.
///
/// Not thread-safe: owned by one ``EventLoop`` and touched only on its thread.
struct DeadlineHeap {
    struct Entry {
        var deadline: UInt64
        var sequence: UInt64
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

    mutating func schedule(at deadline: UInt64, _ work: @escaping () -> Void) {
        entries.append(Entry(deadline: deadline, sequence: nextSequence, work: work))
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
