extension SectionSolver {
    /// Group supplementaries: in every repetition, each group instance that holds an item, with
    /// its supplementaries anchored to its frame inside its insets (§6.5 applied to groups). A
    /// repetition that re-fitted to measurements (§7.1) uses its own group frames.
    ///
    /// - Parameter origin: where repetition `r` of the root group starts.
    @inline(never)
    func appendGroupSupplementaries(
        of solver: GroupSolver,
        measured: MeasuredRepetitions,
        itemCount: Int,
        origin: (Int) -> Point,
        to frames: inout [SupplementaryFrame]
    ) {
        let slotsPerGroup = solver.leaves.count
        var repetition = 0
        while repetition * slotsPerGroup < itemCount {
            let count = min(itemCount - repetition * slotsPerGroup, slotsPerGroup)
            let at = origin(repetition)
            let solution = measured.solutions[repetition]
            let lists = solution?.badgeLists ?? solver.badgeLists
            for box in solution?.boxes ?? solver.boxes where box.firstLeaf < count {
                for supplementary in lists[Int(box.supplementaries)] {
                    frames.append(
                        SupplementaryFrame(
                            elementKind: supplementary.elementKind,
                            item: nil,
                            group: repetition,
                            frame: grid.anchoredFrame(supplementary, in: box.content.offsetBy(dx: at.x, dy: at.y)),
                            zIndex: supplementary.zIndex,
                            pinToVisibleBounds: false,
                            pinRange: nil,
                            estimatedAxes: SizingAxes(estimatedIn: supplementary.size)
                        )
                    )
                }
            }
            repetition += 1
        }
    }

    /// §6.5: badges anchored inside the item's visible frame, in declaration order, each at its
    /// measured size when it has one (§7.1). Kept out of line: most items have none, and the
    /// per-item loop stays small.
    @inline(never)
    func appendBadges(
        _ badges: [ItemSupplementary],
        of visible: Rect,
        item: Int,
        measured: [String: MeasuredSize]? = nil,
        to frames: inout [SupplementaryFrame]
    ) {
        for badge in badges {
            let estimated = SizingAxes(estimatedIn: badge.size)
            let size = measured?[badge.elementKind]
            frames.append(
                SupplementaryFrame(
                    elementKind: badge.elementKind,
                    item: item,
                    frame: grid.anchoredFrame(badge, in: visible, measured: size),
                    zIndex: badge.zIndex,
                    pinToVisibleBounds: false,
                    pinRange: nil,
                    estimatedAxes: estimated,
                    measuredAxes: size?.axes.intersection(estimated) ?? []
                )
            )
        }
    }
}
