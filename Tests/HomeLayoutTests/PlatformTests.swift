import Testing

@testable import HomeLayout

/// What real UIKit renders on iOS 17 (the default) and on iOS 14–16 (`platform: ios14`), as
/// measured on 375×812@3x simulators (issue 14).
@Suite struct PlatformTests {
    let row = hgroup(.fractionalWidth(1), .absolute(50), [item(.fractionalWidth(1), .fractionalHeight(1))])

    func solve(
        _ sections: [LayoutSection],
        spacing: Double,
        platform: LayoutPlatform,
        scale: Double = 3
    ) throws -> LayoutResult {
        try LayoutSolver.solve(
            LayoutSpec(configuration: LayoutConfiguration(interSectionSpacing: spacing), sections: sections),
            in: LayoutEnvironment(width: 375, height: 812, scale: scale, platform: platform)
        )
    }

    func boundary(_ kind: String, _ alignment: BoundaryAlignment, height: Double) -> BoundarySupplementaryItem {
        BoundarySupplementaryItem(
            elementKind: kind,
            size: LayoutSize(width: .fractionalWidth(1), height: .absolute(height)),
            alignment: alignment,
            pinToVisibleBounds: true
        )
    }

    // MARK: interSectionSpacing and empty sections (§5.6)

    @Test("iOS 17: an empty first section still puts interSectionSpacing before the next")
    func emptyFirstSection() throws {
        let result = try solve(
            [LayoutSection(id: "empty", group: row), LayoutSection(id: "b", itemCount: 1, group: row)],
            spacing: 8,
            platform: .ios17
        )
        // Measured: section 1 starts at 0 (empty section) + 8 = 8, not at 0.
        #expect(result.sections.map(\.frame.y) == [0, 8])
        #expect(result.contentSize.height == 58)
    }

    @Test("iOS 17: spacing goes before every section but the first, empty ones in the middle and at the end too")
    func emptyMiddleAndLast() throws {
        let sections = [
            LayoutSection(id: "a", itemCount: 1, group: row), LayoutSection(id: "empty", group: row),
            LayoutSection(id: "b", itemCount: 1, group: row), LayoutSection(id: "last", group: row),
        ]
        let result = try solve(sections, spacing: 20, platform: .ios17)
        // a 0–50; empty at 50 + 20 = 70, 0 long; b at 70 + 20 = 90–140; last at 140 + 20 = 160.
        #expect(result.sections.map(\.frame.y) == [0, 70, 90, 160])
        #expect(result.contentSize.height == 160)
    }

    @Test("iOS 14: empty sections add no spacing; it separates sections that both lay something out")
    func emptySectionsOnIOS14() throws {
        let sections = [
            LayoutSection(id: "a", itemCount: 1, group: row), LayoutSection(id: "empty", group: row),
            LayoutSection(id: "b", itemCount: 1, group: row), LayoutSection(id: "last", group: row),
        ]
        let result = try solve(sections, spacing: 20, platform: .ios14)
        // a 0–50; the empty section adds nothing; b at 50 + 20 = 70–120; nothing after it.
        #expect(result.sections.map(\.frame.y) == [0, 50, 70, 120])
        #expect(result.contentSize.height == 120)
    }

    @Test("an empty section with header and footer stacks them with nothing between, on both platforms")
    func emptyWithHeaderAndFooter() throws {
        var section = LayoutSection(id: "s", group: row, contentInsets: EdgeInsets(top: 10, bottom: 10))
        section.boundarySupplementaryItems = [
            BoundarySupplementaryItem(
                elementKind: "header",
                size: LayoutSize(width: .fractionalWidth(1), height: .absolute(30)),
                alignment: .top
            ),
            BoundarySupplementaryItem(
                elementKind: "footer",
                size: LayoutSize(width: .fractionalWidth(1), height: .absolute(20)),
                alignment: .bottom
            ),
        ]
        for platform in LayoutPlatform.allCases {
            let result = try solve([section], spacing: 0, platform: platform)
            // Header 0–30, footer 30–50: no insets, no content (interGroupSpacing is 0 here).
            #expect(result.sections[0].supplementaries.map(\.frame) == [rect(0, 0, 375, 30), rect(0, 30, 375, 20)])
            #expect(result.contentSize.height == 50)
        }
    }

