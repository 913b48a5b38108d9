import Testing

@testable import HomeLayout

/// §5: section container, repetition, trimming, root edge spacing, stacking.
@Suite struct SectionTests {
    let row = hgroup(.fractionalWidth(1), .absolute(50), [item(.fractionalWidth(1), .fractionalHeight(1))])

    @Test("a vertical section's leading/trailing insets shrink the root group's container; top/bottom do not")
    func sectionContainer() throws {
        let group = hgroup(
            .fractionalWidth(1),
            .fractionalHeight(0.1),
            [item(.fractionalWidth(1), .fractionalHeight(1))]
        )
        let result = try solve(group, count: 1) {
            $0.contentInsets = EdgeInsets(top: 30, leading: 10, bottom: 30, trailing: 15)
        }
        // Width 375 − 25 = 350 at x 10; height 0.1 × full H 812 = 81.2 → floor at 2x = 81 (162.4 → 162).
        #expect(result.sections[0].itemFrames == [rect(10, 30, 350, 81)])
        #expect(result.contentSize.height == 30 + 81 + 30)
    }

    @Test("an orthogonal section resolves fractionalWidth against the full width and height against H − top − bottom")
    func orthogonalContainer() throws {
        let group = hgroup(
            .fractionalWidth(0.5),
            .fractionalHeight(0.25),
            [item(.fractionalWidth(1), .fractionalHeight(1))]
        )
        let result = try solve(group, count: 2) {
            $0.orthogonalScrollingBehavior = .continuous
            $0.contentInsets = EdgeInsets(top: 6, leading: 20, bottom: 6, trailing: 20)
        }
        // 0.5 × 375 = 187.5 (not 0.5 × 335); (812 − 12) × 0.25 = 200.
        #expect(result.sections[0].itemFrames == [rect(20, 6, 187.5, 200), rect(207.5, 6, 187.5, 200)])
        // C = 20 + 375 + 20 = 415.
        #expect(result.sections[0].orthogonal?.contentWidth == 415)
    }

    @Test("the root group repeats with interGroupSpacing only between repetitions")
    func repetition() throws {
        let result = try solve(row, count: 3) { $0.interGroupSpacing = 10 }
        #expect(result.sections[0].itemFrames.map(\.y) == [0, 60, 120])
        // 3 × 50 + 2 × 10 = 170: no spacing after the last.
        #expect(result.contentSize.height == 170)
    }

    @Test("a partial last group is trimmed to its items: 1 of 3 rows in a 72-high group → 24")
    func trimming() throws {
        let group = vgroup(.fractionalWidth(1), .absolute(72), [item(.fractionalWidth(1), .absolute(24))])
        #expect(try solve(group, count: 1).contentSize.height == 24)
        // 4 items: one full group (72) + a partial with one item (24).
        #expect(try solve(group, count: 4).contentSize.height == 96)
        // Exception: a root group of exactly fractionalWidth(1) × fractionalHeight(1) is never trimmed.
        let full = vgroup(.fractionalWidth(1), .fractionalHeight(1), [item(.fractionalWidth(1), .absolute(24))])
        #expect(try solve(full, count: 1).contentSize.height == 812)
    }

    @Test("root edge spacing: flexible leading/trailing centre the group, fixed top offsets and extends (§5.3)")
    func rootEdgeSpacing() throws {
        let group = hgroup(
            .absolute(300),
            .absolute(100),
            [item(.fractionalWidth(1), .fractionalHeight(1))],
            edges: EdgeSpacing(leading: .flexible(0), top: .fixed(10), trailing: .flexible(0))
        )
        let result = try solve(group, count: 2)
        // x = (375 − 300) / 2 = 37.5; y = 10; E = 110.
        #expect(result.sections[0].itemFrames == [rect(37.5, 10, 300, 100), rect(37.5, 120, 300, 100)])
        #expect(result.contentSize.height == 220)
        #expect(result.diagnostics.isEmpty)
    }

    @Test("flexible root edge spacing on the section axis is ignored with UIKit's warning")
    func rootFlexibleWarning() throws {
        let group = hgroup(
            .absolute(300),
            .absolute(100),
            [item(.fractionalWidth(1), .fractionalHeight(1))],
            edges: EdgeSpacing(top: .flexible(4))
        )
        let result = try solve(group, count: 1)
        #expect(result.sections[0].itemFrames[0].y == 4)
        #expect(result.diagnostics.map(\.path) == ["sections[0].group.edgeSpacing"])
        #expect(result.diagnostics[0].message.contains("flexible spacing will be ignored"))
    }

    @Test("a section with zero items but a header shows the header only, without insets")
    func emptyWithHeader() throws {
        let header = BoundarySupplementaryItem(
            elementKind: "header",
            size: LayoutSize(width: .fractionalWidth(1), height: .absolute(30)),
            alignment: .top
        )
        let result = try solve(row, count: 0) {
            $0.contentInsets = EdgeInsets(top: 10, leading: 0, bottom: 10, trailing: 0)
            $0.boundarySupplementaryItems = [header]
        }
        #expect(result.sections[0].supplementaries.map(\.frame) == [rect(0, 0, 375, 30)])
        #expect(result.contentSize.height == 30)
    }

    @Test("variants: the last matching variant wins per key, chosen by container width")
    func variants() throws {
        var overrides = SectionOverrides()
        overrides.interGroupSpacing = 10
        var wide = SectionOverrides()
        wide.interGroupSpacing = 30
        var section = LayoutSection(id: "s", itemCount: 2, group: row)
        section.variants = [
            SectionVariant(minWidth: 600, overrides: overrides),
            SectionVariant(minWidth: 800, overrides: wide),
        ]
        func height(_ width: Double) throws -> Double {
            try LayoutSolver.solve(
                LayoutSpec(sections: [section]),
                in: LayoutEnvironment(width: width, height: 800, scale: 1)
            )
            .contentSize.height
        }
        #expect(try height(375) == 100)
        #expect(try height(700) == 110)
        #expect(try height(820) == 130)
    }

    @Test("contentInsetsReference picks the container guide; sub-1 guide insets are fractions")
    func contentInsetsReference() throws {
        let spec = LayoutSpec(sections: [
            LayoutSection(id: "s", itemCount: 1, group: row, contentInsetsReference: .layoutMargins)
        ])
        let environment = LayoutEnvironment(
            width: 400,
            height: 800,
            scale: 2,
            safeAreaInsets: EdgeInsets(leading: 44, trailing: 44),
            layoutMargins: EdgeInsets(leading: 0.05, trailing: 16)
        )
        let result = try LayoutSolver.solve(spec, in: environment)
        // Leading margin 0.05 × 400 = 20, trailing 16: width 364 at x 20.
        #expect(result.sections[0].itemFrames == [rect(20, 0, 364, 50)])
        var automatic = spec
        automatic.sections[0].contentInsetsReference = .automatic
        #expect(try LayoutSolver.solve(automatic, in: environment).sections[0].itemFrames == [rect(44, 0, 312, 50)])
        automatic.sections[0].contentInsetsReference = .none
        #expect(try LayoutSolver.solve(automatic, in: environment).sections[0].itemFrames == [rect(0, 0, 400, 50)])
    }
}
