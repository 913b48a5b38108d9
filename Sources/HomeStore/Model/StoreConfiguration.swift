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
    /// Most measured sizes kept per target (a profile or a container); the oldest go first.
    /// Default 2 000.
    public var maxMeasurementsPerTarget = 2_000
    /// Most measured sizes kept in all; the oldest go first. Default 20 000.
    public var maxMeasurements = 20_000

    /// The defaults documented on each property.
    public init() {}
}

/// Row counts, for status and tests. Sendable: a plain value.
public struct StoreCounts: Sendable, Hashable {
    /// Configured sources.
    public var sources = 0
    /// Stored notices.
    public var notices = 0
    /// Tombstones of notices removed by retention.
    public var tombstones = 0
    /// Stored service links.
    public var serviceLinks = 0
    /// Stored history events.
    public var historyEvents = 0
    /// Profiles with a stored manifest.
    public var manifests = 0

    /// All counts zero.
    public init() {}
}

/// What ``Store/applyRetention(now:)`` removed. Sendable: a plain value.
public struct RetentionReport: Sendable, Hashable {
    /// Notices moved to tombstones (too many or too old).
    public var prunedNotices = 0
    /// Notices of services sources (URLs whose outline became a list of links), deleted.
    public var servicesSourceNotices = 0
    /// Tombstones forgotten after ``StoreConfiguration/tombstoneGrace``, or because their source
    /// is a services source.
    public var expiredTombstones = 0
    /// History events beyond ``StoreConfiguration/historyLimit``.
    public var trimmedHistory = 0

    /// Nothing removed.
    public init() {}
}
