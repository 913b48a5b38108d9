// HomeLayout: the geometry of UICollectionViewCompositionalLayout, computed without UIKit.
//
// Pure: no file, network, clock or global state, and no Foundation. A ``LayoutSpec`` (decoded
// from JSON with path-precise errors, or built in code) is solved for a ``LayoutEnvironment``
// (container size, display scale, insets, direction) into a ``LayoutResult``: flat frames for
// every item, supplementary and decoration, plus orthogonal-scrolling metadata.
//
// The rules are those of `layout-semantics.md`; section numbers (§n) in doc comments refer
// to it. Everything is a value type and `Sendable`.

/// Hard limits that keep any input bounded in time and memory (documented in the README).
public enum LayoutLimits {
    /// Subitems one group may place in one fill pass (§4.3); a zero-extent item would
    /// otherwise repeat forever.
    public static let maxSubitemsPerGroup = 10_000
    /// Leaf items in one solved root group, nested groups included.
    public static let maxLeavesPerGroup = 100_000
    /// Items in one section.
    public static let maxItemsPerSection = 1_000_000
    /// Everything one solve emits, all sections and global boundary items together: items,
    /// boundary supplementaries, badges, group supplementaries, decorations (list separators
    /// and cards included) and orthogonal rest offsets. Counted before a section allocates
    /// its frames, so output and memory follow from it (`docs/layout.md`, "Limits").
    public static let maxElementsPerLayout = 2_000_000
    /// Work in one section: solving its root group (group solves plus items placed, nested
    /// repetitions included) and then the elements the section emits (as counted for
    /// ``maxElementsPerLayout``). Only pathological nesting (chains of estimated groups that
    /// each re-solve their spacing) or a section near the element limit comes near it.
    public static let maxSolveWorkPerSection = 2_000_000
    /// Work in one solve, all sections together (each counted as for
    /// ``maxSolveWorkPerSection``, measured repetitions included): twice the element limit, so
    /// any layout within the element limit fits, while a thousand sections each near their own
    /// budget do not add up to minutes of solving.
    public static let maxSolveWorkPerLayout = 4_000_000
    /// Supplementary items (badges) of one item: each item gets its own copy of each, so
    /// they multiply the output.
    public static let maxSupplementariesPerItem = 8
    /// Supplementary items of one group: each group instance gets its own copy of each.
    public static let maxSupplementariesPerGroup = 8
    /// UTF-8 bytes of one element kind, which the output repeats for every element of it.
    public static let maxElementKindBytes = 64
    /// Rest offsets of one orthogonal section (`.paging` over very wide content).
    public static let maxRestOffsets = 100_000
    /// Nesting depth of groups inside groups.
    public static let maxGroupDepth = 32
    /// Sections in one spec.
    public static let maxSections = 1_000
    /// Largest magnitude of any number in a spec or container (points, fractions, spacings).
    /// Keeps every sum and product finite, so no frame can become NaN or infinite.
    public static let maxMagnitude = 1_000_000.0
    /// Bytes of one JSON spec.
    public static let maxSpecBytes = 4 * 1024 * 1024
    /// Measured elements in one solve (self-sizing, §7.1).
    public static let maxMeasurements = 100_000
}
