import HomeFetch

/// The tests' seeded generator, so a randomised test feeds the same inputs on every run and a
/// failure names an input that can be made again. It draws from the SplitMix64 the fetch
/// scheduler already uses for its jitter.
public struct SeededRandom: RandomNumberGenerator {
    private var generator: SplitMix64

    public init(seed: UInt64) {
        generator = SplitMix64(seed: seed)
    }

    public mutating func next() -> UInt64 {
        generator.next()
    }

    /// `next() % bound`: slightly biased towards small values, which test inputs do not mind.
    public mutating func next(below bound: Int) -> Int {
        Int(next() % UInt64(bound))
    }
}
