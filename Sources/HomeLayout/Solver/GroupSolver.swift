/// Solves a group tree into leaf slots (§4): fill pass, spacing re-solve, arrangement along and
/// across the axis, nested groups, content-fit extents.
///
/// Leaves accumulate in one array for the whole tree, so solving allocates per section, not
/// per item. Each declared subitem is resolved once per pass and copied for every repetition.
struct GroupSolver {
    let grid: PixelGrid
    /// Leaves of the last solved group, relative to its origin, in depth-first order. Written
    /// only by the solver itself (here and in `GroupSolver+Measured.swift`).
    var leaves: [LeafSlot] = []
    /// Supplementary lists of items and groups that have any, referenced by ``LeafSlot/badges``
    /// and ``GroupBox/supplementaries``. Written only by the solver itself (in
    /// `GroupSolver+Templates.swift`).
    var badgeLists: [[ItemSupplementary]] = []
    /// Group instances with supplementary items in the last solved group, itself first, then
    /// depth-first. While a group is being solved their ``GroupBox/firstLeaf`` indexes
    /// ``leaves``; once it is solved, they count from its first leaf. Written only by the
    /// solver itself (here and in `GroupSolver+Arrangement.swift`).
    var boxes: [GroupBox] = []
    /// Work so far (group solves plus leaves placed); bounded by
    /// ``LayoutLimits/maxSolveWorkPerSection`` so that chains of estimated groups that each
    /// re-solve (2^depth solves) cannot run for hours.
    var work = 0

    /// `work` is what the section spent before this solve: its budget is one for the whole
    /// section, however many times a repetition is solved again with measurements.
    init(grid: PixelGrid, work: Int = 0) {
        self.grid = grid
        self.work = work
    }

    /// A declared subitem resolved in one pass's container.
    struct Template {
        var extent: Size
        /// The subitem's leaves; nil for a nested group of fixed size whose leaves are only
        /// needed once the pass is known to be final (see ``materialize``).
        var leafRange: Range<Int>?
        var size: Size
        var dependsOnAxis: Bool
        // Edge spacing along the parent's axis (minimums for flexible edges) …
        var pre: Double
        var post: Double
        var preFlexible: Bool
        var postFlexible: Bool
        // … and across it.
        var crossPre: Double
        var crossPost: Double
        var crossPreFlexible: Bool
        var crossPostFlexible: Bool
    }

    /// The space inside a group: its content insets (§3.2) and the lengths along and across
    /// its axis.
    struct ContentBox {
        var insets: EdgeInsets
        var width: Double
        var height: Double
        /// Along the group's axis, and across it.
        var length: Double
        var crossLength: Double
    }

    /// Solves `group`, already resolved to `size` in its parent's container, appending its
    /// leaves (relative to the group's origin) to ``leaves``.
    ///
    /// - Parameters:
    ///   - measured: self-sizing (§7.1): measured sizes of the root group's leaves; `firstLeaf`
    ///     is the index of this group's first leaf among them. Which subitems a group holds is
    ///     decided without them (as estimated); they change extents and positions only.
    /// - Returns: the group's extent: its resolved size, or content-fit on estimated axes (§4.8).
    mutating func solve(
        _ group: LayoutGroup,
        size: Size,
        depth: Int,
        measured: MeasuredLeaves? = nil,
        firstLeaf: Int = 0
    ) throws(GroupFailure) -> Size {
        // The root is depth 0: `maxGroupDepth` levels, as the decoder and validator allow.
        guard depth < LayoutLimits.maxGroupDepth else {
            throw GroupFailure(
                kind: .limitExceeded(what: "group nesting depth", limit: LayoutLimits.maxGroupDepth)
            )
        }
        guard !group.subitems.isEmpty else { throw GroupFailure(kind: .emptyGroup) }
        try spend(1)
        let content = try Self.contentBox(of: group, size: size)
        let subitems = group.countMode == .equal ? group.equalizedSubitems : group.subitems
        let base = leaves.count
        let boxBase = boxes.count

        var pass = try fillPasses(subitems, group: group, size: size, content: content, depth: depth)
        if pass.placed.isEmpty { return size }  // only `count: 0`, which validation rejects
        try materialize(&pass.templates, subitems, depth: depth)
        // §7.1: placements holding a measured leaf get templates of their own.
        var specialized: [Template?] = []
        if let measured {
            specialized = try specialize(pass, subitems, measured: measured, firstLeaf: firstLeaf, depth: depth)
        }
        let placements = pass.placed.enumerated().map { n, index in
            specialized.isEmpty ? pass.templates[index] : specialized[n] ?? pass.templates[index]
        }
        let arrangedStart = leaves.count
        let subitemBoxes = boxBase..<boxes.count
        let far = try arrange(placements, group: group, content: content, subitemBoxes: subitemBoxes)
        leaves.removeSubrange(base..<arrangedStart)

        // §4.8: declared size, or content-fit on estimated axes.
        var extent = size
        if group.size.width.isEstimated { extent.width = group.axis == .horizontal ? far.along : far.cross }
        if group.size.height.isEstimated { extent.height = group.axis == .vertical ? far.along : far.cross }
        if boxes.count > boxBase || !group.supplementaryItems.isEmpty {
            placeBoxes(
                of: group,
                in: extent,
                insets: content.insets,
                from: boxBase,
                subitemBoxes,
                leavesMovedBy: arrangedStart - base,
                to: base
            )
        }
        return extent
    }

