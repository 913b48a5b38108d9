import Foundation

/// Runs blocking work (a process, socket reads, a wait for a datagram) on a thread of its own
/// and awaits it, so the test does not hold one of the cooperative pool's two threads while it
/// waits: other tests' actors need them (swift-on-linux.md §5.3). Expectations stay outside,
/// on the test's task. Throws what `body` throws: nothing, for a body that cannot fail.
public func offPool<T: Sendable, Failure: Error>(
    _ body: @escaping @Sendable () throws(Failure) -> T
) async throws(Failure) -> T {
    let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<T, Failure>, Never>) in
        Thread { continuation.resume(returning: Result { () throws(Failure) -> T in try body() }) }.start()
    }
    return try result.get()
}
