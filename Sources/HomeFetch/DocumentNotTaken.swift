/// What a ``FetchedDocumentSink`` throws for a document it does not take for now, through no
/// fault of the source: the daemon's store while the system clock is behind the times it has
/// recorded. The attempt is no failure (no backoff, no error shown): the source is fetched
/// again on its normal schedule, and its validators (`ETag`, `Last-Modified`, content digest)
/// stay the ones of the last document taken, so that attempt gets the whole document again,
/// not a `304`.
///
/// Sendable: a plain value.
public struct DocumentNotTaken: Error, Sendable, CustomStringConvertible {
    /// Why, for the scheduler's log line.
    public var reason: String

    public init(reason: String) { self.reason = reason }

    public var description: String { reason }
}
