import Testing

@testable import HomeLayout

/// §1 and §4.10: horizontal scroll direction and right-to-left layouts.
@Suite struct DirectionTests {
    @Test("right-to-left mirrors every frame across the width: leading insets land on the right")
    func rightToLeft() throws {
        var environment = LayoutEnvironment(width: 375, height: 812, scale: 2)
        let ltr = try LayoutSolver.solve(HomeScreenFixture.spec, in: environment)
        environment.layoutDirection = .rightToLeft
        let rtl = try LayoutSolver.solve(HomeScreenFixture.spec, in: environment)
        // Large card: LTR (20, 209, 161.5, 192) → RTL x = 375 − 20 − 161.5 = 193.5.
        #expect(rtl.sections[1].itemFrames[1] == rect(193.5, 209, 161.5, 192))
        for (a, b) in zip(ltr.sections, rtl.sections) {
            #expect(b.itemFrames.map(\.y) == a.itemFrames.map(\.y))
            #expect(b.itemFrames.map { 375 - $0.maxX } == a.itemFrames.map(\.x))
        }
        // Orthogonal rows extend towards the left, past x = 0.
        #expect(rtl.sections[2].itemFrames.last == rect(375 - 940 - 218, 413, 218, 90))
    }

    @Test("horizontal scroll direction swaps the axes: sections stack along x")
    func horizontalScrolling() throws {
        // A column group: 0.5 of the height, 100 wide, items stacked vertically.
        let column = LayoutGroup.vertical(
            LayoutSize(width: .absolute(100), height: .fractionalHeight(1)),
            [.item(LayoutItem(size: LayoutSize(width: .fractionalWidth(1), height: .fractionalHeight(0.5))))]
        )
        let header = BoundarySupplementaryItem(
            elementKind: "header",
            size: LayoutSize(width: .absolute(30), height: .fractionalHeight(1)),
            alignment: .leading
        )
        let spec = LayoutSpec(
            configuration: LayoutConfiguration(scrollDirection: .horizontal, interSectionSpacing: 10),
            sections: [
                LayoutSection(
                    id: "a",
                    itemCount: 3,
                    group: column,
                    contentInsets: EdgeInsets(top: 4, leading: 8, bottom: 4, trailing: 8),
                    boundarySupplementaryItems: [header]
                ),
                LayoutSection(id: "b", itemCount: 1, group: column),
            ]
        )
        let result = try LayoutSolver.solve(spec, in: LayoutEnvironment(width: 800, height: 400, scale: 2))
        let a = result.sections[0]
        // Header band 30 wide at x 0; leading inset 8; columns of 100; top/bottom insets shrink the
        // container: (400 − 8) × 0.5 = 196 per item.
        #expect(a.supplementaries[0].frame == rect(0, 4, 30, 392))
        #expect(a.itemFrames == [rect(38, 4, 100, 196), rect(38, 200, 100, 196), rect(138, 4, 100, 196)])
        // Section a: header 30 + leading 8 + two columns 200 + trailing 8 = 246. The partial column is
        // not trimmed: its one slot reaches as far along x as the full column's.
        #expect(a.frame == rect(0, 0, 246, 400))
        #expect(result.sections[1].frame.x == 256)
        #expect(result.contentSize == Size(width: 356, height: 400))
    }

    @Test("under horizontal scrolling the flexible-edge warning looks at the scroll axis (x)")
    func horizontalWarningAxis() throws {
        func diagnostics(_ edges: EdgeSpacing) throws -> [String] {
            var group = LayoutGroup.vertical(
                LayoutSize(width: .absolute(100), height: .absolute(100)),
                [.item(LayoutItem(size: LayoutSize(width: .fractionalWidth(1), height: .fractionalHeight(1))))]
            )
            group.edgeSpacing = edges
            let spec = LayoutSpec(
                configuration: LayoutConfiguration(scrollDirection: .horizontal),
                sections: [LayoutSection(id: "s", itemCount: 1, group: group)]
            )
            return try LayoutSolver.solve(spec, in: LayoutEnvironment(width: 800, height: 400, scale: 2)).diagnostics
                .map(\.path)
        }
        #expect(try diagnostics(EdgeSpacing(leading: .flexible(10))) == ["sections[0].group.edgeSpacing"])
        #expect(try diagnostics(EdgeSpacing(top: .flexible(0), bottom: .flexible(0))).isEmpty)
    }
}
