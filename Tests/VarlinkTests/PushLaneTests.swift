import Testing

@testable import Varlink

/// The event loop's lane for replies of streaming calls (``PushLane``).
@Suite struct PushLaneTests {
    @Test("pushes leave in the order they came, however they interleave with arrivals")
    func order() {
        var lane = PushLane<Int>()
        #expect(lane.isEmpty && lane.popFirst() == nil)
        for n in 0..<100 { lane.append(n) }
        var taken: [Int] = []
        // Taken a slice at a time while more arrive, as the loop does.
        for n in 100..<150 {
            for _ in 0..<PushLane<Int>.sliceLength / 2 { if let next = lane.popFirst() { taken.append(next) } }
            lane.append(n)
        }
        while let next = lane.popFirst() { taken.append(next) }
        #expect(taken == Array(0..<150))
        #expect(lane.isEmpty && lane.count == 0)
    }

    @Test("pushes put back go first, in their order, whether the lane has room before its head or not")
    func putBack() {
        var lane = PushLane<Int>()
        for n in 0..<10 { lane.append(n) }
        let taken = (0..<4).compactMap { _ in lane.popFirst() }
        // Room before the head: four cleared slots for three.
        lane.prepend(contentsOf: taken[1...])
        lane.prepend(contentsOf: [Int]())
        #expect(lane.count == 9)
        var order: [Int] = []
        order += (0..<2).compactMap { _ in lane.popFirst() }
        // No room: two slots cleared, five put back.
        lane.prepend(contentsOf: [100, 101, 102, 103, 104])
        while let next = lane.popFirst() { order.append(next) }
        #expect(order == [1, 2, 100, 101, 102, 103, 104, 3, 4, 5, 6, 7, 8, 9])
        // Into an emptied lane.
        lane.prepend(contentsOf: [7, 8])
        #expect(lane.popFirst() == 7 && lane.popFirst() == 8 && lane.isEmpty)
    }

    @Test("a lane that never empties lets go of what it handed out")
    func steadyFlow() {
        final class Box {}
        var lane = PushLane<Box>()
        weak var first: Box?
        do {
            let box = Box()
            first = box
            lane.append(box)
        }
        lane.append(Box())
        _ = lane.popFirst()
        // Taken, with another still waiting: the lane no longer holds it.
        #expect(first == nil)
        // 100 000 pass through while 10 always wait: the storage follows the 10.
        for _ in 0..<10 { lane.append(Box()) }
        for _ in 0..<100_000 {
            lane.append(Box())
            _ = lane.popFirst()
        }
        #expect(lane.count == 11)
        #expect(lane.storedCount < 3_000)
    }

    @Test("an emptied lane starts again from the front of the same storage")
    func reuse() {
        var lane = PushLane<Int>()
        for n in 0..<10 { lane.append(n) }
        #expect(lane.count == 10)
        for _ in 0..<10 { _ = lane.popFirst() }
        lane.append(42)
        #expect(lane.count == 1)
        #expect(lane.popFirst() == 42)
        #expect(lane.popFirst() == nil)
    }

    @Test("arrivals handed over whole keep their order behind what waits, and an empty lane takes them as they are")
    func arrivals() {
        var lane = PushLane<Int>()
        // Empty: the arrivals become the lane; what comes back is empty, to reuse.
        var spare = lane.append(contentsOf: [0, 1, 2])
        #expect(spare.isEmpty)
        #expect(lane.count == 3 && lane.storedCount == 3)
        #expect(lane.popFirst() == 0)
        // Not empty: appended behind the two still waiting.
        spare = lane.append(contentsOf: [3, 4])
        #expect(spare.isEmpty)
        lane.append(5)
        var taken: [Int] = []
        while let next = lane.popFirst() { taken.append(next) }
        #expect(taken == [1, 2, 3, 4, 5])
        #expect(lane.append(contentsOf: []).isEmpty && lane.isEmpty)
    }
}
