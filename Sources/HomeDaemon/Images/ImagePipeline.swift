import FoundationEssentials
import HomeFetch
import HomeStore

/// Turns the images a version needs into rendition files, off the socket loop: after each
/// version, the manifest builder's list of (subject, pixel box, mode) says what is shown; the
/// pipeline finds service icons on pages, fetches images through the feed fetcher, has
/// `homefeed-thumbnail` decode them and make the missing renditions, records everything in the
/// store, and asks for a new version when something new is ready (`docs/images.md`).
///
/// One pass at a time. Requirements arriving during a pass are kept (the newest set wins) and
/// start the next pass. Failures are remembered (image URLs and pages back off; an original
/// that cannot be decoded is never tried again), so a version made because of the pipeline
/// does not start the same work again.
///
/// Sendable: an actor. The store has its own queue, fetches run on the fetch loop, the helper
/// on its renderer's queue: nothing here blocks the cooperative pool.
actor ImagePipeline {
    let settings: ImageSettings
    let fetchLimits: FetchLimits
    let cache: ImageCache
    let store: Store
    let fetcher: FeedFetcher
    let renderer: ThumbnailRenderer
    let logger: Logger
    private let onChange: @Sendable () async -> Void

    private var pending: [ImageRequirement]?
    private var running: Task<Void, Never>?
    private var idleWaiters: [CheckedContinuation<Void, Never>] = []
    private var lastPrune = Date(timeIntervalSince1970: 0)
    /// Service pages whose URL has a user name or password, already logged as not searched for
    /// an icon (`discoverIcons`): one line per page.
    var pagesWithUserinfo: Set<String> = []

    init(
        settings: ImageSettings,
        fetchLimits: FetchLimits,
        cache: ImageCache,
        store: Store,
        fetcher: FeedFetcher,
        logger: Logger,
        onChange: @escaping @Sendable () async -> Void
    ) {
        self.settings = settings
        var limits = fetchLimits
        limits.maxBodyBytes = settings.maxImageBytes
        self.fetchLimits = limits
        self.cache = cache
        self.store = store
        self.fetcher = fetcher
        self.logger = logger
        self.onChange = onChange
        renderer = ThumbnailRenderer(
            configuration: ThumbnailRenderer.Configuration(
                helperPath: settings.resolvedHelperPath,
                maxPixels: settings.maxPixels,
                maxInputBytes: settings.maxImageBytes,
                maxMemoryBytes: settings.helperMemoryBytes,
                cpuSecondsPerImage: settings.helperCPUSeconds,
                timeout: settings.helperTimeout,
                batchSize: settings.batchSize
            )
        )
    }

    /// What the newest version shows; starts a pass unless one is running (then it follows).
    func needs(_ requirements: [ImageRequirement]) {
        pending = requirements
        guard running == nil else { return }
        running = Task { await self.drain() }
    }

    /// Returns once no pass is running or waiting.
    func waitUntilIdle() async {
        guard running != nil else { return }
        await withCheckedContinuation { idleWaiters.append($0) }
    }

    /// Ends after the pass in flight (fetches in it are cancelled).
    func stop() async {
        pending = nil
        running?.cancel()
        await running?.value
    }

    private func drain() async {
        while let requirements = pending, !Task.isCancelled {
            pending = nil
            do {
                if try await pass(requirements) { await onChange() }
            } catch {
                logger.error("image pipeline: \(error)")
            }
        }
        running = nil
        let waiters = idleWaiters
        idleWaiters = []
        for waiter in waiters { waiter.resume() }
    }

    /// One pass over `requirements`.
    ///
    /// - Returns: true when something new is ready for the manifest (an icon found, an average
    ///   colour, a rendition).
    private func pass(_ requirements: [ImageRequirement]) async throws -> Bool {
        let now = Date()
        var wanted: [ImageSubject: Set<ImageIndex.RenditionKey>] = [:]
        for requirement in requirements { wanted[requirement.subject, default: []].insert(requirement.key) }
        let subjects = Array(wanted.keys).sorted { $0.key < $1.key }
        var budget = FetchBudget(perSource: settings.maxImagesPerSource, total: settings.maxImages)
        var changed = try await discoverIcons(subjects, budget: &budget, now: now)
        var lookup = try await ImageLookup(subjects, store: store)
        // What the served version links to until the next one: kept through this pass's eviction
        // even when a fetch below replaces the content behind a URL.
        let served = Set(subjects.compactMap { lookup.contentHash(of: $0) })
        changed = try await fetchImages(subjects, wanted: wanted, lookup: lookup, budget: &budget, now: now) || changed
        lookup = try await ImageLookup(subjects, store: store)
        changed = try await render(subjects, wanted: wanted, lookup: lookup, now: now) || changed
        try await keepCacheBounded(subjects: subjects, served: served, now: now)
        return changed
    }

    /// Marks what is shown as used and evicts the least recently used files beyond the cache
    /// size, keeping what is shown and what the served version links to (`served`); forgets
    /// records unused for 30 days, once a day.
    private func keepCacheBounded(subjects: [ImageSubject], served: Set<String>, now: Date) async throws {
        let lookup = try await ImageLookup(subjects, store: store)
        let urls = subjects.compactMap { lookup.imageURL(of: $0) }
        let hashes = subjects.compactMap { lookup.contentHash(of: $0) }
        try await store.touchImages(
            urls: urls,
            pageURLs: subjects.filter { $0.kind == .page }.map(\.url),
            hashes: hashes,
            now: now
        )
        let evicted = try await store.evictImages(maxBytes: settings.maxCacheBytes, keeping: served.union(hashes))
        for file in evicted { cache.remove(file.file) }
        if !evicted.isEmpty {
            logger.info("image cache: evicted \(evicted.count) files (\(evicted.reduce(0) { $0 + $1.bytes }) bytes)")
        }
        if now.timeIntervalSince(lastPrune) > 86_400 {
            lastPrune = now
            try await store.pruneImageRecords(unusedSince: now.addingTimeInterval(-30 * 86_400))
        }
    }
}

/// The per-pass caps on image fetches: per source and in all.
struct FetchBudget {
    var perSource: Int
    var total: Int
    private var used: [String: Int] = [:]
    private var usedTotal = 0

    init(perSource: Int, total: Int) {
        self.perSource = perSource
        self.total = total
    }

    /// Takes one fetch for `source`; false when a cap is reached.
    mutating func take(for source: String?) -> Bool {
        let key = source ?? ""
        guard usedTotal < total, used[key, default: 0] < perSource else { return false }
        used[key, default: 0] += 1
        usedTotal += 1
        return true
    }
}
