import Testing

@testable import HomeLayout

/// List sections (`UICollectionLayoutListConfiguration`): rows, insets, default header and
/// footer heights, separators and the inset-grouped card (`docs/layout.md`, "List sections").
@Suite struct ListSectionTests {
    func solve(
        _ lists: [(ListConfiguration, Int)],
        width: Double = 375,
        scale: Double = 2,
        layoutMargins: EdgeInsets = .zero
    ) throws(LayoutSolveError) -> LayoutResult {
        let sections = lists.enumerated().map { index, entry in
            LayoutSection(id: "l\(index)", itemCount: entry.1, group: entry.0.rowGroup, list: entry.0)
        }
        return try LayoutSolver.solve(
            LayoutSpec(sections: sections),
            in: LayoutEnvironment(width: width, height: 812, scale: scale, layoutMargins: layoutMargins)
        )
    }

    func separators(_ section: SectionLayout) -> [DecorationFrame] {
        section.decorations.filter { $0.elementKind != "background" }
    }

    func line(_ kind: String, _ item: Int, _ frame: Rect) -> DecorationFrame {
        DecorationFrame(elementKind: kind, frame: frame, zIndex: 100, item: item)
    }

    @Test("inset grouped: rows inset by the margins, 35 above the first section, a rounded card, inset separators")
    func insetGrouped() throws {
        let s = try solve([(ListConfiguration(appearance: .insetGrouped), 3)]).sections[0]
        // Margins 16 (375 < 414): rows x 16, 375 − 32 = 343 wide, 44 tall from y = 35 (first
        // section, no header): 35, 79, 123. Last section without footer: 20 below, end 167 + 20.
        #expect(s.itemFrames == [rect(16, 35, 343, 44), rect(16, 79, 343, 44), rect(16, 123, 343, 44)])
        #expect(s.frame.height == 187)
        // The card behind the rows: 35…167, corner radius 10; rows rise above it.
        #expect(
            s.decorations[0]
                == DecorationFrame(
                    elementKind: "background",
                    frame: rect(16, 35, 343, 132),
                    zIndex: 0,
                    cornerRadius: 10
                )
        )
        #expect(s.itemZIndex == 1)
        // Between rows only, 16 in from the row (x 32), hairline 1/2 at 2x on the row's bottom.
        #expect(
            separators(s) == [
                line("separator", 0, rect(32, 78.5, 327, 0.5)), line("separator", 1, rect(32, 122.5, 327, 0.5)),
            ]
        )
    }

    @Test("grouped: header and footer 17.5, full-width lines at the section's top and bottom")
    func grouped() throws {
        let headed = ListConfiguration(appearance: .grouped, headerMode: .supplementary, footerMode: .supplementary)
        let result = try solve([(headed, 2), (ListConfiguration(appearance: .grouped), 1)])
        let first = result.sections[0]
        // Header 0–17.5 (no top padding with a header); rows 17.5 and 61.5; footer at 105.5.
        #expect(first.supplementaries.map(\.frame) == [rect(0, 0, 375, 17.5), rect(0, 105.5, 375, 17.5)])
        #expect(first.supplementaries.map(\.pinToVisibleBounds) == [false, false])
        #expect(first.supplementaries.map(\.zIndex) == [200, 200])
        #expect(first.itemFrames.map(\.y) == [17.5, 61.5])
        #expect(
            separators(first) == [
                line("topSeparator", 0, rect(0, 17.5, 375, 0.5)), line("separator", 0, rect(16, 61, 359, 0.5)),
                line("separator", 1, rect(0, 105, 375, 0.5)),
            ]
        )
        let second = result.sections[1]
        // Starts at 123; no header and not first: 17.5 above; last without footer: 20 below.
        // Row 140.5–184.5, section end 204.5.
        #expect(second.itemFrames == [rect(0, 140.5, 375, 44)])
        #expect(
            separators(second) == [
                line("topSeparator", 0, rect(0, 140.5, 375, 0.5)), line("separator", 0, rect(0, 184, 375, 0.5)),
            ]
        )
        #expect(result.contentSize.height == 204.5)
    }

    @Test("grouped default heights move up to the pixel grid: 17.5 at 3x is 53/3")
    func groupedAtThreeX() throws {
        let result = try solve(
            [(ListConfiguration(appearance: .grouped), 1), (ListConfiguration(appearance: .grouped), 1)],
            scale: 3
        )
        // Section 0: 35 + 44 + 53/3 (17.5 × 3 = 52.5 → 53); section 1 starts there, 53/3 above its row.
        let start = 35 + 44 + 53.0 / 3
        #expect(result.sections[1].frame.y == (start * 3).rounded() / 3)
        #expect(result.sections[1].itemFrames[0].y == ((start + 53.0 / 3) * 3).rounded() / 3)
    }

    @Test("plain: 28-pt pinned header and footer at full width, a line under the header, the last row's line inset")
    func plain() throws {
        let config = ListConfiguration(appearance: .plain, headerMode: .supplementary, footerMode: .supplementary)
        let s = try solve([(config, 2)], scale: 3).sections[0]
        // Header 0–28, rows 28 and 72, footer 116–144; the header clamps up to 144 − 28 = 116.
        #expect(s.supplementaries.map(\.frame) == [rect(0, 0, 375, 28), rect(0, 116, 375, 28)])
        #expect(s.supplementaries.map(\.pinRange) == [PinRange(min: 0, max: 116), PinRange(min: 0, max: 116)])
        #expect(s.itemFrames == [rect(0, 28, 375, 44), rect(0, 72, 375, 44)])
        // Hairline 1/3: at 72 − 1/3 = 215/3 and 116 − 1/3 = 347/3, 16 in; the top line full width.
        let third = 1.0 / 3
        let expected = [
            line("topSeparator", 0, rect(0, 28, 375, third)), line("separator", 0, rect(16, 215.0 / 3, 359, third)),
            line("separator", 1, rect(16, 347.0 / 3, 359, third)),
        ]
        #expect(separators(s) == expected)
        #expect(s.itemZIndex == 0)
    }

    @Test("first item as header: no top padding in grouped lists, 22 in plain ones; the header row stays out")
    func firstItemHeader() throws {
        let inset = ListConfiguration(appearance: .insetGrouped, headerMode: .firstItemInSection)
        let s = try solve([(inset, 3)]).sections[0]
        // Rows 0, 44, 88 (the header row is row 0); the card and separators start at row 1.
        #expect(s.itemFrames.map(\.y) == [0, 44, 88])
        #expect(s.decorations[0].frame == rect(16, 44, 343, 88))
        #expect(separators(s) == [line("separator", 1, rect(32, 87.5, 327, 0.5))])
        let plain = try solve([(ListConfiguration(appearance: .plain, headerMode: .firstItemInSection), 2)])
        #expect(plain.sections[0].itemFrames.map(\.y) == [22, 66])
    }

    @Test("sidebar: rows inset by the margins, no separators, 10 below a section without footer")
    func sidebar() throws {
        let s = try solve([(ListConfiguration(appearance: .sidebar), 2)]).sections[0]
        #expect(s.itemFrames == [rect(16, 0, 343, 44), rect(16, 44, 343, 44)])
        #expect(s.decorations.isEmpty)
        #expect(s.frame.height == 98)
    }

    @Test("margins: 20 from 414 wide, or the environment's layout margins when larger")
    func margins() throws {
        let wide = try solve([(ListConfiguration(appearance: .insetGrouped), 1)], width: 414).sections[0]
        // 414 − 40 = 374 wide at x 20.
        #expect(wide.itemFrames == [rect(20, 35, 374, 44)])
        let margins = try solve(
            [(ListConfiguration(appearance: .insetGrouped), 1)],
            layoutMargins: EdgeInsets(leading: 24, trailing: 8)
        )
        // max(16, 24) = 24 leading, max(16, 8) = 16 trailing: 375 − 40 = 335 wide.
        #expect(margins.sections[0].itemFrames == [rect(24, 35, 335, 44)])
    }

    @Test("itemHeight, separator insets and showsSeparators replace the defaults")
    func overrides() throws {
        var config = ListConfiguration(appearance: .plain, itemHeight: .absolute(60))
        config.separatorInsets = ListConfiguration.SeparatorInsets(leading: 60, trailing: 10)
        let s = try solve([(config, 2)]).sections[0]
        // Rows of 60; lines 60 in and 10 short of the trailing edge: 375 − 70 = 305 wide.
        #expect(s.itemFrames.map(\.height) == [60, 60])
        #expect(
            separators(s) == [
                line("separator", 0, rect(60, 59.5, 305, 0.5)), line("separator", 1, rect(60, 119.5, 305, 0.5)),
            ]
        )
        config.showsSeparators = false
        #expect(try solve([(config, 2)]).sections[0].decorations.isEmpty)
    }

    @Test("separator insets wider than the row leave a zero-wide line inside the row, never a negative width")
    func separatorInsetsPastTheRow() throws {
        var config = ListConfiguration(appearance: .insetGrouped)
        config.separatorInsets = ListConfiguration.SeparatorInsets(leading: 500)
        let s = try solve([(config, 2)]).sections[0]
        // The row is x 16, 343 wide: the line starts at its trailing edge (359), 0 wide, where it
        // was at 16 + 500 = 516, 343 − 500 = −157 wide.
        #expect(separators(s) == [line("separator", 0, rect(359, 78.5, 0, 0.5))])
        // A trailing inset past the row keeps the line at its leading inset.
        config.separatorInsets = ListConfiguration.SeparatorInsets(leading: 10, trailing: 400)
        let trailing = try solve([(config, 2)]).sections[0]
        #expect(separators(trailing) == [line("separator", 0, rect(26, 78.5, 0, 0.5))])
    }

    @Test("an empty list section shows its header only: no card, no separators")
    func empty() throws {
        let config = ListConfiguration(appearance: .insetGrouped, headerMode: .supplementary)
        let s = try solve([(config, 0)]).sections[0]
        // Header inset like the rows (supplementaries follow the insets): x 16, 343 wide.
        #expect(s.supplementaries.map(\.frame) == [rect(16, 0, 343, 17.5)])
        #expect(s.decorations.isEmpty)
    }

    @Test("list sections reject horizontal scrolling and fractional row heights")
    func invalid() {
        let list = ListConfiguration(appearance: .plain)
        let horizontal = LayoutSpec(
            configuration: LayoutConfiguration(scrollDirection: .horizontal),
            sections: [LayoutSection(id: "l", itemCount: 1, group: list.rowGroup, list: list)]
        )
        #expect(throws: LayoutSolveError.self) {
            try LayoutSolver.solve(horizontal, in: LayoutEnvironment(width: 375, height: 812, scale: 2))
        }
        let fractional = ListConfiguration(appearance: .plain, itemHeight: .fractionalHeight(0.1))
        do throws(LayoutSolveError) {
            _ = try solve([(fractional, 1)])
            Issue.record("expected an error")
        } catch {
            #expect(error.code == "unsupported")
            #expect(error.path == "sections[0].list.itemHeight")
        }
    }
}
