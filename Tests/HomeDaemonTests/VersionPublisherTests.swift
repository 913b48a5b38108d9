import HomeStore
import Synchronization
import Testing

@testable import HomeDaemon

/// The version path without a store: a hand-stepped version maker shows what the publisher
/// coalesces, holds, and finishes.
@Suite(.timeLimit(.minutes(1)))
struct VersionPublisherTests {
    /// Makes version `n` on its `n`th call, but only once the test lets that call go; the calls
    /// in `failing` fail instead.
    actor SteppedMaker {
        private(set) var calls = 0
        private let failing: Set<Int>
        private let unsolvable: Set<Int>
        private var started: [(call: Int, continuation: CheckedContinuation<Void, Never>)] = []
        private var gate: CheckedContinuation<Void, Never>?
        /// Set when the test is cancelled: no call waits any more.
        private var isOpen = false

        /// - Parameter unsolvable: calls that fail as a layout that cannot lay out the content.
        init(failing: Set<Int> = [], unsolvable: Set<Int> = []) {
            self.failing = failing
            self.unsolvable = unsolvable
        }

        func make() async -> Result<Int, ServiceError> {
            calls += 1
            let call = calls
            for waiter in started where waiter.call <= call { waiter.continuation.resume() }
            started.removeAll { $0.call <= call }
            if !isOpen { await withCheckedContinuation { gate = $0 } }
            if failing.contains(call) {
                return .failure(.storeUnavailable(StoreError(kind: .sqlite(.busy), message: "database is locked")))
            }
            if unsolvable.contains(call) {
                return .failure(
                    .contentNotLaidOut(ConfigError(file: "layout.json", key: "sections[3]", reason: "budget"))
                )
            }
            return .success(call)
        }

        /// Returns once call `n` has started (and waits to be let go), or the test is cancelled
        /// (its time limit: a call that never comes fails the test instead of hanging it).
        func waitForCall(_ n: Int) async {
            await withTaskCancellationHandler {
                if calls >= n || Task.isCancelled { return }
                await withCheckedContinuation { started.append((n, $0)) }
            } onCancel: {
                Task { await self.endWaits() }
            }
        }

        private func endWaits() {
            isOpen = true
            for waiter in started { waiter.continuation.resume() }
            started = []
            letGo()
        }

        func letGo() {
            gate?.resume()
            gate = nil
        }
    }

    @Test("changes made while a version is being made are covered by one next version")
    func coalescing() async {
        let publisher = VersionPublisher()
        let maker = SteppedMaker()
        let running = Task { await publisher.run { await maker.make() } }
        var versions = publisher.versions().makeAsyncIterator()
        publisher.request()
        await maker.waitForCall(1)
        publisher.request()
        publisher.request()
        publisher.request()
        async let waited = publisher.awaitPublished()
        await maker.letGo()
        await maker.waitForCall(2)
        await maker.letGo()
        #expect(await waited == nil)
        // 4 requests, 2 versions: the one in flight, then one for the three made meanwhile.
        #expect(await maker.calls == 2)
        // The stream was not read meanwhile: it holds the newest version only.
        #expect(await versions.next() == 2)
        publisher.finish()
        await running.value
        #expect(await versions.next() == nil)
    }

    @Test("finish lets the version in flight complete; then waits fail and the streams end")
    func finishWaitsForTheVersionInFlight() async {
        let publisher = VersionPublisher()
        let maker = SteppedMaker()
        let running = Task { await publisher.run { await maker.make() } }
        var versions = publisher.versions().makeAsyncIterator()
        publisher.request()
        await maker.waitForCall(1)
        publisher.finish()
        await maker.letGo()
        await running.value
        // The version in flight was made and told, not cut off.
        #expect(await versions.next() == 1)
        #expect(await versions.next() == nil)
        #expect(await maker.calls == 1)
        // No more versions after the finish: a caller asking for one is told so.
        #expect(await publisher.publish() != nil)
        #expect(publisher.subscriberCount == 0)
    }

    @Test("changes counted while held are published in one version on release")
    func hold() async {
        let publisher = VersionPublisher(held: true)
        let maker = SteppedMaker()
        let running = Task { await publisher.run { await maker.make() } }
        var versions = publisher.versions().makeAsyncIterator()
        publisher.request()
        publisher.request()
        publisher.release()
        await maker.waitForCall(1)
        await maker.letGo()
        #expect(await versions.next() == 1)
        #expect(await publisher.awaitPublished() == nil)
        #expect(await maker.calls == 1)
        publisher.finish()
        await running.value
    }

    @Test("a failed version is made again with no new change, after a delay that doubles while it fails")
    func retry() async {
        // The delay is a millisecond per failure in a row: the test waits for calls, not time.
        let publisher = VersionPublisher(retryDelay: { .milliseconds($0) })
        let maker = SteppedMaker(failing: [1, 2, 4])
        let delays = Mutex<[Duration?]>([])
        let running = Task {
            await publisher.run(
                making: { await maker.make() },
                failed: { _, delay in delays.withLock { $0.append(delay) } }
            )
        }
        var versions = publisher.versions().makeAsyncIterator()
        async let first = publisher.publish()
        await maker.waitForCall(1)
        await maker.letGo()
        // The caller is told; the change stays pending.
        #expect(await first != nil)
        // Nothing else asks: the retries make calls 2 (failing again) and 3.
        await maker.waitForCall(2)
        await maker.letGo()
        await maker.waitForCall(3)
        await maker.letGo()
        #expect(await maker.calls == 3)
        #expect(await versions.next() == 3)
        #expect(await publisher.awaitPublished() == nil)
        // A success ends the run of failures: the next failure waits the first delay again.
        async let fourth = publisher.publish()
        await maker.waitForCall(4)
        await maker.letGo()
        #expect(await fourth != nil)
        await maker.waitForCall(5)
        await maker.letGo()
        #expect(await versions.next() == 5)
        #expect(delays.withLock { $0 } == [.milliseconds(1), .milliseconds(2), .milliseconds(1)])
        publisher.finish()
        await running.value
    }

    @Test("a layout that cannot lay out the content waits for a change, and does not lengthen the store's retry delay")
    func unsolvableWaitsForChange() async {
        let publisher = VersionPublisher(retryDelay: { .milliseconds($0) })
        let maker = SteppedMaker(failing: [2], unsolvable: [1])
        let delays = Mutex<[Duration?]>([])
        let running = Task {
            await publisher.run(
                making: { await maker.make() },
                failed: { _, delay in delays.withLock { $0.append(delay) } }
            )
        }
        var versions = publisher.versions().makeAsyncIterator()
        async let first = publisher.publish()
        await maker.waitForCall(1)
        await maker.letGo()
        #expect(await first != nil)
        // No retry on a timer: the next call is the next change's, a store failure whose
        // delay is the first one, as after a success.
        async let second = publisher.publish()
        await maker.waitForCall(2)
        await maker.letGo()
        #expect(await second != nil)
        await maker.waitForCall(3)
        await maker.letGo()
        #expect(await versions.next() == 3)
        #expect(delays.withLock { $0 } == [nil, .milliseconds(1)])
        publisher.finish()
        await running.value
    }

    @Test("the retry delay is 1 s, doubling with each failure in a row, at most 60 s")
    func retryDelays() {
        #expect(
            (1...8).map { VersionPublisher.retryDelay(afterFailures: $0) }
                == [1, 2, 4, 8, 16, 32, 60, 60].map { Duration.seconds($0) }
        )
    }
}
