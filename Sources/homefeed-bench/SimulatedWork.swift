import Dispatch

/// A fixed amount of pure CPU work (a chain of dependent xorshift steps: no memory, no
/// system call), calibrated to take `microseconds` on this machine when warm.
///
/// Why: the echo floor with this much work between its read and its write is a server that
/// costs what the call costs, minus everything else the call does differently. Beside the quiet
/// call it shows how much of the call's distance from the echo is its own work as this host
/// charges for it (``ServeBenchmark/callFigures(socket:_:quiet:floor:directory:calls:)``).
struct SimulatedWork: Sendable {
    let microseconds: Double
    private let iterations: Int

    init(microseconds: Double) {
        self.microseconds = microseconds
        let wanted = microseconds.isFinite ? max(0, microseconds) : 0
        iterations = Int((wanted * Self.iterationsPerMicrosecond).rounded())
    }

    /// Runs the work once from `seed`; the result, kept by the caller, keeps the chain from
    /// being optimised away.
    @inline(never)
    func run(_ seed: UInt64) -> UInt64 {
        var state = seed | 1
        for _ in 0..<iterations {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
        }
        return state
    }

    /// Iterations of ``run(_:)`` per µs: the fastest of five timings of a million.
    private static let iterationsPerMicrosecond: Double = {
        let probe = SimulatedWork(fixedIterations: 1_000_000)
        var fastest = UInt64.max
        var state: UInt64 = 1
        for _ in 0..<5 {
            let start = DispatchTime.now().uptimeNanoseconds
            state = probe.run(state)
            // A chain from a non-zero state never reaches zero; the test keeps the run.
            if state == 0 { continue }
            fastest = min(fastest, DispatchTime.now().uptimeNanoseconds - start)
        }
        return 1_000_000 / (Double(max(fastest, 1)) / 1_000)
    }()

    private init(fixedIterations: Int) {
        microseconds = 0
        iterations = fixedIterations
    }
}
