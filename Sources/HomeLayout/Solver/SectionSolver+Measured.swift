/// One repetition of a root group solved with its measurements (§7.1).
struct RepetitionSolution {
    var leaves: [LeafSlot]
    var boxes: [GroupBox]
    var badgeLists: [[ItemSupplementary]]
    /// The repetition's own extent (content-fit on estimated axes).
    var extent: Size
}

/// The repetitions of a section that hold a measured item, and what was applied to each item.
struct MeasuredRepetitions {
    /// By repetition index.
    var solutions: [Int: RepetitionSolution] = [:]
    /// The axes each measured item took its measurement on, by item index.
    var applied: [Int: SizingAxes] = [:]

    /// The largest extent along `axis` (x for `.horizontal`) among the measured repetitions.
    func largestExtent(along axis: Axis) -> Double {
        solutions.values.reduce(-Double.infinity) { max($0, axis == .horizontal ? $1.extent.width : $1.extent.height) }
    }
}

/// Where the repetitions of a root group go: the first one's origin, then one stride per
/// repetition along the section axis, moved by the repetitions before it that re-fitted.
struct RepetitionPlacement {
    var origin: Point
    var isOrthogonal: Bool
    /// Extent plus interGroupSpacing of a repetition without measurements.
    var stride: Double
    var spacing: Double
    /// A repetition's length along the section axis, root edge spacing included (§5.3).
    var alongExtent: (Size) -> Double
    /// A repetition's offset across the section axis (§5.3 flexible edges).
    var crossOffset: (Size) -> Double
    var baseExtent: Size

    /// The origin of each repetition up to `count`, and each one's start along the section axis
    /// relative to the first.
    func origins(_ count: Int, measured: MeasuredRepetitions) -> [Point] {
        var origins: [Point] = []
        origins.reserveCapacity(count)
        var along = 0.0
        let baseCross = crossOffset(baseExtent)
        for repetition in 0..<count {
            let extent = measured.solutions[repetition]?.extent ?? baseExtent
            let cross = crossOffset(extent) - baseCross
            origins.append(
                isOrthogonal
                    ? Point(x: origin.x + along, y: origin.y + cross) : Point(x: origin.x + cross, y: origin.y + along)
            )
            along += measured.solutions[repetition] == nil ? stride : alongExtent(extent) + spacing
        }
        return origins
    }
}

extension SectionSolver {
    /// §7.1: solves again, with their measurements, the repetitions that hold a measured item.
    /// A measurement of a slot that has no estimated axis, or of an item beyond the section's
    /// count, is a warning; the others apply on the estimated axes.
    func measuredRepetitions(
        _ items: [Int: MeasuredSize],
        root: LayoutGroup,
        rootSize: Size,
        base: [LeafSlot],
        itemCount: Int,
        section index: Int,
        sectionID: String,
        origin: GroupOrigin,
        work: inout Int,
        warnings: inout MeasurementWarnings
    ) throws(LayoutSolveError) -> MeasuredRepetitions {
        var measured = MeasuredRepetitions()
        let slots = base.count
        var byRepetition: [Int: [(leaf: Int, size: MeasuredSize)]] = [:]
        for item in items.keys.sorted() {
            guard let size = items[item] else { continue }
            let path = MeasurementWarnings.itemPath(section: index, item: item)
            guard slots > 0, item < itemCount else {
                warnings.noSuchElement(at: path)
                continue
            }
            let estimated = base[item % slots].estimated
            let applied = size.axes.intersection(estimated)
            if applied != size.axes {
                warnings.ignoredAxes(size.axes.subtracting(estimated), at: path)
            }
            guard !applied.isEmpty else { continue }
            measured.applied[item] = applied
            byRepetition[item / slots, default: []].append((item % slots, size))
        }
        for (repetition, entries) in byRepetition {
            var solver = GroupSolver(grid: grid, work: work)
            let extent: Size
            do {
                extent = try solver.solve(root, size: rootSize, depth: 0, measured: MeasuredLeaves(entries))
            } catch {
                throw LayoutSolveError(
                    error.kind,
                    sectionIndex: index,
                    sectionID: sectionID,
                    path: error.path(from: origin.path)
                )
            }
            work = solver.work
            measured.solutions[repetition] = RepetitionSolution(
                leaves: solver.leaves,
                boxes: solver.boxes,
                badgeLists: solver.badgeLists,
                extent: extent
            )
        }
        return measured
    }

    /// Item frames and badges when some repetition re-fitted or some badge is measured: each
    /// repetition from its own solution when it has one, moved by the ones before it.
    func placeItems(
        count itemCount: Int,
        base: GroupSolver,
        measured: MeasuredRepetitions,
        origins: [Point],
        badgeSizes: [Int: [String: MeasuredSize]],
        section index: Int,
        itemFrames: inout [Rect],
        badgeFrames: inout [SupplementaryFrame],
        warnings: inout MeasurementWarnings
    ) {
        let slots = base.leaves.count
        for (repetition, origin) in origins.enumerated() {
            let solution = measured.solutions[repetition]
            let leaves = solution?.leaves ?? base.leaves
            let lists = solution?.badgeLists ?? base.badgeLists
            let count = min(itemCount - repetition * slots, slots)
            for slot in 0..<count {
                let leaf = leaves[slot]
                let visible = leaf.visible.offsetBy(dx: origin.x, dy: origin.y)
                if leaf.badges >= 0 {
                    let badges = lists[Int(leaf.badges)]
                    let sizes = badgeSizes[itemFrames.count]
                    appendBadges(badges, of: visible, item: itemFrames.count, measured: sizes, to: &badgeFrames)
                    for badge in badges {
                        guard let size = sizes?[badge.elementKind] else { continue }
                        warnings.ignoredAxes(
                            size.axes.subtracting(SizingAxes(estimatedIn: badge.size)),
                            at: MeasurementWarnings.itemPath(section: index, item: itemFrames.count)
                                + ".supplementaries[\(badge.elementKind)]"
                        )
                    }
                }
                itemFrames.append(visible)
            }
        }
        // Badge measurements of items without such a badge.
        var found: Set<String> = []
        for frame in badgeFrames {
            if let item = frame.item, badgeSizes[item]?[frame.elementKind] != nil {
                found.insert("\(item)\u{0}\(frame.elementKind)")
            }
        }
        for item in badgeSizes.keys.sorted() {
            for kind in (badgeSizes[item] ?? [:]).keys.sorted() where !found.contains("\(item)\u{0}\(kind)") {
                warnings.noSuchElement(
                    at: MeasurementWarnings.itemPath(section: index, item: item) + ".supplementaries[\(kind)]"
                )
            }
        }
    }
}
