/// Where an orthogonally scrolling section comes to rest (§8.2).
///
/// V is the scroller's visible width (the container width W), C the orthogonal content width,
/// g the stride (group extent plus interGroupSpacing). All offsets are rounded to the pixel grid.
enum OrthogonalRest {
    static func metadata(
        behavior: OrthogonalScrollingBehavior,
        contentWidth C: Double,
        groupWidth: Double,
        stride g: Double,
        groups: Int,
        visibleWidth V: Double,
        grid: PixelGrid
    ) -> OrthogonalScrolling {
        var minOffset = 0.0
        var maxOffset = max(0, C - V)
        var centeringInset = 0.0
        var offsets: [Double] = []
        func clamp(_ v: Double) -> Double { min(max(v, minOffset), maxOffset) }

        switch behavior {
        case .none, .continuous:
            break
        case .continuousGroupLeadingBoundary, .groupPaging:
            offsets.reserveCapacity(max(groups, 1))
            for k in 0..<max(groups, 1) { offsets.append(clamp(Double(k) * g)) }
        case .paging:
            var offset = 0.0
            while offset < maxOffset, offsets.count < max(groups, 1) + 1 {
                offsets.append(offset)
                offset += V
            }
            offsets.append(maxOffset)
        case .groupPagingCentered:
            centeringInset = grid.round((V - groupWidth) / 2)
            minOffset = -centeringInset
            maxOffset = max(minOffset, C + centeringInset - V)
            offsets.reserveCapacity(max(groups, 1))
            for k in 0..<max(groups, 1) { offsets.append(clamp(-centeringInset + Double(k) * g)) }
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
            contentWidth: grid.round(C),
            stride: grid.round(g),
            centeringInset: centeringInset,
            restOffsets: rest,
            minOffset: grid.round(minOffset),
            maxOffset: grid.round(maxOffset)
        )
    }
}
