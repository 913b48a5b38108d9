public import Foundation

/// One source as `io.homefeed.GetStatus` shows it (type `SourceStatus` in
/// `io.homefeed.varlink`), plus the fields that explain it.
///
/// Sendable: an immutable value.
public struct SourceStatus: Sendable, Equatable {
    /// The configured URL.
    public var url: String
    /// `notices` or `services`, the varlink `kind` string.
    public var kind: FeedSource.Kind
    /// The configured title, else the title of the last fetched feed or OPML document.
    public var title: String?
    /// Entries (or outlines) in the last fetched document. The daemon may show the store's
    /// count instead.
    public var entries: Int
    public var lastAttempt: Date?
    public var lastSuccess: Date?
    /// Nil while the source is gone.
    public var nextAttempt: Date?
    /// Consecutive failures.
    public var failures: Int
    public var lastError: String?
    /// True after `410 Gone`: polling stopped; `lastError` says so.
    public var isGone: Bool
    /// True while a fetch of this source runs.
    public var isFetching: Bool
    /// The URL requested now (the permanent redirect target, if any).
    public var fetchURL: String

    public init(
        url: String,
        kind: FeedSource.Kind,
        title: String?,
        entries: Int,
        lastAttempt: Date?,
        lastSuccess: Date?,
        nextAttempt: Date?,
        failures: Int,
        lastError: String?,
        isGone: Bool,
        isFetching: Bool,
        fetchURL: String
    ) {
        self.url = url
        self.kind = kind
        self.title = title
        self.entries = entries
        self.lastAttempt = lastAttempt
        self.lastSuccess = lastSuccess
        self.nextAttempt = nextAttempt
        self.failures = failures
        self.lastError = lastError
        self.isGone = isGone
        self.isFetching = isFetching
        self.fetchURL = fetchURL
    }
}

/// What `FetchScheduler.refresh(url:)` did, for `io.homefeed.Refresh`.
public struct RefreshSummary: Sendable, Equatable {
    /// Sources fetched.
    public var attempted: Int
    /// Documents the sink reported as changing the store.
    public var changed: Int
    /// `304` answers (or unchanged files).
    public var notModified: Int
    /// Attempts that failed.
    public var failed: Int

    public init(attempted: Int = 0, changed: Int = 0, notModified: Int = 0, failed: Int = 0) {
        self.attempted = attempted
        self.changed = changed
        self.notModified = notModified
        self.failed = failed
    }
}

/// Errors of the scheduler's own API.
public enum FetchSchedulerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No configured source has this URL (varlink `io.homefeed.SourceNotFound`).
    case sourceNotFound(String)

    public var description: String {
        switch self {
        case .sourceNotFound(let url): return "\(url): no such source"
        }
    }
}
