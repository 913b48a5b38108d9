internal import Synchronization

/// The wake-ups of server loops held back while one task sends many replies at once
/// (``VarlinkReplySink/sendingTogether(_:)``), given when it is done.
///
/// Task-local, so only the sending task's hand-overs wait: an ``EventLoop`` that the task finds
/// asleep is owed its wake-up (``owe(_:)``), and ``wakeOwed()`` writes it once the last reply is
/// handed over. Sendable: the owed loops are behind a `Mutex`.
///
/// A task started inside the batch inherits it and may submit after it has ended: an ended
/// batch takes no more debts (``owe(_:)`` says so), or that loop would never be woken again.
final class WakeBatch: Sendable {
    /// The batch of the current task, if it is sending together.
    @TaskLocal static var current: WakeBatch?

    /// The loops owed a wake-up; nil once the batch has ended.
    private let owed = Mutex<[EventLoop]?>([])

    /// `loop` was handed work while asleep: wake it when the batch ends.
    ///
    /// - Returns: false when the batch has ended: the caller wakes the loop itself.
    func owe(_ loop: EventLoop) -> Bool {
        owed.withLock { owed in
            guard owed != nil else { return false }
            owed?.append(loop)
            return true
        }
    }

    /// Ends the batch and wakes every loop owed a wake-up, once.
    func wakeOwed() {
        let loops = owed.withLock { owed in
            defer { owed = nil }
            return owed ?? []
        }
        for loop in loops { loop.signalWake() }
    }
}
