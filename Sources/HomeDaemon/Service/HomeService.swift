public import Foundation
import HomeFeeds
import HomeFetch
public import HomeLayout
import HomeStore
public import TextMeasure

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
    /// How the store is doing (`GetStatus`, `STATUS=`, the watchdog).
    let health: StoreHealth
    /// Who may mutate; the client group is resolved here, at start and on reload.
    let authorization: PeerAuthorization
    var scheduler: FetchScheduler
    /// Warnings of each source's last parsed document, for `GetStatus`.
    let parseWarnings = ParseWarningCounts()
    private var schedulerTask: Task<Void, Never>?
    /// Trims the heap once fetching and publishing go quiet (the idle daemon's memory).
    let memory: MemoryRelief
    /// Icons and thumbnails (`[images]`); nil without a cache directory or with `enabled = no`.
    let images: ImageService?

    /// Change requests not yet covered by a published version; see ``requestPublish()``.
    private var changeGeneration = 0
    private var publishedGeneration = 0
    private var isPublishing = false
    /// Each waiter gets the failure of the publication that covered its change, or nil.
    private var publishWaiters: [(generation: Int, continuation: CheckedContinuation<ServiceError?, Never>)] = []
    private var subscribers: [UUID: @Sendable (Int) -> Void] = [:]
    /// After a store recovery: changes wait to be published until every source in here has
    /// been attempted once (or a caller asks for a version), so the salvaged manifests keep
    /// serving instead of a half-empty home screen.
    private var awaitingRefetch: Set<String>?
    /// The last status read from the store, served when the store cannot be read.
    var lastStatus: DaemonStatus?
    /// Measured sizes reported by clients, by target and element (`HomeService+Sizes.swift`),
    /// and the text heights computed for the current version (`HomeService+Text.swift`).
    var measurements = MeasurementBook()
    /// Measures the text of the slots bound to `[text]` styles.
    let textMeasurer: TextMeasurer
    var textState = TextMeasuringState()

    /// Opens the store in `stateDirectory` (moving a corrupt file aside and starting afresh),
    /// serves the persisted manifests at once, then publishes a fresh version from the stored
    /// content, unless the store was recovered: then the next version waits for the refetch.
    /// Fetching starts with ``startFetching()``.
    ///
    /// - Parameter cacheDirectory: where image files go; without one, items carry no images.
    /// - Parameter textMeasurer: measures the text of slots bound to `[text]` styles (the
    ///   daemon's writes fontconfig's caches under `--cache-dir` and has been loading its fonts
    ///   since the daemon started, `DaemonRunner.startTextMeasurer`).
    public init(
        configuration: LoadedConfiguration,
        stateDirectory: URL,
        cacheDirectory: URL? = nil,
        logger: Logger,
        now: Date = Date(),
        textMeasurer: TextMeasurer = TextMeasurer()
    ) async throws {
        self.startedAt = now
        self.configuration = configuration
        self.logger = logger
        self.textMeasurer = textMeasurer
        var storeConfiguration = StoreConfiguration()
        storeConfiguration.historyLimit = configuration.settings.historyLimit
        storeConfiguration.busyTimeout = .milliseconds(Int(configuration.settings.storeBusyTimeout * 1000))
        store = try await HomeStore(
            path: stateDirectory.appendingPathComponent("homefeed.sqlite").path,
            configuration: storeConfiguration,
            recoverIfCorrupt: true
        )
        let store = self.store
        memory = MemoryRelief(releaseCaches: { await store.releaseMemory() })
        health = StoreHealth(recovery: store.recovery)
        authorization = PeerAuthorization(clientGroup: configuration.settings.clientGroup)
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
        let changed = ServiceSignal<Void>()
        let attempted = ServiceSignal<String>()
        var schedule = FetchSchedulerConfiguration()
        schedule.defaultInterval = configuration.settings.refreshInterval
        schedule.maxConcurrentFetches = configuration.settings.fetch.concurrency
        schedule.limits = configuration.settings.fetch.limits
        let log = logger.child("fetch")
        scheduler = FetchScheduler(
            sources: configuration.sources.sources,
            states: states,
            fetcher: fetcher,
            sink: PublishingSink(ingestion: ingestion, changed: changed, health: health, warnings: parseWarnings),
            persistence: RecordingPersistence(ingestion: ingestion, health: health, attempted: attempted),
            configuration: schedule,
            log: { message in log.log(Logger.Level(rawValue: message.level.rawValue) ?? .info, message.message) }
        )
        changed.connect { [weak self] in await self?.requestPublish() }
        images?.connect { [weak self] in await self?.requestPublish() }
        try await loadMeasurements()
        attempted.connect { [weak self] url in await self?.sourceAttempted(url) }
        reportClientGroup()
        if let recovery = store.recovery {
            logger.critical(
                "store \(store.path) was corrupt (\(recovery.reason)); moved it to \(recovery.movedTo) and started "
                    + "a fresh store with \(recovery.salvagedManifests) manifests and \(recovery.salvagedHistory) "
                    + "history events salvaged; every source is fetched again"
            )
        }
        if store.recovery != nil, !persisted.isEmpty {
            awaitingRefetch = Set(configuration.sources.sources.map(\.url))
        } else if let failure = await publish() {
            logger.error("start-up: \(failure)")
        }
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
    ///
    /// - Returns: the failure of that publication, nil when it succeeded.
    @discardableResult
    public func awaitImages() async -> ServiceError? {
        guard let images else { return nil }
        await images.waitUntilIdle()
        return await awaitPublished()
    }

    // MARK: Versions

    /// The version clients currently get.
    public var version: Int {
        get async { await cache.version }
    }

    /// Asks for a new version; changes that arrive while one is being made are coalesced into
    /// the next one. While the store is being refilled after a recovery, the change waits.
    public func requestPublish() {
        changeGeneration += 1
        guard !isPublishing, awaitingRefetch == nil else { return }
        isPublishing = true
        Task { await self.publishLoop() }
    }

    /// Makes a version that includes every change requested so far, and waits for it.
    ///
    /// - Throws: ``ServiceError/storeUnavailable(_:)`` or ``ServiceError/internalError(reason:cause:)``
    ///   when that version could not be made; the previous one keeps serving.
    public func publishNow() async throws(ServiceError) {
        if let failure = await publish() { throw failure }
    }

    /// ``publishNow()`` returning the failure instead of throwing it.
    func publish() async -> ServiceError? {
        releasePublication()
        requestPublish()
        return await awaitPublished()
    }

    /// Waits until the changes requested so far are published, without asking for a version.
    ///
    /// - Returns: the failure of the publication that covered them, nil when it succeeded.
    func awaitPublished() async -> ServiceError? {
        let target = changeGeneration
        if publishedGeneration >= target { return nil }
        return await withCheckedContinuation { continuation in publishWaiters.append((target, continuation)) }
    }

    /// Publishes until every requested change is covered. Each round's failure goes to the
    /// callers waiting on it (``awaitPublished()``) and to the log at `<3>`; the previous
    /// version keeps serving, since a version is served only once it is stored.
    private func publishLoop() async {
        while publishedGeneration < changeGeneration {
            let generation = changeGeneration
            var failure: ServiceError?
            do {
                let content = try await snapshot()
                // The stored images are looked up while the text is measured.
                let images = self.images
                async let stored = images?.index(for: content) ?? .empty
                await measureText(content: content, at: Date())
                let index = try await stored
                let prepared = try await cache.prepare(
                    content: content,
                    bindings: configuration.settings.bindings,
                    spec: configuration.spec,
                    profiles: configuration.settings.profiles,
                    measurements: measurements,
                    images: index,
                    at: Date()
                )
                // Stored first, in one transaction, then served: what clients get is always
                // what a restart serves again.
                try await store.saveManifests(
                    prepared.manifests.map { profile, manifest in
                        StoredManifest(
                            profile: profile,
                            version: Int64(manifest.version),
                            etag: manifest.etag,
                            bytes: manifest.bytes,
                            generatedAt: Date()
                        )
                    }
                )
                await cache.commit(prepared)
                await images?.needs(prepared.manifests.values.flatMap(\.imageRequirements))
                await forgetStaleMeasurements()
                health.succeeded()
                let version = await cache.version
                logger.info("published version \(version) for \(prepared.manifests.count) profiles")
                for handler in subscribers.values { handler(version) }
            } catch let error as StoreError {
                health.failed(error)
                failure = .storeUnavailable(error)
            } catch {
                failure = .internalError(reason: "cannot make a new version", cause: "\(error)")
            }
            if let failure { logger.error("cannot publish a new version: \(failure)") }
            publishedGeneration = generation
            let ready = publishWaiters.filter { $0.generation <= generation }
            publishWaiters.removeAll { $0.generation <= generation }
            for waiter in ready { waiter.continuation.resume(returning: failure) }
        }
        isPublishing = false
        memory.workHappened()
    }

    /// Ends the hold after a store recovery: changes made meanwhile are published now.
    func releasePublication() {
        guard awaitingRefetch != nil else { return }
        awaitingRefetch = nil
        if publishedGeneration < changeGeneration, !isPublishing {
            isPublishing = true
            Task { await self.publishLoop() }
        }
    }

    /// A source's attempt ended (fetched, not modified or failed). Once every source has been
    /// attempted after a store recovery, the refilled store is published.
    func sourceAttempted(_ url: String) {
        memory.workHappened()
        guard var waiting = awaitingRefetch else { return }
        waiting.remove(url)
        awaitingRefetch = waiting
        if waiting.isEmpty {
            logger.notice("every source was fetched again after the store recovery; publishing")
            releasePublication()
        }
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

    /// The served manifest of a profile (the first one for nil) without a hop to any actor: a
    /// `GetManifest` for a profile costs no thread switch (``ManifestCache/servedManifest(profile:)``).
    public nonisolated func servedManifest(profile: String?) -> (profile: String, manifest: EncodedManifest?) {
        cache.servedManifest(profile: profile)
    }

    public func manifest(for environment: LayoutEnvironment) async throws(LayoutSolveError) -> EncodedManifest {
        try await cache.manifest(for: environment)
    }

    public var profileNames: [String] { configuration.settings.profiles.map(\.name) }
}
