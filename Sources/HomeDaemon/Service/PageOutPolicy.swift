import Synchronization
import SystemCalls

/// Decides when the memory relief pages out the read-only file mappings: only once at least
/// ``threshold`` bytes of file-backed pages became resident since the last page-out.
///
/// Why: a page-out reclaims the pages from the page cache too, so what is touched again is read
/// back from disk. Start-up and an ingest leave ~12 MB of code resident that the idle daemon
/// will not run again, worth paging out; the health check every 30 s, a `GetStatus` or a few
/// calls touch far less (well under a megabyte), and paging that out each time would only read
/// the same pages back from disk every 30 s.
///
/// Sendable: the baseline sits behind a `Mutex` (the relief's queue is serial anyway).
final class PageOutPolicy: Sendable {
    /// 4 MiB: above what serving and the health check touch, below what an ingest does.
    static let defaultThreshold = 4 << 20

    let threshold: Int
    private let residentFileBytes: @Sendable () -> Int?
    private let pageOut: @Sendable () -> Void
    /// Resident file-backed bytes right after the last page-out (0 before the first).
    private let baseline = Mutex(0)

    /// - Parameters:
    ///   - residentFileBytes: the process's resident file-backed bytes (tests pass their own).
    ///   - pageOut: pages the read-only file mappings out (tests count calls).
    init(
        threshold: Int = PageOutPolicy.defaultThreshold,
        residentFileBytes: @escaping @Sendable () -> Int? = { ReadOnlyFileMappings.residentFileBytes() },
        pageOut: @escaping @Sendable () -> Void = { ReadOnlyFileMappings.pageOut() }
    ) {
        self.threshold = threshold
        self.residentFileBytes = residentFileBytes
        self.pageOut = pageOut
    }

    /// Pages out if enough became resident since the last time; returns whether it did.
    @discardableResult
    func relieve() -> Bool {
        guard let resident = residentFileBytes() else { return false }
        let grown = baseline.withLock { resident - $0 >= threshold }
        guard grown else { return false }
        pageOut()
        let after = residentFileBytes() ?? resident
        baseline.withLock { $0 = after }
        return true
    }
}
