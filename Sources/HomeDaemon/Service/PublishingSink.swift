import HomeFeeds
import HomeFetch
import Synchronization

/// A signal raised when stored content changed; the service connects it after start-up.
///
/// Sendable: the handler sits behind a `Mutex`.
final class ChangeSignal: Sendable {
    private let handler = Mutex<(@Sendable () async -> Void)?>(nil)

    func connect(_ body: @escaping @Sendable () async -> Void) { handler.withLock { $0 = body } }

    /// Returns once the service has taken the change into account, so a `Refresh` that
    /// returns after its ingests can wait for the version that includes them.
    func raise() async { await handler.withLock { $0 }?() }
}

/// The warning count of the last document parsed for each source (`ParsedFeed.warningCount`:
/// recovered XML, substituted bytes, dropped entries…), for `GetStatus`. Kept in memory: a
/// restart shows 0 until the next fetch, and a `304` keeps the last count.
///
/// Sendable: the counts sit behind a `Mutex`.
final class ParseWarningCounts: Sendable {
    private let counts = Mutex<[String: Int]>([:])

    func record(_ count: Int, for url: String) { counts.withLock { $0[url] = count } }

    func count(for url: String) -> Int { counts.withLock { $0[url] ?? 0 } }
}

/// Stores fetched documents and raises the change signal when the store changed, so a fetch
/// with new notices makes a new manifest version.
struct PublishingSink: FetchedDocumentSink {
    let ingestion: StoreIngestion
    let changed: ChangeSignal
    let warnings: ParseWarningCounts

    func ingest(_ document: FetchedDocument, from source: FeedSource) async throws -> Bool {
        warnings.record(document.document.warningCount, for: source.url)
        let didChange = try await ingestion.ingest(document, from: source)
        if didChange { await changed.raise() }
        return didChange
    }
}
