import FoundationEssentials
import HomeFetch
import HomeStore

/// The daemon's image side as ``HomeService`` uses it: the cache directory, the pipeline, and
/// the index each version is built with. Made only with a cache directory and `[images]`
/// enabled.
///
/// Sendable: immutable; the pipeline is an actor.
struct ImageService: Sendable {
    let cache: ImageCache
    let pipeline: ImagePipeline
    let store: Store

    /// - Returns: nil when images are off, or when the cache directory cannot hold them (logged:
    ///   the daemon serves on without images rather than not at all).
    static func make(
        settings: DaemonSettings,
        cacheDirectory: URL?,
        store: Store,
        fetcher: FeedFetcher,
        logger: Logger
    ) -> ImageService? {
        guard let cacheDirectory, settings.images.isEnabled else { return nil }
        let cache = ImageCache(
            cacheDirectory: cacheDirectory,
            group: RenditionGroup(name: settings.clientGroup, logger: logger)
        )
        do {
            try cache.prepare()
        } catch {
            logger.error("images are off: cannot prepare \(cache.root.path): \(error)")
            return nil
        }
        Self.reportSharing(cache.group, logger: logger)
        let signal = ServiceSignal<Void>()
        let pipeline = ImagePipeline(
            settings: settings.images,
            fetchLimits: settings.fetch.limits,
            cache: cache,
            store: store,
            fetcher: fetcher,
            logger: logger,
            onChange: { await signal.raise() }
        )
        return ImageService(cache: cache, pipeline: pipeline, store: store, logger: logger, signal: signal)
    }

    private init(
        cache: ImageCache,
        pipeline: ImagePipeline,
        store: Store,
        logger: Logger,
        signal: ServiceSignal<Void>
    ) {
        self.cache = cache
        self.pipeline = pipeline
        self.store = store
        self.logger = logger
        onChangeSignal = signal
    }

    private let logger: Logger

    /// A reload's `client-group`: image files shared from now on go to it; those made before
    /// keep theirs.
    func updateClientGroup(_ name: String?) {
        cache.group.update(name: name)
        Self.reportSharing(cache.group, logger: logger)
    }

    /// Logs at `<4>` when files cannot be given to the client group.
    private static func reportSharing(_ group: RenditionGroup, logger: Logger) {
        if let name = group.current.name, !group.canShare {
            logger.warning(
                "rendition files keep the daemon's own group: it is not a member of group \(name), or there is "
                    + "no such group (docs/images.md)"
            )
        }
    }

    /// Raised by the pipeline when new images are ready.
    private let onChangeSignal: ServiceSignal<Void>

    /// Calls `body` whenever new images are ready for a version.
    func connect(_ body: @escaping @Sendable () async -> Void) {
        onChangeSignal.connect { _ in await body() }
    }

    /// What the store holds for the images `content` shows.
    func index(for content: HomeContent) async throws -> ImageIndex {
        var subjects: [ImageSubject] = content.notices.compactMap { notice in
            notice.imageURL.map { ImageSubject.image(url: $0, source: notice.sourceURL) }
        }
        for links in content.services.values { subjects += links.compactMap(ImageSubject.of(link:)) }
        var seen: Set<ImageSubject> = []
        return try await ImageIndex.load(subjects.filter { seen.insert($0).inserted }, store: store, cache: cache)
    }

    func needs(_ requirements: [ImageRequirement]) async { await pipeline.needs(requirements) }

    func waitUntilIdle() async { await pipeline.waitUntilIdle() }

    func stop() async { await pipeline.stop() }
}