    /// §3.2: insets are zeroed on estimated axes; values below 0.5 are fractions of the size.
    ///
    /// - Throws: `noRoomForGroup` when nothing is left along a fixed axis.
    static func contentBox(of group: LayoutGroup, size: Size) throws(GroupFailure) -> ContentBox {
        let estimatedWidth = group.size.width.isEstimated
        let estimatedHeight = group.size.height.isEstimated
        let declared = group.contentInsets
        func inset(_ v: Double, _ length: Double, _ estimated: Bool) -> Double {
            estimated ? 0 : (abs(v) < 0.5 ? v * length : v)
        }
        let insets = EdgeInsets(
            top: inset(declared.top, size.height, estimatedHeight),
            leading: inset(declared.leading, size.width, estimatedWidth),
            bottom: inset(declared.bottom, size.height, estimatedHeight),
            trailing: inset(declared.trailing, size.width, estimatedWidth)
        )
        let width = size.width - insets.leading - insets.trailing
        let height = size.height - insets.top - insets.bottom
        let horizontal = group.axis == .horizontal
        let estimatedAlong = horizontal ? estimatedWidth : estimatedHeight
        let box = ContentBox(
            insets: insets,
            width: width,
            height: height,
            length: horizontal ? width : height,
            crossLength: horizontal ? height : width
        )
        if (size.width == 0 && size.height == 0) || (box.length <= 0 && !estimatedAlong) {
            throw GroupFailure(
                kind: .noRoomForGroup(
                    groupSize: size,
                    contentInsets: insets,
                    containerSize: Size(width: width, height: height)
                )
            )
        }
        return box
    }

    /// The fill pass (§4.3), and when fractional items must absorb the spacing (§4.4), a
    /// second pass in a container shrunk by it.
    private mutating func fillPasses(
        _ subitems: [LayoutElement],
        group: LayoutGroup,
        size: Size,
        content: ContentBox,
        depth: Int
    ) throws(GroupFailure) -> (placed: [Int], templates: [Template?]) {
        let spacing = group.interItemSpacing?.value ?? 0
        let base = leaves.count
        let boxBase = boxes.count
        let pass = try fill(
            subitems,
            group: group,
            container: Container(width: size.width, height: size.height, insets: content.insets),
            length: content.length,
            spacing: spacing,
            isResolvePass: false,
            depth: depth
        )
        let placedCount = pass.placed.count
        guard placedCount >= 2, spacing != 0, pass.placed.contains(where: { pass.templates[$0]?.dependsOnAxis == true })
        else { return pass }
        leaves.removeSubrange(base...)
        if boxes.count > boxBase { boxes.removeSubrange(boxBase...) }
        let shrunk = content.length - spacing * Double(placedCount - 1)
        let container =
            group.axis == .horizontal
            ? Container(width: shrunk, height: content.height) : Container(width: content.width, height: shrunk)
        // Spacing wider than the group leaves its items no length: no room, rather than a
        // second pass whose negative sizes would repeat forever.
        guard shrunk > 0 else {
            throw GroupFailure(
                kind: .noRoomForGroup(
                    groupSize: size,
                    contentInsets: content.insets,
                    containerSize: Size(width: container.width, height: container.height)
                )
            )
        }
        return try fill(
            subitems,
            group: group,
            container: container,
            length: content.length,
            spacing: spacing,
            isResolvePass: true,
            depth: depth
        )
    }

