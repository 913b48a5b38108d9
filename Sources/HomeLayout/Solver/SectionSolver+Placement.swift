extension SectionSolver {
    /// §5.1: the container a section's root group is resolved in; the section insets apply on
    /// the cross axis only.
    func container(of section: LayoutSection, reference: EdgeInsets) -> Container {
        let insets = section.contentInsets
        if section.orthogonalScrollingBehavior != .none {
            return Container(
                width: environment.width,
                height: environment.height,
                insets: EdgeInsets(
                    top: insets.top,
                    leading: reference.leading,
                    bottom: insets.bottom,
                    trailing: reference.trailing
                )
            )
        }
        return Container(
            width: environment.width,
            height: environment.height,
            insets: EdgeInsets(
                leading: reference.leading + insets.leading,
                trailing: reference.trailing + insets.trailing
            )
        )
    }

    /// §5.2: the first `count` items as the root group's leaves repeated every `step` from
    /// `origin`, each with its badges: the path when no repetition was re-fitted (§7.1).
    func placeRepeatedItems(
        count: Int,
        of solver: GroupSolver,
        origin: Point,
        step: Point,
        itemFrames: inout [Rect],
        badgeFrames: inout [SupplementaryFrame]
    ) {
        let leaves = solver.leaves
        var remaining = count
        var repetition = 0.0
        while remaining > 0 {
            let dx = origin.x + repetition * step.x
            let dy = origin.y + repetition * step.y
            let placed = min(remaining, leaves.count)
            for slot in 0..<placed {
                let leaf = leaves[slot]
                let visible = leaf.visible.offsetBy(dx: dx, dy: dy)
                if leaf.badges >= 0 {
                    appendBadges(
                        solver.badgeLists[Int(leaf.badges)],
                        of: visible,
                        item: itemFrames.count,
                        to: &badgeFrames
                    )
                }
                itemFrames.append(visible)
            }
            remaining -= placed
            repetition += 1
        }
    }

    /// §8: the paging metadata of an orthogonal row; a failure names the section.
    func orthogonalScrolling(
        of section: LayoutSection,
        index: Int,
        contentWidth: Double,
        groupWidth: Double,
        stride: Double,
        groups: Int,
        groupStarts: [Double]?
    ) throws(LayoutSolveError) -> OrthogonalScrolling {
        do throws(LayoutSolveError) {
            return try OrthogonalRest.metadata(
                behavior: section.orthogonalScrollingBehavior,
                contentWidth: contentWidth,
                groupWidth: groupWidth,
                stride: stride,
                groups: groups,
                groupStarts: groupStarts,
                visibleWidth: environment.width,
                grid: grid
            )
        } catch {
            throw LayoutSolveError(error.kind, sectionIndex: index, sectionID: section.id, path: "sections[\(index)]")
        }
    }
}
