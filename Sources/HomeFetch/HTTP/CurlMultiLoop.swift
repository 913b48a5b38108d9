import CCurl
import CSystem
import FoundationEssentials
import Glibc
import Synchronization
import SystemCalls

/// One libcurl multi handle, driven by one thread: every HTTP transfer of the process runs
/// here, with no thread per transfer and no busy waiting.
///
/// The thread sleeps in `curl_multi_poll` until a socket is ready, one of libcurl's timers is
/// due (its connect timeout, its low-speed check), a transfer's total deadline comes, or
/// another thread hands it work and calls `curl_multi_wakeup`. Bodies are parsed on this
/// thread as they arrive (`HTTPBodyConsumer`), so a transfer's bytes never wait in a buffer.
///
/// The multi handle keeps the connection pool, the DNS cache and TLS sessions, so fetches reuse
/// connections; `CURLMOPT_MAX_HOST_CONNECTIONS` and `CURLMOPT_MAX_TOTAL_CONNECTIONS` bound them
/// (transfers beyond the bounds wait inside libcurl), and HTTP/2 multiplexes where a server
/// offers it.
///
/// `@unchecked Sendable`: `multi` and `transfers` are touched only on the loop's thread (and
/// `multi` by `curl_multi_wakeup`, which libcurl allows from any thread, under `commands`'
/// lock so it never races `curl_multi_cleanup`); everything else is in the `Mutex`.
final class CurlMultiLoop: @unchecked Sendable {
    struct Configuration: Sendable, Equatable {
        var maxConnectionsPerHost: Int
        var maxTotalConnections: Int
    }

    private struct Commands {
        var starts: [HTTPTransfer] = []
        var cancels: [HTTPTransfer] = []
        var isStopping = false
        var hasExited = false
        var stopWaiters: [CheckedContinuation<Void, Never>] = []
    }

    private let multi: UnsafeMutableRawPointer?
    private let commands = Mutex(Commands())
    /// Transfers in the multi handle, by easy handle (loop thread only).
    private var transfers: [UnsafeMutableRawPointer: HTTPTransfer] = [:]
    /// CPU time of the loop's thread, for `_loopCPUTime` (set once the thread runs).
    private let threadClock = Mutex<clockid_t?>(nil)

    init(configuration: Configuration) {
        _ = CurlRuntime.isInitialized
        multi = curl_multi_init()
        if let multi {
            _ = ccurl_multi_setopt_long(
                multi,
                CURLMOPT_MAX_HOST_CONNECTIONS,
                max(1, configuration.maxConnectionsPerHost)
            )
            _ = ccurl_multi_setopt_long(
                multi,
                CURLMOPT_MAX_TOTAL_CONNECTIONS,
                max(1, configuration.maxTotalConnections)
            )
            _ = ccurl_multi_setopt_long(multi, CURLMOPT_MAXCONNECTS, max(1, configuration.maxTotalConnections))
            _ = ccurl_multi_setopt_long(multi, CURLMOPT_PIPELINING, Int(CURLPIPE_MULTIPLEX))
        }
        startThread()
    }

    /// The loop's thread, a plain detached pthread (Foundation's `Thread` would load all of
    /// Foundation into the daemon, issue 17). It holds the loop until `run()` returns.
    private func startThread() {
        let result = startDetachedThread {
            csystem_set_thread_name("homefeed-fetch")
            self.run()
        }
        // Out of threads at start-up: no transfer could ever run; the process cannot go on.
        precondition(result == 0, "pthread_create failed: \(result)")
    }

