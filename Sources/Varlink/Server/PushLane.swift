/// The event loop's lane for replies of streaming calls: first in, first out, worked through a
/// slice at a time (``EventLoop``). A fan-out of a thousand pushes then delays anything else
/// the loop has to do by one slice, not by the whole fan-out.
///
/// Generic so that its order and its slices can be tested with plain values. Loop thread only.
struct PushLane<Element> {
    /// Pushes written before the loop looks at its other work again: 64 writes of a manifest
    /// take ~0.2 ms here, a delay a caller does not notice; the extra `epoll_wait` per slice
    /// costs ~1 µs.
    static var sliceLength: Int { 64 }

    /// Taken pushes are cleared (nil) at once: a delivery holds its connection and its bytes,
    /// which must not outlive their write while a steady fan-out keeps the lane from emptying.
    private var items: [Element?] = []
    private var head = 0

    var isEmpty: Bool { head == items.count }

    /// Pushes waiting.
    var count: Int { items.count - head }

    mutating func append(_ element: Element) {
        // Under a steady flow the front fills with cleared slots: drop them once they are
        // most of the array, so its length follows what waits, not what passed.
        if head >= 1024, head * 2 >= items.count {
            items.removeFirst(head)
            head = 0
        }
        items.append(element)
    }

    /// Appends every push of `arrivals` in order: the array itself becomes the lane's storage
    /// when the lane is empty, so a fan-out handed over whole costs no copy.
    ///
    /// - Returns: an empty array to reuse for the next arrivals (the lane's previous storage).
    mutating func append(contentsOf arrivals: [Element?]) -> [Element?] {
        var arrivals = arrivals
        if isEmpty {
            swap(&arrivals, &items)
            head = 0
        } else {
            for case let element? in arrivals { append(element) }
        }
        arrivals.removeAll(keepingCapacity: arrivals.capacity <= 4096)
        return arrivals
    }

    /// Puts `elements` back at the front, in their order, ahead of everything waiting: pushes a
    /// fan-out took and did not write, to be taken again first.
    mutating func prepend(contentsOf elements: some Collection<Element>) {
        let count = elements.count
        guard count > 0 else { return }
        if head >= count {
            // Into the cleared slots just before the head: no element moves.
            head -= count
            var index = head
            for element in elements {
                items[index] = element
                index += 1
            }
        } else {
            items.replaceSubrange(0..<head, with: elements.map { Optional($0) })
            head = 0
        }
    }

    /// Takes the oldest push. The storage is reused once the lane is empty, so a steady
    /// fan-out allocates nothing; a burst's array is let go when it was unusually large.
    mutating func popFirst() -> Element? {
        guard head < items.count else { return nil }
        // Moved out, not copied and cleared: a push's connection and bytes are not retained
        // and released again for each of a fan-out's thousand deliveries.
        let element = items[head].take()
        head += 1
        if head == items.count {
            items.removeAll(keepingCapacity: items.capacity <= 4096)
            head = 0
        }
        return element
    }

    /// Slots still held by the lane, taken ones included (for tests: what it keeps alive).
    var storedCount: Int { items.count }
}
