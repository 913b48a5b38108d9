extension SectionSolver {
    /// What the section will emit, from its solved root group alone: every repetition copies
    /// the group's leaves (items and their badges) and its group supplementaries; a partial
    /// last repetition copies the first `itemCount % slotsPerGroup` leaves and the groups that
    /// hold one of them. Costs one pass over the root group, never one over the items.
    ///
    /// - Parameters:
    ///   - addedDecorations: decorations added after the solve (a list's separators and card).
    ///   - restOffsets: the rest offsets the orthogonal metadata will hold at most.
    func elements(
        of section: LayoutSection,
        solved solver: GroupSolver,
        itemCount: Int,
        addedDecorations: Int,
        restOffsets: Int
    ) -> ElementCount {
        let leaves = solver.leaves
        let lists = solver.badgeLists
        let slotsPerGroup = leaves.count
        var count = ElementCount(
            items: itemCount,
            boundarySupplementaries: section.boundarySupplementaryItems.count,
            decorations: addedDecorations
                + (producesFrames(section, itemCount: itemCount) ? section.decorationItems.count : 0),
            restOffsets: restOffsets
        )
        guard slotsPerGroup > 0, itemCount > 0 else { return count }
        let fullRepetitions = itemCount / slotsPerGroup
        let partialCount = itemCount % slotsPerGroup
        // Badges of one full repetition, and of the slots a partial one holds.
        var badgesPerRepetition = 0
        var partialBadges = 0
        for (slot, leaf) in leaves.enumerated() where leaf.badges >= 0 {
            let badges = lists[Int(leaf.badges)].count
            badgesPerRepetition += badges
            if slot < partialCount { partialBadges += badges }
        }
        var groupsPerRepetition = 0
        var partialGroups = 0
        for box in solver.boxes {
            let supplementaries = lists[Int(box.supplementaries)].count
            if box.firstLeaf < slotsPerGroup { groupsPerRepetition += supplementaries }
            if box.firstLeaf < partialCount { partialGroups += supplementaries }
        }
        // Each factor is bounded (1 000 000 items, 100 000 leaves of at most 8 badges), so
        // no product overflows.
        count.badges = fullRepetitions * badgesPerRepetition + partialBadges
        count.groupSupplementaries = fullRepetitions * groupsPerRepetition + partialGroups
        return count
    }

    /// Fails, before the section allocates anything, when its elements pass the solve's element
    /// limit (together with the `emittedBefore` elements of the sections and global items before
    /// it), the section's work budget (together with the work of solving its root group and
    /// its measured repetitions), or the solve's work budget (with the `workBefore` of the
    /// sections before it).
    func checkBudget(
        _ elements: ElementCount,
        work: Int,
        emittedBefore: Int,
        workBefore: Int,
        section index: Int,
        id: String
    ) throws(LayoutSolveError) {
        let layoutLimit = LayoutLimits.maxElementsPerLayout
        if emittedBefore + elements.total > layoutLimit {
            throw LayoutSolveError(
                .limitExceeded(
                    what: "elements of one solve (\(emittedBefore) before this section, then \(elements))",
                    limit: layoutLimit
                ),
                sectionIndex: index,
                sectionID: id,
                path: "sections[\(index)]"
            )
        }
        let sectionLimit = LayoutLimits.maxSolveWorkPerSection
        if work + elements.total > sectionLimit {
            throw LayoutSolveError(
                .limitExceeded(
                    what: "solver work in one section (\(work) to solve its group, then \(elements))",
                    limit: sectionLimit
                ),
                sectionIndex: index,
                sectionID: id,
                path: "sections[\(index)]"
            )
        }
        let solveLimit = LayoutLimits.maxSolveWorkPerLayout
        if workBefore + work + elements.total > solveLimit {
            throw LayoutSolveError(
                .limitExceeded(
                    what: "solver work of one solve (\(workBefore) before this section, "
                        + "then \(work) to solve its group, then \(elements))",
                    limit: solveLimit
                ),
                sectionIndex: index,
                sectionID: id,
                path: "sections[\(index)]"
            )
        }
    }
}
