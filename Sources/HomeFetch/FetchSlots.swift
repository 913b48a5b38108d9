import Synchronization

/// Admission control for fetches: at most `limit` at once, and at most one per host.
///
/// Waiters are served in arrival order, skipping those whose host is busy, so a slow host
/// delays only its own sources. Cancelling a waiting task removes it and throws
/// `CancellationError`.
///
/// Sendable: all state is behind a `Mutex`; continuations are resumed outside the lock.
final class FetchSlots: Sendable {
    private struct Waiter {
        var id: UInt64
        var host: String?
        var continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var active = 0
        var busyHosts: Set<String> = []
        var waiters: [Waiter] = []
        var nextID: UInt64 = 0

        func canStart(_ host: String?, limit: Int) -> Bool {
            guard active < limit else { return false }
            guard let host else { return true }
            return !busyHosts.contains(host)
        }

        mutating func start(_ host: String?) {
            active += 1
            if let host { busyHosts.insert(host) }
        }
    }

    private let limit: Int
    private let state = Mutex(State())

    /// - Parameter limit: the most fetches at once, at least 1.
    init(limit: Int) {
        self.limit = max(1, limit)
    }

    /// Waits for a slot. `host` is nil for sources without one (`file:`), which only count
    /// against the global limit.
    func acquire(host: String?) async throws {
        let id = state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                enum Decision { case go, wait, cancelled }
                let decision = state.withLock { state -> Decision in
                    if Task.isCancelled { return .cancelled }
                    if state.canStart(host, limit: limit) {
                        state.start(host)
                        return .go
                    }
                    state.waiters.append(Waiter(id: id, host: host, continuation: continuation))
                    return .wait
                }
                switch decision {
                case .go: continuation.resume()
                case .cancelled: continuation.resume(throwing: CancellationError())
                case .wait: break
                }
            }
        } onCancel: {
            let waiter = state.withLock { state -> Waiter? in
                guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
                return state.waiters.remove(at: index)
            }
            waiter?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Gives a slot back and starts whichever waiters can now run.
    func release(host: String?) {
        let ready = state.withLock { state -> [Waiter] in
            state.active -= 1
            if let host { state.busyHosts.remove(host) }
            var ready: [Waiter] = []
            var index = 0
            while index < state.waiters.count {
                let waiter = state.waiters[index]
                if state.canStart(waiter.host, limit: limit) {
                    state.start(waiter.host)
                    ready.append(state.waiters.remove(at: index))
                } else {
                    index += 1
                }
            }
            return ready
        }
        for waiter in ready { waiter.continuation.resume() }
    }
}
