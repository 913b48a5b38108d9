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
/// Sendable: the counters, waiters and version streams sit behind a `Mutex`.
final class VersionPublisher: Sendable {
    private struct State {
        /// Changes counted so far, and how many of them the last version covered.
        var requested = 0
        var published = 0
        /// Held after a store recovery: changes are counted but no version is made.
        var isHeld = false
        var isFinished = false
        var waiters: [(generation: Int, continuation: CheckedContinuation<ServiceError?, Never>)] = []
        var streams: [Int: AsyncStream<Int>.Continuation] = [:]
        var nextStream = 0

        /// The generation the next version covers, or nil when there is nothing to make.
        var nextRound: Int? { !isHeld && published < requested ? requested : nil }
    }

    private let state: Mutex<State>
    private let changes: AsyncStream<Void>
    private let changeSignal: AsyncStream<Void>.Continuation

    /// - Parameter held: start held, counting changes without making versions until
    ///   ``release()`` (after a store recovery, the salvaged manifests keep serving meanwhile).
    init(held: Bool = false) {
        var initial = State()
        initial.isHeld = held
        state = Mutex(initial)
        (changes, changeSignal) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
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
            return state.published < state.requested
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
                if state.published >= state.requested { return (.some(nil), false) }
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

    /// Makes versions until ``finish()``: for each change signal, `makeVersion` runs until every
    /// change counted so far is covered. Call once, from the one task that owns publishing.
    ///
    /// - Parameter makeVersion: makes, stores and serves one version; returns its number, or
    ///   the failure (the previous version keeps serving).
    func run(making makeVersion: () async -> Result<Int, ServiceError>) async {
        for await _ in changes {
            while let generation = state.withLock({ $0.nextRound }) {
                let outcome = await makeVersion()
                let (ready, streams) = state.withLock { state in
                    state.published = generation
                    let ready = state.waiters.filter { $0.generation <= generation }
                    state.waiters.removeAll { $0.generation <= generation }
                    return (ready, Array(state.streams.values))
                }
                let failure: ServiceError?
                switch outcome {
                case .success(let version):
                    failure = nil
                    for stream in streams { stream.yield(version) }
                case .failure(let error):
                    failure = error
                }
                for waiter in ready { waiter.continuation.resume(returning: failure) }
            }
        }
        let (waiters, streams) = state.withLock { state in
            state.isFinished = true
            defer {
                state.waiters = []
                state.streams = [:]
            }
            return (state.waiters, Array(state.streams.values))
        }
        for waiter in waiters { waiter.continuation.resume(returning: Self.stopped) }
        for stream in streams { stream.finish() }
    }

    /// Ends the change stream: ``run(making:)`` returns after the version in flight (and one
    /// more when a change is pending), then every wait returns and every version stream ends.
    func finish() {
        changeSignal.finish()
    }

    /// What a wait returns once no more versions are made.
    static let stopped = ServiceError.internalError(
        reason: "the daemon is stopping",
        cause: "no more versions are made"
    )
}
