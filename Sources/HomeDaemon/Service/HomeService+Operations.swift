public import Foundation
import HomeFetch
import HomeStore

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

/// Why a mutating call could not be carried out.
public enum ServiceError: Error, Sendable, CustomStringConvertible {
    case sourceNotFound(String)
    case invalidArgument(parameter: String, reason: String)
    case configuration(ConfigError)
    case internalError(String)

    public var description: String {
        switch self {
        case .sourceNotFound(let url): "no source \(url)"
        case .invalidArgument(let parameter, let reason): "\(parameter): \(reason)"
        case .configuration(let error): error.description
        case .internalError(let message): message
        }
    }
}

extension HomeService {
    /// The content the assembler lays out, read from the store.
    /// The source URLs the running configuration names, and its list document (which holds
    /// the links written directly in `sources.opml`). Content of sources removed from the
    /// configuration stays in the store but is no longer shown or listed.
    var configuredSourceURLs: Set<String> {
        Set(configuration.sources.sources.map(\.url)).union([configuration.sources.documentURL])
    }

    func snapshot() async throws -> HomeContent {
        let settings = configuration.settings
        let configured = configuredSourceURLs
        let history = try await store.recentHistory(limit: 100).map {
            HistoryEntry(id: $0.id, title: $0.title, link: $0.link, kind: $0.kind, at: $0.time)
        }
        let notices = try await store.newestNotices(limit: 500).filter { configured.contains($0.sourceURL) }.prefix(100)
            .map {
                Notice(
                    sourceURL: $0.sourceURL,
                    sourceTitle: $0.sourceTitle,
                    entryID: $0.entryID,
                    title: $0.title,
                    link: $0.link,
                    published: $0.published,
                    summary: $0.summary,
                    imageURL: $0.imageURL
                )
            }
        var services: [String: [ServiceLink]] = [:]
        let configuredSources = Dictionary(
            try await store.sources().filter { configured.contains($0.url) }.map { ($0.id, $0.url) },
            uniquingKeysWith: { first, _ in first }
        )
        for link in try await store.serviceLinks() where configuredSources[link.sourceID] != nil {
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
        return HomeContent(user: settings.user, history: history, notices: notices, services: services)
    }

    public func status() async throws -> DaemonStatus {
        let counts = try await store.counts()
        var sources: [SourceHealth] = []
        for source in try await store.sources()
        where configuration.sources.sources.contains(where: { $0.url == source.url }) {
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
                    lastError: source.isGone ? (source.lastError ?? "gone: polling stopped") : source.lastError
                )
            )
        }
        var imageHealth: ImageHealth?
        if images != nil {
            let imageCounts = try await store.imageCounts()
            imageHealth = ImageHealth(
                originals: imageCounts.originals,
                renditions: imageCounts.renditions,
                cacheBytes: try await store.imageCacheBytes(),
                errors: try await store.imageErrors(limit: 50).map { ImageErrorLine(url: $0.url, error: $0.error) }
            )
        }
        return DaemonStatus(
            version: await cache.version,
            startedAt: startedAt,
            notices: counts.notices,
            serviceLinks: counts.serviceLinks,
            history: counts.historyEvents,
            subscribers: subscriberCount,
            sources: sources,
            images: imageHealth
        )
    }

    /// Fetches one source (or all) now and returns when done, with the version that includes
    /// whatever changed.
    public func refresh(url: String?) async throws(ServiceError) -> (attempted: Int, changed: Int, version: Int) {
        let summary: RefreshSummary
        do throws(FetchSchedulerError) {
            summary = try await scheduler.refresh(url: url)
        } catch {
            throw .sourceNotFound(url ?? "")
        }
        // Documents that changed the store already asked for a version: wait for it, then for
        // the images it shows.
        await awaitPublished()
        await awaitImages()
        return (summary.attempted, summary.changed, await cache.version)
    }

    /// Records a user-history event and returns its id and the version that shows it.
    public func recordHistory(title: String, link: String?, kind: String?, at: Date?) async throws(ServiceError) -> (
        id: Int64, version: Int
    ) {
        let title = title.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !title.isEmpty, title.utf8.count <= 1024 else {
            throw .invalidArgument(parameter: "title", reason: "must be 1 to 1024 bytes of text")
        }
        if let link, link.utf8.count > 4096 {
            throw .invalidArgument(parameter: "link", reason: "longer than 4096 bytes")
        }
        if let at, at.timeIntervalSince1970 < 0 || at > Date().addingTimeInterval(300) {
            throw .invalidArgument(parameter: "at", reason: "must be after 1970 and not in the future")
        }
        if let kind, kind.isEmpty || kind.utf8.count > 64 {
            throw .invalidArgument(parameter: "kind", reason: "must be 1 to 64 bytes")
        }
        do {
            let id = try await store.recordHistory(
                HistoryInput(time: at ?? Date(), title: title, link: link, kind: kind ?? "open")
            )
            try await publishNow()
            return (id, await cache.version)
        } catch {
            throw .internalError("cannot record history: \(error)")
        }
    }

    /// The newest notices, optionally of one source.
    public func notices(limit: Int, sourceURL: String?) async throws(ServiceError) -> [NoticeSummary] {
        guard (1...1000).contains(limit) else {
            throw .invalidArgument(parameter: "limit", reason: "must be 1 to 1000")
        }
        do {
            if let sourceURL, !configuredSourceURLs.contains(sourceURL) {
                throw ServiceError.sourceNotFound(sourceURL)
            }
            let configured = configuredSourceURLs
            // (HomeStore's `Notice` shares its name with the daemon's; map without naming it.)
            let notices =
                if let sourceURL {
                    try await store.newestNotices(sourceURL: sourceURL, limit: limit)
                } else {
                    Array(
                        try await store.newestNotices(limit: limit + 500).filter { configured.contains($0.sourceURL) }
                            .prefix(limit)
                    )
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
        } catch let error as ServiceError {
            throw error
        } catch {
            throw .internalError("cannot read notices: \(error)")
        }
    }

    /// Re-reads the configuration directory. A configuration that does not validate is
    /// rejected and the current one keeps serving.
    public func reload() async throws(ServiceError) -> Int {
        let next: LoadedConfiguration
        do throws(ConfigError) {
            next = try await LoadedConfiguration.load(directory: configuration.directory)
        } catch {
            logger.error("reload rejected, keeping the running configuration: \(error)")
            throw .configuration(error)
        }
        do {
            let ingestion = StoreIngestion(
                store: store,
                maxImageBytes: next.settings.images.maxImageBytes,
                maxImagePixels: next.settings.images.maxPixels
            )
            let states = try await ingestion.register(next.sources)
            _ = try await ingestion.storeListLinks(next.sources)
            await scheduler.replaceSources(next.sources.sources, states: states)
            configuration = next
            try await publishNow()
        } catch {
            throw .internalError("cannot apply the new configuration: \(error)")
        }
        logger.notice("configuration reloaded")
        return await cache.version
    }
}
