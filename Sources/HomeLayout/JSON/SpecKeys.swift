/// The keys each kind of object of a layout spec takes (`layout-spec-format.md`), each written
/// once: the allowed list of an object is its enum's cases (or a named subset of them), and
/// decoders read members by case, so a key cannot be allowed but never read, or read but
/// never allowed.
protocol JSONKeys: RawRepresentable<String>, CaseIterable, Hashable, Sendable {}

enum TopKey: String, JSONKeys { case configuration, sections }

enum ConfigurationKey: String, JSONKeys {
    case scrollDirection, interSectionSpacing, boundarySupplementaryItems, platform
}

/// A section's keys, and a variant's (which may override all but `id` and `variants`).
enum SectionKey: String, JSONKeys {
    case id, minWidth, maxWidth
    case itemCount, group, contentInsets, interGroupSpacing, orthogonalScrollingBehavior
    case contentInsetsReference, supplementariesFollowContentInsets, supplementaryContentInsetsReference
    case boundarySupplementaryItems, decorationItems, list
    case variants

    /// The keys a variant may override: all but `id` and `variants`.
    static let overridable: [SectionKey] = [
        .itemCount, .group, .contentInsets, .interGroupSpacing, .orthogonalScrollingBehavior,
        .contentInsetsReference, .supplementariesFollowContentInsets, .supplementaryContentInsetsReference,
        .boundarySupplementaryItems, .decorationItems, .list,
    ]
    static let section: [SectionKey] = [.id] + overridable + [.variants]
    static let variant: [SectionKey] = [.minWidth, .maxWidth] + overridable
    /// Keys a list section builds from its configuration, so it may not set them.
    static let builtByList: [SectionKey] = [
        .group, .contentInsets, .interGroupSpacing, .orthogonalScrollingBehavior, .contentInsetsReference,
        .supplementariesFollowContentInsets, .supplementaryContentInsetsReference, .boundarySupplementaryItems,
        .decorationItems,
    ]
}

enum GroupKey: String, JSONKeys {
    case axis, size, subitems, count, countMode, interItemSpacing, contentInsets, edgeSpacing, supplementaryItems
}

enum ItemKey: String, JSONKeys { case size, contentInsets, edgeSpacing, supplementaryItems }

/// A subitem: `{"item": …}` or `{"group": …}`.
enum ElementKey: String, JSONKeys { case item, group }

enum SizeKey: String, JSONKeys { case width, height }

enum DimensionKey: String, JSONKeys { case fractionalWidth, fractionalHeight, absolute, estimated }

enum SpacingKey: String, JSONKeys { case fixed, flexible }

enum InsetKey: String, JSONKeys { case top, leading, bottom, trailing }

enum EdgeSpacingKey: String, JSONKeys { case leading, top, trailing, bottom }

enum PointKey: String, JSONKeys { case x, y }

enum BoundaryKey: String, JSONKeys {
    case elementKind, size, alignment, offset, extendsBoundary, pinToVisibleBounds, zIndex, contentInsets
}

enum BadgeKey: String, JSONKeys { case elementKind, size, anchor, itemAnchor, zIndex }

enum AnchorKey: String, JSONKeys { case edges, absoluteOffset, fractionalOffset }

enum DecorationKey: String, JSONKeys { case elementKind, contentInsets, zIndex }

enum ListKey: String, JSONKeys { case appearance, headerMode, footerMode, showsSeparators, separatorInsets, itemHeight }

enum SeparatorInsetKey: String, JSONKeys { case leading, trailing }

enum MeasurementKey: String, JSONKeys { case section, item, elementKind, width, height }
