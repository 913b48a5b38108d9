import Testing

@testable import HomeLayout

/// §9: what UIKit raises becomes a structured error naming the section and the path.
@Suite struct ErrorTests {
    let fill = item(.fractionalWidth(1), .fractionalHeight(1))

    @Test("no room: section insets 16 + 16 on a 32-wide container (LiveContainer#1414)")
    func noRoom() throws {
        let group = hgroup(.fractionalWidth(1), .absolute(50), [fill])
        let error = try #require(
            solveError(group, width: 32) { $0.contentInsets = EdgeInsets(leading: 16, trailing: 16) }
        )
        guard case .noRoomForGroup(let size, _, _) = error.kind else {
            Issue.record("unexpected \(error)")
            return
        }
        #expect(size == Size(width: 0, height: 50))
        #expect(error.sectionIndex == 0)
        #expect(error.path == "sections[0].group")
        #expect(error.description.hasPrefix("section 0 (s): sections[0].group: There is no room"))
    }

    @Test("no room inside a nested group: insets eat its content along its axis; the path names it")
    func noRoomNested() throws {
        // A vertical group 20 high with top + bottom insets of 10: content height 0.
        let squashed = vgroup(.absolute(40), .absolute(20), [fill], insets: EdgeInsets(top: 10, bottom: 10))
        let outer = hgroup(.fractionalWidth(1), .absolute(50), [item(.absolute(10), .absolute(10)), .group(squashed)])
        let error = try #require(solveError(outer))
        #expect(error.path == "sections[0].group.subitems[1].group")
        // Only the group's own axis counts: the same insets across the axis leave room.
        let wide = hgroup(.absolute(40), .absolute(20), [fill], insets: EdgeInsets(top: 10, bottom: 10))
        #expect(solveError(hgroup(.fractionalWidth(1), .absolute(50), [.group(wide)])) == nil)
    }

    @Test("cannot fit a single item: a 400-wide item in a 375-wide group (SideStore#1340)")
    func cannotFit() throws {
        let group = hgroup(.fractionalWidth(1), .absolute(50), [item(.absolute(400), .absolute(50))])
        let error = try #require(solveError(group))
        #expect(error.kind == .cannotFitSingleItem(required: 400, available: 375, axis: .horizontal))
        #expect(error.message.contains("cannot fit even a single item"))
    }

    @Test("invalid values are rejected with their path", arguments: [0.0, -1, .nan, .infinity, 2e6])
    func invalidDimension(_ value: Double) throws {
        let group = hgroup(.fractionalWidth(1), .absolute(50), [item(.absolute(value), .absolute(50))])
        let error = try #require(solveError(group))
        #expect(error.path == "sections[0].group.subitems[0].item.size.width")
        if case .invalidValue = error.kind {} else { Issue.record("unexpected \(error)") }
    }

    @Test("non-finite or too large insets and spacings are rejected, naming the range")
    func invalidNumbers() throws {
        let spacing = hgroup(.fractionalWidth(1), .absolute(50), [fill], spacing: .fixed(.nan))
        #expect(try #require(solveError(spacing)).path == "sections[0].group.interItemSpacing.fixed")
        let group = hgroup(.fractionalWidth(1), .absolute(50), [fill])
        let insets = try #require(solveError(group) { $0.contentInsets.top = .infinity })
        #expect(insets.path == "sections[0].contentInsets.top")
        // Review finding: a value past the limit was told "values must be finite, and sizes
        // greater than 0", true of it, and never named the limit.
        let large = try #require(solveError(group) { $0.contentInsets.top = 2_000_000 })
        #expect(large.message == "invalid inset 2000000: numbers must be finite, from -1000000 to 1000000")
        let wide = try #require(
            solveError(hgroup(.fractionalWidth(1), .absolute(50), [item(.absolute(2e6), .absolute(50))]))
        )
        #expect(wide.message == "invalid dimension 2000000: sizes must be finite, greater than 0 and at most 1000000")
    }

    @Test("group nesting is limited to 32 levels, root included, built in code as in JSON")
    func nestingDepth() throws {
        func nested(_ levels: Int) -> LayoutGroup {
            var group = vgroup(.fractionalWidth(1), .absolute(50), [fill])
            for _ in 1..<levels { group = vgroup(.fractionalWidth(1), .absolute(50), [.group(group)]) }
            return group
        }
        #expect(solveError(nested(LayoutLimits.maxGroupDepth)) == nil)
        // The decoder refuses the 33rd level; the validator let it through.
        let error = try #require(solveError(nested(LayoutLimits.maxGroupDepth + 1)))
        #expect(error.kind == .limitExceeded(what: "group nesting depth", limit: LayoutLimits.maxGroupDepth))
    }

    @Test("spacing wider than the group leaves no room, rather than repeating forever")
    func spacingWiderThanGroup() throws {
        // Two halves fit the first pass; the second has 375 - 400 = -25 pt to share.
        let group = hgroup(
            .fractionalWidth(1),
            .absolute(50),
            [item(.fractionalWidth(0.5), .absolute(50))],
            spacing: .fixed(400)
        )
        let error = try #require(solveError(group))
        #expect(
            error.kind
                == .noRoomForGroup(
                    groupSize: Size(width: 375, height: 50),
                    contentInsets: .zero,
                    containerSize: Size(width: -25, height: 50)
                )
        )
        #expect(error.path == "sections[0].group")
    }

    @Test("duplicate element kinds in one section raise (§9 item 7)")
    func duplicateKinds() throws {
        let header = BoundarySupplementaryItem(
            elementKind: "header",
            size: LayoutSize(width: .fractionalWidth(1), height: .absolute(10)),
            alignment: .top
        )
        let group = hgroup(.fractionalWidth(1), .absolute(50), [fill])
        let error = try #require(solveError(group) { $0.boundarySupplementaryItems = [header, header] })
        #expect(error.kind == .duplicateElementKind("header"))
        #expect(error.path == "sections[0].boundarySupplementaryItems[1].elementKind")
    }

    @Test("supplementariesFollowContentInsets with a supplementary reference raises (§9 item 6)")
    func conflictingInsets() throws {
        let group = hgroup(.fractionalWidth(1), .absolute(50), [fill])
        let error = try #require(
            solveError(group) {
                $0.supplementariesFollowContentInsets = true
                $0.supplementaryContentInsetsReference = .layoutMargins
            }
        )
        #expect(error.kind == .conflictingSupplementaryInsets)
    }

    @Test("a zero-extent item cannot repeat forever")
    func zeroExtentLoop() throws {
        // 0.001 × 375 = 0.375 → floor at 2x = 0: the item has no width and never fills the group.
        let group = hgroup(.fractionalWidth(1), .absolute(50), [item(.fractionalWidth(0.001), .absolute(50))])
        let error = try #require(solveError(group))
        #expect(error.kind == .subitemRepeatsForever(consumes: 0, axis: .horizontal))
        // Negative spacing that cancels the item's width loops the same way.
        let negative = hgroup(
            .fractionalWidth(1),
            .absolute(50),
            [item(.absolute(10), .absolute(50))],
            spacing: .fixed(-10)
        )
        #expect(solveError(negative)?.code == "subitemRepeatsForever")
        // A zero-width subitem among others still ends: the cycle as a whole consumes length.
        // 100 / 30 → three cycles of (0 + 30), then the fourth 30 does not fit: 7 slots.
        let mixed = hgroup(
            .absolute(100),
            .absolute(50),
            [item(.fractionalWidth(0.001), .absolute(50)), item(.absolute(30), .absolute(50))]
        )
        #expect(try solve(mixed, count: 1).sections[0].slotsPerGroup == 7)
        // Many tiny items hit the subitem limit rather than running long.
        let tiny = hgroup(.absolute(100_000), .absolute(50), [item(.absolute(1), .absolute(50))])
        let limit = LayoutSolveError.Kind.limitExceeded(
            what: "subitems in one group",
            limit: LayoutLimits.maxSubitemsPerGroup
        )
        #expect(solveError(tiny, width: 200_000)?.kind == limit)
    }

    /// Each level: a count-2 group with spacing whose first subitem is the next level (review
    /// finding: 2^depth solves before fixed-size groups were solved lazily); `depth + 1` leaves,
    /// the deepest first.
    static func chain(
        _ depth: Int,
        estimated: Bool,
        bottom: Int = 1,
        leafHeight: Dimension = .absolute(10)
    ) -> LayoutGroup {
        let height: Dimension = estimated ? .estimated(10) : .absolute(10)
        var group = hgroup(.fractionalWidth(1), height, [item(.absolute(1), leafHeight)], count: bottom)
        for _ in 0..<depth {
            group = hgroup(
                .fractionalWidth(1),
                height,
                [.group(group), item(.absolute(1), .absolute(10))],
                spacing: .fixed(0.001),
                count: 2
            )
        }
        return group
    }

    @Test("chains of nested groups that each re-solve their spacing stay linear, or bounded when estimated")
    func nestedResolveChain() throws {
        let linear = try solve(Self.chain(30, estimated: false), count: 1, width: 1000, scale: 0)
        #expect(linear.sections[0].slotsPerGroup == 31)
        // With estimated heights every level solves its child in both passes: the work budget
        // turns 2^30 solves into an error instead of hours.
        let error = solveError(Self.chain(30, estimated: true), width: 1000)
        let limit = LayoutSolveError.Kind.limitExceeded(
            what: "solver work (group solves and placed items) in one section",
            limit: LayoutLimits.maxSolveWorkPerSection
        )
        #expect(error?.kind == limit)
        // The same with 1 000 items at the bottom of the chain: bounded by the items placed too.
        #expect(solveError(Self.chain(12, estimated: true), width: 1000) == nil)
        #expect(solveError(Self.chain(14, estimated: true, bottom: 1000), width: 1000)?.kind == limit)
    }

    @Test("measured repetitions are solved again on the section's one work budget, not a fresh one each")
    func measuredRepetitionsShareTheBudget() throws {
        // Review finding: each repetition solved again with its measurements started a budget
        // of its own, so 100 000 measurements (a client's ReportSizes) multiplied the section's.
        let section = LayoutSection(
            id: "s",
            itemCount: 44,
            group: Self.chain(10, estimated: true, leafHeight: .estimated(10))
        )
        let solver = SectionSolver(
            environment: LayoutEnvironment(width: 1000, height: 800, scale: 2),
            grid: PixelGrid(scale: 2),
            platform: .ios17
        )
        let plain = try solver.solve(section, index: 0, itemCount: 44, y0: 0, group: GroupOrigin(section: 0))
        // 11 leaves a repetition, 4 repetitions; the first leaf of each is estimated.
        var measured = LayoutMeasurements.Section()
        for repetition in 0..<4 { measured.items[repetition * 11] = MeasuredSize(height: 12) }
        let output = try solver.solve(
            section,
            index: 0,
            itemCount: 44,
            y0: 0,
            group: GroupOrigin(section: 0),
            measurements: measured
        )
        // The same elements, and four more solves of the root group, each at least as dear as
        // the first (measured leaves re-fit their groups).
        let solve = plain.work - plain.layout.elementCount.total
        #expect(solve > 6_000)
        #expect(output.layout.elementCount == plain.layout.elementCount)
        #expect(output.work >= plain.work + 4 * solve)
    }

    @Test("the sections of one solve share a work budget of their own")
    func solveWorkBudget() throws {
        // 100 000 leaves (10 rows of 10 000), of which the section shows one: 110 003 work
        // (110 000 leaves and row placements, 2 group solves, 1 element) in about a twentieth
        // of the per-section budget. 36 such sections spend 3 960 108; the 37th passes 4 000 000.
        let row = hgroup(.fractionalWidth(1), .absolute(10), [item(.absolute(1), .absolute(10))], count: 10_000)
        let block = LayoutSection(
            id: "b",
            itemCount: 1,
            group: vgroup(.fractionalWidth(1), .absolute(100), [.group(row)], count: 10)
        )
        let environment = LayoutEnvironment(width: 1000, height: 800, scale: 2)
        let fits = try LayoutSolver.solve(LayoutSpec(sections: Array(repeating: block, count: 36)), in: environment)
        #expect(fits.sections.count == 36)
        do {
            _ = try LayoutSolver.solve(LayoutSpec(sections: Array(repeating: block, count: 37)), in: environment)
            Issue.record("37 sections solved past the solve's work budget")
        } catch {
            #expect(error.sectionIndex == 36)
            #expect(error.path == "sections[36]")
            #expect(
                error.kind
                    == .limitExceeded(
                        what: "solver work of one solve (3960108 before this section, then 110002 to solve its group, "
                            + "then 1 elements (1 items))",
                        limit: LayoutLimits.maxSolveWorkPerLayout
                    )
            )
        }
    }

    @Test("empty groups, zero counts and unusable containers are errors, not traps")
    func structural() throws {
        #expect(solveError(hgroup(.fractionalWidth(1), .absolute(50), []))?.kind == .emptyGroup)
        let zero = hgroup(.fractionalWidth(1), .absolute(50), [fill], count: 0)
        #expect(try #require(solveError(zero)).path == "sections[0].group.count")
        let spec = LayoutSpec(sections: [])
        for environment in [
            LayoutEnvironment(width: 0, height: 100, scale: 1), LayoutEnvironment(width: .nan, height: 100, scale: 1),
            LayoutEnvironment(width: 100, height: 100, scale: -1),
        ] {
            #expect(throws: LayoutSolveError.self) { try LayoutSolver.solve(spec, in: environment) }
        }
        #expect(throws: LayoutSolveError.self) {
            try LayoutSolver.solve(
                LayoutSpec(sections: [LayoutSection(id: "s", group: hgroup(.fractionalWidth(1), .absolute(5), [fill]))]
                ),
                in: LayoutEnvironment(width: 100, height: 100, scale: 1),
                itemCounts: [-1]
            )
        }
    }

    /// Each key's path starts where the resolved section got it: the last variant that applies
    /// and sets it, else the section (the root is worked out only when something is reported).
    @Test("a section key's error path starts at the variant that set it, or at the section")
    func variantRootPerKey() throws {
        let group = hgroup(.fractionalWidth(1), .absolute(50), [fill])
        var badInsets = SectionOverrides()
        badInsets.contentInsets = EdgeInsets(top: .infinity)
        var spacing = SectionOverrides()
        spacing.interGroupSpacing = 4
        let variants = [
            SectionVariant(minWidth: 100, overrides: badInsets),
            SectionVariant(minWidth: 200, overrides: spacing),
            SectionVariant(minWidth: 300, overrides: badInsets),
        ]
        // At 250 the first and second apply: the insets come from the first.
        let early = try #require(solveError(group, width: 250) { $0.variants = variants })
        #expect(early.path == "sections[0].variants[0].contentInsets.top")
        // At 350 all three apply: the third set the insets last.
        let late = try #require(solveError(group, width: 350) { $0.variants = variants })
        #expect(late.path == "sections[0].variants[2].contentInsets.top")
        // The section's own insets, while a variant sets only its spacing.
        let own = try #require(
            solveError(group, width: 250) {
                $0.contentInsets = EdgeInsets(leading: -.infinity)
                $0.variants = [SectionVariant(minWidth: 200, overrides: spacing)]
            }
        )
        #expect(own.path == "sections[0].contentInsets.leading")
    }

    @Test("a warning about a variant's group names the variant")
    func variantWarningPath() throws {
        var flexible = hgroup(.fractionalWidth(1), .absolute(50), [fill])
        flexible.edgeSpacing = EdgeSpacing(top: .flexible(8))
        var overrides = SectionOverrides()
        overrides.group = flexible
        let result = try solve(hgroup(.fractionalWidth(1), .absolute(50), [fill]), count: 1, width: 400) {
            $0.variants = [SectionVariant(minWidth: 300, overrides: overrides)]
        }
        #expect(result.diagnostics.map(\.path) == ["sections[0].variants[0].group.edgeSpacing"])
    }

    @Test("errors inside a variant's group name the variant in the path")
    func variantPath() throws {
        var overrides = SectionOverrides()
        overrides.group = hgroup(.fractionalWidth(1), .absolute(50), [item(.absolute(900), .absolute(5))])
        let group = hgroup(.fractionalWidth(1), .absolute(50), [fill])
        let error = try #require(
            solveError(group, width: 700) { $0.variants = [SectionVariant(minWidth: 600, overrides: overrides)] }
        )
        #expect(error.path == "sections[0].variants[0].group")
        #expect(
            solveError(group, width: 500) { $0.variants = [SectionVariant(minWidth: 600, overrides: overrides)] } == nil
        )
    }

    @Test("interGroupSpacing that makes a section's content length negative is an error naming the spacing")
    func negativeContentLength() throws {
        // Two 50-high groups with spacing −1000: P = 2 × 50 − 1000 = −900, where the section
        // was −900 high.
        let group = vgroup(.fractionalWidth(1), .absolute(50), [fill])
        let error = try #require(solveError(group, count: 2) { $0.interGroupSpacing = -1000 })
        #expect(error.kind == .negativeContentLength(length: -900, spacing: -1000, axis: .vertical))
        #expect(error.path == "sections[0].interGroupSpacing")
        #expect(error.code == "negativeContentLength")
        #expect(
            error.description
                == "section 0 (s): sections[0].interGroupSpacing: the content length is -900 pt along vertical "
                + "with interGroupSpacing -1000: the groups would end before they start (UIKit refuses a "
                + "negative content length)"
        )
        // One group uses no spacing; overlapping groups that leave a positive length stay valid.
        #expect(solveError(group, count: 1) { $0.interGroupSpacing = -1000 } == nil)
        let overlap = try frames(group, count: 2) { $0.interGroupSpacing = -20 }
        #expect(overlap.map(\.y) == [0, 30])
        // A variant that sets the spacing is named.
        var spacing = SectionOverrides()
        spacing.interGroupSpacing = -1000
        let variant = try #require(
            solveError(group, count: 2) { $0.variants = [SectionVariant(minWidth: 0, overrides: spacing)] }
        )
        #expect(variant.path == "sections[0].variants[0].interGroupSpacing")
    }

    @Test("interGroupSpacing that makes an orthogonal row's content width negative is an error")
    func negativeOrthogonalContentLength() throws {
        // Four 100-wide groups with spacing −150: P = 400 − 450 = −50 along x, where the row had
        // a negative content width and stride and items at x = 0, −50, −100, −150.
        let group = hgroup(.absolute(100), .absolute(50), [fill])
        let error = try #require(
            solveError(group, count: 4) {
                $0.interGroupSpacing = -150
                $0.orthogonalScrollingBehavior = .continuous
            }
        )
        #expect(error.kind == .negativeContentLength(length: -50, spacing: -150, axis: .horizontal))
        #expect(error.path == "sections[0].interGroupSpacing")
        // Two groups overlap: P = 200 − 150 = 50 stays valid.
        let overlap = try frames(group, count: 2) {
            $0.interGroupSpacing = -150
            $0.orthogonalScrollingBehavior = .continuous
        }
        #expect(overlap.map(\.x) == [0, -50])
    }
}
