/// How an orthogonally scrolling section comes to rest (§8.2).
public enum OrthogonalScrollingBehavior: String, Sendable, Hashable, CaseIterable {
    case none
    case continuous
    case continuousGroupLeadingBoundary
    case paging
    case groupPaging
    case groupPagingCentered
}

/// Which container guide supplies the leading/trailing insets of a section (§5.1).
public enum ContentInsetsReference: String, Sendable, Hashable, CaseIterable {
    /// Behaves like `.safeArea`.
    case automatic
    case none
    case safeArea
    case layoutMargins
    case readableContent
}

/// One section of the layout (`NSCollectionLayoutSection`), with width variants.
public struct LayoutSection: Sendable, Hashable {
    /// Unique within the spec; the manifest keys content by it.
    public var id: String
    /// Items to lay out when solving offline; the daemon passes counts from content.
    public var itemCount: Int
    /// The root group, solved once and repeated (§5.2).
    public var group: LayoutGroup
    public var contentInsets: EdgeInsets
    public var interGroupSpacing: Double
    public var orthogonalScrollingBehavior: OrthogonalScrollingBehavior
    public var contentInsetsReference: ContentInsetsReference
    /// `nil` means the default, `true` (§6.1). Kept optional to detect the §9 item 6 conflict.
    public var supplementariesFollowContentInsets: Bool?
    /// iOS 16's replacement for the flag above; setting both raises (§6.1, §9 item 6).
    public var supplementaryContentInsetsReference: ContentInsetsReference?
    public var boundarySupplementaryItems: [BoundarySupplementaryItem]
    public var decorationItems: [DecorationItem]
    /// Makes this a list section: its group, insets, header, footer and decorations are then
    /// built from the list configuration, replacing the values above.
    public var list: ListConfiguration?
    /// Overrides chosen by container width; every matching variant applies, in order.
    public var variants: [SectionVariant]

    public init(
        id: String,
        itemCount: Int = 0,
        group: LayoutGroup,
        contentInsets: EdgeInsets = .zero,
        interGroupSpacing: Double = 0,
        orthogonalScrollingBehavior: OrthogonalScrollingBehavior = .none,
        contentInsetsReference: ContentInsetsReference = .automatic,
        supplementariesFollowContentInsets: Bool? = nil,
        supplementaryContentInsetsReference: ContentInsetsReference? = nil,
        boundarySupplementaryItems: [BoundarySupplementaryItem] = [],
        decorationItems: [DecorationItem] = [],
        list: ListConfiguration? = nil,
        variants: [SectionVariant] = []
    ) {
        self.id = id
        self.itemCount = itemCount
        self.group = group
        self.contentInsets = contentInsets
        self.interGroupSpacing = interGroupSpacing
        self.orthogonalScrollingBehavior = orthogonalScrollingBehavior
        self.contentInsetsReference = contentInsetsReference
        self.supplementariesFollowContentInsets = supplementariesFollowContentInsets
        self.supplementaryContentInsetsReference = supplementaryContentInsetsReference
        self.boundarySupplementaryItems = boundarySupplementaryItems
        self.decorationItems = decorationItems
        self.list = list
        self.variants = variants
    }

    /// The section as a provider would return it for a container `width` points wide: every
    /// variant whose range contains `width` is applied in declaration order, so the last
    /// matching variant wins for each key it sets.
    public func resolved(forWidth width: Double) -> LayoutSection {
        var section = self
        section.variants = []
        // By index, so no variant (and none of its arrays) is copied to apply it.
        for index in variants.indices where variants[index].matches(width: width) {
            variants[index].overrides.apply(to: &section)
        }
        return section
    }

    /// Indices of the variants that apply at `width`, in order (for error paths).
    func variantIndices(forWidth width: Double) -> [Int] {
        variants.indices.filter { variants[$0].matches(width: width) }
    }
}

/// A set of section keys that replace the base section's at some container widths.
public struct SectionVariant: Sendable, Hashable {
    /// Applies when `minWidth ≤ width` …
    public var minWidth: Double
    /// … and, when set, `width < maxWidth`.
    public var maxWidth: Double?
    public var overrides: SectionOverrides

    public init(minWidth: Double, maxWidth: Double? = nil, overrides: SectionOverrides) {
        self.minWidth = minWidth
        self.maxWidth = maxWidth
        self.overrides = overrides
    }

    func matches(width: Double) -> Bool {
        width >= minWidth && (maxWidth.map { width < $0 } ?? true)
    }
}

/// Any section key except `id`; `nil` keeps the base section's value.
public struct SectionOverrides: Sendable, Hashable {
    public var itemCount: Int?
    public var group: LayoutGroup?
    public var contentInsets: EdgeInsets?
    public var interGroupSpacing: Double?
    public var orthogonalScrollingBehavior: OrthogonalScrollingBehavior?
    public var contentInsetsReference: ContentInsetsReference?
    public var supplementariesFollowContentInsets: Bool?
    public var supplementaryContentInsetsReference: ContentInsetsReference?
    public var boundarySupplementaryItems: [BoundarySupplementaryItem]?
    public var decorationItems: [DecorationItem]?
    public var list: ListConfiguration?

    public init() {}

    func apply(to section: inout LayoutSection) {
        if let itemCount { section.itemCount = itemCount }
        if let group { section.group = group }
        if let contentInsets { section.contentInsets = contentInsets }
        if let interGroupSpacing { section.interGroupSpacing = interGroupSpacing }
        if let orthogonalScrollingBehavior { section.orthogonalScrollingBehavior = orthogonalScrollingBehavior }
        if let contentInsetsReference { section.contentInsetsReference = contentInsetsReference }
        if let supplementariesFollowContentInsets {
            section.supplementariesFollowContentInsets = supplementariesFollowContentInsets
        }
        if let supplementaryContentInsetsReference {
            section.supplementaryContentInsetsReference = supplementaryContentInsetsReference
        }
        if let boundarySupplementaryItems { section.boundarySupplementaryItems = boundarySupplementaryItems }
        if let decorationItems { section.decorationItems = decorationItems }
        if let list { section.list = list }
    }
}
