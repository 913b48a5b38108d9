import Synchronization
import Testing

@testable import HomeDaemon

@Suite("MemoryRelief", .timeLimit(.minutes(1)))
struct MemoryReliefTests {
    /// Counts trims and lets a test wait for the next one.
    final class Trims: Sendable {
        private let state = Mutex<(count: Int, waiters: [Int: CheckedContinuation<Void, Never>], next: Int)>(
            (0, [:], 0)
        )

        var count: Int { state.withLock { $0.count } }

        func record() {
            let waiters = state.withLock { state in
                state.count += 1
                defer { state.waiters = [:] }
                return state.waiters
            }
            for waiter in waiters.values { waiter.resume() }
        }

        /// Returns once at least `count` trims have run, or when the test's task is cancelled
        /// (its time limit): a relief that never trims fails the test instead of hanging it.
        func wait(for count: Int) async {
            while self.count < count, !Task.isCancelled {
                let id = state.withLock { state in
                    state.next += 1
                    return state.next
                }
                await withTaskCancellationHandler {
                    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                        let done = state.withLock { state -> Bool in
                            if state.count >= count || Task.isCancelled { return true }
                            state.waiters[id] = continuation
                            return false
                        }
                        if done { continuation.resume() }
                    }
                } onCancel: {
                    state.withLock { $0.waiters.removeValue(forKey: id) }?.resume()
                }
            }
        }
    }

    /// The quiet period, ended by the test instead of a clock: a sleep returns once the gate is
    /// open, and throws as `Task.sleep` does when its task is cancelled, before or while waiting.
    final class Gate: Sendable {
        private let state = Mutex<(open: Bool, sleepers: [Int: CheckedContinuation<Void, Never>], next: Int)>(
            (false, [:], 0)
        )

        func open() {
            let sleepers = state.withLock { state in
                state.open = true
                defer { state.sleepers = [:] }
                return state.sleepers
            }
            for sleeper in sleepers.values { sleeper.resume() }
        }

        @Sendable func sleep(_ duration: Duration) async throws {
            let id = state.withLock { state in
                state.next += 1
                return state.next
            }
            await withTaskCancellationHandler {
                await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                    let wake = state.withLock { state -> Bool in
                        if state.open || Task.isCancelled { return true }
                        state.sleepers[id] = continuation
                        return false
                    }
                    if wake { continuation.resume() }
                }
            } onCancel: {
                state.withLock { $0.sleepers.removeValue(forKey: id) }?.resume()
            }
            try Task.checkCancellation()
        }
    }

    /// The relief under test, for its own sleep or trim to report work that ends meanwhile.
    final class Reentry: Sendable {
        private let relief = Mutex<MemoryRelief?>(nil)

        func hold(_ relief: MemoryRelief) { self.relief.withLock { $0 = relief } }

        func workHappened() { relief.withLock { $0 }?.workHappened() }

        /// Lets the relief go: its closures hold this, and this held it.
        func letGo() { relief.withLock { $0 = nil } }
    }

    @Test("a burst of work is trimmed once, after it goes quiet")
    func burst() async {
        let trims = Trims()
        let gate = Gate()
        let relief = MemoryRelief(sleep: gate.sleep) { trims.record() }
        for _ in 0..<10 { relief.workHappened() }
        // One relief waits while the gate is shut, whatever the number of calls.
        gate.open()
        await trims.wait(for: 1)
        await relief.stop()
        #expect(trims.count == 1)
    }

    @Test("work during the quiet period makes the relief wait a whole period more, then trim once")
    func workDuringTheWait() async {
        let trims = Trims()
        let sleeps = Mutex(0)
        let reentry = Reentry()
        let relief = MemoryRelief(
            sleep: { _ in
                let count = sleeps.withLock { count in
                    count += 1
                    return count
                }
                // Work arrives while the first period runs.
                if count == 1 { reentry.workHappened() }
            },
            trim: { trims.record() }
        )
        reentry.hold(relief)
        relief.workHappened()
        await trims.wait(for: 1)
        await relief.stop()
        reentry.letGo()
        #expect(sleeps.withLock { $0 } == 2)
        #expect(trims.count == 1)
    }

    @Test("work during the trim is trimmed after a quiet period of its own, by the same relief")
    func workDuringTheTrim() async {
        let trims = Trims()
        let sleeps = Mutex(0)
        let reentry = Reentry()
        let relief = MemoryRelief(
            sleep: { _ in sleeps.withLock { $0 += 1 } },
            trim: {
                // Work ends while the first trim runs.
                if trims.count == 0 { reentry.workHappened() }
                trims.record()
            }
        )
        reentry.hold(relief)
        relief.workHappened()
        await trims.wait(for: 2)
        await relief.stop()
        reentry.letGo()
        #expect(sleeps.withLock { $0 } == 2)
        #expect(trims.count == 2)
    }

    @Test("work after a trim is trimmed again")
    func again() async {
        let trims = Trims()
        let gate = Gate()
        gate.open()
        let relief = MemoryRelief(sleep: gate.sleep) { trims.record() }
        relief.workHappened()
        await trims.wait(for: 1)
        relief.workHappened()
        await trims.wait(for: 2)
        await relief.stop()
        #expect(trims.count == 2)
    }

    @Test("stop cancels the pending relief and schedules no more")
    func stop() async {
        let trims = Trims()
        let gate = Gate()
        let released = Mutex(0)
        let relief = MemoryRelief(
            sleep: gate.sleep,
            releaseCaches: { released.withLock { $0 += 1 } },
            trim: { trims.record() }
        )
        relief.workHappened()
        // stop() returns once the pending relief has ended: cancelled in its quiet period.
        await relief.stop()
        gate.open()
        relief.workHappened()
        await relief.stop()
        #expect(trims.count == 0)
        #expect(released.withLock { $0 } == 0)
    }

    @Test("the default quiet period is a real sleep: a relief runs its caches, then the trim")
    func realSleep() async {
        let trims = Trims()
        let order = Mutex<[String]>([])
        let relief = MemoryRelief(
            delay: .milliseconds(1),
            releaseCaches: { order.withLock { $0.append("caches") } },
            trim: {
                order.withLock { $0.append("trim") }
                trims.record()
            }
        )
        relief.workHappened()
        await trims.wait(for: 1)
        await relief.stop()
        #expect(order.withLock { $0 } == ["caches", "trim"])
    }
}
