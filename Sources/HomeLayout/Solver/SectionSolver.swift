/// Lays out one section starting at `y0` (§5, §6, §8), in vertical-scroll coordinates and
/// before final rounding: the root group is solved once and its leaves repeated.
struct SectionSolver {
    let environment: LayoutEnvironment
    let grid: PixelGrid
    let platform: LayoutPlatform
    /// Whether the layout scrolls horizontally and is solved transposed (for warnings' axis names).
    var transposed = false
    /// Whether a root group repeated at a negative stride is an error whatever the item count
    /// (``checkStride(extent:of:index:isOrthogonal:origin:)``), as configuration loading asks.
    var refusesNegativeStride = false

    /// The unrounded section and its length along the scroll axis.
    struct Output {
        var layout: SectionLayout
        var length: Double
        /// Measurements that could not be used (§7.1).
        var diagnostics: [LayoutDiagnostic] = []
        /// What the section cost against the solve's work budget: group solves (measured
        /// repetitions included), items placed, then the elements it emits.
        var work = 0
    }

    /// Whether the section lays anything out: items, boundary items, or on iOS 14 the
    /// background of an empty orthogonal row. A section that lays nothing out is empty for
    /// interSectionSpacing (§5.6).
    func producesFrames(_ section: LayoutSection, itemCount: Int) -> Bool {
        itemCount > 0 || !section.boundarySupplementaryItems.isEmpty || showsEmptyRow(section, itemCount: itemCount)
    }

    /// iOS 14 lays out an empty orthogonal section that has a background as one group tall.
    private func showsEmptyRow(_ section: LayoutSection, itemCount: Int) -> Bool {
        itemCount == 0 && platform == .ios14 && section.orthogonalScrollingBehavior != .none
            && !section.decorationItems.isEmpty
    }

