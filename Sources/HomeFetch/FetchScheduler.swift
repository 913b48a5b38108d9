public import FoundationEssentials
import HomeFeeds
public import LogCore

/// Polls sources politely: each on its own interval with jitter, at most
/// `maxConcurrentFetches` at once and one per host, with exponential backoff on errors,
/// `Retry-After` honoured, and `410 Gone` ending the polling of a source.
///
/// `run()` is the long-running service (style.md, hummingbird's shape): it returns when its
/// task is cancelled. `refresh(url:)` fetches at once, with or without `run()`. Every attempt
/// ends with `FetchedDocumentSink.ingest` (for a new document) and
/// `FetchStatePersisting.persist`, which is where the daemon's `GetStatus` reads it from.
///
/// A slow or failing source never blocks the others: each attempt is its own task, waiting
/// only for its host's slot, and every fetch is bounded by `FetchLimits.totalTimeout`.
///
/// Sendable: an actor. Time comes from the injected `FetchClock`, jitter from a seeded
/// `SplitMix64`.
public actor FetchScheduler {
    private struct Entry {
        var source: FeedSource
        var state: SourceFetchState
    }

    private enum Report {
        case changed, unchanged, notModified, failed, cancelled, skipped
    }

    private let fetcher: any SourceFetching
    private let sink: any FetchedDocumentSink
    private let persistence: any FetchStatePersisting
    private let clock: any FetchClock
    private let log: LogHandler
    private let policy: SchedulePolicy
    private let slots: FetchSlots
    private var generator: SplitMix64
    private var order: [String] = []
    private var entries: [String: Entry] = [:]
    /// Sources whose stored state was amended as it was taken (a saved move dropped, a next
    /// attempt caught up): saved once ``run()`` runs, so the store holds what the schedule does.
    private var amended: Set<String> = []
    /// The last move not saved (``reasonNotToSave(_:movingFrom:)``) told of each source, by
    /// configured URL: a move followed at every fetch is logged once, and again only when it
    /// leads somewhere else. One URL per configured source, for the scheduler's life.
    private var toldUnsavedMoves: [String: String] = [:]
    private var inFlight: [String: Task<Report, Never>] = [:]
    private var wake: AsyncStream<Void>.Continuation?

    /// - Parameters:
    ///   - sources: what to poll; duplicates of a URL are dropped.
    ///   - states: persisted states by configured URL; sources without one start fresh and are
    ///     due at once. A next attempt that a success set later than `configuration` would is
    ///     moved in to where it would (`catchUp`), so a lowered interval applies at once.
    ///   - fetcher: usually the process's one `FeedFetcher`.
    ///   - sink: takes each fetched document.
    ///   - persistence: takes each new state.
    ///   - clock: time for the schedule; `SystemFetchClock` unless testing.
    ///   - configuration: intervals, backoff, concurrency and fetch limits.
    ///   - jitterSeed: seeds the jitter generator.
    ///   - log: receives one line per notable event (the scheduler never writes a log itself,
    ///     style.md §3.2).
    public init(
        sources: [FeedSource],
        states: [SourceFetchState] = [],
        fetcher: any SourceFetching,
        sink: any FetchedDocumentSink,
        persistence: any FetchStatePersisting,
        clock: any FetchClock = SystemFetchClock(),
        configuration: FetchSchedulerConfiguration = FetchSchedulerConfiguration(),
        jitterSeed: UInt64 = UInt64.random(in: 0...UInt64.max),
        log: @escaping LogHandler = { _, _ in }
    ) {
        self.fetcher = fetcher
        self.sink = sink
        self.persistence = persistence
        self.clock = clock
        self.log = log
        let policy = SchedulePolicy(configuration: configuration)
        self.policy = policy
        slots = FetchSlots(limit: configuration.maxConcurrentFetches)
        generator = SplitMix64(seed: jitterSeed)
        let now = clock.now()
        var (order, entries, amended) = Self.index(
            sources,
            states: states,
            keeping: [:],
            policy: policy,
            now: now,
            log: log
        )
        Self.pullIn(&entries, notAfter: now.addingTimeInterval(policy.horizon), log: log)
        self.order = order
        self.entries = entries
        self.amended = amended
    }

    // MARK: - Service

    /// The longest `run()` sleeps before it reads the clock again: a minute. The schedule is
    /// wall-clock time, and the wall clock can be stepped (NTP correcting a clock that booted
    /// behind or ahead); a step shows within this long.
    public static let maximumSleep: Double = 60

    /// Polls until the calling task is cancelled, then cancels the fetches in flight and waits
    /// for them to end.
    ///
    /// Wakes when the earliest `nextAttempt` comes (after `maximumSleep` at the latest), when a
    /// fetch ends and when sources are replaced, and starts every due source that is not
    /// already being fetched. Each time, a `nextAttempt` further ahead than the schedule ever
    /// sets one (`SchedulePolicy.horizon`, a day and a tenth by default) is pulled in to that:
    /// it was set while the clock was ahead. Calling it while it already runs returns at once.
    public func run() async {
        guard wake == nil else { return }
        let (stream, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        wake = continuation
        var wakes = stream.makeAsyncIterator()
        while !Task.isCancelled {
            if !amended.isEmpty {
                // Sorted: the store sees the sources in one order, whatever the set's.
                let urls = amended.sorted()
                amended = []
                for url in urls { await persist(url) }
            }
            let now = clock.now()
            Self.pullIn(&entries, notAfter: now.addingTimeInterval(policy.horizon), log: log)
            for url in order {
                guard let entry = entries[url], inFlight[url] == nil, isDue(entry.state, at: now) else { continue }
                _ = start(url)
            }
            let timer = nextWake().map { min($0, now.addingTimeInterval(Self.maximumSleep)) }.map { deadline in
                Task { [clock] in
                    do {
                        try await clock.sleep(until: deadline)
                        continuation.yield()
                    } catch {}
                }
            }
            let woke: Void? = await wakes.next(isolation: #isolation)
            timer?.cancel()
            if woke == nil { break }
        }
        wake = nil
        continuation.finish()
        let running = Array(inFlight.values)
        for task in running { task.cancel() }
        // Return only once nothing of ours still talks to the sink or the persistence hook,
        // so the daemon can close the store after `run()` returns.
        for task in running { _ = await task.value }
    }

    /// Fetches one source (by configured or current URL), or every source that is not gone,
    /// now, and returns when they are done. A source already being fetched is waited for,
    /// not fetched twice. An explicit refresh of a gone source tries it again.
    ///
    /// - Throws: `FetchSchedulerError.sourceNotFound` for an unknown URL.
    public func refresh(url: String? = nil) async throws(FetchSchedulerError) -> RefreshSummary {
        let urls: [String]
        if let url {
            guard let key = key(for: url) else { throw .sourceNotFound(url) }
            urls = [key]
        } else {
            urls = order.filter { entries[$0]?.state.isGone == false }
        }
        let tasks = urls.map { start($0) }
        var summary = RefreshSummary()
        for task in tasks {
            switch await task.value {
            case .changed:
                summary.attempted += 1
                summary.changed += 1
            case .unchanged:
                summary.attempted += 1
            case .notModified:
                summary.attempted += 1
                summary.notModified += 1
            case .failed:
                summary.attempted += 1
                summary.failed += 1
            case .cancelled, .skipped:
                break
            }
        }
        return summary
    }

    /// Replaces the sources (after a reload). Sources that stay keep their state; new ones use
    /// `states` when given one (its next attempt caught up as at start), else start fresh;
    /// removed ones are dropped, and a fetch of theirs that is running is cancelled (its
    /// transfer ends at once, nothing is reported).
    public func replaceSources(_ sources: [FeedSource], states: [SourceFetchState] = []) {
        let now = clock.now()
        let amended: Set<String>
        (order, entries, amended) = Self.index(
            sources,
            states: states,
            keeping: entries,
            policy: policy,
            now: now,
            log: log
        )
        self.amended.formUnion(amended)
        toldUnsavedMoves = toldUnsavedMoves.filter { entries[$0.key] != nil }
        Self.pullIn(&entries, notAfter: now.addingTimeInterval(policy.horizon), log: log)
        for (url, task) in inFlight where entries[url] == nil { task.cancel() }
        wake?.yield()
    }

    // MARK: - Observation

    /// The configured URLs, in configuration order.
    public var sourceURLs: [String] { order }

    /// The fetch state of one source by configured or current URL.
    public func state(for url: String) -> SourceFetchState? {
        key(for: url).flatMap { entries[$0]?.state }
    }

    /// True while a fetch of the source (by configured or current URL) runs (tests).
    package func _isFetching(_ url: String) -> Bool {
        key(for: url).map { inFlight[$0] != nil } ?? false
    }

    /// When `run()` will next start a fetch by itself: the earliest `nextAttempt` of a source
    /// that is not gone and not being fetched, or nil.
    public func nextWake() -> Date? {
        var earliest: Date?
        for (url, entry) in entries where inFlight[url] == nil && !entry.state.isGone {
            let due = entry.state.nextAttempt ?? .distantPast
            if earliest.map({ due < $0 }) ?? true { earliest = due }
        }
        return earliest
    }

    // MARK: - Attempts

    private func isDue(_ state: SourceFetchState, at now: Date) -> Bool {
        guard !state.isGone else { return false }
        return (state.nextAttempt ?? .distantPast) <= now
    }

    private func key(for url: String) -> String? {
        if entries[url] != nil { return url }
        return order.first { entries[$0]?.state.permanentRedirectURL == url }
    }

    /// The running attempt of `url`, or a new one.
    private func start(_ url: String) -> Task<Report, Never> {
        if let task = inFlight[url] { return task }
        let task = Task { await attempt(url) }
        inFlight[url] = task
        return task
    }

    private func attempt(_ url: String) async -> Report {
        defer {
            inFlight[url] = nil
            wake?.yield()
        }
        guard let entry = entries[url] else { return .skipped }
        let request = FetchRequest(
            url: entry.state.fetchURL,
            validators: entry.state.validators,
            // Only ever to the configured origin, even after a permanent redirect elsewhere.
            credential: HTTPTransfer.sameOrigin(entry.state.fetchURL, entry.source.url) ? entry.source.credential : nil,
            limits: policy.configuration.limits
        )
        let host = Self.hostKey(request.url)
        do {
            try await slots.acquire(host: host)
        } catch {
            return .cancelled
        }
        let startedAt = clock.now()
        entries[url]?.state.lastAttempt = startedAt
        let result: Result<FetchOutcome, FetchError>
        do {
            result = .success(try await fetcher.fetch(request))
        } catch {
            result = .failure(error)
        }
        slots.release(host: host)
        return await conclude(url, source: entry.source, result: result)
    }

    /// Hands a new document to the sink, updates the state, schedules the next attempt and
    /// persists the state.
    private func conclude(_ url: String, source: FeedSource, result: Result<FetchOutcome, FetchError>) async -> Report {
        let report: Report
        switch result {
        case .success(let outcome):
            var changed = false
            var taken = true
            if case .fetched(let document) = outcome {
                do {
                    changed = try await sink.ingest(document, from: source)
                } catch let error as DocumentNotTaken {
                    taken = false
                    log(.info) { "\(source.url): fetched, not stored: \(error); fetched in full next time" }
                } catch {
                    // Validators stay as they were, so the next attempt gets the whole document.
                    recordFailure(url, error: nil, message: "\(source.url): ingest failed: \(error)", now: clock.now())
                    await persist(url)
                    return .failed
                }
            }
            recordSuccess(url, outcome: outcome, keepingValidators: !taken, now: clock.now())
            switch outcome {
            case .fetched: report = changed ? .changed : .unchanged
            case .notModified: report = .notModified
            }
        case .failure(let error) where error.kind == .cancelled && !Task.isCancelled:
            // Nobody cancelled this attempt: the fetcher refused it (its loop stopped, or libcurl
            // could not make its multi handle), and it refuses the next one at once too. Not
            // counted as a failure, the source would stay due and run() would start it again
            // and again without pause.
            let message = "\(error.url): cancelled by the fetcher without a stop: its fetch loop is not running"
            recordFailure(url, error: error, message: message, now: clock.now())
            report = .failed
        case .failure(let error):
            if error.kind == .cancelled { return .cancelled }
            recordFailure(url, error: error, message: error.description, now: clock.now())
            report = .failed
        }
        await persist(url)
        return report
    }

    /// - Parameter keepingValidators: the sink did not take the document (``DocumentNotTaken``):
    ///   the validators stay those of the last document taken.
    private func recordSuccess(_ url: String, outcome: FetchOutcome, keepingValidators: Bool, now: Date) {
        guard var entry = entries[url] else { return }
        let response = outcome.response
        if !keepingValidators { entry.state.validators = response.validators }
        if let target = response.permanentRedirectURL {
            if let reason = Self.reasonNotToSave(response, movingFrom: entry.state.fetchURL) {
                if toldUnsavedMoves.updateValue(target, forKey: url) != target {
                    log(.notice) {
                        "\(entry.source.url): moved permanently to \(target); not saved: \(reason), so this move is "
                            + "followed at each fetch instead"
                    }
                }
            } else {
                entry.state.permanentRedirectURL = target == entry.source.url ? nil : target
                log(.notice) { "\(entry.source.url): moved permanently to \(target)" }
            }
        }
        entry.state.lastSuccess = now
        entry.state.consecutiveFailures = 0
        entry.state.lastError = nil
        entry.state.isGone = false
        var ttl: Double?
        var what = "not modified"
        if case .fetched(let document) = outcome {
            ttl = document.ttl
            switch document.document {
            case .feed(let feed): what = "fetched \(feed.entries.count) entries"
            case .opml(let opml): what = "fetched \(opml.outlines.count) outlines"
            }
        }
        let interval = policy.jittered(
            policy.interval(for: entry.source, maxAge: response.maxAge, ttl: ttl),
            using: &generator
        )
        entry.state.nextAttempt = now.addingTimeInterval(interval)
        entries[url] = entry
        log(.info) { "\(entry.source.url): \(what), next in \(Int(interval)) s" }
    }

    /// Why the permanent move `response` reports is followed at each fetch instead of saved as
    /// the URL to fetch from now on; nil when it may be saved.
    private static func reasonNotToSave(_ response: FetchResponseInfo, movingFrom fetchURL: String) -> String? {
        guard let target = response.permanentRedirectURL else { return nil }
        if response.permanentRedirectHadUserinfo {
            // The URL shown is not where the move led, and the one it led to holds a secret.
            return "its URL carries a user name or password (not shown), which would be stored and shown"
        }
        guard URLScheme(fetchURL) == .https else { return nil }
        if URLScheme(target) == .http {
            // Saved, one answer (over TLS or not) would make the source plaintext for good.
            return "the source would be fetched over plain http from now on"
        }
        if response.permanentRedirectPassedHTTP {
            // Saved, whoever was on the plain hop's path would choose the source's URL for good.
            return "the move passed through plain http, where anyone on the path could have chosen where it led"
        }
        return nil
    }

    private func recordFailure(_ url: String, error: FetchError?, message: String, now: Date) {
        guard var state = entries[url]?.state else { return }
        state.consecutiveFailures += 1
        state.lastError = message
        if error?.isGone == true {
            state.isGone = true
            state.nextAttempt = nil
            state.lastError = message + "; polling stopped"
            log(.warning) { "\(message); polling stopped" }
        } else {
            var delay = policy.jittered(policy.backoff(failures: state.consecutiveFailures), using: &generator)
            if let retryAfter = error?.retryAfter {
                // Never earlier than the server asked; later when the backoff has grown past it.
                delay = max(delay, policy.retryDelay(retryAfter, nowSecondsSince1970: now.timeIntervalSince1970))
            }
            state.nextAttempt = now.addingTimeInterval(delay)
            log(.warning) { "\(message), next attempt in \(Int(delay)) s" }
        }
        entries[url]?.state = state
    }

    private func persist(_ url: String) async {
        guard let entry = entries[url] else { return }
        do {
            try await persistence.persist(entry.state, of: entry.source)
        } catch {
            log(.error) { "\(entry.source.url): cannot save fetch state: \(error)" }
        }
    }
}

extension FetchScheduler {
    /// The slot key of a URL: `host:port` for HTTP (the scheme's default port when none is
    /// written), nil for `file:`. Two ports of one host count as two servers.
    static func hostKey(_ url: String) -> String? {
        guard URLScheme(url) != .file, let components = URLComponents(string: url), let host = components.host else {
            return nil
        }
        let port = components.port ?? (components.scheme?.lowercased() == "https" ? 443 : 80)
        return "\(host.lowercased()):\(port)"
    }

    /// Moves every `nextAttempt` later than `limit` to `limit`: such an instant was computed on
    /// a wall clock that was ahead, saved by an earlier run, or set under longer intervals, and
    /// would hold the source back for as long as the clock was off.
    private static func pullIn(_ entries: inout [String: Entry], notAfter limit: Date, log: LogHandler) {
        for (url, entry) in entries {
            guard let next = entry.state.nextAttempt, next > limit else { continue }
            entries[url]?.state.nextAttempt = limit
            log(.notice) {
                "\(url): next attempt was \(Int(next.timeIntervalSince(limit))) s beyond the longest wait the "
                    + "schedule sets (was the clock ahead?); moved to \(limit)"
            }
        }
    }

    /// A stored state with its next attempt no later than this configuration sets one after
    /// the stored last attempt. The daemon that saved it may have run with a longer
    /// `refresh-interval` (it applies from the next start), and a lowered one would otherwise
    /// wait out the old interval, up to the horizon. Only a time a success set moves (no
    /// failure since): a failure's backoff and a server's `Retry-After` are honoured as saved.
    /// The latest time allowed is the last attempt's start plus `totalTimeout` and
    /// ``storingAllowance`` (the interval runs from the end of the attempt, once its document
    /// is stored) plus the interval with the most jitter; a server's
    /// `max-age` or a feed's `ttl` that lengthened the interval is not stored, so such a source
    /// is fetched once early, and waits the longer interval again once an answer carries it.
    /// What storing a fetched document may add between the attempt's end and its next attempt
    /// being set (seconds): the store may wait `store-busy-timeout`, 60 s at most, for a lock,
    /// then write 10 000 notices. A source fetched again under an unchanged interval is never
    /// taken for one whose interval was lowered.
    static let storingAllowance: Double = 300

    private static func catchUp(
        _ stored: SourceFetchState,
        of source: FeedSource,
        policy: SchedulePolicy,
        now: Date,
        log: LogHandler
    ) -> SourceFetchState {
        guard stored.consecutiveFailures == 0, stored.lastError == nil, !stored.isGone,
            let last = stored.lastAttempt, let next = stored.nextAttempt
        else { return stored }
        let wait =
            policy.configuration.limits.totalTimeout + Self.storingAllowance
            + policy.longestWaitWithoutHints(for: source)
        let latest = last.addingTimeInterval(wait)
        guard next > latest else { return stored }
        var state = stored
        let moved = max(latest, now)
        state.nextAttempt = moved
        log(.notice) {
            "\(source.url): next attempt was \(next), later than the interval now sets after the last attempt "
                + "(\(last), \(Int(wait)) s at most); moved to \(moved)"
        }
        return state
    }

    /// A stored state without a permanent redirect that carries a user name or password: saved
    /// before such moves were refused, it would be sent at every fetch and shown in every
    /// error, which names the URL fetched. The source is fetched from its configured URL
    /// again, and the move followed from there.
    private static func withoutUserinfoRedirect(_ stored: SourceFetchState, log: LogHandler) -> SourceFetchState {
        guard let target = stored.permanentRedirectURL, let shown = SourceList.withoutUserinfo(target) else {
            return stored
        }
        var state = stored
        state.permanentRedirectURL = nil
        log(.notice) {
            "\(stored.url): saved move to \(shown) dropped: its URL carries a user name or password (not shown); "
                + "fetched from the configured URL again"
        }
        return state
    }

    private static func index(
        _ sources: [FeedSource],
        states: [SourceFetchState],
        keeping old: [String: Entry],
        policy: SchedulePolicy,
        now: Date,
        log: LogHandler
    ) -> (order: [String], entries: [String: Entry], amended: Set<String>) {
        var byURL: [String: SourceFetchState] = [:]
        for state in states { byURL[state.url] = state }
        var order: [String] = []
        var entries: [String: Entry] = [:]
        var amended: Set<String> = []
        for source in sources where entries[source.url] == nil {
            order.append(source.url)
            if var entry = old[source.url] {
                entry.source = source
                entries[source.url] = entry
            } else if let stored = byURL[source.url] {
                var state = Self.withoutUserinfoRedirect(stored, log: log)
                state = Self.catchUp(state, of: source, policy: policy, now: now, log: log)
                if state != stored { amended.insert(source.url) }
                entries[source.url] = Entry(source: source, state: state)
            } else {
                entries[source.url] = Entry(source: source, state: SourceFetchState(url: source.url))
            }
        }
        return (order, entries, amended)
    }
}
