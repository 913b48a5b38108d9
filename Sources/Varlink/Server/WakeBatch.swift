internal import Synchronization

/// The wake-ups of server loops held back while one task sends many replies at once
/// (``VarlinkReplySink/sendingTogether(_:)``), given when it is done.
///
/// Task-local, so only the sending task's hand-overs wait: an ``EventLoop`` that the task finds
/// asleep is owed its wake-up (``owe(_:)``), and ``wakeOwed()`` writes it once the last reply is
/// handed over. Sendable: the owed loops are behind a `Mutex`.
final class WakeBatch: Sendable {
    /// The batch of the current task, if it is sending together.
    @TaskLocal static var current: WakeBatch?

    private let owed = Mutex<[EventLoop]>([])

    /// `loop` was handed work while asleep: wake it when the batch ends.
    func owe(_ loop: EventLoop) {
        owed.withLock { $0.append(loop) }
    }

    /// Wakes every loop owed a wake-up, once.
    func wakeOwed() {
        let loops = owed.withLock { owed in
            defer { owed = [] }
            return owed
        }
        for loop in loops { loop.wakeOwed() }
    }
}
