/// A layout UIKit would refuse (§9), reported instead of crashing.
///
/// Names the section, the JSON path of the group or item involved and the sizes that did not
/// work, in one line safe to log.
public struct LayoutSolveError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Kind: Sendable, Hashable {
        /// §9 item 1: zero or negative content length, or a 0×0 group.
        case noRoomForGroup(groupSize: Size, contentInsets: EdgeInsets, containerSize: Size)
        /// §9 item 2: the first subitem does not fit (needs `required`, has `available`).
        case cannotFitSingleItem(required: Double, available: Double, axis: Axis)
        /// §9 item 4: a dimension, spacing or inset that is not finite, or a size ≤ 0.
        case invalidValue(what: String, value: Double)
        /// §9 item 5: a frame became NaN or infinite.
        case invalidFrame(Rect)
        /// §9 item 6: `supplementariesFollowContentInsets` together with a supplementary reference.
        case conflictingSupplementaryInsets
        /// §9 item 7: two supplementaries of one section share an element kind.
        case duplicateElementKind(String)
        /// §9 item 1: a section's content (or an orthogonal row's) that would end before it
        /// starts, `length` pt along `axis`, mostly from negative interGroupSpacing.
        case negativeContentLength(length: Double, spacing: Double, axis: Axis)
        /// §9 item 1, for any item count: a root group `extent` pt long along `axis` that
        /// interGroupSpacing `spacing` repeats at a negative stride (`extent + spacing`), so
        /// each group shortens the section and enough of them make its content length negative.
        case negativeGroupStride(extent: Double, spacing: Double, axis: Axis)
        /// A group with no subitems.
        case emptyGroup
        /// A subitem that takes no length along the group's axis would be placed forever.
        case subitemRepeatsForever(consumes: Double, axis: Axis)
        /// A documented limit (``LayoutLimits``) was exceeded.
        case limitExceeded(what: String, limit: Int)
        /// The container itself is unusable (non-finite or non-positive size, negative scale).
        case invalidContainer(String)
        /// A combination of keys the engine (or UIKit) does not lay out.
        case unsupported(String)
    }

    public var kind: Kind
    /// Index of the section in the spec; `nil` for layout-wide problems.
    public var sectionIndex: Int?
    public var sectionID: String?
    /// JSON path of the element involved, e.g. `sections[1].group.subitems[0]`.
    public var path: String

    public init(_ kind: Kind, sectionIndex: Int? = nil, sectionID: String? = nil, path: String = "") {
        self.kind = kind
        self.sectionIndex = sectionIndex
        self.sectionID = sectionID
        self.path = path
    }

    /// A stable name for the kind of failure, for scripts and for grouping (`homefeedctl layout sweep`).
    public var code: String {
        switch kind {
        case .noRoomForGroup: "noRoomForGroup"
        case .cannotFitSingleItem: "cannotFitSingleItem"
        case .invalidValue: "invalidValue"
        case .invalidFrame: "invalidFrame"
        case .conflictingSupplementaryInsets: "conflictingSupplementaryInsets"
        case .duplicateElementKind: "duplicateElementKind"
        case .negativeContentLength: "negativeContentLength"
        case .negativeGroupStride: "negativeGroupStride"
        case .emptyGroup: "emptyGroup"
        case .subitemRepeatsForever: "subitemRepeatsForever"
        case .limitExceeded: "limitExceeded"
        case .invalidContainer: "invalidContainer"
        case .unsupported: "unsupported"
        }
    }

    public var message: String {
        switch kind {
        case .noRoomForGroup(let size, let insets, let container):
            "There is no room for this NSCollectionLayoutGroup to fit into its parent group or section, "
                + "or it has no room for any subitems itself: group \(fmt(size)) with contentInsets "
                + "\(fmt(insets)) in container \(fmt(container))"
        case .cannotFitSingleItem(let required, let available, let axis):
            "This group cannot fit even a single item: the first subitem needs \(fmt(required)) pt along "
                + "\(axis.rawValue) (size plus edge spacing) but the group offers \(fmt(available)) pt"
        case .invalidValue(let what, let value):
            "invalid \(what) \(fmt(value)): \(Self.validRange(of: what))"
        case .invalidFrame(let rect):
            "Invalid frame generated: \(fmt(rect))"
        case .conflictingSupplementaryInsets:
            "supplementariesFollowContentInsets cannot be set together with supplementaryContentInsetsReference"
        case .duplicateElementKind(let kind):
            "duplicate supplementary element kind \"\(kind)\" in one section"
        case .negativeContentLength(let length, let spacing, let axis):
            "the content length is \(fmt(length)) pt along \(axis.rawValue) with interGroupSpacing "
                + "\(fmt(spacing)): the groups would end before they start (UIKit refuses a negative "
                + "content length)"
        case .negativeGroupStride(let extent, let spacing, let axis):
            "a group \(fmt(extent)) pt long along \(axis.rawValue) with interGroupSpacing \(fmt(spacing)) "
                + "repeats every \(fmt(extent + spacing)) pt: each group makes the section shorter, so enough "
                + "items would make its content length negative (UIKit refuses a negative content length)"
        case .emptyGroup:
            "a group needs at least one subitem"
        case .subitemRepeatsForever(let consumes, let axis):
            "a subitem that consumes \(fmt(consumes)) pt along \(axis.rawValue) would repeat forever "
                + "(a fractional size that floors to 0, or negative spacing)"
        case .limitExceeded(let what, let limit):
            "\(what) exceeds the limit of \(limit)"
        case .invalidContainer(let reason):
            "invalid container: \(reason)"
        case .unsupported(let reason):
            reason
        }
    }

    /// What `invalidValue` accepts for `what`, limits included (`LayoutLimits`).
    private static func validRange(of what: String) -> String {
        let magnitude = fmt(LayoutLimits.maxMagnitude)
        if what == "zIndex" { return "a zIndex is from \(Int32.min) to \(Int32.max - 1)" }
        if what == "dimension" || what.hasPrefix("measured") {
            return "sizes must be finite, greater than 0 and at most \(magnitude)"
        }
        return "numbers must be finite, from -\(magnitude) to \(magnitude)"
    }

    public var description: String {
        var prefix = ""
        if let sectionIndex {
            prefix = "section \(sectionIndex)"
            if let sectionID { prefix += " (\(sectionID))" }
            prefix += ": "
        }
        return prefix + (path.isEmpty ? "" : path + ": ") + message
    }
}

func fmt(_ v: Double) -> String {
    if v.isFinite, v == v.rounded(), abs(v) < 1e15 { return String(Int64(v)) }
    return String(v)
}

func fmt(_ s: Size) -> String { "{\(fmt(s.width)), \(fmt(s.height))}" }

func fmt(_ r: Rect) -> String { "{{\(fmt(r.x)), \(fmt(r.y))}, {\(fmt(r.width)), \(fmt(r.height))}}" }

func fmt(_ i: EdgeInsets) -> String {
    "{top \(fmt(i.top)), leading \(fmt(i.leading)), bottom \(fmt(i.bottom)), trailing \(fmt(i.trailing))}"
}
