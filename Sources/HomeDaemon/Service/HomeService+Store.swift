import FoundationEssentials
import HomeStore

/// The store's health: store operations for callers, the watchdog's probe, the on-demand check.
extension HomeService {
    /// Runs a store operation for a caller: a `StoreError` counts in the health and becomes
    /// ``ServiceError/storeUnavailable(_:)``; anything else ``ServiceError/internalError(reason:cause:)``
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
    /// removed notices or history events asks for a version: they may be on screen.
    ///
    /// - Returns: what it removed; nil when the store failed (logged, and counted in the health).
    @discardableResult
    func applyRetention(now: Date = Date()) async -> RetentionReport? {
        // It reads every notice source's index ranges: the store's page cache and the heap are
        // given back once the daemon is quiet again (MemoryRelief), as after a fetch.
        defer { memory.workHappened() }
        do {
            let report = try await store.applyRetention(now: now)
            health.succeeded()
            if report != RetentionReport() {
                logger.info(
                    "retention: removed \(report.prunedNotices) notices, \(report.expiredTombstones) tombstones, "
                        + "\(report.trimmedHistory) history events"
                )
            }
            if report.prunedNotices > 0 || report.trimmedHistory > 0 { requestPublish() }
            return report
        } catch {
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
    /// readable where it matters), and the admin decides.
    ///
    /// - Returns: the problems, empty for a sound file.
    func checkStore() async throws(ServiceError) -> [String] {
        let lines = try await withStore("cannot check the store", isWrite: false) { try await store.integrityCheck() }
        if lines == ["ok"] { return [] }
        logger.critical("integrity_check of \(store.path) found \(lines.count) problem(s), first: \(lines[0])")
        return lines
    }
}