    @Test("iOS 14: an empty section with pinned header and footer has a content length of −interGroupSpacing")
    func negativeContentOnIOS14() throws {
        var section = LayoutSection(id: "s", group: row, interGroupSpacing: 2)
        section.boundarySupplementaryItems = [
            boundary("header", .top, height: 30), boundary("footer", .bottom, height: 20),
        ]
        let old = try solve([section], spacing: 0, platform: .ios14).sections[0]
        // Content 30 … 30 − 2 = 28; the footer starts at 28 and the section ends at 48. The pinned
        // header stops at the content end: min(0, 28 − 30) = −2 (measured: header at −2).
        #expect(old.supplementaries.map(\.frame) == [rect(0, -2, 375, 30), rect(0, 28, 375, 20)])
        #expect(old.supplementaries.map(\.pinRange) == [PinRange(min: -2, max: -2), PinRange(min: 0, max: 28)])
        #expect(old.frame.height == 48)
        let new = try solve([section], spacing: 0, platform: .ios17).sections[0]
        // iOS 17: no content at all; header 0–30, footer 30–50, header clamp up to 50 − 30 = 20.
        #expect(new.supplementaries.map(\.frame) == [rect(0, 0, 375, 30), rect(0, 30, 375, 20)])
        #expect(new.supplementaries[0].pinRange == PinRange(min: 0, max: 20))
    }

    @Test("iOS 14: an empty orthogonal section with a background keeps one group's height and the background")
    func emptyOrthogonalBackgroundOnIOS14() throws {
        let card = hgroup(.absolute(300), .absolute(100), [item(.fractionalWidth(1), .fractionalHeight(1))])
        let sections = [
            LayoutSection(
                id: "row",
                group: card,
                contentInsets: EdgeInsets(top: 10, leading: 16, bottom: 10, trailing: 16),
                orthogonalScrollingBehavior: .groupPaging,
                decorationItems: [DecorationItem(elementKind: "background")]
            ),
            LayoutSection(id: "b", itemCount: 1, group: row),
        ]
        let old = try solve(sections, spacing: 8, platform: .ios14)
        // 10 + 100 + 10 = 120 tall, background over it; it counts as laid out, so b is at 120 + 8.
        #expect(old.sections[0].frame.height == 120)
        #expect(old.sections[0].decorations.map(\.frame) == [rect(0, 0, 375, 120)])
        #expect(old.sections[0].itemFrames.isEmpty)
        #expect(old.sections[1].frame.y == 128)
        let new = try solve(sections, spacing: 8, platform: .ios17)
        // iOS 17: nothing at all, then the spacing: b at 0 + 8.
        #expect(new.sections[0].frame.height == 0)
        #expect(new.sections[0].decorations.isEmpty)
        #expect(new.sections[1].frame.y == 8)
    }

    // MARK: Pixel grid (§2.3, §10)

    /// An orthogonal row of four 0.25-wide items spaced 8, from the section's leading inset 16.
    func fourAcross(platform: LayoutPlatform) throws -> [Rect] {
        let group = hgroup(
            .fractionalWidth(1),
            .absolute(50),
            [item(.fractionalWidth(0.25), .fractionalHeight(1))],
            spacing: .fixed(8)
        )
        let section = LayoutSection(
            id: "s",
            itemCount: 4,
            group: group,
            contentInsets: EdgeInsets(leading: 16, trailing: 16),
            orthogonalScrollingBehavior: .continuous
        )
        return try solve([section], spacing: 0, platform: platform).sections[0].itemFrames
    }

    @Test("iOS 17: widths are floored to the pixel grid first, origins add up the floored widths")
    func flooredWidthsOnIOS17() throws {
        let frames = try fourAcross(platform: .ios17)
        // The orthogonal group is the full 375 wide (not 375 − 32), the re-solve takes the
        // spacing out: (375 − 3 × 8) × 0.25 = 87.75 → floor(263.25) / 3 = 263/3 = 87.667.
        // Origins from x = 16: 16, 16 + 263/3 + 8 = 335/3 = 111.667, 622/3 = 207.333, 909/3 = 303.
        let expected: [Double] = [16, 335.0 / 3, 622.0 / 3, 303]
        #expect(frames.map(\.x) == expected)
        #expect(frames.map(\.width) == Array(repeating: 263.0 / 3, count: 4))
    }

