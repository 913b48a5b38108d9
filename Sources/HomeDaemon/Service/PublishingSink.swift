import HomeFetch
import Synchronization

/// A signal raised when stored content changed; the service connects it after start-up.
///
/// Sendable: the handler sits behind a `Mutex`.
final class ChangeSignal: Sendable {
    private let handler = Mutex<(@Sendable () -> Void)?>(nil)

    func connect(_ body: @escaping @Sendable () -> Void) { handler.withLock { $0 = body } }

    func raise() { handler.withLock { $0 }?() }
}

/// Stores fetched documents and raises the change signal when the store changed, so a fetch
/// with new notices makes a new manifest version.
struct PublishingSink: FetchedDocumentSink {
    let ingestion: StoreIngestion
    let changed: ChangeSignal

    func ingest(_ document: FetchedDocument, from source: FeedSource) async throws -> Bool {
        let didChange = try await ingestion.ingest(document, from: source)
        if didChange { changed.raise() }
        return didChange
    }
}
