import Glibc

/// The daemon's side of the service manager: `READY=1`, `STATUS=`, reload with
/// `RELOADING=1` + `MONOTONIC_USEC` then `READY=1`, `STOPPING=1`, and the watchdog
/// (varlink-and-systemd.md §6). Every send is a no-op without `$NOTIFY_SOCKET`.
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

    init(notifier: SystemdNotifier, service: HomeService, logger: Logger) {
        self.notifier = notifier
        self.service = service
        self.logger = logger
    }

    func countSubscribers(with counter: @escaping @Sendable () async -> Int) {
        subscribers = counter
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
    /// `READY=1`. A broken configuration is rejected (logged at `<3>`) and the running one
    /// keeps serving; `READY=1` is sent either way, since the reload is over.
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

    /// Sends `WATCHDOG=1` every `interval` until cancelled. Each ping first goes through the
    /// service actor and the store's queue (the status query every `GetStatus` also runs), so a
    /// wedged service or store stops the pings and the manager restarts the daemon.
    func runWatchdog(every interval: Duration) async {
        while !Task.isCancelled {
            do {
                try await Task.sleep(for: interval)
            } catch {
                return
            }
            let line = await statusLine()
            if isStopping { return }
            if line != lastStatus {
                lastStatus = line
                notifier.watchdog(status: line)
            } else {
                notifier.watchdog()
            }
        }
    }

    /// `Serving version 4; sources: 3 ok, 0 failing; 1 subscriber`.
    func statusLine() async -> String {
        let version = await service.version
        var line = "Serving version \(version)"
        if let status = try? await service.status() {
            let failing = status.sources.filter { $0.failures > 0 }.count
            line += "; sources: \(status.sources.count - failing) ok, \(failing) failing"
        }
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
