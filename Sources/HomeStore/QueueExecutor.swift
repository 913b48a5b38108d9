import Dispatch

/// A serial executor that runs every job on one private dispatch queue.
///
/// `HomeStore` blocks in `sqlite3_step` (disk I/O, busy waits); on the 2-thread cooperative
/// pool that would stall every other task in the process (swift-on-linux.md §5.3). With this
/// executor the actor's jobs run on their own queue instead, as GRDB's `DispatchQueueActor`
/// does. Sendable: the queue is.
final class QueueExecutor: SerialExecutor {
    let queue: DispatchQueue

    /// Marks the executor's queues, so code can check where it runs.
    static let marker = DispatchSpecificKey<Bool>()

    init(label: String) {
        queue = DispatchQueue(label: label)
        queue.setSpecific(key: Self.marker, value: true)
    }

    /// Whether the caller runs on a `QueueExecutor`'s queue.
    static var isOnExecutorQueue: Bool { DispatchQueue.getSpecific(key: marker) ?? false }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedSerialExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }

    func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }

    func checkIsolated() {
        dispatchPrecondition(condition: .onQueue(queue))
    }

    /// Runs `body` on the queue and returns its result to an async caller, without blocking
    /// the caller's thread. Used before the actor exists (opening the file).
    func run<T>(_ body: @escaping @Sendable () throws(StoreError) -> sending T) async throws(StoreError) -> sending T {
        let result: Result<Transfer<T>, StoreError> = await withCheckedContinuation { continuation in
            queue.async {
                do throws(StoreError) {
                    continuation.resume(returning: .success(Transfer(value: try body())))
                } catch {
                    continuation.resume(returning: .failure(error))
                }
            }
        }
        return try result.get().value
    }
}

/// Carries a non-Sendable value from the queue to the one task waiting for it; nothing
/// else holds a reference, so there is no sharing.
struct Transfer<T>: @unchecked Sendable {
    var value: T
}
