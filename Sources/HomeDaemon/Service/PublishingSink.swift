import HomeFeeds
import HomeFetch
import HomeStore
import Synchronization

/// A signal the service connects after start-up: stored content changed (`Value` is `Void`),
/// or a source's attempt ended (`Value` is its URL).
///
/// Sendable: the handler sits behind a `Mutex`.
final class ServiceSignal<Value: Sendable>: Sendable {
    private let handler = Mutex<(@Sendable (Value) async -> Void)?>(nil)

    func connect(_ body: @escaping @Sendable (Value) async -> Void) { handler.withLock { $0 = body } }

    /// Returns once the service has taken the value into account, so a `Refresh` that returns
    /// after its ingests can wait for the version that includes them.
    func raise(_ value: Value) async { await handler.withLock { $0 }?(value) }
}

extension ServiceSignal where Value == Void {
    func raise() async { await raise(()) }
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
/// with new notices makes a new manifest version. Store failures count in the health; a feed
/// the store refuses because the system clock is behind does not, and is left for a later
/// attempt (``DocumentNotTaken``), logged once by `clock`.
struct PublishingSink: FetchedDocumentSink {
    let ingestion: StoreIngestion
    let changed: ServiceSignal<Void>
    let health: StoreHealth
    let warnings: ParseWarningCounts
    let clock: StoreClockWatch

    func ingest(_ document: FetchedDocument, from source: FeedSource) async throws -> Bool {
        warnings.record(document.document.warningCount, for: source.url)
        let didChange: Bool
        do {
            didChange = try await ingestion.ingest(document, from: source)
        } catch let error as StoreError {
            if clock.refused(error) { throw DocumentNotTaken(reason: error.message) }
            health.failed(error)
            throw error
        }
        health.succeeded()
        // Only a feed's ingest reads the clock (a list of links dates nothing).
        if case .feed = document.document { clock.accepted() }
        if didChange { await changed.raise() }
        return didChange
    }
}

/// Saves each attempt's fetch state, counting store failures in the health, and tells the
/// service which source's attempt ended (it waits for every source after a store recovery).
struct RecordingPersistence: FetchStatePersisting {
    let ingestion: StoreIngestion
    let health: StoreHealth
    let attempted: ServiceSignal<String>

    func persist(_ state: SourceFetchState, of source: FeedSource) async throws {
        var failure: (any Error)?
        do {
            try await ingestion.persist(state, of: source)
            health.succeeded()
        } catch {
            if let error = error as? StoreError { health.failed(error) }
            failure = error
        }
        await attempted.raise(source.url)
        if let failure { throw failure }
    }
}
