import Testing

@testable import HomeLayout

/// `NSCollectionLayoutGroup(layoutSize:supplementaryItems:)`: supplementaries anchored to a
/// group's frame inside its contentInsets, once per group instance that holds an item.
@Suite struct GroupSupplementaryTests {
    func supplementary(
        _ kind: String,
        width: Double,
        height: Double,
        edges: AnchorEdges,
        fractionalOffset: Point = .zero,
        itemAnchor: SupplementaryAnchor? = nil
    ) -> ItemSupplementary {
        ItemSupplementary(
            elementKind: kind,
            size: LayoutSize(width: .absolute(width), height: .absolute(height)),
            anchor: SupplementaryAnchor(edges: edges, fractionalOffset: fractionalOffset),
            itemAnchor: itemAnchor
        )
    }

    @Test("anchored inside the group's insets: [.trailing] with fractional offset (1, 0) sits at x = 355")
    func measuredTrailing() throws {
        var group = hgroup(
            .fractionalWidth(1),
            .absolute(100),
            [item(.fractionalWidth(1), .fractionalHeight(1))],
            insets: EdgeInsets(trailing: 20)
        )
        group.supplementaryItems = [
            supplementary("handle", width: 20, height: 60, edges: [.trailing], fractionalOffset: Point(x: 1, y: 0))
        ]
        let s = try solve(group, count: 3, scale: 3).sections[0]
        // Content box (0, 0, 375 − 20 = 355, 100): x = 355 − 20 + 1 × 20 = 355; centred
        // vertically: (100 − 60) / 2 = 20, in each of the three repetitions (stride 100).
        #expect(
            s.supplementaries.map(\.frame) == [rect(355, 20, 20, 60), rect(355, 120, 20, 60), rect(355, 220, 20, 60)]
        )
        #expect(s.supplementaries.map(\.group) == [0, 1, 2])
        #expect(s.supplementaries.map(\.item) == [nil, nil, nil])
        #expect(s.itemFrames[0] == rect(0, 0, 355, 100))
    }

    @Test("a partial last repetition keeps its group supplementary, listed after the badges")
    func partialRepetition() throws {
        let badge = ItemSupplementary(
            elementKind: "badge",
            size: LayoutSize(width: .absolute(10), height: .absolute(10)),
            anchor: SupplementaryAnchor(edges: [.top, .trailing])
        )
        let cell = LayoutItem(
            size: LayoutSize(width: .absolute(100), height: .absolute(50)),
            supplementaryItems: [badge]
        )
        var group = hgroup(.absolute(300), .absolute(50), [.item(cell)], insets: EdgeInsets(top: 5, leading: 5))
        group.supplementaryItems = [supplementary("chip", width: 30, height: 10, edges: [.bottom, .leading])]
        let s = try solve(group, count: 4).sections[0]
        // The group fits two 100-wide items in 300 − 5 = 295 (three would need 300): reps hold 2 + 2.
        // Content box (5, 5, 295, 45): chip at (5, 50 − 10 = 40); second repetition at y + 50.
        #expect(s.supplementaries.map(\.elementKind) == ["badge", "badge", "badge", "badge", "chip", "chip"])
        #expect(s.supplementaries[4].frame == rect(5, 40, 30, 10))
        #expect(s.supplementaries[5].frame == rect(5, 90, 30, 10))
        #expect(s.supplementaries[5].group == 1)
        let three = try solve(group, count: 3).sections[0]
        // Three items: the last repetition holds one item, and its chip is still there.
        #expect(three.supplementaries.filter { $0.elementKind == "chip" }.map(\.group) == [0, 1])
    }

    @Test("nested groups: the outer group's supplementary first; an inner group without items has none")
    func nested() throws {
        var inner = hgroup(.fractionalWidth(1), .absolute(40), [item(.fractionalWidth(0.5), .fractionalHeight(1))])
        inner.supplementaryItems = [supplementary("rowMark", width: 4, height: 4, edges: [.top, .leading])]
        var outer = vgroup(.fractionalWidth(1), .absolute(80), [.group(inner)])
        outer.supplementaryItems = [supplementary("cardMark", width: 8, height: 8, edges: [.bottom, .trailing])]
        let s = try solve(outer, count: 3).sections[0]
        // Outer 375 × 80 holds two inner rows of 40, each of two 187.5-wide items: four slots.
        // Repetition 0: cardMark at (375 − 8, 80 − 8); rowMark at (0, 0) and (0, 40).
        // Three items: the second row of repetition 0 starts at slot 2, which holds item 2.
        #expect(
            s.supplementaries.map(\.frame) == [rect(367, 72, 8, 8), rect(0, 0, 4, 4), rect(0, 40, 4, 4)]
        )
        let one = try solve(outer, count: 1).sections[0]
        // One item: the second row holds none, so only cardMark and the first rowMark remain.
        #expect(one.supplementaries.map(\.elementKind) == ["cardMark", "rowMark"])
    }

    @Test("an estimated group anchors to its content-fit extent; insets on estimated axes are zero")
    func estimatedGroup() throws {
        var group = vgroup(
            .fractionalWidth(1),
            .estimated(200),
            [item(.fractionalWidth(1), .absolute(30))],
            insets: EdgeInsets(top: 10, bottom: 10)
        )
        group.supplementaryItems = [supplementary("end", width: 10, height: 10, edges: [.bottom])]
        let s = try solve(group, count: 1).sections[0]
        // Estimated height: one pass, content-fit 30 (insets ignored); "end" at (375 − 10)/2, 30 − 10.
        #expect(s.supplementaries[0].frame == rect(182.5, 20, 10, 10))
    }

    @Test("itemAnchor puts the supplementary's own anchor point on the container's")
    func itemAnchor() throws {
        var group = hgroup(.absolute(100), .absolute(50), [item(.fractionalWidth(1), .fractionalHeight(1))])
        group.supplementaryItems = [
            supplementary(
                "flag",
                width: 20,
                height: 10,
                edges: [.top, .trailing],
                itemAnchor: SupplementaryAnchor(edges: [.bottom, .leading], absoluteOffset: Point(x: 2, y: 0))
            )
        ]
        let s = try solve(group, count: 1).sections[0]
        // Container point (100, 0); the flag's bottom-leading point (0, 10) shifted by its own
        // offset (2, 0) goes there: origin (100 − 0 − 2, 0 − 10 − 0) = (98, −10).
        #expect(s.supplementaries[0].frame == rect(98, -10, 20, 10))
    }

    @Test("horizontal scrolling transposes group supplementaries with the rest")
    func transposed() throws {
        var column = vgroup(.absolute(100), .fractionalHeight(1), [item(.fractionalWidth(1), .fractionalHeight(1))])
        column.supplementaryItems = [supplementary("tab", width: 10, height: 20, edges: [.bottom])]
        let spec = LayoutSpec(
            configuration: LayoutConfiguration(scrollDirection: .horizontal),
            sections: [LayoutSection(id: "s", itemCount: 2, group: column)]
        )
        let result = try LayoutSolver.solve(spec, in: LayoutEnvironment(width: 375, height: 600, scale: 2))
        // Columns 100 × 600 at x = 0 and 100; "tab" centred horizontally at the bottom.
        #expect(result.sections[0].supplementaries.map(\.frame) == [rect(45, 580, 10, 20), rect(145, 580, 10, 20)])
    }

    @Test("element kinds: unique within a group, and distinct from the section's boundary kinds")
    func kinds() {
        var group = hgroup(.fractionalWidth(1), .absolute(50), [item(.fractionalWidth(1), .fractionalHeight(1))])
        group.supplementaryItems = [
            supplementary("a", width: 1, height: 1, edges: []), supplementary("a", width: 1, height: 1, edges: []),
        ]
        let duplicate = solveError(group)
        #expect(duplicate?.code == "duplicateElementKind")
        #expect(duplicate?.path == "sections[0].group.supplementaryItems[1].elementKind")

        group.supplementaryItems = [supplementary("header", width: 1, height: 1, edges: [])]
        let clash = solveError(group) {
            $0.boundarySupplementaryItems = [
                BoundarySupplementaryItem(
                    elementKind: "header",
                    size: LayoutSize(width: .fractionalWidth(1), height: .absolute(10)),
                    alignment: .top
                )
            ]
        }
        #expect(clash?.code == "duplicateElementKind")
    }
}
