/// Spacing between items or around an item (`NSCollectionLayoutSpacing`).
public enum Spacing: Sendable, Hashable {
    /// Exactly this many points.
    case fixed(Double)
    /// At least this many points; the leftover length is shared among flexible spacings (§4.6).
    case flexible(Double)

    /// The fixed value, or the minimum of a flexible spacing.
    public var value: Double {
        switch self {
        case .fixed(let v), .flexible(let v): v
        }
    }

    public var isFlexible: Bool {
        if case .flexible = self { return true }
        return false
    }
}

/// Space outside an item's slot on each edge (`NSCollectionLayoutEdgeSpacing`, §3.4).
public struct EdgeSpacing: Sendable, Hashable {
    public var leading: Spacing?
    public var top: Spacing?
    public var trailing: Spacing?
    public var bottom: Spacing?

    public init(leading: Spacing? = nil, top: Spacing? = nil, trailing: Spacing? = nil, bottom: Spacing? = nil) {
        self.leading = leading
        self.top = top
        self.trailing = trailing
        self.bottom = bottom
    }

    /// The edge before the slot along `axis` (leading for horizontal, top for vertical).
    func pre(along axis: Axis) -> Spacing? { axis == .horizontal ? leading : top }
    /// The edge after the slot along `axis` (trailing for horizontal, bottom for vertical).
    func post(along axis: Axis) -> Spacing? { axis == .horizontal ? trailing : bottom }
}
