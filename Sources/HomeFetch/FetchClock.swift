public import FoundationEssentials

/// The scheduler's notion of time: wall-clock instants, because they are persisted and shown
/// in `GetStatus`.
///
/// Injected so tests drive the scheduler with a manual clock instead of sleeping. Network
/// timeouts inside one fetch are not scheduler time and always run on real time.
public protocol FetchClock: Sendable {
    /// The current instant.
    func now() -> Date
    /// Suspends for the span from `now()` to `deadline`, or throws `CancellationError` when the
    /// task is cancelled. A step of the wall clock meanwhile moves the end by the step, as a
    /// sleep on the real clock does.
    func sleep(until deadline: Date) async throws
}

/// The real clock: `Date()` and `Task.sleep`.
///
/// A sleep is a span of monotonic time: a wall-clock step (suspend, NTP correcting a clock
/// that booted wrong) makes it end early or late by the step. The scheduler therefore never
/// sleeps longer than `FetchScheduler.maximumSleep` and re-reads `now()` every time it wakes.
/// Sendable: stateless.
public struct SystemFetchClock: FetchClock {
    public init() {}

    public func now() -> Date { Date() }

    public func sleep(until deadline: Date) async throws {
        let seconds = deadline.timeIntervalSinceNow
        guard seconds > 0 else { return }
        try await Task.sleep(for: .milliseconds(Int64((seconds * 1000).rounded(.up))))
    }
}
