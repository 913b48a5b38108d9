/// Pixel snapping at a display scale (§2.3, §10). Scale 0 snaps nothing (iOS 13-style geometry).
struct PixelGrid: Sendable {
    let scale: Double
    /// Whether fractional dimensions are floored (iOS 17); iOS 14 only rounds at the end.
    let floorsFractions: Bool

    init(scale: Double, floorsFractions: Bool = true) {
        self.scale = scale
        self.floorsFractions = floorsFractions
    }

    /// `floor(v × scale) / scale`, applied to fractional dimensions only (§2.3). No epsilon.
    @inline(__always)
    func floor(_ v: Double) -> Double {
        scale > 0 && floorsFractions ? (v * scale).rounded(.down) / scale : v
    }

    /// `round(v × scale) / scale`, half away from zero, applied to every reported value (§10).
    @inline(__always)
    func round(_ v: Double) -> Double {
        scale > 0 ? Self.roundedHalfAwayFromZero(v * scale) / scale : v
    }

    /// `v.rounded(.toNearestOrAwayFromZero)`, bit for bit, without its libm call: x86-64's
    /// baseline has no instruction for that rounding, and every reported value of a solve goes
    /// through here (four per frame). Below 2^52 the truncation through Int64 and the fraction
    /// `v − t` are exact; at and above it, and for NaN and infinities, libm answers.
    @inline(__always)
    static func roundedHalfAwayFromZero(_ v: Double) -> Double {
        guard v.magnitude < 0x1p52 else { return v.rounded(.toNearestOrAwayFromZero) }
        let truncated = Double(Int64(v))
        let fraction = v - truncated
        let rounded = fraction >= 0.5 ? truncated + 1 : fraction <= -0.5 ? truncated - 1 : truncated
        // Truncation loses the sign of a zero result (−0.3 → +0); round keeps it (−0).
        return Double(signOf: v, magnitudeOf: rounded)
    }

    @inline(__always)
    func round(_ r: Rect) -> Rect {
        Rect(x: round(r.x), y: round(r.y), width: round(r.width), height: round(r.height))
    }
}

/// A size to resolve dimensions against, with insets that shrink it (§2.1).
struct Container: Sendable {
    var width: Double
    var height: Double
    var insets: EdgeInsets

    init(width: Double, height: Double, insets: EdgeInsets = .zero) {
        self.width = width
        self.height = height
        self.insets = insets
    }

    var effectiveWidth: Double { width - insets.leading - insets.trailing }
    var effectiveHeight: Double { height - insets.top - insets.bottom }
}

extension PixelGrid {
    /// Resolves one dimension in `container` (§2.2). Values were validated before solving.
    @inline(__always)
    func resolve(_ dimension: Dimension, in container: Container) -> Double {
        switch dimension {
        case .absolute(let v), .estimated(let v), .uniformAcrossSiblings(let v): v
        case .fractionalWidth(let f): floor(container.effectiveWidth * f)
        case .fractionalHeight(let f): floor(container.effectiveHeight * f)
        }
    }

    @inline(__always)
    func resolve(_ size: LayoutSize, in container: Container) -> Size {
        Size(width: resolve(size.width, in: container), height: resolve(size.height, in: container))
    }
}
