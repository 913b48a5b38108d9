/// Where an orthogonally scrolling section comes to rest (§8.2).
///
/// `visibleWidth` is the scroller's visible width V (the container width W), `contentWidth` the
/// orthogonal content width C,
/// g the stride (group extent plus interGroupSpacing). All offsets are rounded to the pixel grid.
/// With measurements (§7.1) groups may differ in width: group boundaries then come from where
/// each group starts, and `stride` stays that of a group without measurements.
enum OrthogonalRest {
    /// How many rest offsets ``metadata(behavior:contentWidth:groupWidth:stride:groups:groupStarts:visibleWidth:grid:)``
    /// computes at most (before dropping duplicates), known before the section is laid out:
    /// one per group, or one per page and the end for `.paging` (counted up to
    /// ``LayoutLimits/maxRestOffsets``, past which `metadata` fails).
    static func offsetCount(
        behavior: OrthogonalScrollingBehavior,
        contentWidth: Double,
        groups: Int,
        visibleWidth: Double
    ) -> Int {
        switch behavior {
        case .none, .continuous:
            return 0
        case .continuousGroupLeadingBoundary, .groupPaging, .groupPagingCentered:
            return max(groups, 1)
        case .paging:
            let pages = (max(0, contentWidth - visibleWidth) / visibleWidth).rounded(.up)
            let limit = LayoutLimits.maxRestOffsets
            return (pages < Double(limit) ? Int(pages) : limit) + 1
        }
    }

    static func metadata(
        behavior: OrthogonalScrollingBehavior,
        contentWidth: Double,
        groupWidth: Double,
        stride g: Double,
        groups: Int,
        groupStarts: [Double]? = nil,
        visibleWidth: Double,
        grid: PixelGrid
    ) throws(LayoutSolveError) -> OrthogonalScrolling {
        // Group k's leading boundary: k·g, or where it starts once measured groups re-fitted (§7.1).
        func start(_ k: Int) -> Double {
            if let groupStarts, k < groupStarts.count { return groupStarts[k] }
            return Double(k) * g
        }
        var minOffset = 0.0
        var maxOffset = max(0, contentWidth - visibleWidth)
        var centeringInset = 0.0
        var offsets: [Double] = []
        func clamp(_ v: Double) -> Double { min(max(v, minOffset), maxOffset) }

        switch behavior {
        case .none, .continuous:
            break
        case .continuousGroupLeadingBoundary, .groupPaging:
            offsets.reserveCapacity(max(groups, 1))
            for k in 0..<max(groups, 1) { offsets.append(clamp(start(k))) }
        case .paging:
            // Pages of the visible width, the last clamped to the end; as many as the content
            // needs, not one per group (a group can be wider than the screen).
            let pages = (maxOffset / visibleWidth).rounded(.up)
            guard pages < Double(LayoutLimits.maxRestOffsets) else {
                throw LayoutSolveError(
                    .limitExceeded(what: "paging rest offsets", limit: LayoutLimits.maxRestOffsets)
                )
            }
            for page in 0..<Int(pages) { offsets.append(Double(page) * visibleWidth) }
            offsets.append(maxOffset)
        case .groupPagingCentered:
            centeringInset = grid.round((visibleWidth - groupWidth) / 2)
            minOffset = -centeringInset
            maxOffset = max(minOffset, contentWidth + centeringInset - visibleWidth)
            offsets.reserveCapacity(max(groups, 1))
            for k in 0..<max(groups, 1) { offsets.append(clamp(-centeringInset + start(k))) }
        }

        var rest: [Double] = []
        rest.reserveCapacity(offsets.count)
        for offset in offsets {
            let rounded = grid.round(offset)
            if rest.last != rounded { rest.append(rounded) }
        }
        return OrthogonalScrolling(
            behavior: behavior,
            axis: .horizontal,
            contentWidth: grid.round(contentWidth),
            stride: grid.round(g),
            centeringInset: centeringInset,
            restOffsets: rest,
            minOffset: grid.round(minOffset),
            maxOffset: grid.round(maxOffset)
        )
    }
}
