public import FoundationEssentials
import HomeFeeds
import HomeFetch
import HomeLayout
public import HomeStore

/// One source's health, as `GetStatus` reports it.
public struct SourceHealth: Sendable, Equatable {
    public var url: String
    /// `notices` or `services`.
    public var kind: String
    public var title: String?
    /// Notices stored for a notice feed; links stored for a service-link document.
    public var entries: Int
    public var lastAttempt: Date?
    public var lastSuccess: Date?
    public var nextAttempt: Date?
    public var failures: Int
    public var lastError: String?
    /// Warnings of the last document parsed (`ParsedFeed.warningCount`), 0 when clean.
    public var warnings: Int
}

/// `GetStatus`: the daemon's health and per-source state.
public struct DaemonStatus: Sendable, Equatable {
    public var version: Int
    public var startedAt: Date
    public var notices: Int
    public var serviceLinks: Int
    public var history: Int
    public var subscribers: Int
    public var sources: [SourceHealth]
    /// `ok`, `recovered` or `failing` (``StoreHealth``).
    public var store: String = "ok"
    /// Why the store is not ok; nil when it is.
    public var storeReason: String?
    /// Why the version served is not the content's, as `STATUS=` says it after `stale:` (the
    /// failure of the last version tried, ``VersionPublisher/staleness``); nil while it is current.
    public var stale: String?
    /// Nil when images are off.
    public var images: ImageHealth?
}

/// The image side of `GetStatus`.
public struct ImageHealth: Sendable, Equatable {
    public var originals: Int
    public var renditions: Int
    public var cacheBytes: Int
    /// The last error of each image URL or page that has one, newest first.
    public var errors: [ImageErrorLine]
}

/// One image's error: the image or page URL and one line saying what went wrong.
public struct ImageErrorLine: Sendable, Equatable {
    public var url: String
    public var error: String
}

/// A notice as `ListNotices` returns it.
public struct NoticeSummary: Sendable, Equatable {
    public var source: String
    public var sourceTitle: String?
    public var id: String
    public var title: String?
    public var link: String?
    public var published: Date?
    public var summary: String?
}

/// Why a call could not be carried out. Each case has a declared `io.homefeed` error
/// (`HomefeedInterface`); descriptions are for the log and may hold SQL and paths.
public enum ServiceError: Error, Sendable, CustomStringConvertible {
    case sourceNotFound(String)
    case invalidArgument(parameter: String, reason: String)
    case configuration(ConfigError)
    /// The store failed: locked by another process past the busy timeout, corrupt, full,
    /// read-only (`io.homefeed.StoreUnavailable`).
    case storeUnavailable(StoreError)
    /// Anything else: `reason` is what the client is told, `cause` goes to the log only
    /// (`io.homefeed.InternalError`).
    case internalError(reason: String, cause: String)
    /// A version the layout cannot lay out with the content stored now (a list grown past a
    /// section's budget), the layout file, JSON path and profile in `problem`
    /// (`io.homefeed.InternalError`). It fails the same way until the content, the layout or the
    /// history changes (``VersionPublisher``).
    case contentNotLaidOut(ConfigError)

    /// What an `io.homefeed.InternalError` tells the client of ``contentNotLaidOut(_:)``.
    static let contentNotLaidOutReason = "cannot make a new version: the layout cannot lay out the content stored now"

    public var description: String {
        switch self {
        case .sourceNotFound(let url): "no source \(url)"
        case .invalidArgument(let parameter, let reason): "\(parameter): \(reason)"
        case .configuration(let error): error.description
        case .storeUnavailable(let error): "store unavailable: \(error)"
        case .internalError(let reason, let cause): "\(reason): \(cause)"
        case .contentNotLaidOut(let problem): "\(Self.contentNotLaidOutReason): \(problem)"
        }
    }
}

extension HomeService {
    /// The source URLs the running configuration names, and its list document (which holds
    /// the links written directly in `sources.opml`). Content of sources removed from the
    /// configuration stays in the store but is no longer shown or listed.
    var configuredSourceURLs: Set<String> { Self.sourceURLs(of: configuration) }

    static func sourceURLs(of configuration: LoadedConfiguration) -> Set<String> {
        Set(configuration.sources.sources.map(\.url)).union([configuration.sources.documentURL])
    }

    /// The configured sources whose notices are shown and listed: the `rss` outlines. A URL
    /// whose outline changed kind keeps its old notices, unseen, until the next hourly
    /// retention pass deletes them (``Store/applyRetention(now:)``).
    static func noticeSourceURLs(of configuration: LoadedConfiguration) -> Set<String> {
        configuration.sources.urls(of: .notices)
    }

