public import FoundationEssentials

/// What a source provides.
public enum SourceKind: String, Sendable, Hashable, CaseIterable {
    /// A notice feed (RSS, Atom, JSON Feed): its entries go to ``Store/ingestNotices(sourceURL:entries:now:fetch:)``.
    case notices
    /// A service-link document (OPML): its links go to ``Store/replaceServiceLinks(sourceURL:links:)``.
    case services
}

/// A source as configured (from `feeds/sources.opml`): what ``Store/upsertSource(_:now:)``
/// takes. Fetch state is not part of it and is kept across upserts.
public struct SourceInput: Sendable, Hashable {
    /// The configured URL (`file:`, `http:`, `https:` or a path); the source's identity.
    public var url: String
    /// Notices or services.
    public var kind: SourceKind
    /// The title from the configuration.
    public var title: String?
    /// The section key of the outline's OPML `category` (`main-service` …), when it names one.
    /// Stored for reference: the daemon places each link by its own category.
    public var section: String?
    /// Most notices kept for this source; `nil` uses the store's default.
    public var maxEntries: Int?
    /// Oldest notice kept for this source; `nil` uses the store's default.
    public var maxAge: Duration?

    /// Creates a value; see the properties.
    public init(
        url: String,
        kind: SourceKind,
        title: String? = nil,
        section: String? = nil,
        maxEntries: Int? = nil,
        maxAge: Duration? = nil
    ) {
        self.url = url
        self.kind = kind
        self.title = title
        self.section = section
        self.maxEntries = maxEntries
        self.maxAge = maxAge
    }
}

/// HTTP cache validators, stored and replaced together so a response's ETag is never paired
/// with another response's Last-Modified (RFC 9110 §8.8).
///
/// HomeFetch's `HTTPValidators` has the same shape on purpose: HomeStore and HomeFetch import
/// neither each other nor a common model, and the daemon maps one to the other where fetch
/// meets store (`StoreIngestion`, the image pipeline).
public struct Validators: Sendable, Hashable {
    /// The `ETag` header, verbatim (quotes and `W/` included).
    public var etag: String?
    /// The `Last-Modified` header, verbatim.
    public var lastModified: String?
    /// The fetcher's digest of the body that was ingested (HomeFetch's `ContentDigest`): a
    /// `200` with the same bytes is recognised without parsing it again.
    public var contentDigest: String?

    /// Creates a value; see the properties.
    public init(etag: String? = nil, lastModified: String? = nil, contentDigest: String? = nil) {
        self.etag = etag
        self.lastModified = lastModified
        self.contentDigest = contentDigest
    }

    /// Whether there is anything to send as `If-None-Match` / `If-Modified-Since`.
    public var isEmpty: Bool { etag == nil && lastModified == nil }
}

/// A stored source with its fetch state. Sendable: a plain value.
public struct Source: Sendable, Hashable, Identifiable {
    /// The row id; stable for the life of the source.
    public var id: Int64
    /// The configured URL: the source's identity.
    public var url: String
    /// Notices or services.
    public var kind: SourceKind
    /// The title from the configuration.
    public var title: String?
    /// The section key of the outline's OPML `category` (`main-service` …), when it names one.
    public var section: String?
    /// The validators of the last successful (200) fetch.
    public var validators: Validators
    /// When the last fetch attempt started.
    public var lastAttempt: Date?
    /// When a fetch last succeeded (`200` or `304`).
    public var lastSuccess: Date?
    /// When the scheduler should try next; `nil` means as soon as possible (or never, when
    /// ``isGone``).
    public var nextAttempt: Date?
    /// Failed attempts since the last success.
    public var consecutiveFailures: Int
    /// The last failure's one-line message; `nil` after a success.
    public var lastError: String?
    /// Where a `301`/`308` said the source now lives; fetch this instead of ``url``.
    public var permanentRedirect: String?
    /// The server said `410 Gone`: stop polling until the source is configured again.
    public var isGone: Bool
    /// This source's own retention limits, `nil` where the store default applies.
    public var maxEntries: Int?
    /// This source's own maximum notice age, `nil` where the store default applies.
    public var maxAge: Duration?

    /// The URL to fetch: the permanent redirect when there is one, else the configured URL.
    public var fetchURL: String { permanentRedirect ?? url }
}

/// One fetch attempt to record: the outcome, when it happened, when to try next, and the
/// permanent redirect in effect after it.
public struct FetchRecord: Sendable, Hashable {
    /// What happened.
    public var outcome: FetchRecord.Outcome
    /// When the attempt started.
    public var attemptedAt: Date
    /// When to try next; `nil` for as soon as possible.
    public var nextAttempt: Date?
    /// Where the source is fetched from after this attempt, when a chain of `301`/`308` moved
    /// it; `nil` when it is fetched from its configured URL again (a redirect back to it
    /// clears a stored one).
    public var permanentRedirect: String?

    /// Creates a value; see the properties.
    public init(outcome: FetchRecord.Outcome, attemptedAt: Date, nextAttempt: Date?, permanentRedirect: String?) {
        self.outcome = outcome
        self.attemptedAt = attemptedAt
        self.nextAttempt = nextAttempt
        self.permanentRedirect = permanentRedirect
    }
}

extension FetchRecord {
    /// The result of one fetch attempt, as the fetcher records it.
    public enum Outcome: Sendable, Hashable {
        /// `200` (or a `file:` read): the document was ingested; the new validators replace the
        /// old pair (fields the response lacked become `nil`).
        case fetched(Validators)
        /// `304 Not Modified`: success; the stored validators stay.
        case notModified
        /// Any failure; counts towards ``Source/consecutiveFailures``. Validators stay.
        case failed(error: String)
        /// `410 Gone`: polling stops (``Source/isGone``), the message goes to ``Source/lastError``.
        case gone(message: String)
    }
}
