/// A number as the reports print it: a whole number without a fraction (`375`, not `375.0`),
/// any other as Swift prints it.
///
/// Any value prints: a width too large for an `Int` (`--height 1e19`) prints as `1e+19` instead
/// of trapping in `Int(_:)`, as do infinities and NaN.
func pointsText(_ value: Double) -> String {
    if let whole = Int64(exactly: value) { return String(whole) }
    return String(value)
}