    /// The configured sources whose service links are shown: the `link` outlines that are
    /// lists, and the list document itself.
    static func serviceSourceURLs(of configuration: LoadedConfiguration) -> Set<String> {
        configuration.sources.urls(of: .services).union([configuration.sources.documentURL])
    }

    /// The store's rows of the sources the configuration lists (not its list document), in the
    /// store's order: what `GetStatus` reports and `STATUS=` counts.
    func listedSources() async throws(StoreError) -> [Source] {
        let listed = Set(configuration.sources.sources.map(\.url))
        return try await store.sources().filter { listed.contains($0.url) }
    }

    /// The content the assembler lays out, read from one snapshot of the store: the user and
    /// the configured sources' rows of `configuration`, the one the version is made with, and
    /// the history and notices its sections' runs take (``ContentReads``): every configured
    /// source's newest, and each `notices@URL` run's source's own.
    func snapshot(of configuration: LoadedConfiguration) async throws -> HomeContent {
        let settings = configuration.settings
        let noticeSources = Self.noticeSourceURLs(of: configuration)
        let serviceSources = Self.serviceSourceURLs(of: configuration)
        let reads = ContentReads(sectionIDs: configuration.spec.sections.map(\.id), bindings: settings.bindings)
        let rows = try await store.homeRows(
            historyLimit: reads.history,
            noticeLimit: reads.notices,
            noticeSources: noticeSources.sorted(),
            // A run's URL is a configured feed's (DaemonSettings.resolveNoticeRuns).
            sourceNoticeLimits: reads.sourceNotices.filter { noticeSources.contains($0.key) }
        )
        let history = rows.history.map {
            HistoryEntry(id: $0.id, title: $0.title, link: $0.link, kind: $0.kind, at: $0.time)
        }
        let notices = rows.notices.map(Notice.init)
        let sourceNotices = rows.sourceNotices.mapValues { $0.map(Notice.init) }
        var services: [String: [ServiceLink]] = [:]
        let configuredSources = Dictionary(
            rows.sources.filter { serviceSources.contains($0.url) }.map { ($0.id, $0.url) },
            uniquingKeysWith: { first, _ in first }
        )
        for link in rows.serviceLinks where configuredSources[link.sourceID] != nil {
            services[link.section, default: []].append(
                ServiceLink(
                    title: link.title,
                    url: link.url,
                    icon: link.icon,
                    description: link.description,
                    sourceURL: configuredSources[link.sourceID]
                )
            )
        }
        return HomeContent(
            user: settings.user,
            history: history,
            notices: notices,
            sourceNotices: sourceNotices,
            services: services
        )
    }

    /// The status `GetStatus` returns. It always answers: when the store cannot be read, the
    /// counts and sources are the last ones read, and the store state says why.
    ///
    /// Counting reads every notice index page into SQLite's page cache (2 MB with 100 000
    /// notices); the memory relief gives it back once the daemon is quiet again, or the idle
    /// daemon would keep it after each `GetStatus`. (`STATUS=` does not count:
    /// ``statusSummary()``.)
    public func status() async -> DaemonStatus {
        defer { memory.workHappened() }
        var status =
            lastStatus
            ?? DaemonStatus(
                version: 0,
                startedAt: startedAt,
                notices: 0,
                serviceLinks: 0,
                history: 0,
                subscribers: 0,
                sources: []
            )
        do {
            let counts = try await store.counts()
            var sources: [SourceHealth] = []
            for source in try await listedSources() {
                let entries =
                    source.kind == .notices
                    ? try await store.noticeCount(sourceURL: source.url)
                    : try await store.serviceLinks(sourceURL: source.url).count
                sources.append(
                    SourceHealth(
                        url: source.url,
                        kind: source.kind.rawValue,
                        title: source.title,
                        entries: entries,
                        lastAttempt: source.lastAttempt,
                        lastSuccess: source.lastSuccess,
                        nextAttempt: source.nextAttempt,
                        failures: source.consecutiveFailures,
                        lastError: source.isGone ? (source.lastError ?? "gone: polling stopped") : source.lastError,
                        warnings: parseWarnings.count(for: source.url)
                    )
                )
            }
            status.notices = counts.notices
            status.serviceLinks = counts.serviceLinks
            status.history = counts.historyEvents
            status.sources = sources
            if images != nil {
                let imageCounts = try await store.imageCounts()
                status.images = ImageHealth(
                    originals: imageCounts.originals,
                    renditions: imageCounts.renditions,
                    cacheBytes: try await store.imageCacheBytes(),
                    errors: try await store.imageErrors(limit: 50).map { ImageErrorLine(url: $0.url, error: $0.error) }
                )
            }
            lastStatus = status
        } catch {
            health.failed(error)
            logger.error("status: cannot read the store: \(error)")
        }
        status.version = await cache.version
        status.subscribers = subscriberCount
        let report = health.report
        status.store = report.state.rawValue
        status.storeReason = report.reason
        status.stale = publisher.staleness?.description
        return status
    }

