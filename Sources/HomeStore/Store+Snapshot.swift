extension Store {
    /// What one manifest version shows, read from one snapshot of the database.
    public struct HomeRows: Sendable {
        /// ``recentHistory(limit:)``.
        public var history: [HistoryEvent]
        /// ``newestNotices(of:limit:)``, or ``newestNotices(limit:)`` of every source.
        public var notices: [StoredNotice]
        /// ``newestNotices(sourceURL:limit:)`` of each source asked for, by URL.
        public var sourceNotices: [String: [StoredNotice]]
        /// ``sources()``.
        public var sources: [Source]
        /// ``serviceLinks()``.
        public var serviceLinks: [StoredServiceLink]
    }

    /// The rows a manifest version is assembled from, in one read transaction: a version never
    /// mixes notices from before an ingest with links from after it, and the service makes it
    /// with one hop to the store's queue instead of four (issue 17).
    ///
    /// - Parameters:
    ///   - noticeSources: the URLs of the sources whose notices are read
    ///     (``newestNotices(of:limit:)``); nil for every source's.
    ///   - sourceNoticeLimits: sources whose own newest notices are read as well, each apart
    ///     (``newestNotices(sourceURL:limit:)``), by URL, with how many.
    public func homeRows(
        historyLimit: Int,
        noticeLimit: Int,
        noticeSources: [String]? = nil,
        sourceNoticeLimits: [String: Int] = [:]
    ) throws(StoreError) -> HomeRows {
        try database.readTransaction { () throws(StoreError) -> HomeRows in
            let notices: [StoredNotice]
            if let noticeSources {
                notices = try newestNotices(of: noticeSources, limit: noticeLimit)
            } else {
                notices = try newestNotices(limit: noticeLimit)
            }
            var sourceNotices: [String: [StoredNotice]] = [:]
            for (url, limit) in sourceNoticeLimits {
                sourceNotices[url] = try newestNotices(sourceURL: url, limit: limit)
            }
            return HomeRows(
                history: try recentHistory(limit: historyLimit),
                notices: notices,
                sourceNotices: sourceNotices,
                sources: try sources(),
                serviceLinks: try serviceLinks()
            )
        }
    }
}