    /// Drops the subitems' own boxes (their arranged copies stay), moves the copies' leaves to
    /// where the arranged leaves went, and puts the group's own box first: its supplementaries
    /// anchor to the box inside its insets (zero on estimated axes), from its first leaf.
    private mutating func placeBoxes(
        of group: LayoutGroup,
        in extent: Size,
        insets: EdgeInsets,
        from boxBase: Int,
        _ subitemBoxes: Range<Int>,
        leavesMovedBy shift: Int,
        to base: Int
    ) {
        boxes.removeSubrange(subitemBoxes)
        for box in boxBase..<boxes.count { boxes[box].firstLeaf -= shift }
        guard !group.supplementaryItems.isEmpty else { return }
        let content = Rect(
            x: insets.leading,
            y: insets.top,
            width: extent.width - insets.leading - insets.trailing,
            height: extent.height - insets.top - insets.bottom
        )
        let list = Int32(truncatingIfNeeded: badgeLists.count)
        badgeLists.append(group.supplementaryItems)
        boxes.insert(GroupBox(content: content, supplementaries: list, firstLeaf: base), at: boxBase)
    }

    /// The fill pass (§4.3): which declared subitems, in cyclic order, the group holds.
    private mutating func fill(
        _ subitems: [LayoutElement],
        group: LayoutGroup,
        container: Container,
        length: Double,
        spacing: Double,
        isResolvePass: Bool,
        depth: Int
    ) throws(GroupFailure) -> (placed: [Int], templates: [Template?]) {
        let axis = group.axis
        let estimatedAlong = group.size.dimension(along: axis).isEstimated
        var templates = [Template?](repeating: nil, count: subitems.count)
        var placed: [Int] = []
        placed.reserveCapacity(min(group.count ?? subitems.count, 64))
        var remaining = length
        var cycleStart = length
        var index = 0
        while true {
            if let count = group.count, placed.count == count { break }
            if group.count == nil, estimatedAlong, placed.count == subitems.count { break }
            if placed.count >= LayoutLimits.maxSubitemsPerGroup {
                throw GroupFailure(
                    kind: .limitExceeded(what: "subitems in one group", limit: LayoutLimits.maxSubitemsPerGroup)
                )
            }
            let j = index % subitems.count
            if j == 0, index > 0, group.count == nil, !estimatedAlong {
                // A whole cycle of subitems consumed no length (a fractional size floored to 0,
                // or negative spacing): the fill would never end.
                if remaining >= cycleStart {
                    throw GroupFailure(kind: .subitemRepeatsForever(consumes: cycleStart - remaining, axis: axis))
                }
                cycleStart = remaining
            }
            let t: Template
            if let cached = templates[j] {
                t = cached
            } else {
                t = try template(for: subitems[j], at: j, axis: axis, container: container, depth: depth)
                templates[j] = t
            }
            var next = remaining
            if !placed.isEmpty, spacing != 0, !t.dependsOnAxis || isResolvePass { next -= spacing }
            next -= axis == .horizontal ? t.extent.width : t.extent.height
            next -= t.pre + t.post
            let accepted = group.count != nil || estimatedAlong || next >= -0.25
            if !accepted {
                if placed.isEmpty {
                    throw GroupFailure(
                        kind: .cannotFitSingleItem(required: length - next, available: length, axis: axis)
                    )
                }
                break
            }
            remaining = next
            placed.append(j)
            index += 1
        }
        return (placed, templates)
    }

    mutating func spend(_ units: Int) throws(GroupFailure) {
        work += units
        guard work <= LayoutLimits.maxSolveWorkPerSection else {
            throw GroupFailure(
                kind: .limitExceeded(
                    what: "solver work (group solves and placed items) in one section",
                    limit: LayoutLimits.maxSolveWorkPerSection
                )
            )
        }
    }
}