    /// Fetches one source (or all) now and returns when done, with the version that includes
    /// whatever changed.
    ///
    /// - Throws: ``ServiceError/storeUnavailable(_:)`` when storing a fetched document or a
    ///   source's fetch state failed meanwhile, or the version could not be made.
    public func refresh(url: String?) async throws(ServiceError) -> (attempted: Int, changed: Int, version: Int) {
        let failuresBefore = health.totalFailures
        let summary: RefreshSummary
        do throws(FetchSchedulerError) {
            summary = try await scheduler.refresh(url: url)
        } catch {
            throw .sourceNotFound(url ?? "")
        }
        // An explicit refresh ends the wait after a store recovery.
        releasePublication()
        // Documents that changed the store already asked for a version: wait for it, then for
        // the images it shows.
        if let failure = await awaitPublished() { throw failure }
        if let failure = await awaitImages() { throw failure }
        if health.totalFailures > failuresBefore, let error = health.lastError { throw .storeUnavailable(error) }
        return (summary.attempted, summary.changed, await cache.version)
    }

    /// Records a user-history event and returns its id and the version that shows it.
    public func recordHistory(title: String, link: String?, kind: String?, at: Date?) async throws(ServiceError) -> (
        id: Int64, version: Int
    ) {
        // Folded as feed text is: one paragraph, whose line count a text style's max-lines caps.
        guard let title = FoldedText.of(title), title.utf8.count <= HistoryEventLimits.titleBytes else {
            throw .invalidArgument(
                parameter: "title",
                reason: "must be 1 to \(HistoryEventLimits.titleBytes) bytes of text"
            )
        }
        if let link, link.utf8.count > HistoryEventLimits.linkBytes {
            throw .invalidArgument(parameter: "link", reason: "longer than \(HistoryEventLimits.linkBytes) bytes")
        }
        if let at, at.timeIntervalSince1970 < 0 || at > Date().addingTimeInterval(300) {
            throw .invalidArgument(parameter: "at", reason: "must be after 1970 and not in the future")
        }
        var folded: String?
        if let kind {
            // The item's subtitle, folded as the title is.
            guard let kind = FoldedText.of(kind), kind.utf8.count <= HistoryEventLimits.kindBytes else {
                throw .invalidArgument(
                    parameter: "kind",
                    reason: "must be 1 to \(HistoryEventLimits.kindBytes) bytes of text"
                )
            }
            folded = kind
        }
        let id = try await withStore("cannot record history", isWrite: true) {
            try await store.recordHistory(
                HistoryInput(time: at ?? Date(), title: title, link: link, kind: folded ?? "open")
            )
        }
        try await publishNow()
        return (id, await cache.version)
    }

    /// The newest notices, optionally of one source.
    public func notices(limit: Int, sourceURL: String?) async throws(ServiceError) -> [NoticeSummary] {
        guard (1...1000).contains(limit) else {
            throw .invalidArgument(parameter: "limit", reason: "must be 1 to 1000")
        }
        let configured = configuredSourceURLs
        if let sourceURL, !configured.contains(sourceURL) {
            throw .sourceNotFound(sourceURL)
        }
        let noticeSources = Self.noticeSourceURLs(of: configuration)
        let notices: [StoredNotice] = try await withStore("cannot read notices", isWrite: false) {
            if let sourceURL {
                // A list of links has no notices, whatever it held as a feed before.
                guard noticeSources.contains(sourceURL) else { return [] }
                return try await store.newestNotices(sourceURL: sourceURL, limit: limit)
            }
            return try await store.newestNotices(of: noticeSources.sorted(), limit: limit)
        }
        return notices.map {
            NoticeSummary(
                source: $0.sourceURL,
                sourceTitle: $0.sourceTitle,
                id: $0.entryID,
                title: $0.title,
                link: $0.link,
                published: $0.published,
                summary: $0.summary
            )
        }
    }

    /// Logs at `<4>` when the configured client group does not exist: then only root and the
    /// daemon's user may call the mutating methods.
    func reportClientGroup() {
        let policy = authorization.current
        if let group = policy.clientGroup, policy.groupID == nil {
            logger.warning(
                "client-group \(group) does not exist; only root and the daemon's user may call mutating methods"
            )
        }
    }
}

extension Notice {
    /// The assembler's view of a stored notice, without the store's bookkeeping.
    fileprivate init(_ stored: StoredNotice) {
        self.init(
            sourceURL: stored.sourceURL,
            sourceTitle: stored.sourceTitle,
            entryID: stored.entryID,
            title: stored.title,
            link: stored.link,
            published: stored.published,
            summary: stored.summary,
            imageURL: stored.imageURL
        )
    }
}
