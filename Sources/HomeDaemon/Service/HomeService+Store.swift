import FoundationEssentials
import HomeStore

/// The store's health: opening it, store operations for callers, the watchdog's probe, the
/// on-demand check.
extension HomeService {
    /// Opens `homefeed.sqlite` in `stateDirectory`, moving a corrupt file aside
    /// (``Store/recovery``), with SQLite's full `integrity_check` when an
    /// ``IntegrityCheckMarker`` asks for it; the marker goes once the store has opened. Indexes
    /// that check mended, and the rows it removed to mend them, are logged at `<4>`. `stop` ends
    /// the opening early (SIGTERM during start-up), the marker kept.
    static func openStore(
        in stateDirectory: URL,
        configuration: StoreConfiguration,
        logger: Logger,
        stop: StoreOpeningStop? = nil
    ) async throws(StoreError) -> Store {
        let path = storePath(in: stateDirectory)
        let marker = IntegrityCheckMarker(besideStoreAt: path)
        let fullCheck = marker.isPresent
        let store = try await Store(
            path: path,
            configuration: configuration,
            recoverIfCorrupt: true,
            fullCheck: fullCheck,
            stop: stop
        )
        if let repair = store.indexRepair {
            if store.removedDuplicates.isEmpty {
                logger.warning(
                    "store \(path): \(repair); rebuilt its indexes from their tables (REINDEX), every row kept"
                )
            } else {
                let removed = store.removedDuplicates.sorted { $0.key < $1.key }.map { "\($0.value) from \($0.key)" }
                logger.warning(
                    "store \(path): \(repair); removed rows that repeated a unique key a damaged index let in (the "
                        + "row stored first kept, with the rows depending on a removed one): "
                        + removed.joined(separator: ", ") + "; rebuilt its indexes from their tables (REINDEX)"
                )
            }
        }
        if fullCheck {
            do throws(FileCallError) {
                try marker.remove()
            } catch {
                logger.warning("store: the next start checks the whole file again: \(error)")
            }
        }
        return store
    }

    /// The store's file in `stateDirectory`.
    static func storePath(in stateDirectory: URL) -> String {
        stateDirectory.appendingPathComponent("homefeed.sqlite").path
    }

    /// What ``StoreHealth`` does with the first corruption error: asks the next start for the
    /// full check (``IntegrityCheckMarker``), which `quick_check` would not replace.
    static func requestFullCheck(of store: Store, logger: Logger) -> @Sendable (StoreError) -> Void {
        requestFullCheck(ofStoreAt: store.path, logger: logger)
    }

    /// What a start that failed does with its error: a corruption error asks the next start for
    /// the full check too. Start-up writes (the sources, the list's links) can run into a
    /// damaged index that `quick_check` passes over, and every start would fail the same way
    /// until the service manager gave up.
    static func startFailed(_ error: any Error, stateDirectory: URL, logger: Logger) {
        guard let error = error as? StoreError, error.isCorruption else { return }
        requestFullCheck(ofStoreAt: storePath(in: stateDirectory), logger: logger)(error)
    }

    private static func requestFullCheck(ofStoreAt path: String, logger: Logger) -> @Sendable (StoreError) -> Void {
        let marker = IntegrityCheckMarker(besideStoreAt: path)
        return { error in
            do throws(FileCallError) {
                try marker.write(reason: error.summary)
                logger.warning("store \(path) is damaged (\(error.summary)): the next start checks the whole file")
            } catch {
                logger.error("cannot ask the next start to check the whole store: \(error)")
            }
        }
    }

    /// Runs a store operation for a caller: a `StoreError` counts in the health and becomes
    /// ``ServiceError/storeUnavailable(_:)``, except the store's refusal of a history event
    /// older than every kept one, which is the caller's ``ServiceError/invalidArgument(parameter:reason:)``
    /// for `at`; anything else ``ServiceError/internalError(reason:cause:)``
    /// with `reason` for the client. A success counts only when `isWrite` (see ``StoreHealth``).
    func withStore<T>(
        _ reason: String,
        isWrite: Bool,
        _ body: () async throws -> T
    ) async throws(ServiceError) -> T {
        do {
            let result = try await body()
            if isWrite { health.succeeded() }
            return result
        } catch let error as StoreError {
            if case .historyEventTooOld = error.kind { throw .invalidArgument(parameter: "at", reason: error.message) }
            health.failed(error)
            throw .storeUnavailable(error)
        } catch {
            throw .internalError(reason: reason, cause: "\(error)")
        }
    }

    /// The store's full retention pass (`docs/storage.md`, "Retention"): the age limit of
    /// sources that stopped changing (an ingest prunes only the source it reads), tombstones past
    /// their grace, the history cap. The daemon runs it at the start and then hourly
    /// (``DaemonRunner``). A pass that
    /// removed notices or history events asks for a version: they may be on screen. While the
    /// system clock is behind the store's latest time, the store refuses the pass: that is
    /// logged once (``StoreClockWatch``), not counted in the health, and the next pass tries again.
    ///
    /// - Returns: what it removed; nil when the store failed (logged, and counted in the health)
    ///   or refused the pass.
    @discardableResult
    func applyRetention(now: Date = Date()) async -> RetentionReport? {
        // It reads every notice source's index ranges: the store's page cache and the heap are
        // given back once the daemon is quiet again (MemoryRelief), as after a fetch.
        defer { memory.workHappened() }
        do {
            let report = try await store.applyRetention(now: now)
            health.succeeded()
            storeClock.accepted()
            if report != RetentionReport() {
                logger.info(
                    "retention: removed \(report.prunedNotices) notices, \(report.expiredTombstones) tombstones, "
                        + "\(report.trimmedHistory) history events, \(report.servicesSourceNotices) notices of "
                        + "sources that are lists of links now"
                )
            }
            if report.prunedNotices > 0 || report.trimmedHistory > 0 { requestPublish() }
            return report
        } catch {
            if storeClock.refused(error) { return nil }
            health.failed(error)
            logger.warning("retention: \(error)")
            return nil
        }
    }

    /// The watchdog's probe: takes the store's write lock (``Store/checkWritable()``) and
    /// records the outcome (``StoreHealth/probeAnswered(_:)``).
    func probeStore() async {
        do {
            try await store.checkWritable()
            health.probeAnswered(nil)
        } catch {
            health.probeAnswered(error)
            logger.warning("store probe: \(error)")
        }
    }

    /// `PRAGMA integrity_check` on demand (`CheckStore`, `homefeedctl store check`): every page
    /// and index. Problems are logged at `<2>`; the daemon keeps serving (the file may still be
    /// readable where it matters), and the next start checks the whole file again
    /// (``IntegrityCheckMarker``): it rebuilds the indexes when only they are wrong, else moves
    /// the file aside.
    ///
    /// - Returns: the problems, empty for a sound file.
    func checkStore() async throws(ServiceError) -> [String] {
        let lines = try await withStore("cannot check the store", isWrite: false) { try await store.integrityCheck() }
        if lines == ["ok"] { return [] }
        logger.critical("integrity_check of \(store.path) found \(lines.count) problem(s), first: \(lines[0])")
        do throws(FileCallError) {
            try IntegrityCheckMarker(besideStoreAt: store.path).write(reason: "integrity_check: \(lines[0])")
        } catch {
            logger.error("cannot ask the next start to check the whole store: \(error)")
        }
        return lines
    }
}
