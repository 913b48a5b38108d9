import Foundation

/// Runs blocking work (a process, socket reads, a wait for a datagram) on a thread of its own
/// and awaits it, so the test does not hold one of the cooperative pool's two threads while it
/// waits: other tests' actors need them (swift-on-linux.md §5.3). Expectations stay outside,
/// on the test's task.
public func offPool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try body() }) }.start()
    }
}