    /// Milliseconds on the monotonic clock: the time base of transfer deadlines.
    static func now() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Int64(time.tv_sec) * 1000 + Int64(time.tv_nsec) / 1_000_000
    }

    // MARK: - Any thread

    /// Hands a transfer to the loop. Once the loop stopped, the transfer completes at once as
    /// cancelled.
    func submit(_ transfer: HTTPTransfer) {
        let accepted = commands.withLock { commands in
            guard !commands.isStopping, let multi else { return false }
            commands.starts.append(transfer)
            curl_multi_wakeup(multi)
            return true
        }
        if !accepted { transfer.completion?(transfer.exchange(failure: .cancelled)) }
    }

    /// Ends a transfer as cancelled, wherever it is: waiting to start, or running.
    func cancel(_ transfer: HTTPTransfer) {
        transfer.isCancelRequested.store(true, ordering: .sequentiallyConsistent)
        commands.withLock { commands in
            guard !commands.hasExited, let multi else { return }
            commands.cancels.append(transfer)
            curl_multi_wakeup(multi)
        }
    }

    /// Cancels every transfer, releases the multi handle and ends the thread; returns once it
    /// has. Later submissions complete at once as cancelled.
    func stop() async {
        await withCheckedContinuation { continuation in
            let exited = commands.withLock { commands in
                commands.isStopping = true
                if commands.hasExited { return true }
                commands.stopWaiters.append(continuation)
                if let multi { curl_multi_wakeup(multi) }
                return false
            }
            if exited { continuation.resume() }
        }
    }

    /// Asks the thread to stop without waiting for it (for `deinit`s).
    func requestStop() {
        commands.withLock { commands in
            commands.isStopping = true
            if !commands.hasExited, let multi { curl_multi_wakeup(multi) }
        }
    }

    /// CPU time the loop's thread has used so far (tests: a stalled transfer must cost none).
    var threadCPUTime: Duration {
        guard let clock = threadClock.withLock({ $0 }) else { return .zero }
        var time = timespec()
        guard clock_gettime(clock, &time) == 0 else { return .zero }
        return .seconds(Int64(time.tv_sec)) + .nanoseconds(Int64(time.tv_nsec))
    }

    // MARK: - The loop's thread

    private func run() {
        var clock = clockid_t()
        if pthread_getcpuclockid(pthread_self(), &clock) == 0 { threadClock.withLock { $0 = clock } }
        guard let multi else {
            shutDown(failing: .transport(code: Int(CURLE_FAILED_INIT.rawValue)))
            return
        }
        while true {
            let (starts, cancels, isStopping) = commands.withLock { commands in
                defer {
                    commands.starts = []
                    commands.cancels = []
                }
                return (commands.starts, commands.cancels, commands.isStopping)
            }
            if isStopping {
                for transfer in starts { finish(transfer, .complete(transfer.exchange(failure: .cancelled))) }
                break
            }
            for transfer in starts { start(transfer, in: multi) }
            for transfer in cancels {
                guard let easy = transfer.easy, transfers[easy] === transfer else { continue }
                finish(transfer, .complete(transfer.exchange(failure: .cancelled)))
            }
            expireDeadlines()
            var running: Int32 = 0
            _ = curl_multi_perform(multi, &running)
            var easy: UnsafeMutableRawPointer?
            var code = CURLE_OK
            while ccurl_multi_next_done(multi, &easy, &code) == 1 {
                guard let easy, let transfer = transfers[easy] else { continue }
                finish(transfer, transfer.hopEnded(code))
            }
            _ = curl_multi_poll(multi, nil, 0, pollTimeout(), nil)
        }
        for transfer in Array(transfers.values) {
            finish(transfer, .complete(transfer.exchange(failure: .cancelled)))
        }
        shutDown(failing: .cancelled)
    }

    private func start(_ transfer: HTTPTransfer, in multi: UnsafeMutableRawPointer) {
        if transfer.isCancelRequested.load(ordering: .sequentiallyConsistent) {
            finish(transfer, .complete(transfer.exchange(failure: .cancelled)))
            return
        }
        if let refusal = transfer.makeHandle() {
            finish(transfer, .complete(transfer.exchange(failure: refusal)))
            return
        }
        guard let easy = transfer.easy, curl_multi_add_handle(multi, easy) == CURLM_OK else {
            finish(transfer, .complete(transfer.exchange(failure: .transport(code: Int(CURLE_FAILED_INIT.rawValue)))))
            return
        }
        transfers[easy] = transfer
    }

    /// Takes a transfer's handle out of the multi handle, then re-adds it (a redirect to
    /// follow) or completes the transfer.
    private func finish(_ transfer: HTTPTransfer, _ next: HTTPTransfer.Next) {
        if let easy = transfer.easy, transfers[easy] != nil, let multi {
            curl_multi_remove_handle(multi, easy)
            transfers[easy] = nil
        }
        switch next {
        case .follow:
            guard let easy = transfer.easy, let multi, curl_multi_add_handle(multi, easy) == CURLM_OK else {
                finish(
                    transfer,
                    .complete(transfer.exchange(failure: .transport(code: Int(CURLE_FAILED_INIT.rawValue))))
                )
                return
            }
            transfers[easy] = transfer
        case .complete(let exchange):
            transfer.releaseHandle()
            let completion = transfer.completion
            transfer.completion = nil
            completion?(exchange)
        }
    }

    /// Ends every transfer whose total deadline has passed.
    private func expireDeadlines() {
        let now = Self.now()
        for transfer in transfers.values where transfer.deadline <= now {
            finish(transfer, .complete(transfer.exchange(failure: .timedOut)))
        }
    }

    /// Until the earliest deadline, at most 30 s (libcurl shortens it for its own timers, and
    /// `curl_multi_wakeup` interrupts it for new work).
    private func pollTimeout() -> Int32 {
        let now = Self.now()
        var timeout: Int64 = 30_000
        for transfer in transfers.values { timeout = min(timeout, max(0, transfer.deadline - now)) }
        return Int32(timeout)
    }

    /// Marks the loop as gone and wakes those waiting in `stop()`. Submissions racing the end
    /// are completed here, as `failing`.
    private func shutDown(failing kind: FetchError.Kind) {
        let (late, waiters) = commands.withLock { commands in
            commands.isStopping = true
            commands.hasExited = true
            defer {
                commands.starts = []
                commands.stopWaiters = []
            }
            return (commands.starts, commands.stopWaiters)
        }
        for transfer in late { finish(transfer, .complete(transfer.exchange(failure: kind))) }
        if let multi { curl_multi_cleanup(multi) }
        for waiter in waiters { waiter.resume() }
    }
}
