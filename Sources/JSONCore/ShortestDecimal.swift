/// The shortest decimal that reads back as a given double, found with exact integer arithmetic
/// and no allocation: what the JSON writers print for a geometry value such as
/// `166.66666666666666` without building `Double.description`'s `String`.
///
/// Limited to plain notation, 1e-4 ≤ |value| < 2^53, the range where `Double.description`
/// writes no exponent; callers print other values with `description`. Within it the result is
/// `description`'s digits exactly (tests compare the two): the fewest decimal places `k` whose
/// nearest `k`-place decimal rounds back to `value`, which is also the fewest significant
/// digits, and the closest such decimal (of two equally close, the one ending in an even digit).
///
/// Why it is exact. `value = f · 2^q` with a 53-bit `f` and `q ≤ 0` here. A decimal `m / 10^k`
/// reads back as `value` when it lies within half an ulp (`2^(q−1)`) of it, boundary included
/// when `f` is even (round-half-even), and within a quarter ulp below when `f` is a power of
/// two (the ulp below is half as wide). Multiplying by `4 · 10^k · 2^−q` makes every quantity an
/// integer: `4m·2^−q` against `4f·10^k`, within `2·10^k` (or `10^k` below a power of two). With
/// `f < 2^53` and `10^k ≤ 10^21 < 2^70`, all of it fits in `UInt128`. Rounding to more places
/// only gets closer, so "round-trips with `k` places" is monotonic in `k` and a binary search over
/// `k` ∈ 1…21 finds the fewest (17 significant digits always suffice, and `value ≥ 1e-4` needs at
/// most 20 places for them).
package enum ShortestDecimal {
    /// `|value|` as `digits / 10^places` with the fewest places, or nil outside the plain range
    /// (and for NaN and infinities). Integers give `places == 0`.
    package static func digits(of value: Double) -> (digits: UInt64, places: Int)? {
        let magnitude = value.magnitude
        guard magnitude >= 1e-4, magnitude < 9_007_199_254_740_992 else { return nil }
        // Normal here (≥ 1e-4): the implicit bit is set.
        let f = UInt64(1) << 52 | magnitude.significandBitPattern
        let shift = 52 - Int(magnitude.exponent)  // value = f · 2^−shift
        if shift <= 0 { return (f << UInt64(-shift), 0) }
        let isPowerOfTwo = magnitude.significandBitPattern == 0
        let isEven = f & 1 == 0
        var low = 1
        var high = 21  // always round-trips
        while low < high {
            let middle = (low + high) / 2
            if nearest(f, shift, places: middle, isPowerOfTwo: isPowerOfTwo, isEven: isEven).roundTrips {
                high = middle
            } else {
                low = middle + 1
            }
        }
        let found = nearest(f, shift, places: low, isPowerOfTwo: isPowerOfTwo, isEven: isEven)
        // At most 17 significant digits: below 10^17.
        return (UInt64(truncatingIfNeeded: found.digits), low)
    }

    /// The nearest `places`-place decimal to `f · 2^−shift` (as its digits) and whether it reads
    /// back as that double.
    private static func nearest(
        _ f: UInt64,
        _ shift: Int,
        places: Int,
        isPowerOfTwo: Bool,
        isEven: Bool
    ) -> (digits: UInt128, roundTrips: Bool) {
        let scale = powersOfTen[places]
        let exact = UInt128(f) * scale  // value · 10^k · 2^shift
        // Round to nearest, ties to an even last digit (as `description` picks between two
        // equally close candidates, e.g. …861.25 → …861.2).
        let half = UInt128(1) << UInt128(shift - 1)
        let remainder = exact & (half << 1 &- 1)
        var m = exact >> UInt128(shift)
        if remainder > half || (remainder == half && m & 1 == 1) { m += 1 }
        let candidate = m << UInt128(shift)  // m/10^k · 10^k · 2^shift
        let above = candidate >= exact
        let distance = 4 * (above ? candidate - exact : exact - candidate)
        let limit = (above || !isPowerOfTwo ? 2 : 1) * scale
        return (m, isEven ? distance <= limit : distance < limit)
    }

    private static let powersOfTen: [UInt128] = {
        var powers: [UInt128] = [1]
        for _ in 1...21 { powers.append(powers[powers.count - 1] * 10) }
        return powers
    }()
}
