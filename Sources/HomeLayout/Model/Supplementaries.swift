/// Where a boundary supplementary sits relative to its section (§6.2).
public enum BoundaryAlignment: String, Sendable, Hashable, CaseIterable {
    case top, bottom, leading, trailing, topLeading, topTrailing, bottomLeading, bottomTrailing

    /// Header-like: anchored to the top edge.
    var isTop: Bool { self == .top || self == .topLeading || self == .topTrailing }
    /// Footer-like: anchored to the bottom edge.
    var isBottom: Bool { self == .bottom || self == .bottomLeading || self == .bottomTrailing }
    var isLeading: Bool { self == .leading || self == .topLeading || self == .bottomLeading }
    var isTrailing: Bool { self == .trailing || self == .topTrailing || self == .bottomTrailing }
}

/// A header, footer or side item of a section or of the whole layout
/// (`NSCollectionLayoutBoundarySupplementaryItem`, §6.1–6.3).
public struct BoundarySupplementaryItem: Sendable, Hashable {
    public var elementKind: String
    public var size: LayoutSize
    public var alignment: BoundaryAlignment
    /// Added to the anchored position.
    public var offset: Point
    /// Top/bottom items that extend the section sit outside its content (§6.2).
    public var extendsBoundary: Bool
    /// Rest frames are reported; the manifest adds the clamp range a client needs (§6.3).
    public var pinToVisibleBounds: Bool
    public var zIndex: Int
    /// Shrinks the reported frame like item insets do (§6.1).
    public var contentInsets: EdgeInsets

    public init(
        elementKind: String,
        size: LayoutSize,
        alignment: BoundaryAlignment,
        offset: Point = .zero,
        extendsBoundary: Bool = true,
        pinToVisibleBounds: Bool = false,
        zIndex: Int = 0,
        contentInsets: EdgeInsets = .zero
    ) {
        self.elementKind = elementKind
        self.size = size
        self.alignment = alignment
        self.offset = offset
        self.extendsBoundary = extendsBoundary
        self.pinToVisibleBounds = pinToVisibleBounds
        self.zIndex = zIndex
        self.contentInsets = contentInsets
    }
}

/// The edges an item supplementary is anchored to (`NSDirectionalRectEdge`).
public struct AnchorEdges: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let top = AnchorEdges(rawValue: 1)
    public static let leading = AnchorEdges(rawValue: 2)
    public static let bottom = AnchorEdges(rawValue: 4)
    public static let trailing = AnchorEdges(rawValue: 8)
}

/// `NSCollectionLayoutAnchor`: edges plus an absolute or fractional offset (§6.5).
public struct SupplementaryAnchor: Sendable, Hashable {
    public var edges: AnchorEdges
    public var absoluteOffset: Point
    /// In units of the supplementary's own size.
    public var fractionalOffset: Point

    public init(edges: AnchorEdges, absoluteOffset: Point = .zero, fractionalOffset: Point = .zero) {
        self.edges = edges
        self.absoluteOffset = absoluteOffset
        self.fractionalOffset = fractionalOffset
    }
}

/// A supplementary attached to an item (a badge) or to a group
/// (`NSCollectionLayoutSupplementaryItem`, §6.5).
public struct ItemSupplementary: Sendable, Hashable {
    public var elementKind: String
    /// Resolved against the item's visible frame, or the group's frame inside its insets.
    public var size: LayoutSize
    /// `containerAnchor`: the point of the container the supplementary is pinned to.
    public var anchor: SupplementaryAnchor
    /// `itemAnchor`: the point of the supplementary placed on the container's anchor point.
    /// `nil` uses the container anchor's own point, which keeps the supplementary inside.
    public var itemAnchor: SupplementaryAnchor?
    public var zIndex: Int

    public init(
        elementKind: String,
        size: LayoutSize,
        anchor: SupplementaryAnchor,
        itemAnchor: SupplementaryAnchor? = nil,
        zIndex: Int = 1
    ) {
        self.elementKind = elementKind
        self.size = size
        self.anchor = anchor
        self.itemAnchor = itemAnchor
        self.zIndex = zIndex
    }
}

/// A section background (`NSCollectionLayoutDecorationItem.background`, §6.6).
public struct DecorationItem: Sendable, Hashable {
    public var elementKind: String
    /// Shrinks the background inside the section rectangle.
    public var contentInsets: EdgeInsets
    public var zIndex: Int

    public init(elementKind: String, contentInsets: EdgeInsets = .zero, zIndex: Int = 0) {
        self.elementKind = elementKind
        self.contentInsets = contentInsets
        self.zIndex = zIndex
    }
}
