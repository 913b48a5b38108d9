/// Where fetched documents go: the daemon implements it with HomeStore.
///
/// Called once per document that came back `.fetched` (never for `304`), before the source's
/// new validators are persisted, so a document the store failed to take is fetched in full
/// again next time instead of being hidden behind a `304`.
public protocol FetchedDocumentSink: Sendable {
    /// Stores one document of `source` (notices for `.notices`, service links for
    /// `.services`), in one transaction.
    ///
    /// Key the entries on `source.url`, the configured URL, which stays the same when the
    /// source moves (`document.response.finalURL` may change).
    ///
    /// - Returns: true when the store changed (new or updated entries).
    /// - Throws: ``DocumentNotTaken`` to leave the document for a later attempt, with the
    ///   validators kept and no failure counted; anything else, and the attempt counts as a
    ///   failure of the source, with backoff.
    func ingest(_ document: FetchedDocument, from source: FeedSource) async throws -> Bool
}

/// Where fetch state goes: the daemon implements it with HomeStore's sources table.
///
/// Called after every attempt that was not cancelled, with the whole new state of the
/// source; store it as one row update so the `ETag`/`Last-Modified` pair stays atomic.
public protocol FetchStatePersisting: Sendable {
    /// - Throws: anything; the scheduler logs it and keeps the state in memory.
    func persist(_ state: SourceFetchState, of source: FeedSource) async throws
}
