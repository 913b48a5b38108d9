/// Layout-wide settings (`UICollectionViewCompositionalLayoutConfiguration`).
public struct LayoutConfiguration: Sendable, Hashable {
    /// The scroll axis; `.horizontal` swaps the roles of the axes everywhere (§1).
    public var scrollDirection: Axis
    /// Added between consecutive sections; which ones depends on the platform (§5.6, `docs/layout.md`).
    public var interSectionSpacing: Double
    /// Global header/footer around the whole stack of sections (§5.6).
    public var boundarySupplementaryItems: [BoundarySupplementaryItem]
    /// The iOS release whose geometry to reproduce, unless the environment names one.
    public var platform: LayoutPlatform

    public init(
        scrollDirection: Axis = .vertical,
        interSectionSpacing: Double = 0,
        boundarySupplementaryItems: [BoundarySupplementaryItem] = [],
        platform: LayoutPlatform = .ios17
    ) {
        self.scrollDirection = scrollDirection
        self.interSectionSpacing = interSectionSpacing
        self.boundarySupplementaryItems = boundarySupplementaryItems
        self.platform = platform
    }
}

/// A whole compositional layout: configuration plus sections in order.
///
/// Decode one from JSON with ``LayoutSpec/init(json:)`` (`layout-spec-format.md`) or build it
/// in code; solve it with ``LayoutSolver``.
public struct LayoutSpec: Sendable, Hashable {
    public var configuration: LayoutConfiguration
    public var sections: [LayoutSection]

    public init(configuration: LayoutConfiguration = LayoutConfiguration(), sections: [LayoutSection]) {
        self.configuration = configuration
        self.sections = sections
    }
}
