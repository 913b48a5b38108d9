public import FoundationEssentials
import HomeFeeds
import HomeFetch
public import HomeLayout
public import HomeStore
public import TextMeasure
public import Varlink

/// The daemon's state and everything it does, transport aside: the configuration, the store,
/// the fetch scheduler, and the manifest versions (made by a ``VersionPublisher``).
///
/// `io.homefeed` calls map one to one onto its methods; the Varlink layer only encodes.
/// Sendable: an actor. Store work runs on the store's own queue, never on this actor's.
///
/// ## The event path
///
/// How a fetched notice reaches a client, each step with one owner:
///
/// 1. Fetch: the `FetchScheduler` (HomeFetch), run by ``startFetching()``, polls each source on
///    its schedule and hands every fetched document to its sink.
/// 2. Scheduler → store: ``PublishingSink`` stores the document in one transaction
///    (``StoreIngestion``, Store) and, when the store changed, raises the change signal.
///    New images, `RecordHistory`, `Reload` and `ReportSizes` ask for a version the same way.
/// 3. Change signal: ``VersionPublisher/request()`` counts the change and yields into the
///    publisher's one `AsyncStream`; one task, owned here and awaited by ``stop()``, consumes it.
///    Changes that come while a version is being made are coalesced into the next one.
/// 4. Service: ``makeVersion()`` reads the store, lays out and encodes every profile
///    (``ManifestCache/prepare(content:bindings:spec:profiles:measurements:images:at:)``),
///    stores the manifests in one transaction, then commits them: what clients get is what a
///    restart serves again. Callers waiting on a change get that version's failure, or nil.
/// 5. Manifest cache: ``ManifestCache`` answers `GetManifest` with the encoded bytes, no work
///    per call.
/// 6. Hub: the version number goes to every ``versions()`` stream. The daemon's runner follows
///    one in one task it awaits at shutdown: ``HomefeedInterface/pushCurrentVersion()`` has the
///    `SubscriptionHub` frame each target's reply once, then `STATUS=` is updated.
/// 7. Connection: the Varlink server's connections write those bytes to every `GetManifest`
///    subscriber from its event loop, coalescing for a slow one.
public actor HomeService {
    public let startedAt: Date
    public internal(set) var configuration: LoadedConfiguration
    let store: Store
    let cache: ManifestCache
    let fetcher: FeedFetcher
    let logger: Logger
    /// How the store is doing (`GetStatus`, `STATUS=`, the watchdog).
    let health: StoreHealth
    /// Whether the store last refused to write because the system clock is behind.
    let storeClock: StoreClockWatch
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

    /// Makes the versions (``HomeService+Publishing.swift``), run by ``publishing``.
    let publisher: VersionPublisher
    /// The one task that makes versions; ``stop()`` ends it after the version in flight.
    private var publishing: Task<Void, Never>?
    /// After a store recovery: changes wait to be published until every source in here has
    /// been attempted once (or a caller asks for a version), so the salvaged manifests keep
    /// serving instead of a half-empty home screen.
    var awaitingRefetch: Set<String>?
    /// The highest version that may have been served, kept beside the store
    /// (``VersionReservation``): a version above it is reserved before it is stored.
    var versionReservation: VersionReservation
    /// The last status read from the store, served when the store cannot be read.
    var lastStatus: DaemonStatus?
    /// The configured sources last read for `STATUS=`, and how many were failing
    /// (``statusSummary()``), shown when the store cannot be read.
    var lastSourceTally = (sources: 0, failing: 0)
    /// Measured sizes reported by clients, by target and element (`HomeService+Sizes.swift`),
    /// and the text heights computed for the current version (`HomeService+Text.swift`).
    var measurements = MeasurementBook()
    /// Measures the text of the slots bound to `[text]` styles.
    let textMeasurer: TextMeasurer
    var textState = TextMeasuringState()

    /// Opens the store in `stateDirectory` (moving a corrupt file aside and starting afresh, or
    /// mending its indexes, ``openStore(in:configuration:logger:stop:)``),
    /// serves the persisted manifests at once, then publishes a fresh version from the stored
    /// content, unless the store was recovered: then the next version waits for the refetch.
    /// Fetching starts with ``startFetching()``.
    ///
    /// - Parameter cacheDirectory: where image files go; without one, items carry no images.
    /// - Parameter textMeasurer: measures the text of slots bound to `[text]` styles (the
    ///   daemon's writes fontconfig's caches under `--cache-dir` and has been loading its fonts
    ///   since the daemon started, `DaemonRunner.startTextMeasurer`).
    /// - Parameter storeOpeningStop: ends the store's opening early when requested (SIGTERM
    ///   while the daemon starts, ``StartupStop``); the init then throws.
    public init(
        configuration: LoadedConfiguration,
        stateDirectory: URL,
        cacheDirectory: URL? = nil,
        logger: Logger,
        now: Date = Date(),
        textMeasurer: TextMeasurer = TextMeasurer(),
        storeOpeningStop: StoreOpeningStop? = nil
    ) async throws {
        self.startedAt = now
        self.configuration = configuration
        self.logger = logger
        self.textMeasurer = textMeasurer
        var storeConfiguration = StoreConfiguration()
        storeConfiguration.historyLimit = configuration.settings.historyLimit
        storeConfiguration.busyTimeout = .milliseconds(Int(configuration.settings.storeBusyTimeout * 1000))
        store = try await Self.openStore(
            in: stateDirectory,
            configuration: storeConfiguration,
            logger: logger,
            stop: storeOpeningStop
        )
        let store = self.store
        memory = MemoryRelief(releaseCaches: { await store.releaseMemory() })
        health = StoreHealth(
            recovery: store.recovery,
            corruptionFound: Self.requestFullCheck(of: store, logger: logger)
        )
        storeClock = StoreClockWatch(logger: logger)
        authorization = PeerAuthorization(clientGroup: configuration.settings.clientGroup)
        fetcher = FeedFetcher(configuration: configuration.settings.fetch.fetcherConfiguration)
        let persisted = try await store.loadManifests()
        let holdsVersions = store.recovery != nil && !persisted.isEmpty
        publisher = VersionPublisher(held: holdsVersions)
        let (reservation, warning) = VersionReservation.read(in: stateDirectory.path)
        if let warning { logger.warning(warning) }
        versionReservation = reservation
        // Versions only increase, even when the profiles were renamed since the last run, and
        // when the store lost its manifests (a recovery that salvaged none, a deleted file) or
        // its last commits (a power loss under synchronous=NORMAL): the reservation is synced.
        cache = ManifestCache(
            spec: configuration.spec,
            profiles: configuration.settings.profiles,
            version: max(persisted.map { Int($0.version) }.max() ?? 0, reservation.reserved)
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
        scheduler = FetchScheduler(
            sources: configuration.sources.sources,
            states: states,
            fetcher: fetcher,
            sink: PublishingSink(
                ingestion: ingestion,
                changed: changed,
                health: health,
                warnings: parseWarnings,
                clock: storeClock
            ),
            persistence: RecordingPersistence(ingestion: ingestion, health: health, attempted: attempted),
            configuration: schedule,
            log: logger.child("fetch").handler
        )
        let publisher = self.publisher
        changed.connect { publisher.request() }
        images?.connect { publisher.request() }
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
        publishing = Task { [weak self] in
            await publisher.run(
                making: {
                    guard let self else { return .failure(VersionPublisher.stopped) }
                    return await self.makeVersion()
                },
                failed: { [weak self] failure, delay in self?.versionFailed(failure, retryingIn: delay) },
                recovered: { [weak self] version, failure in self?.versionRecovered(version, from: failure) }
            )
        }
        if holdsVersions {
            awaitingRefetch = Set(configuration.sources.sources.map(\.url))
        } else {
            // A failure is logged, and tried again, by the publisher.
            _ = await publisher.publish()
        }
    }

    deinit {
        publisher.finish()
    }

    // MARK: Fetching

    /// Starts polling on schedule (not in `init`, so tests and `--check-config` stay offline).
    public func startFetching() {
        guard schedulerTask == nil else { return }
        let scheduler = self.scheduler
        schedulerTask = Task { await scheduler.run() }
    }

    /// Stops polling and waits for fetches in flight (their documents are stored first), then
    /// for the version in flight (and the one a pending change asks for); no version is made
    /// after. The image pipeline stops next, so that version's images are not asked for again;
    /// then the store's write-ahead log is checkpointed into its file and, once that has synced
    /// the last version's manifests, the version reservation comes down to that version
    /// (``VersionReservation/settle(at:)``); a pending heap trim (``MemoryRelief``) is cancelled
    /// last.
    public func stop() async {
        schedulerTask?.cancel()
        await schedulerTask?.value
        schedulerTask = nil
        publisher.finish()
        await publishing?.value
        publishing = nil
        await images?.stop()
        await fetcher.shutdown()
        do throws(StoreError) {
            if try await store.checkpoint() {
                let served = await cache.version
                do throws(FileCallError) {
                    try versionReservation.settle(at: served)
                } catch {
                    logger.warning("stop: the version reservation stays a block ahead: \(error)")
                }
            } else {
                logger.warning("stop: another reader kept part of the write-ahead log beside \(store.path)")
            }
        } catch {
            logger.warning("stop: the store's write-ahead log stays beside \(store.path): \(error)")
        }
        // Last: fetches and versions, which ask for reliefs, have ended.
        await memory.stop()
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

    // MARK: Manifests

    public func manifest(profile: String) async -> EncodedManifest? {
        await cache.manifest(profile: profile)
    }

    /// The served manifest of a profile (the first one for nil) without a hop to any actor: a
    /// `GetManifest` for a profile costs no thread switch (``ManifestCache/servedManifest(profile:)``).
    public nonisolated func servedManifest(profile: String?) -> (profile: String, manifest: EncodedManifest?) {
        cache.servedManifest(profile: profile)
    }

    /// The final `GetManifest` reply of a profile for an `ifNoneMatch`, without a hop
    /// (``ManifestCache/servedReply(profile:ifNoneMatch:)``).
    public nonisolated func servedReply(
        profile: String?,
        ifNoneMatch: String?
    ) -> (profile: String, reply: VarlinkEncodedReply?, validity: VarlinkReplyValidity) {
        cache.servedReply(profile: profile, ifNoneMatch: ifNoneMatch)
    }

    public func manifest(for environment: LayoutEnvironment) async throws(LayoutSolveError) -> EncodedManifest {
        try await cache.manifest(for: environment)
    }

    public var profileNames: [String] { configuration.settings.profiles.map(\.name) }
}
