/// Layout-wide settings (`UICollectionViewCompositionalLayoutConfiguration`).
public struct LayoutConfiguration: Sendable, Hashable {
    /// The scroll axis; `.horizontal` swaps the roles of the axes everywhere (§1).
    public var scrollDirection: Axis
    /// Added between two consecutive sections that both produce frames (§5.6).
    public var interSectionSpacing: Double
    /// Global header/footer around the whole stack of sections (§5.6).
    public var boundarySupplementaryItems: [BoundarySupplementaryItem]

    public init(
        scrollDirection: Axis = .vertical,
        interSectionSpacing: Double = 0,
        boundarySupplementaryItems: [BoundarySupplementaryItem] = []
    ) {
        self.scrollDirection = scrollDirection
        self.interSectionSpacing = interSectionSpacing
        self.boundarySupplementaryItems = boundarySupplementaryItems
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
