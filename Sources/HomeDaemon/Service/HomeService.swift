public import Foundation
import HomeFeeds
import HomeFetch
public import HomeLayout
import HomeStore

/// The daemon's state and everything it does, transport aside: the configuration, the store,
/// the fetch scheduler, the manifest versions and who to tell about new ones.
///
/// `io.homefeed` calls map one to one onto its methods; the Varlink layer only encodes.
/// Sendable: an actor. Store work runs on the store's own queue, never on this actor's.
public actor HomeService {
    public let startedAt: Date
    public internal(set) var configuration: LoadedConfiguration
    let store: HomeStore
    let cache: ManifestCache
    let fetcher: FeedFetcher
    let logger: Logger
    var scheduler: FetchScheduler
    private var schedulerTask: Task<Void, Never>?
    /// Icons and thumbnails (`[images]`); nil without a cache directory or with `enabled = no`.
    let images: ImageService?

    /// Change requests not yet covered by a published version; see ``requestPublish()``.
    private var changeGeneration = 0
    private var publishedGeneration = 0
    private var isPublishing = false
    private var publishWaiters: [(generation: Int, continuation: CheckedContinuation<Void, Never>)] = []
    private var subscribers: [UUID: @Sendable (Int) -> Void] = [:]

    /// Opens the store in `stateDirectory`, serves the persisted manifests at once, then
    /// publishes a fresh version from the stored content. Fetching starts with ``startFetching()``.
    ///
    /// - Parameter cacheDirectory: where image files go; without one, items carry no images.
    public init(
        configuration: LoadedConfiguration,
        stateDirectory: URL,
        cacheDirectory: URL? = nil,
        logger: Logger,
        now: Date = Date()
    ) async throws {
        self.startedAt = now
        self.configuration = configuration
        self.logger = logger
        var storeConfiguration = StoreConfiguration()
        storeConfiguration.historyLimit = configuration.settings.historyLimit
        store = try await HomeStore(
            path: stateDirectory.appendingPathComponent("homefeed.sqlite").path,
            configuration: storeConfiguration
        )
        fetcher = FeedFetcher(configuration: configuration.settings.fetch.fetcherConfiguration)
        let persisted = try await store.loadManifests()
        // Versions only increase, even when the profiles were renamed since the last run.
        cache = ManifestCache(
            spec: configuration.spec,
            profiles: configuration.settings.profiles,
            version: Int(persisted.map(\.version).max() ?? 0)
        )
        var restored: [String: EncodedManifest] = [:]
        for manifest in persisted {
            guard let profile = configuration.settings.profiles.first(where: { $0.name == manifest.profile }) else {
                continue
            }
            restored[manifest.profile] = EncodedManifest(
                version: Int(manifest.version),
                etag: manifest.etag,
                environment: profile.environment,
                bytes: manifest.bytes
            )
        }
        await cache.restore(restored)
        let ingestion = StoreIngestion(
            store: store,
            maxImageBytes: configuration.settings.images.maxImageBytes,
            maxImagePixels: configuration.settings.images.maxPixels
        )
        images = ImageService.make(
            settings: configuration.settings,
            cacheDirectory: cacheDirectory,
            store: store,
            fetcher: fetcher,
            logger: logger.child("images")
        )
        let states = try await ingestion.register(configuration.sources)
        _ = try await ingestion.storeListLinks(configuration.sources)
        let changed = ChangeSignal()
        var schedule = FetchSchedulerConfiguration()
        schedule.defaultInterval = configuration.settings.refreshInterval
        schedule.maxConcurrentFetches = configuration.settings.fetch.concurrency
        schedule.limits = configuration.settings.fetch.limits
        let log = logger.child("fetch")
        scheduler = FetchScheduler(
            sources: configuration.sources.sources,
            states: states,
            fetcher: fetcher,
            sink: PublishingSink(ingestion: ingestion, changed: changed),
            persistence: ingestion,
            configuration: schedule,
            log: { message in log.log(Logger.Level(rawValue: message.level.rawValue) ?? .info, message.message) }
        )
        changed.connect { [weak self] in await self?.requestPublish() }
        images?.connect { [weak self] in await self?.requestPublish() }
        try await publishNow()
    }

    // MARK: Fetching

    /// Starts polling on schedule (not in `init`, so tests and `--check-config` stay offline).
    public func startFetching() {
        guard schedulerTask == nil else { return }
        let scheduler = self.scheduler
        schedulerTask = Task { await scheduler.run() }
    }

    /// Stops polling and waits for fetches in flight; their documents are stored first.
    public func stop() async {
        schedulerTask?.cancel()
        await schedulerTask?.value
        schedulerTask = nil
        await images?.stop()
        await fetcher.shutdown()
    }

    /// Returns once the image pipeline has nothing left to do for the current version, and
    /// the version that shows its results is published.
    public func awaitImages() async {
        guard let images else { return }
        await images.waitUntilIdle()
        await awaitPublished()
    }

    // MARK: Versions

    /// The version clients currently get.
    public var version: Int {
        get async { await cache.version }
    }

    /// Asks for a new version; changes that arrive while one is being made are coalesced into
    /// the next one.
    public func requestPublish() {
        changeGeneration += 1
        guard !isPublishing else { return }
        isPublishing = true
        Task { await self.publishLoop() }
    }

    /// Makes a version that includes every change requested so far, and waits for it.
    public func publishNow() async throws {
        requestPublish()
        await awaitPublished()
    }

    /// Waits until the changes requested so far are published, without asking for a version.
    func awaitPublished() async {
        let target = changeGeneration
        if publishedGeneration >= target { return }
        await withCheckedContinuation { continuation in publishWaiters.append((target, continuation)) }
    }

    private func publishLoop() async {
        while publishedGeneration < changeGeneration {
            let generation = changeGeneration
            do {
                let content = try await snapshot()
                let index = try await images?.index(for: content) ?? .empty
                let built = try await cache.publish(
                    content: content,
                    bindings: configuration.settings.bindings,
                    spec: configuration.spec,
                    profiles: configuration.settings.profiles,
                    images: index,
                    at: Date()
                )
                await images?.needs(built.values.flatMap(\.imageRequirements))
                for (profile, manifest) in built {
                    try await store.saveManifest(
                        StoredManifest(
                            profile: profile,
                            version: Int64(manifest.version),
                            etag: manifest.etag,
                            bytes: manifest.bytes,
                            generatedAt: Date()
                        )
                    )
                }
                let version = await cache.version
                logger.info("published version \(version) for \(built.count) profiles")
                for handler in subscribers.values { handler(version) }
            } catch {
                logger.error("cannot publish a new version: \(error)")
            }
            publishedGeneration = generation
            let ready = publishWaiters.filter { $0.generation <= generation }
            publishWaiters.removeAll { $0.generation <= generation }
            for waiter in ready { waiter.continuation.resume() }
        }
        isPublishing = false
    }

    /// Calls `handler` with each new version number until ``unsubscribe(_:)``.
    public func subscribe(_ handler: @escaping @Sendable (Int) -> Void) -> UUID {
        let token = UUID()
        subscribers[token] = handler
        return token
    }

    public func unsubscribe(_ token: UUID) {
        subscribers[token] = nil
    }

    public var subscriberCount: Int { subscribers.count }

    // MARK: Manifests

    public func manifest(profile: String) async -> EncodedManifest? {
        await cache.manifest(profile: profile)
    }

    public func manifest(for environment: LayoutEnvironment) async throws(LayoutSolveError) -> EncodedManifest {
        try await cache.manifest(for: environment)
    }

    public var profileNames: [String] { configuration.settings.profiles.map(\.name) }
}
