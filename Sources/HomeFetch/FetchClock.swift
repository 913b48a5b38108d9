public import FoundationEssentials

/// The scheduler's notion of time: wall-clock instants, because they are persisted and shown
/// in `GetStatus`.
///
/// Injected so tests drive the scheduler with a manual clock instead of sleeping. Network
/// timeouts inside one fetch are not scheduler time and always run on real time.
public protocol FetchClock: Sendable {
    /// The current instant.
    func now() -> Date
    /// Suspends until `now() >= deadline`, or throws `CancellationError` when the task is
    /// cancelled.
    func sleep(until deadline: Date) async throws
}

/// The real clock: `Date()` and `Task.sleep`.
///
/// A wall-clock jump (suspend, NTP step) only makes one sleep end early or late; the
/// scheduler re-reads `now()` every time it wakes. Sendable: stateless.
public struct SystemFetchClock: FetchClock {
    public init() {}

    public func now() -> Date { Date() }

    public func sleep(until deadline: Date) async throws {
        let seconds = deadline.timeIntervalSinceNow
        guard seconds > 0 else { return }
        try await Task.sleep(for: .milliseconds(Int64((seconds * 1000).rounded(.up))))
    }
}
