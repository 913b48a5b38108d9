/// One axis of a size (`NSCollectionLayoutDimension`), resolved against a container (§2).
public enum Dimension: Sendable, Hashable {
    /// A fraction of the container's effective *width*, even when used as a height.
    case fractionalWidth(Double)
    /// A fraction of the container's effective *height*.
    case fractionalHeight(Double)
    /// A fixed number of points.
    case absolute(Double)
    /// A size that self-sizing would measure; without measurements it is exactly this value (§7).
    case estimated(Double)
    /// iOS 17's `uniformAcrossSiblings(estimate:)`, for items: estimated like `.estimated`, and
    /// once measured every such sibling in the group takes the largest measured value (§2.2, §7.1).
    case uniformAcrossSiblings(estimate: Double)

    /// The number the dimension was declared with (the estimate of a uniform dimension).
    public var value: Double {
        switch self {
        case .fractionalWidth(let v), .fractionalHeight(let v), .absolute(let v), .estimated(let v),
            .uniformAcrossSiblings(let v):
            v
        }
    }

    /// Whether self-sizing measures this axis: `.estimated` and `.uniformAcrossSiblings` (§7).
    public var isEstimated: Bool {
        switch self {
        case .estimated, .uniformAcrossSiblings: true
        case .fractionalWidth, .fractionalHeight, .absolute: false
        }
    }

    public var isUniformAcrossSiblings: Bool {
        if case .uniformAcrossSiblings = self { return true }
        return false
    }

    /// Whether the value depends on the container's extent along `axis` (§4.3 step 2).
    func isFractional(of axis: Axis) -> Bool {
        switch (self, axis) {
        case (.fractionalWidth, .horizontal), (.fractionalHeight, .vertical): true
        default: false
        }
    }
}

/// A width and a height dimension (`NSCollectionLayoutSize`).
public struct LayoutSize: Sendable, Hashable {
    public var width: Dimension
    public var height: Dimension

    public init(width: Dimension, height: Dimension) {
        self.width = width
        self.height = height
    }

    /// The dimension along `axis`: width for horizontal, height for vertical.
    func dimension(along axis: Axis) -> Dimension {
        axis == .horizontal ? width : height
    }

    /// Whether either dimension is a fraction of the container's extent along `axis`.
    func dependsOnContainer(along axis: Axis) -> Bool {
        width.isFractional(of: axis) || height.isFractional(of: axis)
    }

    /// `.fractionalWidth(1) × .fractionalHeight(1)`, the size that disables trimming (§5.4).
    var fillsContainer: Bool {
        width == .fractionalWidth(1) && height == .fractionalHeight(1)
    }
}
