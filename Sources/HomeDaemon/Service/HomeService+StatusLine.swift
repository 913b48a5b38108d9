import HomeFetch
import HomeStore

/// What the `STATUS=` line shows (``ServiceManager``): the version, why it is stale, the store's
/// state and how many configured sources are failing.
///
/// Read after every version and every health check, so without the counts
/// ``HomeService/status()`` makes for `GetStatus`: a count over every notice and one per
/// source read the notice index whole (2 MB with 100 000 notices), on the store's thread, while
/// the version's push to its subscribers was being written on the other core.
struct StatusSummary: Equatable {
    var version: Int
    /// Why the version served is not the content's: the failure of the last version tried
    /// (``VersionPublisher/staleness``), nil once one is made.
    var stale: String? = nil
    /// ``StoreHealth``'s state: `ok`, `failing` or `recovered`.
    var store: String
    var storeReason: String?
    /// The configured sources the store holds, and how many of them are failing.
    var sources: Int
    var failingSources: Int
}

extension HomeService {
    /// The ``StatusSummary`` of now. When the store cannot be read, the sources are the last
    /// ones read (as ``status()`` serves them), the failure counts against the store's health
    /// and the store state says why.
    func statusSummary() async -> StatusSummary {
        do {
            let sources = try await listedSources()
            lastSourceTally = (sources.count, sources.count { $0.consecutiveFailures > 0 })
        } catch {
            health.failed(error)
            logger.error("status: cannot read the store: \(error)")
        }
        let report = health.report
        return StatusSummary(
            version: await cache.version,
            stale: publisher.staleness?.description,
            store: report.state.rawValue,
            storeReason: report.reason,
            sources: lastSourceTally.sources,
            failingSources: lastSourceTally.failing
        )
    }
}
