import Testing

@testable import HomeLayout

/// Self-sizing (`layout-semantics.md` §7.1): measured sizes replace estimates on estimated axes
/// and everything after them re-fits. Arithmetic in the comments.
@Suite struct SelfSizingTests {
    let phone = LayoutEnvironment(width: 375, height: 812, scale: 2)

    func measure(_ entries: [(MeasuredElement, MeasuredSize)]) -> LayoutMeasurements {
        var measurements = LayoutMeasurements()
        for (element, size) in entries { measurements[element] = size }
        return measurements
    }

    @Test("a measured headline of 45 moves the card group and every later section by 20")
    func headline() throws {
        let measured = measure([(.item(section: 1, item: 0), MeasuredSize(height: 45))])
        let result = try LayoutSolver.solve(HomeScreenFixture.spec, in: phone, measurements: measured)
        #expect(result.sections[0].frame == rect(0, 0, 375, 156))
        let main = result.sections[1]
        // Content at 156 + 16 = 172. Headline 45 (was 25); the cards row follows at
        // 172 + 45 + 12 = 229 (was 209), the small cards at 229 and 229 + 90 + 12 = 331.
        #expect(
            main.itemFrames == [
                rect(20, 172, 335, 45), rect(20, 229, 161.5, 192), rect(193.5, 229, 161.5, 90),
                rect(193.5, 331, 161.5, 90),
            ]
        )
        // The estimated root group fits its content: 45 + 12 + 192 = 249; 16 + 249 + 12 = 277.
        #expect(main.frame == rect(0, 156, 375, 277))
        // otherService starts at 156 + 277 = 433 (was 413), appService's header at 433 + 122 = 555
        // (was 535), its rows at 555 + 44 + 14 = 613 (was 593).
        #expect(result.sections[2].itemFrames.map(\.y) == [433, 433, 433, 433, 433])
        #expect(result.sections[3].supplementaries.map(\.frame) == [rect(20, 555, 335, 44)])
        #expect(result.sections[3].itemFrames.map(\.y) == [613, 613, 745, 745, 877, 877])
        // 977 + 20.
        #expect(result.contentSize == Size(width: 375, height: 997))
        #expect(main.itemSizing(0) == .measured)
        #expect(main.itemSizing(1) == .fixed)
        #expect(result.sections[0].itemSizing(0) == .fixed)
        #expect(result.diagnostics.isEmpty)
    }

    @Test("measuring an element at its estimate changes no frame, only its sizing")
    func measuredAtEstimate() throws {
        let plain = try LayoutSolver.solve(HomeScreenFixture.spec, in: phone)
        let measured = try LayoutSolver.solve(
            HomeScreenFixture.spec,
            in: phone,
            measurements: measure([(.item(section: 1, item: 0), MeasuredSize(height: 25))])
        )
        #expect(measured.sections.map(\.itemFrames) == plain.sections.map(\.itemFrames))
        #expect(measured.contentSize == plain.contentSize)
        #expect(plain.sections[1].itemSizing(0) == .estimated)
        #expect(measured.sections[1].itemSizing(0) == .measured)
    }

    /// A pinned header estimated 44, two 50-pt rows under a 10-pt top inset, a 20-pt footer, and
    /// a second section of one 30-pt row.
    static let headed: LayoutSpec = {
        var section = LayoutSection(id: "a", itemCount: 2, group: vgroup(.fractionalWidth(1), .absolute(50), [row]))
        section.contentInsets = EdgeInsets(top: 10)
        section.boundarySupplementaryItems = [
            BoundarySupplementaryItem(
                elementKind: "header",
                size: LayoutSize(width: .fractionalWidth(1), height: .estimated(44)),
                alignment: .top,
                pinToVisibleBounds: true
            ),
            BoundarySupplementaryItem(
                elementKind: "footer",
                size: LayoutSize(width: .fractionalWidth(1), height: .absolute(20)),
                alignment: .bottom
            ),
        ]
        let after = LayoutSection(id: "b", itemCount: 1, group: vgroup(.fractionalWidth(1), .absolute(30), [row]))
        return LayoutSpec(sections: [section, after])
    }()
    static let row = item(.fractionalWidth(1), .fractionalHeight(1))

    @Test("an estimated header grows its band; rows, footer, pin range and the next section follow")
    func header() throws {
        let plain = try LayoutSolver.solve(Self.headed, in: phone)
        // Header 0…44, rows at 44 + 10 = 54 and 104, footer at 154, end 174; the pinned header
        // clamps up to 174 − 44 = 130.
        #expect(plain.sections[0].supplementaries[0].frame == rect(0, 0, 375, 44))
        #expect(plain.sections[0].supplementaries[0].pinRange == PinRange(min: 0, max: 130))
        #expect(plain.sections[0].supplementaries[0].sizing == .estimated)

        let measured = measure([(.boundary(section: 0, elementKind: "header"), MeasuredSize(height: 80))])
        let result = try LayoutSolver.solve(Self.headed, in: phone, measurements: measured)
        let a = result.sections[0]
        // Header 0…80; rows at 80 + 10 = 90 and 140; footer at 190; end 210; pin max 210 − 80.
        #expect(a.supplementaries.map(\.frame) == [rect(0, 0, 375, 80), rect(0, 190, 375, 20)])
        #expect(a.itemFrames == [rect(0, 90, 375, 50), rect(0, 140, 375, 50)])
        #expect(a.supplementaries[0].pinRange == PinRange(min: 0, max: 130))
        #expect(a.supplementaries.map(\.sizing) == [.measured, .fixed])
        #expect(result.sections[1].itemFrames == [rect(0, 210, 375, 30)])
        #expect(result.contentSize.height == 240)
    }

    @Test("an orthogonal row is as tall as its tallest measured card; the next section moves down")
    func orthogonalTallCard() throws {
        var row = LayoutSection(
            id: "row",
            itemCount: 3,
            group: hgroup(.absolute(200), .estimated(100), [item(.fractionalWidth(1), .estimated(100))])
        )
        row.orthogonalScrollingBehavior = .groupPaging
        row.interGroupSpacing = 10
        row.contentInsets = EdgeInsets(leading: 16)
        let after = LayoutSection(id: "b", itemCount: 1, group: vgroup(.fractionalWidth(1), .absolute(30), [Self.row]))
        let spec = LayoutSpec(sections: [row, after])
        let measured = measure([(.item(section: 0, item: 1), MeasuredSize(height: 160))])
        let result = try LayoutSolver.solve(spec, in: phone, measurements: measured)
        // Groups at x = 16 + r × (200 + 10); each fits its own card, top-aligned in the row.
        #expect(
            result.sections[0].itemFrames == [rect(16, 0, 200, 100), rect(226, 0, 200, 160), rect(436, 0, 200, 100)]
        )
        // The row is 160 tall (was 100), so the next section starts at 160.
        #expect(result.sections[0].frame == rect(0, 0, 375, 160))
        #expect(result.sections[1].itemFrames == [rect(0, 160, 375, 30)])
        // Widths did not change: C = 16 + 3 × 200 + 2 × 10 = 636; rests 0, 210, 420 → 636 − 375 = 261.
        let orthogonal = try #require(result.sections[0].orthogonal)
        #expect(orthogonal.contentWidth == 636)
        #expect(orthogonal.restOffsets == [0, 210, 261])
    }

    @Test("an orthogonal row whose cards all measure shorter than the estimate shrinks to the tallest")
    func orthogonalShortCards() throws {
        var row = LayoutSection(
            id: "row",
            itemCount: 3,
            group: hgroup(.absolute(200), .estimated(100), [item(.fractionalWidth(1), .estimated(100))])
        )
        row.orthogonalScrollingBehavior = .groupPaging
        let after = LayoutSection(id: "b", itemCount: 1, group: vgroup(.fractionalWidth(1), .absolute(30), [Self.row]))
        let spec = LayoutSpec(sections: [row, after])
        // Review finding: the unmeasured estimate (100) stayed a candidate, so a row could only grow.
        let all = measure((0..<3).map { (.item(section: 0, item: $0), MeasuredSize(height: $0 == 1 ? 70 : 60)) })
        let shrunk = try LayoutSolver.solve(spec, in: phone, measurements: all)
        #expect(shrunk.sections[0].itemFrames.map(\.height) == [60, 70, 60])
        #expect(shrunk.sections[0].frame == rect(0, 0, 375, 70))
        #expect(shrunk.sections[1].itemFrames == [rect(0, 70, 375, 30)])
        // While one card is still at its estimate, the row keeps it.
        let two = measure((0..<2).map { (.item(section: 0, item: $0), MeasuredSize(height: 60)) })
        let partly = try LayoutSolver.solve(spec, in: phone, measurements: two)
        #expect(partly.sections[0].itemFrames.map(\.height) == [60, 60, 100])
        #expect(partly.sections[0].frame == rect(0, 0, 375, 100))
    }

    @Test("a measured chip width moves the later chips, the content width and the group boundaries")
    func orthogonalWidths() throws {
        var chips = LayoutSection(
            id: "chips",
            itemCount: 5,
            group: hgroup(.estimated(100), .absolute(40), [item(.estimated(100), .fractionalHeight(1))])
        )
        chips.orthogonalScrollingBehavior = .groupPaging
        chips.interGroupSpacing = 8
        chips.contentInsets = EdgeInsets(leading: 16)
        let spec = LayoutSpec(sections: [chips])
        let environment = LayoutEnvironment(width: 320, height: 600, scale: 2)
        let plain = try LayoutSolver.solve(spec, in: environment)
        // C = 16 + 5 × 100 + 4 × 8 = 548; rests k × 108 clamped to 548 − 320 = 228.
        #expect(plain.sections[0].orthogonal?.restOffsets == [0, 108, 216, 228])

        let measured = measure([(.item(section: 0, item: 0), MeasuredSize(width: 150))])
        let result = try LayoutSolver.solve(spec, in: environment, measurements: measured)
        // Chip 0 is 150 wide: the others start at 16 + 150 + 8 = 174, then 108 apart.
        #expect(result.sections[0].itemFrames.map(\.x) == [16, 174, 282, 390, 498])
        #expect(result.sections[0].itemFrames[0].width == 150)
        // C = 16 + 550 + 32 = 598; boundaries 0, 158, 266, 374, 482 clamped to 598 − 320 = 278.
        let orthogonal = try #require(result.sections[0].orthogonal)
        #expect(orthogonal.contentWidth == 598)
        #expect(orthogonal.restOffsets == [0, 158, 266, 278])
    }

    /// Four quarter-width items in a row estimated 40 tall, two rows 10 apart, at 400 wide.
    func quarters(_ height: Dimension) throws -> LayoutResult {
        let measured = measure([
            (.item(section: 0, item: 0), MeasuredSize(height: 60)),
            (.item(section: 0, item: 2), MeasuredSize(height: 90)),
        ])
        let group = hgroup(.fractionalWidth(1), .estimated(40), [item(.fractionalWidth(0.25), height)])
        let section = LayoutSection(id: "s", itemCount: 8, group: group, interGroupSpacing: 10)
        return try LayoutSolver.solve(
            LayoutSpec(sections: [section]),
            in: LayoutEnvironment(width: 400, height: 800, scale: 2),
            measurements: measured
        )
    }

    @Test("siblings keep their own measured heights; the group takes the tallest")
    func siblings() throws {
        let s = try quarters(.estimated(40)).sections[0]
        // 0.25 × 400 = 100 wide. Row 0: 60, 40 (estimate), 90, 40; the row is 90 tall, so row 1
        // starts at 90 + 10 = 100 with its estimates.
        #expect(s.itemFrames.prefix(4).map(\.height) == [60, 40, 90, 40])
        #expect(s.itemFrames.suffix(4).map(\.y) == [100, 100, 100, 100])
        #expect(s.frame.height == 140)  // 90 + 10 + 40
    }

    @Test("uniformAcrossSiblings: every sibling takes the largest measured value")
    func uniform() throws {
        let s = try quarters(.uniformAcrossSiblings(estimate: 40)).sections[0]
        // max(60, 90) = 90 for all four of row 0; row 1 has no measurement and keeps 40.
        #expect(s.itemFrames.prefix(4).map { $0 } == (0..<4).map { rect(Double($0) * 100, 0, 100, 90) })
        #expect(s.itemFrames.suffix(4).map(\.height) == [40, 40, 40, 40])
        #expect(s.itemFrames.suffix(4).map(\.y) == [100, 100, 100, 100])
        // Items 1 and 3 were not measured themselves: their own content may still differ.
        #expect((0..<5).map { s.itemSizing($0) } == [.measured, .estimated, .measured, .estimated, .estimated])
    }

    @Test("a fractional sibling keeps the size it resolved against the group's estimate")
    func fractionalSibling() throws {
        let group = hgroup(
            .fractionalWidth(1),
            .estimated(50),
            [item(.fractionalWidth(0.5), .estimated(50)), item(.fractionalWidth(0.5), .fractionalHeight(1))]
        )
        let section = LayoutSection(id: "s", itemCount: 2, group: group)
        let result = try LayoutSolver.solve(
            LayoutSpec(sections: [section]),
            in: phone,
            measurements: measure([(.item(section: 0, item: 0), MeasuredSize(height: 80))])
        )
        // 0.5 × 375 = 187.5; the fractional item keeps 1 × 50 (the estimate); the group is 80.
        #expect(result.sections[0].itemFrames == [rect(0, 0, 187.5, 80), rect(187.5, 0, 187.5, 50)])
        #expect(result.sections[0].frame.height == 80)
    }

    @Test("a measured item in a group of absolute height overflows it; the group and what follows stay put")
    func fixedGroupOverflows() throws {
        let group = hgroup(
            .fractionalWidth(1),
            .absolute(50),
            [item(.fractionalWidth(0.5), .estimated(40))]
        )
        let section = LayoutSection(id: "s", itemCount: 4, group: group, interGroupSpacing: 10)
        let spec = LayoutSpec(sections: [section, LayoutSection(id: "next", itemCount: 1, group: group)])
        let result = try LayoutSolver.solve(
            spec,
            in: LayoutEnvironment(width: 400, height: 800, scale: 2),
            measurements: measure([(.item(section: 0, item: 0), MeasuredSize(height: 80))])
        )
        let s = result.sections[0]
        // 0.5 × 400 = 200 wide. Item 0 is 80 tall, 30 beyond its 50-pt group (drawn outside it);
        // item 1 keeps its estimate 40. The group does not grow: row 1 still starts at
        // 50 + 10 = 60, and the section is 50 + 10 + 50 = 110 tall, as without the measurement.
        #expect(
            s.itemFrames == [rect(0, 0, 200, 80), rect(200, 0, 200, 40), rect(0, 60, 200, 40), rect(200, 60, 200, 40)]
        )
        #expect(s.frame.height == 110)
        #expect(s.itemSizing(0) == .measured)
        // The next section starts at 110, and the content is 110 + 50 = 160 tall.
        #expect(result.sections[1].frame.y == 110)
        #expect(result.contentSize.height == 160)
        #expect(result.diagnostics.isEmpty)
    }

    @Test("a measurement on a fixed axis, or of a missing element, is ignored with a warning")
    func ignored() throws {
        let plain = try LayoutSolver.solve(HomeScreenFixture.spec, in: phone)
        let measured = measure([
            (.item(section: 0, item: 1), MeasuredSize(height: 40)),
            (.item(section: 0, item: 7), MeasuredSize(height: 40)),
            (.boundary(section: 0, elementKind: "header"), MeasuredSize(width: 100)),
        ])
        let result = try LayoutSolver.solve(HomeScreenFixture.spec, in: phone, measurements: measured)
        #expect(result.sections.map(\.itemFrames) == plain.sections.map(\.itemFrames))
        #expect(result.sections[0].supplementaries == plain.sections[0].supplementaries)
        #expect(result.sections[0].itemSizing(1) == .fixed)
        let notEstimated = "not estimated (only estimated dimensions take measurements)"
        #expect(
            Set(result.diagnostics) == [
                LayoutDiagnostic(
                    path: "sections[0].items[1]",
                    message: "measured height ignored: the height is \(notEstimated)"
                ),
                LayoutDiagnostic(path: "sections[0].items[7]", message: "measurement ignored: no such element"),
                LayoutDiagnostic(
                    path: "sections[0].supplementaries[header]",
                    message: "measured width ignored: the width is \(notEstimated)"
                ),
            ]
        )
    }

    @Test("list rows take measurements: later rows, separators and the inset-grouped card follow")
    func listRows() throws {
        let list = ListConfiguration(appearance: .insetGrouped)
        let section = LayoutSection(id: "l", itemCount: 3, group: list.rowGroup, list: list)
        let result = try LayoutSolver.solve(
            LayoutSpec(sections: [section]),
            in: phone,
            measurements: measure([(.item(section: 0, item: 1), MeasuredSize(height: 88))])
        )
        let s = result.sections[0]
        // Rows from y = 35: 44, then 88 (measured), then 44 → at 35, 79, 167; end 211 + 20.
        #expect(s.itemFrames == [rect(16, 35, 343, 44), rect(16, 79, 343, 88), rect(16, 167, 343, 44)])
        #expect(s.frame.height == 231)
        // The card spans 35…211; separators sit on the bottoms of rows 0 and 1 (hairline 0.5).
        #expect(s.decorations.first?.frame == rect(16, 35, 343, 176))
        #expect(s.decorations.dropFirst().map(\.frame) == [rect(32, 78.5, 327, 0.5), rect(32, 166.5, 327, 0.5)])
    }

    @Test("a horizontally scrolling layout measures widths along its scroll axis")
    func horizontalScrolling() throws {
        let group = hgroup(.estimated(100), .fractionalHeight(1), [item(.estimated(100), .fractionalHeight(1))])
        let spec = LayoutSpec(
            configuration: LayoutConfiguration(scrollDirection: .horizontal),
            sections: [LayoutSection(id: "s", itemCount: 2, group: group)]
        )
        let result = try LayoutSolver.solve(
            spec,
            in: phone,
            measurements: measure([(.item(section: 0, item: 0), MeasuredSize(width: 150))])
        )
        // Groups along x: 150 (measured), then 100 at 150; the content is 250 wide.
        #expect(result.sections[0].itemFrames == [rect(0, 0, 150, 812), rect(150, 0, 100, 812)])
        #expect(result.contentSize == Size(width: 250, height: 812))
        #expect(result.sections[0].itemSizing(0) == .measured)
    }

    @Test("a measured badge keeps its anchor; measured values must be finite and positive")
    func badgesAndValues() throws {
        var badged = LayoutItem(size: LayoutSize(width: .absolute(100), height: .absolute(50)))
        badged.supplementaryItems = [
            ItemSupplementary(
                elementKind: "badge",
                size: LayoutSize(width: .estimated(20), height: .absolute(20)),
                anchor: SupplementaryAnchor(edges: [.top, .trailing])
            )
        ]
        let section = LayoutSection(
            id: "s",
            itemCount: 1,
            group: hgroup(.fractionalWidth(1), .absolute(50), [.item(badged)])
        )
        let spec = LayoutSpec(sections: [section])
        let result = try LayoutSolver.solve(
            spec,
            in: phone,
            measurements: measure([
                (.itemSupplementary(section: 0, item: 0, elementKind: "badge"), MeasuredSize(width: 36))
            ])
        )
        // Top-trailing inside the 100-wide item: x = 100 − 36 = 64.
        #expect(result.sections[0].supplementaries.map(\.frame) == [rect(64, 0, 36, 20)])
        #expect(result.sections[0].supplementaries.map(\.sizing) == [.measured])

        for bad in [0, -4, Double.nan, Double.infinity, 2_000_000] {
            #expect(throws: LayoutSolveError.self) {
                try LayoutSolver.solve(
                    spec,
                    in: phone,
                    measurements: measure([(.item(section: 0, item: 0), MeasuredSize(height: bad))])
                )
            }
        }
    }

    @Test("a measured item in a nested estimated group re-fits that group, its parent and later repetitions")
    func nested() throws {
        let row = hgroup(
            .fractionalWidth(1),
            .estimated(50),
            [item(.fractionalWidth(0.5), .estimated(50)), item(.fractionalWidth(0.5), .estimated(50))]
        )
        let group = vgroup(
            .fractionalWidth(1),
            .estimated(100),
            [item(.fractionalWidth(1), .estimated(20)), .group(row)],
            spacing: .fixed(10)
        )
        let section = LayoutSection(id: "s", itemCount: 6, group: group)
        let result = try LayoutSolver.solve(
            LayoutSpec(sections: [section]),
            in: LayoutEnvironment(width: 400, height: 800, scale: 2),
            measurements: measure([(.item(section: 0, item: 2), MeasuredSize(height: 70))])
        )
        // Repetition 0: title 20, row at 20 + 10 = 30, 70 tall (its tallest): 20 + 10 + 70 = 100.
        // Repetition 1 starts at 100 with its estimates: title at 100, row at 130; 80 tall.
        #expect(
            result.sections[0].itemFrames == [
                rect(0, 0, 400, 20), rect(0, 30, 200, 50), rect(200, 30, 200, 70),
                rect(0, 100, 400, 20), rect(0, 130, 200, 50), rect(200, 130, 200, 50),
            ]
        )
        #expect(result.sections[0].frame.height == 180)
    }

    @Test("a measured item in a partial last repetition: the trim uses that repetition's own slots")
    func partialLast() throws {
        let group = vgroup(
            .fractionalWidth(1),
            .estimated(100),
            [item(.fractionalWidth(1), .estimated(30)), item(.fractionalWidth(1), .estimated(30))],
            spacing: .fixed(10)
        )
        let section = LayoutSection(id: "s", itemCount: 3, group: group, interGroupSpacing: 5)
        let spec = LayoutSpec(sections: [section])
        let environment = LayoutEnvironment(width: 400, height: 800, scale: 2)
        // Plain: 30 + 10 + 30 = 70, then the last repetition trimmed to its first slot: 70 − (70 − 30)
        // = 30; P = 70 + 5 + 30 = 105.
        #expect(try LayoutSolver.solve(spec, in: environment).sections[0].frame.height == 105)
        let result = try LayoutSolver.solve(
            spec,
            in: environment,
            measurements: measure([(.item(section: 0, item: 2), MeasuredSize(height: 50))])
        )
        // The last repetition: 50 + 10 + 30 = 90, trimmed to 90 − (90 − 50) = 50 at y 75.
        #expect(result.sections[0].itemFrames.last == rect(0, 75, 400, 50))
        #expect(result.sections[0].frame.height == 125)
    }
}
