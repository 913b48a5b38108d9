/// Lays out one section starting at `y0` (§5, §6, §8), in vertical-scroll coordinates and
/// before final rounding: the root group is solved once and its leaves repeated.
struct SectionSolver {
    let environment: LayoutEnvironment
    let grid: PixelGrid
    let platform: LayoutPlatform

    /// The unrounded section and its length along the scroll axis.
    struct Output {
        var layout: SectionLayout
        var length: Double
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
        group origin: GroupOrigin
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

        // §5.1: the section container adds the section insets on the cross axis only.
        let sectionContainer =
            isOrthogonal
            ? Container(
                width: containerWidth,
                height: containerHeight,
                insets: EdgeInsets(
                    top: insets.top,
                    leading: reference.leading,
                    bottom: insets.bottom,
                    trailing: reference.trailing
                )
            )
            : Container(
                width: containerWidth,
                height: containerHeight,
                insets: EdgeInsets(
                    leading: reference.leading + insets.leading,
                    trailing: reference.trailing + insets.trailing
                )
            )

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
        var crossOffset = crossPre?.value ?? 0
        var crossExtent = groupCross
        if isOrthogonal {
            // [L] Across an orthogonal row (y), edge spacing is taken as fixed and adds to its height.
            crossExtent += (crossPre?.value ?? 0) + (crossPost?.value ?? 0)
        } else {
            let flexible = (crossPre?.isFlexible == true ? 1 : 0) + (crossPost?.isFlexible == true ? 1 : 0)
            if flexible > 0, crossPre?.isFlexible == true {
                let free =
                    sectionContainer.effectiveWidth - groupCross - (crossPre?.value ?? 0) - (crossPost?.value ?? 0)
                crossOffset += free / Double(flexible)
            }
        }

        // §5.2, §5.4: repetitions and the primary length P with the partial last group trimmed.
        let stride = groupExtent + section.interGroupSpacing
        let repetitions = slotsPerGroup == 0 ? 0 : (itemCount + slotsPerGroup - 1) / slotsPerGroup
        let fullRepetitions = slotsPerGroup == 0 ? 0 : itemCount / slotsPerGroup
        let partialCount = slotsPerGroup == 0 ? 0 : itemCount % slotsPerGroup
        var primary =
            Double(fullRepetitions) * groupExtent + section.interGroupSpacing * Double(max(repetitions - 1, 0))
        if partialCount > 0 {
            var lastLength = groupExtent
            if !root.size.fillsContainer {
                var maxAll = -Double.infinity
                var maxFirst = -Double.infinity
                for (n, leaf) in leaves.enumerated() {
                    let far = isOrthogonal ? leaf.slot.maxX : leaf.slot.maxY
                    maxAll = max(maxAll, far)
                    if n < partialCount { maxFirst = max(maxFirst, far) }
                }
                lastLength = groupExtent - (maxAll - maxFirst)
            }
            primary += lastLength
        }

        // §6.1–6.2: boundary supplementaries, header band and footer band.
        let boundary = BoundaryPlacer(environment: environment, grid: grid, platform: platform)
        let supplementaryFrame = boundary.container(for: section, reference: reference)
        let sized = boundary.sizes(section.boundarySupplementaryItems, in: supplementaryFrame, height: containerHeight)
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

        // Items: slot frames of each repetition, shifted along the section axis.
        var itemFrames: [Rect] = []
        itemFrames.reserveCapacity(itemCount)
        var badgeFrames: [SupplementaryFrame] = []
        let originX: Double
        let originY: Double
        let stepX: Double
        let stepY: Double
        if isOrthogonal {
            originX = reference.leading + insets.leading + alongPre
            originY = contentTop + crossOffset
            (stepX, stepY) = (stride, 0)
        } else {
            originX = reference.leading + insets.leading + crossOffset
            originY = contentTop + alongPre
            (stepX, stepY) = (0, stride)
        }
        var remaining = itemCount
        var repetition = 0.0
        while remaining > 0 {
            let dx = originX + repetition * stepX
            let dy = originY + repetition * stepY
            let count = min(remaining, slotsPerGroup)
            for slot in 0..<count {
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
            remaining -= count
            repetition += 1
        }

        var supplementaries = boundary.place(
            section.boundarySupplementaryItems,
            sizes: sized,
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
        supplementaries.append(contentsOf: badgeFrames)
        if !solver.boxes.isEmpty {
            appendGroupSupplementaries(
                of: solver,
                itemCount: itemCount,
                origin: Point(x: originX, y: originY),
                step: Point(x: stepX, y: stepY),
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
            do throws(LayoutSolveError) {
                orthogonal = try OrthogonalRest.metadata(
                    behavior: section.orthogonalScrollingBehavior,
                    contentWidth: isEmpty ? 0 : insets.leading + primary + insets.trailing,
                    groupWidth: groupExtent,
                    stride: stride,
                    groups: repetitions,
                    visibleWidth: containerWidth,
                    grid: grid
                )
            } catch {
                throw LayoutSolveError(
                    error.kind,
                    sectionIndex: index,
                    sectionID: section.id,
                    path: "sections[\(index)]"
                )
            }
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
                orthogonal: orthogonal
            ),
            length: length
        )
    }

    /// Group supplementaries: in every repetition, each group instance that holds an item, with
    /// its supplementaries anchored to its frame inside its insets (§6.5 applied to groups).
    @inline(never)
    private func appendGroupSupplementaries(
        of solver: GroupSolver,
        itemCount: Int,
        origin: Point,
        step: Point,
        to frames: inout [SupplementaryFrame]
    ) {
        let slotsPerGroup = solver.leaves.count
        var repetition = 0
        while repetition * slotsPerGroup < itemCount {
            let count = min(itemCount - repetition * slotsPerGroup, slotsPerGroup)
            let dx = origin.x + Double(repetition) * step.x
            let dy = origin.y + Double(repetition) * step.y
            for box in solver.boxes where box.firstLeaf < count {
                for supplementary in solver.badgeLists[Int(box.supplementaries)] {
                    frames.append(
                        SupplementaryFrame(
                            elementKind: supplementary.elementKind,
                            item: nil,
                            group: repetition,
                            frame: grid.anchoredFrame(supplementary, in: box.content.offsetBy(dx: dx, dy: dy)),
                            zIndex: supplementary.zIndex,
                            pinToVisibleBounds: false,
                            pinRange: nil
                        )
                    )
                }
            }
            repetition += 1
        }
    }

    /// §6.5: badges anchored inside the item's visible frame, in declaration order. Kept out of
    /// line: most items have none, and the per-item loop stays small.
    @inline(never)
    private func appendBadges(
        _ badges: [ItemSupplementary],
        of visible: Rect,
        item: Int,
        to frames: inout [SupplementaryFrame]
    ) {
        for badge in badges {
            frames.append(
                SupplementaryFrame(
                    elementKind: badge.elementKind,
                    item: item,
                    frame: grid.anchoredFrame(badge, in: visible),
                    zIndex: badge.zIndex,
                    pinToVisibleBounds: false,
                    pinRange: nil
                )
            )
        }
    }
}
