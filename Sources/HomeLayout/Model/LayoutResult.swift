/// The solved layout: every frame in content coordinates, rounded to the pixel grid (§10).
///
/// Flat and compact: a section's item frames are one array, so a 100 000-item section is one
/// allocation. Orthogonal sections are reported at orthogonal offset 0 (§8.1).
public struct LayoutResult: Sendable, Hashable {
    public var environment: LayoutEnvironment
    /// The platform the frames were computed for: the environment's, else the spec's.
    public var platform: LayoutPlatform = .ios17
    /// `(W, end of the last section plus any global footer)`; orthogonal rows never widen it.
    public var contentSize: Size
    public var sections: [SectionLayout]
    /// Global (configuration) boundary items, in declaration order.
    public var globalSupplementaries: [SupplementaryFrame]
    /// Warnings UIKit would log (never errors: those throw).
    public var diagnostics: [LayoutDiagnostic]
}

/// One section's frames.
public struct SectionLayout: Sendable, Hashable {
    public var index: Int
    public var id: String
    /// The whole section band: full container width, from section start to section end.
    public var frame: Rect
    /// Visible item frames, numbered as UIKit numbers them (`layout-spec-format.md`).
    public var itemFrames: [Rect]
    /// The zIndex every item of the section gets (raised above a background decoration, §6.6).
    public var itemZIndex: Int
    /// Leaf items in one repetition of the root group; item `i` is slot `i % slotsPerGroup`.
    public var slotsPerGroup: Int
    /// Boundary supplementaries in declaration order, then badges in item order, then group
    /// supplementaries by repetition (in a repetition a group before the groups inside it).
    public var supplementaries: [SupplementaryFrame]
    public var decorations: [DecorationFrame]
    /// Present when the section scrolls orthogonally.
    public var orthogonal: OrthogonalScrolling?
    /// The estimated axes of each slot of the root group (§7): where measurements apply.
    var slotEstimatedAxes: [SizingAxes] = []
    /// Items whose measurements were applied, with the axes they gave (§7.1).
    var measuredItems: [Int: SizingAxes] = [:]
    /// What the section emits, as counted against the limits before it was laid out.
    var elementCount = ElementCount()

    /// Whether item `index`'s frame is final: `fixed` without estimated dimensions,
    /// `measured` when every estimated axis took a measured value, else `estimated`.
    public func itemSizing(_ index: Int) -> Sizing {
        let estimated = itemEstimatedAxes(index)
        if estimated.isEmpty { return .fixed }
        return Sizing(estimated: estimated, measured: measuredItems[index] ?? [])
    }

    /// The axes of item `index` that are estimated: where a measurement applies (§7).
    public func itemEstimatedAxes(_ index: Int) -> SizingAxes {
        guard slotsPerGroup > 0, index >= 0, index < itemFrames.count, !slotEstimatedAxes.isEmpty else { return [] }
        return slotEstimatedAxes[index % slotsPerGroup]
    }
}

/// A laid-out boundary supplementary, badge or group supplementary.
public struct SupplementaryFrame: Sendable, Hashable {
    public var elementKind: String
    /// The item a badge belongs to; `nil` for boundary items and group supplementaries.
    public var item: Int?
    /// The repetition of the root group a group supplementary belongs to; `nil` otherwise.
    public var group: Int? = nil
    public var frame: Rect
    public var zIndex: Int
    public var pinToVisibleBounds: Bool
    /// For pinned items: the range the frame's origin is clamped to while scrolling (§6.3).
    /// A pinned header's y is `clamp(visibleTop, min, max)`; a pinned footer's y is
    /// `clamp(visibleBottom − height, min, max)`. Along x when the layout scrolls horizontally.
    public var pinRange: PinRange?
    /// The axes of its size that are estimated (§7).
    public var estimatedAxes: SizingAxes = []
    /// The estimated axes that took a measurement (§7.1); group supplementaries take none.
    public var measuredAxes: SizingAxes = []

    /// Whether the frame is final (§7.1).
    public var sizing: Sizing { Sizing(estimated: estimatedAxes, measured: measuredAxes) }

    /// A boundary item: neither a badge nor a group supplementary.
    public var isBoundary: Bool { item == nil && group == nil }
}

/// The range a pinned supplementary's origin is clamped to along the scroll axis (§6.3).
public struct PinRange: Sendable, Hashable {
    public var min: Double
    public var max: Double

    public init(min: Double, max: Double) {
        self.min = min
        self.max = max
    }
}

/// A laid-out decoration: a section background, or a list row's separator.
public struct DecorationFrame: Sendable, Hashable {
    public var elementKind: String
    public var frame: Rect
    public var zIndex: Int
    /// The row a list separator belongs to; `nil` for section decorations.
    public var item: Int? = nil
    /// The corner radius a client draws the decoration with (an inset-grouped list's card).
    public var cornerRadius: Double? = nil
}

/// Where an orthogonally scrolling section can come to rest (§8).
public struct OrthogonalScrolling: Sendable, Hashable {
    public var behavior: OrthogonalScrollingBehavior
    /// The axis the section scrolls along (horizontal in a vertically scrolling layout).
    public var axis: Axis
    /// Content length `C` along the orthogonal axis (§8.1).
    public var contentWidth: Double
    /// Distance between consecutive groups: group extent plus interGroupSpacing.
    public var stride: Double
    /// The symmetric inset `c` of `.groupPagingCentered`; 0 otherwise.
    public var centeringInset: Double
    /// Offsets the scroller can rest at, ascending, without duplicates. Empty for
    /// `.continuous`, which rests anywhere in `minOffset…maxOffset`.
    public var restOffsets: [Double]
    public var minOffset: Double
    public var maxOffset: Double
}

/// A warning or note about a spec, with the JSON path it concerns.
public struct LayoutDiagnostic: Sendable, Hashable, CustomStringConvertible {
    public enum Severity: String, Sendable, Hashable {
        case warning
    }

    public var severity: Severity
    public var path: String
    public var message: String

    public init(severity: Severity = .warning, path: String, message: String) {
        self.severity = severity
        self.path = path
        self.message = message
    }

    public var description: String { "\(severity.rawValue): \(path): \(message)" }
}
