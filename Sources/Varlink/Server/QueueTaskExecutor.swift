internal import Dispatch

/// A task executor that runs jobs on a connection's serial queue.
///
/// A call's task is started with this executor preferred, so the handler's nonisolated parts,
/// and the code after it, run on the connection's queue: a synchronous handler (`GetInfo`)
/// costs no thread hop at all, and a handler that awaits an actor hops there and back. Without
/// it each call would wake a cooperative-pool thread and then a Dispatch thread again
/// (swift-on-linux.md §5.1 point 5), which is most of a small call's latency.
///
/// Sendable: its only state is the queue.
final class QueueTaskExecutor: TaskExecutor {
    let queue: DispatchQueue

    init(queue: DispatchQueue) {
        self.queue = queue
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
