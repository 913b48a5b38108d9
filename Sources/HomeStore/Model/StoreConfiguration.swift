/// Settings of a ``HomeStore``, with their defaults. Sendable: a plain value.
public struct StoreConfiguration: Sendable, Hashable {
    /// How long a statement waits for another connection's lock before failing with
    /// `SQLITE_BUSY`. Default 5 s.
    public var busyTimeout: Duration = .seconds(5)
    /// Most notices kept per source unless the source sets its own; `nil` for no limit.
    /// Default 1 000.
    public var maxEntriesPerSource: Int? = 1_000
    /// Oldest notice kept unless the source sets its own; `nil` for no limit. Default 90 days.
    public var maxAge: Duration? = .seconds(90 * 86_400)
    /// Most history events kept. Default 500.
    public var historyLimit = 500
    /// A tombstone is forgotten once its entry has not been seen in its feed for this long.
    /// Default 30 days.
    public var tombstoneGrace: Duration = .seconds(30 * 86_400)

    public init() {}
}

/// Row counts, for status and tests. Sendable: a plain value.
public struct StoreCounts: Sendable, Hashable {
    public var sources = 0
    public var notices = 0
    public var tombstones = 0
    public var serviceLinks = 0
    public var historyEvents = 0
    public var manifests = 0

    public init() {}
}

/// What ``HomeStore/applyRetention(now:)`` removed. Sendable: a plain value.
public struct RetentionReport: Sendable, Hashable {
    /// Notices moved to tombstones (too many or too old).
    public var prunedNotices = 0
    /// Tombstones forgotten after ``StoreConfiguration/tombstoneGrace``.
    public var expiredTombstones = 0
    /// History events beyond ``StoreConfiguration/historyLimit``.
    public var trimmedHistory = 0

    public init() {}
}
