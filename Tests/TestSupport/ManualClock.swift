public import Foundation
public import HomeFetch
import Synchronization

/// A clock the test moves by hand (style.md §3.7: scheduler tests never sleep).
///
/// Sendable: the time and the sleepers are behind a `Mutex`; sleepers are resumed outside it.
public final class ManualClock: FetchClock {
    private struct Sleeper {
        var id: Int
        var deadline: Date
        var continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var now: Date
        var sleepers: [Sleeper] = []
        var nextID = 0
    }

    private let state: Mutex<State>

    /// 2033-05-18 03:33:20 UTC: far from any real clock, so no test passes by accident.
    public static let defaultStart = Date(timeIntervalSince1970: 2_000_000_000)

    public init(_ start: Date = ManualClock.defaultStart) {
        state = Mutex(State(now: start))
    }

    public func now() -> Date { state.withLock { $0.now } }

    public func sleep(until deadline: Date) async throws {
        let id = state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                enum Decision { case now, wait, cancelled }
                let decision = state.withLock { state -> Decision in
                    if Task.isCancelled { return .cancelled }
                    if deadline <= state.now { return .now }
                    state.sleepers.append(Sleeper(id: id, deadline: deadline, continuation: continuation))
                    return .wait
                }
                switch decision {
                case .now: continuation.resume()
                case .cancelled: continuation.resume(throwing: CancellationError())
                case .wait: break
                }
            }
        } onCancel: {
            let sleeper = state.withLock { state -> Sleeper? in
                guard let index = state.sleepers.firstIndex(where: { $0.id == id }) else { return nil }
                return state.sleepers.remove(at: index)
            }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Returns once at least `count` tasks sleep on this clock; polls. A test that steps the
    /// clock waits for the sleep it means to step past.
    public func waitForSleepers(_ count: Int = 1) async throws {
        while state.withLock({ $0.sleepers.count }) < count {
            try await Task.sleep(for: .milliseconds(5))
        }
    }

    /// Moves time to `date` and wakes every sleeper whose deadline has come.
    public func advance(to date: Date) {
        let due = state.withLock { state -> [Sleeper] in
            state.now = max(state.now, date)
            let now = state.now
            let due = state.sleepers.filter { $0.deadline <= now }
            state.sleepers.removeAll { $0.deadline <= now }
            return due
        }
        for sleeper in due { sleeper.continuation.resume() }
    }

    public func advance(by seconds: Double) {
        advance(to: now().addingTimeInterval(seconds))
    }

    /// Steps the wall clock by `seconds`, forward or back, as NTP correcting a wrong clock
    /// does: time jumps, and every sleeper keeps the span it had left (a sleep on the real
    /// clock is a span of monotonic time, `SystemFetchClock`), so nobody wakes.
    public func step(by seconds: Double) {
        state.withLock { state in
            state.now = state.now.addingTimeInterval(seconds)
            for index in state.sleepers.indices {
                state.sleepers[index].deadline = state.sleepers[index].deadline.addingTimeInterval(seconds)
            }
        }
    }
}
