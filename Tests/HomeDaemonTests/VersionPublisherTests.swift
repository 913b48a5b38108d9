import Testing

@testable import HomeDaemon

/// The version path without a store: a hand-stepped version maker shows what the publisher
/// coalesces, holds, and finishes.
@Suite(.timeLimit(.minutes(1)))
struct VersionPublisherTests {
    /// Makes version `n` on its `n`th call, but only once the test lets that call go.
    actor SteppedMaker {
        private(set) var calls = 0
        private var started: [(call: Int, continuation: CheckedContinuation<Void, Never>)] = []
        private var gate: CheckedContinuation<Void, Never>?

        func make() async -> Result<Int, ServiceError> {
            calls += 1
            let call = calls
            for waiter in started where waiter.call <= call { waiter.continuation.resume() }
            started.removeAll { $0.call <= call }
            await withCheckedContinuation { gate = $0 }
            return .success(call)
        }

        /// Returns once call `n` has started (and waits to be let go).
        func waitForCall(_ n: Int) async {
            if calls >= n { return }
            await withCheckedContinuation { started.append((n, $0)) }
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
}
