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
