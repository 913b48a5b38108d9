internal import Dispatch

/// A task executor that runs jobs on a connection's serial queue, inline where it can.
///
/// A call's task is started with this executor preferred, so the handler's nonisolated parts,
/// and the code after it, run on the connection's queue: a synchronous handler (`GetInfo`)
/// costs no thread hop, and a handler that awaits an actor hops there and back.
///
/// *Inline draining.* Every entry point on the queue (the read, write and timer handlers, and
/// blocks from other threads) runs inside ``drain(_:)``. Work submitted while a drain is in
/// progress on this queue (a new call's first job, a reply delivered by the sink) is appended
/// to a list and run before the drain returns, instead of going through `queue.async`. For a
/// synchronous handler the whole call, up to the `send` of its reply, then happens inside the
/// read source's event handler: libdispatch re-arms a source through its manager thread
/// (an eventfd write and a wake-up) only after the handler returns, and that wake-up would
/// otherwise sit between the request and the reply. Items run in submission order, and all
/// before any later block of the queue, so the order of replies is the order of `send`s.
///
/// Sendable: `queue` is immutable; `pending` and `isDraining` are touched only on `queue`
/// (checked with a queue-specific key before any access), hence `nonisolated(unsafe)`.
final class QueueTaskExecutor: TaskExecutor {
    let queue: DispatchQueue
    private let key = DispatchSpecificKey<Bool>()
    private nonisolated(unsafe) var pending: [() -> Void] = []
    private nonisolated(unsafe) var isDraining = false

    init(queue: DispatchQueue) {
        self.queue = queue
        queue.setSpecific(key: key, value: true)
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        submit { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }

    /// Runs `work` on the queue: inline after the current item when a drain is in progress on
    /// this queue, else in a new queue block.
    func submit(_ work: @escaping @Sendable () -> Void) {
        if DispatchQueue.getSpecific(key: key) == true, isDraining {
            pending.append(work)
        } else {
            queue.async { self.drain(work) }
        }
    }

    /// Runs `body`, then everything submitted meanwhile. Call only on the queue.
    func drain(_ body: () -> Void) {
        if isDraining {
            body()
            return
        }
        isDraining = true
        body()
        var index = 0
        while index < pending.count {
            let work = pending[index]
            index += 1
            work()
        }
        pending.removeAll(keepingCapacity: true)
        isDraining = false
    }
}
