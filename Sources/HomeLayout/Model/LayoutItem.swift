/// A leaf of the layout tree: one cell (`NSCollectionLayoutItem`).
public struct LayoutItem: Sendable, Hashable {
    /// The slot size, resolved in the parent group's container (§2.1).
    public var size: LayoutSize
    /// Shrinks the reported frame inside the slot; ignored on estimated axes (§3.1).
    public var contentInsets: EdgeInsets
    /// Space outside the slot (§3.4).
    public var edgeSpacing: EdgeSpacing?
    /// Badges anchored to the item's visible frame (§6.5).
    public var supplementaryItems: [ItemSupplementary]

    public init(
        size: LayoutSize,
        contentInsets: EdgeInsets = .zero,
        edgeSpacing: EdgeSpacing? = nil,
        supplementaryItems: [ItemSupplementary] = []
    ) {
        self.size = size
        self.contentInsets = contentInsets
        self.edgeSpacing = edgeSpacing
        self.supplementaryItems = supplementaryItems
    }
}

extension EdgeInsets {
    /// These insets as they apply to an element of `size`: none on an estimated axis, where the
    /// fitted size already holds the content (§3.1).
    func ignoringEstimatedAxes(of size: LayoutSize) -> EdgeInsets {
        let width = size.width.isEstimated
        let height = size.height.isEstimated
        return EdgeInsets(
            top: height ? 0 : top,
            leading: width ? 0 : leading,
            bottom: height ? 0 : bottom,
            trailing: width ? 0 : trailing
        )
    }
}

/// A subitem of a group: an item or a nested group.
public indirect enum LayoutElement: Sendable, Hashable {
    case item(LayoutItem)
    case group(LayoutGroup)

    public var size: LayoutSize {
        switch self {
        case .item(let item): item.size
        case .group(let group): group.size
        }
    }

    public var edgeSpacing: EdgeSpacing? {
        switch self {
        case .item(let item): item.edgeSpacing
        case .group(let group): group.edgeSpacing
        }
    }
}

/// How a group with an explicit `count` treats its subitem (§4.4, §4.5).
public enum GroupCountMode: String, Sendable, Hashable {
    /// `horizontal/vertical(layoutSize:repeatingSubitem:count:)`: the item keeps its own size.
    case repeating
    /// The deprecated `subitem:count:`: the item's axis dimension becomes `1/count` of the group.
    case equal
}

/// A group of subitems arranged along one axis (`NSCollectionLayoutGroup`, §4).
public struct LayoutGroup: Sendable, Hashable {
    public var axis: Axis
    public var size: LayoutSize
    /// Taken cyclically, in declaration order (§4.2).
    public var subitems: [LayoutElement]
    /// Exactly this many subitems, with no fit check (§4.5). `nil`: as many as fit (§4.3).
    public var count: Int?
    public var countMode: GroupCountMode
    public var interItemSpacing: Spacing?
    public var contentInsets: EdgeInsets
    public var edgeSpacing: EdgeSpacing?
    /// `NSCollectionLayoutGroup(layoutSize:supplementaryItems:)`: anchored to the group's frame
    /// inside its contentInsets, in every instance of the group that holds an item.
    public var supplementaryItems: [ItemSupplementary]

    public init(
        axis: Axis,
        size: LayoutSize,
        subitems: [LayoutElement],
        count: Int? = nil,
        countMode: GroupCountMode = .repeating,
        interItemSpacing: Spacing? = nil,
        contentInsets: EdgeInsets = .zero,
        edgeSpacing: EdgeSpacing? = nil,
        supplementaryItems: [ItemSupplementary] = []
    ) {
        self.axis = axis
        self.size = size
        self.subitems = subitems
        self.count = count
        self.countMode = countMode
        self.interItemSpacing = interItemSpacing
        self.contentInsets = contentInsets
        self.edgeSpacing = edgeSpacing
        self.supplementaryItems = supplementaryItems
    }

    /// `NSCollectionLayoutGroup.horizontal(layoutSize:subitems:)`.
    public static func horizontal(_ size: LayoutSize, _ subitems: [LayoutElement]) -> LayoutGroup {
        LayoutGroup(axis: .horizontal, size: size, subitems: subitems)
    }

    /// `NSCollectionLayoutGroup.vertical(layoutSize:subitems:)`.
    public static func vertical(_ size: LayoutSize, _ subitems: [LayoutElement]) -> LayoutGroup {
        LayoutGroup(axis: .vertical, size: size, subitems: subitems)
    }
}
