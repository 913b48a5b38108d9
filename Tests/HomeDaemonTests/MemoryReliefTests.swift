import Synchronization
import Testing

@testable import HomeDaemon

@Suite("MemoryRelief")
struct MemoryReliefTests {
    /// Counts trims and lets a test wait for the next one.
    final class Trims: Sendable {
        private let state = Mutex<(count: Int, waiters: [CheckedContinuation<Void, Never>])>((0, []))

        var count: Int { state.withLock { $0.count } }

        func record() {
            let waiters = state.withLock { state in
                state.count += 1
                defer { state.waiters = [] }
                return state.waiters
            }
            for waiter in waiters { waiter.resume() }
        }

        /// Returns once at least `count` trims have run.
        func wait(for count: Int) async {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let done = state.withLock { state -> Bool in
                    if state.count >= count { return true }
                    state.waiters.append(continuation)
                    return false
                }
                if done { continuation.resume() }
            }
            if self.count < count { await wait(for: count) }
        }
    }

    @Test("a burst of work is trimmed once, after it goes quiet")
    func burst() async {
        let trims = Trims()
        let relief = MemoryRelief(delay: .milliseconds(20)) { trims.record() }
        for _ in 0..<10 { relief.workHappened() }
        await trims.wait(for: 1)
        // The ten scheduled checks run in order on one serial queue; the trim came from the
        // last, so the nine before it had already run and found newer work: exactly one trim.
        #expect(trims.count == 1)
    }

    @Test("work after a trim is trimmed again")
    func again() async {
        let trims = Trims()
        let relief = MemoryRelief(delay: .milliseconds(1)) { trims.record() }
        relief.workHappened()
        await trims.wait(for: 1)
        relief.workHappened()
        await trims.wait(for: 2)
        #expect(trims.count == 2)
    }
}