    func solve(
        _ section: LayoutSection,
        index: Int,
        itemCount: Int,
        y0: Double,
        group origin: GroupOrigin,
        measurements: LayoutMeasurements.Section? = nil,
        emittedBefore: Int = 0,
        workBefore: Int = 0,
        addedDecorations: Int = 0
    ) throws(LayoutSolveError) -> Output {
        let containerWidth = environment.width
        let containerHeight = environment.height
        let reference = environment.insets(for: section.contentInsetsReference)
        let insets = section.contentInsets
        let isOrthogonal = section.orthogonalScrollingBehavior != .none
        let isEmpty = itemCount == 0
        // An empty section has no content and no insets ([L] §5.6), except iOS 14's empty
        // orthogonal row with a background.
        let hasContent = !isEmpty || showsEmptyRow(section, itemCount: itemCount)

        let sectionContainer = container(of: section, reference: reference)

        // §4: solve the root group once.
        let root = section.group
        let rootSize = grid.resolve(root.size, in: sectionContainer)
        var solver = GroupSolver(grid: grid)
        let extent: Size
        do {
            extent = try solver.solve(root, size: rootSize, depth: 0)
        } catch {
            throw LayoutSolveError(
                error.kind,
                sectionIndex: index,
                sectionID: section.id,
                path: error.path(from: origin.path)
            )
        }
        let leaves = solver.leaves
        let slotsPerGroup = leaves.count
        var warnings = MeasurementWarnings(transposed: transposed)
        // §7.1: repetitions that hold a measured item are solved again with the measurements.
        var measured = MeasuredRepetitions()
        var work = solver.work
        if let items = measurements?.items, !items.isEmpty {
            measured = try measuredRepetitions(
                items,
                root: root,
                rootSize: rootSize,
                base: leaves,
                itemCount: itemCount,
                section: index,
                sectionID: section.id,
                origin: origin,
                work: &work,
                warnings: &warnings
            )
        }

        // §5.3: root edge spacing. Along the section axis only fixed values (flexible minimums)
        // count; across it, the spacing positions the group in the section container.
        let sectionAxis: Axis = isOrthogonal ? .horizontal : .vertical
        let crossAxis: Axis = isOrthogonal ? .vertical : .horizontal
        let edges = root.edgeSpacing
        let alongPre = edges?.pre(along: sectionAxis)?.value ?? 0
        let alongPost = edges?.post(along: sectionAxis)?.value ?? 0
        let crossPre = edges?.pre(along: crossAxis)
        let crossPost = edges?.post(along: crossAxis)
        let groupAlong = isOrthogonal ? extent.width : extent.height
        let groupCross = isOrthogonal ? extent.height : extent.width
        let groupExtent = groupAlong + alongPre + alongPost
        /// Where a repetition `groupCross` wide sits across the section axis.
        func crossOffset(_ groupCross: Double) -> Double {
            var offset = crossPre?.value ?? 0
            let flexible = (crossPre?.isFlexible == true ? 1 : 0) + (crossPost?.isFlexible == true ? 1 : 0)
            if !isOrthogonal, flexible > 0, crossPre?.isFlexible == true {
                let free =
                    sectionContainer.effectiveWidth - groupCross - (crossPre?.value ?? 0) - (crossPost?.value ?? 0)
                offset += free / Double(flexible)
            }
            return offset
        }
        let baseCrossOffset = crossOffset(groupCross)
        // §5.2: repetitions of the root group.
        let repetitions = slotsPerGroup == 0 ? 0 : (itemCount + slotsPerGroup - 1) / slotsPerGroup
        // §7.1: an orthogonal row is as tall as its tallest repetition; the estimate is one of
        // them only while some repetition is not measured, so a measured row may also shrink.
        var crossExtent = measured.largestExtent(along: isOrthogonal ? .vertical : .horizontal)
        if measured.solutions.count < repetitions || repetitions == 0 {
            crossExtent = max(crossExtent, groupCross)
        }
        if isOrthogonal {
            // [L] Across an orthogonal row (y), edge spacing is taken as fixed and adds to its height.
            crossExtent += (crossPre?.value ?? 0) + (crossPost?.value ?? 0)
        }

        // §5.2, §5.4: the primary length P with the partial last group trimmed.
        try checkStride(extent: groupExtent, of: section, index: index, isOrthogonal: isOrthogonal, origin: origin)
        let stride = groupExtent + section.interGroupSpacing
        let fullRepetitions = slotsPerGroup == 0 ? 0 : itemCount / slotsPerGroup
        let partialCount = slotsPerGroup == 0 ? 0 : itemCount % slotsPerGroup
        var primary =
            Double(fullRepetitions) * groupExtent + section.interGroupSpacing * Double(max(repetitions - 1, 0))
        /// §5.4: the length of a repetition that holds only its first `partialCount` slots.
        func trimmed(_ leaves: [LeafSlot], extent: Double) -> Double {
            guard !root.size.fillsContainer else { return extent }
            var maxAll = -Double.infinity
            var maxFirst = -Double.infinity
            for (n, leaf) in leaves.enumerated() {
                let far = isOrthogonal ? leaf.slot.maxX : leaf.slot.maxY
                maxAll = max(maxAll, far)
                if n < partialCount { maxFirst = max(maxFirst, far) }
            }
            return extent - (maxAll - maxFirst)
        }
        /// A repetition's length along the section axis, root edge spacing included (§5.3).
        func sectionAxisExtent(_ extent: Size) -> Double {
            (isOrthogonal ? extent.width : extent.height) + alongPre + alongPost
        }
        for (repetition, solution) in measured.solutions where repetition < fullRepetitions {
            primary += sectionAxisExtent(solution.extent) - groupExtent
        }
        if partialCount > 0 {
            if let last = measured.solutions[repetitions - 1] {
                primary += trimmed(last.leaves, extent: sectionAxisExtent(last.extent))
            } else {
                primary += trimmed(leaves, extent: groupExtent)
            }
        }

        try checkContentLength(primary, of: section, index: index, isOrthogonal: isOrthogonal, origin: origin)

        // §6.1–6.2: boundary supplementaries, header band and footer band.
        let boundary = BoundaryPlacer(environment: environment, grid: grid, platform: platform)
        let supplementaryFrame = boundary.container(for: section, reference: reference)
        var sized = boundary.sizes(section.boundarySupplementaryItems, in: supplementaryFrame, height: containerHeight)
        var boundaryMeasured: [SizingAxes]?
        if let byKind = measurements?.boundary, !byKind.isEmpty {
            boundaryMeasured = BoundaryPlacer.measure(
                section.boundarySupplementaryItems,
                sizes: &sized,
                with: byKind,
                warnings: &warnings,
                path: MeasurementWarnings.boundaryPath(section: index)
            )
        }
        let headerHeight = BoundaryPlacer.bandHeight(section.boundarySupplementaryItems, sized, top: true)
        let footerHeight = BoundaryPlacer.bandHeight(section.boundarySupplementaryItems, sized, top: false)

        let topInset = hasContent ? insets.top : 0
        let bottomInset = hasContent ? insets.bottom : 0
        let contentTop = y0 + headerHeight + topInset
        var contentLength = isOrthogonal ? crossExtent : primary
        if !hasContent {
            // iOS 14 takes P for zero groups literally: 0 × E + interGroupSpacing × (0 − 1).
            let literal = platform == .ios14 && !isOrthogonal && !section.boundarySupplementaryItems.isEmpty
            contentLength = literal ? -section.interGroupSpacing : 0
        }
        let contentBottom = contentTop + contentLength
        let sectionEnd = contentBottom + bottomInset + footerHeight
        let length = sectionEnd - y0
        let orthogonalWidth = isEmpty ? 0 : insets.leading + primary + insets.trailing

        // Count what the section emits and check the limits before allocating any of it.
        let elements = elements(
            of: section,
            solved: solver,
            itemCount: itemCount,
            addedDecorations: addedDecorations,
            restOffsets: isOrthogonal
                ? OrthogonalRest.offsetCount(
                    behavior: section.orthogonalScrollingBehavior,
                    contentWidth: orthogonalWidth,
                    groups: repetitions,
                    visibleWidth: containerWidth
                ) : 0
        )
        try checkBudget(
            elements,
            work: work,
            emittedBefore: emittedBefore,
            workBefore: workBefore,
            section: index,
            id: section.id
        )

        // Items: slot frames of each repetition, shifted along the section axis.
        var itemFrames: [Rect] = []
        itemFrames.reserveCapacity(itemCount)
        var badgeFrames: [SupplementaryFrame] = []
        badgeFrames.reserveCapacity(elements.badges)
        let originX: Double
        let originY: Double
        let stepX: Double
        let stepY: Double
        if isOrthogonal {
            originX = reference.leading + insets.leading + alongPre
            originY = contentTop + baseCrossOffset
            (stepX, stepY) = (stride, 0)
        } else {
            originX = reference.leading + insets.leading + baseCrossOffset
            originY = contentTop + alongPre
            (stepX, stepY) = (0, stride)
        }
        let badgeSizes = measurements?.itemSupplementaries ?? [:]
        // Repetition origins, only when some repetition re-fitted (§7.1).
        var origins: [Point] = []
        if measured.solutions.isEmpty && badgeSizes.isEmpty {
            placeRepeatedItems(
                count: itemCount,
                of: solver,
                origin: Point(x: originX, y: originY),
                step: Point(x: stepX, y: stepY),
                itemFrames: &itemFrames,
                badgeFrames: &badgeFrames
            )
        } else {
            let placement = RepetitionPlacement(
                origin: Point(x: originX, y: originY),
                isOrthogonal: isOrthogonal,
                stride: stride,
                spacing: section.interGroupSpacing,
                alongExtent: sectionAxisExtent,
                crossOffset: { crossOffset(isOrthogonal ? $0.height : $0.width) },
                baseExtent: extent
            )
            origins = placement.origins(repetitions, measured: measured)
            placeItems(
                count: itemCount,
                base: solver,
                measured: measured,
                origins: origins,
                badgeSizes: badgeSizes,
                section: index,
                itemFrames: &itemFrames,
                badgeFrames: &badgeFrames,
                warnings: &warnings
            )
        }

        var supplementaries = boundary.place(
            section.boundarySupplementaryItems,
            sizes: sized,
            measured: boundaryMeasured,
            in: supplementaryFrame,
            bands: BoundaryPlacer.Bands(
                start: y0,
                headerHeight: headerHeight,
                contentTop: contentTop,
                contentBottom: contentBottom,
                footerTop: contentBottom + bottomInset,
                end: sectionEnd
            )
        )
        supplementaries.reserveCapacity(
            elements.boundarySupplementaries + elements.badges + elements.groupSupplementaries
        )
        supplementaries.append(contentsOf: badgeFrames)
        if !solver.boxes.isEmpty {
            appendGroupSupplementaries(
                of: solver,
                measured: measured,
                itemCount: itemCount,
                origin: {
                    origins.isEmpty
                        ? Point(x: originX + Double($0) * stepX, y: originY + Double($0) * stepY) : origins[$0]
                },
                to: &supplementaries
            )
        }

        // §6.6: backgrounds cover the whole section band; cells are raised above them.
        let band = Rect(x: 0, y: y0, width: containerWidth, height: length)
        let decorations =
            producesFrames(section, itemCount: itemCount)
            ? section.decorationItems.map {
                DecorationFrame(elementKind: $0.elementKind, frame: band.inset(by: $0.contentInsets), zIndex: $0.zIndex)
            } : []
        // zIndex values were validated to Int32, so + 1 cannot overflow.
        let itemZIndex = section.decorationItems.map(\.zIndex).max().map { $0 + 1 } ?? 0

        var orthogonal: OrthogonalScrolling?
        if isOrthogonal {
            orthogonal = try orthogonalScrolling(
                of: section,
                index: index,
                contentWidth: orthogonalWidth,
                groupWidth: groupExtent,
                stride: stride,
                groups: repetitions,
                groupStarts: origins.isEmpty ? nil : origins.map { $0.x - originX }
            )
        }

        return Output(
            layout: SectionLayout(
                index: index,
                id: section.id,
                frame: band,
                itemFrames: itemFrames,
                itemZIndex: itemZIndex,
                slotsPerGroup: slotsPerGroup,
                supplementaries: supplementaries,
                decorations: decorations,
                orthogonal: orthogonal,
                // Only sections with estimated slots pay for the array.
                slotEstimatedAxes: leaves.contains { !$0.estimated.isEmpty } ? leaves.map(\.estimated) : [],
                measuredItems: measured.applied,
                elementCount: elements
            ),
            length: length,
            diagnostics: warnings.diagnostics,
            work: work + elements.total
        )
    }
}
