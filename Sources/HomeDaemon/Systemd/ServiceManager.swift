import Glibc

/// The daemon's side of the service manager: `READY=1`, `STATUS=`, reload with
/// `RELOADING=1` + `MONOTONIC_USEC` then `READY=1`, `STOPPING=1`, and the watchdog with the
/// store's health checks (varlink-and-systemd.md §6). Every send is a no-op without `$NOTIFY_SOCKET`.
///
/// Sendable: an actor; reloads run one at a time.
actor ServiceManager {
    let notifier: SystemdNotifier
    let service: HomeService
    let logger: Logger
    /// The Varlink subscriber count, installed once the interface exists.
    private var subscribers: (@Sendable () async -> Int)?
    private var lastStatus: String?
    private var reloading = false
    /// After `STOPPING=1` nothing else is sent: a late `STATUS=` would contradict it.
    private var isStopping = false
    private var reloadWaiters: [CheckedContinuation<Void, Never>] = []
    /// The store's state at the last health check, to log its changes once.
    private var storeWasFailing = false
    /// The health check in flight (``checkHealth()``): one that missed its ping keeps running,
    /// and the next tick waits for it instead of starting another.
    private var check: Task<String, Never>?
    /// Returns once the Varlink server's event loop has turned, installed once the server runs.
    private var loopProbe: (@Sendable () async -> Void)?
    /// The loop probe in flight: one that missed its ping is waited for by the next tick.
    private var loopCheck: Task<Void, Never>?
    /// The loop had not answered at the last health check, to log its changes once.
    private var loopWasStalled = false

    init(notifier: SystemdNotifier, service: HomeService, logger: Logger) {
        self.notifier = notifier
        self.service = service
        self.logger = logger
    }

    func countSubscribers(with counter: @escaping @Sendable () async -> Int) {
        subscribers = counter
    }

    /// Has each health check also wait for `probe`, the event loop's turn
    /// (`VarlinkServer.eventLoopTurned()`): no ping while it has not answered.
    func probeEventLoop(with probe: @escaping @Sendable () async -> Void) {
        loopProbe = probe
    }

    /// Start-up is complete: the socket is served and a manifest is loaded.
    func ready() async {
        let line = await statusLine()
        guard !isStopping else { return }
        lastStatus = line
        notifier.ready(status: line)
    }

    /// Sends `STATUS=` when the line changed (a new version, a source failing, a subscriber).
    func updateStatus() async {
        guard !isStopping else { return }
        let line = await statusLine()
        guard !isStopping, line != lastStatus else { return }
        lastStatus = line
        notifier.status(line)
    }

    func stopping(_ reason: String) {
        isStopping = true
        lastStatus = "Stopping (\(reason))"
        notifier.stopping(status: lastStatus)
    }

    /// SIGHUP and `Reload()`: `RELOADING=1`, re-read the configuration, sources and layout,
    /// `READY=1`. A broken configuration, one whose layout cannot lay out the stored content, or
    /// one the store cannot read for or register, is rejected (logged at `<3>`) and the running
    /// one keeps serving; `READY=1` is sent either way, since the
    /// reload is over. A reload whose first version is not published yet has succeeded
    /// (``HomeService/reload()``).
    func reload(reason: String) async throws(ServiceError) -> Int {
        while reloading {
            await withCheckedContinuation { reloadWaiters.append($0) }
        }
        reloading = true
        defer {
            reloading = false
            if !reloadWaiters.isEmpty { reloadWaiters.removeFirst().resume() }
        }
        if !isStopping { notifier.reloading(status: "Reloading the configuration (\(reason))") }
        do throws(ServiceError) {
            let version = try await service.reload()
            await ready()
            return version
        } catch {
            if case .configuration = error {
                // HomeService logged the configuration error itself.
            } else {
                logger.error("reload (\(reason)) failed, still serving the previous configuration: \(error)")
            }
            let line = "Reload rejected, serving the previous configuration; " + (await statusLine())
            if !isStopping {
                lastStatus = line
                notifier.ready(status: line)
            }
            throw error
        }
    }

    /// Checks the store every `interval` until cancelled and, when `pinging`, sends
    /// `WATCHDOG=1` after each check unless the store is failing, so a store that keeps failing
    /// stops the pings: the manager then restarts the daemon (`WatchdogSec=`), whose start-up
    /// check recovers a corrupt file. `STATUS=` follows every change of the line.
    ///
    /// A check (``checkHealth()``) goes through the service actor and the store's queue and
    /// takes the store's write lock, so it can wait up to `store-busy-timeout` (60 s at most),
    /// behind another store operation or another process's lock. It starts half an interval
    /// before its ping is due and gets that half to answer: one that has not is counted as a
    /// failure (``StoreHealth/probeMissed(_:)``) and the ping goes out on time, at most 1.5
    /// intervals (¾ of `$WATCHDOG_USEC`) after the last. A wedged service or store misses every
    /// ping, turns the store failing after three, and stops the pings.
    ///
    /// The same half interval is the Varlink event loop's to turn (``probeEventLoop(with:)``):
    /// it serves every client and never waits for the store, so a loop that has not run a job
    /// submitted that long ago is wedged, and its tick sends no ping. Two such ticks in a row
    /// leave the manager a whole `$WATCHDOG_USEC` without one: it restarts the daemon.
    func runHealthChecks(every interval: Duration, pinging: Bool) async {
        let clock = ContinuousClock()
        let budget = interval / 2
        var due = clock.now
        while !Task.isCancelled {
            due = max(due + interval, clock.now + budget)
            do {
                try await clock.sleep(until: due - budget)
            } catch {
                return
            }
            let check = self.check ?? Task { await checkHealth() }
            self.check = check
            let loopCheck = self.loopCheck ?? loopProbe.map { probe in Task { await probe() } }
            self.loopCheck = loopCheck
            // Both waited for at once: a wait begun after the other's deadline passed would
            // race a deadline already past and could miss an answer that was there.
            let deadline = due
            async let turned = Self.answered(loopCheck, before: deadline)
            let line = await check.value(before: due)
            let loopTurned = await turned
            if isStopping { return }
            if loopTurned { self.loopCheck = nil }
            noteLoop(turned: loopTurned, within: budget, pinging: pinging)
            if line == nil {
                if Task.isCancelled { return }
                service.health.probeMissed(budget)
                logger.warning("store probe: no answer within \(budget); counted as a store failure")
            } else {
                self.check = nil
            }
            let health = service.health.report
            let isFailing = health.state == .failing
            if isFailing != storeWasFailing {
                storeWasFailing = isFailing
                if isFailing {
                    logger.error(
                        "the store keeps failing (\(health.reason ?? "unknown"))"
                            + (pinging ? "; no more watchdog pings, so the service manager restarts the daemon" : "")
                    )
                } else {
                    logger.notice("the store works again")
                }
            }
            // Without an answer there is no new line: the old one stands until a check ends.
            let changed = line.map { $0 != lastStatus } ?? false
            if changed { lastStatus = line }
            if pinging, !isFailing, loopTurned {
                notifier.watchdog(status: changed ? line : nil)
            } else if changed, let line {
                notifier.status(line)
            }
        }
    }

    /// Whether `probe` has answered by `deadline` (true without a probe).
    private static func answered(_ probe: Task<Void, Never>?, before deadline: ContinuousClock.Instant) async -> Bool {
        guard let probe else { return true }
        return await probe.value(before: deadline) != nil
    }

    /// Logs a change of the event loop's state: stalled at `<3>`, turning again at `<5>`.
    private func noteLoop(turned: Bool, within budget: Duration, pinging: Bool) {
        guard turned == loopWasStalled else { return }
        loopWasStalled = !turned
        if turned {
            logger.notice("the Varlink event loop turns again")
        } else {
            logger.error(
                "the Varlink event loop has not run a job within \(budget): every client waits"
                    + (pinging ? "; no watchdog ping while it does not" : "")
            )
        }
    }

    /// One health check: the store probe (``HomeService/probeStore()``), then the `STATUS=` line
    /// it leads to.
    private func checkHealth() async -> String {
        await service.probeStore()
        return await statusLine()
    }

    /// `Serving version 4; sources: 3 ok, 0 failing; 1 subscriber`, with why the version is
    /// stale while new ones fail (`Serving version 4, stale: cannot make a new version: …; …`) and
    /// the store's state when it is not ok: `Store failing: SQLITE_BUSY (5): database is locked;
    /// serving version 4; …` or `Serving version 4; store recovered: the file was corrupt (…); …`.
    func statusLine() async -> String {
        let status = await service.statusSummary()
        var line = "version \(status.version)"
        if let stale = status.stale { line += ", stale: \(stale)" }
        switch status.store {
        case "failing": line = "Store failing: \(status.storeReason ?? "unknown"); serving " + line
        case "recovered": line = "Serving " + line + "; store recovered: \(status.storeReason ?? "")"
        default: line = "Serving " + line
        }
        line += "; sources: \(status.sources - status.failingSources) ok, \(status.failingSources) failing"
        if let subscribers {
            let count = await subscribers()
            line += "; \(count) subscriber" + (count == 1 ? "" : "s")
        }
        return line
    }

    /// `$WATCHDOG_USEC / 2` when the watchdog is on for this process: `$WATCHDOG_PID` unset or
    /// equal to our PID (sd_watchdog_enabled(3)).
    static func watchdogInterval(environment: [String: String], pid: Int32? = nil) -> Duration? {
        guard let text = environment["WATCHDOG_USEC"], let usec = UInt64(text), usec > 0 else { return nil }
        if let owner = environment["WATCHDOG_PID"], owner != String(pid ?? getpid()) { return nil }
        return .microseconds(Int64(clamping: usec / 2))
    }
}