    @Test("iOS 14: sizes are not floored; each origin is rounded to the pixel grid on its own")
    func roundedOriginsOnIOS14() throws {
        let frames = try fourAcross(platform: .ios14)
        // 87.75 wide: origins 16, 111.75, 207.5, 303.25; × 3 = 335.25, 622.5, 909.75 round (half
        // away from zero) to 335, 623, 910: 111.667, 207.667, 303.333 (measured on iOS 14).
        let expected: [Double] = [16, 335.0 / 3, 623.0 / 3, 910.0 / 3]
        #expect(frames.map(\.x) == expected)
        // 87.75 × 3 = 263.25 rounds to 263.
        #expect(frames.map(\.width) == Array(repeating: 263.0 / 3, count: 4))
    }

    @Test("the environment's platform wins over the spec's configuration, and the result says which applied")
    func platformPrecedence() throws {
        var spec = LayoutSpec(sections: [LayoutSection(id: "a", itemCount: 1, group: row)])
        spec.configuration.platform = .ios14
        let fromSpec = try LayoutSolver.solve(spec, in: LayoutEnvironment(width: 375, height: 812, scale: 3))
        #expect(fromSpec.platform == .ios14)
        let overridden = try LayoutSolver.solve(
            spec,
            in: LayoutEnvironment(width: 375, height: 812, scale: 3, platform: .ios17)
        )
        #expect(overridden.platform == .ios17)
    }

    // MARK: Confirmed on iOS 17 as the engine does it

    @Test("a pinned footer rests inside the viewport inset by the adjusted content insets: 812 − 34 − 24 = 754")
    func pinnedFooterRest() throws {
        var section = LayoutSection(id: "s", itemCount: 30, group: row)
        section.boundarySupplementaryItems = [boundary("footer", .bottom, height: 24)]
        let footer = try solve([section], spacing: 0, platform: .ios17).sections[0].supplementaries[0]
        // 30 rows × 50 = 1500: the footer's rest frame is at 1500, its clamp range 0…1500.
        #expect(footer.frame.y == 1500)
        let range = try #require(footer.pinRange)
        #expect(range == PinRange(min: 0, max: 1500))
        // At offset 0 with a 34-pt home-indicator inset the visible bottom is 812 − 34 = 778:
        // y = clamp(778 − 24, 0, 1500) = 754.
        let visibleBottom = 812.0 - 34
        #expect(min(max(visibleBottom - footer.frame.height, range.min), range.max) == 754)
    }

    @Test("a badge top-trailing with fractional offset (0.5, −0.5) is centred on the corner, on the pixel grid")
    func badgeOnCorner() throws {
        let badge = ItemSupplementary(
            elementKind: "badge",
            size: LayoutSize(width: .absolute(15), height: .absolute(15)),
            anchor: SupplementaryAnchor(edges: [.top, .trailing], fractionalOffset: Point(x: 0.5, y: -0.5))
        )
        let cell = LayoutItem(
            size: LayoutSize(width: .absolute(100), height: .absolute(50)),
            supplementaryItems: [badge]
        )
        let section = LayoutSection(
            id: "s",
            itemCount: 1,
            group: hgroup(.fractionalWidth(1), .absolute(50), [.item(cell)])
        )
        let frame = try solve([section], spacing: 0, platform: .ios17).sections[0].supplementaries[0].frame
        // Corner (100, 0): x = 100 − 15 + 7.5 = 92.5, y = 0 − 7.5; at 3x 277.5 → 278 and
        // −22.5 → −23 (half away from zero): (278/3, −23/3), centred on the corner to a pixel.
        let expected = rect(278.0 / 3, -23.0 / 3, 15, 15)
        #expect(frame == expected)
    }
}
