import Glibc
import HomeStore
import Synchronization

/// SIGTERM and SIGINT while the daemon starts: the signals are read from the first moment, not
/// only once it serves, so `systemctl stop` during a long start (the store's full
/// `integrity_check`) ends it at once instead of waiting `TimeoutStopSec=` for a SIGKILL.
///
/// Such a signal sends `STOPPING=1`, interrupts the store's opening (``StoreOpeningStop``) and
/// marks the start stopped; the daemon then exits 0 at its next step (``finishStarting()``)
/// without serving. Every other signal, and every signal after the start, goes on to the
/// serving loop through ``relay(_:)``.
///
/// Sendable: its state is behind a mutex.
final class StartupStop: Sendable {
    /// Handed to the store's opening.
    let storeOpening = StoreOpeningStop()
    private let notifier: SystemdNotifier
    private let logger: Logger
    /// nil while starting; then whether the start finished (true) or was stopped (false).
    private let outcome = Mutex<Bool?>(nil)

    init(notifier: SystemdNotifier, logger: Logger) {
        self.notifier = notifier
        self.logger = logger
    }

    /// `signals`, without the SIGTERM or SIGINT that stopped the start.
    func relay(_ signals: AsyncStream<Int32>) -> AsyncStream<Int32> {
        let (relayed, continuation) = AsyncStream.makeStream(of: Int32.self)
        Task {
            for await signal in signals {
                if signal != SIGHUP, stop(by: signal) { continue }
                continuation.yield(signal)
            }
            continuation.finish()
        }
        return relayed
    }

    /// The start is over and the daemon serves; false when a signal stopped it first.
    func finishStarting() -> Bool {
        outcome.withLock { outcome in
            if outcome == nil { outcome = true }
            return outcome == true
        }
    }

    /// Whether a signal stopped the start.
    var isStopped: Bool { outcome.withLock { $0 == false } }

    /// Runs `send` (a message to the service manager) unless a signal stopped the start: under
    /// the lock the stop takes, so nothing of the start is sent after `STOPPING=1`, where an
    /// `EXTEND_TIMEOUT_USEC` would lengthen the stop's own timeout and replace its status.
    func whileStarting(_ send: () -> Void) {
        outcome.withLock { outcome in
            if outcome != false { send() }
        }
    }

    private func stop(by signal: Int32) -> Bool {
        let name = signal == SIGTERM ? "SIGTERM" : "SIGINT"
        let starting = outcome.withLock { outcome in
            guard outcome == nil else { return false }
            outcome = false
            // Under the lock: a start-up message (``whileStarting(_:)``) goes before it or not at all.
            notifier.stopping(status: "Stopping (\(name)) during start-up")
            return true
        }
        guard starting else { return false }
        logger.notice("signal \(signal): stopping before the start has finished")
        storeOpening.request()
        return true
    }
}
