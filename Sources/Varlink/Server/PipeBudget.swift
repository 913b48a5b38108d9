import Synchronization

/// The pipes of pushes alive at once, and their capacity: a cap on what piping may hold.
///
/// Why: each live pipe is an fd, and its capacity counts against the user's
/// `pipe-user-pages-soft` (16 384 pages by default; past it, every new pipe of the user's gets
/// two pages). A pipe lives while a connection still has its push queued, so subscribers that
/// stall could otherwise keep a pipe per version. Past the cap, pushes are copied as any reply.
///
/// Sendable: two atomics.
final class PipeBudget: Sendable {
    /// The process's budget: 64 pipes, 8 MiB of capacity (2 048 pages, an eighth of the
    /// default per-user limit).
    static let shared = PipeBudget(maximumPipes: 64, maximumBytes: 8 << 20)

    let maximumPipes: Int
    let maximumBytes: Int
    private let pipes = Atomic<Int>(0)
    private let bytes = Atomic<Int>(0)

    init(maximumPipes: Int, maximumBytes: Int) {
        self.maximumPipes = maximumPipes
        self.maximumBytes = maximumBytes
    }

    /// Pipes alive now.
    var livePipes: Int { pipes.load(ordering: .relaxed) }

    /// Takes one pipe of `capacity` bytes from the budget; false, taking nothing, when it
    /// would go past either cap.
    func reserve(_ capacity: Int) -> Bool {
        guard pipes.add(1, ordering: .relaxed).newValue <= maximumPipes else {
            pipes.subtract(1, ordering: .relaxed)
            return false
        }
        guard bytes.add(capacity, ordering: .relaxed).newValue <= maximumBytes else {
            bytes.subtract(capacity, ordering: .relaxed)
            pipes.subtract(1, ordering: .relaxed)
            return false
        }
        return true
    }

    /// Gives back a pipe of `capacity` bytes.
    func release(_ capacity: Int) {
        bytes.subtract(capacity, ordering: .relaxed)
        pipes.subtract(1, ordering: .relaxed)
    }
}
