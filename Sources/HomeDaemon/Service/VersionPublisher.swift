import Synchronization

/// Turns change signals into manifest versions, one at a time, and tells who waits for them.
///
/// A change (a fetched document that changed the store, new images, a history event, a
/// reload, reported sizes) calls ``request()``: it counts the change and yields a signal into
/// one `AsyncStream`. One task, ``run(making:)``, consumes the stream: each signal makes
/// versions until every change counted so far is covered, so changes that arrive while a
/// version is being made are coalesced into the next one. The stream keeps at most one
/// pending signal, which is all a burst of changes needs.
///
/// Each made version goes to every ``versions()`` stream (newest only: a consumer that falls
/// behind gets the latest), then the callers waiting on a change get the failure of the
/// version that covered it, or nil (``awaitPublished()``). ``finish()`` ends the stream; the
/// task returns after the version in flight, so a stop never cuts one in half.
///
/// A version the store fails (locked past its busy timeout, a full disk) leaves its changes
/// pending: they are tried again after ``retryDelay(afterFailures:)`` (1 s, doubling to 60 s),
/// or at once when another change comes first, until a version is made; so is any failure
/// nobody foresaw. A layout that cannot lay out the content would fail the same way with nothing
/// changed: it is tried again at the next change only, and told once while it fails the same way
/// (``ServiceError/mayPassUnchanged``).
///
/// Sendable: the counters, waiters and version streams sit behind a `Mutex`.
final class VersionPublisher: Sendable {
    private struct State {
        /// Changes counted so far, how many of them the last attempt covered, and how many the
        /// last version made covered: a failed attempt leaves `published` behind `attempted`.
        var requested = 0
        var attempted = 0
        var published = 0
        /// Failed attempts in a row that are retried on a timer (the layout's failures, which
        /// wait for a change, do not lengthen the store's delay), and the failure of the last
        /// attempt: nil once a version is made, so the served version is stale while it is set
        /// (``staleness``).
        var failures = 0
        var lastFailure: ServiceError?
        /// Sleeps until the failed changes are tried again.
        var retry: Task<Void, Never>?
        /// Held after a store recovery: changes are counted but no version is made.
        var isHeld = false
        var isFinished = false
        var waiters: [(generation: Int, continuation: CheckedContinuation<ServiceError?, Never>)] = []
        var streams: [Int: AsyncStream<Int>.Continuation] = [:]
        var nextStream = 0

        /// Starts the next attempt: the generation it covers, or nil when there is nothing to
        /// make. A retry waiting is not needed any more: this attempt covers its changes.
        mutating func startRound() -> Int? {
            guard !isHeld, attempted < requested else { return nil }
            retry?.cancel()
            retry = nil
            return requested
        }

        /// What a wait that needs no attempt returns: the failure of the last attempt, when the
        /// changes it covered are still pending.
        var settled: ServiceError? { published < attempted ? lastFailure : nil }
    }

    private let state: Mutex<State>
    private let changes: AsyncStream<Void>
    private let changeSignal: AsyncStream<Void>.Continuation
    /// How long to wait before trying failed changes again, by failures in a row.
    private let retryDelay: @Sendable (Int) -> Duration

    /// - Parameter held: start held, counting changes without making versions until
    ///   ``release()`` (after a store recovery, the salvaged manifests keep serving meanwhile).
    /// - Parameter retryDelay: the wait before a failed version is tried again, by failures in a
    ///   row (tests make it short).
    init(
        held: Bool = false,
        retryDelay: @escaping @Sendable (Int) -> Duration = VersionPublisher.retryDelay(afterFailures:)
    ) {
        var initial = State()
        initial.isHeld = held
        state = Mutex(initial)
        self.retryDelay = retryDelay
        (changes, changeSignal) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    /// 1 s after the first failure, doubling with each failure in a row, at most 60 s: a store
    /// locked for a moment is published again soon, one that stays broken is not hammered.
    static func retryDelay(afterFailures failures: Int) -> Duration {
        .seconds(min(60, 1 << min(max(failures, 1) - 1, 6)))
    }

    /// Counts a change and asks for a version that includes it.
    func request() {
        let signal = state.withLock { state -> Bool in
            state.requested += 1
            return !state.isHeld
        }
        if signal { changeSignal.yield() }
    }

    /// Ends the hold: changes counted meanwhile are published now.
    func release() {
        let signal = state.withLock { state -> Bool in
            guard state.isHeld else { return false }
            state.isHeld = false
            return state.attempted < state.requested
        }
        if signal { changeSignal.yield() }
    }

    /// Ends any hold, asks for a version and waits for it.
    ///
    /// - Returns: the failure of that version, nil when it was published.
    func publish() async -> ServiceError? {
        release()
        return await waitForVersion(requesting: true)
    }

    /// Waits until the changes counted so far are published, without asking for a version.
    ///
    /// - Returns: the failure of the version that covered them, nil when it was published.
    func awaitPublished() async -> ServiceError? {
        await waitForVersion(requesting: false)
    }

    private func waitForVersion(requesting: Bool) async -> ServiceError? {
        await withCheckedContinuation { continuation in
            let (immediate, signal) = state.withLock { state -> (ServiceError??, Bool) in
                if requesting { state.requested += 1 }
                if state.attempted >= state.requested { return (.some(state.settled), false) }
                if state.isFinished { return (.some(Self.stopped), false) }
                state.waiters.append((state.requested, continuation))
                return (nil, requesting && !state.isHeld)
            }
            if signal { changeSignal.yield() }
            if let immediate { continuation.resume(returning: immediate) }
        }
    }

    /// Each version number published from now on; the newest only when the consumer is
    /// behind. The stream ends with ``finish()``.
    func versions() -> AsyncStream<Int> {
        let (stream, continuation) = AsyncStream.makeStream(of: Int.self, bufferingPolicy: .bufferingNewest(1))
        let id = state.withLock { state -> Int? in
            guard !state.isFinished else { return nil }
            state.nextStream += 1
            state.streams[state.nextStream] = continuation
            return state.nextStream
        }
        guard let id else {
            continuation.finish()
            return stream
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.streams.removeValue(forKey: id) }
        }
        return stream
    }

