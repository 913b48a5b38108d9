extension Store {
    /// What one manifest version shows, read from one snapshot of the database.
    public struct HomeRows: Sendable {
        /// ``recentHistory(limit:)``.
        public var history: [HistoryEvent]
        /// ``newestNotices(of:limit:among:)``, or ``newestNotices(limit:)`` of every source.
        public var notices: [StoredNotice]
        /// ``sources()``.
        public var sources: [Source]
        /// ``serviceLinks()``.
        public var serviceLinks: [StoredServiceLink]
    }

    /// The rows a manifest version is assembled from, in one read transaction: a version never
    /// mixes notices from before an ingest with links from after it, and the service makes it
    /// with one hop to the store's queue instead of four (issue 17).
    ///
    /// - Parameter noticeSources: the sources whose notices are read, picked among the `among`
    ///   newest of every source (``newestNotices(of:limit:among:)``); nil for every source's.
    ///   One value, so a caller cannot give the sources and forget the bound.
    public func homeRows(
        historyLimit: Int,
        noticeLimit: Int,
        noticeSources: (urls: [String], among: Int)? = nil
    ) throws(StoreError) -> HomeRows {
        try database.readTransaction { () throws(StoreError) -> HomeRows in
            let notices: [StoredNotice]
            if let noticeSources {
                notices = try newestNotices(of: noticeSources.urls, limit: noticeLimit, among: noticeSources.among)
            } else {
                notices = try newestNotices(limit: noticeLimit)
            }
            return HomeRows(
                history: try recentHistory(limit: historyLimit),
                notices: notices,
                sources: try sources(),
                serviceLinks: try serviceLinks()
            )
        }
    }
}
