import Synchronization
import Testing

@testable import HomeDaemon

/// The start-up's `EXTEND_TIMEOUT_USEC=`: sent at once, again while the step runs, never after it.
@Suite struct StartTimeoutExtensionTests {
    struct Failed: Error {}

    /// Runs `during` with a 10 ms period around a step that waits for the third message (and
    /// fails when `throwing`); returns the messages sent when `during` has ended and 20 periods
    /// later.
    func run(throwing: Bool) async -> (atEnd: Int, later: Int, threw: Bool) {
        let sent = Atomic(0)
        var threw = false
        let step = { () async throws(Failed) in
            // Bounded: the test fails on the count below rather than hanging.
            for _ in 0..<2_000 where sent.load(ordering: .relaxed) < 3 {
                try? await Task.sleep(for: .milliseconds(5))
            }
            if throwing { throw Failed() }
        }
        do {
            try await StartTimeoutExtension.during(
                every: .milliseconds(10),
                send: { sent.add(1, ordering: .relaxed) },
                step
            )
        } catch {
            threw = true
        }
        let atEnd = sent.load(ordering: .relaxed)
        try? await Task.sleep(for: .milliseconds(200))
        return (atEnd, sent.load(ordering: .relaxed), threw)
    }

    @Test("more than one extension while the step runs, none once it has returned")
    func resendsUntilReturned() async {
        let outcome = await run(throwing: false)
        #expect(outcome.atEnd >= 3)
        #expect(outcome.later == outcome.atEnd)
        #expect(!outcome.threw)
    }

    @Test("a step that throws ends the extensions too, and its error comes through")
    func resendsUntilThrown() async {
        let outcome = await run(throwing: true)
        #expect(outcome.atEnd >= 3)
        #expect(outcome.later == outcome.atEnd)
        #expect(outcome.threw)
    }
}
