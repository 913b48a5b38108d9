import CSystem
import Dispatch
import Synchronization

/// Gives the heap back to the kernel once the daemon goes quiet after work that allocated a
/// lot: a fetch (a parsed document, its entries, the store's statements) or a new version.
///
/// glibc keeps freed memory in its arenas for reuse, so after ingesting 100 000 notices the idle
/// daemon held 30–70 MB of anonymous memory it no longer used, against 7 MB for the same store
/// after a restart (issue 17). ``workHappened()`` is cheap and may be called after every piece of
/// work; `malloc_trim(0)` runs once, ``delay`` after the last call, on a utility queue (never on
/// the cooperative pool or an actor), so a burst of fetches costs one trim at its end. Caches
/// the daemon can refill (the store's page cache) are released just before.
///
/// ``tuneAllocator()`` caps glibc at two arenas (one per core here, instead of 8 per core: fewer
/// half-empty arenas to hold freed memory) and fixes the mmap threshold at 256 KiB, so a large
/// transient buffer (a feed body, a parse's entries) is mapped and unmapped on its own instead of
/// raising the threshold and staying in the heap.
///
/// Sendable: the generation counter sits behind a `Mutex`; the queue is thread-safe.
final class MemoryRelief: Sendable {
    /// How long the daemon must have been quiet before the trim.
    let delay: Duration
    private let releaseCaches: @Sendable () async -> Void
    private let trim: @Sendable () -> Void
    private let queue = DispatchQueue(label: "homefeed.memory-relief", qos: .utility)
    /// Bumped by every call to ``workHappened()``; a scheduled trim runs only if it is still the
    /// latest.
    private let generation = Mutex<UInt64>(0)

    /// - Parameters:
    ///   - releaseCaches: run first once quiet, e.g. the store's page cache, so what it frees is
    ///     trimmed too.
    ///   - trim: then run on the utility queue; `malloc_trim(0)` by default (tests count calls).
    init(
        delay: Duration = .seconds(2),
        releaseCaches: @escaping @Sendable () async -> Void = {},
        trim: @escaping @Sendable () -> Void = { _ = csystem_malloc_trim() }
    ) {
        self.delay = delay
        self.releaseCaches = releaseCaches
        self.trim = trim
    }

    /// Some allocating work just ended: trim after ``delay`` unless more work comes first.
    func workHappened() {
        let mine = generation.withLock { value -> UInt64 in
            value &+= 1
            return value
        }
        let (seconds, attoseconds) = delay.components
        let nanoseconds = Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
        queue.asyncAfter(deadline: .now() + .nanoseconds(max(nanoseconds, 0))) { [self] in
            guard generation.withLock({ $0 == mine }) else { return }
            Task { [self] in
                await releaseCaches()
                queue.async { [self] in trim() }
            }
        }
    }

    /// Caps the malloc arenas at two and fixes the mmap threshold at 256 KiB. Call once, early:
    /// arenas that threads already made stay.
    static func tuneAllocator() {
        _ = csystem_malloc_tune(2, 256 * 1024)
    }
}
