import Foundation
import HomeFetch
import TestSupport
import Testing

/// The schedule is wall-clock time, and the wall clock gets stepped: a machine that booted
/// with its clock behind or ahead is corrected by NTP later. `ManualClock.step(by:)` steps it
/// as that does, leaving sleepers their span, so these tests see what the real clock does.
@Suite(.timeLimit(.minutes(1)))
struct ClockStepTests {
    private static let day = 86_400.0
    private static let year = 365 * day

    /// No jitter; the longest wait is `maximumInterval` and `maximumRetryAfter`, a day.
    private static func configuration(jitter: Double = 0) -> FetchSchedulerConfiguration {
        FetchSchedulerConfiguration(
            defaultInterval: 1800,
            minimumInterval: 300,
            maximumInterval: day,
            jitter: jitter,
            backoffBase: 60,
            backoffCap: 3600,
            maximumRetryAfter: day,
            limits: FetchTesting.quickLimits()
        )
    }

    private func scheduler(
        _ url: String,
        states: [SourceFetchState] = [],
        clock: ManualClock,
        recorder: Recorder,
        configuration: FetchSchedulerConfiguration = configuration()
    ) -> FetchScheduler {
        FetchScheduler(
            sources: [FeedSource(url: url, kind: .notices)],
            states: states,
            fetcher: FetchTesting.fetcher,
            sink: recorder,
            persistence: recorder,
            clock: clock,
            configuration: configuration,
            jitterSeed: 1
        )
    }

    /// Returns once `condition` holds; polls, so the suite's time limit ends a wait for what
    /// never comes.
    private func until(_ condition: () async -> Bool) async throws {
        while await !condition() {
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    @Test("a clock stepped forward past a source's time has it fetched within a minute")
    func steppedForward() async throws {
        let url = try await FixtureServer.shared.value.url("/feed/\(FetchTesting.key())?noval=1")
        let clock = ManualClock()
        let recorder = Recorder()
        let scheduler = scheduler(url, clock: clock, recorder: recorder)
        let runner = Task { await scheduler.run() }
        defer { runner.cancel() }
        await recorder.waitForStates(1)
        #expect(await scheduler.state(for: url)?.nextAttempt == FetchTesting.start.addingTimeInterval(1800))
        try await clock.waitForSleepers()

        // The source is overdue at once, but a sleep taken before the step runs its span.
        clock.step(by: 2 * Self.day)
        clock.advance(by: FetchScheduler.maximumSleep)
        try await until { await recorder.states.count == 2 }
        let expected = FetchTesting.start.addingTimeInterval(2 * Self.day + FetchScheduler.maximumSleep)
        #expect(await recorder.states.last?.lastAttempt == expected)
    }

    @Test("a clock stepped back a year holds a source for at most the longest wait, not the year")
    func steppedBack() async throws {
        let url = try await FixtureServer.shared.value.url("/feed/\(FetchTesting.key())?noval=1")
        let clock = ManualClock()
        let recorder = Recorder()
        let scheduler = scheduler(url, clock: clock, recorder: recorder)
        let runner = Task { await scheduler.run() }
        defer { runner.cancel() }
        await recorder.waitForStates(1)
        try await clock.waitForSleepers()

        // The first fetch ran while the clock was a year ahead; NTP steps it back.
        clock.step(by: -Self.year)
        clock.advance(by: FetchScheduler.maximumSleep)
        let woke = FetchTesting.start.addingTimeInterval(-Self.year + FetchScheduler.maximumSleep)
        let pulledIn = woke.addingTimeInterval(Self.day)
        try await until { await scheduler.state(for: url)?.nextAttempt == pulledIn }
        clock.advance(to: pulledIn)
        try await until { await recorder.states.count == 2 }
        #expect(await recorder.states.last?.lastAttempt == pulledIn)
        #expect(await scheduler.state(for: url)?.nextAttempt == pulledIn.addingTimeInterval(1800))
    }

    @Test(
        "a saved next attempt beyond the longest wait (with jitter) is pulled in at start-up; a nearer one is kept",
        arguments: [0, 0.1]
    )
    func savedFarAhead(_ jitter: Double) async throws {
        let far = "https://far.example/feed"
        let near = "https://near.example/feed"
        let soon = FetchTesting.start.addingTimeInterval(900)
        let scheduler = FetchScheduler(
            sources: [FeedSource(url: far, kind: .notices), FeedSource(url: near, kind: .notices)],
            states: [
                SourceFetchState(url: far, nextAttempt: FetchTesting.start.addingTimeInterval(10 * Self.year)),
                SourceFetchState(url: near, nextAttempt: soon),
            ],
            fetcher: FetchTesting.fetcher,
            sink: Recorder(),
            persistence: Recorder(),
            clock: ManualClock(),
            configuration: Self.configuration(jitter: jitter)
        )
        let horizon = Self.day * (1 + jitter)
        #expect(await scheduler.state(for: far)?.nextAttempt == FetchTesting.start.addingTimeInterval(horizon))
        #expect(await scheduler.state(for: near)?.nextAttempt == soon)
    }
}
