import CSystem
import Dispatch
import Synchronization

/// Gives the heap back to the kernel once the daemon goes quiet after work that allocated a
/// lot: a fetch (a parsed document, its entries, the store's statements) or a new version.
///
/// glibc keeps freed memory in its arenas for reuse, so after ingesting 100 000 notices the idle
/// daemon held 30–70 MB of anonymous memory it no longer used, against 7 MB for the same store
/// after a restart (issue 17). ``workHappened()`` is cheap and may be called after every piece of
/// work: it counts the work, and one relief waits until ``delay`` has passed with none, then
/// releases the caches the daemon can refill (the store's page cache) and runs `malloc_trim(0)`
/// on a utility queue (never on the cooperative pool or an actor). A burst of fetches costs one
/// trim at its end. ``stop()`` cancels the pending relief and waits for it, so none outlives the
/// service.
///
/// The default trim also pages out the daemon's read-only file mappings
/// (``ReadOnlyFileMappings/pageOut()``) when enough of them became resident since the last time
/// (``PageOutPolicy``): after start-up and an ingest, ~12 MB of the idle daemon's 34 MB were
/// code it had run once (its own, fontconfig's and Pango's set-up, the ingest's), kept mapped by
/// the kernel until memory runs short; paged out, what stays resident is what serving touches
/// again, faulted back in on the first calls after the quiet period.
///
/// ``tuneAllocator()`` caps glibc at two arenas (one per core here, instead of 8 per core: fewer
/// half-empty arenas to hold freed memory) and fixes the mmap threshold at 256 KiB, so a large
/// transient buffer (a feed body, a parse's entries) is mapped and unmapped on its own instead of
/// raising the threshold and staying in the heap.
///
/// Sendable: the pending task sits behind a `Mutex`; the queue is thread-safe.
final class MemoryRelief: Sendable {
    /// How long the daemon must have been quiet before the trim.
    let delay: Duration
    private let sleep: @Sendable (Duration) async throws -> Void
    private let releaseCaches: @Sendable () async -> Void
    private let trim: @Sendable () -> Void
    private let queue = DispatchQueue(label: "homefeed.memory-relief", qos: .utility)
    /// The one relief waiting for quiet (nil once it ran, or when none was asked for), whether
    /// ``stop()`` was called (no relief is scheduled after), and how many times work happened
    /// (the relief compares it across its wait).
    private let state = Mutex<(pending: Task<Void, Never>?, stopped: Bool, work: UInt64)>((nil, false, 0))

    /// - Parameters:
    ///   - sleep: waits out the quiet period and throws when its task is cancelled;
    ///     `Task.sleep(for:)` by default (tests pass one they end themselves).
    ///   - releaseCaches: run first once quiet, e.g. the store's page cache, so what it frees is
    ///     trimmed too.
    ///   - trim: then run on the utility queue; `malloc_trim(0)` and ``PageOutPolicy`` by
    ///     default (tests count calls).
    init(
        delay: Duration = .seconds(2),
        sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) },
        releaseCaches: @escaping @Sendable () async -> Void = {},
        trim: @escaping @Sendable () -> Void = { [pageOut = PageOutPolicy()] in
            _ = csystem_malloc_trim()
            pageOut.relieve()
        }
    ) {
        self.delay = delay
        self.sleep = sleep
        self.releaseCaches = releaseCaches
        self.trim = trim
    }

    /// Some allocating work just ended: the relief trims once no work has come for ``delay``, or
    /// not at all once stopped.
    ///
    /// Cheap on the path it ends (every version, every fetch): it counts the work and starts a
    /// relief only when none is waiting. Cancelling the waiting relief and starting a new task
    /// each time cost a version up to 75 µs on its way to the subscribers (trace points,
    /// `serve --only-push`, issue 17).
    func workHappened() {
        state.withLock { state in
            guard !state.stopped else { return }
            state.work &+= 1
            guard state.pending == nil else { return }
            state.pending = Task { [self] in await relieveWhenQuiet() }
        }
    }

    /// Waits ``delay`` at a time until a whole wait passed with no work, then releases the caches
    /// and trims on the utility queue; goes on waiting if work came meanwhile. So the trim comes
    /// between one and two quiet periods after the last work. Returns when cancelled (``stop()``).
    private func relieveWhenQuiet() async {
        var seen = state.withLock { $0.work }
        while true {
            do {
                try await sleep(delay)
            } catch {
                // Cancelled by stop(), which has taken `pending`. Any other failure of an
                // injected sleep must not leave a relief marked as waiting that never will.
                state.withLock { state in
                    if !state.stopped { state.pending = nil }
                }
                return
            }
            let sinceWait = state.withLock { $0.work }
            guard sinceWait == seen else {
                seen = sinceWait
                continue
            }
            await releaseCaches()
            await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                queue.async { [self] in
                    trim()
                    done.resume()
                }
            }
            // Done unless work came while trimming: then that work gets its own quiet period.
            let sinceTrim = state.withLock { state -> UInt64? in
                guard !state.stopped, state.work != seen else {
                    state.pending = nil
                    return nil
                }
                return state.work
            }
            guard let sinceTrim else { return }
            seen = sinceTrim
        }
    }

    /// Cancels the pending relief (one already trimming finishes first) and schedules no more.
    func stop() async {
        let pending = state.withLock { state -> Task<Void, Never>? in
            state.stopped = true
            defer { state.pending = nil }
            return state.pending
        }
        pending?.cancel()
        await pending?.value
    }

    /// Caps the malloc arenas at two and fixes the mmap threshold at 256 KiB. Call once, early:
    /// arenas that threads already made stay.
    static func tuneAllocator() {
        _ = csystem_malloc_tune(2, 256 * 1024)
    }
}
