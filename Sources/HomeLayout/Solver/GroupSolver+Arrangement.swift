extension GroupSolver {
    /// §4.6 and §4.7: places each subitem's leaves (and boxes) along the axis, in the spec's
    /// order of arithmetic (total = Σ (e_i + p_i + q_i) + s × (n − 1)), flexible spacing
    /// sharing what is left, and across the axis on its own.
    ///
    /// - Returns: how far the placed content reaches along and across the axis.
    mutating func arrange(
        _ placements: [Template?],
        group: LayoutGroup,
        content: ContentBox,
        subitemBoxes: Range<Int>
    ) throws(GroupFailure) -> (along: Double, cross: Double) {
        let horizontal = group.axis == .horizontal
        let spacing = group.interItemSpacing?.value ?? 0
        let spacingIsFlexible = group.interItemSpacing?.isFlexible ?? false
        var total = 0.0
        var flexibleCount = spacingIsFlexible ? placements.count - 1 : 0
        for case let t? in placements {
            total += (horizontal ? t.extent.width : t.extent.height) + t.pre + t.post
            flexibleCount += (t.preFlexible ? 1 : 0) + (t.postFlexible ? 1 : 0)
        }
        total += spacing * Double(placements.count - 1)
        let extra = flexibleCount > 0 ? (content.length - total) / Double(flexibleCount) : 0
        let crossStart = horizontal ? content.insets.top : content.insets.leading
        var cursor = horizontal ? content.insets.leading : content.insets.top
        var farAlong = 0.0
        var farCross = 0.0
        let arrangedStart = leaves.count
        for (n, placement) in placements.enumerated() {
            guard let t = placement else { continue }
            if n > 0 {
                cursor += spacing
                if spacingIsFlexible { cursor += extra }
            }
            let along = horizontal ? t.extent.width : t.extent.height
            let across = horizontal ? t.extent.height : t.extent.width
            let position = cursor + t.pre + (t.preFlexible ? extra : 0)
            cursor = position + along + t.post + (t.postFlexible ? extra : 0)
            let crossFlexible = (t.crossPreFlexible ? 1 : 0) + (t.crossPostFlexible ? 1 : 0)
            let crossExtra =
                crossFlexible > 0
                ? (content.crossLength - (across + t.crossPre + t.crossPost)) / Double(crossFlexible) : 0
            let cross = crossStart + t.crossPre + (t.crossPreFlexible ? crossExtra : 0)
            farAlong = max(farAlong, position + along + t.post)
            farCross = max(farCross, cross + across + t.crossPost)
            let (dx, dy) = horizontal ? (position, cross) : (cross, position)
            try copy(t.leafRange ?? 0..<0, offsetBy: dx, dy, subitemBoxes: subitemBoxes)
            if leaves.count - arrangedStart > LayoutLimits.maxLeavesPerGroup {
                throw GroupFailure(
                    kind: .limitExceeded(what: "items in one group", limit: LayoutLimits.maxLeavesPerGroup)
                )
            }
        }
        return (farAlong, farCross)
    }

    /// Appends a copy of the leaves in `range`, and of the boxes that start there, moved by
    /// (`dx`, `dy`): one placement of a subitem.
    private mutating func copy(
        _ range: Range<Int>,
        offsetBy dx: Double,
        _ dy: Double,
        subitemBoxes: Range<Int>
    ) throws(GroupFailure) {
        try spend(range.count)
        for box in subitemBoxes where range.contains(boxes[box].firstLeaf) {
            var copy = boxes[box]
            copy.content = copy.content.offsetBy(dx: dx, dy: dy)
            copy.firstLeaf += leaves.count - range.lowerBound
            boxes.append(copy)
        }
        for leaf in range {
            var copy = leaves[leaf]
            copy.slot = copy.slot.offsetBy(dx: dx, dy: dy)
            copy.visible = copy.visible.offsetBy(dx: dx, dy: dy)
            leaves.append(copy)
        }
    }
}