    /// Open ``versions()`` streams.
    var subscriberCount: Int { state.withLock { $0.streams.count } }

    /// Why the served version is stale: the failure of the last attempt, nil once the last
    /// attempt made a version.
    var staleness: ServiceError? { state.withLock { $0.lastFailure } }

    /// Makes versions until ``finish()``: for each change signal, `makeVersion` runs until every
    /// change counted so far is covered. Call once, from the one task that owns publishing.
    ///
    /// - Parameter makeVersion: makes, stores and serves one version; returns its number, or
    ///   the failure (the previous version keeps serving).
    /// - Parameter failed: told a failure and how long until its changes are tried again (nil:
    ///   at the next change only); not told again of a failure that is not retried while it
    ///   repeats the one before, word for word.
    /// - Parameter recovered: told the failure before a version that was made (once, when
    ///   the run of failures ends).
    func run(
        making makeVersion: () async -> Result<Int, ServiceError>,
        failed: (ServiceError, Duration?) -> Void = { _, _ in },
        recovered: (Int, ServiceError) -> Void = { _, _ in }
    ) async {
        for await _ in changes {
            while let generation = state.withLock({ $0.startRound() }) {
                let outcome = await makeVersion()
                let (ready, streams, previous, retryIn) = state.withLock { state in
                    state.attempted = generation
                    let previous = state.lastFailure
                    var retryIn: Duration?
                    switch outcome {
                    case .success:
                        state.published = generation
                        state.failures = 0
                        state.lastFailure = nil
                    case .failure(let error):
                        state.lastFailure = error
                        if error.mayPassUnchanged {
                            state.failures += 1
                            let delay = retryDelay(state.failures)
                            retryIn = delay
                            state.retry = Task { [weak self] in
                                guard (try? await Task.sleep(for: delay)) != nil else { return }
                                self?.retryFailed()
                            }
                        }
                    }
                    let ready = state.waiters.filter { $0.generation <= generation }
                    state.waiters.removeAll { $0.generation <= generation }
                    return (ready, Array(state.streams.values), previous, retryIn)
                }
                let failure: ServiceError?
                switch outcome {
                case .success(let version):
                    failure = nil
                    if let previous { recovered(version, previous) }
                    for stream in streams { stream.yield(version) }
                case .failure(let error):
                    failure = error
                    if retryIn != nil || previous?.description != error.description { failed(error, retryIn) }
                }
                for waiter in ready { waiter.continuation.resume(returning: failure) }
            }
        }
        let (waiters, streams) = state.withLock { state in
            state.isFinished = true
            state.retry?.cancel()
            state.retry = nil
            defer {
                state.waiters = []
                state.streams = [:]
            }
            return (state.waiters, Array(state.streams.values))
        }
        for waiter in waiters { waiter.continuation.resume(returning: Self.stopped) }
        for stream in streams { stream.finish() }
    }

    /// The retry's wait is over: the changes the failed attempt covered are pending again.
    private func retryFailed() {
        let signal = state.withLock { state -> Bool in
            // Cancelled under this lock by a newer round or ``finish()``: a retry whose sleep
            // ended just before must not undo that round's own retry (and its backoff).
            guard !Task.isCancelled, state.published < state.attempted else { return false }
            state.attempted = state.published
            state.retry = nil
            return !state.isHeld
        }
        if signal { changeSignal.yield() }
    }

    /// Ends the change stream: ``run(making:failed:)`` returns after the version in flight (and
    /// one more when a change is pending), then every wait returns and every version stream ends.
    /// A retry waiting is not made.
    func finish() {
        state.withLock { state in
            state.retry?.cancel()
            state.retry = nil
        }
        changeSignal.finish()
    }

    /// What a wait returns once no more versions are made.
    static let stopped = ServiceError.internalError(
        reason: "the daemon is stopping",
        cause: "no more versions are made"
    )
}

extension ServiceError {
    /// Whether making the same version again, with nothing changed, may succeed: after a store
    /// failure it may (a lock released, space freed), and so may after a failure nobody
    /// foresaw, so ``VersionPublisher`` tries again on a timer; a layout that cannot lay out
    /// the content comes back the same until something changes.
    var mayPassUnchanged: Bool {
        if case .contentNotLaidOut = self { return false }
        return true
    }
}
